// warp_width: shuffles with a sub-warp width (the c operand of shfl.sync) and __activemask and
// __ballot_sync under divergence.

#define FULL 0xffffffffu

// shfl_width computes, for every thread i of a launch of whole warps, with v = in[i] and
// lane l = i % 32, into out[4*i + k] the shuffles below, which follow shfl.sync's rule: lane l
// reads lane j if j is within [l's segment start, the segment's last lane] for up (j >= start)
// and at most the segment's last lane for down, bfly and idx, else it keeps its own v:
//   k=0: __shfl_sync(FULL, v, s, 8)       (lane (l & ~7) | (s & 7), s = sel[i])
//   k=1: __shfl_up_sync(FULL, v, 3, 16)   (lane l-3 if l-3 >= (l & ~15))
//   k=2: __shfl_down_sync(FULL, v, 5, 8)  (lane l+5 if l+5 <= (l | 7))
//   k=3: __shfl_xor_sync(FULL, v, 6, 4)   (lane l^6 if l^6 <= (l | 3): taken for l & 4, which
//                                          reads the segment below, kept otherwise)
extern "C" __global__ void shfl_width(int *out, const int *in, const int *sel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], *o = out + 4 * i;
  o[0] = __shfl_sync(FULL, v, sel[i], 8);
  o[1] = __shfl_up_sync(FULL, v, 3, 16);
  o[2] = __shfl_down_sync(FULL, v, 5, 8);
  o[3] = __shfl_xor_sync(FULL, v, 6, 4);
}

// divergent_mask computes, for i < n, out[i] = __activemask() inside the branch i takes on
// in[i] > 0, and for the other branch the ballot of (in[i] & 1) over the active lanes, so each
// value is the set of lanes of i's warp that take i's branch (restricted to odd in[] for the
// ballot); threads past n are idle.
extern "C" __global__ void divergent_mask(unsigned *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (in[i] > 0)
    out[i] = __activemask();
  else
    out[i] = __ballot_sync(__activemask(), in[i] & 1);
}
