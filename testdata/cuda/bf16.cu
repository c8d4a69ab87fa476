// bf16: bfloat16 (__bf16, CUDA's __nv_bfloat16) arithmetic and conversions. Values travel as
// their 16-bit patterns (unsigned short).

// bf16_ops computes, for i < n with a = a[i], b = b[i], c = c[i] (bfloat16), into out[6*i + k]:
//   k=0: __hfma(a, b, c)   k=1: __hmin(a, b)   k=2: __habs(a)   k=3: __hneg(a)
//   k=4: __float2bfloat16_rn(f[i])   k=5: (bfloat16)(a + b) (f32 add, then cvt.rn.bf16.f32)
// and fout[i] = __bfloat162float(a).
extern "C" __global__ void bf16_ops(unsigned short *out, float *fout, const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 x = a[i], y = b[i], z = c[i];
  __nv_bfloat16 r[6] = {__hfma(x, y, z), __hmin(x, y), __habs(x), __hneg(x), __float2bfloat16_rn(f[i]), x + y};
  for (int k = 0; k < 6; k++)
    out[6 * i + k] = __builtin_bit_cast(unsigned short, r[k]);
  fout[i] = __bfloat162float(x);
}
