// A program that forgets to free device memory (issue 33's leaked buffer): it scales a vector
// in a buffer it frees, and leaves a 4096-byte scratch buffer and a 1000-float result buffer
// allocated at exit. Its kernels are correct, so `ptx2go exec -check all` reports the two leaks
// and nothing else; without -check it prints its result and exits 0.
#include <cstdio>

__global__ void scale(const float *in, float *out, float k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = k * in[i];
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e = (call);                                                            \
        if (e != cudaSuccess) {                                                            \
            printf("%s failed: %s\n", #call, cudaGetErrorName(e));                         \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

// makeScratch allocates a buffer nobody frees.
static __attribute__((noinline)) void *makeScratch(size_t n) {
    void *p = nullptr;
    if (cudaMalloc(&p, n) != cudaSuccess) return nullptr;
    cudaMemset(p, 0, n);
    return p;
}

int main() {
    const int n = 1000;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    if (makeScratch(4096) == nullptr) return 1;
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    scale<<<(n + 255) / 256, 256>>>(in, out, 3.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(in)); // out is never freed
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 3.0f * i;
    printf("h[999] = %g, %d mismatches\n", h[999], bad);
    return bad != 0;
}
