package ptx2go_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/atomics"
	"github.com/ptx2go/ptx2go/generated/barrier_exit"
	"github.com/ptx2go/ptx2go/generated/bf16"
	"github.com/ptx2go/ptx2go/generated/bitops"
	"github.com/ptx2go/ptx2go/generated/conf_forms"
	"github.com/ptx2go/ptx2go/generated/constant_data"
	"github.com/ptx2go/ptx2go/generated/convert"
	"github.com/ptx2go/ptx2go/generated/cvt_round"
	"github.com/ptx2go/ptx2go/generated/device_assert"
	"github.com/ptx2go/ptx2go/generated/device_malloc"
	"github.com/ptx2go/ptx2go/generated/device_printf"
	"github.com/ptx2go/ptx2go/generated/divergent_loop"
	"github.com/ptx2go/ptx2go/generated/dynamic_shared"
	"github.com/ptx2go/ptx2go/generated/early_exit"
	"github.com/ptx2go/ptx2go/generated/fapprox"
	"github.com/ptx2go/ptx2go/generated/fast_atomics"
	"github.com/ptx2go/ptx2go/generated/fast_barrier_exit"
	"github.com/ptx2go/ptx2go/generated/fast_bf16"
	"github.com/ptx2go/ptx2go/generated/fast_bitops"
	"github.com/ptx2go/ptx2go/generated/fast_constant_data"
	"github.com/ptx2go/ptx2go/generated/fast_convert"
	"github.com/ptx2go/ptx2go/generated/fast_cvt_round"
	"github.com/ptx2go/ptx2go/generated/fast_device_assert"
	"github.com/ptx2go/ptx2go/generated/fast_device_malloc"
	"github.com/ptx2go/ptx2go/generated/fast_device_printf"
	"github.com/ptx2go/ptx2go/generated/fast_divergent_loop"
	"github.com/ptx2go/ptx2go/generated/fast_dynamic_shared"
	"github.com/ptx2go/ptx2go/generated/fast_early_exit"
	"github.com/ptx2go/ptx2go/generated/fast_fapprox"
	"github.com/ptx2go/ptx2go/generated/fast_fminmax"
	"github.com/ptx2go/ptx2go/generated/fast_fp64_math"
	"github.com/ptx2go/ptx2go/generated/fast_fround"
	"github.com/ptx2go/ptx2go/generated/fast_funcptr"
	"github.com/ptx2go/ptx2go/generated/fast_grid_stride"
	"github.com/ptx2go/ptx2go/generated/fast_half"
	"github.com/ptx2go/ptx2go/generated/fast_int64_math"
	"github.com/ptx2go/ptx2go/generated/fast_intmisc"
	"github.com/ptx2go/ptx2go/generated/fast_intops"
	"github.com/ptx2go/ptx2go/generated/fast_its"
	"github.com/ptx2go/ptx2go/generated/fast_local_array"
	"github.com/ptx2go/ptx2go/generated/fast_matmul_2d"
	"github.com/ptx2go/ptx2go/generated/fast_recursion"
	"github.com/ptx2go/ptx2go/generated/fast_reduce_shared"
	"github.com/ptx2go/ptx2go/generated/fast_saxpy_math"
	"github.com/ptx2go/ptx2go/generated/fast_struct_byval"
	"github.com/ptx2go/ptx2go/generated/fast_switch_dense"
	"github.com/ptx2go/ptx2go/generated/fast_vecadd"
	"github.com/ptx2go/ptx2go/generated/fast_vector_types"
	"github.com/ptx2go/ptx2go/generated/fast_warp_ops"
	"github.com/ptx2go/ptx2go/generated/fast_warp_sync"
	"github.com/ptx2go/ptx2go/generated/fast_warp_width"
	"github.com/ptx2go/ptx2go/generated/fminmax"
	"github.com/ptx2go/ptx2go/generated/fp64_math"
	"github.com/ptx2go/ptx2go/generated/fround"
	"github.com/ptx2go/ptx2go/generated/funcptr"
	"github.com/ptx2go/ptx2go/generated/gcc_acc_vecadd"
	"github.com/ptx2go/ptx2go/generated/gcc_funcs"
	"github.com/ptx2go/ptx2go/generated/gcc_funcs_sm80"
	"github.com/ptx2go/ptx2go/generated/grid_stride"
	"github.com/ptx2go/ptx2go/generated/half"
	"github.com/ptx2go/ptx2go/generated/hand_brx_idx"
	"github.com/ptx2go/ptx2go/generated/hand_cache_policy"
	"github.com/ptx2go/ptx2go/generated/hand_callprototype"
	"github.com/ptx2go/ptx2go/generated/hand_calltable"
	"github.com/ptx2go/ptx2go/generated/hand_calltargets"
	"github.com/ptx2go/ptx2go/generated/hand_const_store"
	"github.com/ptx2go/ptx2go/generated/hand_cp_async"
	"github.com/ptx2go/ptx2go/generated/hand_cvt_sat_int"
	"github.com/ptx2go/ptx2go/generated/hand_cvta_param"
	"github.com/ptx2go/ptx2go/generated/hand_directives"
	"github.com/ptx2go/ptx2go/generated/hand_diverge"
	"github.com/ptx2go/ptx2go/generated/hand_divergent_ret"
	"github.com/ptx2go/ptx2go/generated/hand_exit_in_func"
	"github.com/ptx2go/ptx2go/generated/hand_fma_chain"
	"github.com/ptx2go/ptx2go/generated/hand_half_chunks"
	"github.com/ptx2go/ptx2go/generated/hand_half_set"
	"github.com/ptx2go/ptx2go/generated/hand_hints"
	"github.com/ptx2go/ptx2go/generated/hand_immediates"
	"github.com/ptx2go/ptx2go/generated/hand_initializers"
	"github.com/ptx2go/ptx2go/generated/hand_isspacep"
	"github.com/ptx2go/ptx2go/generated/hand_its_rejoin"
	"github.com/ptx2go/ptx2go/generated/hand_legacy_sm10"
	"github.com/ptx2go/ptx2go/generated/hand_legacy_sm20"
	"github.com/ptx2go/ptx2go/generated/hand_legacy_warp"
	"github.com/ptx2go/ptx2go/generated/hand_mbarrier"
	"github.com/ptx2go/ptx2go/generated/hand_mem_qualifiers"
	"github.com/ptx2go/ptx2go/generated/hand_mma"
	"github.com/ptx2go/ptx2go/generated/hand_mma_f64"
	"github.com/ptx2go/ptx2go/generated/hand_mma_int"
	"github.com/ptx2go/ptx2go/generated/hand_param_groups"
	"github.com/ptx2go/ptx2go/generated/hand_param_unwritten"
	"github.com/ptx2go/ptx2go/generated/hand_region_multi"
	"github.com/ptx2go/ptx2go/generated/hand_region_park"
	"github.com/ptx2go/ptx2go/generated/hand_scopes"
	"github.com/ptx2go/ptx2go/generated/hand_setp_two_dest"
	"github.com/ptx2go/ptx2go/generated/hand_shared_layout"
	"github.com/ptx2go/ptx2go/generated/hand_sink_vector"
	"github.com/ptx2go/ptx2go/generated/hand_sm90_sync"
	"github.com/ptx2go/ptx2go/generated/hand_step_pred"
	"github.com/ptx2go/ptx2go/generated/hand_trace"
	"github.com/ptx2go/ptx2go/generated/hand_warp_guarded"
	"github.com/ptx2go/ptx2go/generated/hand_warp_pass"
	"github.com/ptx2go/ptx2go/generated/hand_warp_sz"
	"github.com/ptx2go/ptx2go/generated/int64_math"
	"github.com/ptx2go/ptx2go/generated/intmisc"
	"github.com/ptx2go/ptx2go/generated/intops"
	"github.com/ptx2go/ptx2go/generated/its"
	"github.com/ptx2go/ptx2go/generated/lane_faults"
	"github.com/ptx2go/ptx2go/generated/local_array"
	"github.com/ptx2go/ptx2go/generated/matmul_2d"
	"github.com/ptx2go/ptx2go/generated/nvcc_atomics"
	"github.com/ptx2go/ptx2go/generated/nvcc_barrier_exit"
	"github.com/ptx2go/ptx2go/generated/nvcc_bf16"
	"github.com/ptx2go/ptx2go/generated/nvcc_bitops"
	"github.com/ptx2go/ptx2go/generated/nvcc_cg_tiles"
	"github.com/ptx2go/ptx2go/generated/nvcc_constant_data"
	"github.com/ptx2go/ptx2go/generated/nvcc_convert"
	"github.com/ptx2go/ptx2go/generated/nvcc_cp_async"
	"github.com/ptx2go/ptx2go/generated/nvcc_cub"
	"github.com/ptx2go/ptx2go/generated/nvcc_curand"
	"github.com/ptx2go/ptx2go/generated/nvcc_cvt_round"
	"github.com/ptx2go/ptx2go/generated/nvcc_device_assert"
	"github.com/ptx2go/ptx2go/generated/nvcc_device_malloc"
	"github.com/ptx2go/ptx2go/generated/nvcc_device_printf"
	"github.com/ptx2go/ptx2go/generated/nvcc_divergent_loop"
	"github.com/ptx2go/ptx2go/generated/nvcc_dynamic_shared"
	"github.com/ptx2go/ptx2go/generated/nvcc_early_exit"
	"github.com/ptx2go/ptx2go/generated/nvcc_everyday"
	"github.com/ptx2go/ptx2go/generated/nvcc_fapprox"
	"github.com/ptx2go/ptx2go/generated/nvcc_fminmax"
	"github.com/ptx2go/ptx2go/generated/nvcc_fp64_math"
	"github.com/ptx2go/ptx2go/generated/nvcc_fround"
	"github.com/ptx2go/ptx2go/generated/nvcc_funcptr"
	"github.com/ptx2go/ptx2go/generated/nvcc_grid_constant"
	"github.com/ptx2go/ptx2go/generated/nvcc_grid_stride"
	"github.com/ptx2go/ptx2go/generated/nvcc_half"
	"github.com/ptx2go/ptx2go/generated/nvcc_int64_math"
	"github.com/ptx2go/ptx2go/generated/nvcc_intmisc"
	"github.com/ptx2go/ptx2go/generated/nvcc_intops"
	"github.com/ptx2go/ptx2go/generated/nvcc_its"
	"github.com/ptx2go/ptx2go/generated/nvcc_local_array"
	"github.com/ptx2go/ptx2go/generated/nvcc_matmul_2d"
	"github.com/ptx2go/ptx2go/generated/nvcc_mbarrier"
	"github.com/ptx2go/ptx2go/generated/nvcc_mma"
	"github.com/ptx2go/ptx2go/generated/nvcc_recursion"
	"github.com/ptx2go/ptx2go/generated/nvcc_reduce_shared"
	"github.com/ptx2go/ptx2go/generated/nvcc_saxpy_math"
	"github.com/ptx2go/ptx2go/generated/nvcc_shfl_partial"
	"github.com/ptx2go/ptx2go/generated/nvcc_struct_byval"
	"github.com/ptx2go/ptx2go/generated/nvcc_switch_dense"
	"github.com/ptx2go/ptx2go/generated/nvcc_vecadd"
	"github.com/ptx2go/ptx2go/generated/nvcc_vector_types"
	"github.com/ptx2go/ptx2go/generated/nvcc_warp_ops"
	"github.com/ptx2go/ptx2go/generated/nvcc_warp_sync"
	"github.com/ptx2go/ptx2go/generated/nvcc_warp_width"
	"github.com/ptx2go/ptx2go/generated/nvcc_wmma_int"
	"github.com/ptx2go/ptx2go/generated/nvcc_wmma_shapes"
	"github.com/ptx2go/ptx2go/generated/o0_atomics"
	"github.com/ptx2go/ptx2go/generated/o0_barrier_exit"
	"github.com/ptx2go/ptx2go/generated/o0_bf16"
	"github.com/ptx2go/ptx2go/generated/o0_bitops"
	"github.com/ptx2go/ptx2go/generated/o0_constant_data"
	"github.com/ptx2go/ptx2go/generated/o0_convert"
	"github.com/ptx2go/ptx2go/generated/o0_cvt_round"
	"github.com/ptx2go/ptx2go/generated/o0_device_assert"
	"github.com/ptx2go/ptx2go/generated/o0_device_malloc"
	"github.com/ptx2go/ptx2go/generated/o0_device_printf"
	"github.com/ptx2go/ptx2go/generated/o0_divergent_loop"
	"github.com/ptx2go/ptx2go/generated/o0_dynamic_shared"
	"github.com/ptx2go/ptx2go/generated/o0_early_exit"
	"github.com/ptx2go/ptx2go/generated/o0_fapprox"
	"github.com/ptx2go/ptx2go/generated/o0_fminmax"
	"github.com/ptx2go/ptx2go/generated/o0_fp64_math"
	"github.com/ptx2go/ptx2go/generated/o0_fround"
	"github.com/ptx2go/ptx2go/generated/o0_funcptr"
	"github.com/ptx2go/ptx2go/generated/o0_grid_stride"
	"github.com/ptx2go/ptx2go/generated/o0_half"
	"github.com/ptx2go/ptx2go/generated/o0_int64_math"
	"github.com/ptx2go/ptx2go/generated/o0_intmisc"
	"github.com/ptx2go/ptx2go/generated/o0_intops"
	"github.com/ptx2go/ptx2go/generated/o0_its"
	"github.com/ptx2go/ptx2go/generated/o0_local_array"
	"github.com/ptx2go/ptx2go/generated/o0_matmul_2d"
	"github.com/ptx2go/ptx2go/generated/o0_recursion"
	"github.com/ptx2go/ptx2go/generated/o0_reduce_shared"
	"github.com/ptx2go/ptx2go/generated/o0_saxpy_math"
	"github.com/ptx2go/ptx2go/generated/o0_struct_byval"
	"github.com/ptx2go/ptx2go/generated/o0_switch_dense"
	"github.com/ptx2go/ptx2go/generated/o0_vecadd"
	"github.com/ptx2go/ptx2go/generated/o0_vector_types"
	"github.com/ptx2go/ptx2go/generated/o0_warp_ops"
	"github.com/ptx2go/ptx2go/generated/o0_warp_sync"
	"github.com/ptx2go/ptx2go/generated/o0_warp_width"
	"github.com/ptx2go/ptx2go/generated/recursion"
	"github.com/ptx2go/ptx2go/generated/reduce_shared"
	"github.com/ptx2go/ptx2go/generated/saxpy_math"
	"github.com/ptx2go/ptx2go/generated/seeds_bra_uni"
	"github.com/ptx2go/ptx2go/generated/seeds_brx_idx"
	"github.com/ptx2go/ptx2go/generated/seeds_call_callprototype"
	"github.com/ptx2go/ptx2go/generated/seeds_call_calltargets"
	"github.com/ptx2go/ptx2go/generated/seeds_call_direct"
	"github.com/ptx2go/ptx2go/generated/seeds_call_jmptbl"
	"github.com/ptx2go/ptx2go/generated/seeds_call_jmptbl_addr32"
	"github.com/ptx2go/ptx2go/generated/seeds_crs_recursion"
	"github.com/ptx2go/ptx2go/generated/seeds_exit"
	"github.com/ptx2go/ptx2go/generated/seeds_exit_barrier"
	"github.com/ptx2go/ptx2go/generated/seeds_group_scope"
	"github.com/ptx2go/ptx2go/generated/seeds_min_max_abs"
	"github.com/ptx2go/ptx2go/generated/seeds_pred_manip"
	"github.com/ptx2go/ptx2go/generated/seeds_predicated_div"
	"github.com/ptx2go/ptx2go/generated/seeds_ret"
	"github.com/ptx2go/ptx2go/generated/seeds_selp"
	"github.com/ptx2go/ptx2go/generated/seeds_setp_branch"
	"github.com/ptx2go/ptx2go/generated/seeds_setp_comparisons"
	"github.com/ptx2go/ptx2go/generated/seeds_setp_predication"
	"github.com/ptx2go/ptx2go/generated/seeds_shared_lock_predicated"
	"github.com/ptx2go/ptx2go/generated/semantics_brauni"
	"github.com/ptx2go/ptx2go/generated/semantics_brx"
	"github.com/ptx2go/ptx2go/generated/semantics_carry_uniform"
	"github.com/ptx2go/ptx2go/generated/semantics_exitbar"
	"github.com/ptx2go/ptx2go/generated/semantics_fault_calls"
	"github.com/ptx2go/ptx2go/generated/semantics_fault_misc"
	"github.com/ptx2go/ptx2go/generated/semantics_fault_oob"
	"github.com/ptx2go/ptx2go/generated/semantics_fault_param"
	"github.com/ptx2go/ptx2go/generated/semantics_fault_sync"
	"github.com/ptx2go/ptx2go/generated/semantics_fused"
	"github.com/ptx2go/ptx2go/generated/semantics_guarded"
	"github.com/ptx2go/ptx2go/generated/semantics_indirect"
	"github.com/ptx2go/ptx2go/generated/semantics_loops"
	"github.com/ptx2go/ptx2go/generated/semantics_nested"
	"github.com/ptx2go/ptx2go/generated/semantics_partial"
	"github.com/ptx2go/ptx2go/generated/semantics_predication"
	"github.com/ptx2go/ptx2go/generated/semantics_predparams"
	"github.com/ptx2go/ptx2go/generated/semantics_recursion"
	"github.com/ptx2go/ptx2go/generated/semantics_retloop"
	"github.com/ptx2go/ptx2go/generated/semantics_stats"
	"github.com/ptx2go/ptx2go/generated/semantics_uniform_ops"
	"github.com/ptx2go/ptx2go/generated/semantics_vecparams"
	"github.com/ptx2go/ptx2go/generated/simt_p00"
	"github.com/ptx2go/ptx2go/generated/simt_p01"
	"github.com/ptx2go/ptx2go/generated/simt_p02"
	"github.com/ptx2go/ptx2go/generated/simt_p03"
	"github.com/ptx2go/ptx2go/generated/simt_p04"
	"github.com/ptx2go/ptx2go/generated/simt_p05"
	"github.com/ptx2go/ptx2go/generated/simt_p06"
	"github.com/ptx2go/ptx2go/generated/simt_p07"
	"github.com/ptx2go/ptx2go/generated/simt_p08"
	"github.com/ptx2go/ptx2go/generated/simt_p09"
	"github.com/ptx2go/ptx2go/generated/simt_p10"
	"github.com/ptx2go/ptx2go/generated/simt_p11"
	"github.com/ptx2go/ptx2go/generated/struct_byval"
	"github.com/ptx2go/ptx2go/generated/switch_dense"
	"github.com/ptx2go/ptx2go/generated/vecadd"
	"github.com/ptx2go/ptx2go/generated/vector_types"
	"github.com/ptx2go/ptx2go/generated/warp_ops"
	"github.com/ptx2go/ptx2go/generated/warp_sync"
	"github.com/ptx2go/ptx2go/generated/warp_width"
	"github.com/ptx2go/ptx2go/runtime"
)

// generatedModules are the packages `make generate` writes under generated/, by the path of
// their source under testdata/ptx without .ptx (the GENERATED list of the Makefile): the Go
// source back end's output for that module.
var generatedModules = map[string]*runtime.Module{
	"simt/p00":                     simt_p00.Module,
	"simt/p01":                     simt_p01.Module,
	"simt/p02":                     simt_p02.Module,
	"simt/p03":                     simt_p03.Module,
	"simt/p04":                     simt_p04.Module,
	"simt/p05":                     simt_p05.Module,
	"simt/p06":                     simt_p06.Module,
	"simt/p07":                     simt_p07.Module,
	"simt/p08":                     simt_p08.Module,
	"simt/p09":                     simt_p09.Module,
	"simt/p10":                     simt_p10.Module,
	"simt/p11":                     simt_p11.Module,
	"atomics":                      atomics.Module,
	"barrier_exit":                 barrier_exit.Module,
	"bf16":                         bf16.Module,
	"bitops":                       bitops.Module,
	"constant_data":                constant_data.Module,
	"convert":                      convert.Module,
	"cvt_round":                    cvt_round.Module,
	"device_assert":                device_assert.Module,
	"device_malloc":                device_malloc.Module,
	"device_printf":                device_printf.Module,
	"divergent_loop":               divergent_loop.Module,
	"dynamic_shared":               dynamic_shared.Module,
	"early_exit":                   early_exit.Module,
	"fapprox":                      fapprox.Module,
	"fminmax":                      fminmax.Module,
	"fp64_math":                    fp64_math.Module,
	"fround":                       fround.Module,
	"funcptr":                      funcptr.Module,
	"grid_stride":                  grid_stride.Module,
	"half":                         half.Module,
	"int64_math":                   int64_math.Module,
	"intmisc":                      intmisc.Module,
	"intops":                       intops.Module,
	"its":                          its.Module,
	"lane_faults":                  lane_faults.Module,
	"local_array":                  local_array.Module,
	"matmul_2d":                    matmul_2d.Module,
	"recursion":                    recursion.Module,
	"reduce_shared":                reduce_shared.Module,
	"saxpy_math":                   saxpy_math.Module,
	"struct_byval":                 struct_byval.Module,
	"switch_dense":                 switch_dense.Module,
	"vecadd":                       vecadd.Module,
	"vector_types":                 vector_types.Module,
	"warp_ops":                     warp_ops.Module,
	"warp_sync":                    warp_sync.Module,
	"warp_width":                   warp_width.Module,
	"O0/atomics":                   o0_atomics.Module,
	"O0/barrier_exit":              o0_barrier_exit.Module,
	"O0/bf16":                      o0_bf16.Module,
	"O0/bitops":                    o0_bitops.Module,
	"O0/constant_data":             o0_constant_data.Module,
	"O0/convert":                   o0_convert.Module,
	"O0/cvt_round":                 o0_cvt_round.Module,
	"O0/device_assert":             o0_device_assert.Module,
	"O0/device_malloc":             o0_device_malloc.Module,
	"O0/device_printf":             o0_device_printf.Module,
	"O0/divergent_loop":            o0_divergent_loop.Module,
	"O0/dynamic_shared":            o0_dynamic_shared.Module,
	"O0/early_exit":                o0_early_exit.Module,
	"O0/fapprox":                   o0_fapprox.Module,
	"O0/fminmax":                   o0_fminmax.Module,
	"O0/fp64_math":                 o0_fp64_math.Module,
	"O0/fround":                    o0_fround.Module,
	"O0/funcptr":                   o0_funcptr.Module,
	"O0/grid_stride":               o0_grid_stride.Module,
	"O0/half":                      o0_half.Module,
	"O0/int64_math":                o0_int64_math.Module,
	"O0/intmisc":                   o0_intmisc.Module,
	"O0/intops":                    o0_intops.Module,
	"O0/its":                       o0_its.Module,
	"O0/local_array":               o0_local_array.Module,
	"O0/matmul_2d":                 o0_matmul_2d.Module,
	"O0/recursion":                 o0_recursion.Module,
	"O0/reduce_shared":             o0_reduce_shared.Module,
	"O0/saxpy_math":                o0_saxpy_math.Module,
	"O0/struct_byval":              o0_struct_byval.Module,
	"O0/switch_dense":              o0_switch_dense.Module,
	"O0/vecadd":                    o0_vecadd.Module,
	"O0/vector_types":              o0_vector_types.Module,
	"O0/warp_ops":                  o0_warp_ops.Module,
	"O0/warp_sync":                 o0_warp_sync.Module,
	"O0/warp_width":                o0_warp_width.Module,
	"conf/forms":                   conf_forms.Module,
	"fast/atomics":                 fast_atomics.Module,
	"fast/barrier_exit":            fast_barrier_exit.Module,
	"fast/bf16":                    fast_bf16.Module,
	"fast/bitops":                  fast_bitops.Module,
	"fast/constant_data":           fast_constant_data.Module,
	"fast/convert":                 fast_convert.Module,
	"fast/cvt_round":               fast_cvt_round.Module,
	"fast/device_assert":           fast_device_assert.Module,
	"fast/device_malloc":           fast_device_malloc.Module,
	"fast/device_printf":           fast_device_printf.Module,
	"fast/divergent_loop":          fast_divergent_loop.Module,
	"fast/dynamic_shared":          fast_dynamic_shared.Module,
	"fast/early_exit":              fast_early_exit.Module,
	"fast/fapprox":                 fast_fapprox.Module,
	"fast/fminmax":                 fast_fminmax.Module,
	"fast/fp64_math":               fast_fp64_math.Module,
	"fast/fround":                  fast_fround.Module,
	"fast/funcptr":                 fast_funcptr.Module,
	"fast/grid_stride":             fast_grid_stride.Module,
	"fast/half":                    fast_half.Module,
	"fast/int64_math":              fast_int64_math.Module,
	"fast/intmisc":                 fast_intmisc.Module,
	"fast/intops":                  fast_intops.Module,
	"fast/its":                     fast_its.Module,
	"fast/local_array":             fast_local_array.Module,
	"fast/matmul_2d":               fast_matmul_2d.Module,
	"fast/recursion":               fast_recursion.Module,
	"fast/reduce_shared":           fast_reduce_shared.Module,
	"fast/saxpy_math":              fast_saxpy_math.Module,
	"fast/struct_byval":            fast_struct_byval.Module,
	"fast/switch_dense":            fast_switch_dense.Module,
	"fast/vecadd":                  fast_vecadd.Module,
	"fast/vector_types":            fast_vector_types.Module,
	"fast/warp_ops":                fast_warp_ops.Module,
	"fast/warp_sync":               fast_warp_sync.Module,
	"fast/warp_width":              fast_warp_width.Module,
	"gcc/acc_vecadd":               gcc_acc_vecadd.Module,
	"gcc/funcs":                    gcc_funcs.Module,
	"gcc/funcs_sm80":               gcc_funcs_sm80.Module,
	"hand/brx_idx":                 hand_brx_idx.Module,
	"hand/cache_policy":            hand_cache_policy.Module,
	"hand/callprototype":           hand_callprototype.Module,
	"hand/calltable":               hand_calltable.Module,
	"hand/calltargets":             hand_calltargets.Module,
	"hand/const_store":             hand_const_store.Module,
	"hand/cvta_param":              hand_cvta_param.Module,
	"hand/cp_async":                hand_cp_async.Module,
	"hand/cvt_sat_int":             hand_cvt_sat_int.Module,
	"hand/directives":              hand_directives.Module,
	"hand/divergent_ret":           hand_divergent_ret.Module,
	"hand/fma_chain":               hand_fma_chain.Module,
	"hand/half_chunks":             hand_half_chunks.Module,
	"hand/half_set":                hand_half_set.Module,
	"hand/hints":                   hand_hints.Module,
	"hand/param_groups":            hand_param_groups.Module,
	"hand/param_unwritten":         hand_param_unwritten.Module,
	"hand/region_multi":            hand_region_multi.Module,
	"hand/region_park":             hand_region_park.Module,
	"hand/exit_in_func":            hand_exit_in_func.Module,
	"hand/immediates":              hand_immediates.Module,
	"hand/isspacep":                hand_isspacep.Module,
	"hand/initializers":            hand_initializers.Module,
	"hand/its_rejoin":              hand_its_rejoin.Module,
	"hand/legacy_sm10":             hand_legacy_sm10.Module,
	"hand/legacy_sm20":             hand_legacy_sm20.Module,
	"hand/legacy_warp":             hand_legacy_warp.Module,
	"hand/mbarrier":                hand_mbarrier.Module,
	"hand/mem_qualifiers":          hand_mem_qualifiers.Module,
	"hand/mma":                     hand_mma.Module,
	"hand/shared_layout":           hand_shared_layout.Module,
	"hand/mma_f64":                 hand_mma_f64.Module,
	"hand/mma_int":                 hand_mma_int.Module,
	"hand/scopes":                  hand_scopes.Module,
	"hand/setp_two_dest":           hand_setp_two_dest.Module,
	"hand/sink_vector":             hand_sink_vector.Module,
	"hand/sm90_sync":               hand_sm90_sync.Module,
	"hand/warp_guarded":            hand_warp_guarded.Module,
	"hand/step_pred":               hand_step_pred.Module,
	"hand/trace":                   hand_trace.Module,
	"hand/diverge":                 hand_diverge.Module,
	"hand/warp_pass":               hand_warp_pass.Module,
	"hand/warp_sz":                 hand_warp_sz.Module,
	"nvcc/atomics":                 nvcc_atomics.Module,
	"nvcc/barrier_exit":            nvcc_barrier_exit.Module,
	"nvcc/bf16":                    nvcc_bf16.Module,
	"nvcc/bitops":                  nvcc_bitops.Module,
	"nvcc/cg_tiles":                nvcc_cg_tiles.Module,
	"nvcc/constant_data":           nvcc_constant_data.Module,
	"nvcc/convert":                 nvcc_convert.Module,
	"nvcc/cp_async":                nvcc_cp_async.Module,
	"nvcc/cub":                     nvcc_cub.Module,
	"nvcc/curand":                  nvcc_curand.Module,
	"nvcc/cvt_round":               nvcc_cvt_round.Module,
	"nvcc/device_assert":           nvcc_device_assert.Module,
	"nvcc/device_malloc":           nvcc_device_malloc.Module,
	"nvcc/device_printf":           nvcc_device_printf.Module,
	"nvcc/divergent_loop":          nvcc_divergent_loop.Module,
	"nvcc/dynamic_shared":          nvcc_dynamic_shared.Module,
	"nvcc/early_exit":              nvcc_early_exit.Module,
	"nvcc/everyday":                nvcc_everyday.Module,
	"nvcc/fapprox":                 nvcc_fapprox.Module,
	"nvcc/fminmax":                 nvcc_fminmax.Module,
	"nvcc/fp64_math":               nvcc_fp64_math.Module,
	"nvcc/grid_constant":           nvcc_grid_constant.Module,
	"nvcc/fround":                  nvcc_fround.Module,
	"nvcc/funcptr":                 nvcc_funcptr.Module,
	"nvcc/grid_stride":             nvcc_grid_stride.Module,
	"nvcc/half":                    nvcc_half.Module,
	"nvcc/int64_math":              nvcc_int64_math.Module,
	"nvcc/intmisc":                 nvcc_intmisc.Module,
	"nvcc/intops":                  nvcc_intops.Module,
	"nvcc/its":                     nvcc_its.Module,
	"nvcc/local_array":             nvcc_local_array.Module,
	"nvcc/mbarrier":                nvcc_mbarrier.Module,
	"nvcc/mma":                     nvcc_mma.Module,
	"nvcc/matmul_2d":               nvcc_matmul_2d.Module,
	"nvcc/recursion":               nvcc_recursion.Module,
	"nvcc/reduce_shared":           nvcc_reduce_shared.Module,
	"nvcc/saxpy_math":              nvcc_saxpy_math.Module,
	"nvcc/shfl_partial":            nvcc_shfl_partial.Module,
	"nvcc/struct_byval":            nvcc_struct_byval.Module,
	"nvcc/switch_dense":            nvcc_switch_dense.Module,
	"nvcc/vecadd":                  nvcc_vecadd.Module,
	"nvcc/vector_types":            nvcc_vector_types.Module,
	"nvcc/warp_ops":                nvcc_warp_ops.Module,
	"nvcc/warp_sync":               nvcc_warp_sync.Module,
	"nvcc/wmma_shapes":             nvcc_wmma_shapes.Module,
	"nvcc/wmma_int":                nvcc_wmma_int.Module,
	"nvcc/warp_width":              nvcc_warp_width.Module,
	"seeds/bra_uni":                seeds_bra_uni.Module,
	"seeds/brx_idx":                seeds_brx_idx.Module,
	"seeds/call_callprototype":     seeds_call_callprototype.Module,
	"seeds/call_calltargets":       seeds_call_calltargets.Module,
	"seeds/call_direct":            seeds_call_direct.Module,
	"seeds/call_jmptbl":            seeds_call_jmptbl.Module,
	"seeds/call_jmptbl_addr32":     seeds_call_jmptbl_addr32.Module,
	"seeds/crs_recursion":          seeds_crs_recursion.Module,
	"seeds/exit":                   seeds_exit.Module,
	"seeds/exit_barrier":           seeds_exit_barrier.Module,
	"seeds/group_scope":            seeds_group_scope.Module,
	"seeds/min_max_abs":            seeds_min_max_abs.Module,
	"seeds/pred_manip":             seeds_pred_manip.Module,
	"seeds/predicated_div":         seeds_predicated_div.Module,
	"seeds/ret":                    seeds_ret.Module,
	"seeds/selp":                   seeds_selp.Module,
	"seeds/setp_branch":            seeds_setp_branch.Module,
	"seeds/setp_comparisons":       seeds_setp_comparisons.Module,
	"seeds/setp_predication":       seeds_setp_predication.Module,
	"seeds/shared_lock_predicated": seeds_shared_lock_predicated.Module,
	"semantics/brauni":             semantics_brauni.Module,
	"semantics/carry_uniform":      semantics_carry_uniform.Module,
	"semantics/brx":                semantics_brx.Module,
	"semantics/exitbar":            semantics_exitbar.Module,
	"semantics/fault_calls":        semantics_fault_calls.Module,
	"semantics/fault_misc":         semantics_fault_misc.Module,
	"semantics/fault_oob":          semantics_fault_oob.Module,
	"semantics/fault_param":        semantics_fault_param.Module,
	"semantics/fault_sync":         semantics_fault_sync.Module,
	"semantics/fused":              semantics_fused.Module,
	"semantics/guarded":            semantics_guarded.Module,
	"semantics/indirect":           semantics_indirect.Module,
	"semantics/loops":              semantics_loops.Module,
	"semantics/nested":             semantics_nested.Module,
	"semantics/partial":            semantics_partial.Module,
	"semantics/predication":        semantics_predication.Module,
	"semantics/predparams":         semantics_predparams.Module,
	"semantics/recursion":          semantics_recursion.Module,
	"semantics/retloop":            semantics_retloop.Module,
	"semantics/stats":              semantics_stats.Module,
	"semantics/uniform_ops":        semantics_uniform_ops.Module,
	"semantics/vecparams":          semantics_vecparams.Module,
}

// generatedModule returns the generated module of the PTX file at path (under testdata/ptx),
// if `make generate` writes one.
func generatedModule(path string) (*runtime.Module, bool) {
	rel, err := filepath.Rel(filepath.Join("testdata", "ptx"), path)
	if err != nil {
		return nil, false
	}
	m, ok := generatedModules[filepath.ToSlash(strings.TrimSuffix(rel, ".ptx"))]
	return m, ok
}

// TestGeneratedModulesListed checks that every package under generated/ is in
// generatedModules, so that no generated module goes untested.
func TestGeneratedModulesListed(t *testing.T) {
	dirs, err := os.ReadDir("generated")
	require.NoError(t, err)
	pkgs := map[string]bool{}
	for name := range generatedModules {
		pkgs[strings.ToLower(strings.ReplaceAll(name, "/", "_"))] = true
	}
	for _, d := range dirs {
		if d.IsDir() {
			require.True(t, pkgs[d.Name()], "generated/%s is not in generatedModules", d.Name())
		}
	}
	require.Len(t, pkgs, len(generatedModules), "two modules share a package name")
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
			closure, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", name+".ptx"))
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
