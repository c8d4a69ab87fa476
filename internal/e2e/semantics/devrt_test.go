package semantics_test

// Dynamic parallelism (runtime/devrt.go): the kernels of testdata/cuda/devrt/cdp.cu, compiled
// by nvcc -rdc=true, launch child grids through the device runtime's
// cudaGetParameterBufferV2 and cudaLaunchDeviceV2. Each result is checked against a Go
// reference of what the CUDA programming guide says the grids do.

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

const cdpPath = "testdata/ptx/devrt/cdp.ptx"

// TestDynamicParallelism runs the kernels on both engines, with one worker and with several:
// a tree of grids four levels deep, whose launch returns only when every grid ran; parents
// that wait for their child grid with the device-side cudaDeviceSynchronize and read what it
// wrote; grids launched into one device stream, which run in launch order; a launch with a
// bad configuration, whose error cudaGetLastError returns once.
func TestDynamicParallelism(t *testing.T) {
	harness.OnEngines(t, cdpPath, func(t *testing.T) {
		mod, err := harness.LoadModule(t, cdpPath)
		require.NoError(t, err)
		for _, workers := range []int{1, 4} {
			dev := runtime.NewDevice()

			// node: grid 3x4 at depth 0; every block's thread 0 launches 2 blocks of 3.
			const depths = 4
			count, err := dev.Malloc(4 * depths)
			require.NoError(t, err)
			k, err := mod.Kernel("node")
			require.NoError(t, err)
			cfg := runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.D1(4), Workers: workers}
			require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, count, 0, depths))
			want := make([]int32, depths)
			blocks, threads := 3, 4
			for d := range depths {
				want[d] = int32(blocks * threads)
				blocks, threads = blocks*2, 3
			}
			got := make([]int32, depths)
			require.NoError(t, runtime.Download(dev, got, count))
			require.Equal(t, want, got, "threads at each depth (workers=%d)", workers)

			// sum_of_squares: 5 blocks of 64 threads, 70 values each (3 CTAs of the child).
			const nb, n = 5, 70
			r := rand.New(rand.NewPCG(7, uint64(workers)))
			v := make([]int32, nb*n)
			sums := make([]int32, nb)
			for i := range v {
				v[i] = r.Int32N(2001) - 1000
				sums[i/n] += v[i] * v[i]
			}
			pv, err := runtime.Upload(dev, v)
			require.NoError(t, err)
			out, err := dev.Malloc(4 * nb)
			require.NoError(t, err)
			k, err = mod.Kernel("sum_of_squares")
			require.NoError(t, err)
			cfg = runtime.LaunchConfig{Grid: runtime.D1(nb), Block: runtime.D1(64), Workers: workers}
			require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, pv, n, out))
			gotSums := make([]int32, nb)
			require.NoError(t, runtime.Download(dev, gotSums, out))
			require.Equal(t, sums, gotSums, "sums of squares (workers=%d)", workers)

			// chain: 6 grids in one stream, each x[k] = 3*x[k-1] + k.
			const steps = 6
			x := make([]int32, steps+1)
			x[0] = 5
			px, err := runtime.Upload(dev, x)
			require.NoError(t, err)
			for i := 1; i <= steps; i++ {
				x[i] = 3*x[i-1] + int32(i)
			}
			k, err = mod.Kernel("chain")
			require.NoError(t, err)
			cfg = runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(1), Workers: workers}
			require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, px, steps))
			gotX := make([]int32, steps+1)
			require.NoError(t, runtime.Download(dev, gotX, px))
			require.Equal(t, x, gotX, "grids of one stream in launch order (workers=%d)", workers)

			// bad_config: blocks of 2048 threads are cudaErrorInvalidConfiguration (9).
			perr, err := dev.Malloc(8)
			require.NoError(t, err)
			k, err = mod.Kernel("bad_config")
			require.NoError(t, err)
			require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, perr))
			gotErr := make([]int32, 2)
			require.NoError(t, runtime.Download(dev, gotErr, perr))
			require.Equal(t, []int32{9, 0}, gotErr, "cudaGetLastError after a bad launch, twice")
		}
	})
}

// TestDynamicParallelismDepth checks the nesting limit: dive launches itself one level deeper
// each time; the launch from the grid at depth 24 is a FaultLaunchDepth fault naming the
// kernel, its CTA and thread and the PTX line of the launch, after the grids above it wrote
// their depth.
func TestDynamicParallelismDepth(t *testing.T) {
	harness.OnEngines(t, cdpPath, func(t *testing.T) {
		mod, err := harness.LoadModule(t, cdpPath)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		deepest, err := dev.Malloc(4)
		require.NoError(t, err)
		k, err := mod.Kernel("dive")
		require.NoError(t, err)
		err = k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(1), deepest, 0)
		var f *runtime.Fault
		require.True(t, errors.As(err, &f), "want a fault, got %v", err)
		require.Equal(t, runtime.FaultLaunchDepth, f.Kind)
		require.Equal(t, "dive", f.Kernel)
		require.Equal(t, runtime.Dim3{}, f.CTA)
		require.Equal(t, runtime.Dim3{}, f.Thread)
		require.True(t, strings.HasPrefix(f.Loc, cdpPath+":"), "fault location %q", f.Loc)
		require.Contains(t, f.Error(), "nesting depth 24")
		got := make([]int32, 1)
		require.NoError(t, runtime.Download(dev, got, deepest))
		require.Equal(t, int32(runtime.MaxLaunchDepth), got[0])
	})
}
