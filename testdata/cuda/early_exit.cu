// early_exit: early returns from divergent paths inside loops, and a function with many returns.

// classify returns -1 for x < 0, 0 for x == 0, 1 for 0 < x < 100, 2 for 100 <= x < 10000,
// and 3 otherwise (multiple return statements; kept out of line).
__device__ __noinline__ int classify(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  if (x < 100)
    return 1;
  if (x < 10000)
    return 2;
  return 3;
}

// find_first searches row r (r < rows) of the row-major rows x cols matrix data, left to right:
//   at the first column c with data[r*cols+c] == target it stores out[r] = c and returns;
//   at the first column c with data[r*cols+c] < 0 (before any match) it stores out[r] = -2 - c
//   and returns; if neither happens, out[r] = -1. Here r = global thread index.
extern "C" __global__ void find_first(int *out, const int *data, int rows, int cols, int target) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  for (int c = 0; c < cols; c++) {
    int v = data[r * cols + c];
    if (v == target) {
      out[r] = c;
      return;
    }
    if (v < 0) {
      out[r] = -2 - c;
      return;
    }
  }
  out[r] = -1;
}

// classify_sum computes, for i < n, out[i] = sum of classify(in[k]) for k = i, i+1, ... < n,
// stopping early (after adding) at the first k whose classify value is 3.
extern "C" __global__ void classify_sum(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int s = 0;
  for (int k = i; k < n; k++) {
    int c = classify(in[k]);
    s += c;
    if (c == 3)
      break;
  }
  out[i] = s;
}
