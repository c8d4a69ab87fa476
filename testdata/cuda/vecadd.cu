// vecadd: the demo kernel, one thread per element.

// vecadd computes c[i] = a[i] + b[i] for every i < n (i = global thread index).
extern "C" __global__ void vecadd(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
