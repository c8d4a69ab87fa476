// device_printf: CUDA's device printf (vprintf) with the conversions, flags, widths,
// precisions and length modifiers real kernels use; each thread prints four lines and stores
// printf's return values (the number of arguments).

extern "C" __global__ void printf_ints(const int *iv, const unsigned *uv, const long long *lv, int *ret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = iv[i];
  unsigned u = uv[i];
  long long l = lv[i];
  ret[4 * i] = printf("[%d,%d] d=%d|%5d|%-5d|%05d|%+d|% d|%.3d|%i\n", blockIdx.x, threadIdx.x, v, v, v, v, v, v, v, v);
  ret[4 * i + 1] = printf("u=%u x=%x X=%#X o=%#o c=%c hhd=%hhd hu=%hu %%\n", u, u, u, u, 'A' + i % 26, v, u);
  ret[4 * i + 2] = printf("lld=%lld llx=%#llx ld=%ld lu=%lu zu=%zu p=%p\n", l, l, (long)l, (unsigned long)l, (size_t)u, (void *)l);
  ret[4 * i + 3] = printf("s=%s|%.3s|%8s|%-8s|%c\n", "hello", "hello", "hi", "hi", i % 2 ? 'y' : 'n');
}

extern "C" __global__ void printf_floats(const double *dv, const float *fv, int *ret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double d = dv[i];
  float f = fv[i];
  ret[2 * i] = printf("f=%f|%.2f|%10.3f|%-10.1f|%+.0f|%#.0f e=%e|%.3E g=%g|%.3g|%#g|%G\n", d, d, d, d, d, d, d, d, d, d, d, d);
  ret[2 * i + 1] = printf("float=%f %e %g %a %A %08.3f\n", f, f, f, d, d, f);
}

// printf_none prints a line without arguments: printf returns 0.
extern "C" __global__ void printf_none(int *ret) {
  ret[threadIdx.x] = printf("no arguments\n");
}
