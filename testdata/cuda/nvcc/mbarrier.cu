// mbarrier: cuda::barrier from CUDA 11.8's libcu++, which sm_80 code reaches through the
// mbarrier instructions (init, arrive, arrive_drop, test_wait in a back-off loop), compiled by
// nvcc only. blockDim.x must be a multiple of 32, at most 1024.
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// barrier_rounds runs three phases of one barrier: each thread publishes a value in shared
// memory, waits for the others, and reads its neighbour's, so out[g] =
// in[g+1] + 2*in[g+2] + 4*in[g+3] within the block (indices wrapping inside the block).
extern "C" __global__ void barrier_rounds(int *out, const int *in) {
  __shared__ block_barrier bar;
  __shared__ int s[1024];
  unsigned t = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + t;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  int v = in[g], acc = 0;
  for (int round = 0; round < 3; round++) {
    s[t] = v;
    bar.arrive_and_wait();
    v = s[(t + 1) % n];
    acc += v << round;
    bar.arrive_and_wait(); // nobody overwrites s before all have read it
  }
  out[g] = acc;
}

// barrier_drop: the upper half of the block leaves the barrier after one phase
// (arrive_and_drop), the lower half goes on for a second phase, which must then complete
// with half the arrivals. out[g] = in[g] + in[(t+1)%n] for the lower half and in[g] for the
// upper half, plus, for the lower half, the lower-half neighbour's second value.
extern "C" __global__ void barrier_drop(int *out, const int *in) {
  __shared__ block_barrier bar;
  __shared__ int s[1024];
  unsigned t = threadIdx.x, n = blockDim.x, half = n / 2, g = blockIdx.x * n + t;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  int v = in[g];
  s[t] = v;
  if (t >= half) {
    (void)bar.arrive_and_drop();
    out[g] = v;
    return;
  }
  bar.arrive_and_wait();
  int w = s[(t + 1) % n];
  bar.arrive_and_wait();
  s[t] = w * 3;
  bar.arrive_and_wait();
  out[g] = v + w + s[(t + 1) % half];
}

// barrier_split: arrive and wait as separate steps (a token), with work in between: warp 0
// fills a table while the other warps arrive early and only then wait for it.
extern "C" __global__ void barrier_split(int *out, const int *in) {
  __shared__ block_barrier bar;
  __shared__ int table[32];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (t < 32) {
    table[t] = in[blockIdx.x * 32 + t] * 7;
  }
  block_barrier::arrival_token token = bar.arrive();
  int local = in[g] ^ 0x55;
  bar.wait(std::move(token));
  out[g] = local + table[(t * 5) % 32];
}
