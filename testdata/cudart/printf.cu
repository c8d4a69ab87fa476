// Device printf and malloc under the drop-in: CUDA's formats, output kept per launch and
// printed at the next synchronization (after the host's own output before it), several CTAs,
// the printf and heap limits, and kernels' malloc and free.
#include <cstdio>
#include <cstdlib>

__global__ void formats(const char *s, long long big, double d, unsigned u) {
    printf("%s|%lld|%+.3e|%08.3f|%u|%x|%X|%o|%c|%-4d|%5.2f|%%\n", s, big, d, d, u, u, u, u, 'A' + (int)u % 26, -7, d);
}

__global__ void grid() {
    printf("block %d thread %d of %d: %d\n", blockIdx.x, threadIdx.x, blockDim.x, blockIdx.x * 100 + threadIdx.x);
}

__global__ void heap(int *out, size_t huge) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = t % 7 + 1;
    int *p = (int *)malloc(n * sizeof(int));
    if (p == NULL) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i < n; i++) p[i] = t * i;
    int sum = 0;
    for (int i = 0; i < n; i++) sum += p[i];
    free(p);
    out[t] = sum;
    if (t == 0) printf("huge malloc %s\n", malloc(huge) == NULL ? "failed" : "succeeded");
}

__global__ void last() { printf("printed at exit\n"); }

static void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        printf("%s: %s\n", what, cudaGetErrorName(e));
        exit(1);
    }
}

int main() {
    size_t fifo, heapSize;
    check(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize), "get fifo");
    check(cudaDeviceGetLimit(&heapSize, cudaLimitMallocHeapSize), "get heap");
    printf("limits printf=%zu heap=%zu\n", fifo, heapSize);
    check(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20), "set fifo");
    check(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20), "set heap");
    check(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize), "get fifo");
    check(cudaDeviceGetLimit(&heapSize, cudaLimitMallocHeapSize), "get heap");
    printf("limits printf=%zu heap=%zu\n", fifo, heapSize);

    char *s;
    check(cudaMalloc(&s, 16), "malloc");
    check(cudaMemcpy(s, "device", 7, cudaMemcpyHostToDevice), "copy");
    formats<<<1, 1>>>(s, -1234567890123LL, 12345.6789, 300u);
    printf("host before sync\n");
    check(cudaDeviceSynchronize(), "sync");

    printf("-- grid\n");
    grid<<<3, 4>>>();
    check(cudaDeviceSynchronize(), "sync");
    printf("-- heap\n");

    const int threads = 64;
    int *out, host[threads];
    check(cudaMalloc(&out, sizeof host), "malloc");
    heap<<<2, threads / 2>>>(out, (size_t)1 << 30);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), "copy");
    long total = 0;
    for (int i = 0; i < threads; i++) total += host[i];
    printf("heap sums total=%ld out[5]=%d out[63]=%d\n", total, host[5], host[63]);
    check(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20) == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown, "heap limit after use");

    last<<<1, 1>>>();
    printf("host done\n");
    return 0;
}
