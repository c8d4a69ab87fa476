// The allocation entry points whose callers leakcheck names (check.go): each passes the
// program's return address to its Go implementation. make cuda-stubs reads the //export lines.
#define _GNU_SOURCE
#include <dlfcn.h>
#include "cudart.h"
#include "_cgo_export.h"

//export cudaMalloc
int cudaMalloc(void **p, size_t size) { return ptx2goCudaMalloc(p, size, __builtin_return_address(0)); }

//export cuMemAlloc_v2
int cuMemAlloc_v2(unsigned long long *p, size_t size) {
    return ptx2goCuMemAlloc(p, size, __builtin_return_address(0));
}

int ptx2go_dladdr(void *pc, char **obj, void **obj_base, char **sym, void **sym_addr) {
    Dl_info info;
    // pc is a return address: the call is the instruction before it.
    if (!dladdr((char *)pc - 1, &info) || info.dli_fname == NULL)
        return 0;
    *obj = (char *)info.dli_fname;
    *obj_base = info.dli_fbase;
    *sym = (char *)info.dli_sname;
    *sym_addr = info.dli_saddr;
    return 1;
}
