// fminmax: the NaN-propagating float min and max (min.NaN.f32, max.NaN.f32).

// minmax_nan computes, for i < n, out[2*i] = __fminf_nan(a[i], b[i]) and
// out[2*i+1] = __fmaxf_nan(a[i], b[i]): NaN if either operand is NaN, and -0 below +0.
extern "C" __global__ void minmax_nan(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[2 * i] = __fminf_nan(a[i], b[i]);
  out[2 * i + 1] = __fmaxf_nan(a[i], b[i]);
}
