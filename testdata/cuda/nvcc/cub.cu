// cub: block- and warp-wide primitives of CUB (the toolkit's cub/cub.cuh, NVIDIA's own code):
// a blocked radix sort of keys and values, block scans and reductions, and warp reductions
// and scans; compiled by nvcc only (it needs the toolkit's headers).
#include <cub/cub.cuh>

// block_radix_sort: each block of 128 threads sorts its 512 keys (loaded with a transpose
// through shared memory) with their values, the keys' indices, by BlockRadixSort: keys[] and
// vals[] get the sorted keys and the original index of each.
extern "C" __global__ void block_radix_sort(unsigned *keys, int *vals) {
  const int BLOCK = 128, ITEMS = 4;
  typedef cub::BlockRadixSort<unsigned, BLOCK, ITEMS, int> Sort;
  typedef cub::BlockLoad<unsigned, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE> Load;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Load::TempStorage load;
  } tmp;
  unsigned k[ITEMS];
  int v[ITEMS];
  int base = blockIdx.x * BLOCK * ITEMS;
  Load(tmp.load).Load(keys + base, k);
  __syncthreads();
  for (int i = 0; i < ITEMS; i++)
    v[i] = base + threadIdx.x * ITEMS + i;
  Sort(tmp.sort).Sort(k, v);
  for (int i = 0; i < ITEMS; i++) {
    keys[base + threadIdx.x * ITEMS + i] = k[i];
    vals[base + threadIdx.x * ITEMS + i] = v[i];
  }
}

// block_scan_reduce: for blocks of 256 threads, out[i] = the exclusive sum of in[] over the
// block's threads before i (BlockScan), and maxes[b] = the largest in[] of block b
// (BlockReduce).
extern "C" __global__ void block_scan_reduce(int *out, int *maxes, const int *in) {
  const int BLOCK = 256;
  typedef cub::BlockScan<int, BLOCK> Scan;
  typedef cub::BlockReduce<int, BLOCK> Reduce;
  __shared__ typename Scan::TempStorage st;
  __shared__ typename Reduce::TempStorage rt;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int x = in[i], y;
  Scan(st).ExclusiveSum(x, y);
  out[i] = y;
  int m = Reduce(rt).Reduce(x, cub::Max());
  if (threadIdx.x == 0)
    maxes[blockIdx.x] = m;
}

// warp_reduce_scan: for blocks of 128 threads, out[2i] = the sum of in[] over thread i's warp
// (WarpReduce; defined for the warp's first lane only, which the test reads) and out[2i+1] =
// the inclusive sum up to thread i in its warp (WarpScan).
extern "C" __global__ void warp_reduce_scan(int *out, const int *in) {
  typedef cub::WarpReduce<int> Reduce;
  typedef cub::WarpScan<int> Scan;
  __shared__ typename Reduce::TempStorage rt[4];
  __shared__ typename Scan::TempStorage st[4];
  int w = threadIdx.x / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i], inc;
  int s = Reduce(rt[w]).Sum(x);
  Scan(st[w]).InclusiveSum(x, inc);
  out[i * 2] = s;
  out[i * 2 + 1] = inc;
}
