// its: kernels that need independent thread scheduling (sm_70 and newer): lanes of one warp
// that wait for each other. Each terminates on every GPU since Volta; on a strict
// reconvergence stack (pre-Volta) the first two never finish.

// spin_lock: every thread takes a global spin lock, increments *counter and adds its global
// index to *sum with plain loads and stores, and releases the lock.
extern "C" __global__ void spin_lock(int *lock, int *counter, int *sum) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  volatile int *c = counter, *s = sum;
  *c = *c + 1;
  *s = *s + g;
  __threadfence();
  atomicExch(lock, 0);
}

// lane_handoff: in each block, thread 0 sets flags[2b] = b + 1 and waits for flags[2b+1];
// thread 31 waits for flags[2b], then sets flags[2b+1] = 2 * (b + 1); both record what they
// saw: out[2b] = flags[2b+1] (seen by thread 0), out[2b+1] = flags[2b] (seen by thread 31).
// flags must start zeroed; blockDim.x >= 32.
extern "C" __global__ void lane_handoff(int *flags, int *out) {
  volatile int *f = flags + 2 * blockIdx.x;
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    f[0] = b + 1;
    while (f[1] == 0) {
    }
    out[2 * b] = f[1];
  } else if (threadIdx.x == 31) {
    while (f[0] == 0) {
    }
    f[1] = 2 * (b + 1);
    out[2 * b + 1] = f[0];
  }
}

// store_return_barrier: threads with t % 3 == 0 return at once; threads with t % 3 == 1 store
// out[g] = -t and return; the others stage in[g] in shared memory, wait at a barrier and
// store out[g] = s[u] + in[g], where u is t + 3 if that is below blockDim.x and 2 otherwise
// (blockDim.x >= 3). The threads that store and return do so while others of their warp wait
// at the barrier.
extern "C" __global__ void store_return_barrier(int *out, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (t % 3 == 0)
    return;
  if (t % 3 == 1) {
    out[g] = -t;
    return;
  }
  s[t] = in[g];
  __syncthreads();
  int u = t + 3 < (int)blockDim.x ? t + 3 : 2;
  out[g] = s[u] + in[g];
}

// syncwarp_both_sides: in each warp, the lanes below 16 and the others take different sides
// of a branch; each side stages a value in shared memory, calls __syncwarp() and reads the
// value of the lane 16 away on the other side: out[g] = in[g ^ 16] + 1000 for the lower
// half, in[g ^ 16] + 2000 for the upper. blockDim.x must be a multiple of 32.
extern "C" __global__ void syncwarp_both_sides(int *out, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  int v;
  if ((t & 31) < 16) {
    s[t] = in[g];
    __syncwarp();
    v = s[t ^ 16] + 1000;
  } else {
    s[t] = in[g];
    __syncwarp();
    v = s[t ^ 16] + 2000;
  }
  out[g] = v;
}
