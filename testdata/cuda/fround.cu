// fround: IEEE arithmetic with each explicit rounding mode (the __f*_r? and __d*_r? intrinsics:
// add/mul/fma/div/rcp/sqrt with .rn, .rz, .rp and .rm), subnormals included (no .ftz).

// fround32 computes, for i < n with a = a[i], b = b[i], c = c[i] (float), into out[24*i + 4*k + r]
// where r is the rounding mode (0: rn, 1: rz, 2: ru, 3: rd):
//   k=0: a + b   k=1: a * b   k=2: fma(a, b, c)   k=3: a / b   k=4: 1 / a   k=5: sqrt(a)
extern "C" __global__ void fround32(float *out, const float *a, const float *b, const float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = a[i], y = b[i], z = c[i];
  float *o = out + 24 * i;
  o[0] = __fadd_rn(x, y);
  o[1] = __fadd_rz(x, y);
  o[2] = __fadd_ru(x, y);
  o[3] = __fadd_rd(x, y);
  o[4] = __fmul_rn(x, y);
  o[5] = __fmul_rz(x, y);
  o[6] = __fmul_ru(x, y);
  o[7] = __fmul_rd(x, y);
  o[8] = __fmaf_rn(x, y, z);
  o[9] = __fmaf_rz(x, y, z);
  o[10] = __fmaf_ru(x, y, z);
  o[11] = __fmaf_rd(x, y, z);
  o[12] = __fdiv_rn(x, y);
  o[13] = __fdiv_rz(x, y);
  o[14] = __fdiv_ru(x, y);
  o[15] = __fdiv_rd(x, y);
  o[16] = __frcp_rn(x);
  o[17] = __frcp_rz(x);
  o[18] = __frcp_ru(x);
  o[19] = __frcp_rd(x);
  o[20] = __fsqrt_rn(x);
  o[21] = __fsqrt_rz(x);
  o[22] = __fsqrt_ru(x);
  o[23] = __fsqrt_rd(x);
}

// fround64 is fround32 for double: out[24*i + 4*k + r] with the same k and r.
extern "C" __global__ void fround64(double *out, const double *a, const double *b, const double *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = a[i], y = b[i], z = c[i];
  double *o = out + 24 * i;
  o[0] = __dadd_rn(x, y);
  o[1] = __dadd_rz(x, y);
  o[2] = __dadd_ru(x, y);
  o[3] = __dadd_rd(x, y);
  o[4] = __dmul_rn(x, y);
  o[5] = __dmul_rz(x, y);
  o[6] = __dmul_ru(x, y);
  o[7] = __dmul_rd(x, y);
  o[8] = __fma_rn(x, y, z);
  o[9] = __fma_rz(x, y, z);
  o[10] = __fma_ru(x, y, z);
  o[11] = __fma_rd(x, y, z);
  o[12] = __ddiv_rn(x, y);
  o[13] = __ddiv_rz(x, y);
  o[14] = __ddiv_ru(x, y);
  o[15] = __ddiv_rd(x, y);
  o[16] = __drcp_rn(x);
  o[17] = __drcp_rz(x);
  o[18] = __drcp_ru(x);
  o[19] = __drcp_rd(x);
  o[20] = __dsqrt_rn(x);
  o[21] = __dsqrt_rz(x);
  o[22] = __dsqrt_ru(x);
  o[23] = __dsqrt_rd(x);
}
