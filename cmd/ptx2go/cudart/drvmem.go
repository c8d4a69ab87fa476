package main

// #include "cudart.h"
// #include "drvtypes.h"
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The driver API's 2D and 3D copies and memsets, managed memory, pointer attributes and memory
// pools: adapters over the runtime API's (runtime_api.go, graph.go, mempool.go), which NVIDIA's
// static runtime reaches through them. CUdeviceptr is a device address, as the runtime API's
// pointers are.

// The CUmemorytype values of CUDA_MEMCPY2D and CUDA_MEMCPY3D.
const (
	memTypeHost    = 1
	memTypeDevice  = 2
	memTypeArray   = 3
	memTypeUnified = 4
)

// memcpy3DParams converts a CUDA_MEMCPY3D to the runtime's cudaMemcpy3DParms: each side is a
// pitched pointer (host, device or unified memory: the copy finds out which, as
// cudaMemcpyDefault does) or a CUDA array, at an offset of bytes, rows and slices.
func memcpy3DParams(p *C.struct_ptx2go_memcpy3D) (*C.struct_cudaMemcpy3DParms, C.int) {
	if p == nil || p.srcLOD != 0 || p.dstLOD != 0 || p.reserved0 != nil || p.reserved1 != nil {
		return nil, errInvalidValue
	}
	q := &C.struct_cudaMemcpy3DParms{
		extent: C.struct_cudaExtent{width: p.WidthInBytes, height: p.Height, depth: p.Depth},
		kind:   copyDefault,
	}
	var ok1, ok2 bool
	q.srcArray, q.srcPtr, ok1 = copySide(p.srcMemoryType, unsafe.Pointer(p.srcHost), p.srcDevice, p.srcArray, p.srcPitch, p.srcHeight, p.srcXInBytes, p.WidthInBytes, p.Height, p.Depth)
	q.dstArray, q.dstPtr, ok2 = copySide(p.dstMemoryType, p.dstHost, p.dstDevice, p.dstArray, p.dstPitch, p.dstHeight, p.dstXInBytes, p.WidthInBytes, p.Height, p.Depth)
	if !ok1 || !ok2 {
		return nil, errInvalidValue
	}
	q.srcPos = C.struct_cudaPos{x: p.srcXInBytes, y: p.srcY, z: p.srcZ}
	q.dstPos = C.struct_cudaPos{x: p.dstXInBytes, y: p.dstY, z: p.dstZ}
	// cudaMemcpy3D counts an array's extent and position in its elements (texture.go).
	if !arrayBytesToElements(q) {
		return nil, errInvalidValue
	}
	return q, success
}

// copySide gives one side of a driver copy as the runtime's: a CUDA array, or a pitched
// pointer. A single row needs no pitch (the driver takes 0 there).
func copySide(memType C.int, host unsafe.Pointer, dev C.ulonglong, array unsafe.Pointer, pitch, height, x, width, rows, depth C.size_t) (unsafe.Pointer, C.struct_cudaPitchedPtr, bool) {
	var ptr unsafe.Pointer
	switch memType {
	case memTypeHost:
		ptr = host
	case memTypeDevice, memTypeUnified:
		ptr = devPtr(runtime.Ptr(dev))
	case memTypeArray:
		return array, C.struct_cudaPitchedPtr{}, array != nil
	default:
		return nil, C.struct_cudaPitchedPtr{}, false
	}
	if pitch == 0 && rows <= 1 && depth <= 1 {
		pitch = x + width
	}
	return nil, C.struct_cudaPitchedPtr{ptr: ptr, pitch: pitch, xsize: width, ysize: height}, true
}

// memcpy2DParams converts a CUDA_MEMCPY2D to a 3D copy of one slice.
func memcpy2DParams(p *C.struct_ptx2go_memcpy2D) (*C.struct_cudaMemcpy3DParms, C.int) {
	if p == nil {
		return nil, errInvalidValue
	}
	return memcpy3DParams(&C.struct_ptx2go_memcpy3D{
		srcXInBytes: p.srcXInBytes, srcY: p.srcY, srcMemoryType: p.srcMemoryType, srcHost: p.srcHost,
		srcDevice: p.srcDevice, srcArray: p.srcArray, srcPitch: p.srcPitch, srcHeight: p.Height,
		dstXInBytes: p.dstXInBytes, dstY: p.dstY, dstMemoryType: p.dstMemoryType, dstHost: p.dstHost,
		dstDevice: p.dstDevice, dstArray: p.dstArray, dstPitch: p.dstPitch, dstHeight: p.Height,
		WidthInBytes: p.WidthInBytes, Height: p.Height, Depth: 1,
	})
}

//export cuMemcpy3D_v2
func cuMemcpy3D_v2(p *C.struct_ptx2go_memcpy3D) (r C.int) {
	defer guard("cuMemcpy3D_v2", &r)()
	q, code := memcpy3DParams(p)
	if code != success {
		return code
	}
	return drv(cudaMemcpy3D(q))
}

//export cuMemcpy3D_v2_ptds
func cuMemcpy3D_v2_ptds(p *C.struct_ptx2go_memcpy3D) C.int { return cuMemcpy3D_v2(p) }

//export cuMemcpy3DAsync_v2
func cuMemcpy3DAsync_v2(p *C.struct_ptx2go_memcpy3D, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpy3DAsync_v2", &r)()
	q, code := memcpy3DParams(p)
	if code != success {
		return code
	}
	return drv(cudaMemcpy3DAsync(q, s))
}

//export cuMemcpy3DAsync_v2_ptsz
func cuMemcpy3DAsync_v2_ptsz(p *C.struct_ptx2go_memcpy3D, s unsafe.Pointer) C.int {
	return cuMemcpy3DAsync_v2(p, s)
}

//export cuMemcpy2D_v2
func cuMemcpy2D_v2(p *C.struct_ptx2go_memcpy2D) (r C.int) {
	defer guard("cuMemcpy2D_v2", &r)()
	q, code := memcpy2DParams(p)
	if code != success {
		return code
	}
	return drv(cudaMemcpy3D(q))
}

//export cuMemcpy2D_v2_ptds
func cuMemcpy2D_v2_ptds(p *C.struct_ptx2go_memcpy2D) C.int { return cuMemcpy2D_v2(p) }

// cuMemcpy2DUnaligned_v2 is cuMemcpy2D_v2 without its alignment rules, which the drop-in's
// copies do not have.
//
//export cuMemcpy2DUnaligned_v2
func cuMemcpy2DUnaligned_v2(p *C.struct_ptx2go_memcpy2D) (r C.int) {
	defer guard("cuMemcpy2DUnaligned_v2", &r)()
	return cuMemcpy2D_v2(p)
}

//export cuMemcpy2DUnaligned_v2_ptds
func cuMemcpy2DUnaligned_v2_ptds(p *C.struct_ptx2go_memcpy2D) C.int {
	return cuMemcpy2DUnaligned_v2(p)
}

//export cuMemcpy2DAsync_v2
func cuMemcpy2DAsync_v2(p *C.struct_ptx2go_memcpy2D, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemcpy2DAsync_v2", &r)()
	q, code := memcpy2DParams(p)
	if code != success {
		return code
	}
	return drv(cudaMemcpy3DAsync(q, s))
}

//export cuMemcpy2DAsync_v2_ptsz
func cuMemcpy2DAsync_v2_ptsz(p *C.struct_ptx2go_memcpy2D, s unsafe.Pointer) C.int {
	return cuMemcpy2DAsync_v2(p, s)
}

// memsetD2D fills height rows, pitch bytes apart, of width elements of size bytes with v, as
// a graph memset node does (memsetElements); async in stream s, which may be capturing.
func memsetD2D(dst C.ulonglong, pitch C.size_t, v uint32, size int, width, height C.size_t, s unsafe.Pointer, async bool) C.int {
	if e := initialized(); e != success {
		return e
	}
	p := C.struct_cudaMemsetParams{dst: devPtr(runtime.Ptr(dst)), pitch: pitch, value: C.uint(v), elementSize: C.uint(size), width: width, height: height}
	if async && captured(s, setOp{p}) {
		return success
	}
	return drv(memsetElements(&p))
}

//export cuMemsetD2D8_v2
func cuMemsetD2D8_v2(dst C.ulonglong, pitch C.size_t, v C.uchar, w, h C.size_t) (r C.int) {
	defer guard("cuMemsetD2D8_v2", &r)()
	return memsetD2D(dst, pitch, uint32(v), 1, w, h, nil, false)
}

//export cuMemsetD2D16_v2
func cuMemsetD2D16_v2(dst C.ulonglong, pitch C.size_t, v C.ushort, w, h C.size_t) (r C.int) {
	defer guard("cuMemsetD2D16_v2", &r)()
	return memsetD2D(dst, pitch, uint32(v), 2, w, h, nil, false)
}

//export cuMemsetD2D32_v2
func cuMemsetD2D32_v2(dst C.ulonglong, pitch C.size_t, v C.uint, w, h C.size_t) (r C.int) {
	defer guard("cuMemsetD2D32_v2", &r)()
	return memsetD2D(dst, pitch, uint32(v), 4, w, h, nil, false)
}

//export cuMemsetD2D8_v2_ptds
func cuMemsetD2D8_v2_ptds(dst C.ulonglong, pitch C.size_t, v C.uchar, w, h C.size_t) C.int {
	return cuMemsetD2D8_v2(dst, pitch, v, w, h)
}

//export cuMemsetD2D16_v2_ptds
func cuMemsetD2D16_v2_ptds(dst C.ulonglong, pitch C.size_t, v C.ushort, w, h C.size_t) C.int {
	return cuMemsetD2D16_v2(dst, pitch, v, w, h)
}

//export cuMemsetD2D32_v2_ptds
func cuMemsetD2D32_v2_ptds(dst C.ulonglong, pitch C.size_t, v C.uint, w, h C.size_t) C.int {
	return cuMemsetD2D32_v2(dst, pitch, v, w, h)
}

//export cuMemsetD2D8Async
func cuMemsetD2D8Async(dst C.ulonglong, pitch C.size_t, v C.uchar, w, h C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD2D8Async", &r)()
	return memsetD2D(dst, pitch, uint32(v), 1, w, h, s, true)
}

//export cuMemsetD2D16Async
func cuMemsetD2D16Async(dst C.ulonglong, pitch C.size_t, v C.ushort, w, h C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD2D16Async", &r)()
	return memsetD2D(dst, pitch, uint32(v), 2, w, h, s, true)
}

//export cuMemsetD2D32Async
func cuMemsetD2D32Async(dst C.ulonglong, pitch C.size_t, v C.uint, w, h C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemsetD2D32Async", &r)()
	return memsetD2D(dst, pitch, uint32(v), 4, w, h, s, true)
}

//export cuMemsetD2D8Async_ptsz
func cuMemsetD2D8Async_ptsz(dst C.ulonglong, pitch C.size_t, v C.uchar, w, h C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD2D8Async(dst, pitch, v, w, h, s)
}

//export cuMemsetD2D16Async_ptsz
func cuMemsetD2D16Async_ptsz(dst C.ulonglong, pitch C.size_t, v C.ushort, w, h C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD2D16Async(dst, pitch, v, w, h, s)
}

//export cuMemsetD2D32Async_ptsz
func cuMemsetD2D32Async_ptsz(dst C.ulonglong, pitch C.size_t, v C.uint, w, h C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD2D32Async(dst, pitch, v, w, h, s)
}

// Managed memory. CUmem_advise, CU_MEM_ATTACH_* and CU_DEVICE_CPU have the runtime's values.

// locationDevice gives the device of a CUmemLocation (CUDA 12.2's _v2 entry points): the
// device's ordinal, or the host (a host NUMA node too) as cudaCpuDeviceId.
func locationDevice(l C.struct_ptx2go_memLocation) (C.int, bool) {
	switch l._type {
	case 1:
		return l.id, true
	case 2, 3, 4:
		return cpuDeviceID, true
	}
	return 0, false
}

//export cuMemAdvise
func cuMemAdvise(p C.ulonglong, n C.size_t, advice C.int, dev C.int) (r C.int) {
	defer guard("cuMemAdvise", &r)()
	return drv(cudaMemAdvise(devPtr(runtime.Ptr(p)), n, advice, dev))
}

//export cuMemAdvise_v2
func cuMemAdvise_v2(p C.ulonglong, n C.size_t, advice C.int, loc C.struct_ptx2go_memLocation) (r C.int) {
	defer guard("cuMemAdvise_v2", &r)()
	dev, ok := locationDevice(loc)
	if !ok {
		return errInvalidValue
	}
	return drv(cudaMemAdvise(devPtr(runtime.Ptr(p)), n, advice, dev))
}

//export cuMemPrefetchAsync
func cuMemPrefetchAsync(p C.ulonglong, n C.size_t, dev C.int, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemPrefetchAsync", &r)()
	return drv(cudaMemPrefetchAsync(devPtr(runtime.Ptr(p)), n, dev, s))
}

//export cuMemPrefetchAsync_ptsz
func cuMemPrefetchAsync_ptsz(p C.ulonglong, n C.size_t, dev C.int, s unsafe.Pointer) C.int {
	return cuMemPrefetchAsync(p, n, dev, s)
}

//export cuMemPrefetchAsync_v2
func cuMemPrefetchAsync_v2(p C.ulonglong, n C.size_t, loc C.struct_ptx2go_memLocation, flags C.uint, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemPrefetchAsync_v2", &r)()
	dev, ok := locationDevice(loc)
	if !ok || flags != 0 {
		return errInvalidValue
	}
	return drv(cudaMemPrefetchAsync(devPtr(runtime.Ptr(p)), n, dev, s))
}

//export cuMemPrefetchAsync_v2_ptsz
func cuMemPrefetchAsync_v2_ptsz(p C.ulonglong, n C.size_t, loc C.struct_ptx2go_memLocation, flags C.uint, s unsafe.Pointer) C.int {
	return cuMemPrefetchAsync_v2(p, n, loc, flags, s)
}

//export cuStreamAttachMemAsync
func cuStreamAttachMemAsync(s unsafe.Pointer, p C.ulonglong, n C.size_t, flags C.uint) (r C.int) {
	defer guard("cuStreamAttachMemAsync", &r)()
	return drv(cudaStreamAttachMemAsync(s, devPtr(runtime.Ptr(p)), n, flags))
}

//export cuStreamAttachMemAsync_ptsz
func cuStreamAttachMemAsync_ptsz(s unsafe.Pointer, p C.ulonglong, n C.size_t, flags C.uint) C.int {
	return cuStreamAttachMemAsync(s, p, n, flags)
}

// Pointer attributes.

// The CUpointer_attribute values cuPointerGetAttributes answers.
const (
	ptrContext       = 1
	ptrMemoryType    = 2
	ptrDevicePointer = 3
	ptrHostPointer   = 4
	ptrP2PTokens     = 5
	ptrSyncMemops    = 6
	ptrBufferID      = 7
	ptrIsManaged     = 8
	ptrDeviceOrdinal = 9
	ptrLegacyIPC     = 10
	ptrRangeStart    = 11
	ptrRangeSize     = 12
	ptrMapped        = 13
	ptrHandleTypes   = 14
	ptrRDMA          = 15
	ptrAccessFlags   = 16
	ptrMemPool       = 17
	ptrMappingSize   = 18
	ptrMappingBase   = 19
	ptrMemoryBlockID = 20
)

// cuPointerGetAttributes describes ptr as cudaPointerGetAttributes does (device memory,
// page-locked or registered host memory, managed memory) and, unlike cuPointerGetAttribute,
// answers for memory the drop-in does not know with the attributes' empty values (memory type
// 0, NULL pointers, device ordinal -2), as the driver does.
//
//export cuPointerGetAttributes
func cuPointerGetAttributes(num C.uint, attrs *C.int, data *unsafe.Pointer, ptr C.ulonglong) (r C.int) {
	defer guard("cuPointerGetAttributes", &r)()
	if num > 0 && (attrs == nil || data == nil) {
		return errInvalidValue
	}
	if e := initialized(); e != success {
		return e
	}
	p := devPtr(runtime.Ptr(ptr))
	var a C.struct_cudaPointerAttributes
	if e := cudaPointerGetAttributes(&a, p); e != success {
		return drv(e)
	}
	known := a._type != 0
	var base, size uint64
	if b, _, n, ok := hostRange(uintptr(ptr)); ok {
		base, size = uint64(b), uint64(n)
	} else if b, n, ok := allocRange(runtime.Ptr(ptr)); ok {
		base, size = uint64(b), uint64(n)
	}
	b2i := func(b bool) C.int {
		if b {
			return 1
		}
		return 0
	}
	for i, attr := range unsafe.Slice(attrs, num) {
		d := unsafe.Slice(data, num)[i]
		if d == nil {
			return errInvalidValue
		}
		switch attr {
		case ptrContext, ptrMemPool:
			*(*unsafe.Pointer)(d) = nil
			if known && attr == ptrContext {
				*(*unsafe.Pointer)(d) = ctxs.primary
			}
		case ptrMemoryType:
			*(*C.uint)(d) = [4]C.uint{0, memTypeHost, memTypeDevice, memTypeDevice}[a._type]
		case ptrDevicePointer:
			*(*C.ulonglong)(d) = C.ulonglong(uintptr(a.devicePointer))
		case ptrHostPointer:
			*(*unsafe.Pointer)(d) = a.hostPointer
		case ptrP2PTokens:
			*(*[2]C.ulonglong)(d) = [2]C.ulonglong{}
		case ptrSyncMemops, ptrLegacyIPC, ptrRDMA:
			*(*C.int)(d) = 0
		case ptrBufferID, ptrMemoryBlockID:
			*(*C.ulonglong)(d) = C.ulonglong(base)
		case ptrIsManaged:
			*(*C.int)(d) = b2i(a._type == 3)
		case ptrDeviceOrdinal:
			*(*C.int)(d) = -2 // CU_DEVICE_INVALID
			if known {
				*(*C.int)(d) = 0
			}
		case ptrRangeStart, ptrMappingBase:
			*(*C.ulonglong)(d) = C.ulonglong(base)
		case ptrRangeSize, ptrMappingSize:
			*(*C.size_t)(d) = C.size_t(size)
		case ptrMapped:
			*(*C.int)(d) = b2i(known)
		case ptrHandleTypes:
			*(*C.ulonglong)(d) = 0
		case ptrAccessFlags:
			*(*C.int)(d) = 0
			if known {
				*(*C.int)(d) = 3 // CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
			}
		default:
			return errInvalidValue
		}
	}
	return success
}

// Memory pools. CUmemPoolProps and CUmemPool_attribute are the runtime's.

//export cuDeviceGetDefaultMemPool
func cuDeviceGetDefaultMemPool(pool *unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cuDeviceGetDefaultMemPool", &r)()
	return drv(cudaDeviceGetDefaultMemPool(pool, dev))
}

//export cuDeviceGetMemPool
func cuDeviceGetMemPool(pool *unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cuDeviceGetMemPool", &r)()
	return drv(cudaDeviceGetMemPool(pool, dev))
}

//export cuDeviceSetMemPool
func cuDeviceSetMemPool(dev C.int, pool unsafe.Pointer) (r C.int) {
	defer guard("cuDeviceSetMemPool", &r)()
	return drv(cudaDeviceSetMemPool(dev, pool))
}

//export cuMemPoolCreate
func cuMemPoolCreate(pool *unsafe.Pointer, props unsafe.Pointer) (r C.int) {
	defer guard("cuMemPoolCreate", &r)()
	return drv(cudaMemPoolCreate(pool, props))
}

//export cuMemPoolDestroy
func cuMemPoolDestroy(pool unsafe.Pointer) (r C.int) {
	defer guard("cuMemPoolDestroy", &r)()
	return drv(cudaMemPoolDestroy(pool))
}

//export cuMemPoolSetAttribute
func cuMemPoolSetAttribute(pool unsafe.Pointer, attr C.int, value unsafe.Pointer) (r C.int) {
	defer guard("cuMemPoolSetAttribute", &r)()
	return drv(cudaMemPoolSetAttribute(pool, attr, value))
}

//export cuMemPoolGetAttribute
func cuMemPoolGetAttribute(pool unsafe.Pointer, attr C.int, value unsafe.Pointer) (r C.int) {
	defer guard("cuMemPoolGetAttribute", &r)()
	return drv(cudaMemPoolGetAttribute(pool, attr, value))
}

//export cuMemPoolTrimTo
func cuMemPoolTrimTo(pool unsafe.Pointer, minBytes C.size_t) (r C.int) {
	defer guard("cuMemPoolTrimTo", &r)()
	return drv(cudaMemPoolTrimTo(pool, minBytes))
}

//export cuMemAllocAsync
func cuMemAllocAsync(dptr *C.ulonglong, size C.size_t, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemAllocAsync", &r)()
	if dptr == nil {
		return errInvalidValue
	}
	var p unsafe.Pointer
	if e := cudaMallocAsync(&p, size, s); e != success {
		return drv(e)
	}
	*dptr = C.ulonglong(uintptr(p))
	return success
}

//export cuMemAllocAsync_ptsz
func cuMemAllocAsync_ptsz(dptr *C.ulonglong, size C.size_t, s unsafe.Pointer) C.int {
	return cuMemAllocAsync(dptr, size, s)
}

//export cuMemAllocFromPoolAsync
func cuMemAllocFromPoolAsync(dptr *C.ulonglong, size C.size_t, pool, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemAllocFromPoolAsync", &r)()
	if dptr == nil {
		return errInvalidValue
	}
	var p unsafe.Pointer
	if e := cudaMallocFromPoolAsync(&p, size, pool, s); e != success {
		return drv(e)
	}
	*dptr = C.ulonglong(uintptr(p))
	return success
}

//export cuMemAllocFromPoolAsync_ptsz
func cuMemAllocFromPoolAsync_ptsz(dptr *C.ulonglong, size C.size_t, pool, s unsafe.Pointer) C.int {
	return cuMemAllocFromPoolAsync(dptr, size, pool, s)
}

//export cuMemFreeAsync
func cuMemFreeAsync(p C.ulonglong, s unsafe.Pointer) (r C.int) {
	defer guard("cuMemFreeAsync", &r)()
	return drv(cudaFreeAsync(devPtr(runtime.Ptr(p)), s))
}

//export cuMemFreeAsync_ptsz
func cuMemFreeAsync_ptsz(p C.ulonglong, s unsafe.Pointer) C.int { return cuMemFreeAsync(p, s) }
