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

// checkExempt are the kernels whose reports under the sanitizer RunChecked skips, each a real
// bug of the kernel under the CUDA memory model, with why. Every other kernel of the corpus is
// correct code, so RunChecked fails on any report elsewhere: a report there is a bug of the
// checker.
var checkExempt = map[string]string{
	// Flags handed over through volatile memory with no fence: nothing orders a thread's store
	// of its flag after what it did before, so the other thread's reads race (racecheck
	// reports volatile accesses, as compute-sanitizer does: a warp reduction through volatile
	// shared memory that lacks __syncwarp() is the bug it must find). A fence before the
	// flag's store would make it a release (barrier_exit/warp_handoff, flag_fence).
	"its/lane_handoff": "kernel race: flags handed over through volatile global memory without a fence",
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
