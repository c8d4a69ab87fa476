package kernelcases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// checkExempt are the kernels whose reports under the sanitizer RunChecked skips, with why:
// either a real race of the kernel under the CUDA memory model, or a known limitation of the
// checker (a false report, not fixed yet: docs/sanitizer.md lists them). Every other kernel of
// the corpus is correct code, so RunChecked fails on any report elsewhere.
var checkExempt = map[string]string{
	// Real races: data handed over through volatile polling, with no fence or barrier; the
	// CUDA memory model does not order the accesses (racecheck must report volatile accesses,
	// as compute-sanitizer does, or a warp reduction through volatile shared memory that lacks
	// __syncwarp() would go unreported).
	"its/lane_handoff":          "kernel race: flags handed over through volatile global memory without a fence",
	"barrier_exit/warp_handoff": "kernel race: a value handed over through volatile shared memory between warps without a barrier",
	// Checker limitations.
	"its/spin_lock":                           "checker: ordering by __threadfence() with atomics (a spin lock) is not modelled",
	"mbarrier/barrier_split":                  "checker: ordering by mbarrier arrive/wait is not modelled",
	"mbarrier/barrier_drop":                   "checker: ordering by mbarrier arrive/wait is not modelled",
	"mbarrier/barrier_rounds":                 "checker: ordering by mbarrier arrive/wait is not modelled",
	"cp_async/barrier_copy":                   "checker: cp.async completion through an mbarrier (cuda::barrier) is not modelled",
	"cg_tiles/tile_shuffle":                   "checker: false hazard across cooperative-groups tile synchronization (bar.warp.sync with a partial mask), not diagnosed yet",
	"cg_tiles/tile_reduce64":                  "checker: false hazard across cooperative-groups tile synchronization (bar.warp.sync with a partial mask), not diagnosed yet",
	"cg_tiles/tile_reduce128":                 "checker: false hazard across cooperative-groups tile synchronization (bar.warp.sync with a partial mask), not diagnosed yet",
	"its/syncwarp_both_sides":                 "checker: under its, lanes may meet at different __syncwarp() instructions (sm_70+); synccheck reports the membermask and racecheck misses the ordering",
	"its/store_return_barrier":                "checker: synccheck reports threads that exit while others wait at a barrier, which PTX allows (bar.sync counts non-exited threads)",
	"barrier_exit/early_return_barrier":       "checker: synccheck reports threads that exit while others wait at a barrier, which PTX allows (bar.sync counts non-exited threads)",
	"barrier_exit/interleaved_return_barrier": "checker: synccheck reports threads that exit while others wait at a barrier, which PTX allows (bar.sync counts non-exited threads)",
	"device_malloc/malloc_sum":                "checker: blocks of the device heap (malloc/free in a kernel) reused by other threads look like races: the heap's ordering is not modelled",
	"device_malloc/free_kept":                 "checker: initcheck reports a read of device-heap memory (malloc in a kernel) another launch wrote, not diagnosed yet",
}

// RunChecked runs the kernel cases on the closure engine compiled with check hooks, with
// racecheck, synccheck and initcheck on (issue 33): each must give no report, and its output
// must still match the Go reference. all runs every level and shape of every case; otherwise
// a deterministic sample: every case, at one compilation level (the cases in turn take O2,
// O0, fast and nvcc, those of nvcc-only sources nvcc), its first shape.
func RunChecked(t *testing.T, all bool) {
	var mods sync.Map // path -> func() (*ptx2go.Module, error)
	compile := func(path string) (*ptx2go.Module, error) {
		f, _ := mods.LoadOrStore(path, sync.OnceValues(func() (*ptx2go.Module, error) {
			src, err := readFile(path)
			if err != nil {
				return nil, err
			}
			return ptx2go.Compile(src, ptx2go.Options{File: path, Check: true})
		}))
		return f.(func() (*ptx2go.Module, error))()
	}
	for i, c := range slices.Concat(kernelCases, isaKernelCases, everydayCases, curandCases, cubCases) {
		levels := Levels(c.file)
		if !all {
			levels = []Level{levels[i%len(levels)]}
		}
		for _, level := range levels {
			t.Run(level.Name+"/"+c.file+"/"+c.kernel, func(t *testing.T) {
				t.Parallel()
				mod, err := compile(level.Path)
				if c.maybeUnsupported {
					kernelSkipUnsupported(t, err)
				}
				require.NoError(t, err)
				k, err := mod.Kernel(c.kernel)
				require.NoError(t, err)
				shapes := c.shapes
				if !all {
					shapes = shapes[:1]
				}
				for i, s := range shapes {
					t.Run(s.String(), func(t *testing.T) {
						f := newKernelFixture(t, kernelSeed(c.file, c.kernel, i))
						f.level = level.Name
						f.dev.EnableChecks(runtime.CheckAll)
						l := c.setup(f, s)
						cfg := runtime.LaunchConfig{Grid: s.grid, Block: s.block, DynamicShared: l.shared, Workers: 4,
							Check: runtime.CheckRace | runtime.CheckSync | runtime.CheckInit}
						err := k.LaunchConfig(t.Context(), f.dev, cfg, l.args...)
						if ce, ok := errors.AsType[*runtime.CheckError](err); ok {
							var b strings.Builder
							runtime.WriteCheckReports(&b, ce.Reports)
							if why, ok := checkExempt[c.file+"/"+c.kernel]; ok {
								t.Skipf("a real bug of the kernel (%s):\n%s", why, b.String())
							}
							t.Fatalf("%d sanitizer reports on correct code:\n%s", len(ce.Reports), b.String())
						}
						require.NoError(t, err)
						l.check(t)
					})
				}
			})
		}
	}
}

// readFile reads a file of the repository by its path from the root.
func readFile(path string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, fmt.Errorf("kernelcases: %w", err)
	}
	return src, nil
}
