// CUDA graphs: a graph built node by node (a 1D copy, a memset of 4-byte elements, a kernel, a
// 3D copy back, a host function, an empty node ordered before the kernel with
// cudaGraphAddDependencies), instantiated and launched, its kernel's parameters changed in
// the instantiated graph and through cudaGraphExecUpdate, cloned, and run as a child graph;
// then a stream capture that forks onto a second stream and joins it back with events, and
// the capture errors; and cudaMemcpy3D of a box out of a pitched allocation. Each run's host
// node prints the sum of y = fill + a*x for the x and a it used.
#include <cstdio>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e = (call);                                                            \
        if (e != cudaSuccess) {                                                            \
            printf("%s failed: %s\n", #call, cudaGetErrorName(e));                         \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

__global__ void axpy(int *y, const int *x, int a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

const int n = 1000;
static int hx[n], hy[n];
static long long sum = -1;

static void CUDART_CB sumY(void *) {
    sum = 0;
    for (int i = 0; i < n; i++) sum += hy[i];
}

static cudaKernelNodeParams axpyParams(void **args) {
    cudaKernelNodeParams p = {};
    p.func = (void *)axpy;
    p.gridDim = dim3((n + 127) / 128);
    p.blockDim = dim3(128);
    p.kernelParams = args;
    return p;
}

int main() {
    for (int i = 0; i < n; i++) hx[i] = i % 17;
    int *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(int)));
    CHECK(cudaMalloc(&dy, n * sizeof(int)));
    int nn = n, a = 2;

    cudaGraph_t g;
    cudaGraphNode_t cp, set, k, back, host, empty;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemcpyNode1D(&cp, g, NULL, 0, dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    cudaMemsetParams mp = {};
    mp.dst = dy;
    mp.value = 3;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    void *args[] = {&dy, &dx, &a, &nn};
    cudaKernelNodeParams kp = axpyParams(args);
    cudaGraphNode_t deps[] = {cp, set};
    CHECK(cudaGraphAddKernelNode(&k, g, deps, 2, &kp));
    cudaMemcpy3DParms bp = {};
    bp.srcPtr = make_cudaPitchedPtr(dy, sizeof hy, n, 1);
    bp.dstPtr = make_cudaPitchedPtr(hy, sizeof hy, n, 1);
    bp.extent = make_cudaExtent(sizeof hy, 1, 1);
    bp.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddMemcpyNode(&back, g, &k, 1, &bp));
    cudaHostNodeParams hp = {sumY, NULL};
    CHECK(cudaGraphAddHostNode(&host, g, &back, 1, &hp));
    CHECK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    CHECK(cudaGraphAddDependencies(g, &empty, &k, 1));
    size_t nodes = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &nodes));
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    cudaGraphNodeType tk, th;
    CHECK(cudaGraphNodeGetType(k, &tk));
    CHECK(cudaGraphNodeGetType(host, &th));
    printf("manual: nodes=%zu roots=%zu kernel type=%d host type=%d\n", nodes, roots, (int)tk, (int)th);

    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, NULL, NULL, 0));
    a = 100; // the nodes hold copies of the parameter values
    for (int i = 0; i < 2; i++) {
        sum = -1;
        CHECK(cudaGraphLaunch(x, s1));
        CHECK(cudaStreamSynchronize(s1));
        printf("launch %d: a=2 sum=%lld\n", i, sum);
    }
    a = 5;
    CHECK(cudaGraphExecKernelNodeSetParams(x, k, &kp));
    CHECK(cudaGraphLaunch(x, s1));
    printf("exec set params: a=5 sum=%lld\n", sum);
    a = 7;
    CHECK(cudaGraphKernelNodeSetParams(k, &kp));
    cudaGraphExecUpdateResult res;
    cudaGraphNode_t bad;
    CHECK(cudaGraphExecUpdate(x, g, &bad, &res));
    CHECK(cudaGraphLaunch(x, s1));
    printf("exec update: result=%d a=7 sum=%lld\n", (int)res, sum);

    cudaGraph_t clone, parent;
    cudaGraphExec_t cx, px;
    CHECK(cudaGraphClone(&clone, g));
    CHECK(cudaGraphInstantiate(&cx, clone, NULL, NULL, 0));
    sum = -1;
    CHECK(cudaGraphLaunch(cx, s1));
    printf("clone: a=7 sum=%lld\n", sum);
    cudaGraphNode_t child;
    CHECK(cudaGraphCreate(&parent, 0));
    CHECK(cudaGraphAddChildGraphNode(&child, parent, NULL, 0, g));
    CHECK(cudaGraphInstantiate(&px, parent, NULL, NULL, 0));
    sum = -1;
    CHECK(cudaGraphLaunch(px, s1));
    CHECK(cudaGraphNodeGetType(child, &tk));
    printf("child graph: type=%d a=7 sum=%lld\n", (int)tk, sum);

    // Capture: s1 forks s2, which clears y while s1 copies x; s1 waits for s2, then runs the kernel.
    cudaEvent_t fork, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    cudaGraph_t cg;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st1, st2;
    CHECK(cudaStreamIsCapturing(s1, &st1));
    CHECK(cudaStreamIsCapturing(s2, &st2));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaMemcpyAsync(dx, hx, sizeof hx, cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemsetAsync(dy, 0, sizeof hy, s2));
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    axpy<<<(n + 127) / 128, 128, 0, s1>>>(dy, dx, 4, n);
    CHECK(cudaMemcpyAsync(hy, dy, sizeof hy, cudaMemcpyDeviceToHost, s1));
    sum = -1;
    CHECK(cudaLaunchHostFunc(s1, sumY, NULL));
    long long early = sum;
    CHECK(cudaStreamEndCapture(s1, &cg));
    CHECK(cudaGraphGetNodes(cg, NULL, &nodes));
    CHECK(cudaGraphGetRootNodes(cg, NULL, &roots));
    printf("capture: status %d %d, ran while capturing=%d nodes=%zu roots=%zu\n", (int)st1, (int)st2, early != -1, nodes, roots);
    cudaGraphExec_t gx;
    CHECK(cudaGraphInstantiate(&gx, cg, NULL, NULL, 0));
    CHECK(cudaGraphLaunch(gx, s2));
    CHECK(cudaStreamSynchronize(s2));
    printf("captured graph: a=4 sum=%lld\n", sum);
    cudaGraph_t none;
    printf("end capture of a stream not capturing: %s\n", cudaGetErrorName(cudaStreamEndCapture(s2, &none)));
    printf("capture the legacy stream: %s\n", cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
    cudaGetLastError();

    // cudaMemcpy3D: a box of 3 ints by 2 rows by 2 slices at (x=2 ints, y=1, z=1) of an 8x4x3 array.
    int box[2][2][3];
    cudaPitchedPtr src = make_cudaPitchedPtr(dx, 8 * sizeof(int), 8, 4);
    cudaMemcpy3DParms p3 = {};
    p3.srcPtr = src;
    p3.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
    p3.dstPtr = make_cudaPitchedPtr(box, 3 * sizeof(int), 3, 2);
    p3.extent = make_cudaExtent(3 * sizeof(int), 2, 2);
    p3.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p3));
    long long bsum = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int i = 0; i < 3; i++) bsum = bsum * 3 + box[z][y][i];
    printf("memcpy3D: box hash=%lld\n", bsum);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(cx));
    CHECK(cudaGraphExecDestroy(px));
    CHECK(cudaGraphExecDestroy(gx));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(clone));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(cg));
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
