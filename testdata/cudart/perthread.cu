// Built with nvcc --default-stream per-thread, which makes the program call the runtime's
// _ptsz and _ptds entry points (cudaLaunchKernel_ptsz, cudaMemcpy_ptds, ...): four host
// threads each fill, scale and sum a vector of their own on their default stream, with
// copies, memsets, a __constant__ factor, an event and stream synchronization, and print
// their sums in thread order.
#include <cstdio>
#include <thread>
#include <vector>

__constant__ int factor;

__global__ void fill(int *v, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += base + i % 10;
}

__global__ void scale_sum(const int *v, int n, unsigned long long *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, (unsigned long long)(v[i] * factor));
}

static unsigned long long work(int t) {
  const int n = 10000 + t * 1000;
  int *v;
  unsigned long long *sum, result = 0;
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&sum, sizeof(*sum));
  cudaMemsetAsync(v, 0, n * sizeof(int), 0);
  cudaMemset(sum, 0, sizeof(*sum));
  fill<<<(n + 255) / 256, 256>>>(v, n, t * 100);
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaEventRecord(done, 0);
  cudaStreamWaitEvent(0, done, 0);
  scale_sum<<<(n + 255) / 256, 256>>>(v, n, sum);
  cudaMemcpyAsync(&result, sum, sizeof(result), cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  cudaEventDestroy(done);
  cudaFree(v);
  cudaFree(sum);
  return result;
}

int main() {
  int f = 3;
  cudaMemcpyToSymbol(factor, &f, sizeof(f));
  std::vector<unsigned long long> sums(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++)
    threads.emplace_back([t, &sums] { sums[t] = work(t); });
  for (auto &th : threads)
    th.join();
  for (int t = 0; t < 4; t++)
    printf("thread %d sum=%llu\n", t, sums[t]);
  cudaError_t e = cudaGetLastError();
  printf("%s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
