// Kernels for driver.cu, loaded at run time from the PTX (nvcc -ptx) or fat binary (nvcc
// -fatbin, compressed PTX) made from this file.
extern "C" {
__device__ int launches;

__global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
    if (i == 0) atomicAdd(&launches, 1);
}
}
