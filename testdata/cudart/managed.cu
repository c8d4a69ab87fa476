// Memory that host code and kernels share at one address, under the drop-in: cudaMallocManaged,
// __managed__ variables, cudaHostAlloc(cudaHostAllocMapped) with cudaHostGetDevicePointer, and
// cudaHostRegister of the program's own memory. The host writes, kernels update, and the host
// reads without any cudaMemcpy. Prefetches, advice and stream attachments of managed memory
// are accepted (and change nothing), and refused for memory that is not managed.
#include <cstdio>
#include <cstdlib>

__managed__ int counter;
__managed__ float scale = 1.5f;

__global__ void update(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * scale + 1.0f;
        atomicAdd(&counter, 1);
    }
}

__global__ void square(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * v[i];
}

static int failures;

static void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        printf("%s: %s\n", what, cudaGetErrorName(e));
        failures++;
    }
}

int main() {
    const int n = 1000;
    float *x;
    check(cudaMallocManaged(&x, n * sizeof(float)), "cudaMallocManaged");
    for (int i = 0; i < n; i++) x[i] = (float)i;
    cudaStream_t st;
    check(cudaStreamCreate(&st), "cudaStreamCreate");
    check(cudaStreamAttachMemAsync(st, x, 0, cudaMemAttachSingle), "cudaStreamAttachMemAsync");
    check(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, 0), "cudaMemAdvise");
    check(cudaMemPrefetchAsync(x, n * sizeof(float), 0, st), "cudaMemPrefetchAsync");
    counter = 7;
    scale = 2.5f;
    update<<<(n + 255) / 256, 256, 0, st>>>(x, n);
    check(cudaMemPrefetchAsync(x, n * sizeof(float), cudaCpuDeviceId, st), "cudaMemPrefetchAsync to the host");
    check(cudaStreamSynchronize(st), "sync");
    float *pageable = (float *)malloc(64);
    printf("prefetch: variable=%s pageable=%s beyond=%s device 3=%s\n",
           cudaGetErrorName(cudaMemPrefetchAsync(&counter, sizeof counter, 0, 0)),
           cudaGetErrorName(cudaMemPrefetchAsync(pageable, 64, 0, 0)),
           cudaGetErrorName(cudaMemPrefetchAsync(x, n * sizeof(float) + 4, 0, 0)),
           cudaGetErrorName(cudaMemPrefetchAsync(x, 4, 3, 0)));
    free(pageable);
    cudaGetLastError();
    double sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    cudaPointerAttributes attr;
    check(cudaPointerGetAttributes(&attr, x + 10), "attributes");
    printf("managed: counter=%d x[0]=%.1f x[999]=%.1f sum=%.1f type=%d\n", counter, x[0], x[n - 1], sum, (int)attr.type);
    check(cudaFree(x), "cudaFree");

    int *h, *d;
    check(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped), "cudaHostAlloc");
    check(cudaHostGetDevicePointer(&d, h, 0), "cudaHostGetDevicePointer");
    for (int i = 0; i < n; i++) h[i] = i - 500;
    square<<<(n + 127) / 128, 128>>>(d, n);
    check(cudaDeviceSynchronize(), "sync");
    long long hs = 0;
    for (int i = 0; i < n; i++) hs += h[i];
    printf("mapped: same=%d h[0]=%d h[999]=%d sum=%lld\n", d == h, h[0], h[n - 1], hs);
    check(cudaFreeHost(h), "cudaFreeHost");

    int *r = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) r[i] = 3 * i;
    check(cudaHostRegister(r, n * sizeof(int), cudaHostRegisterMapped), "cudaHostRegister");
    check(cudaHostGetDevicePointer(&d, r, 0), "cudaHostGetDevicePointer");
    square<<<(n + 127) / 128, 128>>>(d, n);
    check(cudaDeviceSynchronize(), "sync");
    printf("registered: same=%d r[1]=%d r[999]=%d again=%s\n", d == r, r[1], r[n - 1],
           cudaGetErrorName(cudaHostRegister(r, 4, 0)));
    check(cudaHostUnregister(r), "cudaHostUnregister");
    printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(r)));
    free(r);
    return failures;
}
