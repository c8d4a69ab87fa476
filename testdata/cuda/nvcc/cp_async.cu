// cp_async: sm_80's asynchronous copies from global to shared memory, as CUDA 11.8 reaches
// them: __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior (cp.async.ca and
// .cg, src-size zero fill, commit_group, wait_group) and cuda::memcpy_async with a
// cuda::barrier (cp.async.mbarrier.arrive), compiled by nvcc only. blockDim.x must be a
// multiple of 32, at most 256. cooperative_groups::memcpy_async reaches cp.async too.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>

#pragma nv_diag_suppress static_var_with_dynamic_init

// pipeline_tiles streams `tiles` tiles of blockDim.x ints per block through a two-stage
// pipeline of 4-byte copies: out[g] = sum over k of (k+1) * tile k's element at the thread's
// neighbour ((t+1) % n), for the block's tiles in[(b*tiles + k)*n ..].
extern "C" __global__ void pipeline_tiles(int *out, const int *in, int tiles) {
  __shared__ int buf[2][256];
  unsigned t = threadIdx.x, n = blockDim.x;
  const int *base = in + (size_t)blockIdx.x * tiles * n;
  __pipeline_memcpy_async(&buf[0][t], &base[t], sizeof(int));
  __pipeline_commit();
  int acc = 0;
  for (int k = 0; k < tiles; k++) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &base[(k + 1) * n + t], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += buf[k & 1][(t + 1) % n] * (k + 1);
    __syncthreads();
  }
  out[blockIdx.x * n + t] = acc;
}

// pipeline_wide copies 8 and 16 bytes a thread (int2 and int4) and reads a neighbour's:
// out[g] = a.x - a.y + b.x + 2*b.y + 3*b.z + 4*b.w, with a = in2[b*n + (t+1)%n] and
// b = in4[b*n + (t+2)%n].
extern "C" __global__ void pipeline_wide(int *out, const int2 *in2, const int4 *in4) {
  __shared__ int2 s2[256];
  __shared__ int4 s4[256];
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  __pipeline_memcpy_async(&s2[t], &in2[g], sizeof(int2));
  __pipeline_memcpy_async(&s4[t], &in4[g], sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  int2 a = s2[(t + 1) % n];
  int4 b = s4[(t + 2) % n];
  out[g] = a.x - a.y + b.x + 2 * b.y + 3 * b.z + 4 * b.w;
}

// pipeline_zfill copies the first m ints (m < 4*blockDim.x) of each block's 4*blockDim.x in
// 16-byte chunks, zero-filling past m: a chunk with k of its ints below m reads 4*k bytes
// (src-size), so nothing past in[b*4n + m] is read. out[g] = the 4 ints of chunk (t+1)%n
// weighted 1, 2, 3, 4.
extern "C" __global__ void pipeline_zfill(int *out, const int *in, int m) {
  __shared__ int4 s[256];
  unsigned t = threadIdx.x, n = blockDim.x;
  const int *base = in + (size_t)blockIdx.x * 4 * n;
  int have = m - 4 * (int)t;
  have = have < 0 ? 0 : have > 4 ? 4 : have;
  __pipeline_memcpy_async(&s[t], base + 4 * t, sizeof(int4), (4 - have) * sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  int4 v = s[(t + 1) % n];
  out[blockIdx.x * n + t] = v.x + 2 * v.y + 3 * v.z + 4 * v.w;
}

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// barrier_copy stages each block's floats through shared memory with cuda::memcpy_async
// completed by a cuda::barrier, 16 bytes a thread, twice (two phases):
// out[g] = s[(t+1)%n] * 2 + s2[(t+3)%n], s the first round's float4 sums and s2 the second's.
extern "C" __global__ void barrier_copy(float *out, const float4 *in) {
  __shared__ block_barrier bar;
  __shared__ float4 s[256];
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  cuda::memcpy_async(&s[t], &in[g], cuda::aligned_size_t<16>(sizeof(float4)), bar);
  bar.arrive_and_wait();
  float4 a = s[(t + 1) % n];
  float r = (a.x + a.y + a.z + a.w) * 2;
  bar.arrive_and_wait(); // nobody overwrites s before all have read it
  cuda::memcpy_async(&s[t], &in[gridDim.x * n + g], cuda::aligned_size_t<16>(sizeof(float4)), bar);
  bar.arrive_and_wait();
  float4 b = s[(t + 3) % n];
  out[g] = r + (b.x + b.y + b.z + b.w);
}

namespace cg = cooperative_groups;

// cg_copy: the block copies its n ints to shared memory together
// (cooperative_groups::memcpy_async, 4-byte copies spread over the threads), waits
// (cooperative_groups::wait), and out[g] = s[(t+5)%n] - s[t].
extern "C" __global__ void cg_copy(int *out, const int *in) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  cg::memcpy_async(block, s, in + blockIdx.x * n, sizeof(int) * n);
  cg::wait(block);
  out[g] = s[(t + 5) % n] - s[t];
}
