// intops: integer instructions beyond the basic ALU set: prmt, sad, mul24 and fns.

// byte_perm computes out[i] = __byte_perm(x[i], y[i], s[i]) (prmt.b32, default mode, on the
// selector's low 3 bits per byte as CUDA specifies) for i < n.
extern "C" __global__ void byte_perm(unsigned *out, const unsigned *x, const unsigned *y, const unsigned *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __byte_perm(x[i], y[i], s[i]);
}

// sad_mul24 computes, for i < n with a = a[i], b = b[i], c = c[i] (int), into out[4*i + k]:
//   k=0: __sad(a, b, c) (sad.s32: |a-b| + c)   k=1: __usad(a, b, c) (sad.u32)
//   k=2: __mul24(a, b) (mul24.lo.s32: low 32 bits of the product of a and b's low 24 bits,
//        sign-extended)   k=3: __umul24(a, b) (mul24.lo.u32)
extern "C" __global__ void sad_mul24(int *out, const int *a, const int *b, const int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = a[i], y = b[i], z = c[i];
  out[4 * i] = __sad(x, y, z);
  out[4 * i + 1] = __usad(x, y, z);
  out[4 * i + 2] = __mul24(x, y);
  out[4 * i + 3] = __umul24(x, y);
}

// find_nth computes out[i] = __fns(mask[i], base[i] & 31, off[i]) (fns.b32: the position of the
// off-th set bit of mask counting from bit base, upward for off > 0, downward for off < 0,
// 0xffffffff if there is none) for i < n.
extern "C" __global__ void find_nth(unsigned *out, const unsigned *mask, const unsigned *base, const int *off, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __fns(mask[i], base[i] & 31, off[i]);
}
