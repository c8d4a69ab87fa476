// STUB(name) defines an entry point of libcudart or libcuda that the drop-in does not
// implement: it returns cudaErrorNotSupported / CUDA_ERROR_NOT_SUPPORTED (both 801), which a
// runtime API function also records as the thread's last error (cudaGetLastError), and says
// once on stderr which function was called. The arguments, whatever they are, are ignored:
// the caller pops them, as the x86-64 and AArch64 C calling conventions have it.
#include <stdio.h>

#include "_cgo_export.h"

#define STUB(name)                                                                          \
    int name(void) {                                                                        \
        static int warned;                                                                  \
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))                             \
            fprintf(stderr, "ptx2go: %s is not supported; it returns error 801 (not supported)\n", #name); \
        if (__builtin_strncmp(#name, "cuda", 4) == 0)                                       \
            ptx2goUnsupportedCall();                                                        \
        return 801;                                                                         \
    }
