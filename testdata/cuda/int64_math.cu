// int64_math: 64-bit integer arithmetic.

// int64_math computes, for i < n with a = a[i], b = b[i], s = b & 63, into out[10*i + k]:
//   k=0: a * b (wrapping)           k=1: a / b (signed, truncating; 0 if b == 0 or a == MIN && b == -1)
//   k=2: a % b (signed; 0 likewise) k=3: a << s
//   k=4: a >> s (arithmetic)        k=5: (uint64)a >> s (logical)
//   k=6: (uint64)a / (uint64)b (0 if b == 0)   k=7: (uint64)a % (uint64)b (0 if b == 0)
//   k=8: high 64 bits of the unsigned 128-bit product (__umul64hi)
//   k=9: high 64 bits of the signed 128-bit product (__mul64hi)
extern "C" __global__ void int64_math(long long *out, const long long *as, const long long *bs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long a = as[i], b = bs[i];
  unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
  int s = (int)(b & 63);
  bool bad = b == 0 || (a == (-0x7fffffffffffffffLL - 1) && b == -1);
  long long *o = out + 10LL * i;
  o[0] = (long long)(ua * ub);
  o[1] = bad ? 0 : a / b;
  o[2] = bad ? 0 : a % b;
  o[3] = (long long)(ua << s);
  o[4] = a >> s;
  o[5] = (long long)(ua >> s);
  o[6] = b == 0 ? 0 : (long long)(ua / ub);
  o[7] = b == 0 ? 0 : (long long)(ua % ub);
  o[8] = (long long)__umul64hi(ua, ub);
  o[9] = __mul64hi(a, b);
}

// mix64 computes a splitmix64-style hash out[i] for i < n:
//   z = seed + i*0x9E3779B97F4A7C15; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^= z >> 31   (all uint64, wrapping).
extern "C" __global__ void mix64(unsigned long long *out, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long z = seed + (unsigned long long)i * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  out[i] = z ^ (z >> 31);
}
