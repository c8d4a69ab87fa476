// warp_ops: warp shuffles and votes. All kernels assume blockDim.x is a multiple of 32 and
// that exactly n = gridDim.x*blockDim.x threads are launched (no bounds checks: all 32 lanes
// of each warp must take part in the *_sync calls with the full mask).

#define FULL 0xffffffffu

// warp_reduce_sum computes, for each warp w (global thread index / 32),
// out[w] = sum of in[32w .. 32w+31] (int, wrapping), by a __shfl_down_sync tree;
// only lane 0 writes.
extern "C" __global__ void warp_reduce_sum(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

// warp_allreduce_max computes out[i] = max of in[] over i's warp (float), for every lane,
// by a __shfl_xor_sync butterfly (every lane ends with the same value).
extern "C" __global__ void warp_allreduce_max(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int m = 16; m > 0; m >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL, v, m));
  out[i] = v;
}

// warp_scan computes the inclusive prefix sum within each warp:
// out[i] = sum of in[j] for j from the warp's first index up to i (int), via __shfl_up_sync.
extern "C" __global__ void warp_scan(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[i];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(FULL, v, d);
    if (lane >= d)
      v += u;
  }
  out[i] = v;
}

// warp_broadcast computes out[i] = in[j] where j is the index of lane (in[i] & 31) of i's warp
// (__shfl_sync with a per-lane source lane).
extern "C" __global__ void warp_broadcast(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[i] = __shfl_sync(FULL, v, v & 31);
}

// warp_votes computes, with p = (in[i] > 0):
//   ballot[i / 32] = bitmask of p over the warp (bit k = lane k), written by lane 0,
//   any[i] = 1 if p holds for some lane of the warp else 0,
//   all[i] = 1 if p holds for every lane of the warp else 0,
//   rank[i] = number of lanes below this one in the warp with p true (popc of ballot & lanemask_lt).
extern "C" __global__ void warp_votes(unsigned *ballot, int *any, int *all, int *rank, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = in[i] > 0;
  unsigned b = __ballot_sync(FULL, p);
  if ((threadIdx.x & 31) == 0)
    ballot[i / 32] = b;
  any[i] = __any_sync(FULL, p) ? 1 : 0;
  all[i] = __all_sync(FULL, p) ? 1 : 0;
  rank[i] = __popc(b & __lanemask_lt());
}
