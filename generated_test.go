package ptx2go_test

import (
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
	"github.com/ptx2go/ptx2go/generated/its"
	"github.com/ptx2go/ptx2go/generated/local_array"
	"github.com/ptx2go/ptx2go/generated/matmul_2d"
	"github.com/ptx2go/ptx2go/generated/recursion"
	"github.com/ptx2go/ptx2go/generated/reduce_shared"
	"github.com/ptx2go/ptx2go/generated/saxpy_math"
	"github.com/ptx2go/ptx2go/generated/struct_byval"
	"github.com/ptx2go/ptx2go/generated/switch_dense"
	"github.com/ptx2go/ptx2go/generated/vecadd"
	"github.com/ptx2go/ptx2go/generated/vector_types"
	"github.com/ptx2go/ptx2go/generated/warp_ops"
	"github.com/ptx2go/ptx2go/generated/warp_sync"
	"github.com/ptx2go/ptx2go/generated/warp_width"
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
	"its":            its.Module,
	"local_array":    local_array.Module,
	"matmul_2d":      matmul_2d.Module,
	"recursion":      recursion.Module,
	"reduce_shared":  reduce_shared.Module,
	"saxpy_math":     saxpy_math.Module,
	"struct_byval":   struct_byval.Module,
	"switch_dense":   switch_dense.Module,
	"vecadd":         vecadd.Module,
	"vector_types":   vector_types.Module,
	"warp_ops":       warp_ops.Module,
	"warp_sync":      warp_sync.Module,
	"warp_width":     warp_width.Module,
}
