// saxpy_math: element-wise float math (fma, sqrt, min/max, division, exp).
// Note: clang's CUDA default is -ffp-contract=fast, so a*b+c may become fma.rn.f32.

// saxpy computes y[i] = a*x[i] + y[i] (one fused multiply-add) for i < n.
// __restrict__ const pointers let clang use ld.global.nc.
extern "C" __global__ void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __fmaf_rn(a, x[i], y[i]);
}

// float_math computes, for i < n, with x = x[i], y = y[i]:
//   r0[i] = sqrtf(fabsf(x))
//   r1[i] = fminf(x, y) - fmaxf(x, y) / (1 + y*y)      (IEEE division, div.rn.f32)
//   r2[i] = expf(-x*x)                                 (approximate: ex2.approx)
//   r3[i] = fmaf(x, y, 0.5f) clamped to [-1, 1]
extern "C" __global__ void float_math(float *r0, float *r1, float *r2, float *r3,
                                      const float *xs, const float *ys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = xs[i], y = ys[i];
  r0[i] = sqrtf(fabsf(x));
  r1[i] = fminf(x, y) - fmaxf(x, y) / (1.0f + y * y);
  r2[i] = expf(-x * x);
  r3[i] = fminf(fmaxf(fmaf(x, y, 0.5f), -1.0f), 1.0f);
}
