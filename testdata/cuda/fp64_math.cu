// fp64_math: double-precision arithmetic.

// dnorm computes, for i < n with x = x[i], y = y[i] (double):
//   out[2*i]   = sqrt(x*x + y*y)  (the x*x + y*y may be fused to fma.rn.f64)
//   out[2*i+1] = fmin(x, y) / fmax(fabs(x), 1.0)  (IEEE division, div.rn.f64)
extern "C" __global__ void dnorm(double *out, const double *xs, const double *ys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = xs[i], y = ys[i];
  out[2 * i] = sqrt(x * x + y * y);
  out[2 * i + 1] = fmin(x, y) / fmax(fabs(x), 1.0);
}

// newton_sqrt computes out[i] = Newton iteration for sqrt(a), a = in[i] > 0, for i < n:
// g = a; repeat iters times: g = 0.5 * (g + a / g)  (double; may be contracted to fma.rn.f64).
extern "C" __global__ void newton_sqrt(double *out, const double *in, int iters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = in[i], g = a;
  for (int k = 0; k < iters; k++)
    g = 0.5 * (g + a / g);
  out[i] = g;
}
