// wmma_shapes: wmma's m32n8k16 and m8n32k16 shapes on .f16, .bf16, .s8 and .u8 inputs;
// compiled by nvcc only. Warp w of the grid works on the w-th tile of each array (512
// elements apart, room for the largest fragment); blockDim.x must be a multiple of 32.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// h32x8: D (32x8 .f32, row-major) = A (32x16 .f16, row-major) * B (16x8 .f16, column-major) + C
// (.f32, column-major), then every element of D plus 1.
extern "C" __global__ void h32x8(float *d, const half *a, const half *b, const float *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
  wmma::load_matrix_sync(fa, a + 512 * w, 16);
  wmma::load_matrix_sync(fb, b + 512 * w, 16);
  wmma::load_matrix_sync(fc, c + 512 * w, 32, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; i++)
    fc.x[i] += 1.0f;
  wmma::store_matrix_sync(d + 512 * w, fc, 8, wmma::mem_row_major);
}

// h8x32: D (8x32 .f16, column-major) = A (8x16 .f16, column-major) * B (16x32 .f16, row-major)
// + C (.f16, row-major).
extern "C" __global__ void h8x32(half *d, const half *a, const half *b, const half *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, half> fc;
  wmma::load_matrix_sync(fa, a + 512 * w, 8);
  wmma::load_matrix_sync(fb, b + 512 * w, 32);
  wmma::load_matrix_sync(fc, c + 512 * w, 32, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + 512 * w, fc, 8, wmma::mem_col_major);
}

// bf32x8: D (32x8 .f32, row-major) = A (32x16 .bf16, row-major) * B (16x8 .bf16, row-major) + C
// (.f32, row-major).
extern "C" __global__ void bf32x8(float *d, const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
  wmma::load_matrix_sync(fa, a + 512 * w, 16);
  wmma::load_matrix_sync(fb, b + 512 * w, 8);
  wmma::load_matrix_sync(fc, c + 512 * w, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d + 512 * w, fc, 8, wmma::mem_row_major);
}

// i8x32: D (8x32 .s32, row-major) = A (8x16 .s8, row-major) * B (16x32 .s8, column-major) + C
// (.s32, row-major), saturating.
extern "C" __global__ void i8x32(int *d, const signed char *a, const signed char *b, const int *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, int> fc;
  wmma::load_matrix_sync(fa, a + 512 * w, 16);
  wmma::load_matrix_sync(fb, b + 512 * w, 16);
  wmma::load_matrix_sync(fc, c + 512 * w, 32, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, true);
  wmma::store_matrix_sync(d + 512 * w, fc, 32, wmma::mem_row_major);
}

// u32x8: D (32x8 .s32, column-major) = A (32x16 .u8, column-major) * B (16x8 .u8, row-major,
// rows 16 bytes apart as CUDA requires) + C (.s32, column-major), wrapping.
extern "C" __global__ void u32x8(int *d, const unsigned char *a, const unsigned char *b, const int *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> fc;
  wmma::load_matrix_sync(fa, a + 512 * w, 32);
  wmma::load_matrix_sync(fb, b + 512 * w, 16);
  wmma::load_matrix_sync(fc, c + 512 * w, 32, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc, false);
  wmma::store_matrix_sync(d + 512 * w, fc, 32, wmma::mem_col_major);
}
