// Host threads launching at the same time: each of 4 threads fills its own buffer with
// i * (thread + 1) through 20 launches on its own stream and checks it; thread 0 then makes a
// launch with too many threads, whose error only its own cudaGetLastError returns, as the last
// error is per thread. Prints each thread's sum, mismatches and last error.
#include <cstdio>
#include <thread>

__global__ void fill(int *x, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = i * k;
}

static long long sums[4];
static int bad[4];
static cudaError_t last[4];

static void work(int t) {
    const int n = 4096;
    int *d, h[n];
    cudaStream_t s;
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess || cudaStreamCreate(&s) != cudaSuccess) {
        bad[t] = -1;
        return;
    }
    for (int r = 0; r < 20; r++) {
        fill<<<(n + 127) / 128, 128, 0, s>>>(d, n, t + 1);
        cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        for (int i = 0; i < n; i++)
            if (h[i] != i * (t + 1)) bad[t]++;
    }
    for (int i = 0; i < n; i++) sums[t] += h[i];
    if (t == 0) fill<<<1, 4096, 0, s>>>(d, n, 0);
    cudaStreamSynchronize(s);
    last[t] = cudaGetLastError();
    cudaStreamDestroy(s);
    cudaFree(d);
}

int main() {
    std::thread th[4];
    for (int t = 0; t < 4; t++) th[t] = std::thread(work, t);
    for (int t = 0; t < 4; t++) th[t].join();
    int failed = 0;
    for (int t = 0; t < 4; t++) {
        printf("thread %d: sum=%lld mismatches=%d last error=%s\n", t, sums[t], bad[t], cudaGetErrorName(last[t]));
        failed |= bad[t] != 0;
    }
    return failed;
}
