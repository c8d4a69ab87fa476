// The driver API's virtual memory management, in the style of cuda-samples' vectorAddMMAP:
// address space reserved with cuMemAddressReserve, physical memory made with cuMemCreate in
// stripes of the allocation granularity, mapped with cuMemMap and made accessible with
// cuMemSetAccess; a vector add on the mapped memory; one stripe mapped a second time
// elsewhere shows the same bytes; then unmap, release and free. Run by TestExecDriverAPI.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

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

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// allocate reserves size bytes (rounded up to the granularity) and maps stripes of physical
// memory over them.
static CUdeviceptr allocate(size_t size, size_t *reserved, size_t gran, CUmemAllocationProp *prop) {
    size = (size + 2 * gran - 1) / (2 * gran) * (2 * gran);
    CUdeviceptr p;
    CHECK(cuMemAddressReserve(&p, size, 0, 0, 0));
    for (size_t off = 0; off < size; off += gran) {
        CUmemGenericAllocationHandle h;
        CHECK(cuMemCreate(&h, gran, prop, 0));
        CHECK(cuMemMap(p + off, gran, 0, h, 0));
        CHECK(cuMemRelease(h));
    }
    CUmemAccessDesc access = {};
    access.location = prop->location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK(cuMemSetAccess(p, size, &access, 1));
    *reserved = size;
    return p;
}

int main() {
    CHECK(cuInit(0));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    int vmm = 0;
    CHECK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
    printf("virtual memory management supported: %d\n", vmm);
    cudaFree(0); // the runtime's primary context

    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    CHECK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    printf("granularity: %zu\n", gran);

    const int n = 1 << 20; // 4 MiB per vector: stripes across two granules
    size_t bytes = n * sizeof(float), sa, sb, sc;
    CUdeviceptr a = allocate(bytes, &sa, gran, &prop), b = allocate(bytes, &sb, gran, &prop), c = allocate(bytes, &sc, gran, &prop);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000);
    CHECK(cuMemcpyHtoD(a, h, bytes));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i / 1000) * 0.25f;
    CHECK(cuMemcpyHtoD(b, h, bytes));
    vectorAdd<<<(n + 255) / 256, 256>>>((float *)a, (float *)b, (float *)c, n);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("kernel failed\n");
        return 1;
    }
    CHECK(cuMemcpyDtoH(h, c, bytes));
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("c[0]=%g c[%d]=%g sum=%.2f\n", h[0], n - 1, h[n - 1], sum);

    // One physical allocation mapped at two addresses shows the same bytes.
    CUdeviceptr twice;
    CHECK(cuMemAddressReserve(&twice, 2 * gran, 0, 0, 0));
    CUmemGenericAllocationHandle phys;
    CHECK(cuMemCreate(&phys, gran, &prop, 0));
    CHECK(cuMemMap(twice, gran, 0, phys, 0));
    CHECK(cuMemMap(twice + gran, gran, 0, phys, 0));
    CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    CHECK(cuMemSetAccess(twice, 2 * gran, &access, 1));
    unsigned long long flags = 0;
    CHECK(cuMemGetAccess(&flags, &access.location, twice + gran));
    CHECK(cuMemsetD32(twice + 64, 0x12345678, 4));
    unsigned v[4];
    CHECK(cuMemcpyDtoH(v, twice + gran + 64, sizeof v));
    printf("alias: %x %x, access flags %llu\n", v[0], v[3], flags);
    CHECK(cuMemUnmap(twice, 2 * gran));
    CHECK(cuMemRelease(phys));
    CHECK(cuMemAddressFree(twice, 2 * gran));
    printf("free reserved with mappings: %d\n", (int)cuMemAddressFree(a, sa));

    CHECK(cuMemUnmap(a, sa));
    CHECK(cuMemUnmap(b, sb));
    CHECK(cuMemUnmap(c, sc));
    CHECK(cuMemAddressFree(a, sa));
    CHECK(cuMemAddressFree(b, sb));
    CHECK(cuMemAddressFree(c, sc));
    free(h);
    printf("done\n");
    return 0;
}
