// device_assert: a device-side assert; a thread whose value is not positive fails it after
// printing its value.

extern "C" __global__ void check_positive(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (v[i] <= 0)
      printf("thread %d: v = %d\n", i, v[i]);
    assert(v[i] > 0);
  }
}
