package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// laneFusedPath holds fuseds, whose device function branches the closure engine runs per
// lane with its comparisons fused with their branches (codegen/closure/lanefuse.go), and wide,
// which has too many registers for a per-lane form.
const laneFusedPath = "testdata/ptx/lane_fused.ptx"

// TestLaneFusedBothEngines runs fuseds on both engines against the Go reference, without
// statistics (per-lane calls where an engine has them) and with them (the SIMT stack), and
// requires the same statistics from both engines.
func TestLaneFusedBothEngines(t *testing.T) {
	const n = 192
	in := harness.LaneFusedInputs(n)
	want := make([]uint32, 3*n)
	for i, a := range in {
		v := harness.LaneBranchesGo(a, in[i^1])
		want[2*i], want[2*i+1], want[2*n+i] = uint32(v), uint32(v>>32), harness.LaneWideGo(a)
	}
	stats := map[string]*runtime.Stats{}
	harness.OnEngines(t, laneFusedPath, func(t *testing.T) {
		mod, err := harness.LoadModule(t, laneFusedPath)
		require.NoError(t, err)
		k, err := mod.Kernel("fuseds")
		require.NoError(t, err)
		cfg := runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.D1(n / 3)}
		for _, withStats := range []bool{false, true} {
			if withStats {
				cfg.Stats, cfg.Workers = &runtime.Stats{}, 1
			}
			dev := runtime.NewDevice()
			pin, err := runtime.Upload(dev, in)
			require.NoError(t, err)
			pout := harness.SemFilled(t, dev, 3*n, harness.SemSentinel)
			require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, pout, pin, uint32(n)))
			require.Equal(t, want, harness.SemDownload(t, dev, pout, 3*n), "statistics: %v", withStats)
		}
		stats[t.Name()] = cfg.Stats
	})
	if len(stats) == 2 {
		var s []*runtime.Stats
		for _, v := range stats {
			s = append(s, v)
		}
		require.Equal(t, *s[0], *s[1], "statistics of the two engines")
	}
}
