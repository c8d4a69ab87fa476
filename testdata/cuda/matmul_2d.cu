// matmul_2d: 2-D thread indexing (blockIdx.y/threadIdx.y) matrix multiplication, row-major.

// matmul computes C[r*N + c] = sum_{k=0}^{K-1} A[r*K + k] * B[k*N + c] for r < M, c < N,
// accumulating from k = 0 upwards starting at 0.0f (each step may be an fma.rn.f32),
// with r = blockIdx.y*blockDim.y + threadIdx.y and c = blockIdx.x*blockDim.x + threadIdx.x.
extern "C" __global__ void matmul(float *C, const float *A, const float *B, int M, int N, int K) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M || c >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; k++)
    acc += A[r * K + k] * B[k * N + c];
  C[r * N + c] = acc;
}

#define TILE 16

// matmul_tiled computes the same C as matmul (same summation order, k = 0 upwards), staging
// 16x16 tiles of A and B in static shared memory; launch with blockDim = (16, 16).
// Out-of-range tile elements are loaded as 0 (adding 0*x keeps the sum unchanged for finite x).
extern "C" __global__ void matmul_tiled(float *C, const float *A, const float *B, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * TILE + ty;
  int c = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (r < M && k0 + tx < K) ? A[r * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (c < N && k0 + ty < K) ? B[(k0 + ty) * N + c] : 0.0f;
    __syncthreads();
    int kmax = K - k0 < TILE ? K - k0 : TILE;
    for (int k = 0; k < kmax; k++)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (r < M && c < N)
    C[r * N + c] = acc;
}
