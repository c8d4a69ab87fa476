package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestSharedLayout runs testdata/ptx/hand/shared_layout.ptx on both engines: two kernels whose
// 40 KiB shared arrays no kernel uses together share bytes, so the module's static shared
// memory is one kernel's, each kernel reports its own (runtime.Func.StaticShared, 40 KiB and
// the helper's 1 KiB), and the results show that the helper's array, each kernel's array and
// the dynamic shared memory do not overlap.
func TestSharedLayout(t *testing.T) {
	const path = "testdata/ptx/hand/shared_layout.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		rt := mod.Runtime()
		const want = 40960 + 1024
		require.Equal(t, want, rt.SharedSize, "module static shared memory")
		for _, fn := range rt.Funcs {
			if fn.Kernel {
				require.Equal(t, want, fn.StaticShared, "%s's static shared memory", fn.Name)
			}
		}
		dev := runtime.NewDevice()
		for k, name := range []string{"big_a", "big_b"} {
			k++
			const n = 256
			out, err := dev.Malloc(4 * n)
			require.NoError(t, err)
			kern, err := mod.Kernel(name)
			require.NoError(t, err)
			cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(n), DynamicShared: 4 * n}
			require.NoError(t, kern.LaunchConfig(t.Context(), dev, cfg, out))
			got := make([]uint32, n)
			require.NoError(t, runtime.Download(dev, got, out))
			for tid := range n {
				w := tid + 1000*k + 7*((tid+1)%n) + 5*((tid+2)%n) + k
				require.Equal(t, uint32(w), got[tid], "%s out[%d]", name, tid)
			}
		}
	})
}
