package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/ptx2go/ptx2go/runtime/isa"
)

// ImageOp is the texture or surface instruction an ImageInstr performs.
type ImageOp uint8

// The instructions.
const (
	ImageTex      ImageOp = iota // tex: a filtered fetch
	ImageTld4                    // tld4: the four texels of a bilinear footprint, one component
	ImageTxq                     // txq: a texture attribute
	ImageSuld                    // suld.b: raw load
	ImageSust                    // sust.b: raw store
	ImageSustP                   // sust.p: formatted store
	ImageSured                   // sured.b: reduction
	ImageSuq                     // suq: a surface attribute
	ImageIstypeof                // istypeof: what a handle names
)

// Geometry is the .geom of a texture or surface instruction.
type Geometry uint8

// The geometries: coordinates {x}, {x, y}, {x, y, z, _}, {layer, x}, {layer, x, y, _},
// {x, y, z, _} and {layer, x, y, z}.
const (
	Geom1D Geometry = iota
	Geom2D
	Geom3D
	GeomA1D
	GeomA2D
	GeomCube
	GeomACube
)

// ImageQuery is the attribute txq and suq read.
type ImageQuery uint8

// The attributes.
const (
	QueryWidth ImageQuery = iota
	QueryHeight
	QueryDepth
	QueryChannelDataType
	QueryChannelOrder
	QueryNormalizedCoords
	QueryForceUnnormalizedCoords
	QueryFilterMode
	QueryAddrMode0
	QueryAddrMode1
	QueryAddrMode2
	QueryArraySize
	QueryNumMipmapLevels
	QueryNumSamples
	QueryMemoryLayout
)

// SurfaceClamp is what a surface access outside the surface does (.trap, .clamp, .zero).
type SurfaceClamp uint8

// The modes.
const (
	SurfaceTrap      SurfaceClamp = iota // fault
	SurfaceClampEdge                     // access the nearest element inside
	SurfaceZero                          // loads read 0, stores and reductions do nothing
)

// SuredOp is sured's operation.
type SuredOp uint8

// The operations.
const (
	SuredAdd SuredOp = iota
	SuredMin
	SuredMax
	SuredAnd
	SuredOr
)

// ImageInstr is a texture or surface instruction as both back ends hand it to Warp.Image: the
// register slots of its operands and what its modifiers say.
type ImageInstr struct {
	Op   ImageOp
	Geom Geometry
	// Handle is the register slot of the .u64 object handle, or -1: then Global is the index of
	// the module's .texref or .surfref variable (named Name) that holds it.
	Handle, Global int
	Name           string
	// Coords are the slots of the coordinate vector's NCoords elements, in PTX order;
	// IntCoords says they are .s32 (else .f32).
	Coords    [4]int
	NCoords   int
	IntCoords bool
	// Dsts are the destinations' slots: tex and tld4 four (two .f16x2 with HalfPairs), each
	// .f16 when Half; suld.b its vector; txq and suq one.
	Dsts            [4]int
	NDsts           int
	Half, HalfPairs bool
	// Comp is tld4's component (0 to 3: .r, .g, .b, .a); Query txq's and suq's attribute.
	Comp  int
	Query ImageQuery
	// Surface accesses: Bytes is the size of a vector element (.b8 1 to .b64 8), Srcs the
	// slots of the stored vector or of sured's operand, Clamp the out-of-range mode, Red and
	// Signed sured's operation and its signedness.
	Bytes  int
	Srcs   [4]int
	NSrcs  int
	Clamp  SurfaceClamp
	Red    SuredOp
	Signed bool
	// Pred is istypeof's predicate destination and Kind what it tests: 0 .texref, 1
	// .samplerref, 2 .surfref.
	Pred, Kind int
	Loc        string
}

// Image performs a texture or surface instruction for the active lanes m.
func (w *Warp) Image(in *ImageInstr, m uint32) {
	var res uint32
	for mm := m; mm != 0; mm &= mm - 1 {
		lane := bits.TrailingZeros32(mm)
		h := w.imageHandle(in, lane)
		if in.Op == ImageIstypeof {
			img := w.CTA.L.Dev.images.lookup(h)
			if img != nil && (img.kind == imageSurface) == (in.Kind == 2) {
				res |= 1 << lane
			}
			continue
		}
		img := w.imageObject(in, h, lane)
		switch in.Op {
		case ImageTex, ImageTld4:
			w.texLane(in, img, lane)
		case ImageTxq, ImageSuq:
			w.Reg(in.Dsts[0])[lane] = uint64(img.query(in.Query))
		default:
			w.surfaceLane(in, img, lane)
		}
	}
	if in.Op == ImageIstypeof {
		w.P[in.Pred] = w.P[in.Pred]&^m | res&m
	}
}

// imageHandle reads a lane's handle operand.
func (w *Warp) imageHandle(in *ImageInstr, lane int) uint64 {
	if in.Handle >= 0 {
		return w.Reg(in.Handle)[lane]
	}
	return binary.LittleEndian.Uint64(w.GlobalBytes(w.GlobalVar(in.Global), 8, lane, in.Loc))
}

// imageObject returns the object a handle names, or faults.
func (w *Warp) imageObject(in *ImageInstr, h uint64, lane int) *image {
	want := imageTexture
	if in.Op >= ImageSuld && in.Op <= ImageSuq {
		want = imageSurface
	}
	img := w.CTA.L.Dev.images.lookup(h)
	if img != nil && img.kind == want {
		return img
	}
	what := fmt.Sprintf("handle %#x", h)
	if in.Handle < 0 {
		what = fmt.Sprintf("%s reference %s (handle %#x)", want, in.Name, h)
		if h == 0 {
			w.Fault(FaultIllegal, in.Loc, lane, fmt.Sprintf("%s reference %s is not bound", want, in.Name))
		}
	}
	if img != nil {
		w.Fault(FaultIllegal, in.Loc, lane, fmt.Sprintf("%s names a %s object, not a %s object", what, img.kind, want))
	}
	w.Fault(FaultIllegal, in.Loc, lane, fmt.Sprintf("%s names no live %s object", what, want))
	return nil
}

// coords reads a lane's coordinates: the layer index and x, y, z as floats or integers.
func (w *Warp) coords(in *ImageInstr, lane int) (layer int, f [3]float32, n [3]int32) {
	var raw [4]uint32
	for k := range in.NCoords {
		raw[k] = uint32(w.Reg(in.Coords[k])[lane])
	}
	xyz := raw[:3]
	switch in.Geom {
	case GeomA1D, GeomA2D, GeomACube:
		layer, xyz = int(int32(raw[0])), raw[1:4]
	}
	for k := range 3 {
		f[k], n[k] = math.Float32frombits(xyz[k]), int32(xyz[k])
	}
	return layer, f, n
}

// texLane performs tex or tld4 for one lane.
func (w *Warp) texLane(in *ImageInstr, img *image, lane int) {
	layer, f, n := w.coords(in, lane)
	var r result
	switch {
	case in.Op == ImageTld4:
		r = img.gather(w, in.Geom, layer, f[0], f[1], in.Comp, lane, in.Loc)
	case in.IntCoords:
		r = img.fetchInt(w, in.Geom, layer, n, lane, in.Loc)
	default:
		r = img.sample(w, in.Geom, layer, f, lane, in.Loc)
	}
	switch {
	case in.HalfPairs:
		for k := range 2 {
			lo, hi := w.toHalf(r, 2*k), w.toHalf(r, 2*k+1)
			w.Reg(in.Dsts[k])[lane] = uint64(lo) | uint64(hi)<<16
		}
	case in.Half:
		for k := range in.NDsts {
			w.Reg(in.Dsts[k])[lane] = uint64(w.toHalf(r, k))
		}
	default:
		for k := range in.NDsts {
			w.Reg(in.Dsts[k])[lane] = uint64(r.v[k])
		}
	}
}

// toHalf is channel k of a result as a binary16 value.
func (w *Warp) toHalf(r result, k int) uint16 {
	if r.float {
		return isa.F32ToF16(r.v[k], isa.RN)
	}
	return uint16(r.v[k])
}

// OpenCL's channel data type and order codes, which txq and suq return.
const (
	clSnormInt8    = 0x10D0
	clSnormInt16   = 0x10D1
	clUnormInt8    = 0x10D2
	clUnormInt16   = 0x10D3
	clSignedInt8   = 0x10D7
	clSignedInt16  = 0x10D8
	clSignedInt32  = 0x10D9
	clUnsignedInt8 = 0x10DA
	clUnsigned16   = 0x10DB
	clUnsigned32   = 0x10DC
	clHalfFloat    = 0x10DD
	clFloat        = 0x10DE
	clR            = 0x10B0
	clRG           = 0x10B2
	clRGBA         = 0x10B5
)

// query is a txq or suq attribute. Widths and heights count elements; the depth is a 3D
// texture's (1 otherwise); the array size the layers of a layered texture (0 otherwise). The
// address modes are the ISA's codes (wrap 0, mirror 1, clamp_to_edge 3, clamp_to_border 4),
// the filter mode 0 (nearest) or 1 (linear). There is one mipmap level and one sample; a
// surface's memory layout is 1 (block linear), as on the GPU.
func (img *image) query(q ImageQuery) uint32 {
	layers := 0
	switch {
	case img.cube:
		layers = img.slices / 6
		if !img.layered {
			layers = 0
		}
	case img.layered:
		layers = img.slices
	}
	switch q {
	case QueryWidth:
		return uint32(img.w)
	case QueryHeight:
		return uint32(img.h)
	case QueryDepth:
		if img.layered || img.cube {
			return 1
		}
		return uint32(img.slices)
	case QueryChannelDataType:
		return img.channelDataType()
	case QueryChannelOrder:
		return map[int]uint32{1: clR, 2: clRG, 4: clRGBA}[img.f.Channels()]
	case QueryNormalizedCoords:
		return b2u(img.desc.Normalized)
	case QueryForceUnnormalizedCoords:
		return b2u(!img.desc.Normalized)
	case QueryFilterMode:
		return uint32(img.desc.Filter)
	case QueryAddrMode0, QueryAddrMode1, QueryAddrMode2:
		return [...]uint32{AddressWrap: 0, AddressMirror: 1, AddressClamp: 3, AddressBorder: 4}[img.desc.AddressMode[q-QueryAddrMode0]]
	case QueryArraySize:
		return uint32(layers)
	case QueryNumMipmapLevels, QueryNumSamples, QueryMemoryLayout:
		return 1
	}
	return 0
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// channelDataType is the OpenCL code of the element's channels as the texture reads them.
func (img *image) channelDataType() uint32 {
	norm := img.desc.Read == ReadNormalizedFloat && img.kind == imageTexture
	switch {
	case img.f.Kind == ChannelFloat && img.f.Bits[0] == 16:
		return clHalfFloat
	case img.f.Kind == ChannelFloat:
		return clFloat
	case img.f.Kind == ChannelSigned:
		if norm {
			return map[int]uint32{8: clSnormInt8, 16: clSnormInt16}[img.f.Bits[0]]
		}
		return map[int]uint32{8: clSignedInt8, 16: clSignedInt16, 32: clSignedInt32}[img.f.Bits[0]]
	}
	if norm {
		return map[int]uint32{8: clUnormInt8, 16: clUnormInt16}[img.f.Bits[0]]
	}
	return map[int]uint32{8: clUnsignedInt8, 16: clUnsigned16, 32: clUnsigned32}[img.f.Bits[0]]
}

// surfaceLane performs suld, sust or sured for one lane: the element at byte x of row y of
// slice (z or layer) s. The access must lie inside a row and be aligned to its size.
func (w *Warp) surfaceLane(in *ImageInstr, img *image, lane int) {
	layer, _, n := w.coords(in, lane)
	x, y, s := int(n[0]), 0, 0
	switch in.Geom {
	case Geom2D, GeomA2D:
		y = int(n[1])
	case Geom3D:
		y, s = int(n[1]), int(n[2])
	}
	if in.Geom == GeomA1D || in.Geom == GeomA2D {
		s = layer
	}
	size := in.Bytes * max(in.NDsts, in.NSrcs, 1)
	if in.Op == ImageSustP {
		size = img.elem
	}
	if x%size != 0 {
		w.Fault(FaultMisaligned, in.Loc, lane, fmt.Sprintf("surface access of %d bytes at byte x=%d, not aligned to its size", size, x))
	}
	row := img.w * img.elem
	if x < 0 || x+size > row || y < 0 || y >= img.h || s < 0 || s >= img.slices {
		switch in.Clamp {
		case SurfaceTrap:
			w.Fault(FaultOutOfBounds, in.Loc, lane, fmt.Sprintf("surface access of %d bytes at (x=%d bytes, y=%d, slice %d) outside the %dx%dx%d surface of %d-byte elements (.trap)",
				size, x, y, s, img.w, img.h, img.slices, img.elem))
		case SurfaceZero:
			if in.Op == ImageSuld {
				for k := range in.NDsts {
					w.Reg(in.Dsts[k])[lane] = 0
				}
			}
			return
		}
		x = min(max(x, 0), (row-size)/size*size)
		y, s = min(max(y, 0), img.h-1), min(max(s, 0), img.slices-1)
	}
	off := ((s*img.h+y)*img.w)*img.elem + x
	b := img.data[off : off+size]
	switch in.Op {
	case ImageSuld:
		for k := range in.NDsts {
			w.Reg(in.Dsts[k])[lane] = loadLE(b[k*in.Bytes:], in.Bytes)
		}
	case ImageSust:
		for k := range in.NSrcs {
			storeLE(b[k*in.Bytes:], in.Bytes, w.Reg(in.Srcs[k])[lane])
		}
	case ImageSustP:
		w.storeFormatted(in, img, b, lane)
	case ImageSured:
		sured(b, in.Bytes, in.Red, in.Signed, w.Reg(in.Srcs[0])[lane])
	}
}

// loadLE reads n little-endian bytes.
func loadLE(b []byte, n int) uint64 {
	var v uint64
	for i := range n {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// storeLE writes the low n bytes of v, little-endian.
func storeLE(b []byte, n int, v uint64) {
	for i := range n {
		b[i] = byte(v >> (8 * i))
	}
}

// storeFormatted is sust.p: each 32-bit source component converted to the element's channel
// format (float channels from .f32, binary16 ones rounded to nearest; integer channels take the
// component's low bits).
func (w *Warp) storeFormatted(in *ImageInstr, img *image, b []byte, lane int) {
	bytes := img.f.Bits[0] / 8
	for c := range min(img.f.Channels(), in.NSrcs) {
		v := uint32(w.Reg(in.Srcs[c])[lane])
		if img.f.Kind == ChannelFloat && bytes == 2 {
			v = uint32(isa.F32ToF16(v, isa.RN))
		}
		storeLE(b[c*bytes:], bytes, uint64(v))
	}
}

// sured applies a reduction to the 4- or 8-byte element b atomically.
func sured(b []byte, n int, op SuredOp, signed bool, v uint64) {
	apply := func(old uint64) uint64 {
		switch op {
		case SuredAdd:
			return old + v
		case SuredAnd:
			return old & v
		case SuredOr:
			return old | v
		}
		less := old < v
		if signed && n == 4 {
			less = int32(old) < int32(v)
		} else if signed {
			less = int64(old) < int64(v)
		} else if n == 4 {
			less = uint32(old) < uint32(v)
		}
		if less == (op == SuredMin) {
			return old
		}
		return v
	}
	if n == 4 {
		p := AtomicU32(b)
		for {
			old := atomic.LoadUint32(p)
			if atomic.CompareAndSwapUint32(p, old, uint32(apply(uint64(old)))) {
				return
			}
		}
	}
	p := AtomicU64(b)
	for {
		old := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, old, apply(old)) {
			return
		}
	}
}
