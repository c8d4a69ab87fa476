// The driver API's JIT linker, in the style of cuda-samples' ptxjit: two PTX modules
// (link_kernel.ptx, whose kernel calls a function link_lib.ptx defines) joined at run time
// with cuLinkCreate, cuLinkAddFile, cuLinkAddData and cuLinkComplete, loaded with
// cuModuleLoadData and launched. Run by TestExecDriverAPI (cmd/ptx2go) with the directory of
// the PTX files as argument.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <cuda.h>

#define CHECK(call)                                                  \
    do {                                                             \
        CUresult e_ = (call);                                        \
        if (e_ != CUDA_SUCCESS) {                                    \
            const char *n_ = 0;                                      \
            cuGetErrorName(e_, &n_);                                 \
            printf("%s: %s\n", #call, n_ ? n_ : "?");                \
            exit(1);                                                 \
        }                                                            \
    } while (0)

static std::string readFile(const std::string &path) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) {
        printf("cannot open %s\n", path.c_str());
        exit(1);
    }
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    fclose(f);
    return s;
}

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    CHECK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, 0, dev));

    float walltime = -1;
    char info[1024] = "", errlog[1024] = "";
    CUjit_option opts[6] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    void *vals[6] = {&walltime, info, (void *)(size_t)sizeof info, errlog, (void *)(size_t)sizeof errlog, (void *)1};
    CUlinkState link;
    CHECK(cuLinkCreate(6, opts, vals, &link));
    CHECK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, (dir + "/link_kernel.ptx").c_str(), 0, 0, 0));
    std::string lib = readFile(dir + "/link_lib.ptx");
    CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)lib.c_str(), lib.size() + 1, "link_lib.ptx", 0, 0, 0));

    // A module that is not PTX is refused, with the reason in the error log.
    CUresult bad = cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)"not ptx", 8, "bad.ptx", 0, 0, 0);
    printf("bad input: %d, error log %s\n", (int)bad, errlog[0] ? "written" : "empty");

    void *cubin;
    size_t size;
    CHECK(cuLinkComplete(link, &cubin, &size));
    printf("linked: %s, wall time %s\n", strstr(info, "linked 2 PTX unit") ? "2 units" : info, walltime >= 0 ? "set" : "unset");
    CUmodule mod;
    CHECK(cuModuleLoadData(&mod, cubin));
    CHECK(cuLinkDestroy(link));
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, "saxpy"));

    const int n = 1000;
    float x[n], y[n];
    for (int i = 0; i < n; i++) {
        x[i] = i * 0.5f;
        y[i] = 1000 - i;
    }
    CUdeviceptr dx, dy;
    CHECK(cuMemAlloc(&dx, sizeof x));
    CHECK(cuMemAlloc(&dy, sizeof y));
    CHECK(cuMemcpyHtoD(dx, x, sizeof x));
    CHECK(cuMemcpyHtoD(dy, y, sizeof y));
    float a = 3;
    int nn = n;
    void *args[] = {&a, &dx, &dy, &nn};
    CHECK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, 0));
    CHECK(cuMemcpyDtoH(y, dy, sizeof y));
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += y[i];
    printf("y[0]=%g y[1]=%g y[999]=%g sum=%.1f\n", y[0], y[1], y[999], sum);
    CHECK(cuModuleUnload(mod));
    CHECK(cuCtxDestroy(ctx));
    return 0;
}
