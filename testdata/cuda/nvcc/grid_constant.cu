// grid_constant: a __grid_constant__ by-value struct parameter (CUDA 11.7+, sm_70+) whose
// address the kernel passes to a device function. It stays in the kernel's parameter memory,
// and nvcc gives the function its generic address (cvta.param); compiled by nvcc only.

struct Coeffs {
  float w[8];
  int n; // how many of w the dot product uses, 0 to 8
};

// dot is c->w[0..n) · x[0..n), as a chain of fused multiply-adds from 0.
__device__ __noinline__ float dot(const Coeffs *c, const float *x) {
  float s = 0.0f;
  for (int k = 0; k < c->n && k < 8; k++)
    s = fmaf(c->w[k], x[k], s);
  return s;
}

// grid_const: out[i] = dot(&c, in + 8*i) for i < n.
extern "C" __global__ void grid_const(const __grid_constant__ Coeffs c, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = dot(&c, in + 8 * i);
}
