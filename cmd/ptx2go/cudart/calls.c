// Calls into the program through the function pointers it hands to the drop-in: Go cannot
// call a C function pointer itself.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "cudart.h"
#include "_cgo_export.h"

typedef void (*stream_callback)(void *stream, int status, void *data);
typedef void (*host_fn)(void *data);

void ptx2go_call_stream_callback(void *fn, void *stream, int status, void *data) {
    ((stream_callback)fn)(stream, status, data);
}

void ptx2go_call_host_fn(void *fn, void *data) { ((host_fn)fn)(data); }

void *ptx2go_self_symbol(const char *name) {
    static void *self;
    if (self == NULL) {
        Dl_info info;
        if (!dladdr((void *)ptx2go_self_symbol, &info) || info.dli_fname == NULL)
            return NULL;
        self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (self == NULL)
            return NULL;
    }
    return dlsym(self, name);
}

unsigned long ptx2go_thread_id(void) { return (unsigned long)pthread_self(); }

void ptx2go_write_stdout(const void *p, size_t n) { fwrite(p, 1, n, stdout); }

void ptx2go_write_stderr(const void *p, size_t n) {
    fwrite(p, 1, n, stderr);
    fflush(stderr);
}

// The device output still pending when the program exits is printed before stdio is flushed:
// the handler is registered when the library is loaded, before the program's own constructors
// register theirs, so it runs after them.
__attribute__((constructor)) static void ptx2go_register_exit(void) { atexit(ptx2goAtExit); }
