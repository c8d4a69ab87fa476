// curand: cuRAND's device API (curand_kernel.h, NVIDIA's own code): XORWOW states made by
// curand_init at an offset (a skip ahead through precomputed matrices in a local scratch
// array) and at a subsequence (steps of 2^67), uniform floats, and Philox4x32-10 states;
// compiled by nvcc only (it needs the toolkit's headers).
#include <curand_kernel.h>

// xorwow_offsets: thread t's state skips t*37+1 values of seed's sequence; out[4t..4t+3] are
// its next four values.
extern "C" __global__ void xorwow_offsets(unsigned *out, unsigned long long seed) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, 0, (unsigned long long)t * 37 + 1, &st);
  for (int k = 0; k < 4; k++)
    out[t * 4 + k] = curand(&st);
}

// xorwow_subsequences: thread t's state starts subsequence t of seed's sequence (2^67 * t
// values on); out[2t], out[2t+1] are its first two values.
extern "C" __global__ void xorwow_subsequences(unsigned *out, unsigned long long seed) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, t, 0, &st);
  out[t * 2] = curand(&st);
  out[t * 2 + 1] = curand(&st);
}

// xorwow_uniform: out[t] is the first curand_uniform of the state seeded with seed + t.
extern "C" __global__ void xorwow_uniform(float *out, unsigned long long seed) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed + t, 0, 0, &st);
  out[t] = curand_uniform(&st);
}

// philox: out[8t..8t+7] are the first two curand4 results of subsequence t of the
// Philox4x32-10 generator keyed by seed.
extern "C" __global__ void philox(unsigned *out, unsigned long long seed) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, t, 0, &st);
  for (int k = 0; k < 2; k++) {
    uint4 v = curand4(&st);
    out[t * 8 + k * 4] = v.x;
    out[t * 8 + k * 4 + 1] = v.y;
    out[t * 8 + k * 4 + 2] = v.z;
    out[t * 8 + k * 4 + 3] = v.w;
  }
}
