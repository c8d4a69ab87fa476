// local_array: per-thread arrays indexed dynamically, so they live in local memory (__local_depot).

#define LEN 8

// sort8 sorts in[8*i .. 8*i+7] ascending (signed int) into out[8*i .. 8*i+7] for i < n, by
// insertion sort in a per-thread local array.
extern "C" __global__ void sort8(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int a[LEN];
  for (int k = 0; k < LEN; k++)
    a[k] = in[LEN * i + k];
  for (int k = 1; k < LEN; k++) {
    int v = a[k], j = k - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  for (int k = 0; k < LEN; k++)
    out[LEN * i + k] = a[k];
}

// nibble_hist computes, for i < n, the histogram of the 8 nibbles of in[i] (uint32) into
// out[16*i + d] = number of nibbles equal to d, d = 0..15 (counts in a local array).
extern "C" __global__ void nibble_hist(int *out, const unsigned *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int h[16];
  for (int d = 0; d < 16; d++)
    h[d] = 0;
  unsigned v = in[i];
  for (int k = 0; k < 8; k++) {
    h[v & 15]++;
    v >>= 4;
  }
  for (int d = 0; d < 16; d++)
    out[16 * i + d] = h[d];
}
