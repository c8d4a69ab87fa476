// everyday: kernels in the style of NVIDIA's cuda-samples (scan, shfl_scan, histogram,
// transpose, sortingNetworks, convolutionSeparable, reduction with cooperative groups) and a
// float atomicMax built on atomicCAS; compiled by nvcc only (cooperative groups).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// prescan: the work-efficient (Blelloch) exclusive scan of each block's n = 2*blockDim.x
// elements in dynamic shared memory, with cuda-samples' bank-conflict-free offsets (the
// shared array holds n + n/32 ints).
#define CONFLICT_FREE_OFFSET(n) ((n) >> 5)
extern "C" __global__ void prescan(int *out, const int *in, int n) {
  extern __shared__ int temp[];
  int thid = threadIdx.x;
  int base = blockIdx.x * n;
  int offset = 1;
  int ai = thid, bi = thid + n / 2;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = in[base + ai];
  temp[bi + bankOffsetB] = in[base + bi];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0)
    temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      int t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  out[base + ai] = temp[ai + bankOffsetA];
  out[base + bi] = temp[bi + bankOffsetB];
}

// shfl_scan: cuda-samples' shfl_scan_test: the inclusive scan of each block's elements, in
// place, by __shfl_up_sync within each warp and then over the warps' sums (blockDim.x a
// multiple of 32, at most 512: the dynamic shared memory holds one int per warp); partial[b]
// gets block b's total.
extern "C" __global__ void shfl_scan(int *data, int *partial, int width) {
  extern __shared__ int sums[];
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int value = data[id];
  for (int i = 1; i <= width; i *= 2) {
    int n = __shfl_up_sync(0xffffffff, value, i, width);
    if (lane >= i)
      value += n;
  }
  if (threadIdx.x % warpSize == warpSize - 1)
    sums[warp] = value;
  __syncthreads();
  int warps = blockDim.x / warpSize;
  if (warp == 0 && lane < warps) {
    int warp_sum = sums[lane];
    int mask = (1 << warps) - 1;
    for (int i = 1; i <= warps; i *= 2) {
      int n = __shfl_up_sync(mask, warp_sum, i, warps);
      if (lane >= i)
        warp_sum += n;
    }
    sums[lane] = warp_sum;
  }
  __syncthreads();
  int blockSum = 0;
  if (warp > 0)
    blockSum = sums[warp - 1];
  value += blockSum;
  data[id] = value;
  if (threadIdx.x == blockDim.x - 1)
    partial[blockIdx.x] = value;
}

// histogram256: hist[b] += the number of bytes of data[0..n) equal to b, counted in a
// grid-stride loop into one shared sub-histogram per warp (at most 6 warps a block) with
// shared atomics, then merged into hist with global atomics.
#define HIST_WARPS 6
extern "C" __global__ void histogram256(unsigned *hist, const unsigned char *data, int n) {
  __shared__ unsigned s[HIST_WARPS * 256];
  for (int i = threadIdx.x; i < HIST_WARPS * 256; i += blockDim.x)
    s[i] = 0;
  __syncthreads();
  unsigned *w = s + (threadIdx.x / 32) * 256;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(w + data[i], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned sum = 0;
    for (int k = 0; k < HIST_WARPS; k++)
      sum += s[k * 256 + b];
    atomicAdd(hist + b, sum);
  }
}

// transpose: odata (width rows of height floats) = the transpose of
// idata (height rows of width floats), through a 32x33 shared tile (the padding column
// avoids bank conflicts), with 32x8 blocks each moving a 32x32 tile; edge tiles are partial.
#define TILE 32
#define TILE_ROWS 8
extern "C" __global__ void transpose(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += TILE_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += TILE_ROWS)
    if (x < height && y + j < width)
      odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// bitonic_sort: sortingNetworks' bitonicSortShared: each block of 512 threads sorts 1024
// keys (with their values) in shared memory, ascending when dir is 1.
__device__ inline void comparator(unsigned &keyA, unsigned &valA, unsigned &keyB, unsigned &valB,
                                  unsigned dir) {
  unsigned t;
  if ((keyA > keyB) == dir) {
    t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}
extern "C" __global__ void bitonic_sort(unsigned *dk, unsigned *dv, const unsigned *sk,
                                        const unsigned *sv, unsigned dir) {
  const unsigned arrayLength = 1024;
  __shared__ unsigned s_key[1024], s_val[1024];
  sk += blockIdx.x * 1024 + threadIdx.x;
  sv += blockIdx.x * 1024 + threadIdx.x;
  dk += blockIdx.x * 1024 + threadIdx.x;
  dv += blockIdx.x * 1024 + threadIdx.x;
  s_key[threadIdx.x] = sk[0];
  s_val[threadIdx.x] = sv[0];
  s_key[threadIdx.x + 512] = sk[512];
  s_val[threadIdx.x + 512] = sv[512];
  for (unsigned size = 2; size < arrayLength; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }
  for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], dir);
  }
  __syncthreads();
  dk[0] = s_key[threadIdx.x];
  dv[0] = s_val[threadIdx.x];
  dk[512] = s_key[threadIdx.x + 512];
  dv[512] = s_val[threadIdx.x + 512];
}

// convolution_rows: convolutionSeparable's row pass: each 16x4 block filters 8 tiles of 16
// pixels of 4 rows with the 17-tap kernel in constant memory, through a shared row with a
// 16-pixel halo on each side (zero outside the image; imageW a multiple of 128, imageH of 4).
#define KR 8
__constant__ float c_Kernel[2 * KR + 1] = {0.0625f, 0.125f, -0.25f, 0.5f,  0.75f, -1.0f,
                                           1.5f,    2.0f,   3.0f,   -2.0f, 1.25f, 0.875f,
                                           -0.5f,   0.25f,  0.375f, 0.1875f, -0.03125f};
#define RB_X 16
#define RB_Y 4
#define R_STEPS 8
#define R_HALO 1
extern "C" __global__ void convolution_rows(float *d_Dst, const float *d_Src, int imageW, int imageH,
                                            int pitch) {
  __shared__ float s_Data[RB_Y][(R_STEPS + 2 * R_HALO) * RB_X];
  const int baseX = (blockIdx.x * R_STEPS - R_HALO) * RB_X + threadIdx.x;
  const int baseY = blockIdx.y * RB_Y + threadIdx.y;
  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;
#pragma unroll
  for (int i = R_HALO; i < R_HALO + R_STEPS; i++)
    s_Data[threadIdx.y][threadIdx.x + i * RB_X] = d_Src[i * RB_X];
#pragma unroll
  for (int i = 0; i < R_HALO; i++)
    s_Data[threadIdx.y][threadIdx.x + i * RB_X] = (baseX >= -i * RB_X) ? d_Src[i * RB_X] : 0;
#pragma unroll
  for (int i = R_HALO + R_STEPS; i < R_HALO + R_STEPS + R_HALO; i++)
    s_Data[threadIdx.y][threadIdx.x + i * RB_X] = (imageW - baseX > i * RB_X) ? d_Src[i * RB_X] : 0;
  __syncthreads();
#pragma unroll
  for (int i = R_HALO; i < R_HALO + R_STEPS; i++) {
    float sum = 0;
#pragma unroll
    for (int j = -KR; j <= KR; j++)
      sum += c_Kernel[KR - j] * s_Data[threadIdx.y][threadIdx.x + i * RB_X + j];
    d_Dst[i * RB_X] = sum;
  }
}

// cg_reduce: *out += the sum of the n4 float4 values' components, in double: a grid-stride
// loop per thread, cg::reduce over each 32-thread tile, and a double atomicAdd per tile.
extern "C" __global__ void cg_reduce(double *out, const float4 *in, int n4) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    float4 v = in[i];
    s += (double)v.x + (double)v.y + (double)v.z + (double)v.w;
  }
  s = cg::reduce(tile, s, cg::plus<double>());
  if (tile.thread_rank() == 0)
    atomicAdd(out, s);
}

// atomic_max_f32: *m = max(*m, in[0..n)) through the usual atomicCAS loop on the float's bits.
__device__ float atomicMaxFloat(float *addr, float v) {
  int *a = (int *)addr;
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v)
      break;
    old = atomicCAS(a, assumed, __float_as_int(v));
  } while (assumed != old);
  return __int_as_float(old);
}
extern "C" __global__ void atomic_max_f32(float *m, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMaxFloat(m, in[i]);
}
