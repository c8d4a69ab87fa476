// libcudart.so.12's own definitions: the runtime API functions CUDA 12 kept the names of but
// gave other arguments or results. A CUDA 12 program's references (cudaGraphInstantiate@
// libcudart.so.12) find these first; everything else resolves to libptx2go-cuda.so, which
// implements CUDA 11's meaning of these names for libcudart.so.11.0's programs.

int ptx2goCuda12GraphInstantiate(void **exec, void *graph, unsigned long long flags);
int ptx2goCuda12GraphExecUpdate(void *exec, void *graph, void *resultInfo);
int ptx2goCuda12GetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags, int *status);
int ptx2goCuda12RuntimeVersion(int *version);

int cudaGraphInstantiate(void **exec, void *graph, unsigned long long flags) {
    return ptx2goCuda12GraphInstantiate(exec, graph, flags);
}

int cudaGraphExecUpdate(void *exec, void *graph, void *resultInfo) {
    return ptx2goCuda12GraphExecUpdate(exec, graph, resultInfo);
}

int cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags, int *status) {
    return ptx2goCuda12GetDriverEntryPoint(symbol, fn, flags, status);
}

int cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn, unsigned long long flags, int *status) {
    return ptx2goCuda12GetDriverEntryPoint(symbol, fn, flags, status);
}

int cudaRuntimeGetVersion(int *version) { return ptx2goCuda12RuntimeVersion(version); }
