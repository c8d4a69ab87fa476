// A kernel that writes out of bounds: thread 37 of block 1 stores past the end of a 64-int
// buffer. The launch itself succeeds; the next synchronizing call returns
// cudaErrorIllegalAddress, and the error is sticky: later calls return it too.
#include <cstdio>

__global__ void oob(int *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 101) i += 1 << 20;
    x[i] = i;
}

int main() {
    int *d;
    if (cudaMalloc(&d, 64 * 2 * sizeof(int)) != cudaSuccess) return 1;
    oob<<<2, 64>>>(d);
    cudaError_t sync = cudaDeviceSynchronize();
    int h[1];
    cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaError_t last = cudaGetLastError();
    printf("synchronize: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
    printf("memcpy after: %s\n", cudaGetErrorName(copy));
    printf("last error: %s\n", cudaGetErrorName(last));
    return sync == cudaErrorIllegalAddress ? 0 : 1;
}
