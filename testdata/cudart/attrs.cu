// Stream attributes and the L2 cache controls, in the style of cuda-samples' simpleAttributes:
// the device's persisting L2 figures, cudaLimitPersistingL2CacheSize, an access-policy window
// set on a stream and read back (accepted and ignored by ptx2go), the synchronization policy,
// the driver API's cuStreamGetAttribute, cudaStreamCopyAttributes, kernels in the stream, and
// cudaCtxResetPersistingL2Cache. Run by TestExecDriverAPI.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            printf("%s: %s\n", #call, cudaGetErrorName(e_));                        \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__global__ void bump(int *data, int n, int k) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        data[i] += k * (i % 7);
}

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int l2 = 0, persisting = 0, window = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    printf("l2 %d persisting %d window %d (props %s)\n", l2, persisting, window,
           prop.l2CacheSize == l2 && prop.persistingL2CacheMaxSize == persisting && prop.accessPolicyMaxWindowSize == window ? "agree" : "differ");
    if (prop.persistingL2CacheMaxSize == 0) {
        printf("waived\n");
        return 0;
    }
    size_t set = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize));
    CHECK(cudaDeviceGetLimit(&set, cudaLimitPersistingL2CacheSize));
    printf("persisting limit %zu\n", set);

    const int n = 1 << 16;
    int *data;
    CHECK(cudaMalloc(&data, n * sizeof(int)));
    CHECK(cudaMemset(data, 0, n * sizeof(int)));
    cudaStream_t s, t;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreate(&t));
    cudaStreamAttrValue v = {};
    v.accessPolicyWindow.base_ptr = data;
    v.accessPolicyWindow.num_bytes = n * sizeof(int);
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    cudaStreamAttrValue sync = {};
    sync.syncPolicy = cudaSyncPolicyYield;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &sync));
    for (int k = 1; k <= 3; k++)
        bump<<<64, 128, 0, s>>>(data, n, k);
    CHECK(cudaStreamSynchronize(s));

    cudaStreamAttrValue got = {};
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
    printf("window: %s bytes %zu hit %.1f props %d %d\n", got.accessPolicyWindow.base_ptr == (void *)data ? "base ok" : "base wrong",
           got.accessPolicyWindow.num_bytes, got.accessPolicyWindow.hitRatio, (int)got.accessPolicyWindow.hitProp, (int)got.accessPolicyWindow.missProp);
    CHECK(cudaStreamCopyAttributes(t, s));
    CUstreamAttrValue dv = {};
    if (cuStreamGetAttribute((CUstream)t, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &dv) != CUDA_SUCCESS)
        printf("cuStreamGetAttribute failed\n");
    printf("copied sync policy %d\n", (int)dv.syncPolicy);
    v.accessPolicyWindow.hitRatio = 1.5f;
    printf("bad hit ratio: %s\n", cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v)));
    cudaGetLastError();

    v.accessPolicyWindow.num_bytes = 0;
    v.accessPolicyWindow.hitRatio = 0;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    CHECK(cudaCtxResetPersistingL2Cache());
    int *h = (int *)malloc(n * sizeof(int));
    CHECK(cudaMemcpy(h, data, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("sum %lld\n", sum);
    return 0;
}
