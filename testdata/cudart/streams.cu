// Streams and events: four streams each copy a quarter of a pinned buffer to the device
// (cudaMemcpyAsync), scale it by their index plus one, and copy it back; events around the
// work measure it with cudaEventElapsedTime; a stream callback and a host function count the
// streams that finished. Prints each quarter's sum, whether the elapsed time is positive,
// whether the streams and events report completion, and the count. cudaMallocAsync and
// cudaFreeAsync allocate in stream order.
#include <cstdio>

static int finished;

static void CUDART_CB done(cudaStream_t, cudaError_t status, void *n) {
    if (status == cudaSuccess) (*(int *)n)++;
}

static void CUDART_CB hostDone(void *n) { (*(int *)n) += 10; }

__global__ void scale(int *x, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= k;
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e = (call);                                                            \
        if (e != cudaSuccess) {                                                            \
            printf("%s failed: %s\n", #call, cudaGetErrorName(e));                         \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main() {
    const int ns = 4, n = 1 << 16, q = n / ns;
    int *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    for (int i = 0; i < n; i++) h[i] = i % 100;
    cudaStream_t s[ns];
    cudaEvent_t start, stop;
    for (int i = 0; i < ns; i++) CHECK(cudaStreamCreate(&s[i]));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    for (int i = 0; i < ns; i++) {
        CHECK(cudaMemcpyAsync(d + i * q, h + i * q, q * sizeof(int), cudaMemcpyHostToDevice, s[i]));
        scale<<<(q + 127) / 128, 128, 0, s[i]>>>(d + i * q, q, i + 1);
        CHECK(cudaMemcpyAsync(h + i * q, d + i * q, q * sizeof(int), cudaMemcpyDeviceToHost, s[i]));
        CHECK(cudaStreamAddCallback(s[i], done, &finished, 0));
        CHECK(cudaLaunchHostFunc(s[i], hostDone, &finished));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    for (int i = 0; i < ns; i++) {
        CHECK(cudaStreamSynchronize(s[i]));
        long long sum = 0;
        for (int j = 0; j < q; j++) sum += h[i * q + j];
        printf("stream %d: sum=%lld query=%s\n", i, sum, cudaGetErrorName(cudaStreamQuery(s[i])));
    }
    printf("elapsed>0: %s event query=%s callbacks=%d\n", ms > 0 ? "yes" : "no", cudaGetErrorName(cudaEventQuery(stop)), finished);
    int *tmp;
    CHECK(cudaMallocAsync(&tmp, 1024, s[1]));
    CHECK(cudaMemsetAsync(tmp, 0, 1024, s[1]));
    CHECK(cudaFreeAsync(tmp, s[1]));
    for (int i = 0; i < ns; i++) CHECK(cudaStreamDestroy(s[i]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    return 0;
}
