// Kernels that fault, chosen by argv[1]: "oob" (the default) has thread 37 of block 1 store
// past the end of a 128-int buffer, "misaligned" has it store an int at an odd address, "trap"
// has it execute trap. The launch itself succeeds; the next synchronizing call returns the
// error (cudaErrorIllegalAddress, cudaErrorMisalignedAddress, cudaErrorLaunchFailure), and the
// error is sticky: later calls return it too.
#include <cstdio>
#include <cstring>

__global__ void oob(int *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 101) i += 1 << 20;
    x[i] = i;
}

__global__ void misaligned(int *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = i == 101 ? (int *)((char *)x + 1) : x + i;
    *p = i;
}

__global__ void trap(int *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 101) asm volatile("trap;");
    x[i] = i;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "oob";
    int *d;
    if (cudaMalloc(&d, 64 * 2 * sizeof(int)) != cudaSuccess) return 1;
    cudaError_t want = cudaErrorIllegalAddress;
    if (strcmp(mode, "misaligned") == 0) {
        misaligned<<<2, 64>>>(d);
        want = cudaErrorMisalignedAddress;
    } else if (strcmp(mode, "trap") == 0) {
        trap<<<2, 64>>>(d);
        want = cudaErrorLaunchFailure;
    } else {
        oob<<<2, 64>>>(d);
    }
    cudaError_t sync = cudaDeviceSynchronize();
    int h[1];
    cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaError_t last = cudaGetLastError();
    printf("synchronize: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
    printf("memcpy after: %s\n", cudaGetErrorName(copy));
    printf("last error: %s\n", cudaGetErrorName(last));
    return sync == want ? 0 : 1;
}
