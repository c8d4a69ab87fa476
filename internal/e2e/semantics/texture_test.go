package semantics_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// The texture and surface instructions of testdata/ptx/hand/texture.ptx on both engines,
// against texRef, a plain model of the CUDA programming guide's texture fetching rules
// (appendix "Texture Fetching"): addressing, normalized coordinates, point filtering, linear
// filtering with 9-bit weights (8 fractional bits), read modes, cubemap faces. It keeps texels
// as float64 and shares no code with the runtime.

const texPTX = "testdata/ptx/hand/texture.ptx"

// texRef is a texture as the reference sees it: a w x h x d grid (d slices: depth, layers or
// 6 faces per layer) of four float64 channels, and how it is sampled.
type texRef struct {
	w, h, d    int
	texel      [][4]float64
	mode       [3]runtime.AddressMode
	linear     bool
	normalized bool
	border     [4]float64
}

func (r *texRef) at(x, y, z int) [4]float64 { return r.texel[(z*r.h+y)*r.w+x] }

// index applies the address mode of axis k to texel index i of n: the index, or false for the
// border. Wrap and mirror need normalized coordinates (the guide: "only supported for
// normalized texture coordinates"); otherwise the GPU clamps.
func (r *texRef) index(k, i, n int) (int, bool) {
	m := r.mode[k]
	if !r.normalized && (m == runtime.AddressWrap || m == runtime.AddressMirror) {
		m = runtime.AddressClamp
	}
	switch m {
	case runtime.AddressWrap:
		return ((i % n) + n) % n, true
	case runtime.AddressMirror:
		p := ((i % (2 * n)) + 2*n) % (2 * n)
		if p < n {
			return p, true
		}
		return 2*n - 1 - p, true
	case runtime.AddressBorder:
		return i, i >= 0 && i < n
	}
	if i < 0 {
		return 0, true
	}
	if i >= n {
		return n - 1, true
	}
	return i, true
}

// fetch reads texel (i, j, k) of slice s after addressing (dims axes addressed).
func (r *texRef) fetch(dims int, idx [3]int, slice int) [4]float64 {
	n := [3]int{r.w, r.h, r.d}
	var at [3]int
	for k := range dims {
		i, ok := r.index(k, idx[k], n[k])
		if !ok {
			return r.border
		}
		at[k] = i
	}
	if dims == 3 {
		slice = at[2]
	}
	return r.at(at[0], at[1], slice)
}

// sample is tex at float coordinates c of dims axes in slice slice: the guide's formulas,
// tex(x) = T[floor(x)] and, for linear filtering, (1-a)T[i] + aT[i+1] with i = floor(x-0.5)
// and a = frac(x-0.5) in 9-bit fixed point, products of the axes' weights in 2D and 3D.
func (r *texRef) sample(dims int, c [3]float32, slice int) [4]float32 {
	n := [3]int{r.w, r.h, r.d}
	var u [3]float32
	for k := range dims {
		u[k] = c[k]
		if r.normalized {
			u[k] = c[k] * float32(n[k])
		}
	}
	var out [4]float32
	if !r.linear {
		var idx [3]int
		for k := range dims {
			idx[k] = int(math.Floor(float64(u[k])))
		}
		t := r.fetch(dims, idx, slice)
		for ch := range 4 {
			out[ch] = float32(t[ch])
		}
		return out
	}
	var lo [3]int
	var a [3]float64
	for k := range dims {
		x := float64(u[k] - 0.5)
		lo[k] = int(math.Floor(x))
		a[k] = math.Floor((x-math.Floor(x))*256+0.5) / 256
	}
	var sum [4]float64
	for corner := range 1 << dims {
		wgt := 1.0
		var idx [3]int
		for k := range dims {
			if corner>>k&1 == 1 {
				idx[k], wgt = lo[k]+1, wgt*a[k]
			} else {
				idx[k], wgt = lo[k], wgt*(1-a[k])
			}
		}
		if wgt == 0 {
			continue
		}
		t := r.fetch(dims, idx, slice)
		for ch := range 4 {
			sum[ch] += wgt * t[ch]
		}
	}
	for ch := range 4 {
		out[ch] = float32(sum[ch])
	}
	return out
}

// cube is texCubemap: the face of the major axis (the guide's table) and its (s, t).
func (r *texRef) cube(x, y, z float32, layer int) [4]float32 {
	ax, ay, az := math.Abs(float64(x)), math.Abs(float64(y)), math.Abs(float64(z))
	var face int
	var sc, tc, m float32
	switch {
	case ax >= ay && ax >= az && x >= 0:
		face, sc, tc, m = 0, -z, -y, x
	case ax >= ay && ax >= az:
		face, sc, tc, m = 1, z, -y, -x
	case ay >= az && y >= 0:
		face, sc, tc, m = 2, x, z, y
	case ay >= az:
		face, sc, tc, m = 3, x, -z, -y
	case z >= 0:
		face, sc, tc, m = 4, x, -y, z
	default:
		face, sc, tc, m = 5, -x, -y, -z
	}
	s, t := (sc/m+1)/2, (tc/m+1)/2
	cr := *r
	cr.normalized = true
	cr.mode = [3]runtime.AddressMode{runtime.AddressClamp, runtime.AddressClamp, runtime.AddressClamp}
	return cr.sample(2, [3]float32{s, t}, 6*layer+face)
}

// float4Array makes a float4 array of the reference's texels on dev.
func float4Array(t *testing.T, dev *runtime.Device, r *texRef, flags runtime.ArrayFlags, height, depth int) *runtime.Array {
	a, err := dev.MallocArray(runtime.ChannelFormat{Bits: [4]int{32, 32, 32, 32}, Kind: runtime.ChannelFloat}, r.w, height, depth, flags)
	require.NoError(t, err)
	b := make([]byte, 16*len(r.texel))
	for i, v := range r.texel {
		for ch := range 4 {
			binary.LittleEndian.PutUint32(b[16*i+4*ch:], math.Float32bits(float32(v[ch])))
		}
	}
	require.NoError(t, a.Write(b))
	return a
}

// randomTexels makes n texels of small integers (so that every weighted sum is exact).
func randomTexels(rng *rand.Rand, n int) [][4]float64 {
	out := make([][4]float64, n)
	for i := range out {
		for ch := range 4 {
			out[i][ch] = float64(rng.IntN(256)) - 64
		}
	}
	return out
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// runTex launches kernel with one thread per coordinate record (words float32 each) and returns
// outWords float32 per thread.
func runTex(t *testing.T, kernel string, coords []float32, words, outWords int, dev *runtime.Device, args ...any) []float32 {
	mod, err := harness.LoadModule(t, texPTX)
	require.NoError(t, err)
	k, err := mod.Kernel(kernel)
	require.NoError(t, err)
	n := len(coords) / words
	in, err := runtime.Upload(dev, coords)
	require.NoError(t, err)
	out, err := dev.Malloc(4 * outWords * n)
	require.NoError(t, err)
	require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(n)), append([]any{out, in}, args...)...))
	got := make([]float32, outWords*n)
	require.NoError(t, runtime.Download(dev, got, out))
	return got
}

// requireBits compares float32 results bit for bit.
func requireBits(t *testing.T, want, got []float32, what string, i int) {
	t.Helper()
	for ch := range want {
		if math.Float32bits(want[ch]) != math.Float32bits(got[ch]) {
			t.Fatalf("%s: thread %d channel %d = %v (%#x), want %v (%#x)", what, i, ch, got[ch], math.Float32bits(got[ch]), want[ch], math.Float32bits(want[ch]))
		}
	}
}

// TestTexture2D samples a 5x3 float4 array with every address mode, both filters and both
// coordinate kinds at 1024 points inside and around it (every linear weight is met several
// times per axis), and the same texels as normalized 8-bit and as half channels.
func TestTexture2D(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		ref := &texRef{w: 5, h: 3, d: 1, texel: randomTexels(rng, 15), border: [4]float64{0.5, -2, 3, 7}}
		coords := make([]float32, 2*1024)
		for i := range 1024 {
			// Fractions k/64 + 1/256 over [-1.5, 6.5): never a tie of the 9-bit rounding.
			coords[2*i] = -1.5 + float32(i%32)/4 + float32(i%64)/64/4 + 1.0/256
			coords[2*i+1] = -1.5 + float32(i/32)/6 + float32(i%7)/112 + 1.0/512
		}
		for _, mode := range []runtime.AddressMode{runtime.AddressWrap, runtime.AddressClamp, runtime.AddressMirror, runtime.AddressBorder} {
			for _, linear := range []bool{false, true} {
				for _, norm := range []bool{false, true} {
					dev := runtime.NewDevice()
					arr := float4Array(t, dev, ref, 0, ref.h, 0)
					desc := runtime.TextureDesc{AddressMode: [3]runtime.AddressMode{mode, mode, mode}, Normalized: norm,
						BorderColor: [4]float32{0.5, -2, 3, 7}}
					if linear {
						desc.Filter = runtime.FilterLinear
					}
					h, err := dev.CreateTexture(runtime.Resource{Kind: runtime.ResourceArray, Array: arr}, desc)
					require.NoError(t, err)
					r := *ref
					r.mode, r.linear, r.normalized = desc.AddressMode, linear, norm
					in := coords
					if norm {
						in = make([]float32, len(coords))
						for i := range 1024 {
							in[2*i], in[2*i+1] = coords[2*i]/5, coords[2*i+1]/3
						}
					}
					got := runTex(t, "tex2d", in, 2, 4, dev, h)
					for i := range 1024 {
						want := r.sample(2, [3]float32{in[2*i], in[2*i+1]}, 0)
						requireBits(t, want[:], got[4*i:4*i+4], "tex.2d", i)
					}
				}
			}
		}
	})
}

// TestTextureReadModes reads 8-bit unsigned and signed channels as normalized floats and half
// channels, with linear filtering, against the guide's conversions.
func TestTextureReadModes(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		const w, h = 6, 4
		raw := make([]byte, 4*w*h)
		for i := range raw {
			raw[i] = byte(rng.IntN(256))
		}
		coords := make([]float32, 2*256)
		for i := range 256 {
			coords[2*i], coords[2*i+1] = float32(i%16)/2.5+float32(i)/1024, float32(i/16)/4+float32(i%5)/20
		}
		for _, kind := range []runtime.ChannelKind{runtime.ChannelUnsigned, runtime.ChannelSigned, runtime.ChannelFloat} {
			dev := runtime.NewDevice()
			bits := 8
			if kind == runtime.ChannelFloat {
				bits = 16
			}
			f := runtime.ChannelFormat{Bits: [4]int{bits, bits, bits, bits}, Kind: kind}
			arr, err := dev.MallocArray(f, w, h, 0, 0)
			require.NoError(t, err)
			data := raw
			ref := &texRef{w: w, h: h, d: 1, linear: true, texel: make([][4]float64, w*h)}
			if kind == runtime.ChannelFloat {
				data = make([]byte, 8*w*h)
				for i := range 4 * w * h {
					// Half values of small integers and eighths.
					v := isa.F32ToF16(math.Float32bits(float32(int(raw[i]))/8-10), isa.RN)
					binary.LittleEndian.PutUint16(data[2*i:], v)
					ref.texel[i/4][i%4] = isa.F16Value(v)
				}
			} else {
				for i, b := range raw {
					if kind == runtime.ChannelUnsigned {
						ref.texel[i/4][i%4] = float64(float32(float64(b) / 255))
					} else {
						ref.texel[i/4][i%4] = float64(float32(math.Max(float64(int8(b))/127, -1)))
					}
				}
			}
			require.NoError(t, arr.Write(data))
			desc := runtime.TextureDesc{Filter: runtime.FilterLinear, Read: runtime.ReadNormalizedFloat,
				AddressMode: [3]runtime.AddressMode{runtime.AddressClamp, runtime.AddressClamp}}
			if kind == runtime.ChannelFloat {
				desc.Read = runtime.ReadElementType
			}
			tex, err := dev.CreateTexture(runtime.Resource{Kind: runtime.ResourceArray, Array: arr}, desc)
			require.NoError(t, err)
			got := runTex(t, "tex2d", coords, 2, 4, dev, tex)
			for i := range 256 {
				want := ref.sample(2, [3]float32{coords[2*i], coords[2*i+1]}, 0)
				if kind != runtime.ChannelFloat {
					// The weighted sum of normalized texels is no longer exact in float64 alone;
					// it is within one float32 rounding of the reference.
					for ch := range 4 {
						require.InDelta(t, want[ch], got[4*i+ch], 1e-6, "kind %d thread %d channel %d", kind, i, ch)
					}
					continue
				}
				requireBits(t, want[:], got[4*i:4*i+4], "half channels", i)
			}
		}
	})
}

// TestTextureGeometries samples 1D, 3D, layered and cubemap arrays (linear filtering,
// normalized coordinates, wrap and clamp).
func TestTextureGeometries(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		const n = 256
		coords := make([]float32, 4*n)
		for i := range n {
			for k := range 3 {
				coords[4*i+k] = rng.Float32()*1.6 - 0.3
			}
		}
		desc := runtime.TextureDesc{Filter: runtime.FilterLinear, Normalized: true,
			AddressMode: [3]runtime.AddressMode{runtime.AddressWrap, runtime.AddressClamp, runtime.AddressMirror}}
		t.Run("1d3d", func(t *testing.T) {
			dev := runtime.NewDevice()
			r1 := &texRef{w: 7, h: 1, d: 1, texel: randomTexels(rng, 7), linear: true, normalized: true, mode: desc.AddressMode}
			r3 := &texRef{w: 4, h: 3, d: 5, texel: randomTexels(rng, 60), linear: true, normalized: true, mode: desc.AddressMode}
			h1, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, r1, 0, 0, 0)}, desc)
			require.NoError(t, err)
			h3, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, r3, 0, 3, 5)}, desc)
			require.NoError(t, err)
			got := runTex(t, "tex1d3d", coords, 4, 8, dev, h1, h3)
			for i := range n {
				c := [3]float32{coords[4*i], coords[4*i+1], coords[4*i+2]}
				w1, w3 := r1.sample(1, c, 0), r3.sample(3, c, 0)
				requireBits(t, w1[:], got[8*i:8*i+4], "tex.1d", i)
				requireBits(t, w3[:], got[8*i+4:8*i+8], "tex.3d", i)
			}
		})
		t.Run("layered", func(t *testing.T) {
			dev := runtime.NewDevice()
			r1 := &texRef{w: 6, h: 1, d: 3, texel: randomTexels(rng, 18), linear: true, normalized: true, mode: desc.AddressMode}
			r2 := &texRef{w: 4, h: 5, d: 3, texel: randomTexels(rng, 60), linear: true, normalized: true, mode: desc.AddressMode}
			h1, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, r1, runtime.ArrayLayered, 0, 3)}, desc)
			require.NoError(t, err)
			h2, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, r2, runtime.ArrayLayered, 5, 3)}, desc)
			require.NoError(t, err)
			in := make([]float32, 4*n)
			for i := range n {
				layer := int32(i%5) - 1 // -1 and 3 clamp to the first and last layer
				in[4*i] = math.Float32frombits(uint32(layer))
				in[4*i+1], in[4*i+2] = coords[4*i], coords[4*i+1]
			}
			got := runTex(t, "layered", in, 4, 8, dev, h1, h2)
			for i := range n {
				l := min(max(i%5-1, 0), 2)
				c := [3]float32{in[4*i+1], in[4*i+2]}
				w1, w2 := r1.sample(1, c, l), r2.sample(2, c, l)
				requireBits(t, w1[:], got[8*i:8*i+4], "tex.a1d", i)
				requireBits(t, w2[:], got[8*i+4:8*i+8], "tex.a2d", i)
			}
		})
		t.Run("cube", func(t *testing.T) {
			dev := runtime.NewDevice()
			rc := &texRef{w: 4, h: 4, d: 6, texel: randomTexels(rng, 96), linear: true}
			ra := &texRef{w: 4, h: 4, d: 12, texel: randomTexels(rng, 192), linear: true}
			hc, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, rc, runtime.ArrayCubemap, 4, 6)}, desc)
			require.NoError(t, err)
			ha, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, ra, runtime.ArrayCubemap|runtime.ArrayLayered, 4, 12)}, desc)
			require.NoError(t, err)
			in := make([]float32, 4*n)
			for i := range n {
				for k := range 3 {
					in[4*i+k] = rng.Float32()*2 - 1
				}
				in[4*i+3] = math.Float32frombits(uint32(i % 2))
			}
			got := runTex(t, "cube", in, 4, 8, dev, hc, ha)
			for i := range n {
				x, y, z := in[4*i], in[4*i+1], in[4*i+2]
				wc, wa := rc.cube(x, y, z, 0), ra.cube(x, y, z, i%2)
				requireBits(t, wc[:], got[8*i:8*i+4], "tex.cube", i)
				requireBits(t, wa[:], got[8*i+4:8*i+8], "tex.acube", i)
			}
		})
	})
}

// TestTextureFetch reads with integer coordinates (linear memory and an int4 array), gathers
// with tld4 and returns half results.
func TestTextureFetch(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		dev := runtime.NewDevice()
		const w, h = 8, 4
		lin := make([]int32, 4*w)
		for i := range lin {
			lin[i] = int32(i*37 - 500)
		}
		p, err := runtime.Upload(dev, lin)
		require.NoError(t, err)
		i4 := runtime.ChannelFormat{Bits: [4]int{32, 32, 32, 32}, Kind: runtime.ChannelSigned}
		t1, err := dev.CreateTexture(runtime.Resource{Kind: runtime.ResourceLinear, Ptr: p, Format: i4, Size: 16 * w},
			runtime.TextureDesc{AddressMode: [3]runtime.AddressMode{runtime.AddressBorder}})
		require.NoError(t, err)
		u1 := runtime.ChannelFormat{Bits: [4]int{32}, Kind: runtime.ChannelUnsigned}
		arr, err := dev.MallocArray(u1, w, h, 0, 0)
		require.NoError(t, err)
		vals := make([]byte, 4*w*h)
		for i := range w * h {
			binary.LittleEndian.PutUint32(vals[4*i:], uint32(i*i+1))
		}
		require.NoError(t, arr.Write(vals))
		t2, err := dev.CreateTexture(runtime.Resource{Array: arr}, runtime.TextureDesc{})
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(7, 8))
		ref := &texRef{w: w, h: h, d: 1, texel: randomTexels(rng, w*h), linear: true}
		farr := float4Array(t, dev, ref, runtime.ArrayTextureGather, h, 0)
		tf, err := dev.CreateTexture(runtime.Resource{Array: farr}, runtime.TextureDesc{Filter: runtime.FilterLinear})
		require.NoError(t, err)
		const n = 64
		in := make([]float32, 2*n)
		for i := range n {
			in[2*i], in[2*i+1] = math.Float32frombits(uint32(int32(i%11-1))), math.Float32frombits(uint32(int32(i/11-1)))
			if i >= 32 {
				in[2*i], in[2*i+1] = float32(i%9)-0.25+float32(i)/256, float32(i%5)-0.5+float32(i)/512
			}
		}
		got := runTex(t, "fetch", in, 2, 20, dev, t1, t2, tf)
		for i := range n {
			o := got[20*i:]
			x, y := int32(math.Float32bits(in[2*i])), int32(math.Float32bits(in[2*i+1]))
			for ch := range 4 {
				want := int32(0)
				if x >= 0 && x < w {
					want = lin[4*x+int32(ch)]
				}
				require.Equal(t, want, int32(math.Float32bits(o[ch])), "tex.1d.s32 thread %d channel %d", i, ch)
			}
			cx, cy := min(max(x, 0), w-1), min(max(y, 0), h-1)
			wantU := [4]uint32{uint32((cy*w+cx)*(cy*w+cx) + 1), 0, 0, 1}
			for ch := range 4 {
				require.Equal(t, wantU[ch], math.Float32bits(o[4+ch]), "tex.2d.u32 thread %d channel %d", i, ch)
			}
			if i < 32 {
				continue // the integer coordinates' bits as floats are not sample points
			}
			fx, fy := in[2*i], in[2*i+1]
			i0, j0 := int(math.Floor(float64(fx-0.5))), int(math.Floor(float64(fy-0.5)))
			for k, d := range [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}} {
				want := float32(ref.fetch(2, [3]int{i0 + d[0], j0 + d[1]}, 0)[1])
				require.Equal(t, want, o[8+k], "tld4.g thread %d texel %d", i, k)
			}
			s := ref.sample(2, [3]float32{fx, fy}, 0)
			hb := make([]byte, 16)
			for k := range 4 {
				binary.LittleEndian.PutUint32(hb[4*k:], math.Float32bits(o[12+k]))
			}
			for ch := range 4 {
				wantH := isa.F32ToF16(math.Float32bits(s[ch]), isa.RN)
				require.Equal(t, wantH, binary.LittleEndian.Uint16(hb[2*ch:]), "tex.f16 thread %d channel %d", i, ch)
				require.Equal(t, wantH, binary.LittleEndian.Uint16(hb[8+2*ch:]), "tex.f16x2 thread %d channel %d", i, ch)
			}
		}
	})
}

// TestTextureQueries checks txq, suq and istypeof.
func TestTextureQueries(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		dev := runtime.NewDevice()
		arr, err := dev.MallocArray(runtime.ChannelFormat{Bits: [4]int{8, 8, 8, 8}, Kind: runtime.ChannelUnsigned}, 13, 9, 4, runtime.ArrayLayered|runtime.ArraySurfaceLoadStore)
		require.NoError(t, err)
		tex, err := dev.CreateTexture(runtime.Resource{Array: arr}, runtime.TextureDesc{Filter: runtime.FilterLinear, Read: runtime.ReadNormalizedFloat,
			Normalized: true, AddressMode: [3]runtime.AddressMode{runtime.AddressMirror, runtime.AddressBorder}})
		require.NoError(t, err)
		surf, err := dev.CreateSurface(runtime.Resource{Array: arr})
		require.NoError(t, err)
		mod, err := harness.LoadModule(t, texPTX)
		require.NoError(t, err)
		k, err := mod.Kernel("queries")
		require.NoError(t, err)
		out, err := dev.Malloc(80)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(1), out, tex, surf))
		got := make([]uint32, 20)
		require.NoError(t, runtime.Download(dev, got, out))
		// width, height, depth, CL_UNORM_INT8, CL_RGBA, normalized, linear, mirror (1), border (4),
		// 4 layers, 1 level; the surface: width, height, CL_UNSIGNED_INT8, CL_RGBA, block linear;
		// istypeof texref, surfref of the texture, surfref of the surface.
		want := []uint32{13, 9, 1, 0x10D2, 0x10B5, 1, 1, 1, 4, 4, 1, 13, 9, 0x10DA, 0x10B5, 1, 1, 0, 1, 1}
		require.Equal(t, want, got)
	})
}

// TestSurface reads, doubles and writes back every element of a 2D surface, adds with
// sured from every thread, and reads outside the surface with .clamp and .zero; .trap faults
// at its line with the thread.
func TestSurface(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		dev := runtime.NewDevice()
		const w, h = 16, 3
		u32 := runtime.ChannelFormat{Bits: [4]int{32}, Kind: runtime.ChannelUnsigned}
		a, err := dev.MallocArray(u32, w, h, 0, runtime.ArraySurfaceLoadStore)
		require.NoError(t, err)
		a2, err := dev.MallocArray(u32, w, 1, 0, runtime.ArraySurfaceLoadStore)
		require.NoError(t, err)
		init := make([]byte, 4*w*h)
		for i := range w * h {
			binary.LittleEndian.PutUint32(init[4*i:], uint32(i*3))
		}
		require.NoError(t, a.Write(init))
		init2 := make([]byte, 4*w)
		for i := range w {
			binary.LittleEndian.PutUint32(init2[4*i:], uint32(100+i))
		}
		require.NoError(t, a2.Write(init2))
		s, err := dev.CreateSurface(runtime.Resource{Array: a})
		require.NoError(t, err)
		s2, err := dev.CreateSurface(runtime.Resource{Array: a2})
		require.NoError(t, err)
		mod, err := harness.LoadModule(t, texPTX)
		require.NoError(t, err)
		k, err := mod.Kernel("surface")
		require.NoError(t, err)
		shift := make([]int32, w*h)
		for i := range shift {
			shift[i] = int32(4 * (i%7*3 - 6)) // -24 to +48 bytes
		}
		in, err := runtime.Upload(dev, shift)
		require.NoError(t, err)
		out, err := dev.Malloc(8 * w * h)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(h), runtime.D1(w), out, in, s, s2))
		got := make([]byte, 4*w*h)
		require.NoError(t, a.Read(got))
		for i := range w * h {
			require.Equal(t, uint32(i*6+1), binary.LittleEndian.Uint32(got[4*i:]), "element %d", i)
		}
		got2 := make([]byte, 4*w)
		require.NoError(t, a2.Read(got2))
		for i := range w {
			require.Equal(t, uint32(100+i+h), binary.LittleEndian.Uint32(got2[4*i:]), "sured element %d", i)
		}
		loads := make([]uint32, 2*w*h)
		require.NoError(t, runtime.Download(dev, loads, out))
		// The loads may run before or after other CTAs' reductions: compare modulo them.
		for i := range w * h {
			x := (i%w)*4 + int(shift[i])
			cx := min(max(x, 0), 4*(w-1)) / 4
			require.InDelta(t, 100+cx+1, int(loads[2*i]), float64(h), ".clamp load of thread %d", i)
			if x < 0 || x >= 4*w {
				require.Zero(t, loads[2*i+1], ".zero load of thread %d", i)
			} else {
				require.InDelta(t, 100+x/4+1, int(loads[2*i+1]), float64(h), ".zero load of thread %d", i)
			}
		}
		kt, err := mod.Kernel("surftrap")
		require.NoError(t, err)
		bad, err := runtime.Upload(dev, []int32{4 * w})
		require.NoError(t, err)
		err = kt.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(1), bad, s)
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultOutOfBounds, Kernel: "surftrap",
			Loc: harness.FaultLocIn(t, texPTX, "surftrap")})
	})
}

// TestTextureLegacy binds the module's .texref and .surfref variables and reads and writes
// through them; an unbound reference faults.
func TestTextureLegacy(t *testing.T) {
	harness.OnEngines(t, texPTX, func(t *testing.T) {
		dev := runtime.NewDevice()
		mod, err := harness.LoadModule(t, texPTX)
		require.NoError(t, err)
		k, err := mod.Kernel("legacy")
		require.NoError(t, err)
		coords := []float32{0.5, 0.5, 1.75, 0.25, 3.2, 2.9, -1, 5}
		in, err := runtime.Upload(dev, coords)
		require.NoError(t, err)
		out, err := dev.Malloc(64)
		require.NoError(t, err)
		err = k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(4), out, in)
		f := harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultIllegal, Kernel: "legacy", Loc: harness.FaultLocIn(t, texPTX, "legacytex")})
		require.Contains(t, f.Detail, "texture reference tref is not bound")
		rng := rand.New(rand.NewPCG(9, 10))
		ref := &texRef{w: 4, h: 3, d: 1, texel: randomTexels(rng, 12), linear: true}
		tex, err := dev.CreateTexture(runtime.Resource{Array: float4Array(t, dev, ref, 0, 3, 0)}, runtime.TextureDesc{Filter: runtime.FilterLinear})
		require.NoError(t, err)
		sa, err := dev.MallocArray(runtime.ChannelFormat{Bits: [4]int{32}, Kind: runtime.ChannelSigned}, 4, 1, 0, runtime.ArraySurfaceLoadStore)
		require.NoError(t, err)
		surf, err := dev.CreateSurface(runtime.Resource{Array: sa})
		require.NoError(t, err)
		require.Error(t, mod.BindReference(dev, "tref", surf), "a surface bound to a texture reference")
		require.NoError(t, mod.BindReference(dev, "tref", tex))
		require.NoError(t, mod.BindReference(dev, "sref", surf))
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(4), out, in))
		got := make([]float32, 16)
		require.NoError(t, runtime.Download(dev, got, out))
		for i := range 4 {
			want := ref.sample(2, [3]float32{coords[2*i], coords[2*i+1]}, 0)
			requireBits(t, want[:], got[4*i:4*i+4], "tex through tref", i)
		}
		sb := make([]byte, 16)
		require.NoError(t, sa.Read(sb))
		for i := range 4 {
			require.Equal(t, uint32(i+7), binary.LittleEndian.Uint32(sb[4*i:]))
		}
	})
}
