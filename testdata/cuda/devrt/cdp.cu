// Dynamic parallelism: kernels that launch kernels (CUDA's device runtime), run by
// internal/e2e/semantics TestDynamicParallelism on both engines. Built with nvcc -rdc=true
// (make ptx writes testdata/ptx/devrt/cdp.ptx).

// node counts its threads at each depth; thread 0 of each block launches a grid of 2 blocks
// of 3 threads one level deeper, until max_depth.
extern "C" __global__ void node(int *count, int depth, int max_depth) {
    atomicAdd(&count[depth], 1);
    if (threadIdx.x == 0 && depth + 1 < max_depth)
        node<<<2, 3>>>(count, depth + 1, max_depth);
}

extern "C" __global__ void square(int *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
}

// sum_of_squares squares each block's n values in a child grid, waits for it with the
// device-side cudaDeviceSynchronize (deprecated, still in CUDA 11.8) and sums them.
extern "C" __global__ void sum_of_squares(int *v, int n, int *out) {
    int *mine = v + blockIdx.x * n;
    if (threadIdx.x == 0) {
        square<<<(n + 31) / 32, 32>>>(mine, n);
        cudaDeviceSynchronize();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < n; i++)
            s += mine[i];
        out[blockIdx.x] = s;
    }
}

extern "C" __global__ void step(int *x, int k) { x[k] = x[k - 1] * 3 + k; }

// chain launches n grids into one stream it creates: they run in launch order, each reading
// what the one before wrote. The stream is destroyed before the grids ran, as CUDA allows.
extern "C" __global__ void chain(int *x, int n) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int k = 1; k <= n; k++)
        step<<<1, 1, 0, s>>>(x, k);
    cudaStreamDestroy(s);
}

// bad_config launches a grid of too large blocks: the launch fails with
// cudaErrorInvalidConfiguration, which cudaGetLastError then returns once.
extern "C" __global__ void bad_config(int *err) {
    step<<<1, 2048>>>(err, 1);
    err[0] = cudaGetLastError();
    err[1] = cudaGetLastError();
}

// dive launches itself one level deeper without end, until the nesting depth limit stops it.
extern "C" __global__ void dive(int *deepest, int depth) {
    *deepest = depth;
    dive<<<1, 1>>>(deepest, depth + 1);
}
