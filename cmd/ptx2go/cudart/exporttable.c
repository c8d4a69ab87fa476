// The driver's private tables (cuGetExportTable) that NVIDIA's CUDA runtime, linked into a
// program with nvcc's default -cudart static, asks libcuda.so.1 for. They are undocumented;
// what each slot is and what the runtime expects of it is known from ZLUDA's study of them
// (vosen/ZLUDA, dark_api). A table is an array of pointers; most start with their own size in
// bytes. Every slot ptx2go does not implement holds a function that names the table and slot on
// stderr and returns CUDA_ERROR_NOT_SUPPORTED, so a runtime that calls it fails with a message
// instead of a crash.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart.h"
#include "_cgo_export.h"

// A slot ptx2go does not implement: it says which one was called, once, and returns 801.
#define MISSING_SLOT(table, slot)                                                              \
    static int missing_##table##_##slot(void) {                                                \
        static int warned;                                                                     \
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))                                \
            fprintf(stderr, "ptx2go: the CUDA runtime called slot %d of the driver's private table %s, which ptx2go does not implement; it returns error 801 (not supported)\n", slot, #table); \
        return 801;                                                                            \
    }

// CUDART_INTERFACE {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9}: module loading from the fat
// binaries the runtime registers, and the primary context.
MISSING_SLOT(CUDART_INTERFACE, 3)
MISSING_SLOT(CUDART_INTERFACE, 4)
MISSING_SLOT(CUDART_INTERFACE, 5)
MISSING_SLOT(CUDART_INTERFACE, 9)

// get_module_from_cubin loads a module from an nvcc fat binary wrapper (__fatBinC_Wrapper_t).
static int get_module_from_cubin(void **module, const void *wrapper) {
    return ptx2goLoadRuntimeModule(module, (void *)wrapper, "get_module_from_cubin");
}

// get_module_from_cubin_ext1 is get_module_from_cubin with arguments that concern host
// variables (__cudaRegisterHostVar); programs without them pass zeros.
static int get_module_from_cubin_ext1(void **module, const void *wrapper, void *a3, void *a4, unsigned a5) {
    if (a3 != NULL || a4 != NULL || a5 != 0)
        ptx2goPrivateSlotArgs("CUDART_INTERFACE", 6);
    return ptx2goLoadRuntimeModule(module, (void *)wrapper, "get_module_from_cubin_ext1");
}

// get_module_from_cubin_ext2 loads a module from a fat binary itself (its header first), with
// the module pointer second.
static int get_module_from_cubin_ext2(const void *fatbin, void **module, void *a3, void *a4, unsigned a5) {
    if (a3 != NULL || a4 != NULL || a5 != 0)
        ptx2goPrivateSlotArgs("CUDART_INTERFACE", 8);
    return ptx2goLoadRuntimeModule(module, (void *)fatbin, "get_module_from_cubin_ext2");
}

// primary_context retains the device's primary context for the runtime.
static int primary_context(void **ctx, int dev) { return cuDevicePrimaryCtxRetain(ctx, dev); }

// runtime_notice takes a value the runtime reports to the driver at start-up; there is nothing
// to do with it.
static int runtime_notice(size_t value) {
    (void)value;
    return 0;
}

static const void *cudart_interface[10] = {
    (void *)(10 * sizeof(void *)),
    (void *)get_module_from_cubin,
    (void *)primary_context,
    (void *)missing_CUDART_INTERFACE_3,
    (void *)missing_CUDART_INTERFACE_4,
    (void *)missing_CUDART_INTERFACE_5,
    (void *)get_module_from_cubin_ext1,
    (void *)runtime_notice,
    (void *)get_module_from_cubin_ext2,
    (void *)missing_CUDART_INTERFACE_9,
};

// TOOLS_TLS {42d85a81-23f6-cb47-8298-f6e78a3aecdc}: thread-local storage for profiling tools;
// the runtime only reads its size.
MISSING_SLOT(TOOLS_TLS, 1)
MISSING_SLOT(TOOLS_TLS, 2)
MISSING_SLOT(TOOLS_TLS, 3)
static const void *tools_tls[4] = {
    (void *)(4 * sizeof(void *)),
    (void *)missing_TOOLS_TLS_1,
    (void *)missing_TOOLS_TLS_2,
    (void *)missing_TOOLS_TLS_3,
};

// TOOLS_RUNTIME_CALLBACK_HOOKS {a094798c-2e74-2e74-93f2-0800200c0a66}: two buffers where the
// runtime keeps the callbacks profiling tools install. No tool is ever attached, so they stay
// zero; they only have to be big enough.
static uint64_t callback_hooks[1024];
static uint64_t callback_hooks_extra[16];

static void get_callback_hooks(void **p, size_t *n) {
    *p = callback_hooks;
    *n = 1024;
}

static void get_callback_hooks_extra(void **p, size_t *n) {
    *p = callback_hooks_extra;
    *n = 14;
}

MISSING_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 1)
MISSING_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 3)
MISSING_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 4)
MISSING_SLOT(TOOLS_RUNTIME_CALLBACK_HOOKS, 5)
static const void *tools_runtime_callback_hooks[7] = {
    (void *)(7 * sizeof(void *)),
    (void *)missing_TOOLS_RUNTIME_CALLBACK_HOOKS_1,
    (void *)get_callback_hooks,
    (void *)missing_TOOLS_RUNTIME_CALLBACK_HOOKS_3,
    (void *)missing_TOOLS_RUNTIME_CALLBACK_HOOKS_4,
    (void *)missing_TOOLS_RUNTIME_CALLBACK_HOOKS_5,
    (void *)get_callback_hooks_extra,
};

// CONTEXT_LOCAL_STORAGE_INTERFACE_V0301 {c693336e-1121-df11-a8c3-68f355d89593}: where the
// runtime keeps its state for each context, keyed by a pointer of its own (no size slot).
static int cls_put(void *ctx, void *key, void *value, void *dtor) {
    return ptx2goContextStoragePut(ctx, key, value, dtor);
}

static int cls_delete(void *ctx, void *key) { return ptx2goContextStorageDelete(ctx, key); }

static int cls_get(void **value, void *ctx, void *key) { return ptx2goContextStorageGet(value, ctx, key); }

MISSING_SLOT(CONTEXT_LOCAL_STORAGE_INTERFACE_V0301, 3)
static const void *context_local_storage[4] = {
    (void *)cls_put,
    (void *)cls_delete,
    (void *)cls_get,
    (void *)missing_CONTEXT_LOCAL_STORAGE_INTERFACE_V0301_3,
};

// CTX_CREATE_BYPASS {0ca50b8c-1004-929a-89a7-d0df10e77286}: cuCtxCreate_v2 without the hooks.
static int ctx_create_bypass(void **ctx, unsigned flags, int dev) { return cuCtxCreate_v2(ctx, flags, dev); }

static const void *ctx_create_bypass_table[2] = {
    (void *)(2 * sizeof(void *)),
    (void *)ctx_create_bypass,
};

// HEAP_ACCESS {195bcbf4-d67d-024a-acc5-1d29cea631ae}: small host records the runtime allocates
// through the driver; heap_free hands back the second value given to heap_alloc.
struct heap_record {
    size_t a, b;
};

static int heap_alloc(struct heap_record **record, size_t a, size_t b) {
    struct heap_record *r = malloc(sizeof *r);
    if (r == NULL)
        return 2; // CUDA_ERROR_OUT_OF_MEMORY
    r->a = a;
    r->b = b;
    *record = r;
    return 0;
}

static int heap_free(struct heap_record *record, size_t *b) {
    if (b != NULL)
        *b = record->b;
    free(record);
    return 0;
}

static const void *heap_access[3] = {
    (void *)(3 * sizeof(void *)),
    (void *)heap_alloc,
    (void *)heap_free,
};

// DEVICE_EXTENDED_RT {b10541e1-f7c7-c74a-9f64-f223be99f1e2}: device queries beyond the public
// API. Slot 13 writes a flag that a real GPU reports as 0.
static int device_flag(unsigned char *result, int dev) {
    (void)dev;
    *result = 0;
    return 0;
}

MISSING_SLOT(DEVICE_EXTENDED_RT, 1)
MISSING_SLOT(DEVICE_EXTENDED_RT, 2)
MISSING_SLOT(DEVICE_EXTENDED_RT, 3)
MISSING_SLOT(DEVICE_EXTENDED_RT, 4)
MISSING_SLOT(DEVICE_EXTENDED_RT, 5)
MISSING_SLOT(DEVICE_EXTENDED_RT, 6)
MISSING_SLOT(DEVICE_EXTENDED_RT, 7)
MISSING_SLOT(DEVICE_EXTENDED_RT, 8)
MISSING_SLOT(DEVICE_EXTENDED_RT, 9)
MISSING_SLOT(DEVICE_EXTENDED_RT, 10)
MISSING_SLOT(DEVICE_EXTENDED_RT, 11)
MISSING_SLOT(DEVICE_EXTENDED_RT, 12)
MISSING_SLOT(DEVICE_EXTENDED_RT, 14)
MISSING_SLOT(DEVICE_EXTENDED_RT, 15)
MISSING_SLOT(DEVICE_EXTENDED_RT, 16)
MISSING_SLOT(DEVICE_EXTENDED_RT, 17)
MISSING_SLOT(DEVICE_EXTENDED_RT, 18)
MISSING_SLOT(DEVICE_EXTENDED_RT, 19)
MISSING_SLOT(DEVICE_EXTENDED_RT, 20)
MISSING_SLOT(DEVICE_EXTENDED_RT, 21)
MISSING_SLOT(DEVICE_EXTENDED_RT, 22)
MISSING_SLOT(DEVICE_EXTENDED_RT, 23)
MISSING_SLOT(DEVICE_EXTENDED_RT, 24)
MISSING_SLOT(DEVICE_EXTENDED_RT, 25)
static const void *device_extended_rt[26] = {
    (void *)(26 * sizeof(void *)),
    (void *)missing_DEVICE_EXTENDED_RT_1,
    (void *)missing_DEVICE_EXTENDED_RT_2,
    (void *)missing_DEVICE_EXTENDED_RT_3,
    (void *)missing_DEVICE_EXTENDED_RT_4,
    (void *)missing_DEVICE_EXTENDED_RT_5,
    (void *)missing_DEVICE_EXTENDED_RT_6,
    (void *)missing_DEVICE_EXTENDED_RT_7,
    (void *)missing_DEVICE_EXTENDED_RT_8,
    (void *)missing_DEVICE_EXTENDED_RT_9,
    (void *)missing_DEVICE_EXTENDED_RT_10,
    (void *)missing_DEVICE_EXTENDED_RT_11,
    (void *)missing_DEVICE_EXTENDED_RT_12,
    (void *)device_flag,
    (void *)missing_DEVICE_EXTENDED_RT_14,
    (void *)missing_DEVICE_EXTENDED_RT_15,
    (void *)missing_DEVICE_EXTENDED_RT_16,
    (void *)missing_DEVICE_EXTENDED_RT_17,
    (void *)missing_DEVICE_EXTENDED_RT_18,
    (void *)missing_DEVICE_EXTENDED_RT_19,
    (void *)missing_DEVICE_EXTENDED_RT_20,
    (void *)missing_DEVICE_EXTENDED_RT_21,
    (void *)missing_DEVICE_EXTENDED_RT_22,
    (void *)missing_DEVICE_EXTENDED_RT_23,
    (void *)missing_DEVICE_EXTENDED_RT_24,
    (void *)missing_DEVICE_EXTENDED_RT_25,
};

// INTEGRITY_CHECK {d4082055-bde6-704b-8d34-ba123c66e1f2}: CUDA 12's runtime checks that it
// talks to a genuine driver by comparing a keyed hash of facts both sides know (integrity.go).
static const void *integrity_check_table[3];

static int integrity_check(unsigned version, unsigned long long unix_seconds, unsigned long long result[2]) {
    return ptx2goIntegrityCheck(version, unix_seconds, result, (void *)integrity_check_table,
                                (void *)cudart_interface, (void *)integrity_check_table[1]);
}

MISSING_SLOT(INTEGRITY_CHECK, 2)
static const void *integrity_check_table[3] = {
    (void *)(3 * sizeof(void *)),
    (void *)integrity_check,
    (void *)missing_INTEGRITY_CHECK_2,
};

// UNKNOWN_CHECKS {263e8860-7cd2-6143-92f6-bbd5006dfa7e}: checks of state bits that a real
// driver is never seen to set.
static int context_check(void *ctx, unsigned *r1, const void **r2) {
    (void)ctx;
    (void)r2;
    *r1 = 0;
    return 0;
}

static unsigned check_zero(void) { return 0; }

MISSING_SLOT(UNKNOWN_CHECKS, 1)
static const void *unknown_checks[4] = {
    (void *)(4 * sizeof(void *)),
    (void *)missing_UNKNOWN_CHECKS_1,
    (void *)context_check,
    (void *)check_zero,
};

static const struct {
    unsigned char uuid[16];
    const char *name;
    const void *const *table;
} export_tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, "CUDART_INTERFACE", cudart_interface},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, "TOOLS_TLS", tools_tls},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, "TOOLS_RUNTIME_CALLBACK_HOOKS", tools_runtime_callback_hooks},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}, "CONTEXT_LOCAL_STORAGE_INTERFACE_V0301", context_local_storage},
    {{0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86}, "CTX_CREATE_BYPASS", ctx_create_bypass_table},
    {{0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae}, "HEAP_ACCESS", heap_access},
    {{0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2}, "DEVICE_EXTENDED_RT", device_extended_rt},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, "INTEGRITY_CHECK", integrity_check_table},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, "UNKNOWN_CHECKS", unknown_checks},
};

const void *ptx2go_export_table(const unsigned char *uuid, const char **name) {
    for (size_t i = 0; i < sizeof export_tables / sizeof export_tables[0]; i++)
        if (memcmp(export_tables[i].uuid, uuid, 16) == 0) {
            *name = export_tables[i].name;
            return export_tables[i].table;
        }
    return NULL;
}

void ptx2go_call_storage_dtor(void *dtor, void *ctx, void *key, void *value) {
    ((void (*)(void *, void *, void *))dtor)(ctx, key, value);
}
