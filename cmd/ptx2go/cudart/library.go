package main

// #include <stdlib.h>
// #include "cudart.h"
import "C"

import "unsafe"

// CUDA 12's context-independent loading (cuLibrary*, cuKernel*), which CUDA 12's runtime uses
// to load the fat binaries it registers. The drop-in has one device and contexts that share
// everything, so a library is a module (CUlibrary and CUmodule are the same handle) and a
// kernel is a function (CUkernel and CUfunction are too): cuLaunchKernel takes either, as the
// driver's does.

//export cuLibraryLoadData
func cuLibraryLoadData(lib *unsafe.Pointer, code unsafe.Pointer, jitOpts, jitVals unsafe.Pointer, nJit C.uint, libOpts, libVals unsafe.Pointer, nLib C.uint) (r C.int) {
	defer guard("cuLibraryLoadData", &r)()
	if lib == nil || code == nil {
		return errInvalidValue
	}
	if e := initialized(); e != success {
		return e
	}
	return loadModule(lib, append([]byte(nil), imageAt(code)...), nextModuleName())
}

//export cuLibraryLoadFromFile
func cuLibraryLoadFromFile(lib *unsafe.Pointer, name *C.char, jitOpts, jitVals unsafe.Pointer, nJit C.uint, libOpts, libVals unsafe.Pointer, nLib C.uint) (r C.int) {
	defer guard("cuLibraryLoadFromFile", &r)()
	return cuModuleLoad(lib, name)
}

//export cuLibraryUnload
func cuLibraryUnload(lib unsafe.Pointer) (r C.int) {
	defer guard("cuLibraryUnload", &r)()
	return cuModuleUnload(lib)
}

//export cuLibraryGetModule
func cuLibraryGetModule(m *unsafe.Pointer, lib unsafe.Pointer) (r C.int) {
	defer guard("cuLibraryGetModule", &r)()
	if m == nil {
		return errInvalidValue
	}
	if lookupModule(lib) == nil {
		return errInvalidResourceHandle
	}
	*m = lib
	return success
}

//export cuLibraryGetKernel
func cuLibraryGetKernel(k *unsafe.Pointer, lib unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuLibraryGetKernel", &r)()
	return cuModuleGetFunction(k, lib, name)
}

//export cuKernelGetFunction
func cuKernelGetFunction(f *unsafe.Pointer, k unsafe.Pointer) (r C.int) {
	defer guard("cuKernelGetFunction", &r)()
	if f == nil {
		return errInvalidValue
	}
	if lookupKernel(k) == nil {
		return errInvalidResourceHandle
	}
	*f = k
	return success
}

//export cuLibraryGetGlobal
func cuLibraryGetGlobal(dptr *C.ulonglong, size *C.size_t, lib unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuLibraryGetGlobal", &r)()
	return cuModuleGetGlobal_v2(dptr, size, lib, name)
}

// cuLibraryGetManaged finds a __managed__ variable: like every variable of a module it lives
// in host-visible memory, so its device address is also its host address.
//
//export cuLibraryGetManaged
func cuLibraryGetManaged(dptr *C.ulonglong, size *C.size_t, lib unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuLibraryGetManaged", &r)()
	return cuModuleGetGlobal_v2(dptr, size, lib, name)
}

//export cuKernelGetAttribute
func cuKernelGetAttribute(v *C.int, attr C.int, k unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cuKernelGetAttribute", &r)()
	if dev != 0 {
		return errInvalidDevice
	}
	return cuFuncGetAttribute(v, attr, k)
}

//export cuKernelSetAttribute
func cuKernelSetAttribute(attr, v C.int, k unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cuKernelSetAttribute", &r)()
	if dev != 0 {
		return errInvalidDevice
	}
	return cuFuncSetAttribute(k, attr, v)
}

// cuKernelSetCacheConfig accepts any preference: the CPU's caches are not configurable.
//
//export cuKernelSetCacheConfig
func cuKernelSetCacheConfig(k unsafe.Pointer, config C.int, dev C.int) (r C.int) {
	defer guard("cuKernelSetCacheConfig", &r)()
	if lookupKernel(k) == nil {
		return errInvalidResourceHandle
	}
	return success
}

// kernelNames holds the C strings cuKernelGetName and cuFuncGetName hand out, one per kernel,
// alive as long as the process.
var kernelNames = map[*kernel]*C.char{}

//export cuKernelGetName
func cuKernelGetName(name **C.char, k unsafe.Pointer) (r C.int) {
	defer guard("cuKernelGetName", &r)()
	return cuFuncGetName(name, k)
}

//export cuFuncGetName
func cuFuncGetName(name **C.char, f unsafe.Pointer) (r C.int) {
	defer guard("cuFuncGetName", &r)()
	if name == nil {
		return errInvalidValue
	}
	k := lookupKernel(f)
	if k == nil {
		return errInvalidResourceHandle
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	s, ok := kernelNames[k]
	if !ok {
		s = C.CString(k.name)
		kernelNames[k] = s
	}
	*name = s
	return success
}

//export cuKernelGetParamInfo
func cuKernelGetParamInfo(k unsafe.Pointer, index C.size_t, offset, size *C.size_t) (r C.int) {
	defer guard("cuKernelGetParamInfo", &r)()
	return cuFuncGetParamInfo(k, index, offset, size)
}

// cuFuncGetParamInfo gives the offset and size of a kernel parameter in its parameter buffer.
//
//export cuFuncGetParamInfo
func cuFuncGetParamInfo(f unsafe.Pointer, index C.size_t, offset, size *C.size_t) (r C.int) {
	defer guard("cuFuncGetParamInfo", &r)()
	k := lookupKernel(f)
	if k == nil {
		return errInvalidResourceHandle
	}
	if code := k.resolve(); code != success {
		return drv(code)
	}
	if int(index) >= len(k.prm) {
		return errInvalidValue
	}
	p := k.prm[index]
	if offset != nil {
		*offset = C.size_t(p.Offset)
	}
	if size != nil {
		*size = C.size_t(p.Size)
	}
	return success
}
