// wmma_int: integer tensor-core wmma (sm_72 and newer): 16x16x16 tiles of signed or unsigned
// 8-bit matrices accumulated in 32-bit integers, as cuda-samples' immaTensorCoreGemm uses
// them; compiled by nvcc only. Warp w of the grid works on the w-th 16x16 tile of each
// array (256 elements apart); blockDim.x must be a multiple of 32.
#include <mma.h>
using namespace nvcuda;

// imma_s8: D = 2*(A*B + C) - 1 with A row-major, B column-major, C row-major and D stored
// column-major; the mma saturates (.satfinite), the scaling after it wraps.
extern "C" __global__ void imma_s8(int *d, const signed char *a, const signed char *b, const int *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fa, a + 256 * w, 16);
  wmma::load_matrix_sync(fb, b + 256 * w, 16);
  wmma::load_matrix_sync(fc, c + 256 * w, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, true);
  for (int i = 0; i < fc.num_elements; i++)
    fc.x[i] = (int)(2u * (unsigned)fc.x[i] - 1u);
  wmma::store_matrix_sync(d + 256 * w, fc, 16, wmma::mem_col_major);
}

// imma_u8: D = A*B + C with A column-major, B row-major, C column-major and D stored
// row-major; the sums wrap (no .satfinite).
extern "C" __global__ void imma_u8(int *d, const unsigned char *a, const unsigned char *b, const int *c) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fa, a + 256 * w, 16);
  wmma::load_matrix_sync(fb, b + 256 * w, 16);
  wmma::load_matrix_sync(fc, c + 256 * w, 16, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc, false);
  wmma::store_matrix_sync(d + 256 * w, fc, 16, wmma::mem_row_major);
}
