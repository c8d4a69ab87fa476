// sepcomp: a program built with separate compilation (nvcc -rdc=true) from this file and
// sepcomp_lib.cu, as cuda-samples' simpleSeparateCompilation is. Its kernel calls functions
// the other translation unit defines, directly and through device function pointers whose
// initializers name them, and reads a table defined there; each file also has its own
// file-local table of the same name. It prints the checks of the results against the host's.
#include <cstdio>

extern __device__ float scale(float x);
extern __device__ float shift(float x);
extern __device__ int scale_by[1];

typedef float (*op)(float);
__device__ op ops[2] = {scale, shift};

// offsets is local to this translation unit; sepcomp_lib.cu has its own.
static __device__ int offsets[2] = {7, 9};

__global__ void apply(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ops[i % 2](in[i]) + scale(in[i]) * scale_by[0] + offsets[i % 2];
}

int main() {
  const int n = 1000;
  float in[n], out[n], *din, *dout;
  for (int i = 0; i < n; i++)
    in[i] = i * 0.5f;
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  apply<<<(n + 127) / 128, 128>>>(dout, din, n);
  cudaError_t err = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("error %s\n", cudaGetErrorString(err));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float s = in[i] * 3 + 1000;
    float want = (i % 2 ? in[i] - 2000 : s) + s * 3 + (i % 2 ? 9 : 7);
    if (out[i] != want)
      bad++;
  }
  printf("n=%d out[0]=%.1f out[1]=%.1f out[%d]=%.1f mismatches=%d\n", n, out[0], out[1], n - 1, out[n - 1], bad);
  return 0;
}
