// short_ifs: a kernel full of short ifs around memory accesses, which compilers keep as
// branches around a few instructions (a conditional load or store cannot become a select):
// clamps that store, boundary checks, a ternary that loads. Each divergent one is a short
// region that ptx2go runs predicated (docs/scheduling.md), as the GPU's compiler would.

// short_ifs clamps in[i] to [lo, hi] into out[i], counting the clamped elements of each side
// in count[0] (below) and count[1] (above), adds the right neighbour when there is one and it
// is positive, and takes the left neighbour instead of a negative element (the ternary):
//   x = in[i]; if (x < lo) { x = lo; count[0]++ } else if (x > hi) { x = hi; count[1]++ }
//   if (i + 1 < n && in[i+1] > 0) x += in[i+1]
//   x = x < 0 && i > 0 ? in[i-1] : x
//   if (flags[i] & 1) mark[i] = x; else if (flags[i] & 2) mark[i] = -x; (else mark[i] is kept)
//   out[i] = x
extern "C" __global__ void short_ifs(float *out, float *mark, int *count, const float *in, const int *flags,
                                     int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  if (x < lo) {
    x = lo;
    atomicAdd(&count[0], 1);
  } else if (x > hi) {
    x = hi;
    atomicAdd(&count[1], 1);
  }
  if (i + 1 < n) {
    float r = in[i + 1];
    if (r > 0.0f)
      x += r;
  }
  x = x < 0.0f && i > 0 ? in[i - 1] : x;
  int f = flags[i];
  if (f & 1)
    mark[i] = x;
  else if (f & 2)
    mark[i] = -x;
  out[i] = x;
}
