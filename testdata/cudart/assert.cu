// A failed device assert under the drop-in: CUDA's line on stderr at the next
// synchronization, which returns cudaErrorAssert, and the error is sticky.
#include <cassert>
#include <cstdio>

__global__ void nonNegative(const int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        printf("checked %d\n", i);
        assert(v[i] >= 0);
    }
}

int main() {
    const int n = 64;
    int host[n];
    for (int i = 0; i < n; i++) host[i] = i == 37 ? -1 : i;
    int *v;
    cudaMalloc(&v, sizeof host);
    cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice);
    nonNegative<<<2, 32>>>(v, 30);
    printf("passing launch: %s, sync: %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
    nonNegative<<<n / 32, 32>>>(v + 32, 8);
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("malloc after: %s\n", cudaGetErrorName(cudaMalloc(&v, 4)));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    return 3;
}
