// fapprox: the fast approximate float instructions (sin/cos/lg2/ex2/rsqrt/div .approx.f32), as
// CUDA's intrinsics and -use_fast_math use them.

// fapprox computes, for i < n with x = x[i] and y = y[i] (float), into out[6*i + k]:
//   k=0: __sinf(x)   k=1: __cosf(x)   k=2: __log2f(|x|)   k=3: exp2f(x)   k=4: rsqrtf(|x|)
//   k=5: __fdividef(x, y)
extern "C" __global__ void fapprox(float *out, const float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i], b = y[i];
  float *o = out + 6 * i;
  o[0] = __sinf(a);
  o[1] = __cosf(a);
  o[2] = __log2f(fabsf(a));
  o[3] = exp2f(a);
  o[4] = rsqrtf(fabsf(a));
  o[5] = __fdividef(a, b);
}
