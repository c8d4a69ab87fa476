package main

// The driver API's CUDA arrays, texture and surface objects and texture and surface
// references, over texture.go's: a CUarray is the runtime API's cudaArray_t, a CUtexObject and
// a CUsurfObject the runtime's handles, and a CUtexref or CUsurfref (cuModuleGetTexRef,
// cuModuleGetSurfRef) a texRef, bound again whenever a cuTexRefSet* call changes it. NVIDIA's
// static runtime implements its texture calls with these.

/*
#include "cudart.h"
#include "texture.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The CU_TRSF_* flags of cuTexRefSetFlags and CUDA_TEXTURE_DESC.
const (
	trsfReadAsInteger = 0x01
	trsfNormalized    = 0x02
	trsfSRGB          = 0x10
)

// arrayFormat converts a CUarray_format and a channel count.
func arrayFormat(f C.int, n C.uint) (runtime.ChannelFormat, bool) {
	var bits int
	var kind runtime.ChannelKind
	switch f {
	case 0x01, 0x02, 0x03:
		bits, kind = 8<<(f-1), runtime.ChannelUnsigned
	case 0x08, 0x09, 0x0a:
		bits, kind = 8<<(f-8), runtime.ChannelSigned
	case 0x10:
		bits, kind = 16, runtime.ChannelFloat
	case 0x20:
		bits, kind = 32, runtime.ChannelFloat
	default:
		return runtime.ChannelFormat{}, false
	}
	if n != 1 && n != 2 && n != 4 {
		return runtime.ChannelFormat{}, false
	}
	cf := runtime.ChannelFormat{Kind: kind}
	for i := range int(n) {
		cf.Bits[i] = bits
	}
	return cf, true
}

// formatOf converts back to a CUarray_format and a channel count.
func formatOf(f runtime.ChannelFormat) (C.int, C.uint) {
	var code C.int
	switch f.Kind {
	case runtime.ChannelUnsigned:
		code = map[int]C.int{8: 0x01, 16: 0x02, 32: 0x03}[f.Bits[0]]
	case runtime.ChannelSigned:
		code = map[int]C.int{8: 0x08, 16: 0x09, 32: 0x0a}[f.Bits[0]]
	default:
		code = map[int]C.int{16: 0x10, 32: 0x20}[f.Bits[0]]
	}
	return code, C.uint(f.Channels())
}

// driverReadMode is the read mode of a driver texture: integer channels of 8 and 16 bits are
// read as normalized floats unless CU_TRSF_READ_AS_INTEGER says otherwise.
func driverReadMode(f runtime.ChannelFormat, flags C.uint) runtime.ReadMode {
	if flags&trsfReadAsInteger == 0 && f.Kind != runtime.ChannelFloat && f.Bits[0] < 32 {
		return runtime.ReadNormalizedFloat
	}
	return runtime.ReadElementType
}

//export cuArrayCreate_v2
func cuArrayCreate_v2(p *unsafe.Pointer, d *C.struct_ptx2go_arrayDesc) (r C.int) {
	defer guard("cuArrayCreate_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if p == nil || d == nil {
		return errInvalidValue
	}
	f, ok := arrayFormat(d.Format, d.NumChannels)
	if !ok {
		return errInvalidValue
	}
	h, code := newArray(f, int(d.Width), int(d.Height), 0, 0)
	if code != success {
		return code
	}
	*p = h
	return success
}

//export cuArray3DCreate_v2
func cuArray3DCreate_v2(p *unsafe.Pointer, d *C.struct_ptx2go_array3DDesc) (r C.int) {
	defer guard("cuArray3DCreate_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if p == nil || d == nil {
		return errInvalidValue
	}
	f, ok := arrayFormat(d.Format, d.NumChannels)
	if !ok {
		return errInvalidValue
	}
	h, code := newArray(f, int(d.Width), int(d.Height), int(d.Depth), d.Flags)
	if code != success {
		return code
	}
	*p = h
	return success
}

//export cuArrayDestroy
func cuArrayDestroy(h unsafe.Pointer) (r C.int) {
	defer guard("cuArrayDestroy", &r)()
	if h == nil {
		return errInvalidResourceHandle
	}
	return freeArray(h)
}

//export cuArrayGetDescriptor_v2
func cuArrayGetDescriptor_v2(d *C.struct_ptx2go_arrayDesc, h unsafe.Pointer) (r C.int) {
	defer guard("cuArrayGetDescriptor_v2", &r)()
	a := arrayAt(h)
	if a == nil {
		return errInvalidResourceHandle
	}
	if d == nil {
		return errInvalidValue
	}
	f, n := formatOf(a.Format)
	*d = C.struct_ptx2go_arrayDesc{Width: C.size_t(a.Width), Height: C.size_t(a.Height), Format: f, NumChannels: n}
	return success
}

//export cuArray3DGetDescriptor_v2
func cuArray3DGetDescriptor_v2(d *C.struct_ptx2go_array3DDesc, h unsafe.Pointer) (r C.int) {
	defer guard("cuArray3DGetDescriptor_v2", &r)()
	a := arrayAt(h)
	if a == nil {
		return errInvalidResourceHandle
	}
	if d == nil {
		return errInvalidValue
	}
	f, n := formatOf(a.Format)
	*d = C.struct_ptx2go_array3DDesc{Width: C.size_t(a.Width), Height: C.size_t(a.Height), Depth: C.size_t(a.Depth),
		Format: f, NumChannels: n, Flags: C.uint(a.Flags)}
	return success
}

// driverResource converts a CUDA_RESOURCE_DESC.
func driverResource(d *C.struct_ptx2go_resourceDesc) (runtime.Resource, bool) {
	u := unsafe.Pointer(&d.res)
	switch d.resType {
	case 0:
		a := arrayAt(*(*unsafe.Pointer)(u))
		return runtime.Resource{Kind: runtime.ResourceArray, Array: a}, a != nil
	case 2:
		l := (*struct {
			devPtr      C.ulonglong
			format      C.int
			numChannels C.uint
			sizeInBytes C.size_t
		})(u)
		f, ok := arrayFormat(l.format, l.numChannels)
		return runtime.Resource{Kind: runtime.ResourceLinear, Ptr: runtime.Ptr(l.devPtr), Format: f, Size: int(l.sizeInBytes)}, ok
	case 3:
		p := (*struct {
			devPtr                      C.ulonglong
			format                      C.int
			numChannels                 C.uint
			width, height, pitchInBytes C.size_t
		})(u)
		f, ok := arrayFormat(p.format, p.numChannels)
		return runtime.Resource{Kind: runtime.ResourcePitch2D, Ptr: runtime.Ptr(p.devPtr), Format: f,
			Width: int(p.width), Height: int(p.height), Pitch: int(p.pitchInBytes)}, ok
	}
	if d.resType == 1 {
		warnOnce("ptx2go: mipmapped arrays are not supported")
	}
	return runtime.Resource{}, false
}

// resourceFormat is the element format of a resource.
func resourceFormat(r runtime.Resource) runtime.ChannelFormat {
	if r.Kind == runtime.ResourceArray && r.Array != nil {
		return r.Array.Format
	}
	return r.Format
}

//export cuTexObjectCreate
func cuTexObjectCreate(p *C.ulonglong, rd *C.struct_ptx2go_resourceDesc, td *C.struct_ptx2go_textureDesc, view unsafe.Pointer) (r C.int) {
	defer guard("cuTexObjectCreate", &r)()
	if e := initialized(); e != success {
		return e
	}
	if p == nil || rd == nil || td == nil {
		return errInvalidValue
	}
	if view != nil {
		warnOnce("ptx2go: cuTexObjectCreate: resource views are not supported")
		return errNotSupported
	}
	res, ok := driverResource(rd)
	if !ok {
		return errInvalidValue
	}
	desc := runtime.TextureDesc{Filter: runtime.FilterMode(td.filterMode), Read: driverReadMode(resourceFormat(res), td.flags),
		Normalized: td.flags&trsfNormalized != 0, SRGB: td.flags&trsfSRGB != 0}
	for i := range 3 {
		desc.AddressMode[i] = runtime.AddressMode(td.addressMode[i])
	}
	for i := range 4 {
		desc.BorderColor[i] = float32(td.borderColor[i])
	}
	return createTexture(p, res, desc)
}

//export cuTexObjectDestroy
func cuTexObjectDestroy(h C.ulonglong) (r C.int) {
	defer guard("cuTexObjectDestroy", &r)()
	if device().DestroyTexture(uint64(h)) != nil {
		return errInvalidValue
	}
	return success
}

//export cuSurfObjectCreate
func cuSurfObjectCreate(p *C.ulonglong, rd *C.struct_ptx2go_resourceDesc) (r C.int) {
	defer guard("cuSurfObjectCreate", &r)()
	if e := initialized(); e != success {
		return e
	}
	if p == nil || rd == nil {
		return errInvalidValue
	}
	res, ok := driverResource(rd)
	if !ok {
		return errInvalidValue
	}
	h, err := device().CreateSurface(res)
	if err != nil {
		warnOnce("ptx2go: " + err.Error())
		return errInvalidValue
	}
	*p = C.ulonglong(h)
	return success
}

//export cuSurfObjectDestroy
func cuSurfObjectDestroy(h C.ulonglong) (r C.int) {
	defer guard("cuSurfObjectDestroy", &r)()
	if device().DestroySurface(uint64(h)) != nil {
		return errInvalidValue
	}
	return success
}

// Texture and surface references.

// drvRefs gives each module's reference the one CUtexref or CUsurfref handle.
var drvRefs struct {
	sync.Mutex
	m map[drvRefKey]unsafe.Pointer
}

type drvRefKey struct {
	mod     *module
	name    string
	surface bool
}

// moduleRef returns the handle of module m's reference name.
func moduleRef(p *unsafe.Pointer, m unsafe.Pointer, name *C.char, surface bool) C.int {
	if e := initialized(); e != success {
		return e
	}
	mod := lookupModule(m)
	if mod == nil {
		return errInvalidResourceHandle
	}
	if p == nil || name == nil {
		return errInvalidValue
	}
	n := C.GoString(name)
	cm, code := mod.compile(n)
	if code != success {
		return code
	}
	want := runtime.RefTexture
	if surface {
		want = runtime.RefSurface
	}
	found := false
	for _, g := range cm.Runtime().Globals {
		found = found || g.Name == n && g.Ref == want
	}
	if !found {
		return errSymbolNotFound
	}
	k := drvRefKey{mod, n, surface}
	drvRefs.Lock()
	defer drvRefs.Unlock()
	if drvRefs.m == nil {
		drvRefs.m = map[drvRefKey]unsafe.Pointer{}
	}
	h := drvRefs.m[k]
	if h == nil {
		h = handle()
		drvRefs.m[k] = h
		t := &texRef{mod: mod, name: n, surface: surface, drv: true}
		addTexRef(uintptr(h), t)
	}
	*p = h
	return success
}

//export cuModuleGetTexRef
func cuModuleGetTexRef(p *unsafe.Pointer, m unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuModuleGetTexRef", &r)()
	return moduleRef(p, m, name, false)
}

//export cuModuleGetSurfRef
func cuModuleGetSurfRef(p *unsafe.Pointer, m unsafe.Pointer, name *C.char) (r C.int) {
	defer guard("cuModuleGetSurfRef", &r)()
	return moduleRef(p, m, name, true)
}

// setTexRef changes a driver texture reference with set and binds it again if it is bound:
// an object is made of what the calls so far set, and when they do not make a texture yet
// (linear filtering set before the read mode, say), the reference is left unbound until one
// that does.
func setTexRef(h unsafe.Pointer, set func(t *texRef) bool) C.int {
	t := texRefAt(h)
	if t == nil || t.surface {
		return errInvalidValue
	}
	texRefs.Lock()
	ok := set(t)
	t.desc.Read = driverReadMode(resourceFormat(t.res), t.flags)
	texRefs.Unlock()
	if !ok {
		return errInvalidValue
	}
	if !t.bound {
		return success
	}
	if code := t.bind(); code == errInvalidValue {
		t.bound = false
		t.bind()
		t.bound = true
	} else if code != success {
		return drv(code)
	}
	return success
}

//export cuTexRefSetArray
func cuTexRefSetArray(h unsafe.Pointer, arr unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuTexRefSetArray", &r)()
	a := arrayAt(arr)
	if a == nil {
		return errInvalidValue
	}
	return setTexRef(h, func(t *texRef) bool {
		t.res, t.bound = runtime.Resource{Kind: runtime.ResourceArray, Array: a}, true
		return true
	})
}

//export cuTexRefSetAddress_v2
func cuTexRefSetAddress_v2(offset *C.size_t, h unsafe.Pointer, p C.ulonglong, n C.size_t) (r C.int) {
	defer guard("cuTexRefSetAddress_v2", &r)()
	if offset != nil {
		*offset = 0
	}
	return setTexRef(h, func(t *texRef) bool {
		t.res = runtime.Resource{Kind: runtime.ResourceLinear, Ptr: runtime.Ptr(p), Format: t.format, Size: int(n)}
		t.bound = p != 0
		return true
	})
}

//export cuTexRefSetAddress2D_v3
func cuTexRefSetAddress2D_v3(h unsafe.Pointer, d *C.struct_ptx2go_arrayDesc, p C.ulonglong, pitch C.size_t) (r C.int) {
	defer guard("cuTexRefSetAddress2D_v3", &r)()
	if d == nil {
		return errInvalidValue
	}
	f, ok := arrayFormat(d.Format, d.NumChannels)
	if !ok {
		return errInvalidValue
	}
	return setTexRef(h, func(t *texRef) bool {
		t.res = runtime.Resource{Kind: runtime.ResourcePitch2D, Ptr: runtime.Ptr(p), Format: f,
			Width: int(d.Width), Height: int(d.Height), Pitch: int(pitch)}
		t.bound = p != 0
		return true
	})
}

//export cuTexRefSetAddress2D_v2
func cuTexRefSetAddress2D_v2(h unsafe.Pointer, d *C.struct_ptx2go_arrayDesc, p C.ulonglong, pitch C.size_t) (r C.int) {
	defer guard("cuTexRefSetAddress2D_v2", &r)()
	return cuTexRefSetAddress2D_v3(h, d, p, pitch)
}

//export cuTexRefSetFormat
func cuTexRefSetFormat(h unsafe.Pointer, format C.int, n C.int) (r C.int) {
	defer guard("cuTexRefSetFormat", &r)()
	f, ok := arrayFormat(format, C.uint(n))
	if !ok {
		return errInvalidValue
	}
	return setTexRef(h, func(t *texRef) bool {
		t.format = f
		if t.res.Kind != runtime.ResourceArray {
			t.res.Format = f
		}
		return true
	})
}

//export cuTexRefSetAddressMode
func cuTexRefSetAddressMode(h unsafe.Pointer, dim C.int, mode C.int) (r C.int) {
	defer guard("cuTexRefSetAddressMode", &r)()
	return setTexRef(h, func(t *texRef) bool {
		if dim < 0 || dim > 2 || mode < 0 || mode > 3 {
			return false
		}
		t.desc.AddressMode[dim] = runtime.AddressMode(mode)
		return true
	})
}

//export cuTexRefSetFilterMode
func cuTexRefSetFilterMode(h unsafe.Pointer, mode C.int) (r C.int) {
	defer guard("cuTexRefSetFilterMode", &r)()
	return setTexRef(h, func(t *texRef) bool {
		t.desc.Filter = runtime.FilterMode(mode)
		return mode == 0 || mode == 1
	})
}

//export cuTexRefSetFlags
func cuTexRefSetFlags(h unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuTexRefSetFlags", &r)()
	return setTexRef(h, func(t *texRef) bool {
		t.flags = flags
		t.desc.Normalized = flags&trsfNormalized != 0
		t.desc.SRGB = flags&trsfSRGB != 0
		return true
	})
}

//export cuTexRefSetBorderColor
func cuTexRefSetBorderColor(h unsafe.Pointer, c *C.float) (r C.int) {
	defer guard("cuTexRefSetBorderColor", &r)()
	if c == nil {
		return errInvalidValue
	}
	return setTexRef(h, func(t *texRef) bool {
		for i, v := range unsafe.Slice(c, 4) {
			t.desc.BorderColor[i] = float32(v)
		}
		return true
	})
}

// The mipmap and anisotropy settings have nothing to change: there are no mipmapped arrays,
// and filtering is never anisotropic.

//export cuTexRefSetMaxAnisotropy
func cuTexRefSetMaxAnisotropy(h unsafe.Pointer, v C.uint) (r C.int) {
	defer guard("cuTexRefSetMaxAnisotropy", &r)()
	return setTexRef(h, func(*texRef) bool { return true })
}

//export cuTexRefSetMipmapFilterMode
func cuTexRefSetMipmapFilterMode(h unsafe.Pointer, v C.int) (r C.int) {
	defer guard("cuTexRefSetMipmapFilterMode", &r)()
	return setTexRef(h, func(*texRef) bool { return true })
}

//export cuTexRefSetMipmapLevelBias
func cuTexRefSetMipmapLevelBias(h unsafe.Pointer, v C.float) (r C.int) {
	defer guard("cuTexRefSetMipmapLevelBias", &r)()
	return setTexRef(h, func(*texRef) bool { return true })
}

//export cuTexRefSetMipmapLevelClamp
func cuTexRefSetMipmapLevelClamp(h unsafe.Pointer, lo, hi C.float) (r C.int) {
	defer guard("cuTexRefSetMipmapLevelClamp", &r)()
	return setTexRef(h, func(*texRef) bool { return true })
}

//export cuSurfRefSetArray
func cuSurfRefSetArray(h unsafe.Pointer, arr unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuSurfRefSetArray", &r)()
	t := texRefAt(h)
	a := arrayAt(arr)
	if t == nil || !t.surface || a == nil {
		return errInvalidValue
	}
	texRefs.Lock()
	t.res, t.bound = runtime.Resource{Kind: runtime.ResourceArray, Array: a}, true
	texRefs.Unlock()
	return drv(t.bind())
}

//export cuTexObjectGetResourceDesc
func cuTexObjectGetResourceDesc(d *C.struct_ptx2go_resourceDesc, h C.ulonglong) (r C.int) {
	defer guard("cuTexObjectGetResourceDesc", &r)()
	res, _, ok := device().Texture(uint64(h))
	if !ok || d == nil {
		return errInvalidValue
	}
	*d = C.struct_ptx2go_resourceDesc{resType: C.int(res.Kind)}
	u := unsafe.Pointer(&d.res)
	switch res.Kind {
	case runtime.ResourceArray:
		var rd C.struct_cudaResourceDesc
		resourceDesc(&rd, res)
		*(*unsafe.Pointer)(u) = *(*unsafe.Pointer)(unsafe.Pointer(&rd.res))
	case runtime.ResourceLinear:
		l := (*struct {
			devPtr      C.ulonglong
			format      C.int
			numChannels C.uint
			sizeInBytes C.size_t
		})(u)
		l.devPtr, l.sizeInBytes = C.ulonglong(res.Ptr), C.size_t(res.Size)
		l.format, l.numChannels = formatOf(res.Format)
	case runtime.ResourcePitch2D:
		p := (*struct {
			devPtr                      C.ulonglong
			format                      C.int
			numChannels                 C.uint
			width, height, pitchInBytes C.size_t
		})(u)
		p.devPtr, p.width, p.height, p.pitchInBytes = C.ulonglong(res.Ptr), C.size_t(res.Width), C.size_t(res.Height), C.size_t(res.Pitch)
		p.format, p.numChannels = formatOf(res.Format)
	}
	return success
}
