// cuda_shim.h: minimal CUDA device-side runtime for clang-19 with -nocudainc -nocudalib.
// Force-included (-include) by `make ptx`; every wrapper maps to one PTX instruction (or a short sequence).
#pragma once

// Execution-space and memory-space qualifiers (normally from host_defines.h).
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict

// threadIdx, blockIdx, blockDim, gridDim (mov.u32 %tid.x etc.) and warpSize.
#include <__clang_cuda_builtin_vars.h>

#define __SHIM__ static __device__ __forceinline__

// --- Synchronisation ---------------------------------------------------------
// __syncthreads() is a clang NVPTX builtin already: bar.sync 0.
__SHIM__ void __syncwarp(unsigned m = 0xffffffffu) { __nvvm_bar_warp_sync(m); }  // bar.warp.sync
__SHIM__ void __threadfence() { __nvvm_membar_gl(); }                                 // membar.gl
__SHIM__ void __threadfence_block() { __nvvm_membar_cta(); }                          // membar.cta

// --- Warp shuffles (shfl.sync.{idx,down,up,bfly}.b32); c = ((32-width)<<8)|clamp ----
__SHIM__ int __shfl_sync(unsigned m, int v, int src, int w = 32) { return __nvvm_shfl_sync_idx_i32(m, v, src, ((32 - w) << 8) | 0x1f); }
__SHIM__ float __shfl_sync(unsigned m, float v, int src, int w = 32) { return __nvvm_shfl_sync_idx_f32(m, v, src, ((32 - w) << 8) | 0x1f); }
__SHIM__ int __shfl_up_sync(unsigned m, int v, unsigned d, int w = 32) { return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8); }
__SHIM__ float __shfl_up_sync(unsigned m, float v, unsigned d, int w = 32) { return __nvvm_shfl_sync_up_f32(m, v, d, (32 - w) << 8); }
__SHIM__ int __shfl_down_sync(unsigned m, int v, unsigned d, int w = 32) { return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f); }
__SHIM__ float __shfl_down_sync(unsigned m, float v, unsigned d, int w = 32) { return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f); }
__SHIM__ int __shfl_xor_sync(unsigned m, int v, int lm, int w = 32) { return __nvvm_shfl_sync_bfly_i32(m, v, lm, ((32 - w) << 8) | 0x1f); }
__SHIM__ float __shfl_xor_sync(unsigned m, float v, int lm, int w = 32) { return __nvvm_shfl_sync_bfly_f32(m, v, lm, ((32 - w) << 8) | 0x1f); }

// --- Warp votes (vote.sync.{ballot,any,all}) ---------------------------------
__SHIM__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p != 0); }
__SHIM__ int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p != 0); }
__SHIM__ int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p != 0); }
__SHIM__ unsigned __activemask() { return __nvvm_activemask(); }  // activemask.b32
__SHIM__ unsigned __lanemask_lt() { return __nvvm_read_ptx_sreg_lanemask_lt(); }  // %lanemask_lt

// --- Atomics on generic addresses (atom.{add,cas,exch,max,min}) ---------------
__SHIM__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__SHIM__ unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
__SHIM__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
__SHIM__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__SHIM__ int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }
__SHIM__ int atomicCAS(int *p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
__SHIM__ unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v) { return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)cmp, (int)v); }
__SHIM__ int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__SHIM__ unsigned atomicExch(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_xchg_gen_i((int *)p, (int)v); }
__SHIM__ int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__SHIM__ unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
__SHIM__ int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__SHIM__ unsigned atomicMin(unsigned *p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }
__SHIM__ int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
__SHIM__ int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__SHIM__ int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }
__SHIM__ unsigned atomicInc(unsigned *p, unsigned lim) { return __nvvm_atom_inc_gen_ui(p, lim); }  // atom.inc (wraps to 0 past lim)

// --- Integer intrinsics ------------------------------------------------------
__SHIM__ int __popc(unsigned x) { return __builtin_popcount(x); }                  // popc.b32
__SHIM__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }     // popc.b64
__SHIM__ int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }      // clz.b32 (clz(0)=32)
__SHIM__ int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }  // clz.b64
__SHIM__ int __ffs(int x) { return __builtin_ffs(x); }                             // (x-1)&~x, popc, +1 (0 for x == 0)
__SHIM__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }         // brev.b32
__SHIM__ unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }  // brev.b64
__SHIM__ int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }                 // mul.hi.s32
__SHIM__ unsigned __umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }  // mul.hi.u32
__SHIM__ long long __mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }  // mul.hi.s64
__SHIM__ unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return __nvvm_mulhi_ull(a, b); }  // mul.hi.u64
// Funnel shifts: LLVM only forms shf for rotates (use __builtin_rotateleft32), so these use inline asm like CUDA does.
__SHIM__ unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) { unsigned r; asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
__SHIM__ unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) { unsigned r; asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s)); return r; }
__SHIM__ int min(int a, int b) { return a < b ? a : b; }                           // min.s32
__SHIM__ int max(int a, int b) { return a > b ? a : b; }                           // max.s32
__SHIM__ unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }            // min.u32
__SHIM__ unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }            // max.u32
__SHIM__ long long min(long long a, long long b) { return a < b ? a : b; }         // min.s64
__SHIM__ long long max(long long a, long long b) { return a > b ? a : b; }         // max.s64

// --- Float math (no libdevice: only what maps to PTX instructions) -----------
__SHIM__ float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }  // fma.rn.f32
__SHIM__ float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }       // fma.rn.f32
__SHIM__ double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }    // fma.rn.f64
__SHIM__ float sqrtf(float x) { return __builtin_sqrtf(x); }                            // sqrt.rn.f32
__SHIM__ double sqrt(double x) { return __builtin_sqrt(x); }                             // sqrt.rn.f64
__SHIM__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }                     // rsqrt.approx.f32
__SHIM__ float fabsf(float x) { return __builtin_fabsf(x); }                            // abs.f32
__SHIM__ double fabs(double x) { return __builtin_fabs(x); }                             // abs.f64
__SHIM__ float fminf(float a, float b) { return __builtin_fminf(a, b); }                // min.f32
__SHIM__ float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }                // max.f32
__SHIM__ float floorf(float x) { return __builtin_floorf(x); }                          // cvt.rmi.f32.f32
__SHIM__ float ceilf(float x) { return __builtin_ceilf(x); }                            // cvt.rpi.f32.f32
__SHIM__ float truncf(float x) { return __builtin_truncf(x); }                          // cvt.rzi.f32.f32
__SHIM__ float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }       // div.approx.f32
__SHIM__ float exp2f(float x) { return __nvvm_ex2_approx_f(x); }                        // ex2.approx.f32 (approximate)
__SHIM__ float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); } // mul + ex2.approx.f32
__SHIM__ float expf(float x) { return __expf(x); }  // NB: approximate (~2 ulp + rounding of x*log2e), like -use_fast_math
__SHIM__ float __saturatef(float x) { return __nvvm_saturate_f(x); }                    // cvt.sat.f32.f32
__SHIM__ double fmin(double a, double b) { return __builtin_fmin(a, b); }                // min.f64
__SHIM__ double fmax(double a, double b) { return __builtin_fmax(a, b); }                // max.f64
__SHIM__ int __float2int_rn(float x) { return __nvvm_f2i_rn(x); }                       // cvt.rni.s32.f32
__SHIM__ int __float2int_rd(float x) { return __nvvm_f2i_rm(x); }                       // cvt.rmi.s32.f32
__SHIM__ unsigned __float2uint_rn(float x) { return __nvvm_f2ui_rn(x); }                // cvt.rni.u32.f32
// LLVM 19 folds __nvvm_i2f_rz to a round-to-nearest sitofp, so use inline asm for the rz conversion.
__SHIM__ float __int2float_rz(int x) { float r; asm("cvt.rz.f32.s32 %0, %1;" : "=f"(r) : "r"(x)); return r; }
__SHIM__ float __double2float_rz(double x) { return __nvvm_d2f_rz(x); }                 // cvt.rz.f32.f64
__SHIM__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }           // mov.b32
__SHIM__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }             // mov.b32

// --- Directed rounding (IEEE add/mul/fma/div/rcp/sqrt with .rn/.rz/.rp/.rm) ----------------
// CUDA's suffixes: _rn nearest even, _rz toward zero, _ru up (.rp), _rd down (.rm).
#define __SHIM_ROUND_F32(sfx, m) \
  __SHIM__ float __fadd_##sfx(float a, float b) { return __nvvm_add_##m##_f(a, b); }            /* add.m.f32 */ \
  __SHIM__ float __fmul_##sfx(float a, float b) { return __nvvm_mul_##m##_f(a, b); }            /* mul.m.f32 */ \
  __SHIM__ float __fdiv_##sfx(float a, float b) { return __nvvm_div_##m##_f(a, b); }            /* div.m.f32 */ \
  __SHIM__ float __frcp_##sfx(float a) { return __nvvm_rcp_##m##_f(a); }                        /* rcp.m.f32 */ \
  __SHIM__ float __fsqrt_##sfx(float a) { return __nvvm_sqrt_##m##_f(a); }                      /* sqrt.m.f32 */ \
  __SHIM__ double __dadd_##sfx(double a, double b) { return __nvvm_add_##m##_d(a, b); }         /* add.m.f64 */ \
  __SHIM__ double __dmul_##sfx(double a, double b) { return __nvvm_mul_##m##_d(a, b); }         /* mul.m.f64 */ \
  __SHIM__ double __fma_##sfx(double a, double b, double c) { return __nvvm_fma_##m##_d(a, b, c); } /* fma.m.f64 */ \
  __SHIM__ double __ddiv_##sfx(double a, double b) { return __nvvm_div_##m##_d(a, b); }         /* div.m.f64 */ \
  __SHIM__ double __drcp_##sfx(double a) { return __nvvm_rcp_##m##_d(a); }                      /* rcp.m.f64 */ \
  __SHIM__ double __dsqrt_##sfx(double a) { return __nvvm_sqrt_##m##_d(a); }                    /* sqrt.m.f64 */
__SHIM_ROUND_F32(rn, rn)
__SHIM_ROUND_F32(rz, rz)
__SHIM_ROUND_F32(ru, rp)
__SHIM_ROUND_F32(rd, rm)
#undef __SHIM_ROUND_F32
__SHIM__ float __fmaf_rz(float a, float b, float c) { return __nvvm_fma_rz_f(a, b, c); }  // fma.rz.f32
__SHIM__ float __fmaf_ru(float a, float b, float c) { return __nvvm_fma_rp_f(a, b, c); }  // fma.rp.f32
__SHIM__ float __fmaf_rd(float a, float b, float c) { return __nvvm_fma_rm_f(a, b, c); }  // fma.rm.f32

// --- Approximate math (the .approx instructions; -use_fast_math's versions) --------------------
__SHIM__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }                       // sin.approx.f32
__SHIM__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }                       // cos.approx.f32
__SHIM__ float __log2f(float x) { return __nvvm_lg2_approx_f(x); }                      // lg2.approx.f32

// --- More integer intrinsics -------------------------------------------------------------------
// CUDA's __byte_perm uses only the low 3 bits of each selector nibble (no sign replication).
__SHIM__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { return __nvvm_prmt(x, y, s & 0x7777); }  // prmt.b32
__SHIM__ unsigned __sad(int x, int y, unsigned z) { return __nvvm_sad_i(x, y, z); }       // sad.s32: |x-y| + z
__SHIM__ unsigned __usad(unsigned x, unsigned y, unsigned z) { return __nvvm_sad_ui(x, y, z); }  // sad.u32
__SHIM__ int __mul24(int x, int y) { return __nvvm_mul24_i(x, y); }                       // mul24.lo.s32
__SHIM__ unsigned __umul24(unsigned x, unsigned y) { return __nvvm_mul24_ui(x, y); }      // mul24.lo.u32
__SHIM__ unsigned __fns(unsigned mask, unsigned base, int offset) { return __nvvm_fns(mask, base, offset); }  // fns.b32
__SHIM__ int abs(int x) { return __builtin_abs(x); }                                      // abs.s32
__SHIM__ long long llabs(long long x) { return __builtin_llabs(x); }                      // abs.s64

// --- Conversions with a rounding mode (cvt.{rni,rzi,rpi,rmi} to integers, cvt.{rn,rp,rm} to
// floats; float-to-integer conversions saturate and map NaN to 0). LLVM 19 folds the *2f_rz
// builtins into round-to-nearest conversions, so those are left out. ---------------------------
#define __SHIM_CVT(sfx, m) \
  __SHIM__ unsigned __float2uint_##sfx(float x) { return __nvvm_f2ui_##m(x); }             /* cvt.mi.u32.f32 */ \
  __SHIM__ long long __float2ll_##sfx(float x) { return __nvvm_f2ll_##m(x); }              /* cvt.mi.s64.f32 */ \
  __SHIM__ unsigned long long __float2ull_##sfx(float x) { return __nvvm_f2ull_##m(x); }   /* cvt.mi.u64.f32 */ \
  __SHIM__ int __double2int_##sfx(double x) { return __nvvm_d2i_##m(x); }                  /* cvt.mi.s32.f64 */ \
  __SHIM__ unsigned __double2uint_##sfx(double x) { return __nvvm_d2ui_##m(x); }           /* cvt.mi.u32.f64 */ \
  __SHIM__ long long __double2ll_##sfx(double x) { return __nvvm_d2ll_##m(x); }            /* cvt.mi.s64.f64 */ \
  __SHIM__ unsigned long long __double2ull_##sfx(double x) { return __nvvm_d2ull_##m(x); } /* cvt.mi.u64.f64 */
__SHIM_CVT(rz, rz)
__SHIM_CVT(ru, rp)
__SHIM_CVT(rd, rm)
#undef __SHIM_CVT
__SHIM__ int __float2int_rz(float x) { return __nvvm_f2i_rz(x); }                       // cvt.rzi.s32.f32
__SHIM__ int __float2int_ru(float x) { return __nvvm_f2i_rp(x); }                       // cvt.rpi.s32.f32
__SHIM__ long long __float2ll_rn(float x) { return __nvvm_f2ll_rn(x); }                  // cvt.rni.s64.f32
__SHIM__ int __double2int_rn(double x) { return __nvvm_d2i_rn(x); }                      // cvt.rni.s32.f64
__SHIM__ long long __double2ll_rn(double x) { return __nvvm_d2ll_rn(x); }                // cvt.rni.s64.f64
#define __SHIM_CVTF(sfx, m) \
  __SHIM__ float __int2float_##sfx(int x) { return __nvvm_i2f_##m(x); }                    /* cvt.m.f32.s32 */ \
  __SHIM__ float __uint2float_##sfx(unsigned x) { return __nvvm_ui2f_##m(x); }             /* cvt.m.f32.u32 */ \
  __SHIM__ float __ll2float_##sfx(long long x) { return __nvvm_ll2f_##m(x); }              /* cvt.m.f32.s64 */ \
  __SHIM__ double __ll2double_##sfx(long long x) { return __nvvm_ll2d_##m(x); }            /* cvt.m.f64.s64 */ \
  __SHIM__ float __double2float_##sfx(double x) { return __nvvm_d2f_##m(x); }              /* cvt.m.f32.f64 */
__SHIM_CVTF(ru, rp)
__SHIM_CVTF(rd, rm)
#undef __SHIM_CVTF
__SHIM__ double __saturate(double x) { return __nvvm_saturate_d(x); }                   // cvt.sat.f64.f64
__SHIM__ float __fminf_nan(float a, float b) { return __nvvm_fmin_nan_f(a, b); }         // min.NaN.f32
__SHIM__ float __fmaxf_nan(float a, float b) { return __nvvm_fmax_nan_f(a, b); }         // max.NaN.f32

// --- Half precision (binary16 _Float16 and bfloat16 __bf16; plain arithmetic on _Float16
// compiles to add/sub/mul.f16, on __bf16 to f32 arithmetic and cvt.rn.bf16.f32 for sm_80) -------
typedef _Float16 __half;
typedef __bf16 __nv_bfloat16;
__SHIM__ __half __hfma(__half a, __half b, __half c) { return __nvvm_fma_rn_f16(a, b, c); }  // fma.rn.f16
__SHIM__ __half __hfma_relu(__half a, __half b, __half c) { return __nvvm_fma_rn_relu_f16(a, b, c); }  // fma.rn.relu.f16
__SHIM__ __half __hmin(__half a, __half b) { return __nvvm_fmin_f16(a, b); }               // min.f16
__SHIM__ __half __hmax_nan(__half a, __half b) { return __nvvm_fmax_nan_f16(a, b); }       // max.NaN.f16
__SHIM__ __half __float2half_rn(float x) { return (__half)x; }                           // cvt.rn.f16.f32
__SHIM__ float __half2float(__half x) { return (float)x; }                               // cvt.f32.f16
__SHIM__ __nv_bfloat16 __float2bfloat16_rn(float x) { return __nvvm_f2bf16_rn(x); }      // cvt.rn.bf16.f32
__SHIM__ float __bfloat162float(__nv_bfloat16 x) { return (float)x; }                    // cvt.f32.bf16
__SHIM__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __nvvm_fma_rn_bf16(a, b, c); }  // fma.rn.bf16
__SHIM__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) { return __nvvm_fmin_bf16(a, b); }  // min.bf16
__SHIM__ __nv_bfloat16 __habs(__nv_bfloat16 a) { return __nvvm_abs_bf16(a); }            // abs.bf16
__SHIM__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __nvvm_neg_bf16(a); }            // neg.bf16
// The packed pairs: the first float goes to the upper half, as in CUDA's __floats2half2_rn(a, b)
// which puts a in .x (the lower half): hence the swapped operands.
__SHIM__ unsigned __floats2half2_rn_bits(float lo, float hi) { return __builtin_bit_cast(unsigned, __nvvm_ff2f16x2_rn(hi, lo)); }  // cvt.rn.f16x2.f32
__SHIM__ unsigned __floats2bfloat162_rn_bits(float lo, float hi) { return __builtin_bit_cast(unsigned, __nvvm_ff2bf16x2_rn(hi, lo)); }  // cvt.rn.bf16x2.f32

// --- Warp match and reduce (match.{any,all}.sync.b32, redux.sync; sm_70 / sm_80) --------------
__SHIM__ unsigned __match_any_sync(unsigned m, int v) { return __nvvm_match_any_sync_i32(m, v); }
__SHIM__ unsigned __match_all_sync(unsigned m, int v, int *pred) { return __nvvm_match_all_sync_i32p(m, v, pred); }
__SHIM__ unsigned __reduce_add_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_add(v, m); }
__SHIM__ int __reduce_min_sync(unsigned m, int v) { return __nvvm_redux_sync_min(v, m); }
__SHIM__ int __reduce_max_sync(unsigned m, int v) { return __nvvm_redux_sync_max(v, m); }
__SHIM__ unsigned __reduce_min_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umin(v, m); }
__SHIM__ unsigned __reduce_max_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_umax(v, m); }
__SHIM__ unsigned __reduce_and_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_and(v, m); }
__SHIM__ unsigned __reduce_or_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_or(v, m); }
__SHIM__ unsigned __reduce_xor_sync(unsigned m, unsigned v) { return __nvvm_redux_sync_xor(v, m); }

#undef __SHIM__

// --- Device-side library functions (declared without a body: the CUDA runtime's) -------------
// clang lowers a device printf into vprintf(format, packed arguments); assert calls __assertfail
// with the expression, file, line and function, as CUDA's assert.h does for device code.
typedef __SIZE_TYPE__ size_t;
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ int vprintf(const char *, const char *);
extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned line, const char *function, size_t charSize);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
