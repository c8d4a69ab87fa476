// divergent_loop: loops whose trip count differs per thread.

// collatz_steps computes steps[i] = number of Collatz steps (x -> x/2 if even, 3x+1 if odd,
// in 64-bit unsigned arithmetic) to reach 1 from start[i], capped at 1000 (so 0 gives 1000
// and 1 gives 0), for i < n.
extern "C" __global__ void collatz_steps(int *steps, const unsigned *start, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long x = start[i];
  int s = 0;
  while (x != 1 && s < 1000) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    s++;
  }
  steps[i] = s;
}

// tid_hash computes out[i] = h for i < n, where i is the global thread index and
// h = 17; for k = 0 .. threadIdx.x (inclusive): h = h*31 + (k ^ seed[i])   (uint32, wrapping),
// so the trip count is threadIdx.x + 1 (not foldable to a closed form).
extern "C" __global__ void tid_hash(unsigned *out, const unsigned *seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned h = 17, s = seed[i];
  for (unsigned k = 0; k <= threadIdx.x; k++)
    h = h * 31 + (k ^ s);
  out[i] = h;
}
