// A weighted sum through __constant__ and __device__ globals: coef (__constant__) is set with
// cudaMemcpyToSymbol, each block reduces x[i] * coef[i % 4] in shared memory and adds its
// partial sum to total (a __device__ variable) with atomicAdd; blocks counts the blocks that
// finished. The host reads total back with cudaMemcpyFromSymbol and through the address
// cudaGetSymbolAddress gives, and prints both with the number of blocks.
#include <cstdio>

__constant__ int coef[4];
__device__ unsigned long long total;
__device__ unsigned int blocks;

__global__ void weighted_sum(const int *x, int n) {
    __shared__ long long s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? (long long)x[i] * coef[i % 4] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&total, (unsigned long long)s[0]);
        atomicAdd(&blocks, 1u);
    }
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
    const int n = 100000;
    static int x[n];
    for (int i = 0; i < n; i++) x[i] = (i * 7919) % 1000;
    int c[4] = {3, 1, 4, 1};
    unsigned long long zero = 0;
    int *dx;
    CHECK(cudaMalloc(&dx, sizeof x));
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
    CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
    int nb = (n + 255) / 256;
    weighted_sum<<<nb, 256>>>(dx, n);
    CHECK(cudaDeviceSynchronize());
    unsigned long long sum = 0, sum2 = 0;
    unsigned int nblocks = 0;
    CHECK(cudaMemcpyFromSymbol(&sum, total, sizeof sum));
    CHECK(cudaMemcpyFromSymbol(&nblocks, blocks, sizeof nblocks));
    void *p;
    CHECK(cudaGetSymbolAddress(&p, total));
    CHECK(cudaMemcpy(&sum2, p, sizeof sum2, cudaMemcpyDeviceToHost));
    size_t size;
    CHECK(cudaGetSymbolSize(&size, coef));
    printf("total=%llu via address=%llu blocks=%u/%d coef size=%zu\n", sum, sum2, nblocks, nb, size);
    CHECK(cudaFree(dx));
    return 0;
}
