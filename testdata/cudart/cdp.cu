// Dynamic parallelism under ptx2go exec, in the style of NVIDIA's cdpSimplePrint: every thread
// of every block launches a grid one level deeper until max_depth, and each block prints where
// it is; then parents that wait for their child grid with the device-side
// cudaDeviceSynchronize; then a recursion past the nesting limit. Built with -rdc=true
// (make cuda-programs); run by TestDynamicParallelismExec (cmd/ptx2go), which checks the
// output against a Go reference.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            printf("%s: %s\n", #call, cudaGetErrorName(e_));                        \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__device__ int g_blocks;

__global__ void cdp_kernel(int max_depth, int depth, int thread) {
    if (threadIdx.x == 0) {
        atomicAdd(&g_blocks, 1);
        if (depth == 0)
            printf("depth 0: block %d launched by the host\n", blockIdx.x);
        else
            printf("depth %d: block %d launched by thread %d\n", depth, blockIdx.x, thread);
    }
    __syncthreads();
    if (depth + 1 >= max_depth)
        return;
    cdp_kernel<<<gridDim.x, blockDim.x>>>(max_depth, depth + 1, threadIdx.x);
    if (cudaGetLastError() != cudaSuccess)
        printf("launch failed at depth %d\n", depth);
}

__global__ void square(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
}

__global__ void sum_of_squares(int *v, int n, long long *out) {
    int *mine = v + blockIdx.x * n;
    if (threadIdx.x == 0) {
        square<<<(n + 63) / 64, 64>>>(mine, n);
        cudaDeviceSynchronize();
        long long s = 0;
        for (int i = 0; i < n; i++)
            s += mine[i];
        out[blockIdx.x] = s;
    }
}

__global__ void dive(int depth) { dive<<<1, 1>>>(depth + 1); }

int main(int argc, char **argv) {
    int grid = argc > 1 ? atoi(argv[1]) : 2, block = argc > 2 ? atoi(argv[2]) : 2;
    int max_depth = argc > 3 ? atoi(argv[3]) : 3;
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, max_depth));
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
    size_t depthLimit = 0, pending = 0;
    CHECK(cudaDeviceGetLimit(&depthLimit, cudaLimitDevRuntimeSyncDepth));
    CHECK(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
    printf("limits: sync depth %zu, pending launches %zu\n", depthLimit, pending);

    cdp_kernel<<<grid, block>>>(max_depth, 0, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int blocks = 0;
    CHECK(cudaMemcpyFromSymbol(&blocks, g_blocks, sizeof blocks));
    printf("blocks: %d\n", blocks);

    const int nb = 4, n = 100;
    int h[nb * n];
    for (int i = 0; i < nb * n; i++)
        h[i] = i % 37 - 18;
    int *v;
    long long *out, sums[nb];
    CHECK(cudaMalloc(&v, sizeof h));
    CHECK(cudaMalloc(&out, sizeof sums));
    CHECK(cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice));
    sum_of_squares<<<nb, 32>>>(v, n, out);
    CHECK(cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++)
        printf("sum of squares %d: %lld\n", b, sums[b]);

    dive<<<1, 1>>>(0);
    printf("dive: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
