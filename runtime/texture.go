package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Textures and surfaces: CUDA arrays, and the texture and surface objects the texture
// instructions (tex, tld4, txq, suld, sust, sured, suq) read and write through a 64-bit handle.
//
// An Array's memory is opaque to kernels, as on a GPU: it lives outside the device's address
// space, in a Go byte slice, and only the texture and surface instructions and the copies reach
// it. The layout chosen is the plain one: element (x, y) of slice s (a 3D array's z, a layered
// array's layer, a cubemap's face, a layered cubemap's 6*layer+face) is at byte
// ((s*H + y)*W + x) * ElemSize, with W, H the width and height (1 for an absent dimension) and
// no padding; each element holds its channels x, y, z, w in order, little-endian. A surface's x
// coordinate is a byte offset into a row of this layout, as the ISA's suld and sust take it.
//
// A handle is a small integer, never 0 and never reused on its device, so that a kernel using a
// destroyed object faults instead of reading another one. Textures and surfaces share the
// numbering, so that istypeof can tell them apart.

// ChannelKind is the kind of an element's channels.
type ChannelKind uint8

// The channel kinds, numbered as cudaChannelFormatKind.
const (
	ChannelSigned   ChannelKind = iota // signed integers (8, 16 or 32 bits)
	ChannelUnsigned                    // unsigned integers (8, 16 or 32 bits)
	ChannelFloat                       // IEEE binary16 or binary32
)

// ChannelFormat describes an element as cudaChannelFormatDesc does: the width in bits of each of
// its channels x, y, z, w (0 for an absent one) and their kind. The channels present come
// first and have one width; an element has 1, 2 or 4 of them.
type ChannelFormat struct {
	Bits [4]int
	Kind ChannelKind
}

// Channels is the number of channels of the format.
func (f ChannelFormat) Channels() int {
	n := 0
	for n < 4 && f.Bits[n] != 0 {
		n++
	}
	return n
}

// ElemSize is the size of one element in bytes.
func (f ChannelFormat) ElemSize() int { return f.Channels() * f.Bits[0] / 8 }

// Check reports why the format is not one a CUDA array or texture can have, or nil.
func (f ChannelFormat) Check() error {
	n := f.Channels()
	if n != 1 && n != 2 && n != 4 {
		return fmt.Errorf("channel format %v: an element has 1, 2 or 4 channels", f.Bits)
	}
	for i := range 4 {
		if i < n && f.Bits[i] != f.Bits[0] || i >= n && f.Bits[i] != 0 {
			return fmt.Errorf("channel format %v: the channels present come first and have one width", f.Bits)
		}
	}
	switch {
	case f.Kind > ChannelFloat:
		return fmt.Errorf("channel format: unknown channel kind %d", f.Kind)
	case f.Kind == ChannelFloat && f.Bits[0] != 16 && f.Bits[0] != 32:
		return fmt.Errorf("channel format %v: float channels are 16 or 32 bits", f.Bits)
	case f.Bits[0] != 8 && f.Bits[0] != 16 && f.Bits[0] != 32:
		return fmt.Errorf("channel format %v: integer channels are 8, 16 or 32 bits", f.Bits)
	}
	return nil
}

// ArrayFlags are the options of an array, with cudaArray's flag values.
type ArrayFlags uint32

// The flags.
const (
	ArrayLayered          ArrayFlags = 0x01 // a 1D or 2D layered array: Depth counts the layers
	ArraySurfaceLoadStore ArrayFlags = 0x02 // surface objects may be created on it
	ArrayCubemap          ArrayFlags = 0x04 // six square faces (6*layers with ArrayLayered)
	ArrayTextureGather    ArrayFlags = 0x08 // tld4 may read it
)

// Array is a CUDA array: a 1D, 2D or 3D grid of elements, or layers of 1D or 2D ones, or
// cubemaps, in memory kernels reach only through textures and surfaces (the layout is described
// at the top of this file). Width, Height and Depth are as created, 0 for an absent dimension.
type Array struct {
	Format               ChannelFormat
	Width, Height, Depth int
	Flags                ArrayFlags
	w, h, slices, elem   int
	data                 []byte
	freed                atomic.Bool
}

// The largest array dimensions accepted (those of an sm_80 device's 2D textures and layers).
const (
	maxArrayDim    = 1 << 17
	maxArrayLayers = 2048
)

// MallocArray allocates an array of width x height x depth elements of format f (height and
// depth 0 for fewer dimensions; with ArrayLayered, depth counts the layers, with ArrayCubemap
// the faces, 6 or a multiple of 6 when also layered). Its elements start at zero.
func (d *Device) MallocArray(f ChannelFormat, width, height, depth int, flags ArrayFlags) (*Array, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	a := &Array{Format: f, Width: width, Height: height, Depth: depth, Flags: flags, elem: f.ElemSize()}
	a.w, a.h, a.slices = width, max(height, 1), max(depth, 1)
	switch {
	case flags&^(ArrayLayered|ArraySurfaceLoadStore|ArrayCubemap|ArrayTextureGather) != 0:
		return nil, fmt.Errorf("array flags %#x: unknown flags", uint32(flags))
	case width < 1 || height < 0 || depth < 0 || width > maxArrayDim || height > maxArrayDim || depth > maxArrayDim:
		return nil, fmt.Errorf("array extent %dx%dx%d out of range", width, height, depth)
	case height == 0 && depth != 0 && flags&ArrayLayered == 0:
		return nil, fmt.Errorf("array extent %dx%dx%d: a 3D array needs a height", width, height, depth)
	case flags&ArrayCubemap != 0 && (width != height || depth == 0 || depth%6 != 0 || flags&ArrayLayered == 0 && depth != 6):
		return nil, fmt.Errorf("cubemap array extent %dx%dx%d: the faces are square and there are 6 of them (a multiple of 6 when layered)", width, height, depth)
	case flags&ArrayLayered != 0 && (depth == 0 || depth > maxArrayLayers*6):
		return nil, fmt.Errorf("layered array extent %dx%dx%d: the depth counts the layers, 1 to %d", width, height, depth, maxArrayLayers)
	}
	n := a.w * a.h * a.slices * a.elem
	if n > 1<<32 {
		return nil, fmt.Errorf("array of %d bytes is too large", n)
	}
	a.data = alignedBytes(n)
	return a, nil
}

// FreeArray releases an array. Textures and surfaces made on it keep reading its last contents;
// creating new ones fails.
func (d *Device) FreeArray(a *Array) error {
	if a == nil || a.freed.Swap(true) {
		return errors.New("array freed twice or never allocated")
	}
	return nil
}

// Layered reports whether the array is layered; Cubemap whether it is a cubemap.
func (a *Array) Layered() bool { return a.Flags&ArrayLayered != 0 }

// Cubemap reports whether the array is a cubemap (layered or not).
func (a *Array) Cubemap() bool { return a.Flags&ArrayCubemap != 0 }

// Size is the array's size in bytes.
func (a *Array) Size() int { return len(a.data) }

// Copy copies the box of rowBytes x rows x slices bytes of the array that starts at byte xBytes
// of row y of slice z to or from buf (toArray says the direction), whose rows are pitch bytes
// apart and whose slices slicePitch bytes apart.
func (a *Array) Copy(toArray bool, buf []byte, pitch, slicePitch, xBytes, y, z, rowBytes, rows, slices int) error {
	if a.freed.Load() {
		return errors.New("copy to or from a freed array")
	}
	row := a.w * a.elem
	switch {
	case rowBytes < 0 || rows < 0 || slices < 0 || xBytes < 0 || y < 0 || z < 0:
		return fmt.Errorf("array copy: negative extent or offset")
	case rowBytes == 0 || rows == 0 || slices == 0:
		return nil
	case xBytes+rowBytes > row || y+rows > a.h || z+slices > a.slices:
		return fmt.Errorf("array copy of %d bytes x %d rows x %d slices at (%d bytes, %d, %d) is outside the %dx%dx%d array of %d-byte elements",
			rowBytes, rows, slices, xBytes, y, z, a.w, a.h, a.slices, a.elem)
	case pitch < rowBytes || rows > 1 && slicePitch < pitch*rows && slices > 1:
		return fmt.Errorf("array copy: pitch %d or slice pitch %d is smaller than the copied box", pitch, slicePitch)
	}
	last := (slices-1)*slicePitch + (rows-1)*pitch + rowBytes
	if last > len(buf) {
		return fmt.Errorf("array copy: the buffer of %d bytes holds less than the %d the copy reaches", len(buf), last)
	}
	for s := range slices {
		for r := range rows {
			off := ((z+s)*a.h+y+r)*row + xBytes
			b := buf[s*slicePitch+r*pitch:][:rowBytes]
			if toArray {
				copy(a.data[off:], b)
			} else {
				copy(b, a.data[off:off+rowBytes])
			}
		}
	}
	return nil
}

// Write fills the whole array from src, its elements packed in the layout above.
func (a *Array) Write(src []byte) error {
	row := a.w * a.elem
	return a.Copy(true, src, row, row*a.h, 0, 0, 0, row, a.h, a.slices)
}

// Read copies the whole array to dst, its elements packed in the layout above.
func (a *Array) Read(dst []byte) error {
	row := a.w * a.elem
	return a.Copy(false, dst, row, row*a.h, 0, 0, 0, row, a.h, a.slices)
}

// AddressMode says what a texture fetch does with a coordinate outside the texture, with
// cudaTextureAddressMode's values.
type AddressMode uint8

// The address modes. Wrap and mirror apply to normalized coordinates only; with unnormalized
// ones they act as clamp, as on the GPU.
const (
	AddressWrap   AddressMode = iota // the texture repeats
	AddressClamp                     // the edge texel repeats
	AddressMirror                    // the texture repeats, every other copy mirrored
	AddressBorder                    // outside texels have the border color
)

// FilterMode is a texture's filtering, with cudaTextureFilterMode's values.
type FilterMode uint8

// The filter modes.
const (
	FilterPoint  FilterMode = iota // the nearest texel
	FilterLinear                   // linear interpolation of the 2, 4 or 8 nearest texels
)

// ReadMode says how integer channels are returned, with cudaTextureReadMode's values.
type ReadMode uint8

// The read modes.
const (
	ReadElementType     ReadMode = iota // as integers (float channels as floats)
	ReadNormalizedFloat                 // 8- and 16-bit integer channels as floats in [0, 1] (unsigned) or [-1, 1] (signed)
)

// TextureDesc is how a texture is sampled, as cudaTextureDesc says it.
type TextureDesc struct {
	AddressMode [3]AddressMode
	Filter      FilterMode
	Read        ReadMode
	// Normalized: coordinates in [0, 1) span the texture, instead of [0, width).
	Normalized bool
	// SRGB: 8-bit unsigned channels read as normalized floats are converted from sRGB to
	// linear (channels x, y and z; w is alpha).
	SRGB bool
	// BorderColor is what AddressBorder reads outside the texture.
	BorderColor [4]float32
}

// ResourceKind is what a texture or surface reads, with cudaResourceType's values (mipmapped
// arrays are not supported).
type ResourceKind uint8

// The resource kinds.
const (
	ResourceArray   ResourceKind = 0 // a CUDA array
	ResourceLinear  ResourceKind = 2 // device memory as a 1D texture of Size bytes
	ResourcePitch2D ResourceKind = 3 // device memory as Height rows of Width elements, Pitch bytes apart
)

// Resource is what a texture or surface object reads, as cudaResourceDesc says it.
type Resource struct {
	Kind  ResourceKind
	Array *Array
	// Linear and pitch-linear memory: the address, the element format, and the size in bytes
	// (linear) or the width, height and pitch (pitch-linear).
	Ptr                  Ptr
	Format               ChannelFormat
	Size                 int
	Width, Height, Pitch int
}

// imageKind says what a handle names.
type imageKind uint8

const (
	imageTexture imageKind = iota + 1
	imageSurface
)

// image is a texture or surface object as the instructions use it.
type image struct {
	kind imageKind
	res  Resource
	desc TextureDesc
	f    ChannelFormat
	// w, h, slices: the grid of elements (1 for an absent dimension); elem its element size.
	w, h, slices, elem int
	layered, cube      bool
	// data is an array's bytes; for linear and pitch-linear memory, base and pitch say where
	// row y starts.
	data  []byte
	base  uint64
	pitch int
}

// imageTable holds a device's texture and surface objects, indexed by handle-1.
type imageTable struct {
	mu   sync.Mutex
	objs atomic.Pointer[[]*image]
}

// add registers an object and returns its handle.
func (t *imageTable) add(img *image) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var objs []*image
	if p := t.objs.Load(); p != nil {
		objs = *p
	}
	objs = append(objs[:len(objs):len(objs)], img)
	t.objs.Store(&objs)
	return uint64(len(objs))
}

// lookup returns the object of a handle, nil for none.
func (t *imageTable) lookup(h uint64) *image {
	p := t.objs.Load()
	if p == nil || h == 0 || h > uint64(len(*p)) {
		return nil
	}
	return (*p)[h-1]
}

// remove destroys the object of a handle of kind k.
func (t *imageTable) remove(h uint64, k imageKind) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.objs.Load()
	if p == nil || h == 0 || h > uint64(len(*p)) || (*p)[h-1] == nil || (*p)[h-1].kind != k {
		return fmt.Errorf("%d is not a live %s object", h, k)
	}
	objs := append([]*image(nil), *p...)
	objs[h-1] = nil
	t.objs.Store(&objs)
	return nil
}

func (k imageKind) String() string {
	if k == imageSurface {
		return "surface"
	}
	return "texture"
}

// newImage checks a resource and lays it out.
func newImage(r Resource, kind imageKind) (*image, error) {
	img := &image{kind: kind, res: r}
	switch r.Kind {
	case ResourceArray:
		a := r.Array
		if a == nil || a.freed.Load() {
			return nil, errors.New("resource: no array, or a freed one")
		}
		if kind == imageSurface && a.Flags&ArraySurfaceLoadStore == 0 {
			return nil, errors.New("surface object on an array made without the surface load/store flag")
		}
		img.f, img.w, img.h, img.slices, img.elem, img.data = a.Format, a.w, a.h, a.slices, a.elem, a.data
		img.layered, img.cube = a.Layered(), a.Cubemap()
	case ResourceLinear, ResourcePitch2D:
		if kind == imageSurface {
			return nil, errors.New("surface objects are made on arrays only")
		}
		if err := r.Format.Check(); err != nil {
			return nil, err
		}
		img.f, img.elem, img.base, img.slices = r.Format, r.Format.ElemSize(), uint64(r.Ptr), 1
		if r.Kind == ResourceLinear {
			img.w, img.h = r.Size/img.elem, 1
			img.pitch = r.Size
			if r.Size <= 0 || r.Size%img.elem != 0 {
				return nil, fmt.Errorf("linear resource of %d bytes: not a positive multiple of the %d-byte element", r.Size, img.elem)
			}
		} else {
			img.w, img.h, img.pitch = r.Width, r.Height, r.Pitch
			if r.Width < 1 || r.Height < 1 || r.Pitch < r.Width*img.elem {
				return nil, fmt.Errorf("pitch-linear resource %dx%d with pitch %d: empty, or rows wider than the pitch", r.Width, r.Height, r.Pitch)
			}
		}
	default:
		return nil, fmt.Errorf("resource kind %d is not supported (arrays, linear and pitch-linear memory are)", r.Kind)
	}
	return img, nil
}

// CreateTexture makes a texture object on r sampled as t describes, and returns its handle,
// the .u64 value a kernel's tex instruction takes. Linear filtering needs float results (float
// channels, or 8- and 16-bit integer channels read as normalized floats), as on the GPU.
func (d *Device) CreateTexture(r Resource, t TextureDesc) (uint64, error) {
	img, err := newImage(r, imageTexture)
	if err != nil {
		return 0, err
	}
	for _, m := range t.AddressMode {
		if m > AddressBorder {
			return 0, fmt.Errorf("texture: unknown address mode %d", m)
		}
	}
	switch {
	case t.Filter > FilterLinear:
		return 0, fmt.Errorf("texture: unknown filter mode %d", t.Filter)
	case t.Read > ReadNormalizedFloat:
		return 0, fmt.Errorf("texture: unknown read mode %d", t.Read)
	case t.Read == ReadNormalizedFloat && img.f.Kind != ChannelFloat && img.f.Bits[0] == 32:
		return 0, errors.New("texture: 32-bit integer channels cannot be read as normalized floats")
	case t.Filter == FilterLinear && img.f.Kind != ChannelFloat && t.Read != ReadNormalizedFloat:
		return 0, errors.New("texture: linear filtering of integer channels needs the normalized-float read mode")
	}
	img.desc = t
	return d.images.add(img), nil
}

// CreateSurface makes a surface object on an array made with ArraySurfaceLoadStore and returns
// its handle, the .u64 value a kernel's suld, sust, sured and suq take.
func (d *Device) CreateSurface(r Resource) (uint64, error) {
	img, err := newImage(r, imageSurface)
	if err != nil {
		return 0, err
	}
	return d.images.add(img), nil
}

// DestroyTexture destroys a texture object; a kernel that uses its handle afterwards faults.
func (d *Device) DestroyTexture(h uint64) error { return d.images.remove(h, imageTexture) }

// DestroySurface destroys a surface object.
func (d *Device) DestroySurface(h uint64) error { return d.images.remove(h, imageSurface) }

// Texture returns the resource and description of a live texture object.
func (d *Device) Texture(h uint64) (Resource, TextureDesc, bool) {
	img := d.images.lookup(h)
	if img == nil || img.kind != imageTexture {
		return Resource{}, TextureDesc{}, false
	}
	return img.res, img.desc, true
}

// Surface returns the resource of a live surface object.
func (d *Device) Surface(h uint64) (Resource, bool) {
	img := d.images.lookup(h)
	if img == nil || img.kind != imageSurface {
		return Resource{}, false
	}
	return img.res, true
}

// RefKind says whether a module variable is a texture or surface reference (Global.Ref).
type RefKind uint8

// The kinds.
const (
	RefNone    RefKind = iota
	RefTexture         // .texref
	RefSurface         // .surfref
)

// BindReference binds the module's texture or surface reference name (a .texref or .surfref
// variable) to the texture or surface object h on this device: kernels of the module that
// fetch through name then read h, as after cudaBindTextureToArray or cuTexRefSetArray. h 0
// unbinds it.
func (d *Device) BindReference(mod *Module, name string, h uint64) error {
	for _, g := range mod.Globals {
		if g.Name != name {
			continue
		}
		want := imageTexture
		switch g.Ref {
		case RefNone:
			return fmt.Errorf("module %s: %s is not a texture or surface reference", mod.Name, name)
		case RefSurface:
			want = imageSurface
		}
		if img := d.images.lookup(h); h != 0 && (img == nil || img.kind != want) {
			return fmt.Errorf("module %s: %s is a %s reference, and %d is no live %s object", mod.Name, name, want, h, want)
		}
		p, err := d.GlobalAddr(mod, name)
		if err != nil {
			return err
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], h)
		return d.CopyIn(p, b[:])
	}
	return fmt.Errorf("module %s has no texture or surface reference %s", mod.Name, name)
}
