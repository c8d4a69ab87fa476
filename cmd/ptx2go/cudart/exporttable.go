package main

// #include "cudart.h"
import "C"

import (
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"
)

// The Go half of the driver's private tables (exporttable.c), which NVIDIA's runtime linked
// into a program (-cudart static) uses instead of the registration entry points a -cudart
// shared program calls: it loads each translation unit's fat binary as a module of its own,
// keeps its per-context state in the driver, and, from CUDA 12, checks the driver's identity.

// cuGetExportTable hands out a private table by its UUID. An unknown UUID is named on stderr
// and gets CUDA_ERROR_NOT_SUPPORTED, as a driver that lacks the table answers.
//
//export cuGetExportTable
func cuGetExportTable(table *unsafe.Pointer, id *C.uchar) (r C.int) {
	defer guard("cuGetExportTable", &r)()
	if table == nil || id == nil {
		return errInvalidValue
	}
	var name *C.char
	p := C.ptx2go_export_table(id, &name)
	uuid := unsafe.Slice((*byte)(unsafe.Pointer(id)), 16)
	if p == nil {
		*table = nil
		warnOnce(fmt.Sprintf("cuGetExportTable(%s): the CUDA runtime asked for a private driver table ptx2go does not have; it returns error 801 (not supported)", uuidString(uuid)))
		return errNotSupported
	}
	traceDriver("cuGetExportTable(%s) = %s", uuidString(uuid), C.GoString(name))
	*table = p
	return success
}

// uuidString writes a table's UUID as the driver's headers write CUuuid values.
func uuidString(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// ptx2goLoadRuntimeModule loads the module of a fat binary the static runtime registered:
// image is nvcc's fat binary wrapper or a fat binary container.
//
//export ptx2goLoadRuntimeModule
func ptx2goLoadRuntimeModule(out *unsafe.Pointer, image unsafe.Pointer, slot *C.char) (r C.int) {
	defer guard(C.GoString(slot), &r)()
	if out == nil || image == nil {
		return errInvalidValue
	}
	if e := initialized(); e != success {
		return e
	}
	containers := imageAt(image)
	if len(containers) == 0 {
		return errInvalidKernelImage
	}
	return loadModule(out, append([]byte(nil), containers...), nextModuleName())
}

// nextModuleName names a program's modules in the order they are loaded: the program's name,
// then NAME.2, NAME.3, ..., so that the PTX files faults name tell them apart.
func nextModuleName() string {
	state.mu.Lock()
	defer state.mu.Unlock()
	state.nmods++
	if state.nmods > 1 {
		return fmt.Sprintf("%s.%d", programName(), state.nmods)
	}
	return programName()
}

// ptx2goPrivateSlotArgs reports arguments of a private table's slot that ptx2go ignores.
//
//export ptx2goPrivateSlotArgs
func ptx2goPrivateSlotArgs(table *C.char, slot C.int) {
	warnOnce(fmt.Sprintf("slot %d of the driver's private table %s got arguments ptx2go ignores (host variables)", slot, C.GoString(table)))
}

// contextStorage is the driver's context-local storage: values the runtime keeps per context
// under keys of its own, with the function to call when the context goes away.
var contextStorage = map[[2]uintptr]storedValue{}

type storedValue struct {
	key, value, dtor unsafe.Pointer
}

// storageContext is the context a storage call names: the current one when ctx is NULL.
func storageContext(ctx unsafe.Pointer) uintptr {
	if ctx != nil {
		return uintptr(ctx)
	}
	if n := len(ctxs.stack); n > 0 {
		return uintptr(ctxs.stack[n-1])
	}
	return uintptr(ctxs.primary)
}

//export ptx2goContextStoragePut
func ptx2goContextStoragePut(ctx, key, value, dtor unsafe.Pointer) (r C.int) {
	defer guard("context-local storage put", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	contextStorage[[2]uintptr{storageContext(ctx), uintptr(key)}] = storedValue{key, value, dtor}
	return success
}

//export ptx2goContextStorageDelete
func ptx2goContextStorageDelete(ctx, key unsafe.Pointer) (r C.int) {
	defer guard("context-local storage delete", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	delete(contextStorage, [2]uintptr{storageContext(ctx), uintptr(key)})
	return success
}

// ptx2goContextStorageGet returns the value stored under key, or CUDA_ERROR_INVALID_HANDLE
// when there is none, which tells the runtime to create its state for the context.
//
//export ptx2goContextStorageGet
func ptx2goContextStorageGet(value *unsafe.Pointer, ctx, key unsafe.Pointer) (r C.int) {
	defer guard("context-local storage get", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	v, ok := contextStorage[[2]uintptr{storageContext(ctx), uintptr(key)}]
	if !ok {
		return errInvalidResourceHandle
	}
	*value = v.value
	return success
}

// releaseContextStorage calls the destructors of the values stored for ctx and forgets them,
// as the driver does when a context is destroyed or reset.
func releaseContextStorage(ctx unsafe.Pointer) {
	state.mu.Lock()
	var drop []storedValue
	for k, v := range contextStorage {
		if k[0] == uintptr(ctx) {
			drop = append(drop, v)
			delete(contextStorage, k)
		}
	}
	state.mu.Unlock()
	for _, v := range drop {
		if v.dtor != nil {
			C.ptx2go_call_storage_dtor(v.dtor, ctx, v.key, v.value)
		}
	}
}

// ptx2goIntegrityCheck answers CUDA 12's runtime, which proves that it talks to NVIDIA's
// driver: both sides compute HMAC-MD2, with a fixed key, over the driver and runtime versions,
// the process and thread (pthread_self), the addresses of two private tables and of the check itself, the
// time the runtime passes, and each device's UUID and PCI location; the runtime compares the
// results. Versions whose last digit is 0 or 1 expect fixed values.
//
//export ptx2goIntegrityCheck
func ptx2goIntegrityCheck(version C.uint, unixSeconds C.ulonglong, result *C.ulonglong, checkTable, cudartTable, checkFn unsafe.Pointer) (r C.int) {
	defer guard("INTEGRITY_CHECK", &r)()
	out := unsafe.Slice((*uint64)(unsafe.Pointer(result)), 2)
	switch version % 10 {
	case 0:
		out[0], out[1] = 0x3341181C03CB675C, 0x8ED383AA1F4CD1E8
		return success
	case 1:
		out[0], out[1] = 0x1841181C03CB675C, 0x8ED383AA1F4CD1E8
		return success
	}
	var driverVersion C.int
	cudaDriverGetVersion(&driverVersion)
	msg := make([]byte, 0, 48+28)
	le := binary.LittleEndian
	msg = le.AppendUint32(msg, uint32(driverVersion))
	msg = le.AppendUint32(msg, uint32(version))
	msg = le.AppendUint32(msg, uint32(os.Getpid()))
	msg = le.AppendUint32(msg, uint32(C.ptx2go_thread_id()))
	msg = le.AppendUint64(msg, uint64(uintptr(cudartTable)))
	msg = le.AppendUint64(msg, uint64(uintptr(checkTable)))
	msg = le.AppendUint64(msg, uint64(uintptr(checkFn)))
	msg = le.AppendUint64(msg, uint64(unixSeconds))
	msg = append(msg, deviceUUID[:]...)
	for _, attr := range []C.int{attrPCIDomainID, attrPCIBusID, attrPCIDeviceID} {
		var v C.int
		cudaDeviceGetAttribute(&v, attr, 0)
		msg = le.AppendUint32(msg, uint32(v))
	}
	sum := hmacMD2(integrityKey, msg)
	out[0], out[1] = le.Uint64(sum[:8]), le.Uint64(sum[8:])
	traceDriver("INTEGRITY_CHECK(version %d)", version)
	return success
}

// integrityKey is the key of the integrity check's HMAC.
var integrityKey = [16]byte{0x14, 0x6A, 0xDD, 0xAE, 0x53, 0xA9, 0xA7, 0x52, 0xAA, 0x08, 0x41, 0x36, 0x0B, 0xF5, 0x5A, 0x9F}

// The PCI attributes of cuDeviceGetAttribute the integrity check hashes.
const (
	attrPCIBusID    = 33
	attrPCIDeviceID = 34
	attrPCIDomainID = 50
)

// traceDriver logs the drop-in's dealings with NVIDIA's static runtime when PTX2GO_CUDA_TRACE
// is set: the entry points and private tables it asks for.
func traceDriver(format string, args ...any) {
	if traceEnabled {
		fmt.Fprintf(os.Stderr, "ptx2go trace: "+format+"\n", args...)
	}
}

var traceEnabled = os.Getenv("PTX2GO_CUDA_TRACE") != ""
