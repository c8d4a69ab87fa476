package ptx2go_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/atomics"
	"github.com/ptx2go/ptx2go/generated/barrier_exit"
	"github.com/ptx2go/ptx2go/generated/constant_data"
	"github.com/ptx2go/ptx2go/generated/convert"
	"github.com/ptx2go/ptx2go/generated/cvt_round"
	"github.com/ptx2go/ptx2go/generated/divergent_loop"
	"github.com/ptx2go/ptx2go/generated/dynamic_shared"
	"github.com/ptx2go/ptx2go/generated/early_exit"
	"github.com/ptx2go/ptx2go/generated/fapprox"
	"github.com/ptx2go/ptx2go/generated/fminmax"
	"github.com/ptx2go/ptx2go/generated/fp64_math"
	"github.com/ptx2go/ptx2go/generated/fround"
	"github.com/ptx2go/ptx2go/generated/funcptr"
	"github.com/ptx2go/ptx2go/generated/grid_stride"
	"github.com/ptx2go/ptx2go/generated/int64_math"
	"github.com/ptx2go/ptx2go/generated/local_array"
	"github.com/ptx2go/ptx2go/generated/matmul_2d"
	"github.com/ptx2go/ptx2go/generated/recursion"
	"github.com/ptx2go/ptx2go/generated/reduce_shared"
	"github.com/ptx2go/ptx2go/generated/saxpy_math"
	"github.com/ptx2go/ptx2go/generated/struct_byval"
	"github.com/ptx2go/ptx2go/generated/switch_dense"
	"github.com/ptx2go/ptx2go/generated/vecadd"
	"github.com/ptx2go/ptx2go/generated/vector_types"
	"github.com/ptx2go/ptx2go/runtime"
)

// generatedModules are the packages `make generate` writes under generated/, by testdata name:
// the Go source back end's output for testdata/ptx/NAME.ptx.
var generatedModules = map[string]*runtime.Module{
	"atomics":        atomics.Module,
	"barrier_exit":   barrier_exit.Module,
	"constant_data":  constant_data.Module,
	"convert":        convert.Module,
	"cvt_round":      cvt_round.Module,
	"divergent_loop": divergent_loop.Module,
	"dynamic_shared": dynamic_shared.Module,
	"early_exit":     early_exit.Module,
	"fapprox":        fapprox.Module,
	"fminmax":        fminmax.Module,
	"fp64_math":      fp64_math.Module,
	"fround":         fround.Module,
	"funcptr":        funcptr.Module,
	"grid_stride":    grid_stride.Module,
	"int64_math":     int64_math.Module,
	"local_array":    local_array.Module,
	"matmul_2d":      matmul_2d.Module,
	"recursion":      recursion.Module,
	"reduce_shared":  reduce_shared.Module,
	"saxpy_math":     saxpy_math.Module,
	"struct_byval":   struct_byval.Module,
	"switch_dense":   switch_dense.Module,
	"vecadd":         vecadd.Module,
	"vector_types":   vector_types.Module,
}

// TestKernelsGenerated runs every case of TestKernels whose module has a generated package on
// the Go source engine (ptx2go.Load of the generated Module), with one and four workers,
// checks the results against the Go reference, and checks that every output buffer holds the
// same bytes, and a one-worker run the same statistics, as the closure engine's run on the
// same inputs.
func TestKernelsGenerated(t *testing.T) {
	for _, c := range slices.Concat(kernelCases, isaKernelCases) {
		rt, ok := generatedModules[c.file]
		if !ok {
			continue
		}
		t.Run(c.file+"/"+c.kernel, func(t *testing.T) {
			t.Parallel()
			gen, err := ptx2go.Load(rt)
			require.NoError(t, err)
			gk, err := gen.Kernel(c.kernel)
			require.NoError(t, err)
			closure, err := ptx2go.CompileFile(kernelLevels(c.file)[0].path)
			require.NoError(t, err)
			ck, err := closure.Kernel(c.kernel)
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
					require.Equal(t, stats[0], stats[1], "statistics differ from the closure engine's")
				})
			}
		})
	}
}
