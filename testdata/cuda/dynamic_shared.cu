// dynamic_shared: extern __shared__ arrays sized at launch time.

extern __shared__ float dyn[];

// block_reverse reverses each block's chunk: out[b*B + t] = in[b*B + (B-1-t)], B = blockDim.x.
// Requires n % blockDim.x == 0 and gridDim.x*blockDim.x == n; dynamic shared size B*4 bytes.
extern "C" __global__ void block_reverse(float *out, const float *in) {
  unsigned t = threadIdx.x, B = blockDim.x;
  unsigned base = blockIdx.x * B;
  dyn[t] = in[base + t];
  __syncthreads();
  out[base + t] = dyn[B - 1 - t];
}

// stencil3 computes out[i] = (x[i-1] + x[i] + x[i+1]) / 3 for i < n, with x[-1] = x[n] = 0,
// summed left to right in float. Stages blockDim.x+2 elements (with halo) in dynamic shared
// memory: launch with (blockDim.x+2)*4 bytes.
extern "C" __global__ void stencil3(float *out, const float *x, int n) {
  float *tile = dyn;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t + 1] = i < n ? x[i] : 0.0f;
  if (t == 0)
    tile[0] = i >= 1 && i - 1 < n ? x[i - 1] : 0.0f;
  if (t == (int)blockDim.x - 1)
    tile[t + 2] = i + 1 < n ? x[i + 1] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = (tile[t] + tile[t + 1] + tile[t + 2]) / 3.0f;
}
