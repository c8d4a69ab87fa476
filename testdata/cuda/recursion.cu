// recursion: non-inlined recursive device functions (real PTX call/ret with a call stack).

// fib returns the n-th Fibonacci number (fib(0)=0, fib(1)=1), recursively; n <= 1 returns n.
__device__ __noinline__ int fib(int n) {
  if (n <= 1)
    return n;
  return fib(n - 1) + fib(n - 2);
}

// tree_depth returns the depth of the implicit binary tree walk: depth(x) = 0 if x <= 1,
// else 1 + max(depth(x/2), depth(x/3)), recursively (two non-tail calls).
__device__ __noinline__ int tree_depth(unsigned x) {
  if (x <= 1)
    return 0;
  int a = tree_depth(x / 2);
  int b = tree_depth(x / 3);
  return 1 + (a > b ? a : b);
}

// gcd returns the greatest common divisor of a and b (gcd(a, 0) = a) by Euclid's recursion.
// Tail-recursive: clang may turn it into a loop.
__device__ __noinline__ unsigned gcd(unsigned a, unsigned b) {
  if (b == 0)
    return a;
  return gcd(b, a % b);
}

// recursion computes, for i < n (in[i] should be in [0, 25] to keep the call trees small):
// fibs[i] = fib(in[i]),
// depths[i] = tree_depth(in[i]), gcds[i] = gcd(in[i], in2[i]).
extern "C" __global__ void recursion(int *fibs, int *depths, unsigned *gcds, const int *in,
                                     const unsigned *in2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  fibs[i] = fib(in[i]);
  depths[i] = tree_depth((unsigned)in[i]);
  gcds[i] = gcd((unsigned)in[i], in2[i]);
}
