// The driver API's structures whose layout differs from the runtime API's (cuda.h, CUDA 11.8
// and 12.4), for the adapters of drvgraph.go and drvmem.go.
#ifndef PTX2GO_DRVTYPES_H
#define PTX2GO_DRVTYPES_H

#include <stddef.h>

// CUDA_KERNEL_NODE_PARAMS_v2 (CUDA 12): CUDA_KERNEL_NODE_PARAMS_v1, which has the layout of
// struct cudaKernelNodeParams, and a CUkernel used when func is NULL, and a context.
struct ptx2go_kernelNodeParamsV2 {
    void *func;
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    void *kern;
    void *ctx;
};

// CUDA_MEMCPY2D. CUmemorytype: 1 host, 2 device, 3 array, 4 unified.
struct ptx2go_memcpy2D {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    unsigned long long srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    unsigned long long dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
};

// CUDA_MEMCPY3D (CUDA_MEMCPY3D_v2).
struct ptx2go_memcpy3D {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    unsigned long long srcDevice;
    void *srcArray;
    void *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    unsigned long long dstDevice;
    void *dstArray;
    void *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
};

// CUmemLocation (cuMemAdvise_v2, cuMemPrefetchAsync_v2). CUmemLocationType: 1 device, 2 host,
// 3 host NUMA node, 4 the calling thread's host NUMA node.
struct ptx2go_memLocation {
    int type;
    int id;
};

#endif
