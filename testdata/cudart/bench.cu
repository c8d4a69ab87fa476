// Overheads of the runtime API under a drop-in: the mean time of an empty kernel's launch and
// cudaDeviceSynchronize (argv[1] times, default 2000), and the bandwidth of cudaMemcpy of
// 256 MiB host to device, device to host and device to device (best of 3), from the host's
// clock.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void empty() {}

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    empty<<<1, 1>>>();
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    double t = now();
    for (int i = 0; i < iters; i++) {
        empty<<<1, 1>>>();
        cudaDeviceSynchronize();
    }
    t = now() - t;
    printf("empty kernel launch + synchronize: %.2f us (%d launches)\n", t / iters * 1e6, iters);

    size_t n = 256u << 20;
    char *h = (char *)malloc(n), *d, *d2;
    memset(h, 1, n);
    if (cudaMalloc(&d, n) != cudaSuccess || cudaMalloc(&d2, n) != cudaSuccess) return 1;
    const char *names[] = {"host to device", "device to host", "device to device"};
    for (int k = 0; k < 3; k++) {
        double best = 1e9;
        for (int r = 0; r < 3; r++) {
            double s = now();
            cudaError_t e = k == 0 ? cudaMemcpy(d, h, n, cudaMemcpyHostToDevice)
                          : k == 1 ? cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost)
                                   : cudaMemcpy(d2, d, n, cudaMemcpyDeviceToDevice);
            s = now() - s;
            if (e != cudaSuccess) return 1;
            if (s < best) best = s;
        }
        printf("cudaMemcpy 256 MiB %s: %.1f GB/s\n", names[k], n / best / 1e9);
    }
    return 0;
}
