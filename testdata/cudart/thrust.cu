// Thrust on device vectors: sort (CUB's device-wide radix sort, whose passes chain their CTAs
// through decoupled look-back: a CTA spins on the flags of the CTAs before it), reduce,
// transform, inclusive_scan and sort_by_key, each checked against the C++ standard library on
// the host. It prints one line per algorithm and the values the test recomputes.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <vector>

struct square_mod {
  __host__ __device__ int operator()(int x) const { return (x % 1000) * (x % 1000) % 1000; }
};

struct mod97 {
  __host__ __device__ int operator()(int x) const { return x % 97; }
};

int main() {
  const int n = 100000;
  thrust::host_vector<int> h(n);
  unsigned r = 1;
  for (int i = 0; i < n; i++) {
    r = r * 1103515245u + 12345u;
    h[i] = (int)(r >> 8) % 100000 - 50000;
  }
  thrust::device_vector<int> d = h;
  thrust::sort(d.begin(), d.end());
  thrust::host_vector<int> sorted = d;
  std::vector<int> ref(h.begin(), h.end());
  std::sort(ref.begin(), ref.end());
  printf("sort %s min=%d median=%d max=%d\n", std::equal(ref.begin(), ref.end(), sorted.begin()) ? "ok" : "WRONG",
         (int)sorted[0], (int)sorted[n / 2], (int)sorted[n - 1]);

  long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
  printf("reduce %s sum=%lld\n", sum == std::accumulate(ref.begin(), ref.end(), 0LL) ? "ok" : "WRONG", sum);

  thrust::device_vector<int> t(n);
  thrust::transform(d.begin(), d.end(), t.begin(), square_mod());
  thrust::inclusive_scan(t.begin(), t.end(), t.begin());
  thrust::host_vector<int> scanned = t;
  std::vector<int> want(n);
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += (ref[i] % 1000) * (ref[i] % 1000) % 1000;
    want[i] = acc;
  }
  printf("transform+scan %s last=%d\n", std::equal(want.begin(), want.end(), scanned.begin()) ? "ok" : "WRONG",
         (int)scanned[n - 1]);

  // Keys: the scan's values mod 97, descending; the values, the sorted inputs, follow them
  // stably (thrust's sort_by_key on integer keys is a stable radix sort).
  thrust::transform(t.begin(), t.end(), t.begin(), mod97());
  thrust::sort_by_key(t.begin(), t.end(), d.begin(), thrust::greater<int>());
  thrust::host_vector<int> keys = t, vals = d;
  std::vector<std::pair<int, int>> pairs(n);
  for (int i = 0; i < n; i++)
    pairs[i] = {want[i] % 97, ref[i]};
  std::stable_sort(pairs.begin(), pairs.end(), [](auto a, auto b) { return a.first > b.first; });
  bool ok = true;
  for (int i = 0; i < n; i++)
    ok = ok && keys[i] == pairs[i].first && vals[i] == pairs[i].second;
  printf("sort_by_key %s first=%d,%d\n", ok ? "ok" : "WRONG", (int)keys[0], (int)vals[0]);
  return 0;
}
