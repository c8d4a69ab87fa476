// half: binary16 (_Float16, CUDA's __half) arithmetic and conversions, and the packing
// conversions to f16x2 and bf16x2. Values travel as their bit patterns.

// half_ops computes, for i < n with a = a[i], b = b[i], c = c[i] (binary16), into out[9*i + k]:
//   k=0: a + b   k=1: a - b   k=2: a * b   k=3: __hfma(a, b, c)   k=4: __hfma_relu(a, b, c)
//   k=5: __hmin(a, b)   k=6: __hmax_nan(a, b)   k=7: -a   k=8: __float2half_rn(f[i])
// and fout[i] = __half2float(a).
extern "C" __global__ void half_ops(unsigned short *out, float *fout, const __half *a, const __half *b, const __half *c, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half x = a[i], y = b[i], z = c[i];
  __half r[9] = {x + y, x - y, x * y, __hfma(x, y, z), __hfma_relu(x, y, z), __hmin(x, y), __hmax_nan(x, y), -x, __float2half_rn(f[i])};
  for (int k = 0; k < 9; k++)
    out[9 * i + k] = __builtin_bit_cast(unsigned short, r[k]);
  fout[i] = __half2float(x);
}

// pack_half2 computes, for i < n, out[2*i] = __floats2half2_rn(lo[i], hi[i]) and
// out[2*i+1] = __floats2bfloat162_rn(lo[i], hi[i]) as 32-bit patterns (lo in bits 0-15).
extern "C" __global__ void pack_half2(unsigned *out, const float *lo, const float *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[2 * i] = __floats2half2_rn_bits(lo[i], hi[i]);
  out[2 * i + 1] = __floats2bfloat162_rn_bits(lo[i], hi[i]);
}
