// The driver API: loads a module image from the file argv[1] (PTX text or a fat binary) with
// cuModuleLoadData, runs saxpy on y = 2x + y through cuLaunchKernel with kernelParams and then
// y = 0.5x + y with the extra parameter buffer, and reads the module's launches counter with
// cuModuleGetGlobal. Prints a few elements, the counter and the mismatches against a host
// computation. cuMemAlloc is looked up with cuGetProcAddress; cuMemGetAddressRange and
// cuPointerGetAttribute describe an allocation. Then managed memory (cuMemAllocManaged) and
// registered host memory (cuMemHostRegister, cuMemHostGetDevicePointer) take kernel results
// that the host reads without copies.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        CUresult e = (call);                                                               \
        if (e != CUDA_SUCCESS) {                                                           \
            const char *name;                                                              \
            cuGetErrorName(e, &name);                                                      \
            printf("%s failed: %s\n", #call, name);                                        \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("usage: driver MODULE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        printf("cannot open %s\n", argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *image = (char *)calloc(size + 1, 1);
    if (fread(image, 1, size, f) != (size_t)size) return 1;
    fclose(f);

    CHECK(cuInit(0));
    int count, major, minor, version;
    CUdevice dev;
    CHECK(cuDeviceGetCount(&count));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CHECK(cuDriverGetVersion(&version));
    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CHECK(cuModuleLoadData(&mod, image));
    CUfunction saxpy;
    CHECK(cuModuleGetFunction(&saxpy, mod, "saxpy"));

    const int n = 10000;
    float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    // cuMemAlloc through cuGetProcAddress, as runtimes look entry points up: for CUDA 11.8 the
    // name means cuMemAlloc_v2 (64-bit sizes and pointers). CUDA 12's cuda.h makes
    // cuGetProcAddress cuGetProcAddress_v2, which also reports how the lookup went.
#if CUDA_VERSION >= 12000
#define GET_PROC(name, fn) cuGetProcAddress(name, fn, 11080, CU_GET_PROC_ADDRESS_DEFAULT, NULL)
#else
#define GET_PROC(name, fn) cuGetProcAddress(name, fn, 11080, CU_GET_PROC_ADDRESS_DEFAULT)
#endif
    typedef CUresult (*memAlloc)(CUdeviceptr *, size_t);
    memAlloc alloc = NULL;
    CHECK(GET_PROC("cuMemAlloc", (void **)&alloc));
    void *missing = &missing;
    CUresult notFound = GET_PROC("cuNoSuchFunction", &missing);
    printf("cuGetProcAddress: cuMemAlloc %s, unknown name %d (%s)\n", alloc == (memAlloc)cuMemAlloc ? "is cuMemAlloc_v2" : "differs", (int)notFound, missing ? "set" : "NULL");
    CUdeviceptr dx, dy;
    CHECK(alloc(&dx, n * sizeof(float)));
    CHECK(cuMemAlloc(&dy, n * sizeof(float)));
    CHECK(cuMemcpyHtoD(dx, x, n * sizeof(float)));
    CUdeviceptr base;
    size_t rangeSize;
    unsigned int memType = 0;
    CHECK(cuMemGetAddressRange(&base, &rangeSize, dx + 100));
    CHECK(cuPointerGetAttribute(&memType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dy));
    printf("address range: base %s, %zu bytes; memory type %u\n", base == dx ? "is the allocation" : "differs", rangeSize, memType);
    CHECK(cuMemsetD32(dy, 0x3f800000, n)); // 1.0f
    float a = 2.0f;
    int nn = n;
    void *params[] = {&a, &dx, &dy, &nn};
    CHECK(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, NULL));

    struct {
        float a;
        int pad;
        CUdeviceptr x, y;
        int n;
    } buf = {0.5f, 0, dx, dy, n};
    size_t bufSize = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufSize, CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, NULL, extra));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(y, dy, n * sizeof(float)));

    CUdeviceptr launchesPtr;
    size_t launchesSize;
    int launches = 0;
    CHECK(cuModuleGetGlobal(&launchesPtr, &launchesSize, mod, "launches"));
    CHECK(cuMemcpyDtoH(&launches, launchesPtr, sizeof launches));

    int bad = 0;
    for (int i = 0; i < n; i++) {
        float want = 1.0f;
        want = 2.0f * x[i] + want;
        want = 0.5f * x[i] + want;
        if (y[i] != want) bad++;
    }
    printf("devices=%d cc=%d.%d driver>=11080: %s\n", count, major, minor, version >= 11080 ? "yes" : "no");
    printf("y[0]=%.1f y[1]=%.1f y[%d]=%.1f launches=%d (%zu bytes) mismatches=%d\n", y[0], y[1], n - 1, y[n - 1], launches, launchesSize, bad);

    // Managed memory and registered host memory: the host reads what kernels wrote, no copies.
    CUdeviceptr dm, dyh;
    CHECK(cuMemAllocManaged(&dm, n * sizeof(float), CU_MEM_ATTACH_GLOBAL));
    float *m = (float *)dm;
    for (int i = 0; i < n; i++) m[i] = 3.0f;
    void *mparams[] = {&a, &dx, &dm, &nn}; // m = 2x + m
    CHECK(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, mparams, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemHostRegister(y, n * sizeof(float), CU_MEMHOSTREGISTER_DEVICEMAP));
    CHECK(cuMemHostGetDevicePointer(&dyh, y, 0));
    void *rparams[] = {&a, &dm, &dyh, &nn}; // y = 2m + y
    CHECK(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, rparams, NULL));
    CHECK(cuCtxSynchronize());
    printf("managed m[%d]=%.1f registered y[%d]=%.1f same=%d\n", n - 1, m[n - 1], n - 1, y[n - 1], dyh == (CUdeviceptr)y);
    CHECK(cuMemHostUnregister(y));
    CHECK(cuMemFree(dm));
    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return bad != 0;
}
