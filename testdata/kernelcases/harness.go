// Package kernelcases holds the end-to-end kernel test cases: every kernel of the CUDA sources
// in testdata/cuda with random inputs and a plain Go reference. The root package's tests run
// them on the closure engine at every compilation level (RunClosure), and the test of each
// package under generated/ runs them on that package's Go source engine and on the closure
// engine (RunGenerated), so each case is written once for both engines.
package kernelcases

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// root is the repository root, two directories above this file, so the cases find
// testdata/ wherever the test that runs them lives.
var root = func() string {
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		panic("kernelcases: cannot locate the package source")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// compileFile compiles the PTX file at path (relative to the repository root) with the closure
// engine, naming it by that relative path as `make generate` names generated modules.
func compileFile(path string) (*ptx2go.Module, error) {
	src, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, err
	}
	return ptx2go.Compile(src, ptx2go.Options{File: path})
}

// RunGenerated runs every case of the module that `make generate` compiled into gen (its Name
// is the PTX file's path from the repository root) on the Go source engine with one and four
// workers and on the closure engine compiled from the same PTX. Each run is checked against the
// Go reference, every output buffer must hold the same bytes as after the closure engine's run
// on the same inputs, and a one-worker run must collect the same statistics. A generated module without cases is an error, so none goes untested.
func RunGenerated(t *testing.T, gen *runtime.Module) {
	file := strings.TrimSuffix(filepath.Base(gen.Name), ".ptx")
	level := levelName(gen.Name)
	require.NotEmpty(t, level, "%s is not a compilation of a testdata/cuda source", gen.Name)
	var cases []kernelCase
	for _, c := range slices.Concat(kernelCases, isaKernelCases, everydayCases, curandCases, cubCases) {
		if c.file == file {
			cases = append(cases, c)
		}
	}
	require.NotEmpty(t, cases, "no kernel cases for %s", gen.Name)
	gm, err := ptx2go.Load(gen)
	require.NoError(t, err)
	cm, err := compileFile(filepath.FromSlash(gen.Name))
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			t.Parallel()
			gk, err := gm.Kernel(c.kernel)
			require.NoError(t, err)
			ck, err := cm.Kernel(c.kernel)
			require.NoError(t, err)
			require.Equal(t, ck.Params(), gk.Params())
			for i, s := range c.shapes {
				seed := kernelSeed(c.file, c.kernel, i)
				t.Run(s.String(), func(t *testing.T) {
					var outs [][][]byte
					var stats []*runtime.Stats
					for _, e := range []struct {
						name    string
						k       *ptx2go.Kernel
						workers int
					}{{"closure", ck, 1}, {"go", gk, 1}, {"go", gk, 4}} {
						t.Run(fmt.Sprintf("%s/workers=%d", e.name, e.workers), func(t *testing.T) {
							f := newKernelFixture(t, seed)
							f.level = level
							l := c.setup(f, s)
							cfg := runtime.LaunchConfig{Grid: s.grid, Block: s.block, DynamicShared: l.shared, Workers: e.workers}
							if e.workers == 1 {
								cfg.Stats = &runtime.Stats{}
								stats = append(stats, cfg.Stats)
							}
							require.NoError(t, e.k.LaunchConfig(t.Context(), f.dev, cfg, l.args...))
							l.check(t)
							outs = append(outs, f.outputs())
						})
					}
					for i := 1; i < len(outs); i++ {
						require.Equal(t, outs[0], outs[i], "outputs differ from the closure engine's")
					}
					require.Len(t, stats, 2)
					if !c.clocked {
						require.Equal(t, stats[0], stats[1], "statistics differ from the closure engine's")
					}
				})
			}
		})
	}
}

// levelName is the name of the Level whose PTX file is path.
func levelName(path string) string {
	file := strings.TrimSuffix(filepath.Base(path), ".ptx")
	for _, l := range Levels(file) {
		if l.Path == filepath.FromSlash(path) {
			return l.Name
		}
	}
	return ""
}
