/* OpenMP target offload for GCC's nvptx back end (gcc-12-offload-nvptx).
   `make gcc-ptx` writes testdata/ptx/gcc/omp_saxpy.ptx from this file.
   The offloaded region becomes an .entry that calls libgomp's
   gomp_nvptx_main (declared .extern); its body is outlined into .func
   saxpy$_omp_fn$N with GCC's soft stack (%frame, __nvptx_stacks) and
   the SIMT uniformity buffer __nvptx_uni. */

#pragma omp declare target
static float bias(int i)
{
  switch (i & 3)
    {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return 0.5f;
    default: return 5.0f;
    }
}
#pragma omp end declare target

void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i] + bias(i);
}

long long dot(int n, const int *x, const int *y)
{
  long long s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(to: x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += (long long) x[i] * y[i];
  return s;
}
