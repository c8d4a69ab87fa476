package main

// CUDA arrays, texture and surface objects and the legacy texture and surface references of
// the runtime API. An array is a runtime.Array (its memory opaque, packed as runtime/texture.go
// says) behind a small C handle, which is also the driver API's CUarray (drvtexture.go); a
// texture or surface object is the runtime's 64-bit handle itself. A texture<> or surface<>
// variable's host shadow, registered by nvcc's host code, names the module's .texref or
// .surfref variable; binding it makes an object and stores its handle there
// (runtime.Device.BindReference).

/*
#include "cudart.h"
#include "texture.h"
*/
import "C"

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// arrays maps each array handle to its array.
var arrays struct {
	sync.Mutex
	m map[uintptr]*runtime.Array
}

// arrayAt returns the array of a handle, nil for none.
func arrayAt(h unsafe.Pointer) *runtime.Array {
	arrays.Lock()
	defer arrays.Unlock()
	return arrays.m[uintptr(h)]
}

// newArray allocates an array and returns its handle.
func newArray(f runtime.ChannelFormat, width, height, depth int, flags C.uint) (unsafe.Pointer, cudaError) {
	// The depth-texture and color-attachment flags change nothing on a CPU.
	flags &^= 0x10 | 0x20
	a, err := device().MallocArray(f, width, height, depth, runtime.ArrayFlags(flags))
	if err != nil {
		warnOnce(err.Error())
		return nil, errInvalidValue
	}
	h := handle()
	arrays.Lock()
	if arrays.m == nil {
		arrays.m = map[uintptr]*runtime.Array{}
	}
	arrays.m[uintptr(h)] = a
	arrays.Unlock()
	return h, success
}

// freeArray frees an array and its handle.
func freeArray(h unsafe.Pointer) cudaError {
	arrays.Lock()
	a := arrays.m[uintptr(h)]
	delete(arrays.m, uintptr(h))
	arrays.Unlock()
	if a == nil || device().FreeArray(a) != nil {
		return errInvalidValue
	}
	C.free(h)
	return success
}

// channelFormat converts a cudaChannelFormatDesc.
func channelFormat(d C.struct_cudaChannelFormatDesc) runtime.ChannelFormat {
	return runtime.ChannelFormat{Bits: [4]int{int(d.x), int(d.y), int(d.z), int(d.w)}, Kind: runtime.ChannelKind(d.f)}
}

// channelDesc converts back.
func channelDesc(f runtime.ChannelFormat) C.struct_cudaChannelFormatDesc {
	return C.struct_cudaChannelFormatDesc{x: C.int(f.Bits[0]), y: C.int(f.Bits[1]), z: C.int(f.Bits[2]), w: C.int(f.Bits[3]), f: C.int(f.Kind)}
}

//export cudaCreateChannelDesc
func cudaCreateChannelDesc(x, y, z, w, f C.int) C.struct_cudaChannelFormatDesc {
	return C.struct_cudaChannelFormatDesc{x: x, y: y, z: z, w: w, f: f}
}

//export cudaMallocArray
func cudaMallocArray(p *unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc, width, height C.size_t, flags C.uint) (r C.int) {
	defer guard("cudaMallocArray", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil || desc == nil {
		return ret(errInvalidValue)
	}
	h, code := newArray(channelFormat(*desc), int(width), int(height), 0, flags)
	if code != success {
		return ret(code)
	}
	*p = h
	return success
}

//export cudaMalloc3DArray
func cudaMalloc3DArray(p *unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc, e C.struct_cudaExtent, flags C.uint) (r C.int) {
	defer guard("cudaMalloc3DArray", &r)()
	if err := check(); err != success {
		return err
	}
	if p == nil || desc == nil {
		return ret(errInvalidValue)
	}
	h, code := newArray(channelFormat(*desc), int(e.width), int(e.height), int(e.depth), flags)
	if code != success {
		return ret(code)
	}
	*p = h
	return success
}

//export cudaFreeArray
func cudaFreeArray(h unsafe.Pointer) (r C.int) {
	defer guard("cudaFreeArray", &r)()
	if h == nil {
		return success
	}
	return ret(freeArray(h))
}

// cudaArrayGetInfo returns an array's format, extent as it was made (0 for an absent
// dimension) and flags.
//
//export cudaArrayGetInfo
func cudaArrayGetInfo(desc *C.struct_cudaChannelFormatDesc, extent *C.struct_cudaExtent, flags *C.uint, h unsafe.Pointer) (r C.int) {
	defer guard("cudaArrayGetInfo", &r)()
	a := arrayAt(h)
	if a == nil {
		return ret(errInvalidValue)
	}
	if desc != nil {
		*desc = channelDesc(a.Format)
	}
	if extent != nil {
		*extent = C.struct_cudaExtent{width: C.size_t(a.Width), height: C.size_t(a.Height), depth: C.size_t(a.Depth)}
	}
	if flags != nil {
		*flags = C.uint(a.Flags)
	}
	return success
}

//export cudaGetChannelDesc
func cudaGetChannelDesc(desc *C.struct_cudaChannelFormatDesc, h unsafe.Pointer) (r C.int) {
	defer guard("cudaGetChannelDesc", &r)()
	a := arrayAt(h)
	if a == nil || desc == nil {
		return ret(errInvalidValue)
	}
	*desc = channelDesc(a.Format)
	return success
}

// copySide is one side of a copy to, from or between arrays: an array at (x bytes, y, z), or
// host or device memory at ptr with rows pitch bytes and slices slicePitch bytes apart.
type copySideArr struct {
	a                 *runtime.Array
	x, y, z           int
	ptr               unsafe.Pointer
	pitch, slicePitch int
}

// arrayCopy copies a box of rowBytes x rows x slices bytes between two sides, at least one of
// them an array, through a staging buffer (memcpy finds out whether a pointer is host or
// device memory).
func arrayCopy(dst, src copySideArr, rowBytes, rows, slices int) cudaError {
	if e := check(); e != success {
		return e
	}
	if rowBytes == 0 || rows == 0 || slices == 0 {
		return success
	}
	if rowBytes < 0 || rows < 0 || slices < 0 {
		return ret(errInvalidValue)
	}
	stage := make([]byte, rowBytes*rows*slices)
	if src.a != nil {
		if err := src.a.Copy(false, stage, rowBytes, rowBytes*rows, src.x, src.y, src.z, rowBytes, rows, slices); err != nil {
			warnOnce(err.Error())
			return ret(errInvalidValue)
		}
	} else {
		if src.ptr == nil || src.pitch < rowBytes || slices > 1 && src.slicePitch < src.pitch*rows {
			return ret(errInvalidPitchValue)
		}
		for s := range slices {
			for r := range rows {
				p := unsafe.Add(src.ptr, s*src.slicePitch+r*src.pitch)
				if e := memcpy(unsafe.Pointer(&stage[(s*rows+r)*rowBytes]), p, rowBytes, copyDefault); e != success {
					return e
				}
			}
		}
	}
	if dst.a != nil {
		if err := dst.a.Copy(true, stage, rowBytes, rowBytes*rows, dst.x, dst.y, dst.z, rowBytes, rows, slices); err != nil {
			warnOnce(err.Error())
			return ret(errInvalidValue)
		}
		return success
	}
	if dst.ptr == nil || dst.pitch < rowBytes || slices > 1 && dst.slicePitch < dst.pitch*rows {
		return ret(errInvalidPitchValue)
	}
	for s := range slices {
		for r := range rows {
			p := unsafe.Add(dst.ptr, s*dst.slicePitch+r*dst.pitch)
			if e := memcpy(p, unsafe.Pointer(&stage[(s*rows+r)*rowBytes]), rowBytes, copyDefault); e != success {
				return e
			}
		}
	}
	return success
}

// array2D is the array side of a 2D copy at byte wOffset of row hOffset.
func array2D(h unsafe.Pointer, wOffset, hOffset C.size_t) (copySideArr, bool) {
	a := arrayAt(h)
	return copySideArr{a: a, x: int(wOffset), y: int(hOffset)}, a != nil
}

// memcpy3DArray is cudaMemcpy3D (graph.go) when one side or both are arrays: the extent is in
// the array's elements, as are the array's position; a pointer's position is in bytes.
func memcpy3DArray(p *C.struct_cudaMemcpy3DParms) cudaError {
	elem := 0
	side := func(arr unsafe.Pointer, pos C.struct_cudaPos, pp C.struct_cudaPitchedPtr) (copySideArr, bool) {
		if arr != nil {
			a := arrayAt(arr)
			if a == nil {
				return copySideArr{}, false
			}
			if elem == 0 {
				elem = a.Format.ElemSize()
			}
			return copySideArr{a: a, x: int(pos.x) * a.Format.ElemSize(), y: int(pos.y), z: int(pos.z)}, true
		}
		return copySideArr{ptr: unsafe.Add(pp.ptr, (pos.z*pp.ysize+pos.y)*pp.pitch+pos.x), pitch: int(pp.pitch), slicePitch: int(pp.pitch * pp.ysize)}, true
	}
	src, ok1 := side(p.srcArray, p.srcPos, p.srcPtr)
	dst, ok2 := side(p.dstArray, p.dstPos, p.dstPtr)
	if !ok1 || !ok2 {
		return ret(errInvalidValue)
	}
	return arrayCopy(dst, src, int(p.extent.width)*elem, int(p.extent.height), int(p.extent.depth))
}

// arrayBytesToElements turns a copy described in bytes (the driver API's CUDA_MEMCPY3D, which
// drvmem.go converts) into cudaMemcpy3D's units when an array takes part: its extent width and
// the array's x position in the array's elements.
func arrayBytesToElements(q *C.struct_cudaMemcpy3DParms) bool {
	var a *runtime.Array
	if q.srcArray != nil {
		a = arrayAt(q.srcArray)
	} else if q.dstArray != nil {
		a = arrayAt(q.dstArray)
	} else {
		return true
	}
	if a == nil {
		return false
	}
	e := C.size_t(a.Format.ElemSize())
	if q.extent.width%e != 0 {
		return false
	}
	q.extent.width /= e
	if q.srcArray != nil {
		sa := arrayAt(q.srcArray)
		if sa == nil || q.srcPos.x%C.size_t(sa.Format.ElemSize()) != 0 {
			return false
		}
		q.srcPos.x /= C.size_t(sa.Format.ElemSize())
	}
	if q.dstArray != nil {
		da := arrayAt(q.dstArray)
		if da == nil || q.dstPos.x%C.size_t(da.Format.ElemSize()) != 0 {
			return false
		}
		q.dstPos.x /= C.size_t(da.Format.ElemSize())
	}
	return true
}

//export cudaMemcpy2DToArray
func cudaMemcpy2DToArray(dst unsafe.Pointer, wOffset, hOffset C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpy2DToArray", &r)()
	flushDeviceOutput()
	d, ok := array2D(dst, wOffset, hOffset)
	if !ok {
		return ret(errInvalidValue)
	}
	return arrayCopy(d, copySideArr{ptr: src, pitch: int(spitch)}, int(width), int(height), 1)
}

//export cudaMemcpy2DToArrayAsync
func cudaMemcpy2DToArrayAsync(dst unsafe.Pointer, wOffset, hOffset C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.int, s unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpy2DToArrayAsync", &r)()
	return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind)
}

//export cudaMemcpy2DFromArray
func cudaMemcpy2DFromArray(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, wOffset, hOffset, width, height C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpy2DFromArray", &r)()
	flushDeviceOutput()
	s, ok := array2D(src, wOffset, hOffset)
	if !ok {
		return ret(errInvalidValue)
	}
	return arrayCopy(copySideArr{ptr: dst, pitch: int(dpitch)}, s, int(width), int(height), 1)
}

//export cudaMemcpy2DFromArrayAsync
func cudaMemcpy2DFromArrayAsync(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, wOffset, hOffset, width, height C.size_t, kind C.int, s unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpy2DFromArrayAsync", &r)()
	return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind)
}

//export cudaMemcpy2DArrayToArray
func cudaMemcpy2DArrayToArray(dst unsafe.Pointer, wOffsetDst, hOffsetDst C.size_t, src unsafe.Pointer, wOffsetSrc, hOffsetSrc, width, height C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpy2DArrayToArray", &r)()
	d, ok1 := array2D(dst, wOffsetDst, hOffsetDst)
	s, ok2 := array2D(src, wOffsetSrc, hOffsetSrc)
	if !ok1 || !ok2 {
		return ret(errInvalidValue)
	}
	return arrayCopy(d, s, int(width), int(height), 1)
}

// linearCopy is cudaMemcpyToArray and cudaMemcpyFromArray: count bytes from byte wOffset of
// row hOffset on, row after row.
func linearCopy(toArray bool, h unsafe.Pointer, wOffset, hOffset int, p unsafe.Pointer, count int) cudaError {
	a := arrayAt(h)
	if a == nil {
		return ret(errInvalidValue)
	}
	row := a.Width * a.Format.ElemSize()
	for count > 0 {
		n := min(count, row-wOffset)
		if n <= 0 {
			return ret(errInvalidValue)
		}
		arr := copySideArr{a: a, x: wOffset, y: hOffset}
		mem := copySideArr{ptr: p, pitch: n}
		var e cudaError
		if toArray {
			e = arrayCopy(arr, mem, n, 1, 1)
		} else {
			e = arrayCopy(mem, arr, n, 1, 1)
		}
		if e != success {
			return e
		}
		p, count, wOffset, hOffset = unsafe.Add(p, n), count-n, 0, hOffset+1
	}
	return success
}

//export cudaMemcpyToArray
func cudaMemcpyToArray(dst unsafe.Pointer, wOffset, hOffset C.size_t, src unsafe.Pointer, count C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpyToArray", &r)()
	flushDeviceOutput()
	return linearCopy(true, dst, int(wOffset), int(hOffset), src, int(count))
}

//export cudaMemcpyToArrayAsync
func cudaMemcpyToArrayAsync(dst unsafe.Pointer, wOffset, hOffset C.size_t, src unsafe.Pointer, count C.size_t, kind C.int, s unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpyToArrayAsync", &r)()
	return linearCopy(true, dst, int(wOffset), int(hOffset), src, int(count))
}

//export cudaMemcpyFromArray
func cudaMemcpyFromArray(dst unsafe.Pointer, src unsafe.Pointer, wOffset, hOffset C.size_t, count C.size_t, kind C.int) (r C.int) {
	defer guard("cudaMemcpyFromArray", &r)()
	flushDeviceOutput()
	return linearCopy(false, src, int(wOffset), int(hOffset), dst, int(count))
}

//export cudaMemcpyFromArrayAsync
func cudaMemcpyFromArrayAsync(dst unsafe.Pointer, src unsafe.Pointer, wOffset, hOffset C.size_t, count C.size_t, kind C.int, s unsafe.Pointer) (r C.int) {
	defer guard("cudaMemcpyFromArrayAsync", &r)()
	return linearCopy(false, src, int(wOffset), int(hOffset), dst, int(count))
}

// Texture and surface objects.

// resource converts a cudaResourceDesc.
func resource(d *C.struct_cudaResourceDesc) (runtime.Resource, bool) {
	u := unsafe.Pointer(&d.res)
	switch d.resType {
	case 0:
		a := arrayAt(*(*unsafe.Pointer)(u))
		return runtime.Resource{Kind: runtime.ResourceArray, Array: a}, a != nil
	case 2:
		l := (*struct {
			devPtr      unsafe.Pointer
			desc        C.struct_cudaChannelFormatDesc
			sizeInBytes C.size_t
		})(u)
		return runtime.Resource{Kind: runtime.ResourceLinear, Ptr: runtime.Ptr(uintptr(l.devPtr)),
			Format: channelFormat(l.desc), Size: int(l.sizeInBytes)}, true
	case 3:
		p := (*struct {
			devPtr                      unsafe.Pointer
			desc                        C.struct_cudaChannelFormatDesc
			width, height, pitchInBytes C.size_t
		})(u)
		return runtime.Resource{Kind: runtime.ResourcePitch2D, Ptr: runtime.Ptr(uintptr(p.devPtr)),
			Format: channelFormat(p.desc), Width: int(p.width), Height: int(p.height), Pitch: int(p.pitchInBytes)}, true
	}
	if d.resType == 1 {
		warnOnce("ptx2go: mipmapped arrays are not supported")
	}
	return runtime.Resource{}, false
}

// resourceDesc fills a cudaResourceDesc from a resource.
func resourceDesc(d *C.struct_cudaResourceDesc, r runtime.Resource) {
	*d = C.struct_cudaResourceDesc{resType: C.int(r.Kind)}
	u := unsafe.Pointer(&d.res)
	switch r.Kind {
	case runtime.ResourceArray:
		arrays.Lock()
		for h, a := range arrays.m {
			if a == r.Array {
				*(*uintptr)(u) = h
			}
		}
		arrays.Unlock()
	case runtime.ResourceLinear:
		l := (*struct {
			devPtr      unsafe.Pointer
			desc        C.struct_cudaChannelFormatDesc
			sizeInBytes C.size_t
		})(u)
		l.devPtr, l.desc, l.sizeInBytes = devPtr(r.Ptr), channelDesc(r.Format), C.size_t(r.Size)
	case runtime.ResourcePitch2D:
		p := (*struct {
			devPtr                      unsafe.Pointer
			desc                        C.struct_cudaChannelFormatDesc
			width, height, pitchInBytes C.size_t
		})(u)
		p.devPtr, p.desc = devPtr(r.Ptr), channelDesc(r.Format)
		p.width, p.height, p.pitchInBytes = C.size_t(r.Width), C.size_t(r.Height), C.size_t(r.Pitch)
	}
}

// textureDesc converts a cudaTextureDesc (the fields before CUDA 12's seamlessCubemap, which
// cudaTextureDesc_v2 also has first).
func textureDesc(td *C.struct_cudaTextureDesc) runtime.TextureDesc {
	desc := runtime.TextureDesc{Filter: runtime.FilterMode(td.filterMode), Read: runtime.ReadMode(td.readMode),
		Normalized: td.normalizedCoords != 0, SRGB: td.sRGB != 0}
	for i := range 3 {
		desc.AddressMode[i] = runtime.AddressMode(td.addressMode[i])
	}
	for i := range 4 {
		desc.BorderColor[i] = float32(td.borderColor[i])
	}
	return desc
}

// createTexture makes a texture object.
func createTexture(p *C.ulonglong, res runtime.Resource, desc runtime.TextureDesc) cudaError {
	h, err := device().CreateTexture(res, desc)
	if err != nil {
		warnOnce("ptx2go: " + err.Error())
		return errInvalidValue
	}
	*p = C.ulonglong(h)
	return success
}

//export cudaCreateTextureObject
func cudaCreateTextureObject(p *C.ulonglong, rd *C.struct_cudaResourceDesc, td *C.struct_cudaTextureDesc, view unsafe.Pointer) (r C.int) {
	defer guard("cudaCreateTextureObject", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil || rd == nil || td == nil {
		return ret(errInvalidValue)
	}
	if view != nil {
		warnOnce("ptx2go: cudaCreateTextureObject: resource views are not supported")
		return ret(errNotSupported)
	}
	res, ok := resource(rd)
	if !ok {
		return ret(errInvalidValue)
	}
	return ret(createTexture(p, res, textureDesc(td)))
}

//export cudaCreateTextureObject_v2
func cudaCreateTextureObject_v2(p *C.ulonglong, rd *C.struct_cudaResourceDesc, td *C.struct_cudaTextureDesc, view unsafe.Pointer) (r C.int) {
	defer guard("cudaCreateTextureObject_v2", &r)()
	return cudaCreateTextureObject(p, rd, td, view)
}

//export cudaDestroyTextureObject
func cudaDestroyTextureObject(h C.ulonglong) (r C.int) {
	defer guard("cudaDestroyTextureObject", &r)()
	if h != 0 && device().DestroyTexture(uint64(h)) != nil {
		return ret(errInvalidValue)
	}
	return success
}

//export cudaGetTextureObjectResourceDesc
func cudaGetTextureObjectResourceDesc(d *C.struct_cudaResourceDesc, h C.ulonglong) (r C.int) {
	defer guard("cudaGetTextureObjectResourceDesc", &r)()
	res, _, ok := device().Texture(uint64(h))
	if !ok || d == nil {
		return ret(errInvalidValue)
	}
	resourceDesc(d, res)
	return success
}

//export cudaCreateSurfaceObject
func cudaCreateSurfaceObject(p *C.ulonglong, rd *C.struct_cudaResourceDesc) (r C.int) {
	defer guard("cudaCreateSurfaceObject", &r)()
	if e := check(); e != success {
		return e
	}
	if p == nil || rd == nil {
		return ret(errInvalidValue)
	}
	res, ok := resource(rd)
	if !ok {
		return ret(errInvalidValue)
	}
	h, err := device().CreateSurface(res)
	if err != nil {
		warnOnce("ptx2go: " + err.Error())
		return ret(errInvalidValue)
	}
	*p = C.ulonglong(h)
	return success
}

//export cudaDestroySurfaceObject
func cudaDestroySurfaceObject(h C.ulonglong) (r C.int) {
	defer guard("cudaDestroySurfaceObject", &r)()
	if h != 0 && device().DestroySurface(uint64(h)) != nil {
		return ret(errInvalidValue)
	}
	return success
}

//export cudaGetSurfaceObjectResourceDesc
func cudaGetSurfaceObjectResourceDesc(d *C.struct_cudaResourceDesc, h C.ulonglong) (r C.int) {
	defer guard("cudaGetSurfaceObjectResourceDesc", &r)()
	res, ok := device().Surface(uint64(h))
	if !ok || d == nil {
		return ret(errInvalidValue)
	}
	resourceDesc(d, res)
	return success
}

// Texture and surface references: the runtime API's (registered texture<> and surface<>
// variables) and the driver API's (cuModuleGetTexRef, drvtexture.go) are texRefs.

// texRef is a module's .texref or .surfref variable and what is bound to it.
type texRef struct {
	mod     *module
	name    string
	surface bool
	// The binding: the resource, how it is sampled, and the object made of them whose handle
	// the module's variable holds (0 while unbound).
	res    runtime.Resource
	desc   runtime.TextureDesc
	format runtime.ChannelFormat // cuTexRefSetFormat's, for linear and pitch-linear memory
	bound  bool
	obj    uint64
	// drv: a driver API reference, whose read mode follows its flags (cuTexRefSetFlags).
	drv   bool
	flags C.uint
}

// texRefs holds the references by host shadow address (runtime API) and by CUtexref and
// CUsurfref handle (driver API).
var texRefs struct {
	sync.Mutex
	m map[uintptr]*texRef
}

// addTexRef records a reference under key.
func addTexRef(key uintptr, t *texRef) {
	texRefs.Lock()
	defer texRefs.Unlock()
	if texRefs.m == nil {
		texRefs.m = map[uintptr]*texRef{}
	}
	texRefs.m[key] = t
}

// texRefAt returns the reference of key, nil for none.
func texRefAt(key unsafe.Pointer) *texRef {
	texRefs.Lock()
	defer texRefs.Unlock()
	return texRefs.m[uintptr(key)]
}

// bind makes an object of the reference's resource and description and stores its handle in
// the module's variable, replacing the object bound before.
func (t *texRef) bind() cudaError {
	texRefs.Lock()
	defer texRefs.Unlock()
	cm, code := t.mod.compile(t.name)
	if code != success {
		return code
	}
	dev := device()
	var h uint64
	var err error
	if t.bound {
		if t.surface {
			h, err = dev.CreateSurface(t.res)
		} else {
			h, err = dev.CreateTexture(t.res, t.desc)
		}
		if err != nil {
			warnOnce("ptx2go: " + err.Error())
			return errInvalidValue
		}
	}
	if err := dev.BindReference(cm.Runtime(), t.name, h); err != nil {
		warnOnce("ptx2go: " + err.Error())
		if h != 0 {
			t.destroy(h)
		}
		return errInvalidSymbol
	}
	if t.obj != 0 {
		t.destroy(t.obj)
	}
	t.obj = h
	return success
}

func (t *texRef) destroy(h uint64) {
	if t.surface {
		device().DestroySurface(h)
	} else {
		device().DestroyTexture(h)
	}
}

// __cudaRegisterTexture ties a texture<> variable's host shadow to the module's .texref
// variable deviceName; norm says its read mode is cudaReadModeNormalizedFloat.
//
//export __cudaRegisterTexture
func __cudaRegisterTexture(h unsafe.Pointer, hostVar unsafe.Pointer, deviceAddress unsafe.Pointer, deviceName *C.char, dim, norm, ext C.int) {
	state.mu.Lock()
	m := state.modules[uintptr(h)]
	state.mu.Unlock()
	if m == nil || hostVar == nil {
		return
	}
	t := &texRef{mod: m, name: refName(deviceName)}
	if norm != 0 {
		t.desc.Read = runtime.ReadNormalizedFloat
	}
	addTexRef(uintptr(hostVar), t)
}

// __cudaRegisterSurface ties a surface<> variable's host shadow to the module's .surfref
// variable deviceName.
//
//export __cudaRegisterSurface
func __cudaRegisterSurface(h unsafe.Pointer, hostVar unsafe.Pointer, deviceAddress unsafe.Pointer, deviceName *C.char, dim, ext C.int) {
	state.mu.Lock()
	m := state.modules[uintptr(h)]
	state.mu.Unlock()
	if m == nil || hostVar == nil {
		return
	}
	addTexRef(uintptr(hostVar), &texRef{mod: m, name: refName(deviceName), surface: true})
}

// refName is the PTX name of a registered reference: nvcc's host code names a namespace-scope
// texture<> ::name.
func refName(deviceName *C.char) string {
	return strings.TrimPrefix(C.GoString(deviceName), "::")
}

// hostTexRef reads a registered texture<> variable's settings from its host shadow (the
// program sets them before binding).
func hostTexRef(ref *C.struct_textureReference) (*texRef, bool) {
	t := texRefAt(unsafe.Pointer(ref))
	if t == nil || t.surface {
		warnOnce("ptx2go: a texture reference that no module registered")
		return nil, false
	}
	t.desc.Normalized = ref.normalized != 0
	t.desc.Filter = runtime.FilterMode(ref.filterMode)
	t.desc.SRGB = ref.sRGB != 0
	for i := range 3 {
		t.desc.AddressMode[i] = runtime.AddressMode(ref.addressMode[i])
	}
	return t, true
}

// bindTexRef binds a texture<> variable to res.
func bindTexRef(ref *C.struct_textureReference, res runtime.Resource) cudaError {
	if e := check(); e != success {
		return e
	}
	t, ok := hostTexRef(ref)
	if !ok {
		return ret(errInvalidValue)
	}
	t.res, t.bound = res, true
	return ret(t.bind())
}

//export cudaBindTexture
func cudaBindTexture(offset *C.size_t, ref *C.struct_textureReference, p unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc, size C.size_t) (r C.int) {
	defer guard("cudaBindTexture", &r)()
	if ref == nil || desc == nil {
		return ret(errInvalidValue)
	}
	if offset != nil {
		*offset = 0
	}
	return bindTexRef(ref, runtime.Resource{Kind: runtime.ResourceLinear, Ptr: runtime.Ptr(uintptr(p)), Format: channelFormat(*desc), Size: int(size)})
}

//export cudaBindTexture2D
func cudaBindTexture2D(offset *C.size_t, ref *C.struct_textureReference, p unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc, width, height, pitch C.size_t) (r C.int) {
	defer guard("cudaBindTexture2D", &r)()
	if ref == nil || desc == nil {
		return ret(errInvalidValue)
	}
	if offset != nil {
		*offset = 0
	}
	return bindTexRef(ref, runtime.Resource{Kind: runtime.ResourcePitch2D, Ptr: runtime.Ptr(uintptr(p)), Format: channelFormat(*desc),
		Width: int(width), Height: int(height), Pitch: int(pitch)})
}

//export cudaBindTextureToArray
func cudaBindTextureToArray(ref *C.struct_textureReference, h unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc) (r C.int) {
	defer guard("cudaBindTextureToArray", &r)()
	a := arrayAt(h)
	if ref == nil || a == nil {
		return ret(errInvalidValue)
	}
	return bindTexRef(ref, runtime.Resource{Kind: runtime.ResourceArray, Array: a})
}

//export cudaUnbindTexture
func cudaUnbindTexture(ref *C.struct_textureReference) (r C.int) {
	defer guard("cudaUnbindTexture", &r)()
	t := texRefAt(unsafe.Pointer(ref))
	if t == nil || t.surface {
		return ret(errInvalidValue)
	}
	t.bound = false
	return ret(t.bind())
}

//export cudaGetTextureAlignmentOffset
func cudaGetTextureAlignmentOffset(offset *C.size_t, ref *C.struct_textureReference) (r C.int) {
	defer guard("cudaGetTextureAlignmentOffset", &r)()
	if offset == nil || texRefAt(unsafe.Pointer(ref)) == nil {
		return ret(errInvalidValue)
	}
	*offset = 0
	return success
}

//export cudaBindSurfaceToArray
func cudaBindSurfaceToArray(ref unsafe.Pointer, h unsafe.Pointer, desc *C.struct_cudaChannelFormatDesc) (r C.int) {
	defer guard("cudaBindSurfaceToArray", &r)()
	if e := check(); e != success {
		return e
	}
	t := texRefAt(ref)
	a := arrayAt(h)
	if t == nil || !t.surface || a == nil {
		return ret(errInvalidValue)
	}
	t.res, t.bound = runtime.Resource{Kind: runtime.ResourceArray, Array: a}, true
	return ret(t.bind())
}
