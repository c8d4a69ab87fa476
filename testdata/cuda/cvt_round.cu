// cvt_round: conversions with explicit rounding modes (cvt.{rni,rzi,rpi,rmi} float to integer,
// which saturate and map NaN to 0; cvt.{rn,rp,rm} to float) and saturation (cvt.sat).

// f2i_modes computes, for i < n with x = x[i] (float) and d = d[i] (double), into out[16*i + k]
// (every value stored as a 64-bit integer):
//   k=0..3: __float2int_{rn,rz,ru,rd}(x)     k=4..6: __float2uint_{rz,ru,rd}(x)
//   k=7..10: __float2ll_{rn,rz,ru,rd}(x)     k=11: __float2ull_rd(x)
//   k=12: __double2int_rn(d)  k=13: __double2uint_ru(d)  k=14: __double2ll_rd(d)
//   k=15: __double2ull_rz(d)
extern "C" __global__ void f2i_modes(long long *out, const float *x, const double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i];
  double b = d[i];
  long long *o = out + 16 * i;
  o[0] = __float2int_rn(a);
  o[1] = __float2int_rz(a);
  o[2] = __float2int_ru(a);
  o[3] = __float2int_rd(a);
  o[4] = __float2uint_rz(a);
  o[5] = __float2uint_ru(a);
  o[6] = __float2uint_rd(a);
  o[7] = __float2ll_rn(a);
  o[8] = __float2ll_rz(a);
  o[9] = __float2ll_ru(a);
  o[10] = __float2ll_rd(a);
  o[11] = (long long)__float2ull_rd(a);
  o[12] = __double2int_rn(b);
  o[13] = __double2uint_ru(b);
  o[14] = __double2ll_rd(b);
  o[15] = (long long)__double2ull_rz(b);
}

// i2f_modes computes, for i < n with v = v[i] (long long) and d = d[i] (double), into
// out[10*i + k] (float):
//   k=0,1: __int2float_{ru,rd}((int)v)   k=2,3: __uint2float_{ru,rd}((unsigned)v)
//   k=4,5: __ll2float_{ru,rd}(v)         k=6,7: __double2float_{ru,rd}(d)
//   k=8: (float)__ll2double_ru(v)       k=9: (float)__ll2double_rd(v) - (float)__ll2double_ru(v)
extern "C" __global__ void i2f_modes(float *out, const long long *v, const double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long a = v[i];
  double b = d[i];
  float *o = out + 10 * i;
  o[0] = __int2float_ru((int)a);
  o[1] = __int2float_rd((int)a);
  o[2] = __uint2float_ru((unsigned)a);
  o[3] = __uint2float_rd((unsigned)a);
  o[4] = __ll2float_ru(a);
  o[5] = __ll2float_rd(a);
  o[6] = __double2float_ru(b);
  o[7] = __double2float_rd(b);
  o[8] = (float)__ll2double_ru(a);
  o[9] = (float)__ll2double_rd(a) - (float)__ll2double_ru(a);
}

// saturate computes, for i < n, out[2*i] = __saturatef(a[i]) and
// out[2*i+1] = (float)__saturate(d[i]) (cvt.sat.f32.f32 and cvt.sat.f64.f64: clamped to [0, 1],
// NaN to 0).
extern "C" __global__ void saturate(float *out, const float *a, const double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[2 * i] = __saturatef(a[i]);
  out[2 * i + 1] = (float)__saturate(d[i]);
}
