// Device description, function attributes (each kernel's own static shared memory), the occupancy calculator, pitched memory and the
// error paths of the runtime API: prints what the program sees, one fact a line.
#include <cstdio>
#include <cstring>

__global__ void tile(float *out, int pitch) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * pitch / sizeof(float) + threadIdx.x] = s[255 - threadIdx.x];
}

// reverse's shared array is its own: tile's does not count in its sharedSizeBytes.
__global__ void reverse(double *x) {
    __shared__ double s[512];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main() {
    int count = -1, dev = -1, rt = 0, drv = 0;
    cudaGetDeviceCount(&count);
    cudaGetDevice(&dev);
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    printf("devices=%d current=%d runtime=%d driver>=runtime:%d\n", count, dev, rt, drv >= rt);
    cudaDeviceProp p;
    memset(&p, 0xff, sizeof p);
    cudaGetDeviceProperties(&p, 0);
    printf("name=%s cc=%d.%d warp=%d maxThreads=%d dims=%d,%d,%d grid=%d,%d,%d\n", p.name, p.major, p.minor,
           p.warpSize, p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("shared=%zu optin=%zu sms=%d managed=%d map=%d concurrent=%d reserved=%zu\n", p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.multiProcessorCount, p.managedMemory, p.canMapHostMemory,
           p.concurrentKernels, p.reservedSharedMemPerBlock);
    int a = -1, sms = -1;
    cudaDeviceGetAttribute(&a, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("attr cc major=%d sms=%d bad device=%s\n", a, sms, cudaGetErrorName(cudaDeviceGetAttribute(&a, cudaDevAttrWarpSize, 1)));

    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, tile);
    printf("tile: shared=%zu maxThreads=%d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock);
    cudaFuncGetAttributes(&fa, reverse);
    printf("reverse: shared=%zu\n", fa.sharedSizeBytes);
    int blocks = -1, minGrid = -1, block = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tile, 256, 0);
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, tile, 0, 0);
    printf("occupancy(256)=%d potential block=%d minGrid=%d\n", blocks, block, minGrid);

    float *d;
    size_t pitch = 0;
    cudaMallocPitch(&d, &pitch, 256 * sizeof(float), 4);
    cudaMemset2D(d, pitch, 0, 256 * sizeof(float), 4);
    tile<<<4, 256>>>(d, (int)pitch);
    static float h[4][256];
    cudaError_t e = cudaMemcpy2D(h, sizeof h[0], d, pitch, 256 * sizeof(float), 4, cudaMemcpyDeviceToHost);
    printf("pitch=%zu copy2D=%s h[0][0]=%.0f h[3][255]=%.0f\n", pitch, cudaGetErrorName(e), h[0][0], h[3][255]);
    cudaPointerAttributes pa;
    cudaPointerGetAttributes(&pa, d);
    int host;
    cudaPointerAttributes ph;
    cudaPointerGetAttributes(&ph, &host);
    printf("pointer types: device=%d host=%d\n", (int)pa.type, (int)ph.type);
    size_t freeMem, total;
    cudaMemGetInfo(&freeMem, &total);
    printf("meminfo: used>=pitch*4:%d\n", total - freeMem >= pitch * 4);

    cudaError_t f1 = cudaFree(d), f2 = cudaFree(d);
    printf("free twice: %s then %s\n", cudaGetErrorName(f1), cudaGetErrorName(f2));
    cudaError_t l1 = cudaGetLastError(), l2 = cudaGetLastError();
    printf("last error: %s, then %s\n", cudaGetErrorName(l1), cudaGetErrorName(l2));
    tile<<<1, 2048>>>(d, 0);
    cudaError_t p1 = cudaPeekAtLastError(), p2 = cudaGetLastError(), p3 = cudaPeekAtLastError();
    printf("launch 2048 threads: peek %s, last %s, peek %s\n", cudaGetErrorName(p1), cudaGetErrorName(p2), cudaGetErrorName(p3));
    void *m;
    printf("managed of 0 bytes: %s\n", cudaGetErrorName(cudaMallocManaged(&m, 0)));
    cudaArray_t arr;
    cudaChannelFormatDesc desc = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaError_t a0 = cudaMallocArray(&arr, &desc, 16, 16), f0 = cudaFreeArray(arr);
    // Mipmapped arrays are a stub.
    cudaMipmappedArray_t mm;
    cudaError_t a1 = cudaMallocMipmappedArray(&mm, &desc, make_cudaExtent(16, 16, 0), 4),
                a2 = cudaMallocMipmappedArray(&mm, &desc, make_cudaExtent(16, 16, 0), 4);
    printf("array: %s %s, mipmapped: %s %s\n", cudaGetErrorName(a0), cudaGetErrorName(f0), cudaGetErrorName(a1), cudaGetErrorName(a2));
    cudaError_t u1 = cudaGetLastError(), u2 = cudaGetLastError();
    printf("after the unsupported call, last error: %s, then %s\n", cudaGetErrorName(u1), cudaGetErrorName(u2));
    printf("error 700: %s / %s\n", cudaGetErrorName((cudaError_t)700), cudaGetErrorString((cudaError_t)700));
    // Bad arguments: a NULL out-parameter and a wild host pointer are errors, not crashes.
    float *dd;
    cudaMalloc(&dd, 64);
    cudaError_t n1 = cudaGetDeviceCount(NULL), n2 = cudaMemcpy(dd, (void *)64, 64, cudaMemcpyHostToDevice);
    printf("bad arguments: %s %s\n", cudaGetErrorName(n1), cudaGetErrorName(n2));
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
