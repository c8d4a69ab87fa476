package float_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

// Conformance tests of the narrow-float conversions (cvt to and from .e4m3x2, .e5m2x2,
// .e2m1x2, .e2m3x2, .e3m2x2 and .ue8m0x2) and of min/max on the packed integer types. The
// reference decodes every code of a format from its bit fields, lists the representable
// values, and rounds by picking the nearest one (ties to the even code), independently of
// runtime/isa.

// fp8Fmt is a narrow format as the reference sees it: exponent and fraction widths, the
// bias, and which codes are special: fp8SpecialTop (e4m3: only all-ones is NaN), fp8IEEE
// (e5m2: the top exponent holds infinities and NaNs) or fp8Finite (no special codes).
type fp8Fmt struct {
	name            string
	exp, frac, bias int
	special         int
	field           int // width of the element's field in a packed pair
	vals            []float64
	codes           []uint64
}

const (
	fp8SpecialTop = iota
	fp8IEEE
	fp8Finite
)

var fp8Fmts = []*fp8Fmt{
	{name: "e4m3x2", exp: 4, frac: 3, bias: 7, special: fp8SpecialTop, field: 8},
	{name: "e5m2x2", exp: 5, frac: 2, bias: 15, special: fp8IEEE, field: 8},
	{name: "e2m3x2", exp: 2, frac: 3, bias: 1, special: fp8Finite, field: 8},
	{name: "e3m2x2", exp: 3, frac: 2, bias: 3, special: fp8Finite, field: 8},
	{name: "e2m1x2", exp: 2, frac: 1, bias: 1, special: fp8Finite, field: 4},
}

func init() {
	for _, f := range fp8Fmts {
		for c := range uint64(1) << (f.exp + f.frac) {
			if v := f.decode(c); !math.IsNaN(v) && !math.IsInf(v, 0) {
				f.vals = append(f.vals, v)
				f.codes = append(f.codes, c)
			}
		}
	}
}

func (f *fp8Fmt) signBit() uint64 { return 1 << (f.exp + f.frac) }
func (f *fp8Fmt) maxCode() uint64 { return f.codes[len(f.codes)-1] }
func (f *fp8Fmt) maxVal() float64 { return f.vals[len(f.vals)-1] }

// decode is the value of code c from its sign, exponent and fraction fields.
func (f *fp8Fmt) decode(c uint64) float64 {
	e := int(c >> f.frac & (1<<f.exp - 1))
	m := float64(c & (1<<f.frac - 1))
	top := e == 1<<f.exp-1
	var v float64
	switch {
	case f.special == fp8IEEE && top && m == 0:
		v = math.Inf(1)
	case f.special == fp8IEEE && top, f.special == fp8SpecialTop && top && m == float64(int(1)<<f.frac-1):
		return math.NaN()
	case e == 0:
		v = m / math.Pow(2, float64(f.frac)) * math.Pow(2, float64(1-f.bias))
	default:
		v = (1 + m/math.Pow(2, float64(f.frac))) * math.Pow(2, float64(e-f.bias))
	}
	if c&f.signBit() != 0 {
		v = -v
	}
	return v
}

// round is the reference of cvt.rn.satfinite{.relu} to f for one element.
func (f *fp8Fmt) round(x float64, relu bool) uint64 {
	if math.IsNaN(x) {
		if f.special == fp8Finite {
			return f.maxCode()
		}
		return 0x7f
	}
	neg := math.Signbit(x)
	if neg && relu {
		return 0
	}
	a := math.Abs(x)
	var c uint64
	if a >= f.maxVal() {
		c = f.maxCode()
	} else {
		i := sort.SearchFloat64s(f.vals, a)
		if f.vals[i] == a {
			c = f.codes[i]
		} else {
			lo, hi := i-1, i
			mid := (f.vals[lo] + f.vals[hi]) / 2
			switch {
			case a < mid:
				c = f.codes[lo]
			case a > mid:
				c = f.codes[hi]
			case f.codes[lo]%2 == 0:
				c = f.codes[lo]
			default:
				c = f.codes[hi]
			}
		}
	}
	if neg {
		c |= f.signBit()
	}
	return c
}

// fp8F16Bits encodes a value that f16 represents exactly (NaN as 0x7fff).
func fp8F16Bits(v float64) uint64 {
	if math.IsNaN(v) {
		return 0x7fff
	}
	var s uint64
	if math.Signbit(v) {
		s, v = 0x8000, -v
	}
	switch {
	case math.IsInf(v, 1):
		return s | 0x7c00
	case v < 0x1p-14:
		return s | uint64(v*0x1p24)
	}
	fr, e := math.Frexp(v)
	return s | uint64(e-1+15)<<10 | uint64((fr*2-1)*1024)
}

// fp8F32Inputs returns the f32 test inputs of format f: edge values, every representable value,
// every midpoint between neighbours and the f32 values on either side of each (both signs),
// and 20000 random ones (10000 arbitrary bit patterns, 10000 log-uniform in the format's range).
func fp8F32Inputs(f *fp8Fmt, rng *rand.Rand) []uint64 {
	in := []uint64{0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 1, 0x80000001, 0x7f800000,
		0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x7fffffff, 0x00800000, 0x807fffff}
	add := func(v float32) {
		for _, s := range []float32{1, -1} {
			w := s * v
			in = append(in, uint64(math.Float32bits(w)), uint64(math.Float32bits(math.Nextafter32(w, float32(math.Inf(1))))),
				uint64(math.Float32bits(math.Nextafter32(w, float32(math.Inf(-1))))))
		}
	}
	for i, v := range f.vals {
		add(float32(v))
		if i > 0 {
			add(float32((v + f.vals[i-1]) / 2))
		}
	}
	// Around the largest value and where an unsaturated rounding would overflow.
	top := f.maxVal()
	ulp := top - f.vals[len(f.vals)-2]
	for _, v := range []float64{top + ulp/2, top + ulp, 2 * top, 1e30} {
		add(float32(v))
	}
	for range 10000 {
		in = append(in, uint64(rng.Uint32()))
	}
	lo, hi := math.Log2(f.vals[1])-4, math.Log2(top)+2
	for range 10000 {
		v := float32(math.Exp2(lo + (hi-lo)*rng.Float64()))
		if rng.IntN(2) == 0 {
			v = -v
		}
		in = append(in, uint64(math.Float32bits(v)))
	}
	return in
}

// fp8Reversed returns a copy of xs in reverse order, the second operand column of the
// two-source forms, so that every input appears in both operand positions.
func fp8Reversed(xs []uint64) []uint64 {
	r := slices.Clone(xs)
	slices.Reverse(r)
	return r
}

// fp8RegType is the conformance register type of a packed pair of format f.
func fp8RegType(f *fp8Fmt) string {
	if f.field == 4 {
		return "b8"
	}
	return "b16"
}

// TestFp8FromF32 checks cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32
// d, a, b: a goes to the upper field, b to the lower one.
func TestFp8FromF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, f := range fp8Fmts {
		a := fp8F32Inputs(f, rng)
		b := fp8Reversed(a)
		rt := fp8RegType(f)
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("cvt.rn.satfinite.%[1]s.f32 %%d0, %%a0, %%a1;\ncvt.rn.satfinite.relu.%[1]s.f32 %%d1, %%a0, %%a1;", f.name),
			In:   []string{"f32", "f32"}, Out: []string{rt, rt},
		}, a, b)
		for k, relu := range []bool{false, true} {
			for i := range a {
				x, y := float64(math.Float32frombits(uint32(a[i]))), float64(math.Float32frombits(uint32(b[i])))
				want := f.round(x, relu)<<f.field | f.round(y, relu)
				require.Equal(t, want, outs[k][i], "cvt.rn.satfinite relu=%v .%s.f32 %#x, %#x", relu, f.name, a[i], b[i])
			}
		}
	}
}

// TestFp8FromHalfPair checks cvt.rn.satfinite{.relu}.{narrow}.{f16x2,bf16x2} d, a on every
// 16-bit value in both halves: the upper half of a goes to the upper field.
func TestFp8FromHalfPair(t *testing.T) {
	a := make([]uint64, 1<<16)
	for i := range a {
		a[i] = uint64(i) | uint64(0xffff-i)<<16
	}
	value := map[string]func(uint64) float64{
		"f16": func(h uint64) float64 {
			return float64(math.Float32frombits(uint32(fp8HalfToF32(h))))
		},
		"bf16": func(h uint64) float64 { return float64(math.Float32frombits(uint32(h) << 16)) },
	}
	for _, src := range []string{"f16", "bf16"} {
		for _, f := range fp8Fmts {
			rt := fp8RegType(f)
			outs := harness.ConfRun(t, harness.ConfOp{
				Body: fmt.Sprintf("cvt.rn.satfinite.%[1]s.%[2]sx2 %%d0, %%a0;\ncvt.rn.satfinite.relu.%[1]s.%[2]sx2 %%d1, %%a0;", f.name, src),
				In:   []string{"b32"}, Out: []string{rt, rt},
			}, a)
			for k, relu := range []bool{false, true} {
				for i, x := range a {
					want := f.round(value[src](x>>16), relu)<<f.field | f.round(value[src](x&0xffff), relu)
					require.Equal(t, want, outs[k][i], "cvt.rn.satfinite relu=%v .%s.%sx2 %#x", relu, f.name, src, x)
				}
			}
		}
	}
}

// fp8HalfToF32 widens f16 bits to f32 bits from the fields (NaN to a quiet NaN).
func fp8HalfToF32(h uint64) uint64 {
	s := float64(1)
	if h&0x8000 != 0 {
		s = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	var v float64
	switch {
	case e == 0x1f && m != 0:
		return 0x7fc00000
	case e == 0x1f:
		v = math.Inf(1)
	case e == 0:
		v = m * 0x1p-24
	default:
		v = (1 + m/1024) * math.Pow(2, float64(e-15))
	}
	return uint64(math.Float32bits(float32(s * v)))
}

// TestFp8ToF16x2 checks cvt.rn{.relu}.f16x2.{narrow} d, a on every input of the source width
// (all 65536 pairs of 8-bit fields, all 256 pairs of .e2m1): exact, NaN to 0x7fff, the upper
// field to the upper half.
func TestFp8ToF16x2(t *testing.T) {
	for _, f := range fp8Fmts {
		n := 1 << (2 * f.field)
		a := make([]uint64, n)
		for i := range a {
			a[i] = uint64(i)
		}
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("cvt.rn.f16x2.%[1]s %%d0, %%a0;\ncvt.rn.relu.f16x2.%[1]s %%d1, %%a0;", f.name),
			In:   []string{fp8RegType(f)}, Out: []string{"b32", "b32"},
		}, a)
		mask := uint64(1)<<(f.exp+f.frac+1) - 1
		for k, relu := range []bool{false, true} {
			conv := func(c uint64) uint64 {
				v := f.decode(c & mask)
				if relu && !math.IsNaN(v) && math.Signbit(v) {
					v = 0
				}
				return fp8F16Bits(v)
			}
			for i, x := range a {
				want := conv(x>>f.field)<<16 | conv(x&(1<<f.field-1))
				require.Equal(t, want, outs[k][i], "cvt.rn relu=%v .f16x2.%s %#x", relu, f.name, x)
			}
		}
	}
}

// fp8UE8M0 is the reference of cvt.{rz,rp}{.satfinite}.ue8m0x2 for one element: the
// magnitude is rounded to a power of two 2^(c-127), c in 0..254, by searching the list of
// them; NaN and unsaturated overflow give 0xff.
func fp8UE8M0(x float64, up, sf bool) uint64 {
	if math.IsNaN(x) {
		return 0xff
	}
	a := math.Abs(x)
	for c := 254; c >= 0; c-- {
		p := math.Pow(2, float64(c-127))
		switch {
		case !up && p <= a:
			if c == 254 && math.IsInf(a, 1) && !sf {
				return 0xff
			}
			return uint64(c)
		case up && p < a:
			if c == 254 {
				if sf {
					return 0xfe
				}
				return 0xff
			}
			return uint64(c + 1)
		}
	}
	return 0
}

// TestFp8UE8M0 checks cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b on edge values, every
// power of two and its f32 neighbours and 20000 random inputs; the same on .bf16x2 sources
// for all 65536 bf16 values in both halves; and cvt.rn.bf16x2.ue8m0x2 on all 65536 inputs.
func TestFp8UE8M0(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	a := []uint64{0, 0x80000000, 1, 0x80000001, 0x00400000, 0x00400001, 0x003fffff, 0x7f7fffff, 0xff7fffff,
		0x7f000000, 0x7f000001, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001}
	for e := -149; e <= 127; e++ {
		p := float32(math.Ldexp(1, e))
		for _, v := range []float32{p, -p, math.Nextafter32(p, 0), math.Nextafter32(p, float32(math.Inf(1)))} {
			a = append(a, uint64(math.Float32bits(v)))
		}
	}
	for range 20000 {
		a = append(a, uint64(rng.Uint32()))
	}
	b := fp8Reversed(a)
	forms := []struct {
		mods    string
		up, sat bool
	}{{".rz", false, false}, {".rp", true, false}, {".rz.satfinite", false, true}, {".rp.satfinite", true, true}}
	body := ""
	outT := []string{}
	for k, fm := range forms {
		body += fmt.Sprintf("cvt%s.ue8m0x2.f32 %%d%d, %%a0, %%a1;\n", fm.mods, k)
		outT = append(outT, "b16")
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{"f32", "f32"}, Out: outT}, a, b)
	f32v := func(x uint64) float64 { return float64(math.Float32frombits(uint32(x))) }
	for k, fm := range forms {
		for i := range a {
			want := fp8UE8M0(f32v(a[i]), fm.up, fm.sat)<<8 | fp8UE8M0(f32v(b[i]), fm.up, fm.sat)
			require.Equal(t, want, outs[k][i], "cvt%s.ue8m0x2.f32 %#x, %#x", fm.mods, a[i], b[i])
		}
	}

	all := make([]uint64, 1<<16)
	for i := range all {
		all[i] = uint64(i) | uint64(0xffff-i)<<16
	}
	body = ""
	for k, fm := range forms {
		body += fmt.Sprintf("cvt%s.ue8m0x2.bf16x2 %%d%d, %%a0;\n", fm.mods, k)
	}
	outs = harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{"b32"}, Out: outT}, all)
	bf := func(h uint64) float64 { return f32v(h << 16) }
	for k, fm := range forms {
		for i, x := range all {
			want := fp8UE8M0(bf(x>>16), fm.up, fm.sat)<<8 | fp8UE8M0(bf(x&0xffff), fm.up, fm.sat)
			require.Equal(t, want, outs[k][i], "cvt%s.ue8m0x2.bf16x2 %#x", fm.mods, x)
		}
	}

	for i := range all {
		all[i] = uint64(i)
	}
	out := harness.ConfRun(t, harness.ConfOp{Body: "cvt.rn.bf16x2.ue8m0x2 %d0, %a0;", In: []string{"b16"}, Out: []string{"b32"}}, all)[0]
	toBF16 := func(c uint64) uint64 {
		if c == 0xff {
			return 0x7fff
		}
		return uint64(math.Float32bits(float32(math.Pow(2, float64(c)-127))) >> 16)
	}
	for i, x := range all {
		require.Equal(t, toBF16(x>>8)<<16|toBF16(x&0xff), out[i], "cvt.rn.bf16x2.ue8m0x2 %#x", x)
	}
}

// fp8PackedRef is the reference of min, max (with relu) and add on packed fields of w bits.
func fp8PackedRef(op string, x, y uint64, w int, signed, relu bool) uint64 {
	var d uint64
	for sh := 0; sh < 32; sh += w {
		a, b := int64(x>>sh&(1<<w-1)), int64(y>>sh&(1<<w-1))
		if signed {
			a, b = a<<(64-w)>>(64-w), b<<(64-w)>>(64-w)
		}
		var r int64
		switch op {
		case "min":
			r = min(a, b)
		case "max":
			r = max(a, b)
		default:
			r = a + b
		}
		if relu && r < 0 {
			r = 0
		}
		d |= uint64(r) & (1<<w - 1) << sh
	}
	return d
}

// TestFp8PackedInt checks min and max on .u16x2, .s16x2 (with .relu), .u8x4 and .s8x4 (with
// .relu), and add on .u16x2 and .s16x2: every 16-bit value in the low half of a against 8 second operands (edge halves and
// random ones), with random upper halves.
func TestFp8PackedInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	edges := []uint64{0, 1, 0x7fff, 0x8000, 0xffff, 0x80, 0x7f7f}
	var a, b []uint64
	for k := range 8 {
		for i := range uint64(1 << 16) {
			lo := edges[k%len(edges)]
			if k == len(edges) {
				lo = uint64(rng.Uint32() & 0xffff)
			}
			a = append(a, i|uint64(rng.Uint32())&0xffff0000)
			b = append(b, lo|uint64(rng.Uint32())&0xffff0000)
		}
	}
	type form struct {
		op, typ      string
		w            int
		signed, relu bool
	}
	var forms []form
	for _, op := range []string{"min", "max"} {
		for _, tw := range []struct {
			t string
			w int
		}{{"u16x2", 16}, {"s16x2", 16}, {"u8x4", 8}, {"s8x4", 8}} {
			signed := tw.t[0] == 's'
			forms = append(forms, form{op, tw.t, tw.w, signed, false})
			if signed {
				forms = append(forms, form{op + ".relu", tw.t, tw.w, signed, true})
			}
		}
	}
	forms = append(forms, form{"add", "u16x2", 16, false, false}, form{"add", "s16x2", 16, true, false})
	body := ""
	var outT []string
	for k, fm := range forms {
		body += fmt.Sprintf("%s.%s %%d%d, %%a0, %%a1;\n", fm.op, fm.typ, k)
		outT = append(outT, "b32")
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{"b32", "b32"}, Out: outT}, a, b)
	for k, fm := range forms {
		for i := range a {
			want := fp8PackedRef(fm.op[:3], a[i], b[i], fm.w, fm.signed, fm.relu)
			require.Equal(t, want, outs[k][i], "%s.%s %#x, %#x", fm.op, fm.typ, a[i], b[i])
		}
	}
}

// TestFp8Rejected checks that the forms the ISA does not define on these types, and the ones
// not implemented, are compile errors at their position.
func TestFp8Rejected(t *testing.T) {
	for _, c := range []struct{ body, in, out string }{
		{"cvt.rn.e4m3x2.f32 %d0, %a0, %a0;", "f32", "b16"},                            // .satfinite is mandatory
		{"cvt.rz.satfinite.e4m3x2.f32 %d0, %a0, %a0;", "f32", "b16"},                  // only .rn
		{"cvt.rn.satfinite.e5m2x2.f32 %d0, %a0;", "f32", "b16"},                       // two sources
		{"cvt.rn.satfinite.e4m3x2.f64 %d0, %a0, %a0;", "f64", "b16"},                  // no f64 source
		{"cvt.rn.satfinite.ftz.e4m3x2.f32 %d0, %a0, %a0;", "f32", "b16"},              // no .ftz
		{"cvt.rn.satfinite.f16x2.e4m3x2 %d0, %a0;", "b16", "b32"},                     // no .satfinite up
		{"cvt.rz.f16x2.e5m2x2 %d0, %a0;", "b16", "b32"},                               // only .rn
		{"cvt.rn.bf16x2.e4m3x2 %d0, %a0;", "b16", "b32"},                              // only to f16x2
		{"cvt.rn.f32.e4m3x2 %d0, %a0;", "b16", "f32"},                                 // only to f16x2
		{"cvt.rn.satfinite.e4m3x2.e5m2x2 %d0, %a0;", "b16", "b16"},                    // narrow to narrow
		{"cvt.rn.satfinite.e2m1x2.f16 %d0, %a0;", "b16", "b8"},                        // scalar half source
		{"cvt.rn.satfinite.e4m3.f32 %d0, %a0;", "f32", "b8"},                          // scalar fp8
		{"cvt.rn.satfinite.ue8m0x2.f32 %d0, %a0, %a0;", "f32", "b16"},                 // .rz or .rp
		{"cvt.rz.relu.ue8m0x2.f32 %d0, %a0, %a0;", "f32", "b16"},                      // no .relu
		{"cvt.rz.ue8m0x2.f16x2 %d0, %a0;", "b32", "b16"},                              // bf16x2 only
		{"cvt.rz.bf16x2.ue8m0x2 %d0, %a0;", "b16", "b32"},                             // only .rn
		{"cvt.rn.f16x2.ue8m0x2 %d0, %a0;", "b16", "b32"},                              // only to bf16x2
		{"cvt.rn.satfinite.relu.bf16x2.ue8m0x2 %d0, %a0;", "b16", "b32"},              // no modifiers
		{"min.relu.u16x2 %d0, %a0, %a0;", "b32", "b32"},                               // .relu on signed only
		{"max.relu.u8x4 %d0, %a0, %a0;", "b32", "b32"},                                // .relu on signed only
		{"sub.u16x2 %d0, %a0, %a0;", "b32", "b32"},                                    // min, max and add only
		{"add.u8x4 %d0, %a0, %a0;", "b32", "b32"},                                     // min and max only
		{"add.sat.s16x2 %d0, %a0, %a0;", "b32", "b32"},                                // no .sat
		{"setp.lt.s16x2 %d0, %a0, %a0;", "b32", "pred"},                               // min/max only
		{"min.sat.s16x2 %d0, %a0, %a0;", "b32", "b32"},                                // no .sat
		{"rcp.approx.f64 %d0, %a0;", "f64", "f64"},                                    // only .ftz is defined
		{"ex2.approx.bf16 %d0, %a0;", "b16", "b16"},                                   // .ftz is mandatory
		{"ex2.approx.ftz.f16 %d0, %a0;", "b16", "b16"},                                // no .ftz on f16
		{"ex2.f16 %d0, %a0;", "b16", "b16"},                                           // .approx is mandatory
		{"tanh.approx.ftz.bf16 %d0, %a0;", "b16", "b16"},                              // no .ftz
		{"cvt.rs.satfinite.f16x2.f32 %d0, %a0, %a0, %a0;", "f32", "b32"},              // stochastic rounding
		{"cvt.rn.satfinite.s2f6x2.f32 %d0, %a0, %a0;", "f32", "b16"},                  // not a known type
		{"cvt.rs.satfinite.e4m3x4.f32 %d0, {%a0, %a0, %a0, %a0}, %a0;", "f32", "b32"}, // x4 forms
	} {
		src := harness.ConfKernel(harness.ConfOp{Body: c.body, In: []string{c.in}, Out: []string{c.out}})
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "conf.ptx"})
		require.Error(t, err, c.body)
		require.Regexp(t, `conf\.ptx:\d+:\d+: (unsupported instruction|cvt takes|unknown modifier)`, err.Error(), c.body)
	}
}

// TestFp8CvtPackNarrow checks cvt.pack.sat.{u4,s4,u2,s2}.s32.b32 d, a, b, c: a and b clamped
// to the n-bit range, b in bits 0..n-1, a in bits n..2n-1, and c's low bits above them.
func TestFp8CvtPackNarrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 4))
	edges := []uint64{0, 1, 2, 3, 7, 8, 15, 16, 0xffffffff, 0xfffffffe, 0xfffffffd, 0xfffffff8, 0xfffffff7, 0x7fffffff, 0x80000000}
	var a, b, c []uint64
	for _, x := range edges {
		for _, y := range edges {
			a, b, c = append(a, x), append(b, y), append(c, uint64(rng.Uint32()))
		}
	}
	for range 10000 {
		// Small values most of the time, so that the clamps are not always taken.
		v := func() uint64 {
			if rng.IntN(2) == 0 {
				return uint64(uint32(rng.Int32N(40) - 20))
			}
			return uint64(rng.Uint32())
		}
		a, b, c = append(a, v()), append(b, v()), append(c, uint64(rng.Uint32()))
	}
	types := []struct {
		name   string
		n      int
		signed bool
	}{{"u4", 4, false}, {"s4", 4, true}, {"u2", 2, false}, {"s2", 2, true}}
	body := ""
	var outT []string
	for k, ty := range types {
		body += fmt.Sprintf("cvt.pack.sat.%s.s32.b32 %%d%d, %%a0, %%a1, %%a2;\n", ty.name, k)
		outT = append(outT, "b32")
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{"s32", "s32", "b32"}, Out: outT}, a, b, c)
	for k, ty := range types {
		lo, hi := int64(0), int64(1)<<ty.n-1
		if ty.signed {
			lo, hi = -(int64(1) << (ty.n - 1)), int64(1)<<(ty.n-1)-1
		}
		field := func(x uint64) uint64 { return uint64(min(max(int64(int32(x)), lo), hi)) & (1<<ty.n - 1) }
		for i := range a {
			want := (c[i]<<(2*ty.n) | field(a[i])<<ty.n | field(b[i])) & 0xffffffff
			require.Equal(t, want, outs[k][i], "cvt.pack.sat.%s.s32.b32 %#x, %#x, %#x", ty.name, a[i], b[i], c[i])
		}
	}
}

// TestFp8HalfApprox checks ex2.approx.{f16,f16x2}, ex2.approx.ftz.{bf16,bf16x2} and
// tanh.approx on the four 16-bit float types on every 16-bit input (both halves of the
// packed forms): the result must be the correctly rounded value (computed in float64 and
// rounded by the table search of conf_half_test), NaN giving 0x7fff, and for .ftz
// subnormal operands and results flushed to zero of the same sign.
func TestFp8HalfApprox(t *testing.T) {
	all := make([]uint64, 1<<16)
	for i := range all {
		all[i] = uint64(i) | uint64(0xffff-i)<<16
	}
	ftzBF := func(h uint64) uint64 {
		if h&0x7f80 == 0 {
			return h & 0x8000
		}
		return h
	}
	forms := []struct {
		body string
		f    *confHalfFmt
		fn   func(float64) float64
		ftz  bool
	}{
		{"ex2.approx.f16", confHalfF16, math.Exp2, false},
		{"ex2.approx.ftz.bf16", confHalfBF16, math.Exp2, true},
		{"tanh.approx.f16", confHalfF16, math.Tanh, false},
		{"tanh.approx.bf16", confHalfBF16, math.Tanh, false},
	}
	for _, fm := range forms {
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("%[1]s %%d0, %%a0;\n%[1]sx2 %%d1, %%a1;", fm.body),
			In:   []string{"b16", "b32"}, Out: []string{"b16", "b32"},
		}, all, all)
		ref := func(h uint64) uint64 {
			if fm.ftz {
				h = ftzBF(h)
			}
			r := fm.fn(fm.f.decode(h))
			if math.IsNaN(r) {
				return 0x7fff
			}
			out := fm.f.round(r, 0, confHalfRN, 0x7fff)
			if fm.ftz {
				out = ftzBF(out)
			}
			return out
		}
		for i, x := range all {
			require.Equal(t, ref(x&0xffff), outs[0][i], "%s %#x", fm.body, x&0xffff)
			require.Equal(t, ref(x>>16)<<16|ref(x&0xffff), outs[1][i], "%sx2 %#x", fm.body, x)
		}
	}
}
