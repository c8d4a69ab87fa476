// The C types of the CUDA runtime and driver APIs that ptx2go's drop-in libraries take and
// fill, with the layouts of CUDA 11.8's headers (driver_types.h, vector_types.h), so that
// the libraries build without the CUDA toolkit.
#ifndef PTX2GO_CUDART_H
#define PTX2GO_CUDART_H

#include <stddef.h>
#include <stdlib.h>

typedef struct { unsigned int x, y, z; } ptx2go_dim3;

// __fatBinC_Wrapper_t: what nvcc's host code passes to __cudaRegisterFatBinary.
typedef struct {
    int magic;
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} ptx2go_fatbin_wrapper;

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};

struct cudaPointerAttributes {
    int type; // enum cudaMemoryType: 0 unregistered, 1 host, 2 device, 3 managed
    int device;
    void *devicePointer;
    void *hostPointer;
};

// The 3D copies of cudaMemcpy3D and graph memcpy nodes (driver_types.h): between pitched
// pointers, or CUDA arrays (srcArray, dstArray: texture.go).
struct cudaPos {
    size_t x, y, z;
};
struct cudaPitchedPtr {
    void *ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
};
struct cudaExtent {
    size_t width, height, depth;
};
struct cudaMemcpy3DParms {
    void *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    void *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    int kind; // enum cudaMemcpyKind
};

// The parameters of CUDA graph nodes (driver_types.h).
struct cudaKernelNodeParams {
    void *func;
    ptx2go_dim3 gridDim;
    ptx2go_dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaHostNodeParams {
    void *fn; // cudaHostFn_t
    void *userData;
};

// Calls through the function pointers a program hands to cudaStreamAddCallback and
// cudaLaunchHostFunc (calls.c).
void ptx2go_call_stream_callback(void *fn, void *stream, int status, void *data);
void ptx2go_call_host_fn(void *fn, void *data);

// ptx2go_thread_id identifies the calling host thread (pthread_self).
unsigned long ptx2go_thread_id(void);

// ptx2go_self_symbol looks name up among the drop-in library's own symbols (cuGetProcAddress).
void *ptx2go_self_symbol(const char *name);

// The driver's private tables for NVIDIA's static runtime (exporttable.c): the table with the
// given UUID and its name, or NULL; and a call through a context-local storage destructor.
const void *ptx2go_export_table(const unsigned char *uuid, const char **name);
void ptx2go_call_storage_dtor(void *dtor, void *ctx, void *key, void *value);

// Device printf and assert output, written with C's stdio so that it interleaves with the
// program's own (calls.c).
void ptx2go_write_stdout(const void *p, size_t n);
void ptx2go_write_stderr(const void *p, size_t n);

// cuLaunchKernel's extra array markers.
#define PTX2GO_LAUNCH_PARAM_END ((void *)0)
#define PTX2GO_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define PTX2GO_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)

struct cudaDeviceProp
{
    char         name[256];
    char         uuid[16];
    char         luid[8];
    unsigned int luidDeviceNodeMask;
    size_t       totalGlobalMem;
    size_t       sharedMemPerBlock;
    int          regsPerBlock;
    int          warpSize;
    size_t       memPitch;
    int          maxThreadsPerBlock;
    int          maxThreadsDim[3];
    int          maxGridSize[3];
    int          clockRate;
    size_t       totalConstMem;
    int          major;
    int          minor;
    size_t       textureAlignment;
    size_t       texturePitchAlignment;
    int          deviceOverlap;
    int          multiProcessorCount;
    int          kernelExecTimeoutEnabled;
    int          integrated;
    int          canMapHostMemory;
    int          computeMode;
    int          maxTexture1D;
    int          maxTexture1DMipmap;
    int          maxTexture1DLinear;
    int          maxTexture2D[2];
    int          maxTexture2DMipmap[2];
    int          maxTexture2DLinear[3];
    int          maxTexture2DGather[2];
    int          maxTexture3D[3];
    int          maxTexture3DAlt[3];
    int          maxTextureCubemap;
    int          maxTexture1DLayered[2];
    int          maxTexture2DLayered[3];
    int          maxTextureCubemapLayered[2];
    int          maxSurface1D;
    int          maxSurface2D[2];
    int          maxSurface3D[3];
    int          maxSurface1DLayered[2];
    int          maxSurface2DLayered[3];
    int          maxSurfaceCubemap;
    int          maxSurfaceCubemapLayered[2];
    size_t       surfaceAlignment;
    int          concurrentKernels;
    int          ECCEnabled;
    int          pciBusID;
    int          pciDeviceID;
    int          pciDomainID;
    int          tccDriver;
    int          asyncEngineCount;
    int          unifiedAddressing;
    int          memoryClockRate;
    int          memoryBusWidth;
    int          l2CacheSize;
    int          persistingL2CacheMaxSize;
    int          maxThreadsPerMultiProcessor;
    int          streamPrioritiesSupported;
    int          globalL1CacheSupported;
    int          localL1CacheSupported;
    size_t       sharedMemPerMultiprocessor;
    int          regsPerMultiprocessor;
    int          managedMemory;
    int          isMultiGpuBoard;
    int          multiGpuBoardGroupID;
    int          hostNativeAtomicSupported;
    int          singleToDoublePrecisionPerfRatio;
    int          pageableMemoryAccess;
    int          concurrentManagedAccess;
    int          computePreemptionSupported;
    int          canUseHostPointerForRegisteredMem;
    int          cooperativeLaunch;
    int          cooperativeMultiDeviceLaunch;
    size_t       sharedMemPerBlockOptin;
    int          pageableMemoryAccessUsesHostPageTables;
    int          directManagedMemAccessFromHost;
    int          maxBlocksPerMultiProcessor;
    int          accessPolicyMaxWindowSize;
    size_t       reservedSharedMemPerBlock;
};

// CUDA 12's cudaDeviceProp (cudaGetDeviceProperties_v2): CUDA 11's, then these fields.
struct cudaDeviceProp12 {
    struct cudaDeviceProp base;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved2[2];
    int reserved1[1];
    int reserved[60];
};

// cudaLaunchKernelExC's configuration and launch attributes (CUDA 12).
struct cudaLaunchAttribute {
    int id;
    char pad[4];
    union {
        char pad[64];
        int cooperative;
        struct { unsigned x, y, z; } clusterDim;
    } val;
};
struct cudaLaunchConfig {
    ptx2go_dim3 gridDim;
    ptx2go_dim3 blockDim;
    size_t dynamicSmemBytes;
    void *stream;
    struct cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
};

// cudaGraphInstantiateWithParams's parameters (CUDA 12).
struct cudaGraphInstantiateParams {
    unsigned long long flags;
    void *uploadStream;
    void *errNode_out;
    int result_out;
};

// CUDA 12's cudaGraphExecUpdate reports into this.
struct cudaGraphExecUpdateResultInfo {
    int result;
    void *errorNode;
    void *errorFromNode;
};

#endif
