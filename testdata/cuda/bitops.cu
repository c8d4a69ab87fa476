// bitops: bit-manipulation intrinsics and shifts.

// bitops32 computes, for i < n with x = in[i] (uint32) and s = sh[i] & 31, into out[12*i + k]:
//   k=0: __popc(x)           k=1: __clz(x) (32 for 0)     k=2: __brev(x) (bit reverse)
//   k=3: x << s              k=4: x >> s (logical)        k=5: (int)x >> s (arithmetic)
//   k=6: rotate-left(x, s)   k=7: rotate-right(x, s)      k=8: __ffs(x) (1-based, 0 for 0)
//   k=9: x & -x (lowest set bit)                          k=10: parity (popc & 1)
//   k=11: __funnelshift_l(x, sh[i], s) = high 32 bits of ((uint64)sh[i] << 32 | x) << s
extern "C" __global__ void bitops32(unsigned *out, const unsigned *in, const unsigned *sh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = in[i], s = sh[i] & 31;
  unsigned *o = out + 12 * i;
  o[0] = __popc(x);
  o[1] = __clz((int)x);
  o[2] = __brev(x);
  o[3] = x << s;
  o[4] = x >> s;
  o[5] = (unsigned)((int)x >> s);
  o[6] = __builtin_rotateleft32(x, s);
  o[7] = __builtin_rotateright32(x, s);
  o[8] = __ffs((int)x);
  o[9] = x & (0u - x);
  o[10] = __popc(x) & 1;
  o[11] = __funnelshift_l(x, sh[i], s);
}

// bitops64 computes, for i < n with x = in[i] (uint64), into out[4*i + k]:
//   k=0: __popcll(x)   k=1: __clzll(x) (64 for 0)   k=2: __brevll(x)   k=3: rotate-left(x, 13)
extern "C" __global__ void bitops64(unsigned long long *out, const unsigned long long *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long x = in[i];
  unsigned long long *o = out + 4 * i;
  o[0] = __popcll(x);
  o[1] = __clzll((long long)x);
  o[2] = __brevll(x);
  o[3] = __builtin_rotateleft64(x, 13);
}
