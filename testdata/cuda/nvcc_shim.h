// nvcc_shim.h: what testdata/cuda/*.cu take from cuda_shim.h (written for clang-19 without the
// CUDA headers) that nvcc 11.8's own headers lack or define differently. Force-included
// (-include) by `make ptx` for nvcc; each wrapper is the same PTX instruction as in cuda_shim.h.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define __SHIM__ static __device__ __forceinline__

// clang builtins.
#define __builtin_rotateleft32(x, n) __funnelshift_l((x), (x), (n))
#define __builtin_rotateright32(x, n) __funnelshift_r((x), (x), (n))
__SHIM__ unsigned long long __shim_rotl64(unsigned long long x, unsigned long long n) {
  n &= 63;
  return n == 0 ? x : (x << n) | (x >> (64 - n));
}
#define __builtin_rotateleft64 __shim_rotl64

// One PTX instruction each.
__SHIM__ double __saturate(double x) { double r; asm("cvt.sat.f64.f64 %0, %1;" : "=d"(r) : "d"(x)); return r; }
__SHIM__ float __fminf_nan(float a, float b) { float r; asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__SHIM__ float __fmaxf_nan(float a, float b) { float r; asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__SHIM__ unsigned __lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__SHIM__ float __shim_ex2_approx(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }

// cuda_shim.h's math is the approximate instructions (like -use_fast_math, without its
// flush-to-zero and approximate division): expf and exp2f are ex2.approx.
#define exp2f __shim_ex2_approx
#define expf(x) __shim_ex2_approx((x) * 1.4426950408889634f)

// Packed conversions as 32-bit patterns, the first float in the lower half.
__SHIM__ unsigned __floats2half2_rn_bits(float lo, float hi) {
  __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}
__SHIM__ unsigned __floats2bfloat162_rn_bits(float lo, float hi) {
  __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<unsigned *>(&h);
}

// Device-side assert (__assertfail), as cuda_shim.h defines it for clang.
#include <assert.h>
