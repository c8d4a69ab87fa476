// reduce_shared: block reductions in static __shared__ memory with __syncthreads.
// Both kernels must be launched with blockDim.x == 256 (the shared array size).

#define BLOCK 256

// reduce_sum computes out[blockIdx.x] = sum of in[i] (int, wrapping) over the i < n that belong
// to this block (i = blockIdx.x*256 + threadIdx.x); out-of-range threads contribute 0.
extern "C" __global__ void reduce_sum(int *out, const int *in, int n) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// reduce_max computes out[blockIdx.x] = max of in[i] (float, fmaxf) over this block's i < n;
// out-of-range threads contribute -inf. Max is order-independent, so the result is exact.
extern "C" __global__ void reduce_max(float *out, const float *in, int n) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : -__builtin_inff();
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] = fmaxf(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
