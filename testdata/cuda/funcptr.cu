// funcptr: indirect calls through device function pointers (.callprototype + call through register).

typedef float (*binop_t)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }           // a + b
__device__ __noinline__ float op_sub(float a, float b) { return a - b; }           // a - b
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }           // a * b
__device__ __noinline__ float op_max(float a, float b) { return a > b ? a : b; }   // a > b ? a : b

// ops is a device-global table of function pointers, initialized with function addresses.
__device__ binop_t ops[4] = {op_add, op_sub, op_mul, op_max};

// funcptr computes out[i] = ops[sel[i] & 3](a[i], b[i]) for i < n
// (0: add, 1: sub, 2: mul, 3: max).
extern "C" __global__ void funcptr(float *out, const int *sel, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  binop_t f = ops[sel[i] & 3];
  out[i] = f(a[i], b[i]);
}

typedef int (*intop_t)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }       // 2x
__device__ __noinline__ int square(int x) { return x * x; }      // x*x
__device__ __noinline__ int negate(int x) { return -x; }         // -x

// funcptr_apply applies f to v `times` times, calling it indirectly.
__device__ __noinline__ int apply_n(intop_t f, int v, int times) {
  for (int k = 0; k < times; k++)
    v = f(v);
  return v;
}

// funcptr_tid computes out[i] = apply_n(f, in[i], 2) for i < n, where f is chosen by the thread
// index: threadIdx.x % 3 == 0 -> twice, 1 -> square, 2 -> negate (all int arithmetic, wrapping).
extern "C" __global__ void funcptr_tid(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned t = threadIdx.x % 3;
  intop_t f = t == 0 ? twice : (t == 1 ? square : negate);
  out[i] = apply_n(f, in[i], 2);
}
