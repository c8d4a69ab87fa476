// A cooperative launch with grid-wide barriers (cooperative groups' grid.sync()) under the
// drop-in: every CTA writes its part, the grid synchronizes, and each CTA then reads what the
// others wrote, several rounds in a row. Without all CTAs running at once and a working
// barrier, the reads see stale values.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void rounds(int *v, int *sums, int n, int nrounds) {
    cg::grid_group grid = cg::this_grid();
    int i = grid.thread_rank();
    for (int r = 0; r < nrounds; r++) {
        if (i < n) v[i] = v[i] + r + 1;
        grid.sync();
        // Thread i sums the elements of the next CTA, written by another CTA before the sync.
        int base = ((blockIdx.x + 1) % gridDim.x) * blockDim.x;
        if (threadIdx.x == 0) {
            int s = 0;
            for (int j = 0; j < (int)blockDim.x && base + j < n; j++) s += v[base + j];
            sums[r * gridDim.x + blockIdx.x] = s;
        }
        grid.sync();
    }
}

int main() {
    int dev = 0, supported = 0, perSM = 0, sms = 0;
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 64, nrounds = 5;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, rounds, threads, 0);
    int blocks = perSM * sms < 8 ? perSM * sms : 8;
    int n = blocks * threads;
    int *v, *sums;
    cudaMalloc(&v, n * sizeof(int));
    cudaMemset(v, 0, n * sizeof(int));
    cudaMalloc(&sums, nrounds * blocks * sizeof(int));
    void *args[] = {&v, &sums, &n, (void *)&nrounds};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)rounds, blocks, threads, args, 0, 0);
    cudaError_t s = cudaDeviceSynchronize();
    int host[5 * 8];
    cudaMemcpy(host, sums, nrounds * blocks * sizeof(int), cudaMemcpyDeviceToHost);
    printf("cooperative attribute=%d blocks=%d launch=%s sync=%s\n", supported, blocks, cudaGetErrorName(e), cudaGetErrorName(s));
    for (int r = 0; r < nrounds; r++) {
        printf("round %d:", r);
        for (int b = 0; b < blocks; b++) printf(" %d", host[r * blocks + b]);
        printf("\n");
    }
    cudaError_t big = cudaLaunchCooperativeKernel((void *)rounds, perSM * sms + 1, threads, args, 0, 0);
    printf("too big: %s\n", cudaGetErrorName(big));
    return 0;
}
