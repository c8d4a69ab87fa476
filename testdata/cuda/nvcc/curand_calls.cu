// curand_calls: a kernel that calls a non-inlined __device__ function for every value it
// writes: cuRAND's XORWOW generator (curand_kernel.h, NVIDIA's own code) behind a
// __noinline__ wrapper, so that the PTX has a real .func and a call per value (make bench's
// Curand row); compiled by nvcc only (it needs the toolkit's headers).
#include <curand_kernel.h>

// xorwow_next: the state's next value, kept out of line.
__device__ __noinline__ unsigned xorwow_next(curandState *st) { return curand(st); }

// xorwow_calls: thread t seeds its state with seed + t (curand_init with no subsequence and
// no offset: no skip ahead, so the seeding is cheap) and writes the state's first n values to
// out[t*n .. t*n+n-1], each by a call of xorwow_next.
extern "C" __global__ void xorwow_calls(unsigned *out, unsigned long long seed, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed + t, 0, 0, &st);
  for (int i = 0; i < n; i++)
    out[(long long)t * n + i] = xorwow_next(&st);
}
