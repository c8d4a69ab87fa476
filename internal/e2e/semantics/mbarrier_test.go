package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestMbarrier runs testdata/ptx/hand/mbarrier.ptx on both engines. forms: one warp's lanes
// arrive one after another on a barrier expecting 40 (pending counts 40-l), complete phase 0
// with .noComplete arrivals and one plain one, wait by state and by parity, drop 2 arrivals
// on four lanes (later phases expect 32) and arrive through a generic address, phase 1
// completing at the last lane. bad: what PTX leaves undefined faults at its line.
func TestMbarrier(t *testing.T) {
	const path = "testdata/ptx/hand/mbarrier.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("forms")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(5 * 32 * 4)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out))
		got := make([]uint32, 5*32)
		require.NoError(t, runtime.Download(dev, got, out))
		for l := range uint32(32) {
			require.Equal(t, 40-l, got[l], "lane %d: pending before its arrival in phase 0", l)
			require.Equal(t, uint32(2), got[32+l], "lane %d: waits before and after phase 0 completes (bit 1: after)", l)
			require.Equal(t, uint32(1), got[64+l], "lane %d: in phase 1, parity 0 completed (bit 0), parity 1 not (bit 1)", l)
			require.Equal(t, 32-l, got[96+l], "lane %d: pending before its arrival in phase 1, after the drops", l)
			want := uint32(1) // phase 1's state completed; parity 0 (phase 2) not
			if l < 4 {
				want |= (40 - 2*l) << 8 // pending before the lane's drop
			}
			require.Equal(t, want, got[128+l], "lane %d: in phase 2", l)
		}

		kb, err := mod.Kernel("bad")
		require.NoError(t, err)
		buf, err := dev.Malloc(64)
		require.NoError(t, err)
		for kind, f := range []struct {
			marker   runtime.FaultKind
			fault    string
			misalign bool
		}{
			{runtime.FaultIllegal, "zero", false},
			{runtime.FaultIllegal, "uninit", false},
			{runtime.FaultIllegal, "nocomplete", false},
			{runtime.FaultIllegal, "global", false},
			{runtime.FaultMisaligned, "misaligned", true},
		} {
			err := kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), uint32(kind), buf)
			harness.CheckFault(t, err, harness.FaultWant{Kind: f.marker, Kernel: "bad", Loc: harness.FaultLocIn(t, path, f.fault), Thread: runtime.Dim3{X: 5}})
		}
	})
}
