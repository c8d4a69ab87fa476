// shfl_partial: warp reductions whose shuffles name source lanes that do not execute, as
// cuda-samples' reduction does: a full-mask __shfl_down_sync in a partial warp (its last
// pass runs blocks of fewer than 32 threads), and one under a __ballot_sync mask over the
// warps' sums (reduce7). The lanes read there give 0, as NVIDIA GPUs read them, so the sums
// cover exactly the lanes that hold values; compiled by nvcc only.

// warp_sum_partial: out[w] = the sum of in[] over the threads of warp w of the grid (numbered
// block by block), every warp reduced with the full mask whatever its size.
extern "C" __global__ void warp_sum_partial(const int *in, int *out) {
  unsigned tid = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + tid];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (tid % 32 == 0)
    out[blockIdx.x * ((blockDim.x + 31) / 32) + tid / 32] = v;
}

// ballot_sum: out[b] = the sum of in[] over block b (at most 1024 threads): each warp's sum
// goes to shared memory, and the first warp's lanes that hold one reduce them under the
// ballot of those lanes, reading lanes outside it.
extern "C" __global__ void ballot_sum(const int *in, int *out) {
  __shared__ int sums[32];
  unsigned tid = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + tid];
  unsigned mask = __ballot_sync(0xffffffff, tid < blockDim.x);
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(mask, v, offset);
  if (tid % 32 == 0)
    sums[tid / 32] = v;
  __syncthreads();
  unsigned warps = (blockDim.x + 31) / 32;
  if (tid < 32) {
    unsigned held = __ballot_sync(0xffffffff, tid < warps);
    if (tid < warps) {
      int s = sums[tid];
      for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(held, s, offset);
      if (tid == 0)
        out[blockIdx.x] = s;
    }
  }
}
