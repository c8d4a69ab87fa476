/* OpenACC offload for GCC's nvptx back end (gcc-12-offload-nvptx).
   `make gcc-ptx` writes testdata/ptx/gcc/acc_vecadd.ptx from this file
   (with -misa=sm_80). Unlike OpenMP, GCC's OpenACC kernels are
   self-contained .entry functions: they read their arguments from one
   struct pointer parameter, partition the loop with %tid.x/%ctaid.x,
   neuter and broadcast with shfl.sync, bar.warp.sync and bar.sync, and
   call nothing from libgomp. */

void vadd(int n, const float *a, const float *b, float *c)
{
#pragma acc parallel loop gang vector copyin(a[0:n], b[0:n]) copyout(c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

void scale_rows(int rows, int cols, float s, float *m)
{
#pragma acc parallel loop gang copy(m[0:rows * cols])
  for (int r = 0; r < rows; r++)
    {
#pragma acc loop vector
      for (int c = 0; c < cols; c++)
        m[r * cols + c] = m[r * cols + c] * s + (float) r;
    }
}

int count_positive(int n, const int *v)
{
  int cnt = 0;
#pragma acc parallel loop gang vector reduction(+: cnt) copyin(v[0:n])
  for (int i = 0; i < n; i++)
    cnt += v[i] > 0;
  return cnt;
}
