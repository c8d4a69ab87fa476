// switch_dense: dense switch statements on data values.

// switch_dense computes, for i < n with v = in[i]:
//   v&7 == 0: out = v + i          1: out = v * 3            2: out = v ^ 0x55
//          3: out = v << 2         4: out = i - v            5: out = v / 7 (int division)
//          6: out = v * v          7: out = ~v
// and stores it to out[i]; the switch is on v & 7 (covers all values, each case different code,
// so clang may use a jump table, brx.idx, or a compare chain).
extern "C" __global__ void switch_dense(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i], r;
  switch (v & 7) {
  case 0: r = v + i; break;
  case 1: r = v * 3; break;
  case 2: r = v ^ 0x55; break;
  case 3: r = v << 2; break;
  case 4: r = i - v; break;
  case 5: r = v / 7; break;
  case 6: r = v * v; break;
  default: r = ~v; break;
  }
  out[i] = r;
}

// switch_default computes out[i] for i < n from v = in[i]:
//   v in 0..8: out = {10, 21, 32, 43, 54, 65, 76, 87, 98}[v] (constant per case),
//   otherwise out = -1.
// Constant cases: clang may turn the switch into a lookup table (a .global constant array).
extern "C" __global__ void switch_default(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int r;
  switch (in[i]) {
  case 0: r = 10; break;
  case 1: r = 21; break;
  case 2: r = 32; break;
  case 3: r = 43; break;
  case 4: r = 54; break;
  case 5: r = 65; break;
  case 6: r = 76; break;
  case 7: r = 87; break;
  case 8: r = 98; break;
  default: r = -1; break;
  }
  out[i] = r;
}
