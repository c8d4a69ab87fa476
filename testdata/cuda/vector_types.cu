// vector_types: 16- and 8-byte aligned vector structs (ld/st.global.v4.f32, v2.s32), as
// CUDA's vector_types.h declares them (nvcc includes that header itself).

#ifndef __NVCC__
struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};
struct __attribute__((aligned(8))) int2 {
  int x, y;
};
#endif

// scale4 computes out[i] = a[i]*s + b[i] component-wise for i < n (float4 elements).
extern "C" __global__ void scale4(float4 *out, const float4 *a, const float4 *b, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 u = a[i], v = b[i];
  float4 r = {u.x * s + v.x, u.y * s + v.y, u.z * s + v.z, u.w * s + v.w};
  out[i] = r;
}

// swap2 computes out[i] = {in[i].y, in[i].x + in[i].y} for i < n (int2 elements, wrapping).
extern "C" __global__ void swap2(int2 *out, const int2 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int2 v = in[i];
  int2 r = {v.y, v.x + v.y};
  out[i] = r;
}
