/* Plain C device functions for GCC's nvptx back end (gcc-12-offload-nvptx).
   Compiled as OpenMP "declare target" code so that GCC streams them to the
   nvptx offload compiler; `make gcc-ptx` writes testdata/ptx/gcc/funcs.ptx.
   Exercises: loops, a dense switch, recursion, float math, 64-bit integer
   math, an indirect call through a function pointer table, a global array
   with an initializer, and a local array (GCC's %frame in .local memory). */

#pragma omp declare target

/* Sum of squares 0..n-1: a simple counted loop. */
int sum_squares(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i * i;
  return s;
}

/* Dense switch: GCC's nvptx back end has no jump tables, so this becomes a
   compare-and-branch tree. */
int classify(int x)
{
  switch (x)
    {
    case 0: return 11;
    case 1: return 22;
    case 2: return 33;
    case 3: return 44;
    case 5: return 55;
    case 8: return 66;
    case 13: return 77;
    default: return -1;
    }
}

/* Recursion (not turned into a loop: two self calls). */
int fib(int n)
{
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

/* Recursion with an accumulator through memory. */
unsigned long long fact(unsigned int n)
{
  return n <= 1 ? 1ULL : n * fact(n - 1);
}

/* Floats: polynomial evaluation, division and a comparison. */
float poly(float x)
{
  float r = ((0.5f * x - 1.25f) * x + 3.0f) * x - 7.0f;
  if (r < 0.0f)
    r = -r / (x * x + 1.0f);
  return r;
}

double mean(const double *v, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return n > 0 ? s / n : 0.0;
}

/* 64-bit math: multiply, unsigned divide and remainder, shifts, rotate. */
unsigned long long mix64(unsigned long long a, unsigned long long b)
{
  unsigned long long h = a * 0x9E3779B97F4A7C15ULL + b;
  h ^= h >> 29;
  h = (h << 13) | (h >> 51);
  return h / (b | 1) + h % 1000003ULL;
}

long long sdiv64(long long a, long long b)
{
  return b == 0 ? 0 : a / b - a % b;
}

/* Indirect calls through a table of function pointers. */
static int add1(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int neg(int x) { return -x; }
static int (*const ops[3])(int) = { add1, dbl, neg };

int apply_op(int which, int x)
{
  return ops[(unsigned) which % 3](x);
}

/* A global table with an initializer and a local array in the frame. */
int primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };

int prime_window(int k)
{
  int tmp[4];
  for (int i = 0; i < 4; i++)
    tmp[i] = primes[(k + i) & 7];
  int s = 0;
  for (int i = 3; i >= 0; i--)
    s = s * 3 + tmp[i];
  return s;
}

#pragma omp end declare target
