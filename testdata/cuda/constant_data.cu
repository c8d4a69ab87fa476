// constant_data: __constant__ tables with initializers (.const state space).

// coeffs are polynomial coefficients c0..c7 (c0 first).
__constant__ float coeffs[8] = {1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, -0.03125f, 0.015625f, -0.0078125f};

// lut is a 16-entry lookup table (squares minus 3).
__constant__ int lut[16] = {-3, -2, 1, 6, 13, 22, 33, 46, 61, 78, 97, 118, 141, 166, 193, 222};

// scale_bias is a small constant struct.
struct ScaleBias {
  float scale;
  int bias;
};
__constant__ ScaleBias sb = {2.5f, 7};

// poly_eval computes out[i] = c0 + x*(c1 + x*(c2 + ... + x*c7)) for x = x[i], i < n
// (Horner's rule from c7 down; clang contracts each step to fma.rn.f32).
extern "C" __global__ void poly_eval(float *out, const float *xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = xs[i], r = coeffs[7];
  for (int k = 6; k >= 0; k--)
    r = r * x + coeffs[k];
  out[i] = r;
}

// lut_lookup computes out[i] = lut[in[i] & 15] * sb.bias + (int)(sb.scale * (float)i)
// for i < n (float-to-int conversion truncates toward zero).
extern "C" __global__ void lut_lookup(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = lut[in[i] & 15] * sb.bias + (int)(sb.scale * (float)i);
}
