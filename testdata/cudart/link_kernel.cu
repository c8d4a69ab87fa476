// The first PTX module of culink.cu: a kernel calling a device function that link_lib.cu
// defines (nvcc -ptx -rdc=true, make cuda-programs).
extern __device__ float scale_add(float a, float x, float y);

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = scale_add(a, x[i], y[i]);
}
