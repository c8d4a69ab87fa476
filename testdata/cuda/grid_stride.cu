// grid_stride: grid-stride loops (any grid size covers all n elements).

// grid_stride_scale computes out[i] = in[i]*s + (float)i for all 0 <= i < n,
// each thread handling i, i + blockDim.x*gridDim.x, ...
extern "C" __global__ void grid_stride_scale(float *out, const float *in, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * s + (float)i;
}

// grid_stride_partial computes partial[t] = sum of in[i] over i = t, t+T, t+2T, ... < n
// (int arithmetic, wraps), where t is the global thread index and T the total thread count.
// 64-bit index so n may exceed 2^31.
extern "C" __global__ void grid_stride_partial(int *partial, const int *in, long long n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long stride = (long long)blockDim.x * gridDim.x;
  int s = 0;
  for (long long i = t; i < n; i += stride)
    s += in[i];
  partial[t] = s;
}
