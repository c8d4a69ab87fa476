package main

// #include "cudart.h"
import "C"

import (
	"time"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The cudaMemcpyKind values.
const (
	hostToHost     = 0
	hostToDevice   = 1
	deviceToHost   = 2
	deviceToDevice = 3
	copyDefault    = 4
)

// start is the origin of event times.
var start = time.Now()

// Device management.

//export cudaGetDeviceCount
func cudaGetDeviceCount(count *C.int) (r C.int) {
	defer guard("cudaGetDeviceCount", &r)()
	*count = 1
	return success
}

//export cudaGetDevice
func cudaGetDevice(dev *C.int) (r C.int) {
	defer guard("cudaGetDevice", &r)()
	*dev = 0
	return success
}

//export cudaSetDevice
func cudaSetDevice(dev C.int) (r C.int) {
	defer guard("cudaSetDevice", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	return success
}

//export cudaChooseDevice
func cudaChooseDevice(dev *C.int, prop unsafe.Pointer) (r C.int) {
	defer guard("cudaChooseDevice", &r)()
	*dev = 0
	return success
}

//export cudaGetDeviceProperties
func cudaGetDeviceProperties(prop *C.struct_cudaDeviceProp, dev C.int) (r C.int) {
	defer guard("cudaGetDeviceProperties", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	fillProps(prop)
	return success
}

//export cudaDeviceGetAttribute
func cudaDeviceGetAttribute(value *C.int, attr C.int, dev C.int) (r C.int) {
	defer guard("cudaDeviceGetAttribute", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	v, ok := deviceAttr(int(attr))
	if !ok {
		return ret(errInvalidValue)
	}
	*value = C.int(v)
	return success
}

//export cudaDeviceSynchronize
func cudaDeviceSynchronize() (r C.int) {
	defer guard("cudaDeviceSynchronize", &r)()
	return synchronize()
}

//export cudaThreadSynchronize
func cudaThreadSynchronize() (r C.int) {
	defer guard("cudaThreadSynchronize", &r)()
	return synchronize()
}

// cudaDeviceReset frees every allocation and clears the sticky error: the next call gets a
// fresh device, with the program's modules loaded again when used.
//
//export cudaDeviceReset
func cudaDeviceReset() (r C.int) {
	defer guard("cudaDeviceReset", &r)()
	flushDeviceOutput()
	state.mu.Lock()
	defer state.mu.Unlock()
	state.dev = runtime.NewDevice()
	state.sticky, state.used = success, 0
	state.host = map[uintptr]hostAlloc{}
	state.lastErr = map[C.ulong]cudaError{}
	state.allocs = map[runtime.Ptr]int{}
	return success
}

//export cudaThreadExit
func cudaThreadExit() (r C.int) {
	defer guard("cudaThreadExit", &r)()
	return cudaDeviceReset()
}

//export cudaSetDeviceFlags
func cudaSetDeviceFlags(flags C.uint) (r C.int) {
	defer guard("cudaSetDeviceFlags", &r)()
	return success
}

//export cudaGetDeviceFlags
func cudaGetDeviceFlags(flags *C.uint) (r C.int) {
	defer guard("cudaGetDeviceFlags", &r)()
	*flags = 0
	return success
}

//export cudaDeviceSetCacheConfig
func cudaDeviceSetCacheConfig(cfg C.int) (r C.int) {
	defer guard("cudaDeviceSetCacheConfig", &r)()
	return success
}

//export cudaDeviceGetCacheConfig
func cudaDeviceGetCacheConfig(cfg *C.int) (r C.int) {
	defer guard("cudaDeviceGetCacheConfig", &r)()
	*cfg = 0
	return success
}

//export cudaDeviceSetSharedMemConfig
func cudaDeviceSetSharedMemConfig(cfg C.int) (r C.int) {
	defer guard("cudaDeviceSetSharedMemConfig", &r)()
	return success
}

//export cudaFuncSetCacheConfig
func cudaFuncSetCacheConfig(fn unsafe.Pointer, cfg C.int) (r C.int) {
	defer guard("cudaFuncSetCacheConfig", &r)()
	return success
}

//export cudaFuncSetSharedMemConfig
func cudaFuncSetSharedMemConfig(fn unsafe.Pointer, cfg C.int) (r C.int) {
	defer guard("cudaFuncSetSharedMemConfig", &r)()
	return success
}

//export cudaDeviceCanAccessPeer
func cudaDeviceCanAccessPeer(can *C.int, dev, peer C.int) (r C.int) {
	defer guard("cudaDeviceCanAccessPeer", &r)()
	*can = 0
	return success
}

//export cudaDeviceGetStreamPriorityRange
func cudaDeviceGetStreamPriorityRange(least, greatest *C.int) (r C.int) {
	defer guard("cudaDeviceGetStreamPriorityRange", &r)()
	if least != nil {
		*least = 0
	}
	if greatest != nil {
		*greatest = 0
	}
	return success
}

// The device limits (cudaLimit).
const (
	limitStackSize      = 0 // cudaLimitStackSize: kept and reported, the runtime sizes stacks itself
	limitPrintfFifoSize = 1 // cudaLimitPrintfFifoSize: the printf output one launch keeps
	limitMallocHeapSize = 2 // cudaLimitMallocHeapSize: the device heap of kernels' malloc
)

// stackLimit is cudaLimitStackSize as the program set it.
var stackLimit C.size_t = runtime.DefaultLocalBytes

//export cudaDeviceGetLimit
func cudaDeviceGetLimit(v *C.size_t, limit C.int) (r C.int) {
	defer guard("cudaDeviceGetLimit", &r)()
	dev := device()
	switch limit {
	case limitStackSize:
		state.mu.Lock()
		*v = stackLimit
		state.mu.Unlock()
	case limitPrintfFifoSize:
		*v = C.size_t(dev.PrintfBufferSize())
	case limitMallocHeapSize:
		*v = C.size_t(dev.HeapSize())
	default:
		if !getLimit(limit, v) {
			return ret(errUnsupportedLimit)
		}
	}
	return success
}

// cudaDeviceSetLimit sets a limit of the device. As on a GPU, the heap size cannot change
// once a kernel that uses malloc has run (cudaErrorInvalidValue).
//
//export cudaDeviceSetLimit
func cudaDeviceSetLimit(limit C.int, v C.size_t) (r C.int) {
	defer guard("cudaDeviceSetLimit", &r)()
	dev := device()
	if v > 1<<40 {
		return ret(errInvalidValue)
	}
	switch limit {
	case limitStackSize:
		state.mu.Lock()
		stackLimit = v
		state.mu.Unlock()
	case limitPrintfFifoSize:
		if v == 0 || dev.SetPrintfBufferSize(int(v)) != nil {
			return ret(errInvalidValue)
		}
	case limitMallocHeapSize:
		if v == 0 || dev.SetHeapSize(int(v)) != nil {
			return ret(errInvalidValue)
		}
	default:
		return ret(setLimit(limit, v))
	}
	return success
}

//export cudaMemGetInfo
func cudaMemGetInfo(free, total *C.size_t) (r C.int) {
	defer guard("cudaMemGetInfo", &r)()
	if e := check(); e != success {
		return e
	}
	*total = C.size_t(totalMem())
	*free = C.size_t(totalMem() - usedBytes())
	return success
}

//export cudaDriverGetVersion
func cudaDriverGetVersion(v *C.int) (r C.int) {
	defer guard("cudaDriverGetVersion", &r)()
	*v = cuda12Version
	return success
}

//export cudaRuntimeGetVersion
func cudaRuntimeGetVersion(v *C.int) (r C.int) {
	defer guard("cudaRuntimeGetVersion", &r)()
	*v = cuda11Version
	return success
}

//export cudaProfilerStart
func cudaProfilerStart() (r C.int) {
	defer guard("cudaProfilerStart", &r)()
	return success
}

//export cudaProfilerStop
func cudaProfilerStop() (r C.int) {
	defer guard("cudaProfilerStop", &r)()
	return success
}

// Errors.

//export cudaGetLastError
func cudaGetLastError() (r C.int) {
	defer guard("cudaGetLastError", &r)()
	id := C.ptx2go_thread_id()
	state.mu.Lock()
	defer state.mu.Unlock()
	e := state.lastErr[id]
	if state.sticky != success {
		return state.sticky
	}
	delete(state.lastErr, id)
	return e
}

//export cudaPeekAtLastError
func cudaPeekAtLastError() (r C.int) {
	defer guard("cudaPeekAtLastError", &r)()
	id := C.ptx2go_thread_id()
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.sticky != success {
		return state.sticky
	}
	return state.lastErr[id]
}

//export cudaGetErrorString
func cudaGetErrorString(e C.int) *C.char { return cString(errorString(e)) }

//export cudaGetErrorName
func cudaGetErrorName(e C.int) *C.char { return cString(errorName(e)) }

// Memory.

// cudaMalloc is check.c's: it passes the program's return address to ptx2goCudaMalloc, which
// leakcheck names.
func cudaMalloc(p *unsafe.Pointer, size C.size_t) C.int { return ptx2goCudaMalloc(p, size, nil) }

//export ptx2goCudaMalloc
func ptx2goCudaMalloc(p *unsafe.Pointer, size C.size_t, caller unsafe.Pointer) (r C.int) {
	defer guard("cudaMalloc", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil {
		return ret(errInvalidValue)
	}
	d, err := devMalloc(int(size), "cudaMalloc", caller)
	if err != nil {
		return ret(errMemoryAllocation)
	}
	*p = devPtr(d)
	return success
}

//export cudaFree
func cudaFree(p unsafe.Pointer) (r C.int) {
	defer guard("cudaFree", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil {
		return success
	}
	if devFree(runtime.Ptr(uintptr(p))) != nil {
		return ret(errInvalidValue) // the driver's CUDA_ERROR_INVALID_VALUE, as NVIDIA's runtime reports it
	}
	return success
}

// cudaMallocAsync allocates in stream order from the device's current memory pool; every
// stream is synchronous, so it allocates now.
//
//export cudaMallocAsync
func cudaMallocAsync(p *unsafe.Pointer, size C.size_t, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMallocAsync", &r)()
	if !validStream(stream) {
		return ret(errInvalidResourceHandle)
	}
	return poolMalloc(p, size, nil)
}

//export cudaFreeAsync
func cudaFreeAsync(p, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaFreeAsync", &r)()
	if !validStream(stream) {
		return ret(errInvalidResourceHandle)
	}
	if captured(stream, emptyOp{}) {
		// The graph's launches use the memory until this point: it stays allocated (a
		// captured cudaMallocAsync allocated it at once, for every launch of the graph).
		return success
	}
	return cudaFree(p)
}

//export cudaStreamGetFlags
func cudaStreamGetFlags(s unsafe.Pointer, flags *C.uint) (r C.int) {
	defer guard("cudaStreamGetFlags", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	*flags = 0
	return success
}

//export cudaStreamGetPriority
func cudaStreamGetPriority(s unsafe.Pointer, prio *C.int) (r C.int) {
	defer guard("cudaStreamGetPriority", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	*prio = 0
	return success
}

// cudaMallocManaged allocates memory that kernels and host code reach at the same address:
// host-visible device memory (runtime.Device.MallocHost), so no page ever migrates.
//
//export cudaMallocManaged
func cudaMallocManaged(p *unsafe.Pointer, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaMallocManaged", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil || flags != 1 && flags != 2 { // cudaMemAttachGlobal or cudaMemAttachHost
		return ret(errInvalidValue)
	}
	if size == 0 { // NVIDIA's runtime answers this itself, without asking the driver
		*p = nil
		return success
	}
	d, err := hostMalloc(int(size), allocManaged)
	if err != nil {
		return ret(errMemoryAllocation)
	}
	*p = d
	return success
}

// managedRange checks that the n bytes at p are managed memory a prefetch, an advice or an
// attachment may name: a cudaMallocManaged allocation, or device memory (a __managed__
// variable lives in the module's globals). n of 0 names the rest of the allocation.
func managedRange(p unsafe.Pointer, n C.size_t) cudaError {
	if base, kind, size, ok := hostRange(uintptr(p)); ok {
		if kind != allocManaged || uintptr(p)+uintptr(n) > base+uintptr(size) {
			return errInvalidValue
		}
		return success
	}
	if !isDevice(device(), uintptr(p), max(int(n), 1)) {
		return errInvalidValue
	}
	return success
}

// The device cudaMemPrefetchAsync and cudaMemAdvise name: ptx2go's one device, or the host.
const cpuDeviceID = -1

// cudaMemPrefetchAsync accepts a prefetch of managed memory to the device or the host and
// does nothing: managed memory is host memory that kernels reach in place, so there is
// nothing to migrate.
//
//export cudaMemPrefetchAsync
func cudaMemPrefetchAsync(p unsafe.Pointer, n C.size_t, dev C.int, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemPrefetchAsync", &r)()
	if e := check(); e != success {
		return e
	}
	switch {
	case !validStream(stream):
		return ret(errInvalidResourceHandle)
	case dev != 0 && dev != cpuDeviceID:
		return ret(errInvalidDevice)
	}
	return ret(managedRange(p, n))
}

// cudaMemAdvise accepts the advice on managed memory (cudaMemAdviseSetReadMostly ...
// cudaMemAdviseUnsetAccessedBy) and, as nothing migrates, has nothing to change.
//
//export cudaMemAdvise
func cudaMemAdvise(p unsafe.Pointer, n C.size_t, advice C.int, dev C.int) (r C.int) {
	defer guard("cudaMemAdvise", &r)()
	if e := check(); e != success {
		return e
	}
	switch {
	case advice < 1 || advice > 6:
		return ret(errInvalidValue)
	case dev != 0 && dev != cpuDeviceID:
		return ret(errInvalidDevice)
	}
	return ret(managedRange(p, n))
}

// cudaStreamAttachMemAsync accepts attaching managed memory to a stream
// (cudaMemAttachGlobal, cudaMemAttachHost or cudaMemAttachSingle): kernels and the host
// share managed memory whatever the attachment, and every stream is synchronous.
//
//export cudaStreamAttachMemAsync
func cudaStreamAttachMemAsync(stream, p unsafe.Pointer, n C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaStreamAttachMemAsync", &r)()
	if e := check(); e != success {
		return e
	}
	switch {
	case !validStream(stream):
		return ret(errInvalidResourceHandle)
	case flags != 1 && flags != 2 && flags != 4:
		return ret(errInvalidValue)
	}
	return ret(managedRange(p, n))
}

//export cudaMallocHost
func cudaMallocHost(p *unsafe.Pointer, size C.size_t) (r C.int) {
	defer guard("cudaMallocHost", &r)()
	return cudaHostAlloc(p, size, 0)
}

// cudaHostAlloc returns page-locked host memory: host-visible device memory
// (runtime.Device.MallocHost), so that it is mapped whatever the flags say, as all page-locked
// memory is on a GPU with unified addressing; its device pointer is its host pointer.
//
//export cudaHostAlloc
func cudaHostAlloc(p *unsafe.Pointer, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaHostAlloc", &r)()
	if p == nil || flags&^15 != 0 {
		return ret(errInvalidValue)
	}
	m, err := hostMalloc(int(size), allocPinned)
	if err != nil {
		return ret(errMemoryAllocation)
	}
	*p = m
	return success
}

//export cudaFreeHost
func cudaFreeHost(p unsafe.Pointer) (r C.int) {
	defer guard("cudaFreeHost", &r)()
	if hostFree(p, allocPinned) != nil {
		return ret(errInvalidValue)
	}
	return success
}

// cudaHostRegister maps the program's memory for kernels at its own address
// (runtime.Device.MapHost), so the device pointer of a registered range is its host pointer.
//
//export cudaHostRegister
func cudaHostRegister(p unsafe.Pointer, size C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaHostRegister", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil || size == 0 || flags&^15 != 0 {
		return ret(errInvalidValue)
	}
	if _, kind, _, ok := hostRange(uintptr(p)); ok && kind == allocRegistered {
		return ret(errHostMemoryAlreadyRegistered)
	}
	dev := device()
	if _, err := dev.MapHost(p, int(size)); err != nil {
		warnf("cudaHostRegister: %v", err)
		return ret(errInvalidValue)
	}
	state.mu.Lock()
	state.host[uintptr(p)] = hostAlloc{size: int(size), kind: allocRegistered}
	state.mu.Unlock()
	return success
}

//export cudaHostUnregister
func cudaHostUnregister(p unsafe.Pointer) (r C.int) {
	defer guard("cudaHostUnregister", &r)()
	if hostFree(p, allocRegistered) != nil {
		return ret(errHostMemoryNotRegistered)
	}
	return success
}

// cudaHostGetDevicePointer returns the device pointer of page-locked, registered or managed
// memory: the host pointer itself.
//
//export cudaHostGetDevicePointer
func cudaHostGetDevicePointer(d *unsafe.Pointer, h unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaHostGetDevicePointer", &r)()
	if e := check(); e != success {
		return e
	}
	if _, _, _, ok := hostRange(uintptr(h)); !ok || flags != 0 {
		return ret(errInvalidValue)
	}
	*d = h
	return success
}

//export cudaHostGetFlags
func cudaHostGetFlags(flags *C.uint, h unsafe.Pointer) (r C.int) {
	defer guard("cudaHostGetFlags", &r)()
	if _, kind, _, ok := hostRange(uintptr(h)); !ok || kind != allocPinned {
		return ret(errInvalidValue)
	}
	*flags = 2 // cudaHostAllocMapped: all of it is
	return success
}

// cudaMallocPitch pads each row to pitchAlignment bytes, as GPUs do.
//
//export cudaMallocPitch
func cudaMallocPitch(p *unsafe.Pointer, pitch *C.size_t, width, height C.size_t) (r C.int) {
	defer guard("cudaMallocPitch", &r)()
	pw := (width + pitchAlignment - 1) / pitchAlignment * pitchAlignment
	if e := cudaMalloc(p, pw*height); e != success {
		return e
	}
	*pitch = pw
	return success
}

// memcpy copies n bytes between host and device memory; kind copyDefault finds out which
// side each pointer is on.
func memcpy(dst, src unsafe.Pointer, n int, kind C.int) C.int {
	if e := check(); e != success {
		return e
	}
	if n == 0 {
		return success
	}
	if k := mappedPiece(dst, src, n); k < n { // across mappings of virtual memory (vmm.go)
		if e := memcpy(dst, src, k, kind); e != success {
			return e
		}
		return memcpy(unsafe.Add(dst, k), unsafe.Add(src, k), n-k, kind)
	}
	dev := device()
	if kind == copyDefault {
		kind = 0
		if isDevice(dev, uintptr(src), n) {
			kind |= 2
		}
		if isDevice(dev, uintptr(dst), n) {
			kind |= 1
		}
		kind = [4]C.int{hostToHost, hostToDevice, deviceToHost, deviceToDevice}[kind]
	}
	var err error
	switch kind {
	case hostToHost:
		copy(bytesAt(dst, n), bytesAt(src, n))
	case hostToDevice:
		err = dev.CopyIn(runtime.Ptr(uintptr(dst)), bytesAt(src, n))
	case deviceToHost:
		err = dev.CopyOut(bytesAt(dst, n), runtime.Ptr(uintptr(src)))
	case deviceToDevice:
		dev.Acquire()
		s, d := dev.Bytes(uint64(uintptr(src)), n), dev.Bytes(uint64(uintptr(dst)), n)
		if s != nil && d != nil {
			copy(d, s)
			wroteDevice(dev, uint64(uintptr(dst)), n)
		}
		dev.Release()
		if s == nil || d == nil {
			return ret(errInvalidValue)
		}
	default:
		return ret(errInvalidMemcpyDirection)
	}
	if err != nil {
		return ret(errInvalidValue)
	}
	return success
}

//export cudaMemcpy
func cudaMemcpy(dst, src unsafe.Pointer, n C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpy", &r)()
	flushDeviceOutput()
	return memcpy(dst, src, int(n), kind)
}

//export cudaMemcpyAsync
func cudaMemcpyAsync(dst, src unsafe.Pointer, n C.size_t, kind C.int, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpyAsync", &r)()
	if captured(stream, copyOp{dst, src, int(n), kind}) {
		return success
	}
	return memcpy(dst, src, int(n), kind)
}

//export cudaMemcpyPeer
func cudaMemcpyPeer(dst unsafe.Pointer, dd C.int, src unsafe.Pointer, sd C.int, n C.size_t) (r C.int) {
	defer guard("cudaMemcpyPeer", &r)()
	return memcpy(dst, src, int(n), deviceToDevice)
}

// memcpy2D copies height rows of width bytes between pitched buffers.
func memcpy2D(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch C.size_t, width, height C.size_t, kind C.int) C.int {
	if width > dpitch || width > spitch {
		return ret(errInvalidPitchValue)
	}
	for r := C.size_t(0); r < height; r++ {
		if e := memcpy(unsafe.Add(dst, r*dpitch), unsafe.Add(src, r*spitch), int(width), kind); e != success {
			return e
		}
	}
	return success
}

//export cudaMemcpy2D
func cudaMemcpy2D(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch C.size_t, width, height C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpy2D", &r)()
	flushDeviceOutput()
	return memcpy2D(dst, dpitch, src, spitch, width, height, kind)
}

//export cudaMemcpy2DAsync
func cudaMemcpy2DAsync(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch C.size_t, width, height C.size_t, kind C.int, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpy2DAsync", &r)()
	if captured(stream, copy2DOp{dst, src, dpitch, spitch, width, height, kind}) {
		return success
	}
	return memcpy2D(dst, dpitch, src, spitch, width, height, kind)
}

// memset fills n bytes of device memory at p with value's low byte.
func memset(p unsafe.Pointer, value C.int, n int) C.int {
	if e := check(); e != success {
		return e
	}
	if n == 0 {
		return success
	}
	if device().Memset(runtime.Ptr(uintptr(p)), byte(value), n) != nil {
		return ret(errInvalidValue)
	}
	return success
}

//export cudaMemset
func cudaMemset(p unsafe.Pointer, value C.int, n C.size_t) (r C.int) {
	defer guard("cudaMemset", &r)()
	return memset(p, value, int(n))
}

//export cudaMemsetAsync
func cudaMemsetAsync(p unsafe.Pointer, value C.int, n C.size_t, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemsetAsync", &r)()
	if captured(stream, setOp{C.struct_cudaMemsetParams{dst: p, value: C.uint(byte(value)), elementSize: 1, width: n, height: 1}}) {
		return success
	}
	return memset(p, value, int(n))
}

//export cudaMemset2D
func cudaMemset2D(p unsafe.Pointer, pitch C.size_t, value C.int, width, height C.size_t) (r C.int) {
	defer guard("cudaMemset2D", &r)()
	for r := C.size_t(0); r < height; r++ {
		if e := memset(unsafe.Add(p, r*pitch), value, int(width)); e != success {
			return e
		}
	}
	return success
}

//export cudaMemset2DAsync
func cudaMemset2DAsync(p unsafe.Pointer, pitch C.size_t, value C.int, width, height C.size_t, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemset2DAsync", &r)()
	if captured(stream, setOp{C.struct_cudaMemsetParams{dst: p, pitch: pitch, value: C.uint(byte(value)), elementSize: 1, width: width, height: height}}) {
		return success
	}
	return cudaMemset2D(p, pitch, value, width, height)
}

// symbolAddr returns the device address and size of a registered variable, loading its module.
func symbolAddr(symbol unsafe.Pointer) (runtime.Ptr, int, C.int) {
	state.mu.Lock()
	v := state.vars[uintptr(symbol)]
	state.mu.Unlock()
	if v == nil {
		return 0, 0, errInvalidSymbol
	}
	return v.addr()
}

// addr returns the device address and size of the variable, loading its module.
func (v *variable) addr() (runtime.Ptr, int, C.int) {
	mod, code := v.mod.compile(v.name)
	if code != success {
		return 0, 0, code
	}
	p, err := mod.GlobalAddr(device(), v.name)
	if err != nil {
		warnOnce(err.Error())
		return 0, 0, errInvalidSymbol
	}
	return p, v.size, success
}

// symbolCopy copies n bytes between a registered variable at offset and host or device memory.
func symbolCopy(symbol unsafe.Pointer, mem unsafe.Pointer, n, offset C.size_t, kind C.int, toSymbol bool) C.int {
	if e := check(); e != success {
		return e
	}
	p, size, code := symbolAddr(symbol)
	if code != success {
		return ret(code)
	}
	if offset > C.size_t(size) || n > C.size_t(size)-offset {
		return ret(errInvalidValue)
	}
	addr := devPtr(p + runtime.Ptr(offset))
	if toSymbol {
		if kind != hostToDevice && kind != deviceToDevice && kind != copyDefault {
			return ret(errInvalidMemcpyDirection)
		}
		if kind == hostToDevice {
			return memcpy(addr, mem, int(n), hostToDevice)
		}
		return memcpy(addr, mem, int(n), copyDefault)
	}
	if kind != deviceToHost && kind != deviceToDevice && kind != copyDefault {
		return ret(errInvalidMemcpyDirection)
	}
	if kind == deviceToHost {
		return memcpy(mem, addr, int(n), deviceToHost)
	}
	return memcpy(mem, addr, int(n), copyDefault)
}

//export cudaMemcpyToSymbol
func cudaMemcpyToSymbol(symbol, src unsafe.Pointer, n, offset C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpyToSymbol", &r)()
	flushDeviceOutput()
	return symbolCopy(symbol, src, n, offset, kind, true)
}

//export cudaMemcpyToSymbolAsync
func cudaMemcpyToSymbolAsync(symbol, src unsafe.Pointer, n, offset C.size_t, kind C.int, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpyToSymbolAsync", &r)()
	return symbolCopy(symbol, src, n, offset, kind, true)
}

//export cudaMemcpyFromSymbol
func cudaMemcpyFromSymbol(dst, symbol unsafe.Pointer, n, offset C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpyFromSymbol", &r)()
	flushDeviceOutput()
	return symbolCopy(symbol, dst, n, offset, kind, false)
}

//export cudaMemcpyFromSymbolAsync
func cudaMemcpyFromSymbolAsync(dst, symbol unsafe.Pointer, n, offset C.size_t, kind C.int, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpyFromSymbolAsync", &r)()
	return symbolCopy(symbol, dst, n, offset, kind, false)
}

//export cudaGetSymbolAddress
func cudaGetSymbolAddress(d *unsafe.Pointer, symbol unsafe.Pointer) (r C.int) {
	defer guard("cudaGetSymbolAddress", &r)()
	if e := check(); e != success {
		return e
	}
	p, _, code := symbolAddr(symbol)
	if code != success {
		return ret(code)
	}
	*d = devPtr(p)
	return success
}

//export cudaGetSymbolSize
func cudaGetSymbolSize(size *C.size_t, symbol unsafe.Pointer) (r C.int) {
	defer guard("cudaGetSymbolSize", &r)()
	_, n, code := symbolAddr(symbol)
	if code != success {
		return ret(code)
	}
	*size = C.size_t(n)
	return success
}

// cudaPointerGetAttributes tells device allocations (type 2) from page-locked and registered
// host memory (1), managed memory (3) and other host memory (0, unregistered). Memory the
// device can reach at a host address has both pointers, equal.
//
//export cudaPointerGetAttributes
func cudaPointerGetAttributes(a *C.struct_cudaPointerAttributes, p unsafe.Pointer) (r C.int) {
	defer guard("cudaPointerGetAttributes", &r)()
	*a = C.struct_cudaPointerAttributes{}
	if _, kind, _, ok := hostRange(uintptr(p)); ok {
		a._type, a.devicePointer, a.hostPointer = 1, p, p
		if kind == allocManaged {
			a._type = 3
		}
		return success
	}
	if isDevice(device(), uintptr(p), 1) {
		a._type, a.devicePointer = 2, p
	}
	return success
}

// Launches.

// lookupKernel returns the kernel registered for a host stub.
func lookupKernel(fn unsafe.Pointer) *kernel {
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.kernels[uintptr(fn)]
}

func dim(d C.ptx2go_dim3) runtime.Dim3 {
	return runtime.Dim3{X: uint32(d.x), Y: uint32(d.y), Z: uint32(d.z)}
}

//export cudaLaunchKernel
func cudaLaunchKernel(fn unsafe.Pointer, grid, block C.ptx2go_dim3, args unsafe.Pointer, shared C.size_t, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaLaunchKernel", &r)()
	return launchKernel(fn, grid, block, args, shared, false, stream)
}

// launchKernel launches the kernel of host stub fn, cooperatively or not, or adds the launch
// to the graph stream is capturing.
func launchKernel(fn unsafe.Pointer, grid, block C.ptx2go_dim3, args unsafe.Pointer, shared C.size_t, cooperative bool, stream unsafe.Pointer) C.int {
	if e := check(); e != success {
		return e
	}
	k := lookupKernel(fn)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if code := k.resolve(); code != success {
		return ret(code)
	}
	if capturing(stream) {
		captured(stream, kernelOp{k: k, grid: dim(grid), block: dim(block), shared: int(shared), params: k.packParams(args), cooperative: cooperative})
		return success
	}
	return ret(k.launch(dim(grid), dim(block), int(shared), k.packParams(args), cooperative))
}

// cudaLaunchCooperativeKernel runs every CTA of the grid at once, with the grid barrier
// workspace of cooperative groups' grid.sync(); as on a GPU, the grid must fit the device
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors).
//
//export cudaLaunchCooperativeKernel
func cudaLaunchCooperativeKernel(fn unsafe.Pointer, grid, block C.ptx2go_dim3, args unsafe.Pointer, shared C.size_t, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaLaunchCooperativeKernel", &r)()
	g, b := dim(grid), dim(block)
	if g.Count() > uint64(occupancy(int(b.Count()), int(shared))*smCount()) {
		return ret(errCooperativeLaunchTooBig)
	}
	return launchKernel(fn, grid, block, args, shared, true, stream)
}

//export cudaFuncGetAttributes
func cudaFuncGetAttributes(a *C.struct_cudaFuncAttributes, fn unsafe.Pointer) (r C.int) {
	defer guard("cudaFuncGetAttributes", &r)()
	k := lookupKernel(fn)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if code := k.resolve(); code != success {
		return ret(code)
	}
	*a = C.struct_cudaFuncAttributes{
		sharedSizeBytes:           C.size_t(k.fn.StaticShared),
		constSizeBytes:            0,
		localSizeBytes:            C.size_t(max(k.fn.StackBytes, 0)),
		maxThreadsPerBlock:        runtime.MaxThreadsPerBlock,
		numRegs:                   32,
		ptxVersion:                ccMajor*10 + ccMinor,
		binaryVersion:             ccMajor*10 + ccMinor,
		maxDynamicSharedSizeBytes: C.int(k.dynShared()),
	}
	return success
}

// dynShared is the kernel's dynamic shared memory limit: 48 KiB unless the program raised it.
func (k *kernel) dynShared() int {
	state.mu.Lock()
	defer state.mu.Unlock()
	if k.maxDynShared > 0 {
		return k.maxDynShared
	}
	return sharedPerBlock - k.fn.StaticShared
}

//export cudaFuncSetAttribute
func cudaFuncSetAttribute(fn unsafe.Pointer, attr, value C.int) (r C.int) {
	defer guard("cudaFuncSetAttribute", &r)()
	k := lookupKernel(fn)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if attr == 8 { // cudaFuncAttributeMaxDynamicSharedMemorySize
		if value < 0 || value > runtime.MaxSharedBytes {
			return ret(errInvalidValue)
		}
		state.mu.Lock()
		k.maxDynShared = int(value)
		state.mu.Unlock()
	}
	return success
}

//export cudaOccupancyMaxActiveBlocksPerMultiprocessor
func cudaOccupancyMaxActiveBlocksPerMultiprocessor(n *C.int, fn unsafe.Pointer, blockSize C.int, shared C.size_t) (r C.int) {
	defer guard("cudaOccupancyMaxActiveBlocksPerMultiprocessor", &r)()
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, fn, blockSize, shared, 0)
}

//export cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags
func cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n *C.int, fn unsafe.Pointer, blockSize C.int, shared C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", &r)()
	k := lookupKernel(fn)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if code := k.resolve(); code != success {
		return ret(code)
	}
	*n = C.int(occupancy(int(blockSize), int(shared)+k.fn.StaticShared))
	return success
}

//export cudaOccupancyAvailableDynamicSMemPerBlock
func cudaOccupancyAvailableDynamicSMemPerBlock(size *C.size_t, fn unsafe.Pointer, numBlocks, blockSize C.int) (r C.int) {
	defer guard("cudaOccupancyAvailableDynamicSMemPerBlock", &r)()
	k := lookupKernel(fn)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if code := k.resolve(); code != success {
		return ret(code)
	}
	*size = C.size_t(max(0, min(runtime.MaxSharedBytes, sharedPerSM/max(int(numBlocks), 1))-k.fn.StaticShared))
	return success
}

// Streams and events. Every stream runs its work when it is issued, so synchronizing waits for
// nothing; events record the time at which they are issued.

//export cudaStreamCreate
func cudaStreamCreate(s *unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamCreate", &r)()
	return cudaStreamCreateWithFlags(s, 0)
}

//export cudaStreamCreateWithFlags
func cudaStreamCreateWithFlags(s *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaStreamCreateWithFlags", &r)()
	h := handle()
	state.mu.Lock()
	state.streams[uintptr(h)] = true
	state.mu.Unlock()
	*s = h
	return success
}

//export cudaStreamCreateWithPriority
func cudaStreamCreateWithPriority(s *unsafe.Pointer, flags C.uint, priority C.int) (r C.int) {
	defer guard("cudaStreamCreateWithPriority", &r)()
	return cudaStreamCreateWithFlags(s, flags)
}

// validStream reports whether s is the default stream (0, cudaStreamLegacy or
// cudaStreamPerThread) or a live stream.
func validStream(s unsafe.Pointer) bool {
	if uintptr(s) <= 2 {
		return true
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.streams[uintptr(s)]
}

//export cudaStreamDestroy
func cudaStreamDestroy(s unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamDestroy", &r)()
	state.mu.Lock()
	ok := state.streams[uintptr(s)]
	delete(state.streams, uintptr(s))
	state.mu.Unlock()
	if !ok {
		return ret(errInvalidResourceHandle)
	}
	C.free(s)
	return success
}

//export cudaStreamSynchronize
func cudaStreamSynchronize(s unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamSynchronize", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	return synchronize()
}

//export cudaStreamQuery
func cudaStreamQuery(s unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamQuery", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	return check()
}

//export cudaStreamAddCallback
func cudaStreamAddCallback(s, fn, data unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaStreamAddCallback", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	op := hostOp{fn: fn, data: data, callback: true, stream: s}
	if !captured(s, op) {
		op.run()
	}
	return success
}

//export cudaLaunchHostFunc
func cudaLaunchHostFunc(s, fn, data unsafe.Pointer) (r C.int) {
	defer guard("cudaLaunchHostFunc", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	op := hostOp{fn: fn, data: data}
	if !captured(s, op) {
		op.run()
	}
	return success
}

//export cudaStreamWaitEvent
func cudaStreamWaitEvent(s, e unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaStreamWaitEvent", &r)()
	if !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	if ev := lookupEvent(e); ev != nil {
		state.mu.Lock()
		inCapture, code := waitCaptured(s, ev)
		state.mu.Unlock()
		if inCapture {
			return ret(code)
		}
	}
	return check()
}

//export cudaEventCreate
func cudaEventCreate(e *unsafe.Pointer) (r C.int) {
	defer guard("cudaEventCreate", &r)()
	return cudaEventCreateWithFlags(e, 0)
}

//export cudaEventCreateWithFlags
func cudaEventCreateWithFlags(e *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaEventCreateWithFlags", &r)()
	h := handle()
	state.mu.Lock()
	state.events[uintptr(h)] = &event{}
	state.mu.Unlock()
	*e = h
	return success
}

// lookupEvent returns the event of handle e.
func lookupEvent(e unsafe.Pointer) *event {
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.events[uintptr(e)]
}

//export cudaEventRecord
func cudaEventRecord(e, s unsafe.Pointer) (r C.int) {
	defer guard("cudaEventRecord", &r)()
	ev := lookupEvent(e)
	if ev == nil || !validStream(s) {
		return ret(errInvalidResourceHandle)
	}
	state.mu.Lock()
	inCapture := recordCaptured(ev, s)
	if !inCapture {
		ev.recorded, ev.at = true, int64(time.Since(start))
	}
	state.mu.Unlock()
	if inCapture {
		return success
	}
	return check()
}

//export cudaEventRecordWithFlags
func cudaEventRecordWithFlags(e, s unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cudaEventRecordWithFlags", &r)()
	return cudaEventRecord(e, s)
}

//export cudaEventSynchronize
func cudaEventSynchronize(e unsafe.Pointer) (r C.int) {
	defer guard("cudaEventSynchronize", &r)()
	if lookupEvent(e) == nil {
		return ret(errInvalidResourceHandle)
	}
	return synchronize()
}

//export cudaEventQuery
func cudaEventQuery(e unsafe.Pointer) (r C.int) {
	defer guard("cudaEventQuery", &r)()
	if lookupEvent(e) == nil {
		return ret(errInvalidResourceHandle)
	}
	return check()
}

//export cudaEventDestroy
func cudaEventDestroy(e unsafe.Pointer) (r C.int) {
	defer guard("cudaEventDestroy", &r)()
	state.mu.Lock()
	_, ok := state.events[uintptr(e)]
	delete(state.events, uintptr(e))
	state.mu.Unlock()
	if !ok {
		return ret(errInvalidResourceHandle)
	}
	C.free(e)
	return success
}

// cudaEventElapsedTime is the real time in milliseconds between two recorded events.
//
//export cudaEventElapsedTime
func cudaEventElapsedTime(ms *C.float, e0, e1 unsafe.Pointer) (r C.int) {
	defer guard("cudaEventElapsedTime", &r)()
	a, b := lookupEvent(e0), lookupEvent(e1)
	if a == nil || b == nil {
		return ret(errInvalidResourceHandle)
	}
	state.mu.Lock()
	recorded, elapsed := a.recorded && b.recorded, b.at-a.at
	state.mu.Unlock()
	if !recorded {
		return ret(errInvalidResourceHandle)
	}
	*ms = C.float(float64(elapsed) / 1e6)
	return success
}
