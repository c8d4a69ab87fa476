// convert: int/float/double conversions with their rounding modes.
// Inputs must be in range of the destination type (out-of-range float->int is undefined in C).

// to_int computes, for i < n with x = in[i], into out[5*i + k]:
//   k=0: (int)x (truncate)            k=1: __float2int_rn(x) (round to nearest even)
//   k=2: __float2int_rd(x) (floor)    k=3: (int)ceilf(x)
//   k=4: (int)(unsigned)fabsf(x) (truncate toward zero, via unsigned)
extern "C" __global__ void to_int(int *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  int *o = out + 5 * i;
  o[0] = (int)x;
  o[1] = __float2int_rn(x);
  o[2] = __float2int_rd(x);
  o[3] = (int)ceilf(x);
  o[4] = (int)(unsigned)fabsf(x);
}

// to_float computes, for i < n with v = in[i] (int64), into out[5*i + k]:
//   k=0: (float)(int)v (low 32 bits, signed, round to nearest)
//   k=1: (float)(unsigned)v (low 32 bits, unsigned)   k=2: (float)v (int64 -> f32)
//   k=3: (float)(unsigned long long)v                  k=4: __int2float_rz((int)v) (toward zero)
extern "C" __global__ void to_float(float *out, const long long *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long v = in[i];
  float *o = out + 5 * i;
  o[0] = (float)(int)v;
  o[1] = (float)(unsigned)v;
  o[2] = (float)v;
  o[3] = (float)(unsigned long long)v;
  o[4] = __int2float_rz((int)v);
}

// f64_roundtrip computes, for i < n with d = in[i] (double), into out[4*i + k] (double):
//   k=0: (double)(float)d (round to nearest f32)   k=1: (double)__double2float_rz(d)
//   k=2: (double)(long long)d (truncate)           k=3: (double)(short)(int)d (wrap to 16 bits)
extern "C" __global__ void f64_roundtrip(double *out, const double *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double d = in[i];
  double *o = out + 4 * i;
  o[0] = (double)(float)d;
  o[1] = (double)__double2float_rz(d);
  o[2] = (double)(long long)d;
  o[3] = (double)(short)(int)d;
}
