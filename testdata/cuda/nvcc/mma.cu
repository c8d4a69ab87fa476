// mma: sm_80's warp-level matrix instructions as tensor-core code reaches them with inline
// PTX: ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16 loads of fragments from
// shared memory and mma.sync.aligned m16n8k16 / m16n8k8 on f16, bf16 and tf32 inputs with
// f32 (and f16) accumulators, and nvcuda::wmma's m16n16k16 f16 fragments (wmma.load, wmma.mma,
// wmma.store). Each kernel runs one warp a block (blockDim.x == 32) on the
// block's own tile. Compiled by nvcc only.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

__device__ __forceinline__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// ldsm_copy loads a 16x16 b16 tile (row-major in shared memory) with ldmatrix .x1, .x2 and
// .x4, plain and .trans, and stores each lane's registers as they come: block b's
// out[b*448 + 32*r + lane] is register r of x1, x2, x4, x1.trans, x2.trans, x4.trans in turn.
extern "C" __global__ void ldsm_copy(unsigned *out, const unsigned short *in) {
  __shared__ __align__(16) unsigned short tile[16 * 16];
  unsigned t = threadIdx.x;
  const unsigned short *src = in + blockIdx.x * 256;
  for (unsigned i = t; i < 256; i += 32)
    tile[i] = src[i];
  __syncthreads();
  unsigned *o = out + blockIdx.x * (32 * 14);
  // Row addresses: lane t names row t%16 of the tile, the left (t < 16) or right half.
  unsigned a = smem(&tile[(t % 16) * 16 + (t / 16) * 8]);
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  o[0 * 32 + t] = r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  o[1 * 32 + t] = r0;
  o[2 * 32 + t] = r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  o[3 * 32 + t] = r0;
  o[4 * 32 + t] = r1;
  o[5 * 32 + t] = r2;
  o[6 * 32 + t] = r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  o[7 * 32 + t] = r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  o[8 * 32 + t] = r0;
  o[9 * 32 + t] = r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  o[10 * 32 + t] = r0;
  o[11 * 32 + t] = r1;
  o[12 * 32 + t] = r2;
  o[13 * 32 + t] = r3;
}

// gemm_f16 computes one 16x8 tile per block, D = A*B + C over K (a multiple of 16), with A
// (16xK, row-major f16) and B (Kx8, stored column-major as 8 rows of K f16: Bt[n*K + k])
// staged in shared memory and loaded with ldmatrix (.x4 for A, .x2 for B), C and D 16x8 f32
// row-major. Each k step is one mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.
extern "C" __global__ void gemm_f16(float *d, const __half *a, const __half *bt, const float *c, int K) {
  __shared__ __align__(16) __half sa[16 * 64];
  __shared__ __align__(16) __half sb[8 * 64];
  unsigned t = threadIdx.x, blk = blockIdx.x;
  a += (size_t)blk * 16 * K;
  bt += (size_t)blk * 8 * K;
  c += blk * 128;
  d += blk * 128;
  unsigned g = t / 4, q = t % 4;
  float acc[4] = {c[g * 8 + 2 * q], c[g * 8 + 2 * q + 1], c[(g + 8) * 8 + 2 * q], c[(g + 8) * 8 + 2 * q + 1]};
  for (int k0 = 0; k0 < K; k0 += 64) {
    int kk = min(64, K - k0);
    __syncthreads();
    for (int i = t; i < 16 * kk; i += 32)
      sa[(i / kk) * 64 + i % kk] = a[(i / kk) * K + k0 + i % kk];
    for (int i = t; i < 8 * kk; i += 32)
      sb[(i / kk) * 64 + i % kk] = bt[(i / kk) * K + k0 + i % kk];
    __syncthreads();
    for (int k = 0; k < kk; k += 16) {
      unsigned a0, a1, a2, a3, b0, b1;
      // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15).
      unsigned pa = smem(&sa[(t % 16) * 64 + k + (t / 16) * 8]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
      // B: matrices (n 0-7, k 0-7), (n 0-7, k 8-15); lanes 16-31 repeat lanes 0-15's addresses.
      unsigned pb = smem(&sb[(t % 8) * 64 + k + ((t / 8) % 2) * 8]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                   : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  d[g * 8 + 2 * q] = acc[0];
  d[g * 8 + 2 * q + 1] = acc[1];
  d[(g + 8) * 8 + 2 * q] = acc[2];
  d[(g + 8) * 8 + 2 * q + 1] = acc[3];
}

// gemm_f16_trans is gemm_f16 with B stored row-major (Kx8, b[k*8 + n]) and loaded with
// ldmatrix .x2.trans, and one K = 16 step with an f16 accumulator
// (mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16) whose C is c16 (16x8 f16).
extern "C" __global__ void gemm_f16_trans(__half *d, const __half *a, const __half *b, const __half *c) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  unsigned t = threadIdx.x, blk = blockIdx.x;
  a += blk * 256;
  b += blk * 128;
  c += blk * 128;
  d += blk * 128;
  for (int i = t; i < 256; i += 32)
    sa[i] = a[i];
  for (int i = t; i < 128; i += 32)
    sb[i] = b[i];
  __syncthreads();
  unsigned g = t / 4, q = t % 4;
  unsigned a0, a1, a2, a3, b0, b1;
  unsigned pa = smem(&sa[(t % 16) * 16 + (t / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
  unsigned pb = smem(&sb[(t % 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
  unsigned c0 = *(const unsigned *)&c[g * 8 + 2 * q], c1 = *(const unsigned *)&c[(g + 8) * 8 + 2 * q];
  unsigned d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(d0), "=r"(d1)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
  *(unsigned *)&d[g * 8 + 2 * q] = d0;
  *(unsigned *)&d[(g + 8) * 8 + 2 * q] = d1;
}

// gemm_bf16 is one m16n8k16 bf16 step and one m16n8k8 bf16 step (K = 24: k 0-15, then 16-23)
// with fragments read straight from global memory: A 16x24 row-major, B 24x8 row-major, C
// and D 16x8 f32.
extern "C" __global__ void gemm_bf16(float *d, const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c) {
  unsigned t = threadIdx.x, blk = blockIdx.x;
  const unsigned short *A = (const unsigned short *)a + blk * 16 * 24;
  const unsigned short *B = (const unsigned short *)b + blk * 24 * 8;
  c += blk * 128;
  d += blk * 128;
  unsigned g = t / 4, q = t % 4;
  auto pk = [](unsigned short lo, unsigned short hi) { return (unsigned)lo | (unsigned)hi << 16; };
  float acc[4] = {c[g * 8 + 2 * q], c[g * 8 + 2 * q + 1], c[(g + 8) * 8 + 2 * q], c[(g + 8) * 8 + 2 * q + 1]};
  unsigned a0 = pk(A[g * 24 + 2 * q], A[g * 24 + 2 * q + 1]);
  unsigned a1 = pk(A[(g + 8) * 24 + 2 * q], A[(g + 8) * 24 + 2 * q + 1]);
  unsigned a2 = pk(A[g * 24 + 2 * q + 8], A[g * 24 + 2 * q + 9]);
  unsigned a3 = pk(A[(g + 8) * 24 + 2 * q + 8], A[(g + 8) * 24 + 2 * q + 9]);
  unsigned b0 = pk(B[(2 * q) * 8 + g], B[(2 * q + 1) * 8 + g]);
  unsigned b1 = pk(B[(2 * q + 8) * 8 + g], B[(2 * q + 9) * 8 + g]);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  unsigned e0 = pk(A[g * 24 + 16 + 2 * q], A[g * 24 + 16 + 2 * q + 1]);
  unsigned e1 = pk(A[(g + 8) * 24 + 16 + 2 * q], A[(g + 8) * 24 + 16 + 2 * q + 1]);
  unsigned f0 = pk(B[(16 + 2 * q) * 8 + g], B[(16 + 2 * q + 1) * 8 + g]);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
               : "r"(e0), "r"(e1), "r"(f0));
  d[g * 8 + 2 * q] = acc[0];
  d[g * 8 + 2 * q + 1] = acc[1];
  d[(g + 8) * 8 + 2 * q] = acc[2];
  d[(g + 8) * 8 + 2 * q + 1] = acc[3];
}

// gemm_tf32 is two m16n8k8 tf32 steps (K = 16) with fragments from global memory: A 16x16
// row-major f32, B 16x8 row-major f32 (the low 13 mantissa bits are ignored), C and D 16x8 f32.
// One m16n8k8.f32.f16.f16.f32 step follows on h (16x8 f16 A, 8x8 f16 B, row-major).
extern "C" __global__ void gemm_tf32(float *d, const float *a, const float *b, const float *c, const __half *ha, const __half *hb) {
  unsigned t = threadIdx.x, blk = blockIdx.x;
  a += blk * 256;
  b += blk * 128;
  c += blk * 128;
  d += blk * 128;
  const unsigned short *HA = (const unsigned short *)ha + blk * 128;
  const unsigned short *HB = (const unsigned short *)hb + blk * 64;
  unsigned g = t / 4, q = t % 4;
  float acc[4] = {c[g * 8 + 2 * q], c[g * 8 + 2 * q + 1], c[(g + 8) * 8 + 2 * q], c[(g + 8) * 8 + 2 * q + 1]};
  for (int k = 0; k < 16; k += 8) {
    unsigned a0 = __float_as_uint(a[g * 16 + k + q]), a1 = __float_as_uint(a[(g + 8) * 16 + k + q]);
    unsigned a2 = __float_as_uint(a[g * 16 + k + q + 4]), a3 = __float_as_uint(a[(g + 8) * 16 + k + q + 4]);
    unsigned b0 = __float_as_uint(b[(k + q) * 8 + g]), b1 = __float_as_uint(b[(k + q + 4) * 8 + g]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  auto pk = [](unsigned short lo, unsigned short hi) { return (unsigned)lo | (unsigned)hi << 16; };
  unsigned h0 = pk(HA[g * 8 + 2 * q], HA[g * 8 + 2 * q + 1]);
  unsigned h1 = pk(HA[(g + 8) * 8 + 2 * q], HA[(g + 8) * 8 + 2 * q + 1]);
  unsigned hb0 = pk(HB[(2 * q) * 8 + g], HB[(2 * q + 1) * 8 + g]);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
               : "r"(h0), "r"(h1), "r"(hb0));
  d[g * 8 + 2 * q] = acc[0];
  d[g * 8 + 2 * q + 1] = acc[1];
  d[(g + 8) * 8 + 2 * q] = acc[2];
  d[(g + 8) * 8 + 2 * q + 1] = acc[3];
}

// wmma_gemm computes one 16x16 tile per block with nvcuda::wmma: D = A*B + C over K = 32 (two
// wmma.mma steps), A 16x32 row-major (lda 32), B 32x16 column-major (ldb 32), C and D 16x16
// f32 row-major (ldc 16), all in global memory.
extern "C" __global__ void wmma_gemm(float *d, const __half *a, const __half *b, const float *c) {
  using namespace nvcuda;
  unsigned blk = blockIdx.x;
  a += blk * 16 * 32;
  b += blk * 32 * 16;
  c += blk * 256;
  d += blk * 256;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
  for (int k = 0; k < 32; k += 16) {
    wmma::load_matrix_sync(fa, a + k, 32);
    wmma::load_matrix_sync(fb, b + k, 32);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// wmma_half stages A (16x16, column-major) and B (16x16, row-major) in shared memory and
// computes D = A*B + C with an f16 accumulator, C and D 16x16 f16 column-major in global
// memory.
extern "C" __global__ void wmma_half(__half *d, const __half *a, const __half *b, const __half *c) {
  using namespace nvcuda;
  __shared__ __align__(32) __half sa[256], sb[256];
  unsigned t = threadIdx.x, blk = blockIdx.x;
  for (int i = t; i < 256; i += 32) {
    sa[i] = a[blk * 256 + i];
    sb[i] = b[blk * 256 + i];
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::load_matrix_sync(acc, c + blk * 256, 16, wmma::mem_col_major);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d + blk * 256, acc, 16, wmma::mem_col_major);
}
