package semantics_test

// Predication of short branches (runtime.Term.Predicated, codegen/layout's Predicated): a
// divergent branch around a short, side-effect-safe region runs that region for each side's
// lanes without SIMT stack entries. Each kernel here runs with predication (the default) and
// without it (LaunchConfig.NoPredication), with and without statistics, on both engines, and
// must leave the same memory, the same statistics (but for Stats.PredicatedRegions, which only
// the predicated runs count) and the same faults.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// predRun is one launch's outcome: its buffers after the launch, statistics and error.
type predRun struct {
	bufs  [][]uint32
	stats runtime.Stats
	err   error
}

// predLaunch uploads bufs, runs kernel k on them (then the scalars) and returns the outcome.
func predLaunch(t *testing.T, k *ptx2go.Kernel, cfg runtime.LaunchConfig, stats bool, bufs [][]uint32, scalars ...any) predRun {
	t.Helper()
	dev := runtime.NewDevice()
	var args []any
	var ptrs []runtime.Ptr
	for _, b := range bufs {
		p := harness.Upload(t, dev, b)
		ptrs = append(ptrs, p)
		args = append(args, p)
	}
	var r predRun
	if stats {
		cfg.Stats = &r.stats
	}
	r.err = k.LaunchConfig(t.Context(), dev, cfg, append(args, scalars...)...)
	for i, p := range ptrs {
		out := make([]uint32, len(bufs[i]))
		harness.Download(t, dev, out, p)
		r.bufs = append(r.bufs, out)
	}
	return r
}

// requireSamePredicated runs the kernel with and without predication and compares them; it
// returns the predicated run's count of predicated regions (with statistics).
func requireSamePredicated(t *testing.T, k *ptx2go.Kernel, cfg runtime.LaunchConfig, bufs [][]uint32, scalars ...any) uint64 {
	t.Helper()
	var regions uint64
	for _, stats := range []bool{true, false} {
		pred := predLaunch(t, k, cfg, stats, bufs, scalars...)
		off := cfg
		off.NoPredication = true
		stack := predLaunch(t, k, off, stats, bufs, scalars...)
		require.Equal(t, stack.bufs, pred.bufs, "memory (stats %v)", stats)
		if stack.err != nil || pred.err != nil {
			var fs, fp *runtime.Fault
			require.True(t, errors.As(stack.err, &fs), "without predication: %v", stack.err)
			require.True(t, errors.As(pred.err, &fp), "with predication: %v", pred.err)
			require.Equal(t, fs.Error(), fp.Error())
			require.Equal(t, [4]any{fs.Kind, fs.Loc, fs.CTA, fs.Thread}, [4]any{fp.Kind, fp.Loc, fp.CTA, fp.Thread})
		}
		require.Zero(t, stack.stats.PredicatedRegions)
		if stats {
			regions = pred.stats.PredicatedRegions
			pred.stats.PredicatedRegions = 0
			require.Equal(t, stack.stats, pred.stats, "statistics")
		}
	}
	return regions
}

func TestPredicatedRegions(t *testing.T) {
	const path = "testdata/ptx/semantics/predicated.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(32, 7))
		for _, threads := range []uint32{32, 100} {
			// Three CTAs write the same outputs and take numbers from one atomic counter:
			// with one worker, in the same order every run; with all cores, one CTA.
			for _, workers := range []int{1, 0} {
				t.Run(fmt.Sprintf("threads=%d/workers=%d", threads, workers), func(t *testing.T) {
					cfg := runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.D1(threads), Workers: workers}
					if workers != 1 {
						cfg.Grid = runtime.D1(1)
					}
					in := make([]uint32, threads)
					for i := range in {
						in[i] = r.Uint32N(64)
					}
					k, err := mod.Kernel("nested")
					require.NoError(t, err)
					n := requireSamePredicated(t, k, cfg, [][]uint32{make([]uint32, threads), in, {5}})
					// Per warp: the inner if (where its lanes split) and pick's if-else.
					require.NotZero(t, n, "no region ran predicated")

					k, err = mod.Kernel("faulty")
					require.NoError(t, err)
					for i := range in {
						in[i] = 1000 + r.Uint32N(threads) // in bounds: in[in[i]-1000]
						if r.IntN(3) == 0 {
							in[i] = r.Uint32N(1000) // skips the region
						}
					}
					requireSamePredicated(t, k, cfg, [][]uint32{make([]uint32, threads), in})
					in[7] = math.MaxUint32 // lane 7's load faults in the region
					in[9] = math.MaxUint32 - 5
					// One worker: with more, what the other CTAs did before they stopped varies.
					one := cfg
					one.Workers = 1
					requireSamePredicated(t, k, one, [][]uint32{make([]uint32, threads), in})
				})
			}
		}
	})
}

// TestPredicatedShortIfs runs short_ifs.cu's kernel, compiled by clang (-O2 and -O0) and nvcc,
// with and without predication: clamps that count with atomics, boundary checks around loads,
// a ternary that loads and conditional stores, on random data so that every warp diverges.
func TestPredicatedShortIfs(t *testing.T) {
	for _, path := range []string{"testdata/ptx/short_ifs.ptx", "testdata/ptx/nvcc/short_ifs.ptx", "testdata/ptx/O0/short_ifs.ptx"} {
		t.Run(path, func(t *testing.T) {
			harness.OnEngines(t, path, func(t *testing.T) {
				mod, err := harness.LoadModule(t, path)
				require.NoError(t, err)
				k, err := mod.Kernel("short_ifs")
				require.NoError(t, err)
				const n = 1000
				r := rand.New(rand.NewPCG(32, 8))
				in, flags, mark := make([]uint32, n), make([]uint32, n), make([]uint32, n)
				for i := range in {
					in[i] = math.Float32bits(r.Float32()*200 - 100)
					flags[i] = r.Uint32N(4)
					mark[i] = math.Float32bits(r.Float32())
				}
				for _, workers := range []int{1, 0} {
					cfg := runtime.LaunchConfig{Grid: runtime.D1(4), Block: runtime.D1(256), Workers: workers}
					regions := requireSamePredicated(t, k, cfg, [][]uint32{make([]uint32, n), mark, {3, 4}, in, flags},
						n, float32(-50), float32(60))
					t.Logf("workers=%d: %d regions ran predicated", workers, regions)
					if path != "testdata/ptx/O0/short_ifs.ptx" {
						require.NotZero(t, regions, "no region ran predicated")
					}
				}
			})
		})
	}
}
