// atomics: atomic read-modify-write on global memory. Results are order-independent as
// documented (or, where noted, determined only up to a permutation).

// histogram computes bins[(unsigned)data[i] % nbins] += 1 for every i < n (atomicAdd unsigned).
// bins must be zeroed (or hold prior counts) beforehand.
extern "C" __global__ void histogram(unsigned *bins, const int *data, int n, unsigned nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[(unsigned)data[i] % nbins], 1u);
}

// atomic_sum computes *isum += sum(xi[i]) (int atomicAdd) and *fsum += sum(xf[i]) (float
// atomicAdd) over i < n. The float sum is exact only if all partial sums are exactly
// representable (e.g. small integers); otherwise it depends on the order.
extern "C" __global__ void atomic_sum(int *isum, float *fsum, const int *xi, const float *xf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(isum, xi[i]);
    atomicAdd(fsum, xf[i]);
  }
}

// bucket_max computes mx[k] = max(mx[k], vals[i]) and mn[k] = min(mn[k], vals[i]) for each i < n
// with k = keys[i] (must be in range) (atomicMax / atomicMin, signed int).
extern "C" __global__ void bucket_max(int *mx, int *mn, const int *keys, const int *vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(&mx[keys[i]], vals[i]);
    atomicMin(&mn[keys[i]], vals[i]);
  }
}

// saturating_add adds each v[i] (i < n, must be >= 0) into *counter with an atomicCAS loop,
// clamping at cap: the final *counter is min(initial + sum(v), cap) when initial <= cap.
extern "C" __global__ void saturating_add(int *counter, const int *v, int n, int cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int old = *counter, assumed;
  do {
    assumed = old;
    long long want = (long long)assumed + v[i];
    int next = want > cap ? cap : (int)want;
    old = atomicCAS(counter, assumed, next);
  } while (old != assumed);
}

// compact appends every in[i] > 0 (i < n) to out[] at slot atomicAdd(count, 1); the final
// *count (if it starts at 0) is the number of positives and out[0..count) holds them in some order.
extern "C" __global__ void compact(int *out, int *count, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    out[atomicAdd(count, 1)] = in[i];
}

// exchange: each thread i < n swaps its id+1 into *slot with atomicExch and stores the previous
// value in prev[i]. Afterwards {prev[0..n), *slot} is a permutation of {initial, 1..n}.
extern "C" __global__ void exchange(int *slot, int *prev, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    prev[i] = atomicExch(slot, i + 1);
}
