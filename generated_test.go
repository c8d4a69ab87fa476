package ptx2go_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/atomics"
	"github.com/ptx2go/ptx2go/generated/barrier_exit"
	"github.com/ptx2go/ptx2go/generated/const_store"
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
	"github.com/ptx2go/ptx2go/generated/its"
	"github.com/ptx2go/ptx2go/generated/legacy_warp"
	"github.com/ptx2go/ptx2go/generated/local_array"
	"github.com/ptx2go/ptx2go/generated/matmul_2d"
	"github.com/ptx2go/ptx2go/generated/recursion"
	"github.com/ptx2go/ptx2go/generated/reduce_shared"
	"github.com/ptx2go/ptx2go/generated/saxpy_math"
	"github.com/ptx2go/ptx2go/generated/struct_byval"
	"github.com/ptx2go/ptx2go/generated/switch_dense"
	"github.com/ptx2go/ptx2go/generated/vecadd"
	"github.com/ptx2go/ptx2go/generated/vector_types"
	"github.com/ptx2go/ptx2go/generated/warp_guarded"
	"github.com/ptx2go/ptx2go/generated/warp_ops"
	"github.com/ptx2go/ptx2go/generated/warp_sync"
	"github.com/ptx2go/ptx2go/generated/warp_width"
	"github.com/ptx2go/ptx2go/runtime"
)

// generatedModules are the packages `make generate` writes under generated/, by testdata name:
// the Go source back end's output for testdata/ptx/NAME.ptx (testdata/ptx/hand/NAME.ptx for
// legacy_warp and warp_guarded).
var generatedModules = map[string]*runtime.Module{
	"atomics":        atomics.Module,
	"barrier_exit":   barrier_exit.Module,
	"const_store":    const_store.Module,
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
	"its":            its.Module,
	"legacy_warp":    legacy_warp.Module,
	"local_array":    local_array.Module,
	"matmul_2d":      matmul_2d.Module,
	"recursion":      recursion.Module,
	"reduce_shared":  reduce_shared.Module,
	"saxpy_math":     saxpy_math.Module,
	"struct_byval":   struct_byval.Module,
	"switch_dense":   switch_dense.Module,
	"vecadd":         vecadd.Module,
	"vector_types":   vector_types.Module,
	"warp_guarded":   warp_guarded.Module,
	"warp_ops":       warp_ops.Module,
	"warp_sync":      warp_sync.Module,
	"warp_width":     warp_width.Module,
}

// generatedSource is the PTX file `make generate` compiled into generated/NAME.
func generatedSource(name string) string {
	p := filepath.Join("testdata", "ptx", name+".ptx")
	if _, err := os.Stat(p); err != nil {
		return filepath.Join("testdata", "ptx", "hand", name+".ptx")
	}
	return p
}

// TestGeneratedLayout checks that every generated module has the block layout the closure
// engine builds from the same PTX (both follow codegen/layout): per function the same blocks,
// each starting at the same line, counting the same PTX instructions and ending in the same
// terminator (kind, successors, reconvergence point, branch predicate, line), with the same
// rendezvous before each warp-level synchronization (membermask register or constant, guard,
// kind). The SIMT stack, the rendezvous under independent thread scheduling and the faults
// that name blocks therefore behave alike on both engines.
func TestGeneratedLayout(t *testing.T) {
	for name, rt := range generatedModules {
		t.Run(name, func(t *testing.T) {
			closure, err := ptx2go.CompileFile(generatedSource(name))
			require.NoError(t, err)
			crt := closure.Runtime()
			require.Len(t, rt.Funcs, len(crt.Funcs))
			for i, gf := range rt.Funcs {
				cf := crt.Funcs[i]
				require.Equal(t, cf.Name, gf.Name)
				require.Equal(t, cf.Exit, gf.Exit, cf.Name)
				require.Len(t, gf.Blocks, len(cf.Blocks), cf.Name)
				for b := range cf.Blocks {
					cb, gb := &cf.Blocks[b], &gf.Blocks[b]
					where := fmt.Sprintf("%s block %d", cf.Name, b)
					require.Equal(t, cb.Loc, gb.Loc, where)
					require.Equal(t, cb.PTXInstrs, gb.PTXInstrs, where)
					ct, gt := cb.Term, gb.Term
					require.Equal(t, ct.WarpSync == nil, gt.WarpSync == nil, where)
					if ct.WarpSync != nil {
						cw, gw := *ct.WarpSync, *gt.WarpSync
						require.Equal(t, constOrReg(cf, cw.Mask), constOrReg(gf, gw.Mask), where+": membermask")
						cw.Mask, gw.Mask = 0, 0
						require.Equal(t, cw, gw, where)
					}
					ct.WarpSync, gt.WarpSync, ct.Barrier, gt.Barrier, ct.Call, gt.Call = nil, nil, nil, nil, nil, nil
					require.Equal(t, ct, gt, where)
				}
			}
		})
	}
}

// constOrReg describes register slot s of f: the constant it holds in every lane, or the slot.
func constOrReg(f *runtime.Func, s int) string {
	for _, c := range f.Consts {
		if c.Reg == s {
			return fmt.Sprintf("constant %#x", c.Value)
		}
	}
	return fmt.Sprintf("register %d", s)
}
