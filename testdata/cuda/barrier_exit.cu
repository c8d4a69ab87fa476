// barrier_exit: threads that return before a __syncthreads() must not hold it up (on the GPU
// they have exited), and warps of one block that wait for each other through shared memory
// must all progress.

// early_return_barrier: threads with threadIdx.x >= k return at once; the others stage
// in[g] in shared memory, wait at the barrier, and store out[g] = s[(t+1) % k] + s[k-1-t],
// where t = threadIdx.x and g = blockIdx.x * blockDim.x + t. Requires 1 <= k <= blockDim.x.
extern "C" __global__ void early_return_barrier(int *out, const int *in, int k) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (t >= k)
    return;
  s[t] = in[g];
  __syncthreads();
  out[g] = s[(t + 1) % k] + s[k - 1 - t];
}

// interleaved_return_barrier: threads with t % 3 == 0 return at once; the others stage in[g]
// in shared memory, wait at three barriers and store out[g] = s[u] * 3 + in[g], where u is
// t + 3 if that is below blockDim.x and 1 otherwise (blockDim.x >= 2).
extern "C" __global__ void interleaved_return_barrier(int *out, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (t % 3 == 0)
    return;
  s[t] = in[g];
  __syncthreads();
  int u = t + 3 < (int)blockDim.x ? t + 3 : 1;
  int v = s[u];
  __syncthreads();
  s[t] = v * 3;
  __syncthreads();
  out[g] = s[t] + in[g];
}

// warp_handoff: the first warp of each block waits, spinning on a shared flag, until the last
// warp has published a value; then every thread of the first warp stores out[g] = value + t,
// with value = 1000 * (blockIdx.x + 1) + blockDim.x. Other threads store out[g] = t. Requires
// blockDim.x a multiple of 32 and at least 64.
extern "C" __global__ void warp_handoff(int *out) {
  __shared__ volatile int flag;
  __shared__ volatile int value;
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (t == 0)
    flag = 0;
  __syncthreads();
  if (t < 32) {
    while (flag == 0) {
    }
    out[g] = value + t;
  } else {
    if (t == blockDim.x - 32) {
      value = 1000 * (blockIdx.x + 1) + blockDim.x;
      __threadfence_block();
      flag = 1;
    }
    out[g] = t;
  }
}
