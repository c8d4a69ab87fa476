// device_malloc: malloc and free on the device heap, within one launch and across launches.

// malloc_sum: each thread allocates count ints, fills them, sums them, records the address it
// got and frees the block; a thread whose malloc fails stores -1.
extern "C" __global__ void malloc_sum(unsigned long long *addrs, int *sums, int n, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *p = (int *)malloc(count * sizeof(int));
  addrs[i] = (unsigned long long)p;
  if (p == 0) {
    sums[i] = -1;
    return;
  }
  for (int k = 0; k < count; k++)
    p[k] = i * k + 1;
  int s = 0;
  for (int k = 0; k < count; k++)
    s += p[k];
  sums[i] = s;
  free(p);
}

// malloc_keep allocates a block per thread that outlives the launch, holding the thread's index.
extern "C" __global__ void malloc_keep(int **ptrs, int n, unsigned long long size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *p = (int *)malloc(size);
  if (p != 0)
    *p = i;
  ptrs[i] = p;
}

// free_kept reads back and frees the blocks malloc_keep made.
extern "C" __global__ void free_kept(int **ptrs, int *vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *p = ptrs[i];
  vals[i] = p != 0 ? *p : -1;
  free(p);
}
