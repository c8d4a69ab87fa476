// struct_byval: structs passed by value to kernels (.param .align N .b8 p[size]) and to
// non-inlined device functions, and returned by value.

// Affine holds y = x*scale + bias parameters plus a count; 16 bytes.
struct Affine {
  float scale;
  float bias;
  int n;
  int flags; // bit 0: clamp result to >= 0
};

// Mixed has padding between members: char, (7 pad), double, int, short, (2 pad) -> 24 bytes, align 8.
struct Mixed {
  char tag;
  double weight;
  int offset;
  short step;
};

struct Vec3 {
  float x, y, z;
};

// dot3 returns a.x*b.x + a.y*b.y + a.z*b.z (contracted to fma as written left to right).
__device__ __noinline__ float dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// cross3 returns the cross product a x b by value.
__device__ __noinline__ Vec3 cross3(Vec3 a, Vec3 b) {
  Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}

// affine computes out[i] = in[i]*p.scale + p.bias for i < p.n, then clamps to >= 0 if p.flags & 1.
extern "C" __global__ void affine(float *out, const float *in, Affine p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float y = in[i] * p.scale + p.bias;
  if (p.flags & 1)
    y = fmaxf(y, 0.0f);
  out[i] = y;
}

// vec_ops computes, for i < n: dots[i] = dot3(v[i], dir) and crosses[i] = cross3(v[i], dir).
extern "C" __global__ void vec_ops(float *dots, Vec3 *crosses, const Vec3 *v, Vec3 dir, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  dots[i] = dot3(v[i], dir);
  crosses[i] = cross3(v[i], dir);
}

// mixed_param computes out[i] = (double)in[i] * m.weight + (double)(m.offset + i*m.step + m.tag)
// for i < n (tag is a signed char; the int part is summed in wrapping int; the final mul+add
// may be fused to fma.rn.f64).
extern "C" __global__ void mixed_param(double *out, const int *in, Mixed m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = (double)in[i] * m.weight + (double)(m.offset + i * m.step + m.tag);
}
