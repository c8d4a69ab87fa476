// warp_sync: warp match and reduce (match.{any,all}.sync, redux.sync).

#define FULL 0xffffffffu

// match_ops computes, for every thread i of a launch of whole warps (n = all threads), with
// k = key[i]: anym[i] = __match_any_sync(FULL, k) (the lanes of i's warp whose key equals k) and
// allm[i] = __match_all_sync(FULL, k, &p) (FULL if all 32 keys are equal, else 0), allp[i] = p.
extern "C" __global__ void match_ops(unsigned *anym, unsigned *allm, int *allp, const int *key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p;
  anym[i] = __match_any_sync(FULL, key[i]);
  allm[i] = __match_all_sync(FULL, key[i], &p);
  allp[i] = p;
}

// redux_ops computes, for every thread i of a launch of whole warps, the warp-wide reductions
// of v = in[i] into out[8*i + k]: k=0: add  k=1: min (signed)  k=2: max (signed)
// k=3: min (unsigned)  k=4: max (unsigned)  k=5: and  k=6: or  k=7: xor.
extern "C" __global__ void redux_ops(unsigned *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v, *o = out + 8 * i;
  o[0] = __reduce_add_sync(FULL, u);
  o[1] = (unsigned)__reduce_min_sync(FULL, v);
  o[2] = (unsigned)__reduce_max_sync(FULL, v);
  o[3] = __reduce_min_sync(FULL, u);
  o[4] = __reduce_max_sync(FULL, u);
  o[5] = __reduce_and_sync(FULL, u);
  o[6] = __reduce_or_sync(FULL, u);
  o[7] = __reduce_xor_sync(FULL, u);
}
