// Package race_test holds the launches that make test runs again under the race detector:
// many CTAs on many workers, and many launches at once. It uses the curated packages of
// generated/ for the Go source engine, not the harness and its corpus, so that the race
// build compiles only the runtime, the closure back end and two small generated packages.
package race_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/atomics"
	"github.com/ptx2go/ptx2go/generated/vecadd"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestParallelAtomics launches 64 CTAs on 8 workers whose threads all update the same global
// words with atom.add (integer and float) and a CAS loop; totals must be exact. Run with -race
// it also shows the CTAs share memory without data races.
func TestParallelAtomics(t *testing.T) {
	onEngines(t, "atomics.ptx", atomics.Module, func(t *testing.T, mod *ptx2go.Module) {
		dev := runtime.NewDevice()
		const blocks, threads = 64, 128
		const n = blocks * threads
		rng := rand.New(rand.NewPCG(1, 2))
		xi := make([]int32, n)
		xf := make([]float32, n)
		var wantI int32
		var wantF float32
		for i := range xi {
			xi[i] = rng.Int32N(1000) - 500
			xf[i] = float32(rng.IntN(16)) // small integers: every partial sum is exact
			wantI += xi[i]
			wantF += xf[i]
		}
		pxi, err := runtime.Upload(dev, xi)
		require.NoError(t, err)
		pxf, err := runtime.Upload(dev, xf)
		require.NoError(t, err)
		sums, err := dev.Malloc(8)
		require.NoError(t, err)

		k, err := mod.Kernel("atomic_sum")
		require.NoError(t, err)
		cfg := runtime.LaunchConfig{Grid: runtime.D1(blocks), Block: runtime.D1(threads), Workers: 8}
		require.NoError(t, k.LaunchConfig(context.Background(), dev, cfg, sums, sums+4, pxi, pxf, n))
		gotI := make([]int32, 1)
		gotF := make([]float32, 1)
		require.NoError(t, runtime.Download(dev, gotI, sums))
		require.NoError(t, runtime.Download(dev, gotF, sums+4))
		require.Equal(t, wantI, gotI[0])
		require.Equal(t, wantF, gotF[0])

		// saturating_add reads the counter with a plain load and updates it with atom.cas.
		counter, err := runtime.Upload(dev, []int32{5})
		require.NoError(t, err)
		v := make([]int32, n)
		want := int64(5)
		for i := range v {
			v[i] = rng.Int32N(100)
			want += int64(v[i])
		}
		pv, err := runtime.Upload(dev, v)
		require.NoError(t, err)
		sat, err := mod.Kernel("saturating_add")
		require.NoError(t, err)
		require.NoError(t, sat.LaunchConfig(context.Background(), dev, cfg, counter, pv, n, int32(1<<30)))
		got := make([]int32, 1)
		require.NoError(t, runtime.Download(dev, got, counter))
		require.Equal(t, int32(want), got[0])
	})
}

// TestConcurrentLaunches runs several goroutines at once, each allocating, uploading,
// launching vecadd, downloading, checking and freeing, in a loop: half of them share one
// device, the others have one each. Run with -race it also shows that launches, copies,
// Malloc and Free on one device may overlap.
func TestConcurrentLaunches(t *testing.T) {
	onEngines(t, "vecadd.ptx", vecadd.Module, func(t *testing.T, mod *ptx2go.Module) {
		k, err := mod.Kernel("vecadd")
		require.NoError(t, err)
		shared := runtime.NewDevice()
		const goroutines, rounds, n = 8, 6, 300
		errs := make(chan error, goroutines)
		for g := range goroutines {
			go func() {
				dev := shared
				if g%2 == 1 {
					dev = runtime.NewDevice()
				}
				errs <- concurrentVecadd(dev, k, uint64(g), rounds, n)
			}()
		}
		for range goroutines {
			require.NoError(t, <-errs)
		}
	})
}

// concurrentVecadd runs vecadd rounds times on fresh buffers of n random floats and checks c = a + b.
func concurrentVecadd(dev *runtime.Device, k *ptx2go.Kernel, seed uint64, rounds, n int) error {
	rng := rand.New(rand.NewPCG(seed, 7))
	for r := range rounds {
		a := make([]float32, n)
		b := make([]float32, n)
		for i := range a {
			a[i], b[i] = rng.Float32(), rng.Float32()
		}
		pa, err := runtime.Upload(dev, a)
		if err != nil {
			return err
		}
		pb, err := runtime.Upload(dev, b)
		if err != nil {
			return err
		}
		pc, err := dev.Malloc(4 * n)
		if err != nil {
			return err
		}
		cfg := runtime.LaunchConfig{Grid: runtime.D1(uint32((n + 127) / 128)), Block: runtime.D1(128), Workers: 1 + r%3}
		if err := k.LaunchConfig(context.Background(), dev, cfg, pc, pa, pb, uint32(n)); err != nil {
			return err
		}
		c := make([]float32, n)
		if err := runtime.Download(dev, c, pc); err != nil {
			return err
		}
		for i := range c {
			if c[i] != a[i]+b[i] {
				return fmt.Errorf("round %d: c[%d] = %v, want %v", r, i, c[i], a[i]+b[i])
			}
		}
		for _, p := range []runtime.Ptr{pa, pb, pc} {
			if err := dev.Free(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// onEngines runs f as the subtests engine=closure, on testdata/ptx/file compiled, and
// engine=go, on gen, the module's curated package under generated/.
func onEngines(t *testing.T, file string, gen *runtime.Module, f func(t *testing.T, mod *ptx2go.Module)) {
	t.Run("engine=closure", func(t *testing.T) {
		mod, err := ptx2go.CompileFile(filepath.Join("..", "..", "..", "testdata", "ptx", file))
		require.NoError(t, err)
		f(t, mod)
	})
	t.Run("engine=go", func(t *testing.T) {
		mod, err := ptx2go.Load(gen)
		require.NoError(t, err)
		f(t, mod)
	})
}
