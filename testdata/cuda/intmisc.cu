// intmisc: mul.hi, abs, min, max and the funnel shifts (shf.{l,r}.wrap).

// int_misc computes, for i < n with a = a[i], b = b[i], c = c[i] (int), into out[8*i + k]:
//   k=0: __mulhi(a, b)    k=1: __umulhi(a, b)    k=2: abs(a)          k=3: min(a, b)
//   k=4: max((unsigned)a, (unsigned)b)           k=5: __funnelshift_r(a, b, c) (shf.r.wrap)
//   k=6: __funnelshift_l(a, b, c) (shf.l.wrap)   k=7: (int)(llabs((long long)a * b) >> 32)
extern "C" __global__ void int_misc(int *out, const int *a, const int *b, const int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = a[i], y = b[i], z = c[i];
  int *o = out + 8 * i;
  o[0] = __mulhi(x, y);
  o[1] = __umulhi(x, y);
  o[2] = abs(x);
  o[3] = min(x, y);
  o[4] = max((unsigned)x, (unsigned)y);
  o[5] = __funnelshift_r(x, y, z);
  o[6] = __funnelshift_l(x, y, z);
  o[7] = (int)(llabs((long long)x * y) >> 32);
}
