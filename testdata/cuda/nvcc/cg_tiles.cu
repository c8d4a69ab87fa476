// cg_tiles: cooperative groups from CUDA 11.8's headers, compiled by nvcc only (the clang
// corpus has no CUDA headers). Tiles larger than a warp synchronise through shared memory,
// one warp waiting on a flag another sets, as in cuda-samples' reduction (multi_warp_cg_reduce).
#define _CG_ABI_EXPERIMENTAL
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// tile_reduce sums in[0..n) into out[blockIdx.x] per block: each thread adds the elements
// i = blockIdx.x*blockDim.x + threadIdx.x, i + gridDim.x*blockDim.x, ... < n; each tile of
// Tile threads reduces with cg::reduce; tile leaders store their sums in shared memory and
// thread 0 adds them up in tile order. Also writes tiles[g] = the tile's sum for every thread
// g. blockDim.x must be 256.
template <unsigned Tile>
__device__ void tile_reduce(int *out, int *tiles, const int *in, int n) {
  __shared__ cg::experimental::block_tile_memory<sizeof(int), 256> scratch;
  __shared__ int partial[256 / Tile];
  cg::thread_block block = cg::experimental::this_thread_block(scratch);
  cg::thread_block_tile<Tile> tile = cg::experimental::tiled_partition<Tile>(block);
  int v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += in[i];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  tiles[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = sum;
  block.sync();
  if (threadIdx.x == 0) {
    int total = 0;
    for (unsigned k = 0; k < tile.meta_group_size(); k++)
      total += partial[k];
    out[blockIdx.x] = total;
  }
}

extern "C" __global__ void tile_reduce64(int *out, int *tiles, const int *in, int n) { tile_reduce<64>(out, tiles, in, n); }
extern "C" __global__ void tile_reduce128(int *out, int *tiles, const int *in, int n) { tile_reduce<128>(out, tiles, in, n); }

// tile_shuffle: in each 64-thread tile, thread r stores out[g] = in[tile base + (r + 1) % 64]
// passed through shared memory, with tile.sync() between the write and the read, and
// ranks[g] = tile.thread_rank() | tile.meta_group_rank() << 8 | tile.num_threads() << 16.
// blockDim.x must be 256.
extern "C" __global__ void tile_shuffle(int *out, int *ranks, const int *in) {
  __shared__ cg::experimental::block_tile_memory<sizeof(int), 256> scratch;
  __shared__ int buf[256];
  cg::thread_block block = cg::experimental::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::experimental::tiled_partition<64>(block);
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[g];
  tile.sync();
  unsigned base = tile.meta_group_rank() * 64;
  out[g] = buf[base + (tile.thread_rank() + 1) % 64];
  ranks[g] = tile.thread_rank() | tile.meta_group_rank() << 8 | tile.num_threads() << 16;
}

// warp_size stores out[g] = warpSize * 1000 + threadIdx.x % warpSize + (threadIdx.x / warpSize)
// * 100 for every thread g (nvcc writes warpSize as WARP_SZ).
extern "C" __global__ void warp_size(int *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = warpSize * 1000 + threadIdx.x % warpSize + (threadIdx.x / warpSize) * 100;
}
