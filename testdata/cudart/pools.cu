// pools: stream-ordered allocation through memory pools, as cuda-samples'
// streamOrderedAllocation uses them: the device's default pool and its release threshold,
// cudaMallocAsync from it, a pool of its own with cudaMallocFromPoolAsync, the used and
// reserved memory counters, and a kernel writing to memory from each; then graph memory, as
// cuda-samples' graphMemoryNodes uses it: a captured cudaMallocAsync/cudaFreeAsync pair, and
// an allocation node whose memory the program frees between two launches of its graph. It
// prints each check.
#include <cstdio>

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      printf("%s: %s\n", #x, cudaGetErrorName(e));                               \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  cudaMemPool_t def, cur;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  unsigned long long threshold = ~0ull, got = 0;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &got));
  printf("supported=%d default-is-current=%d threshold-kept=%d\n", supported, def == cur, got == threshold);
  // Only a reset to 0 may be written to a high-water mark; the error is this call's.
  cudaError_t high_err = cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &threshold);
  printf("set high to nonzero: %s, then %s\n", cudaGetErrorName(high_err), cudaGetErrorName(cudaGetLastError()));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int n = 1000;
  int *a, *b, host[n];
  CHECK(cudaMallocAsync(&a, n * sizeof(int), s));
  unsigned long long used = 0, high = 0, reserved = 0;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  printf("default pool used=%llu\n", used);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own;
  CHECK(cudaMemPoolCreate(&own, &props));
  CHECK(cudaMallocFromPoolAsync(&b, 2 * n * sizeof(int), own, s));
  fill<<<(n + 127) / 128, 128, 0, s>>>(a, n, 10);
  fill<<<(2 * n + 127) / 128, 128, 0, s>>>(b, 2 * n, 20000);
  CHECK(cudaMemcpyAsync(host, a, sizeof host, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += host[i] != 10 + i;
  CHECK(cudaMemcpy(host, b + n, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    bad += host[i] != 20000 + n + i;
  CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used));
  printf("own pool used=%llu mismatches=%d\n", used, bad);

  CHECK(cudaFreeAsync(a, s));
  CHECK(cudaFreeAsync(b, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemHigh, &high));
  CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrReservedMemHigh, &reserved));
  printf("after free: default used=%llu high=%llu own reserved-high=%llu\n", used, high, reserved);
  // A graph captured from a stream: its allocation is there for each launch.
  int *out;
  CHECK(cudaMalloc(&out, 2 * sizeof(int)));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&a, n * sizeof(int), s));
  fill<<<(n + 127) / 128, 128, 0, s>>>(a, n, 300);
  CHECK(cudaMemcpyAsync(out, a + n - 1, sizeof(int), cudaMemcpyDeviceToDevice, s));
  CHECK(cudaFreeAsync(a, s));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&ge, g, NULL, NULL, 0));
  int last[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&last[k], out, sizeof(int), cudaMemcpyDeviceToHost));
  }
  printf("captured graph: last=%d,%d\n", last[0], last[1]);
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));

  // An allocation node, its memory freed by the program between launches.
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc, kern;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
  int *mem = (int *)ap.dptr, count = n, base = 4000;
  void *args[] = {&mem, &count, &base};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kern, g, &alloc, 1, &kp));
  CHECK(cudaGraphInstantiate(&ge, g, NULL, NULL, 0));
  bad = 0;
  for (int k = 0; k < 2; k++) {
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaMemcpyAsync(host, mem, sizeof host, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(mem, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
      bad += host[i] != 4000 + i;
  }
  printf("allocation node: mismatches=%d\n", bad);
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(out));

  CHECK(cudaMemPoolTrimTo(def, 0));
  CHECK(cudaMemPoolDestroy(own));
  CHECK(cudaStreamDestroy(s));
  printf("done\n");
  return 0;
}
