package main

// #cgo LDFLAGS: -ldl
// #include <string.h>
// #include "cudart.h"
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"

	"github.com/ptx2go/ptx2go/cmd/ptx2go/cudart/fatbin"
	"github.com/ptx2go/ptx2go/runtime"
)

// The driver API (libcuda.so.1). Its handles are the runtime API's: one device, contexts that
// all share its memory, modules loaded from PTX or fat binaries, functions that are kernels.

// drv maps a runtime API error to the driver API's CUresult, which shares the numbers of the
// errors both have.
func drv(e cudaError) C.int {
	switch e {
	case errInvalidConfiguration, errInvalidPitchValue, errInvalidDevicePointer, errInvalidMemcpyDirection:
		return errInvalidValue
	case errInvalidDeviceFunction:
		return errInvalidResourceHandle
	case errInvalidSymbol:
		return errSymbolNotFound
	}
	return e
}

// ctxs holds the driver API's contexts: the primary context and those cuCtxCreate made, with
// the stack of current contexts.
var ctxs struct {
	primary unsafe.Pointer
	created map[uintptr]bool
	stack   []unsafe.Pointer
	inited  bool
}

//export cuInit
func cuInit(flags C.uint) (r C.int) {
	defer guard("cuInit", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	if !ctxs.inited {
		ctxs.inited = true
		ctxs.primary = handle()
		ctxs.created = map[uintptr]bool{}
	}
	return success
}

// initialized returns CUDA_ERROR_NOT_INITIALIZED before cuInit, else the sticky error.
func initialized() C.int {
	state.mu.Lock()
	ok := ctxs.inited
	state.mu.Unlock()
	if !ok {
		return errInitializationError
	}
	return drv(stickyErr())
}

//export cuDriverGetVersion
func cuDriverGetVersion(v *C.int) (r C.int) {
	defer guard("cuDriverGetVersion", &r)()
	return cudaDriverGetVersion(v)
}

//export cuDeviceGet
func cuDeviceGet(d *C.int, ordinal C.int) (r C.int) {
	defer guard("cuDeviceGet", &r)()
	if e := initialized(); e != success {
		return e
	}
	if ordinal != 0 {
		return errInvalidDevice
	}
	*d = 0
	return success
}

//export cuDeviceGetCount
func cuDeviceGetCount(n *C.int) (r C.int) {
	defer guard("cuDeviceGetCount", &r)()
	if e := initialized(); e != success {
		return e
	}
	*n = 1
	return success
}

//export cuDeviceGetName
func cuDeviceGetName(name *C.char, n C.int, d C.int) (r C.int) {
	defer guard("cuDeviceGetName", &r)()
	if d != 0 {
		return errInvalidDevice
	}
	if n <= 0 {
		return errInvalidValue
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(name)), int(n))
	b[copy(b[:len(b)-1], deviceName)] = 0
	return success
}

//export cuDeviceTotalMem_v2
func cuDeviceTotalMem_v2(size *C.size_t, d C.int) (r C.int) {
	defer guard("cuDeviceTotalMem_v2", &r)()
	if d != 0 {
		return errInvalidDevice
	}
	*size = C.size_t(totalMem())
	return success
}

//export cuDeviceGetAttribute
func cuDeviceGetAttribute(v *C.int, attr C.int, d C.int) (r C.int) {
	defer guard("cuDeviceGetAttribute", &r)()
	return drv(cudaDeviceGetAttribute(v, attr, d))
}

//export cuDeviceComputeCapability
func cuDeviceComputeCapability(major, minor *C.int, d C.int) (r C.int) {
	defer guard("cuDeviceComputeCapability", &r)()
	*major, *minor = ccMajor, ccMinor
	return success
}

//export cuDeviceGetUuid
func cuDeviceGetUuid(uuid *C.char, d C.int) (r C.int) {
	defer guard("cuDeviceGetUuid", &r)()
	copy(unsafe.Slice((*byte)(unsafe.Pointer(uuid)), 16), deviceUUID[:])
	return success
}

//export cuDeviceGetUuid_v2
func cuDeviceGetUuid_v2(uuid *C.char, d C.int) (r C.int) {
	defer guard("cuDeviceGetUuid_v2", &r)()
	return cuDeviceGetUuid(uuid, d)
}

// Contexts.

//export cuDevicePrimaryCtxRetain
func cuDevicePrimaryCtxRetain(c *unsafe.Pointer, d C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxRetain", &r)()
	if e := initialized(); e != success {
		return e
	}
	*c = ctxs.primary
	return success
}

//export cuDevicePrimaryCtxRelease_v2
func cuDevicePrimaryCtxRelease_v2(d C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxRelease_v2", &r)()
	return success
}

// cuDevicePrimaryCtxRelease is the entry point of CUDA 7 to 10, which CUDA 11's cuda.h renamed
// cuDevicePrimaryCtxRelease_v2 (same arguments); older runtimes still ask for it.
//
//export cuDevicePrimaryCtxRelease
func cuDevicePrimaryCtxRelease(d C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxRelease", &r)()
	return cuDevicePrimaryCtxRelease_v2(d)
}

// cuDevicePrimaryCtxReset is CUDA 7 to 10's cuDevicePrimaryCtxReset_v2.
//
//export cuDevicePrimaryCtxReset
func cuDevicePrimaryCtxReset(d C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxReset", &r)()
	return cuDevicePrimaryCtxReset_v2(d)
}

// cuDevicePrimaryCtxSetFlags is CUDA 7 to 10's cuDevicePrimaryCtxSetFlags_v2.
//
//export cuDevicePrimaryCtxSetFlags
func cuDevicePrimaryCtxSetFlags(d C.int, flags C.uint) (r C.int) {
	defer guard("cuDevicePrimaryCtxSetFlags", &r)()
	return cuDevicePrimaryCtxSetFlags_v2(d, flags)
}

//export cuDevicePrimaryCtxReset_v2
func cuDevicePrimaryCtxReset_v2(d C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxReset_v2", &r)()
	releaseContextStorage(ctxs.primary)
	return cudaDeviceReset()
}

//export cuDevicePrimaryCtxGetState
func cuDevicePrimaryCtxGetState(d C.int, flags *C.uint, active *C.int) (r C.int) {
	defer guard("cuDevicePrimaryCtxGetState", &r)()
	*flags, *active = 0, 1
	return success
}

//export cuDevicePrimaryCtxSetFlags_v2
func cuDevicePrimaryCtxSetFlags_v2(d C.int, flags C.uint) (r C.int) {
	defer guard("cuDevicePrimaryCtxSetFlags_v2", &r)()
	return success
}

//export cuCtxCreate_v2
func cuCtxCreate_v2(c *unsafe.Pointer, flags C.uint, d C.int) (r C.int) {
	defer guard("cuCtxCreate_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if d != 0 {
		return errInvalidDevice
	}
	h := handle()
	state.mu.Lock()
	ctxs.created[uintptr(h)] = true
	ctxs.stack = append(ctxs.stack, h)
	state.mu.Unlock()
	*c = h
	return success
}

//export cuCtxDestroy_v2
func cuCtxDestroy_v2(c unsafe.Pointer) (r C.int) {
	defer guard("cuCtxDestroy_v2", &r)()
	flushDeviceOutput()
	state.mu.Lock()
	defer state.mu.Unlock()
	if !ctxs.created[uintptr(c)] {
		return errInvalidContext
	}
	delete(ctxs.created, uintptr(c))
	state.mu.Unlock()
	releaseContextStorage(c)
	state.mu.Lock()
	for i := len(ctxs.stack) - 1; i >= 0; i-- {
		if ctxs.stack[i] == c {
			ctxs.stack = append(ctxs.stack[:i], ctxs.stack[i+1:]...)
		}
	}
	C.free(c)
	return success
}

//export cuCtxGetCurrent
func cuCtxGetCurrent(c *unsafe.Pointer) (r C.int) {
	defer guard("cuCtxGetCurrent", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	*c = nil
	if n := len(ctxs.stack); n > 0 {
		*c = ctxs.stack[n-1]
	}
	return success
}

//export cuCtxSetCurrent
func cuCtxSetCurrent(c unsafe.Pointer) (r C.int) {
	defer guard("cuCtxSetCurrent", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	if n := len(ctxs.stack); n > 0 {
		ctxs.stack = ctxs.stack[:n-1]
	}
	if c != nil {
		ctxs.stack = append(ctxs.stack, c)
	}
	return success
}

//export cuCtxPushCurrent_v2
func cuCtxPushCurrent_v2(c unsafe.Pointer) (r C.int) {
	defer guard("cuCtxPushCurrent_v2", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	ctxs.stack = append(ctxs.stack, c)
	return success
}

//export cuCtxPopCurrent_v2
func cuCtxPopCurrent_v2(c *unsafe.Pointer) (r C.int) {
	defer guard("cuCtxPopCurrent_v2", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	n := len(ctxs.stack)
	if n == 0 {
		return errInvalidContext
	}
	if c != nil {
		*c = ctxs.stack[n-1]
	}
	ctxs.stack = ctxs.stack[:n-1]
	return success
}

//export cuCtxSynchronize
func cuCtxSynchronize() (r C.int) {
	defer guard("cuCtxSynchronize", &r)()
	return drv(synchronize())
}

//export cuCtxGetDevice
func cuCtxGetDevice(d *C.int) (r C.int) {
	defer guard("cuCtxGetDevice", &r)()
	*d = 0
	return success
}

//export cuCtxGetApiVersion
func cuCtxGetApiVersion(c unsafe.Pointer, v *C.uint) (r C.int) {
	defer guard("cuCtxGetApiVersion", &r)()
	*v = 3020
	return success
}

//export cuCtxSetCacheConfig
func cuCtxSetCacheConfig(cfg C.int) (r C.int) {
	defer guard("cuCtxSetCacheConfig", &r)()
	return success
}

//export cuCtxGetLimit
func cuCtxGetLimit(v *C.size_t, limit C.int) (r C.int) {
	defer guard("cuCtxGetLimit", &r)()
	return cudaDeviceGetLimit(v, limit)
}

//export cuCtxSetLimit
func cuCtxSetLimit(limit C.int, v C.size_t) (r C.int) {
	defer guard("cuCtxSetLimit", &r)()
	return cudaDeviceSetLimit(limit, v)
}

// Modules.

// loadModule compiles an image: PTX text, a fat binary, or nvcc's fat binary wrapper. A
// cubin (SASS) has no PTX to run.
func loadModule(out *unsafe.Pointer, image []byte, name string) C.int {
	m := &module{name: name}
	le := binary.LittleEndian
	switch {
	case len(image) >= 4 && le.Uint32(image) == fatbin.Magic:
		n, err := fatbin.Size(image)
		if err != nil || n > len(image) {
			return errInvalidKernelImage
		}
		m.image = image[:n]
	case len(image) >= 4 && string(image[:4]) == "\x7fELF":
		warnOnce(name + ": a cubin holds SASS only: ptx2go runs PTX; load the .ptx (nvcc -ptx) or a .fatbin with PTX (-gencode arch=compute_XX,code=compute_XX)")
		return errNoKernelImageForDevice
	default:
		if i := bytes.IndexByte(image, 0); i >= 0 {
			image = image[:i]
		}
		m.image, m.isPTX = image, true
	}
	if _, code := m.compile(""); code != success {
		return code
	}
	h := handle()
	state.mu.Lock()
	state.modules[uintptr(h)] = m
	state.mu.Unlock()
	*out = h
	return success
}

// imageAt reads a module image from memory: the containers of nvcc's fat binary wrapper, or
// a container (its size is in its header), or PTX text, which ends at its NUL.
func imageAt(p unsafe.Pointer) []byte {
	hdr := unsafe.Slice((*byte)(p), 16)
	if binary.LittleEndian.Uint32(hdr) == fatbin.WrapperMagic {
		return wrapperContainers((*C.ptx2go_fatbin_wrapper)(p))
	}
	if binary.LittleEndian.Uint32(hdr) == fatbin.Magic {
		if n, err := fatbin.Size(hdr); err == nil {
			return unsafe.Slice((*byte)(p), n)
		}
	}
	if string(hdr[:4]) == "\x7fELF" {
		return hdr
	}
	return unsafe.Slice((*byte)(p), C.strlen((*C.char)(p)))
}

//export cuModuleLoadData
func cuModuleLoadData(m *unsafe.Pointer, image unsafe.Pointer) (r C.int) {
	defer guard("cuModuleLoadData", &r)()
	if e := initialized(); e != success {
		return e
	}
	return loadModule(m, append([]byte(nil), imageAt(image)...), programName()+".module.ptx")
}

//export cuModuleLoadDataEx
func cuModuleLoadDataEx(m *unsafe.Pointer, image unsafe.Pointer, n C.uint, opts, vals unsafe.Pointer) (r C.int) {
	defer guard("cuModuleLoadDataEx", &r)()
	return cuModuleLoadData(m, image)
}

//export cuModuleLoadFatBinary
func cuModuleLoadFatBinary(m *unsafe.Pointer, image unsafe.Pointer) (r C.int) {
	defer guard("cuModuleLoadFatBinary", &r)()
	return cuModuleLoadData(m, image)
}

//export cuModuleLoad
func cuModuleLoad(m *unsafe.Pointer, fname *C.char) (r C.int) {
	defer guard("cuModuleLoad", &r)()
	if e := initialized(); e != success {
		return e
	}
	name := C.GoString(fname)
	b, err := os.ReadFile(name)
	if err != nil {
		return 301 // CUDA_ERROR_FILE_NOT_FOUND
	}
	return loadModule(m, b, name)
}

//export cuModuleUnload
func cuModuleUnload(m unsafe.Pointer) (r C.int) {
	defer guard("cuModuleUnload", &r)()
	flushDeviceOutput()
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.modules[uintptr(m)] == nil {
		return errInvalidResourceHandle
	}
	delete(state.modules, uintptr(m))
	return success
}

// lookupModule returns the module of handle m.
func lookupModule(m unsafe.Pointer) *module {
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.modules[uintptr(m)]
}

//export cuModuleGetFunction
func cuModuleGetFunction(f *unsafe.Pointer, m unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuModuleGetFunction", &r)()
	mod := lookupModule(m)
	if mod == nil {
		return errInvalidResourceHandle
	}
	k := &kernel{mod: mod, name: C.GoString(name)}
	cm, code := mod.compile(k.name)
	if code != success {
		return code
	}
	if _, err := cm.Kernel(k.name); err != nil {
		return errSymbolNotFound
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	if mod.funcs == nil {
		mod.funcs = map[string]unsafe.Pointer{}
	}
	h, ok := mod.funcs[k.name]
	if !ok {
		h = handle()
		mod.funcs[k.name] = h
		state.kernels[uintptr(h)] = k
	}
	*f = h
	return success
}

//export cuModuleGetGlobal_v2
func cuModuleGetGlobal_v2(dptr *C.ulonglong, size *C.size_t, m unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuModuleGetGlobal_v2", &r)()
	mod := lookupModule(m)
	if mod == nil {
		return errInvalidResourceHandle
	}
	n := C.GoString(name)
	cm, code := mod.compile(n)
	if code != success {
		return code
	}
	for _, g := range cm.Runtime().Globals {
		if g.Name != n {
			continue
		}
		p, err := cm.GlobalAddr(device(), n)
		if err != nil {
			return errSymbolNotFound
		}
		if dptr != nil {
			*dptr = C.ulonglong(p)
		}
		if size != nil {
			*size = C.size_t(g.Size)
		}
		return success
	}
	return errSymbolNotFound
}

// Memory.

// cuMemAlloc_v2 is check.c's: it passes the caller's return address to ptx2goCuMemAlloc,
// which leakcheck names.
func cuMemAlloc_v2(p *C.ulonglong, size C.size_t) C.int { return ptx2goCuMemAlloc(p, size, nil) }

//export ptx2goCuMemAlloc
func ptx2goCuMemAlloc(p *C.ulonglong, size C.size_t, caller unsafe.Pointer) (r C.int) {
	defer guard("cuMemAlloc_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if size == 0 {
		return errInvalidValue
	}
	d, err := devMalloc(int(size), "cuMemAlloc", caller)
	if err != nil {
		return errMemoryAllocation
	}
	*p = C.ulonglong(d)
	return success
}

//export cuMemAllocPitch_v2
func cuMemAllocPitch_v2(p *C.ulonglong, pitch *C.size_t, width, height C.size_t, elem C.uint) (r C.int) {
	defer guard("cuMemAllocPitch_v2", &r)()
	pw := (width + pitchAlignment - 1) / pitchAlignment * pitchAlignment
	if e := cuMemAlloc_v2(p, pw*height); e != success {
		return e
	}
	*pitch = pw
	return success
}

//export cuMemFree_v2
func cuMemFree_v2(p C.ulonglong) (r C.int) {
	defer guard("cuMemFree_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if devFree(runtime.Ptr(p)) != nil {
		return errInvalidValue
	}
	return success
}

//export cuMemGetAddressRange_v2
func cuMemGetAddressRange_v2(base *C.ulonglong, size *C.size_t, p C.ulonglong) (r C.int) {
	defer guard("cuMemGetAddressRange_v2", &r)()
	b, n, ok := allocRange(runtime.Ptr(p))
	if !ok {
		return errSymbolNotFound
	}
	if base != nil {
		*base = C.ulonglong(b)
	}
	if size != nil {
		*size = C.size_t(n)
	}
	return success
}

// cuPointerGetAttribute describes memory that cuMemAlloc or cudaMalloc allocated; other
// addresses are CUDA_ERROR_INVALID_VALUE, as the driver says of memory it does not know.
//
//export cuPointerGetAttribute
func cuPointerGetAttribute(data unsafe.Pointer, attr C.int, p C.ulonglong) (r C.int) {
	defer guard("cuPointerGetAttribute", &r)()
	b, n, ok := allocRange(runtime.Ptr(p))
	if !ok {
		return errInvalidValue
	}
	switch attr {
	case 1: // CONTEXT
		*(*unsafe.Pointer)(data) = ctxs.primary
	case 2: // MEMORY_TYPE: CU_MEMORYTYPE_DEVICE
		*(*C.uint)(data) = 2
	case 3: // DEVICE_POINTER
		*(*C.ulonglong)(data) = p
	case 8, 9: // IS_MANAGED, DEVICE_ORDINAL
		*(*C.int)(data) = 0
	case 11: // RANGE_START_ADDR
		*(*C.ulonglong)(data) = C.ulonglong(b)
	case 12: // RANGE_SIZE
		*(*C.size_t)(data) = C.size_t(n)
	case 13: // MAPPED
		*(*C.int)(data) = 1
	default:
		return errInvalidValue
	}
	return success
}

//export cuMemGetInfo_v2
func cuMemGetInfo_v2(free, total *C.size_t) (r C.int) {
	defer guard("cuMemGetInfo_v2", &r)()
	return drv(cudaMemGetInfo(free, total))
}

//export cuMemAllocHost_v2
func cuMemAllocHost_v2(p *unsafe.Pointer, size C.size_t) (r C.int) {
	defer guard("cuMemAllocHost_v2", &r)()
	return drv(cudaHostAlloc(p, size, 0))
}

//export cuMemHostAlloc
func cuMemHostAlloc(p *unsafe.Pointer, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cuMemHostAlloc", &r)()
	return drv(cudaHostAlloc(p, size, flags))
}

//export cuMemAllocManaged
func cuMemAllocManaged(p *C.ulonglong, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cuMemAllocManaged", &r)()
	if size == 0 {
		return errInvalidValue
	}
	var m unsafe.Pointer
	if e := cudaMallocManaged(&m, size, flags); e != success {
		return drv(e)
	}
	*p = C.ulonglong(uintptr(m))
	return success
}

//export cuMemHostGetDevicePointer_v2
func cuMemHostGetDevicePointer_v2(p *C.ulonglong, h unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuMemHostGetDevicePointer_v2", &r)()
	var d unsafe.Pointer
	if e := cudaHostGetDevicePointer(&d, h, flags); e != success {
		return drv(e)
	}
	*p = C.ulonglong(uintptr(d))
	return success
}

//export cuMemHostRegister_v2
func cuMemHostRegister_v2(h unsafe.Pointer, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cuMemHostRegister_v2", &r)()
	return drv(cudaHostRegister(h, size, flags))
}

//export cuMemHostUnregister
func cuMemHostUnregister(h unsafe.Pointer) (r C.int) {
	defer guard("cuMemHostUnregister", &r)()
	return drv(cudaHostUnregister(h))
}

//export cuMemFreeHost
func cuMemFreeHost(p unsafe.Pointer) (r C.int) {
	defer guard("cuMemFreeHost", &r)()
	return drv(cudaFreeHost(p))
}

//export cuMemcpyHtoD_v2
func cuMemcpyHtoD_v2(dst C.ulonglong, src unsafe.Pointer, n C.size_t) (r C.int) {
	defer guard("cuMemcpyHtoD_v2", &r)()
	flushDeviceOutput()
	return drv(memcpy(devPtr(runtime.Ptr(dst)), src, int(n), hostToDevice))
}

//export cuMemcpyDtoH_v2
func cuMemcpyDtoH_v2(dst unsafe.Pointer, src C.ulonglong, n C.size_t) (r C.int) {
	defer guard("cuMemcpyDtoH_v2", &r)()
	flushDeviceOutput()
	return drv(memcpy(dst, devPtr(runtime.Ptr(src)), int(n), deviceToHost))
}

//export cuMemcpyDtoD_v2
func cuMemcpyDtoD_v2(dst, src C.ulonglong, n C.size_t) (r C.int) {
	defer guard("cuMemcpyDtoD_v2", &r)()
	flushDeviceOutput()
	return drv(memcpy(devPtr(runtime.Ptr(dst)), devPtr(runtime.Ptr(src)), int(n), deviceToDevice))
}

//export cuMemcpy
func cuMemcpy(dst, src C.ulonglong, n C.size_t) (r C.int) {
	defer guard("cuMemcpy", &r)()
	flushDeviceOutput()
	return drv(memcpy(devPtr(runtime.Ptr(dst)), devPtr(runtime.Ptr(src)), int(n), copyDefault))
}

//export cuMemcpyHtoDAsync_v2
func cuMemcpyHtoDAsync_v2(dst C.ulonglong, src unsafe.Pointer, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpyHtoDAsync_v2", &r)()
	return copyAsync(devPtr(runtime.Ptr(dst)), src, n, hostToDevice, s)
}

//export cuMemcpyDtoHAsync_v2
func cuMemcpyDtoHAsync_v2(dst unsafe.Pointer, src C.ulonglong, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpyDtoHAsync_v2", &r)()
	return copyAsync(dst, devPtr(runtime.Ptr(src)), n, deviceToHost, s)
}

//export cuMemcpyDtoDAsync_v2
func cuMemcpyDtoDAsync_v2(dst, src C.ulonglong, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpyDtoDAsync_v2", &r)()
	return copyAsync(devPtr(runtime.Ptr(dst)), devPtr(runtime.Ptr(src)), n, deviceToDevice, s)
}

//export cuMemcpyAsync
func cuMemcpyAsync(dst, src C.ulonglong, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpyAsync", &r)()
	return copyAsync(devPtr(runtime.Ptr(dst)), devPtr(runtime.Ptr(src)), n, copyDefault, s)
}

// copyAsync copies n bytes in stream s, or adds the copy to the graph s is capturing.
func copyAsync(dst, src unsafe.Pointer, n C.size_t, kind C.int, s unsafe.Pointer) C.int {
	if captured(s, copyOp{dst, src, int(n), kind}) {
		return success
	}
	return drv(memcpy(dst, src, int(n), kind))
}

// memsetN fills n elements of size bytes at p with the little-endian value v.
func memsetN(p C.ulonglong, v uint32, size int, n C.size_t) C.int {
	if e := initialized(); e != success {
		return e
	}
	if n == 0 {
		return success
	}
	dev := device()
	dev.Acquire()
	defer dev.Release()
	b := dev.Bytes(uint64(p), int(n)*size)
	if b == nil {
		return errInvalidValue
	}
	var pat [4]byte
	binary.LittleEndian.PutUint32(pat[:], v)
	for i := 0; i < len(b); i += size {
		copy(b[i:i+size], pat[:size])
	}
	wroteDevice(dev, uint64(p), len(b))
	return success
}

//export cuMemsetD8_v2
func cuMemsetD8_v2(p C.ulonglong, v C.uchar, n C.size_t) (r C.int) {
	defer guard("cuMemsetD8_v2", &r)()
	return memsetN(p, uint32(v), 1, n)
}

//export cuMemsetD16_v2
func cuMemsetD16_v2(p C.ulonglong, v C.ushort, n C.size_t) (r C.int) {
	defer guard("cuMemsetD16_v2", &r)()
	return memsetN(p, uint32(v), 2, n)
}

//export cuMemsetD32_v2
func cuMemsetD32_v2(p C.ulonglong, v C.uint, n C.size_t) (r C.int) {
	defer guard("cuMemsetD32_v2", &r)()
	return memsetN(p, uint32(v), 4, n)
}

//export cuMemsetD8Async
func cuMemsetD8Async(p C.ulonglong, v C.uchar, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD8Async", &r)()
	return memsetD2D(p, 0, uint32(v), 1, n, 1, s, true)
}

//export cuMemsetD16Async
func cuMemsetD16Async(p C.ulonglong, v C.ushort, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD16Async", &r)()
	return memsetD2D(p, 0, uint32(v), 2, n, 1, s, true)
}

//export cuMemsetD32Async
func cuMemsetD32Async(p C.ulonglong, v C.uint, n C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD32Async", &r)()
	return memsetD2D(p, 0, uint32(v), 4, n, 1, s, true)
}

// Launches.

//export cuLaunchKernel
func cuLaunchKernel(f unsafe.Pointer, gx, gy, gz, bx, by, bz, shared C.uint, s unsafe.Pointer, params, extra *unsafe.Pointer) (r C.int) {
	defer guard("cuLaunchKernel", &r)()
	return cuLaunch(f, gx, gy, gz, bx, by, bz, shared, s, params, extra, false)
}

// cuLaunch launches kernel f with kernelParams or extra, cooperatively or not, or adds the
// launch to the graph stream s is capturing.
func cuLaunch(f unsafe.Pointer, gx, gy, gz, bx, by, bz, shared C.uint, s unsafe.Pointer, params, extra *unsafe.Pointer, cooperative bool) C.int {
	if e := initialized(); e != success {
		return e
	}
	k := lookupKernel(f)
	if k == nil {
		return errInvalidResourceHandle
	}
	if code := k.resolve(); code != success {
		return code
	}
	var buf []byte
	switch {
	case params != nil:
		buf = k.packParams(unsafe.Pointer(params))
	case extra != nil:
		var code cudaError
		if buf, code = k.extraParams(unsafe.Pointer(extra)); code != success {
			return code
		}
	default:
		if k.fn.KernelParams != 0 {
			return errInvalidValue
		}
	}
	g := runtime.Dim3{X: uint32(gx), Y: uint32(gy), Z: uint32(gz)}
	b := runtime.Dim3{X: uint32(bx), Y: uint32(by), Z: uint32(bz)}
	if captured(s, kernelOp{k: k, grid: g, block: b, shared: int(shared), params: buf, cooperative: cooperative}) {
		return success
	}
	return drv(k.launch(g, b, int(shared), buf, cooperative))
}

//export cuLaunchCooperativeKernel
func cuLaunchCooperativeKernel(f unsafe.Pointer, gx, gy, gz, bx, by, bz, shared C.uint, s unsafe.Pointer, params *unsafe.Pointer) (r C.int) {
	defer guard("cuLaunchCooperativeKernel", &r)()
	if uint64(gx)*uint64(gy)*uint64(gz) > uint64(occupancy(int(bx*by*bz), int(shared))*smCount()) {
		return errCooperativeLaunchTooBig
	}
	return cuLaunch(f, gx, gy, gz, bx, by, bz, shared, s, params, nil, true)
}

//export cuFuncGetAttribute
func cuFuncGetAttribute(v *C.int, attr C.int, f unsafe.Pointer) (r C.int) {
	defer guard("cuFuncGetAttribute", &r)()
	var a C.struct_cudaFuncAttributes
	if e := cudaFuncGetAttributes(&a, f); e != success {
		return drv(e)
	}
	switch attr {
	case 0:
		*v = a.maxThreadsPerBlock
	case 1:
		*v = C.int(a.sharedSizeBytes)
	case 2:
		*v = C.int(a.constSizeBytes)
	case 3:
		*v = C.int(a.localSizeBytes)
	case 4:
		*v = a.numRegs
	case 5:
		*v = a.ptxVersion
	case 6:
		*v = a.binaryVersion
	case 7:
		*v = a.cacheModeCA
	case 8:
		*v = a.maxDynamicSharedSizeBytes
	case 9:
		*v = a.preferredShmemCarveout
	default:
		return errInvalidValue
	}
	return success
}

//export cuFuncSetAttribute
func cuFuncSetAttribute(f unsafe.Pointer, attr, v C.int) (r C.int) {
	defer guard("cuFuncSetAttribute", &r)()
	return drv(cudaFuncSetAttribute(f, attr, v))
}

//export cuFuncSetCacheConfig
func cuFuncSetCacheConfig(f unsafe.Pointer, cfg C.int) (r C.int) {
	defer guard("cuFuncSetCacheConfig", &r)()
	return success
}

//export cuOccupancyMaxActiveBlocksPerMultiprocessor
func cuOccupancyMaxActiveBlocksPerMultiprocessor(n *C.int, f unsafe.Pointer, blockSize C.int, shared C.size_t) (r C.int) {
	defer guard("cuOccupancyMaxActiveBlocksPerMultiprocessor", &r)()
	return drv(cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, blockSize, shared))
}

// Streams and events.

//export cuStreamCreate
func cuStreamCreate(s *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuStreamCreate", &r)()
	return drv(cudaStreamCreateWithFlags(s, flags))
}

//export cuStreamCreateWithPriority
func cuStreamCreateWithPriority(s *unsafe.Pointer, flags C.uint, prio C.int) (r C.int) {
	defer guard("cuStreamCreateWithPriority", &r)()
	return drv(cudaStreamCreateWithFlags(s, flags))
}

//export cuStreamDestroy_v2
func cuStreamDestroy_v2(s unsafe.Pointer) (r C.int) {
	defer guard("cuStreamDestroy_v2", &r)()
	return drv(cudaStreamDestroy(s))
}

//export cuStreamSynchronize
func cuStreamSynchronize(s unsafe.Pointer) (r C.int) {
	defer guard("cuStreamSynchronize", &r)()
	return drv(cudaStreamSynchronize(s))
}

//export cuStreamQuery
func cuStreamQuery(s unsafe.Pointer) (r C.int) {
	defer guard("cuStreamQuery", &r)()
	return drv(cudaStreamQuery(s))
}

//export cuStreamWaitEvent
func cuStreamWaitEvent(s, e unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuStreamWaitEvent", &r)()
	return drv(cudaStreamWaitEvent(s, e, flags))
}

//export cuEventCreate
func cuEventCreate(e *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuEventCreate", &r)()
	return drv(cudaEventCreateWithFlags(e, flags))
}

//export cuEventRecord
func cuEventRecord(e, s unsafe.Pointer) (r C.int) {
	defer guard("cuEventRecord", &r)()
	return drv(cudaEventRecord(e, s))
}

//export cuEventSynchronize
func cuEventSynchronize(e unsafe.Pointer) (r C.int) {
	defer guard("cuEventSynchronize", &r)()
	return drv(cudaEventSynchronize(e))
}

//export cuEventQuery
func cuEventQuery(e unsafe.Pointer) (r C.int) {
	defer guard("cuEventQuery", &r)()
	return drv(cudaEventQuery(e))
}

//export cuEventDestroy_v2
func cuEventDestroy_v2(e unsafe.Pointer) (r C.int) {
	defer guard("cuEventDestroy_v2", &r)()
	return drv(cudaEventDestroy(e))
}

//export cuEventElapsedTime
func cuEventElapsedTime(ms *C.float, e0, e1 unsafe.Pointer) (r C.int) {
	defer guard("cuEventElapsedTime", &r)()
	return drv(cudaEventElapsedTime(ms, e0, e1))
}

// Errors and entry points.

//export cuGetErrorString
func cuGetErrorString(e C.int, s **C.char) (r C.int) {
	defer guard("cuGetErrorString", &r)()
	if _, ok := errorNames[e]; !ok {
		if _, ok := driverNames[e]; !ok {
			*s = nil
			return errInvalidValue
		}
	}
	*s = cString(errorString(e))
	return success
}

//export cuGetErrorName
func cuGetErrorName(e C.int, s **C.char) (r C.int) {
	defer guard("cuGetErrorName", &r)()
	n, ok := driverNames[e]
	if !ok {
		*s = nil
		return errInvalidValue
	}
	*s = cString(n)
	return success
}

// cuGetProcAddress finds a driver entry point by its base name for a CUDA version, as the
// driver does: the newest signature of NAME at that version (NAME, NAME_v2, NAME_v3: see
// procVersions), and with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM its per-thread
// default stream variant (_ptsz, _ptds) where there is one. An entry point the drop-in does not
// implement is a stub that says so when called (unimplemented.c).
//
//export cuGetProcAddress
func cuGetProcAddress(symbol *C.char, pfn *unsafe.Pointer, version C.int, flags C.ulonglong) (r C.int) {
	defer guard("cuGetProcAddress", &r)()
	var status C.int
	return cuGetProcAddress_v2(symbol, pfn, version, flags, &status)
}

// The flags and statuses of cuGetProcAddress.
const (
	procPerThreadStream = 2 // CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
	procFound           = 0 // CU_GET_PROC_ADDRESS_SUCCESS
	procNotFound        = 1 // CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
	procVersionTooLow   = 2 // CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
)

// procSymbol names the library symbol of entry point name at CUDA version, or says why there
// is none.
func procSymbol(name string, version int) (string, C.int) {
	vs, ok := procVersions[name]
	if !ok {
		return name, procFound
	}
	k := -1
	for i, v := range vs {
		if v <= version {
			k = i
		}
	}
	switch {
	case k < 0:
		return "", procVersionTooLow
	case k == 0:
		return name, procFound
	}
	return fmt.Sprintf("%s_v%d", name, k+1), procFound
}

//export cuGetProcAddress_v2
func cuGetProcAddress_v2(symbol *C.char, pfn *unsafe.Pointer, version C.int, flags C.ulonglong, status *C.int) (r C.int) {
	defer guard("cuGetProcAddress_v2", &r)()
	if symbol == nil || pfn == nil {
		return errInvalidValue
	}
	*pfn = nil
	name := C.GoString(symbol)
	sym, st := procSymbol(name, int(version))
	var p unsafe.Pointer
	if st == procFound {
		candidates := []string{sym}
		if flags&procPerThreadStream != 0 {
			candidates = []string{sym + "_ptsz", sym + "_ptds", sym}
		}
		for _, c := range candidates {
			cs := C.CString(c)
			p = C.ptx2go_self_symbol(cs)
			C.free(unsafe.Pointer(cs))
			if p != nil {
				sym = c
				break
			}
		}
		if p == nil {
			st = procNotFound
		}
	}
	if status != nil {
		*status = st
	}
	if p == nil {
		traceDriver("cuGetProcAddress(%s, %d, %d): not found", name, version, flags)
		return errSymbolNotFound
	}
	traceDriver("cuGetProcAddress(%s, %d, %d) = %s", name, version, flags, sym)
	*pfn = p
	return success
}

// cuModuleGetLoadingMode says modules load eagerly: a module's PTX is parsed when it is loaded
// and each kernel compiled at its first launch, whatever CUDA_MODULE_LOADING asks.
//
//export cuModuleGetLoadingMode
func cuModuleGetLoadingMode(mode *C.int) (r C.int) {
	defer guard("cuModuleGetLoadingMode", &r)()
	if mode == nil {
		return errInvalidValue
	}
	*mode = 1 // CU_MODULE_EAGER_LOADING
	return success
}

// cuProfilerStart is the driver's profiler control, which NVIDIA's static runtime calls for
// cudaProfilerStart: there is no profiler to start, so it succeeds, as cudaProfilerStart does.
//
//export cuProfilerStart
func cuProfilerStart() (r C.int) {
	defer guard("cuProfilerStart", &r)()
	return success
}

// cuProfilerStop is cuProfilerStart's counterpart, for cudaProfilerStop.
//
//export cuProfilerStop
func cuProfilerStop() (r C.int) {
	defer guard("cuProfilerStop", &r)()
	return success
}
