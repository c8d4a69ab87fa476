package main

// #include "cudart.h"
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/cmd/ptx2go/cudart/fatbin"
)

// __cudaRegisterFatBinary receives a translation unit's fat binary wrapper at start-up and
// returns the handle that the unit's other registrations name. The PTX is compiled when it is
// first needed.
//
//export __cudaRegisterFatBinary
func __cudaRegisterFatBinary(fatCubin unsafe.Pointer) unsafe.Pointer {
	w := (*C.ptx2go_fatbin_wrapper)(fatCubin)
	h := handle()
	m := &module{}
	if w != nil && uint32(w.magic) == fatbin.WrapperMagic && w.data != nil {
		m.image = wrapperContainers(w)
	}
	m.name = nextModuleName()
	state.mu.Lock()
	state.modules[uintptr(h)] = m
	state.mu.Unlock()
	return h
}

//export __cudaRegisterFatBinaryEnd
func __cudaRegisterFatBinaryEnd(h unsafe.Pointer) {}

//export __cudaUnregisterFatBinary
func __cudaUnregisterFatBinary(h unsafe.Pointer) {}

// __cudaRegisterFunction ties a kernel's host stub, which the program launches, to its name in
// the fat binary.
//
//export __cudaRegisterFunction
func __cudaRegisterFunction(h unsafe.Pointer, hostFun *C.char, deviceFun *C.char, deviceName *C.char, threadLimit C.int, tid, bid, bDim, gDim unsafe.Pointer, wSize *C.int) {
	state.mu.Lock()
	defer state.mu.Unlock()
	m := state.modules[uintptr(h)]
	if m == nil {
		return
	}
	state.kernels[uintptr(unsafe.Pointer(hostFun))] = &kernel{mod: m, name: C.GoString(deviceFun)}
}

// __cudaRegisterVar ties a __device__ or __constant__ variable's host shadow, which
// cudaMemcpyToSymbol and friends take, to its name in the fat binary.
//
//export __cudaRegisterVar
func __cudaRegisterVar(h unsafe.Pointer, hostVar *C.char, deviceAddress *C.char, deviceName *C.char, ext C.int, size C.size_t, constant C.int, global C.int) {
	state.mu.Lock()
	defer state.mu.Unlock()
	m := state.modules[uintptr(h)]
	if m == nil {
		return
	}
	state.vars[uintptr(unsafe.Pointer(hostVar))] = &variable{mod: m, name: C.GoString(deviceName), size: int(size)}
}

// __cudaRegisterManagedVar registers a __managed__ variable. nvcc's host code reaches it
// through a pointer, *hostVarPtrAddress, that __cudaInitModule sets before the first access.
//
//export __cudaRegisterManagedVar
func __cudaRegisterManagedVar(h unsafe.Pointer, hostVarPtrAddress *unsafe.Pointer, deviceAddress *C.char, deviceName *C.char, ext C.int, size C.size_t, constant C.int, global C.int) {
	state.mu.Lock()
	defer state.mu.Unlock()
	m := state.modules[uintptr(h)]
	if m == nil {
		return
	}
	v := &variable{mod: m, name: C.GoString(deviceName), size: int(size)}
	state.managed[uintptr(h)] = append(state.managed[uintptr(h)], managedVar{v: v, ptr: hostVarPtrAddress})
}

// managedVar is a registered __managed__ variable and where the program keeps its address.
type managedVar struct {
	v   *variable
	ptr *unsafe.Pointer
}

// __cudaInitModule loads the fat binary's module onto the device and points the program's
// pointers to its __managed__ variables at them: they live in host-visible memory
// (runtime.Global.Managed), so the host dereferences the address kernels use. It returns 1
// on success; nvcc's host code calls it again while it returns 0.
//
//export __cudaInitModule
func __cudaInitModule(h unsafe.Pointer) C.char {
	state.mu.Lock()
	vars := state.managed[uintptr(h)]
	state.mu.Unlock()
	for _, mv := range vars {
		p, _, code := mv.v.addr()
		if code != success {
			return 0
		}
		*mv.ptr = devPtr(p)
	}
	return 1
}

// __cudaPushCallConfiguration saves a launch's <<<grid, block, shared, stream>>> for the
// kernel's host stub, which pops it and calls cudaLaunchKernel. Each host thread has its own
// stack, so threads may launch at the same time.
//
//export __cudaPushCallConfiguration
func __cudaPushCallConfiguration(grid, block C.ptx2go_dim3, shared C.size_t, stream unsafe.Pointer) C.uint {
	id := C.ptx2go_thread_id()
	state.mu.Lock()
	defer state.mu.Unlock()
	state.configs[id] = append(state.configs[id], launchConfig{grid, block, shared, stream})
	return 0
}

//export __cudaPopCallConfiguration
func __cudaPopCallConfiguration(grid, block *C.ptx2go_dim3, shared *C.size_t, stream *unsafe.Pointer) (r C.int) {
	defer guard("__cudaPopCallConfiguration", &r)()
	id := C.ptx2go_thread_id()
	state.mu.Lock()
	defer state.mu.Unlock()
	cs := state.configs[id]
	n := len(cs)
	if n == 0 {
		return errInvalidConfiguration
	}
	c := cs[n-1]
	state.configs[id] = cs[:n-1]
	*grid, *block, *shared, *stream = c.grid, c.block, c.shared, c.stream
	return success
}

// wrapperContainers copies the fat binary containers nvcc's fat binary wrapper w points to. A
// wrapper of version 2 comes from nvcc's device link step (-rdc): its data is the linked image
// with libcudadevrt's relocatable code (PTX for the newest architecture, never launched), and
// filename_or_fatbins a NULL-terminated list of the translation units' own fat binaries, which
// hold the program's PTX.
func wrapperContainers(w *C.ptx2go_fatbin_wrapper) []byte {
	if w.data == nil {
		return nil
	}
	if w.version != 2 || w.filename_or_fatbins == nil {
		return containerAt(unsafe.Pointer(w.data))
	}
	var image []byte
	for _, p := range unsafe.Slice((*unsafe.Pointer)(w.filename_or_fatbins), 1<<16) {
		if p == nil {
			break
		}
		image = append(image, containerAt(p)...)
	}
	return image
}

// containerAt copies the fat binary container at p, whose size is in its header; nil if there
// is none.
func containerAt(p unsafe.Pointer) []byte {
	n, err := fatbin.Size(unsafe.Slice((*byte)(p), 16))
	if err != nil {
		return nil
	}
	return append([]byte(nil), unsafe.Slice((*byte)(p), n)...)
}
