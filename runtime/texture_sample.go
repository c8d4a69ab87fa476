package runtime

import (
	"encoding/binary"
	"math"

	"github.com/ptx2go/ptx2go/runtime/isa"
)

// Texture sampling as the CUDA programming guide's texture fetching appendix describes it:
//
//   - A float coordinate c of an axis of n texels is first scaled to texels, u = c*n in float32
//     arithmetic, when the texture has normalized coordinates (else u = c).
//   - Point filtering reads texel i = floor(u). Linear filtering reads texels i = floor(u-0.5)
//     and i+1 with weights 1-a and a, a = frac(u-0.5) rounded to the GPU's 9-bit fixed point
//     with 8 fractional bits (a = k/256, k = round(256*frac), 0 <= k <= 256, so 1 is exact);
//     in 2D and 3D the weights of the 4 or 8 texels are the products of the axes' weights.
//     The weighted sum is exact (in float64: the weights have at most 24 bits) and rounded once
//     to float32; a texel of weight 0 is left out, so that an infinity next to the sample
//     point does not make it NaN.
//   - Each texel index is then addressed: wrap takes it modulo n, mirror reflects it with
//     period 2n, clamp clamps it to [0, n-1], border reads the border color for an index
//     outside [0, n). Wrap and mirror need normalized coordinates: with unnormalized ones
//     they clamp, as on the GPU. A layer index is clamped to the layers.
//   - Integer (.s32) coordinates are texel indices, read without filtering.
//   - A texel's channels are decoded by the read mode: float channels (16-bit ones widened)
//     as float32; 8- and 16-bit integer channels under ReadNormalizedFloat as v/(2^8-1) or
//     v/(2^16-1) unsigned, max(v/(2^7-1), -1) or max(v/(2^15-1), -1) signed, rounded to
//     float32, then (with SRGB, for 8-bit unsigned channels x, y, z) from sRGB to linear;
//     integer channels otherwise as 32-bit integers, sign- or zero-extended. A channel the
//     format lacks reads 0, but w (alpha) reads 1 (1.0 for float results).
//   - A cubemap coordinate (x, y, z) selects the face of its largest component in magnitude
//     (x before y before z on ties), in the order +x, -x, +y, -y, +z, -z, and the face's
//     normalized coordinates s = (sc/|m| + 1)/2, t = (tc/|m| + 1)/2 with (sc, tc) = (-z, -y),
//     (z, -y), (x, z), (x, -z), (x, -y), (-x, -y) for the six faces (the guide's table); the
//     face is then sampled as a 2D texture with normalized coordinates and clamp addressing.

// result is what a texture fetch returns: four 32-bit channels, float32 bits when float.
type result struct {
	v     [4]uint32
	float bool
}

// floatResults reports whether the texture returns floats.
func (img *image) floatResults() bool {
	return img.f.Kind == ChannelFloat || img.desc.Read == ReadNormalizedFloat
}

// elemBytes returns the bytes of element (x, y) of slice s, in range.
func (img *image) elemBytes(w *Warp, x, y, s, lane int, loc string) []byte {
	if img.data != nil {
		off := ((s*img.h+y)*img.w + x) * img.elem
		return img.data[off : off+img.elem]
	}
	addr := img.base + uint64(y*img.pitch+x*img.elem)
	return w.GlobalBytes(addr, img.elem, lane, loc)
}

// channel reads channel c of an element's bytes as raw bits, sign-extended for signed channels.
func (img *image) channel(b []byte, c int) uint32 {
	switch img.f.Bits[0] {
	case 8:
		v := uint32(b[c])
		if img.f.Kind == ChannelSigned {
			v = uint32(int32(int8(b[c])))
		}
		return v
	case 16:
		h := binary.LittleEndian.Uint16(b[2*c:])
		switch img.f.Kind {
		case ChannelSigned:
			return uint32(int32(int16(h)))
		case ChannelFloat:
			return isa.F16ToF32(h)
		}
		return uint32(h)
	}
	return binary.LittleEndian.Uint32(b[4*c:])
}

// decode converts an element's bytes to the texture's result channels.
func (img *image) decode(b []byte) result {
	r := result{float: img.floatResults()}
	n := img.f.Channels()
	bitsPer := img.f.Bits[0]
	for c := range 4 {
		if c >= n {
			if c == 3 {
				r.v[c] = 1
				if r.float {
					r.v[c] = math.Float32bits(1)
				}
			}
			continue
		}
		v := img.channel(b, c)
		if img.f.Kind != ChannelFloat && img.desc.Read == ReadNormalizedFloat {
			v = math.Float32bits(normalizedChannel(v, bitsPer, img.f.Kind == ChannelSigned))
			if img.desc.SRGB && c < 3 && bitsPer == 8 && img.f.Kind == ChannelUnsigned {
				v = math.Float32bits(srgbToLinear(math.Float32frombits(v)))
			}
		}
		r.v[c] = v
	}
	return r
}

// normalizedChannel is an 8- or 16-bit integer channel as a normalized float.
func normalizedChannel(v uint32, n int, signed bool) float32 {
	if signed {
		return float32(max(float64(int32(v))/float64(int(1)<<(n-1)-1), -1))
	}
	return float32(float64(v) / float64(int(1)<<n-1))
}

// srgbToLinear converts an sRGB-encoded value in [0, 1] to linear.
func srgbToLinear(c float32) float32 {
	x := float64(c)
	if x <= 0.04045 {
		return float32(x / 12.92)
	}
	return float32(math.Pow((x+0.055)/1.055, 2.4))
}

// border is the border color as the texture's result.
func (img *image) border() result {
	r := result{float: img.floatResults()}
	for c, v := range img.desc.BorderColor {
		if r.float {
			r.v[c] = math.Float32bits(v)
		} else {
			r.v[c] = uint32(int32(v))
		}
	}
	return r
}

// addressIndex addresses texel index i of an axis of n texels with mode m: the index read, and
// false when the border color is read instead.
func addressIndex(i, n int, m AddressMode) (int, bool) {
	switch m {
	case AddressWrap:
		i %= n
		if i < 0 {
			i += n
		}
	case AddressMirror:
		i %= 2 * n
		if i < 0 {
			i += 2 * n
		}
		if i >= n {
			i = 2*n - 1 - i
		}
	case AddressBorder:
		if i < 0 || i >= n {
			return 0, false
		}
	default:
		i = min(max(i, 0), n-1)
	}
	return i, true
}

// floorIndex is floor(u) as an int, bounded so that it never overflows (NaN reads 0).
func floorIndex(u float32) int {
	f := math.Floor(float64(u))
	switch {
	case f != f:
		return 0
	case f < -1<<30:
		return -1 << 30
	case f > 1<<30:
		return 1 << 30
	}
	return int(f)
}

// LinearWeight is the 9-bit fixed-point weight of the upper texel of linear filtering at texel
// coordinate u: floor(u-0.5) is the lower texel's index i, and the weight is k/256 for the
// returned k in [0, 256], the fraction u-0.5-i rounded to 8 fractional bits.
func LinearWeight(u float32) (i, k int) {
	t := u - 0.5
	i = floorIndex(t)
	frac := float64(t) - math.Floor(float64(t))
	if frac != frac {
		frac = 0
	}
	return i, int(math.Floor(frac*256 + 0.5))
}

// axes is the texel grid of a fetch: the dimensions sampled and the slice (layer or face).
type axes struct {
	n     [3]int // texels along each axis
	dims  int
	slice int
	mode  [3]AddressMode
	norm  bool
}

// gridAxes is the grid of a fetch in geometry g at layer layer (layered geometries).
func (img *image) gridAxes(g Geometry, layer int) axes {
	a := axes{n: [3]int{img.w, img.h, img.slices}, mode: img.desc.AddressMode, norm: img.desc.Normalized}
	switch g {
	case Geom1D, GeomA1D:
		a.dims = 1
	case Geom2D, GeomA2D:
		a.dims = 2
	default:
		a.dims = 3
	}
	if g == GeomA1D || g == GeomA2D {
		a.slice = min(max(layer, 0), img.slices-1)
	}
	if !a.norm {
		for k, m := range a.mode {
			if m == AddressWrap || m == AddressMirror {
				a.mode[k] = AddressClamp
			}
		}
	}
	return a
}

// fetch reads texel idx of the grid (addressed), or the border color.
func (img *image) fetch(w *Warp, a *axes, idx [3]int, lane int, loc string) result {
	var at [3]int
	for k := range a.dims {
		i, ok := addressIndex(idx[k], a.n[k], a.mode[k])
		if !ok {
			return img.border()
		}
		at[k] = i
	}
	s := a.slice
	if a.dims == 3 {
		s = at[2]
	}
	return img.decode(img.elemBytes(w, at[0], at[1], s, lane, loc))
}

// sampleFloat samples the grid at float coordinates c with the texture's filter.
func (img *image) sampleFloat(w *Warp, a *axes, c [3]float32, lane int, loc string) result {
	var u [3]float32
	for k := range a.dims {
		u[k] = c[k]
		if a.norm {
			u[k] = c[k] * float32(a.n[k])
		}
	}
	if img.desc.Filter != FilterLinear {
		var idx [3]int
		for k := range a.dims {
			idx[k] = floorIndex(u[k])
		}
		return img.fetch(w, a, idx, lane, loc)
	}
	var base [3]int
	var wt [3]int
	for k := range a.dims {
		base[k], wt[k] = LinearWeight(u[k])
	}
	var sum [4]float64
	for corner := range 1 << a.dims {
		weight := 1
		var idx [3]int
		for k := range a.dims {
			up := corner>>k&1 == 1
			idx[k] = base[k]
			if up {
				idx[k]++
				weight *= wt[k]
			} else {
				weight *= 256 - wt[k]
			}
		}
		if weight == 0 {
			continue
		}
		t := img.fetch(w, a, idx, lane, loc)
		for ch := range 4 {
			sum[ch] += float64(weight) * float64(math.Float32frombits(t.v[ch]))
		}
	}
	r := result{float: true}
	scale := math.Ldexp(1, -8*a.dims)
	for ch := range 4 {
		r.v[ch] = math.Float32bits(float32(sum[ch] * scale))
	}
	return r
}

// CubeFace maps a cubemap direction to its face (0 to 5: +x, -x, +y, -y, +z, -z) and the
// face's normalized coordinates.
func CubeFace(x, y, z float32) (face int, s, t float32) {
	ax, ay, az := abs32(x), abs32(y), abs32(z)
	var sc, tc, m float32
	switch {
	case ax >= ay && ax >= az:
		m = ax
		if x >= 0 {
			face, sc, tc = 0, -z, -y
		} else {
			face, sc, tc = 1, z, -y
		}
	case ay >= az:
		m = ay
		if y >= 0 {
			face, sc, tc = 2, x, z
		} else {
			face, sc, tc = 3, x, -z
		}
	default:
		m = az
		if z >= 0 {
			face, sc, tc = 4, x, -y
		} else {
			face, sc, tc = 5, -x, -y
		}
	}
	if m == 0 {
		return face, 0.5, 0.5
	}
	return face, (sc/m + 1) / 2, (tc/m + 1) / 2
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Sample is a texture fetch at float coordinates as tex performs it (geometry g; c holds x, y,
// z, layer the layer index of the layered geometries), for tests and host code.
func (d *Device) Sample(h uint64, g Geometry, layer int, c [3]float32) ([4]uint32, bool) {
	img := d.images.lookup(h)
	if img == nil || img.kind != imageTexture || img.data == nil {
		return [4]uint32{}, false
	}
	return img.sample(nil, g, layer, c, 0, "").v, true
}

// sample is tex at float coordinates.
func (img *image) sample(w *Warp, g Geometry, layer int, c [3]float32, lane int, loc string) result {
	if g == GeomCube || g == GeomACube {
		face, s, t := CubeFace(c[0], c[1], c[2])
		layers := max(img.slices/6, 1)
		l := 0
		if g == GeomACube {
			l = min(max(layer, 0), layers-1)
		}
		a := axes{n: [3]int{img.w, img.h, 1}, dims: 2, slice: 6*l + face, norm: true,
			mode: [3]AddressMode{AddressClamp, AddressClamp, AddressClamp}}
		return img.sampleFloat(w, &a, [3]float32{s, t}, lane, loc)
	}
	a := img.gridAxes(g, layer)
	return img.sampleFloat(w, &a, c, lane, loc)
}

// fetchInt is tex at integer coordinates: texel indices, without filtering.
func (img *image) fetchInt(w *Warp, g Geometry, layer int, c [3]int32, lane int, loc string) result {
	a := img.gridAxes(g, layer)
	a.norm = false
	for k, m := range a.mode {
		if m == AddressWrap || m == AddressMirror {
			a.mode[k] = AddressClamp
		}
	}
	return img.fetch(w, &a, [3]int{int(c[0]), int(c[1]), int(c[2])}, lane, loc)
}

// gather is tld4: component comp of the four texels linear filtering at (x, y) would read, in
// the ISA's order, counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
func (img *image) gather(w *Warp, g Geometry, layer int, x, y float32, comp, lane int, loc string) result {
	a := img.gridAxes(g, layer)
	u, v := x, y
	if a.norm {
		u, v = x*float32(a.n[0]), y*float32(a.n[1])
	}
	i, _ := LinearWeight(u)
	j, _ := LinearWeight(v)
	r := result{float: img.floatResults()}
	for k, d := range [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}} {
		r.v[k] = img.fetch(w, &a, [3]int{i + d[0], j + d[1]}, lane, loc).v[comp]
	}
	return r
}
