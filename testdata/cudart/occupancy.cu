// The driver API's occupancy calculator, in the style of cuda-samples' matrixMulDrv: the block
// size cuOccupancyMaxPotentialBlockSize picks (with a fixed dynamic shared memory size and with
// a callback giving it per block size), cuOccupancyMaxActiveBlocksPerMultiprocessor and
// cuOccupancyAvailableDynamicSMemPerBlock, then a launch with the chosen size. Grid sizes are
// printed per multiprocessor, so that the output does not depend on the machine. Run by
// TestExecDriverAPI.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

#define CHECK(call)                                                  \
    do {                                                             \
        CUresult e_ = (call);                                        \
        if (e_ != CUDA_SUCCESS) {                                    \
            const char *n_ = 0;                                      \
            cuGetErrorName(e_, &n_);                                 \
            printf("%s: %s\n", #call, n_ ? n_ : "?");                \
            exit(1);                                                 \
        }                                                            \
    } while (0)

extern "C" __global__ void fill(int *out, int n) {
    extern __shared__ int tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i;
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x] * 2;
}

// smemPerBlock asks 96 bytes of dynamic shared memory per thread.
static size_t smemPerBlock(int blockSize) { return (size_t)blockSize * 96; }

int main(int argc, char **argv) {
    CHECK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    int sms;
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CUmodule mod;
    CHECK(cuModuleLoad(&mod, argv[1]));
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, "fill"));

    int minGrid, block;
    CHECK(cuOccupancyMaxPotentialBlockSize(&minGrid, &block, fn, 0, 4096, 0));
    printf("fixed 4096 bytes: block %d, grid %d per SM\n", block, minGrid / sms);
    CHECK(cuOccupancyMaxPotentialBlockSize(&minGrid, &block, fn, smemPerBlock, 0, 0));
    printf("96 bytes a thread: block %d, grid %d per SM\n", block, minGrid / sms);
    CHECK(cuOccupancyMaxPotentialBlockSizeWithFlags(&minGrid, &block, fn, 0, 0, 200, 0));
    printf("limit 200: block %d, grid %d per SM\n", block, minGrid / sms);
    int active;
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&active, fn, 384, 20000));
    printf("active blocks of 384 with 20000 bytes: %d\n", active);
    size_t avail;
    CHECK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, fn, 5, 256));
    printf("dynamic shared memory for 5 blocks of 256: %zu\n", avail);

    CHECK(cuOccupancyMaxPotentialBlockSize(&minGrid, &block, fn, smemPerBlock, 0, 0));
    const int n = 100000;
    CUdeviceptr out;
    CHECK(cuMemAlloc(&out, n * sizeof(int)));
    int nn = n;
    void *args[] = {&out, &nn};
    CHECK(cuLaunchKernel(fn, (n + block - 1) / block, 1, 1, block, 1, 1, (unsigned)smemPerBlock(block), 0, args, 0));
    int *h = (int *)malloc(n * sizeof(int));
    CHECK(cuMemcpyDtoH(h, out, n * sizeof(int)));
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("sum %lld\n", sum);
    return 0;
}
