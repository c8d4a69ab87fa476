// Kernels with the bugs ptx2go's sanitizer finds (ptx2go run -check), each next to its
// corrected twin, written as CUDA programmers write them. `make sanitizer-ptx` compiles this
// file with nvcc (-lineinfo, so reports name these lines) and with clang-19. The tests in
// internal/e2e/sanitizer run each kernel and check what is reported, and where.

#define BLOCK 64

// A block reduction missing the __syncthreads() between the stores of the inputs and the
// first step that reads them: a read-after-write hazard on shared memory.
extern "C" __global__ void reduce_missing_sync(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_ok(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// The last warp of a reduction, unrolled the pre-Volta way on volatile shared memory with no
// __syncwarp(): since Volta the lanes of a warp are not in lockstep, so under its each step
// races with the previous one; under ipdom it does not.
extern "C" __global__ void warp_reduce_nosync(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  volatile int *v = s;
  if (t < 32) {
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0)
    out[0] = v[0];
}

// The same with the __syncwarp() calls the CUDA programming guide asks for.
extern "C" __global__ void warp_reduce_sync(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  volatile int *v = s;
  if (t < 32) {
    int x = v[t] + v[t + 32];
    __syncwarp();
    v[t] = x;
    __syncwarp();
    x += v[t + 16];
    __syncwarp();
    v[t] = x;
    __syncwarp();
    x += v[t + 8];
    __syncwarp();
    v[t] = x;
    __syncwarp();
    x += v[t + 4];
    __syncwarp();
    v[t] = x;
    __syncwarp();
    x += v[t + 2];
    __syncwarp();
    v[t] = x;
    __syncwarp();
    x += v[t + 1];
    __syncwarp();
    v[t] = x;
  }
  if (t == 0)
    out[0] = v[0];
}

// A histogram whose threads add to shared bins with a plain +=: threads that hit one bin race.
extern "C" __global__ void histogram_plain(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned h[16];
  if (threadIdx.x < 16)
    h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    h[data[i] & 15] += 1;
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void histogram_atomic(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned h[16];
  if (threadIdx.x < 16)
    h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&h[data[i] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// A 3-point stencil that reads its neighbours' elements (the halo) from shared memory before
// the barrier that makes them visible.
extern "C" __global__ void stencil_early(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2];
  int g = blockIdx.x * BLOCK + threadIdx.x;
  int t = threadIdx.x + 1;
  s[t] = g < n ? in[g] : 0.0f;
  if (threadIdx.x == 0)
    s[0] = g > 0 ? in[g - 1] : 0.0f;
  if (threadIdx.x == BLOCK - 1)
    s[BLOCK + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  float left = s[t - 1], right = s[t + 1];
  __syncthreads();
  if (g < n)
    out[g] = left + s[t] + right;
}

extern "C" __global__ void stencil_ok(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2];
  int g = blockIdx.x * BLOCK + threadIdx.x;
  int t = threadIdx.x + 1;
  s[t] = g < n ? in[g] : 0.0f;
  if (threadIdx.x == 0)
    s[0] = g > 0 ? in[g - 1] : 0.0f;
  if (threadIdx.x == BLOCK - 1)
    s[BLOCK + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  __syncthreads();
  float left = s[t - 1], right = s[t + 1];
  if (g < n)
    out[g] = left + s[t] + right;
}

// Scales a buffer: run on memory fresh from cudaMalloc, it reads bytes nothing wrote.
extern "C" __global__ void scale(const float *in, float *out, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = k * in[i];
}

// Each thread reads its right neighbour's shared element, which the last thread's neighbour
// never wrote.
extern "C" __global__ void shared_uninit(const int *in, int *out) {
  __shared__ int s[BLOCK + 1];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 1];
}

extern "C" __global__ void shared_init(const int *in, int *out) {
  __shared__ int s[BLOCK + 1];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0)
    s[BLOCK] = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 1];
}

// __syncthreads() inside a condition that only some threads of the block meet, in a kernel
// whose other threads go on to the next __syncthreads(): they meet the first one's threads
// there (bar.sync is aligned: every thread must execute the same barrier instruction).
// Threads that exit instead of arriving are no error: a barrier waits for the threads that
// have not exited.
extern "C" __global__ void sync_in_if(int *data) {
  __shared__ int s[32];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    data[threadIdx.x] = s[15 - threadIdx.x];
  }
  __syncthreads();
  data[threadIdx.x + 32] = threadIdx.x;
}

extern "C" __global__ void sync_outside_if(int *data) {
  __shared__ int s[32];
  if (threadIdx.x < 16)
    s[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 16)
    data[threadIdx.x] = s[15 - threadIdx.x];
  __syncthreads();
  data[threadIdx.x + 32] = threadIdx.x;
}

// A shuffle inside `if (lane < 16)` whose mask names the whole warp: lanes 16-31 never take part.
extern "C" __global__ void shfl_bad_mask(int *data) {
  int v = data[threadIdx.x];
  if (threadIdx.x < 16)
    v += __shfl_down_sync(0xffffffffu, v, 8);
  data[threadIdx.x] = v;
}

extern "C" __global__ void shfl_good_mask(int *data) {
  int v = data[threadIdx.x];
  if (threadIdx.x < 16)
    v += __shfl_down_sync(0x0000ffffu, v, 8);
  data[threadIdx.x] = v;
}

// A value handed from the last warp of the block to the first through shared memory and a
// volatile flag, with no fence between the value's store and the flag's: the first warp may
// see the flag and still read the old value.
extern "C" __global__ void flag_nofence(int *out) {
  __shared__ volatile int flag;
  __shared__ volatile int value;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
    }
    out[0] = value;
  } else if (threadIdx.x == blockDim.x - 1) {
    value = 42;
    flag = 1;
  }
}

// The same with __threadfence_block() between the stores: the flag's store releases the value.
extern "C" __global__ void flag_fence(int *out) {
  __shared__ volatile int flag;
  __shared__ volatile int value;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) {
    }
    out[0] = value;
  } else if (threadIdx.x == blockDim.x - 1) {
    value = 42;
    __threadfence_block();
    flag = 1;
  }
}
