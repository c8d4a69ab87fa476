// Vector addition through the runtime API: c = a + b on n floats (argv[1], default 50000),
// a[i] = i / 2 and b[i] = 2i + 1, checked element by element on the host. Prints a few
// elements and the number of mismatches; exits 1 on any error.
#include <cstdio>
#include <cstdlib>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e = (call);                                                            \
        if (e != cudaSuccess) {                                                            \
            printf("%s failed: %s (%s)\n", #call, cudaGetErrorName(e), cudaGetErrorString(e)); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 50000;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = i / 2.0f;
        b[i] = 2.0f * i + 1;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    int threads = 256, blocks = (n + threads - 1) / threads;
    vecadd<<<blocks, threads>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) bad++;
    printf("n=%d blocks=%d c[0]=%.1f c[1]=%.1f c[%d]=%.1f mismatches=%d\n", n, blocks, c[0], c[1], n - 1, c[n - 1], bad);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);
    return bad != 0;
}
