package float_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// Conformance tests of the half-precision forms (.f16, .bf16, .f16x2, .bf16x2, .tf32 and
// cvt.pack). The reference here is independent of runtime/isa: a value is decoded with
// math.Ldexp, the exact result of an operation is held as a float64 plus the exact error of
// its rounding (TwoSum), and rounding to a 16-bit format searches the sorted table of all
// finite values of the format for the neighbours of the exact value.

// confHalfFmt is a binary format under test: precision (hidden bit included) and exponent
// width.
type confHalfFmt struct {
	name          string
	prec, expBits int
	table         []float64 // the non-negative finite values, in encoding order
	values        []float64 // the value of every encoding (16-bit formats only)
}

var (
	confHalfF16  = confHalfNewFmt("f16", 11, 5)
	confHalfBF16 = confHalfNewFmt("bf16", 8, 8)
	confHalfTF32 = confHalfNewFmt("tf32", 11, 8)
)

func confHalfNewFmt(name string, prec, expBits int) *confHalfFmt {
	f := &confHalfFmt{name: name, prec: prec, expBits: expBits}
	for h := uint64(0); h <= f.maxFinite(); h++ {
		f.table = append(f.table, f.decodeSlow(h))
	}
	if prec+expBits == 16 {
		for h := range uint64(1 << 16) {
			f.values = append(f.values, f.decodeSlow(h))
		}
	}
	return f
}

func (f *confHalfFmt) bias() int           { return 1<<(f.expBits-1) - 1 }
func (f *confHalfFmt) signBit() uint64     { return 1 << (f.prec - 1 + f.expBits) }
func (f *confHalfFmt) infBits() uint64     { return (1<<f.expBits - 1) << (f.prec - 1) }
func (f *confHalfFmt) maxFinite() uint64   { return f.infBits() - 1 }
func (f *confHalfFmt) isNaN(h uint64) bool { return h&^f.signBit() > f.infBits() }

// decode is the exact value of encoding h (NaN for NaNs).
func (f *confHalfFmt) decode(h uint64) float64 {
	if f.values != nil {
		return f.values[h]
	}
	return f.decodeSlow(h)
}

// decodeSlow computes the value of h from its fields.
func (f *confHalfFmt) decodeSlow(h uint64) float64 {
	frac := int64(h & (1<<(f.prec-1) - 1))
	exp := int(h>>(f.prec-1)) & (1<<f.expBits - 1)
	var v float64
	switch {
	case exp == 1<<f.expBits-1 && frac != 0:
		return math.NaN()
	case exp == 1<<f.expBits-1:
		v = math.Inf(1)
	case exp == 0:
		v = math.Ldexp(float64(frac), 2-f.bias()-f.prec)
	default:
		v = math.Ldexp(float64(frac+1<<(f.prec-1)), exp-f.bias()-f.prec+1)
	}
	if h&f.signBit() != 0 {
		v = -v
	}
	return v
}

// Rounding modes of the reference.
const (
	confHalfRN = iota
	confHalfRZ
	confHalfRM
	confHalfRP
	confHalfRNA
)

var confHalfModeNames = []string{"rn", "rz", "rm", "rp", "rna"}

// round returns the encoding of the exact value s+err rounded in mode (err is the exact error
// of s, at most half an ulp of s in float64). NaN gives nan.
func (f *confHalfFmt) round(s, err float64, mode int, nan uint64) uint64 {
	switch {
	case s != s:
		return nan
	case math.IsInf(s, 0):
		if s < 0 {
			return f.signBit() | f.infBits()
		}
		return f.infBits()
	case s == 0 && err == 0:
		if math.Signbit(s) {
			return f.signBit()
		}
		return 0
	}
	neg := s < 0 || s == 0 && err < 0
	if neg {
		s, err = -s, -err
		switch mode {
		case confHalfRM:
			mode = confHalfRP
		case confHalfRP:
			mode = confHalfRM
		}
	}
	var sign uint64
	if neg {
		sign = f.signBit()
	}
	// The table, extended with one virtual value past the largest finite one that stands for
	// infinity: 2^(emax+1).
	n := len(f.table)
	val := func(i int) float64 {
		if i == n {
			return math.Ldexp(1, f.bias()+1)
		}
		return f.table[i]
	}
	enc := func(i int) uint64 {
		if i == n {
			return sign | f.infBits()
		}
		return sign | uint64(i)
	}
	// lo and hi are the neighbours: val(lo) <= x <= val(hi).
	i := sort.SearchFloat64s(f.table, s)
	var lo, hi int
	switch {
	case i == n:
		lo, hi = n-1, n
	case f.table[i] == s && err == 0:
		return enc(i)
	case f.table[i] == s && err > 0:
		lo, hi = i, i+1
	default:
		lo, hi = i-1, i
	}
	switch mode {
	case confHalfRZ, confHalfRM:
		return enc(lo)
	case confHalfRP:
		return enc(hi)
	}
	mid := (val(lo) + val(hi)) / 2
	switch {
	case s < mid || s == mid && err < 0:
		return enc(lo)
	case s > mid || s == mid && err > 0:
		return enc(hi)
	case mode == confHalfRNA || lo%2 == 1:
		return enc(hi)
	}
	return enc(lo)
}

// confHalfTwoSum returns the float64 sum of x and y and its exact error.
func confHalfTwoSum(x, y float64) (float64, float64) {
	s := x + y
	if math.IsInf(s, 0) || s != s {
		return s, 0
	}
	bb := s - x
	return s, (x - (s - bb)) + (y - bb)
}

// confHalfEdges are 16-bit patterns worth testing in both formats: zeros, the smallest and
// largest subnormals and normals, ones, infinities, NaNs with payloads, and values around
// the formats' rounding boundaries.
func confHalfEdges() []uint64 {
	var out []uint64
	for _, h := range []uint64{
		0x0000, 0x0001, 0x0002, 0x0003, 0x00ff, 0x03ff, 0x0400, 0x0401, 0x3c00, 0x3c01, 0x3bff, 0x3800,
		0x7bff, 0x7bfe, 0x7c00, 0x7c01, 0x7e00, 0x7fff, 0x7d55, 0x007f, 0x0080, 0x0081, 0x3f80, 0x3f81,
		0x3f7f, 0x7f7f, 0x7f7e, 0x7f80, 0x7f81, 0x7fc0, 0x7fa5, 0x4000, 0x4200, 0x5640, 0x6400, 0x1400,
	} {
		out = append(out, h, h|0x8000)
	}
	return out
}

// confHalfSample returns n 16-bit patterns: a core of values every operation must meet
// (zeros, ones, infinities, a NaN and the smallest subnormal, in both formats), then the edge
// patterns in random order, then random patterns.
func confHalfSample(r *rand.Rand, n int) []uint64 {
	out := []uint64{0x0000, 0x8000, 0x7fff, 0x7c00, 0xff80, 0x3c00, 0xbf80, 0x0001}
	edges := confHalfEdges()
	r.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	out = append(out, edges[:min(len(edges), max(0, n/2-len(out)))]...)
	for len(out) < n {
		out = append(out, uint64(r.Uint32()&0xffff))
	}
	return out[:n]
}

// confHalfAll16 is every 16-bit pattern.
func confHalfAll16() []uint64 {
	out := make([]uint64, 1<<16)
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

// confHalfFtz flushes a subnormal f16 to a zero of its sign.
func confHalfFtz(h uint64) uint64 {
	if h&0x7c00 == 0 {
		return h & 0x8000
	}
	return h
}

// confHalfCheck compares got with want row by row (in two goroutines, the reference being
// the slow part) and fails with the first few mismatches.
func confHalfCheck(t *testing.T, what string, got []uint64, want func(i int) uint64, row func(i int) string) {
	t.Helper()
	const parts = 2
	var bad [parts][]string
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			for i := p * len(got) / parts; i < (p+1)*len(got)/parts && len(bad[p]) < 8; i++ {
				if w := want(i); got[i] != w {
					bad[p] = append(bad[p], fmt.Sprintf("%s: got %#x, want %#x", row(i), got[i], w))
				}
			}
		})
	}
	wg.Wait()
	require.Empty(t, append(bad[0], bad[1]...), "%s: mismatches", what)
}

// confHalfBinRef is the reference result of a binary operation on the decoded values, as
// the rounded sum s and its exact error.
type confHalfBinRef func(x, y float64) (float64, float64)

var confHalfBinOps = map[string]confHalfBinRef{
	"add": confHalfTwoSum,
	"sub": func(x, y float64) (float64, float64) { return confHalfTwoSum(x, -y) },
	"mul": func(x, y float64) (float64, float64) { return x * y, 0 }, // exact for 16-bit inputs
}

// TestConfHalfArith runs add, sub and mul (.rn) on .f16/.bf16 over every value of a crossed
// with a sample of b, and on .f16x2/.bf16x2 with different values in the two halves.
func TestConfHalfArith(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	all := confHalfAll16()
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for _, op := range []string{"add", "sub", "mul"} {
			ref := confHalfBinOps[op]
			want1 := func(x, y uint64) uint64 {
				s, e := ref(f.decode(x), f.decode(y))
				return f.round(s, e, confHalfRN, 0x7fff)
			}
			// Scalar: all a crossed with 24 b values (edges first).
			bs := confHalfSample(r, 16)
			var a, b []uint64
			for _, y := range bs {
				a = append(a, all...)
				for range all {
					b = append(b, y)
				}
			}
			rnd := ".rn"
			if op == "mul" {
				rnd = "" // the default rounding is .rn
			}
			outs := harness.ConfRun(t, harness.ConfOp{Body: fmt.Sprintf("%s%s.%s %%d0, %%a0, %%a1;", op, rnd, f.name), In: []string{f.name, f.name}, Out: []string{f.name}}, a, b)
			confHalfCheck(t, op+"."+f.name, outs[0], func(i int) uint64 { return want1(a[i], b[i]) },
				func(i int) string { return fmt.Sprintf("%#04x %s %#04x", a[i], op, b[i]) })
			// Packed: the low half crosses all a with a sample, the high half runs the same
			// a values in another order against another sample.
			bs = confHalfSample(r, 2*32)
			a, b = a[:0], b[:0]
			for k := range 32 {
				for i, x := range all {
					hi := all[(i*7919+k*31)&0xffff]
					a = append(a, x|hi<<16)
					b = append(b, bs[k]|bs[len(bs)-1-k]<<16)
				}
			}
			outs = harness.ConfRun(t, harness.ConfOp{Body: fmt.Sprintf("%s.rn.%sx2 %%d0, %%a0, %%a1;", op, f.name), In: []string{f.name + "x2", f.name + "x2"}, Out: []string{f.name + "x2"}}, a, b)
			confHalfCheck(t, op+"."+f.name+"x2", outs[0], func(i int) uint64 {
				return want1(a[i]&0xffff, b[i]&0xffff) | want1(a[i]>>16, b[i]>>16)<<16
			}, func(i int) string { return fmt.Sprintf("%#08x %s %#08x", a[i], op, b[i]) })
		}
	}
}

// TestConfHalfArithMods covers .ftz and .sat on the .f16 forms of add, sub and mul.
func TestConfHalfArithMods(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	f := confHalfF16
	all := confHalfAll16()
	bs := confHalfSample(r, 16)
	var a, b []uint64
	for _, y := range bs {
		a = append(a, all...)
		for range all {
			b = append(b, y)
		}
	}
	sat := func(h uint64) uint64 {
		switch v := f.decode(h); {
		case v != v || v <= 0:
			return 0
		case v > 1:
			return 0x3c00
		}
		return h
	}
	for _, op := range []string{"add", "sub", "mul"} {
		ref := confHalfBinOps[op]
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("%[1]s.rn.ftz.f16 %%d0, %%a0, %%a1;\n%[1]s.rn.sat.f16 %%d1, %%a0, %%a1;\n%[1]s.ftz.sat.f16 %%d2, %%a0, %%a1;\n%[1]s.ftz.f16x2 %%d3, %%a2, %%a3;", op),
			In:   []string{"f16", "f16", "f16x2", "f16x2"}, Out: []string{"f16", "f16", "f16", "f16x2"},
		}, a, b, confHalfPairs(a, b), confHalfPairs(b, a))
		plain := func(x, y uint64) uint64 {
			s, e := ref(f.decode(x), f.decode(y))
			return f.round(s, e, confHalfRN, 0x7fff)
		}
		ftz := func(x, y uint64) uint64 { return confHalfFtz(plain(confHalfFtz(x), confHalfFtz(y))) }
		row := func(i int) string { return fmt.Sprintf("%#04x %s %#04x", a[i], op, b[i]) }
		confHalfCheck(t, op+".ftz", outs[0], func(i int) uint64 { return ftz(a[i], b[i]) }, row)
		confHalfCheck(t, op+".sat", outs[1], func(i int) uint64 { return sat(plain(a[i], b[i])) }, row)
		confHalfCheck(t, op+".ftz.sat", outs[2], func(i int) uint64 { return sat(ftz(a[i], b[i])) }, row)
		confHalfCheck(t, op+".ftz.f16x2", outs[3], func(i int) uint64 { return ftz(a[i], b[i]) | ftz(b[i], a[i])<<16 }, row)
	}
}

// confHalfPairs packs x (low) and y (high) row by row.
func confHalfPairs(x, y []uint64) []uint64 {
	out := make([]uint64, len(x))
	for i := range x {
		out[i] = x[i] | y[i]<<16
	}
	return out
}

// TestConfHalfFma runs fma.rn with .ftz, .sat and .relu over every value of a crossed with
// sampled (b, c) pairs.
func TestConfHalfFma(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	all := confHalfAll16()
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		bs, cs := confHalfSample(r, 20), confHalfSample(r, 20)
		r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		var a, b, c []uint64
		for k := range bs {
			a = append(a, all...)
			for range all {
				b = append(b, bs[k])
				c = append(c, cs[k])
			}
		}
		fma := func(x, y, z uint64) uint64 {
			p := f.decode(x) * f.decode(y) // exact
			s, e := confHalfTwoSum(p, f.decode(z))
			return f.round(s, e, confHalfRN, 0x7fff)
		}
		relu := func(h uint64) uint64 {
			switch {
			case f.isNaN(h):
				return 0x7fff
			case h&0x8000 != 0:
				return 0
			}
			return h
		}
		body := fmt.Sprintf("fma.rn.%[1]s %%d0, %%a0, %%a1, %%a2;\nfma.rn.relu.%[1]s %%d1, %%a0, %%a1, %%a2;\nfma.rn.%[1]sx2 %%d2, %%a3, %%a4, %%a5;\nfma.rn.relu.%[1]sx2 %%d3, %%a3, %%a4, %%a5;", f.name)
		outT := []string{f.name, f.name, f.name + "x2", f.name + "x2"}
		if f == confHalfF16 {
			body += "\nfma.rn.ftz.f16 %d4, %a0, %a1, %a2;\nfma.rn.sat.f16 %d5, %a0, %a1, %a2;\nfma.rn.ftz.relu.f16 %d6, %a0, %a1, %a2;\nfma.rn.ftz.sat.f16x2 %d7, %a3, %a4, %a5;"
			outT = append(outT, "f16", "f16", "f16", "f16x2")
		}
		x2 := f.name + "x2"
		// The packed lanes: the high half permutes the operands so it differs from the low.
		outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{f.name, f.name, f.name, x2, x2, x2}, Out: outT},
			a, b, c, confHalfPairs(a, c), confHalfPairs(b, a), confHalfPairs(c, b))
		row := func(i int) string { return fmt.Sprintf("fma(%#04x, %#04x, %#04x)", a[i], b[i], c[i]) }
		confHalfCheck(t, "fma."+f.name, outs[0], func(i int) uint64 { return fma(a[i], b[i], c[i]) }, row)
		confHalfCheck(t, "fma.relu."+f.name, outs[1], func(i int) uint64 { return relu(fma(a[i], b[i], c[i])) }, row)
		confHalfCheck(t, "fma."+x2, outs[2], func(i int) uint64 { return fma(a[i], b[i], c[i]) | fma(c[i], a[i], b[i])<<16 }, row)
		confHalfCheck(t, "fma.relu."+x2, outs[3], func(i int) uint64 {
			return relu(fma(a[i], b[i], c[i])) | relu(fma(c[i], a[i], b[i]))<<16
		}, row)
		if f != confHalfF16 {
			continue
		}
		ftz := func(x, y, z uint64) uint64 { return confHalfFtz(fma(confHalfFtz(x), confHalfFtz(y), confHalfFtz(z))) }
		sat := func(h uint64) uint64 {
			switch v := f.decode(h); {
			case v != v || v <= 0:
				return 0
			case v > 1:
				return 0x3c00
			}
			return h
		}
		confHalfCheck(t, "fma.ftz.f16", outs[4], func(i int) uint64 { return ftz(a[i], b[i], c[i]) }, row)
		confHalfCheck(t, "fma.sat.f16", outs[5], func(i int) uint64 { return sat(fma(a[i], b[i], c[i])) }, row)
		confHalfCheck(t, "fma.ftz.relu.f16", outs[6], func(i int) uint64 { return relu(ftz(a[i], b[i], c[i])) }, row)
		confHalfCheck(t, "fma.ftz.sat.f16x2", outs[7], func(i int) uint64 {
			return sat(ftz(a[i], b[i], c[i])) | sat(ftz(c[i], a[i], b[i]))<<16
		}, row)
	}
}

// TestConfHalfUnary runs neg and abs (and .ftz for .f16) on every value, scalar and packed.
func TestConfHalfUnary(t *testing.T) {
	all := confHalfAll16()
	rev := make([]uint64, len(all))
	for i := range all {
		rev[i] = all[len(all)-1-i]
	}
	packed := confHalfPairs(all, rev)
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		body := fmt.Sprintf("neg.%[1]s %%d0, %%a0;\nabs.%[1]s %%d1, %%a0;\nneg.%[1]sx2 %%d2, %%a1;\nabs.%[1]sx2 %%d3, %%a1;", f.name)
		outT := []string{f.name, f.name, f.name + "x2", f.name + "x2"}
		if f == confHalfF16 {
			body += "\nneg.ftz.f16 %d4, %a0;\nabs.ftz.f16x2 %d5, %a1;"
			outT = append(outT, "f16", "f16x2")
		}
		outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{f.name, f.name + "x2"}, Out: outT}, all, packed)
		row := func(i int) string { return fmt.Sprintf("%#04x", all[i]) }
		neg := func(h uint64) uint64 { return h ^ 0x8000 }
		abs := func(h uint64) uint64 { return h &^ 0x8000 }
		confHalfCheck(t, "neg."+f.name, outs[0], func(i int) uint64 { return neg(all[i]) }, row)
		confHalfCheck(t, "abs."+f.name, outs[1], func(i int) uint64 { return abs(all[i]) }, row)
		confHalfCheck(t, "neg.x2", outs[2], func(i int) uint64 { return neg(all[i]) | neg(rev[i])<<16 }, row)
		confHalfCheck(t, "abs.x2", outs[3], func(i int) uint64 { return abs(all[i]) | abs(rev[i])<<16 }, row)
		if f == confHalfF16 {
			confHalfCheck(t, "neg.ftz", outs[4], func(i int) uint64 { return neg(confHalfFtz(all[i])) }, row)
			confHalfCheck(t, "abs.ftz.x2", outs[5], func(i int) uint64 {
				return abs(confHalfFtz(all[i])) | abs(confHalfFtz(rev[i]))<<16
			}, row)
		}
	}
}

// confHalfMinMax is the reference min/max: NaN operands give the other operand (.NaN: the
// canonical NaN), -0 < +0, and .xorsign.abs compares magnitudes and sets the XOR of the signs.
func confHalfMinMax(f *confHalfFmt, x, y uint64, isMax, nan, xorsign bool) uint64 {
	sign := (x ^ y) & 0x8000
	if xorsign {
		x, y = x&0x7fff, y&0x7fff
	}
	xn, yn := f.isNaN(x), f.isNaN(y)
	var d uint64
	switch {
	case xn && yn || nan && (xn || yn):
		return 0x7fff
	case xn:
		d = y
	case yn:
		d = x
	default:
		// Order the values with -0 below +0 by comparing (value, sign) pairs.
		vx, vy := f.decode(x), f.decode(y)
		less := vx < vy || vx == vy && x&0x8000 != 0 && y&0x8000 == 0
		greater := vy < vx || vx == vy && y&0x8000 != 0 && x&0x8000 == 0
		switch {
		case !isMax && less, isMax && greater:
			d = x
		case !isMax && greater, isMax && less:
			d = y
		default:
			d = x // equal encodings
		}
	}
	if xorsign {
		d = d&0x7fff | sign
	}
	return d
}

// TestConfHalfMinMax runs min and max with every modifier combination over every value of a
// crossed with a sample of b.
func TestConfHalfMinMax(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	all := confHalfAll16()
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		bs := confHalfSample(r, 12)
		var a, b []uint64
		for _, y := range bs {
			a = append(a, all...)
			for range all {
				b = append(b, y)
			}
		}
		x2 := f.name + "x2"
		pa, pb := confHalfPairs(a, b), confHalfPairs(b, a)
		type form struct {
			mods         string
			nan, xorsign bool
		}
		forms := []form{{"", false, false}, {".NaN", true, false}, {".xorsign.abs", false, true}, {".NaN.xorsign.abs", true, true}}
		for _, op := range []string{"min", "max"} {
			var body []string
			var outT []string
			for k, fm := range forms {
				body = append(body, fmt.Sprintf("%s%s.%s %%d%d, %%a0, %%a1;", op, fm.mods, f.name, 2*k),
					fmt.Sprintf("%s%s.%s %%d%d, %%a2, %%a3;", op, fm.mods, x2, 2*k+1))
				outT = append(outT, f.name, x2)
			}
			if f == confHalfF16 {
				body = append(body, fmt.Sprintf("%s.ftz.NaN.f16 %%d8, %%a0, %%a1;", op), fmt.Sprintf("%s.ftz.f16x2 %%d9, %%a2, %%a3;", op))
				outT = append(outT, "f16", "f16x2")
			}
			outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{f.name, f.name, x2, x2}, Out: outT}, a, b, pa, pb)
			isMax := op == "max"
			row := func(i int) string { return fmt.Sprintf("%s(%#04x, %#04x)", op, a[i], b[i]) }
			for k, fm := range forms {
				ref := func(x, y uint64) uint64 { return confHalfMinMax(f, x, y, isMax, fm.nan, fm.xorsign) }
				confHalfCheck(t, op+fm.mods+"."+f.name, outs[2*k], func(i int) uint64 { return ref(a[i], b[i]) }, row)
				confHalfCheck(t, op+fm.mods+"."+x2, outs[2*k+1], func(i int) uint64 { return ref(a[i], b[i]) | ref(b[i], a[i])<<16 }, row)
			}
			if f == confHalfF16 {
				confHalfCheck(t, op+".ftz.NaN", outs[8], func(i int) uint64 {
					return confHalfMinMax(f, confHalfFtz(a[i]), confHalfFtz(b[i]), isMax, true, false)
				}, row)
				confHalfCheck(t, op+".ftz.x2", outs[9], func(i int) uint64 {
					x, y := confHalfFtz(a[i]), confHalfFtz(b[i])
					return confHalfMinMax(f, x, y, isMax, false, false) | confHalfMinMax(f, y, x, isMax, false, false)<<16
				}, row)
			}
		}
	}
}

// TestConfHalfMovSelp moves .f16/.bf16/.f16x2 values through typed registers, selp, vector
// pack and unpack.
func TestConfHalfMovSelp(t *testing.T) {
	all := confHalfAll16()
	rev := make([]uint64, len(all))
	p := make([]uint64, len(all))
	for i := range all {
		rev[i] = all[len(all)-1-i]
		p[i] = uint64(i % 3 & 1)
	}
	outs := harness.ConfRun(t, harness.ConfOp{
		Body: ".reg .f16 %h<4>;\n.reg .f16x2 %hh;\n.reg .bf16 %bb;\nmov.b16 %h0, %a0;\nmov.f16 %h1, %h0;\n" +
			"selp.f16 %h2, %h1, %a1, %a2;\nmov.b32 %hh, {%h0, %h2};\nmov.b32 %d0, %hh;\nmov.b32 {%h3, %d1}, %hh;\n" +
			"mov.f16 %d2, %h3;\nmov.b16 %bb, %a1;\nselp.bf16 %d3, %bb, %a0, %a2;",
		In: []string{"f16", "f16", "pred"}, Out: []string{"f16x2", "f16", "f16", "bf16"},
	}, all, rev, p)
	row := func(i int) string { return fmt.Sprintf("%#04x %#04x %d", all[i], rev[i], p[i]) }
	sel := func(i int) uint64 {
		if p[i] != 0 {
			return all[i]
		}
		return rev[i]
	}
	confHalfCheck(t, "pack", outs[0], func(i int) uint64 { return all[i] | sel(i)<<16 }, row)
	confHalfCheck(t, "unpack hi", outs[1], sel, row)
	confHalfCheck(t, "unpack lo", outs[2], func(i int) uint64 { return all[i] }, row)
	confHalfCheck(t, "selp.bf16", outs[3], func(i int) uint64 {
		if p[i] != 0 {
			return rev[i]
		}
		return all[i]
	}, row)
}

// confHalfCmps are setp's comparisons on floats with their reference.
var confHalfCmps = []struct {
	name string
	test func(x, y float64) bool
}{
	{"eq", func(x, y float64) bool { return x == y }},
	{"ne", func(x, y float64) bool { return x != y && x == x && y == y }},
	{"lt", func(x, y float64) bool { return x < y }},
	{"le", func(x, y float64) bool { return x <= y }},
	{"gt", func(x, y float64) bool { return x > y }},
	{"ge", func(x, y float64) bool { return x >= y }},
	{"equ", func(x, y float64) bool { return x == y || x != x || y != y }},
	{"neu", func(x, y float64) bool { return x != y }},
	{"ltu", func(x, y float64) bool { return !(x >= y) }},
	{"leu", func(x, y float64) bool { return !(x > y) }},
	{"gtu", func(x, y float64) bool { return !(x <= y) }},
	{"geu", func(x, y float64) bool { return !(x < y) }},
	{"num", func(x, y float64) bool { return x == x && y == y }},
	{"nan", func(x, y float64) bool { return x != x || y != y }},
}

// TestConfHalfSetp runs every comparison of setp on .f16, .bf16 and the packed types (p for
// the low halves, q for the high halves), with .ftz and a combining .and/.or/.xor predicate.
func TestConfHalfSetp(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	all := confHalfAll16()
	bs := confHalfSample(r, 4)
	var a, b, c []uint64
	for _, y := range bs {
		a = append(a, all...)
		for i := range all {
			b = append(b, y)
			c = append(c, uint64(i>>3&1))
		}
	}
	pa, pb := confHalfPairs(a, b), confHalfPairs(b, a)
	bit := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		x2 := f.name + "x2"
		for _, cmp := range confHalfCmps {
			body := fmt.Sprintf("setp.%[1]s.%[2]s %%d0, %%a0, %%a1;\nsetp.%[1]s.%[2]sx2 %%d1|%%d2, %%a2, %%a3;\n"+
				"setp.%[1]s.and.%[2]s %%d3, %%a0, %%a1, %%a4;\nsetp.%[1]s.or.%[2]s %%d4, %%a0, %%a1, !%%a4;\nsetp.%[1]s.xor.%[2]sx2 %%d5|%%d6, %%a2, %%a3, !%%a4;", cmp.name, f.name)
			outT := []string{"pred", "pred", "pred", "pred", "pred", "pred", "pred"}
			if f == confHalfF16 {
				body += fmt.Sprintf("\nsetp.%s.ftz.f16x2 %%d7|%%d8, %%a2, %%a3;", cmp.name)
				outT = append(outT, "pred", "pred")
			}
			outs := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{f.name, f.name, x2, x2, "pred"}, Out: outT}, a, b, pa, pb, c)
			test := func(x, y uint64) bool { return cmp.test(f.decode(x), f.decode(y)) }
			row := func(i int) string { return fmt.Sprintf("setp.%s %#04x, %#04x, c=%d", cmp.name, a[i], b[i], c[i]) }
			confHalfCheck(t, "setp."+cmp.name+"."+f.name, outs[0], func(i int) uint64 { return bit(test(a[i], b[i])) }, row)
			confHalfCheck(t, "p of x2", outs[1], func(i int) uint64 { return bit(test(a[i], b[i])) }, row)
			confHalfCheck(t, "q of x2", outs[2], func(i int) uint64 { return bit(test(b[i], a[i])) }, row)
			confHalfCheck(t, "p of .and", outs[3], func(i int) uint64 { return bit(test(a[i], b[i]) && c[i] != 0) }, row)
			confHalfCheck(t, ".or", outs[4], func(i int) uint64 { return bit(test(a[i], b[i]) || c[i] == 0) }, row)
			confHalfCheck(t, "p of .xor x2", outs[5], func(i int) uint64 { return bit(test(a[i], b[i]) != (c[i] == 0)) }, row)
			confHalfCheck(t, "q of .xor x2", outs[6], func(i int) uint64 { return bit(test(b[i], a[i]) != (c[i] == 0)) }, row)
			if f == confHalfF16 {
				ftz := func(x, y uint64) bool { return test(confHalfFtz(x), confHalfFtz(y)) }
				confHalfCheck(t, "p of .ftz", outs[7], func(i int) uint64 { return bit(ftz(a[i], b[i])) }, row)
				confHalfCheck(t, "q of .ftz", outs[8], func(i int) uint64 { return bit(ftz(b[i], a[i])) }, row)
			}
		}
	}
}

// confHalfF32Sat is cvt's .sat on an f32 result: clamp to [0, 1], NaN and -0 to +0.
func confHalfF32Sat(x uint64) uint64 {
	switch v := math.Float32frombits(uint32(x)); {
	case v != v || v <= 0:
		return 0
	case v > 1:
		return uint64(math.Float32bits(1))
	}
	return x
}

// TestConfHalfCvtWiden converts every .f16 and .bf16 value to .f32 and .f64 (exact; NaN gives
// the canonical NaN), with .ftz and .sat.
func TestConfHalfCvtWiden(t *testing.T) {
	all := confHalfAll16()
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("cvt.f32.%[1]s %%d0, %%a0;\ncvt.f64.%[1]s %%d1, %%a0;\ncvt.ftz.f32.%[1]s %%d2, %%a0;\ncvt.sat.f32.%[1]s %%d3, %%a0;\ncvt.sat.f64.%[1]s %%d4, %%a0;", f.name),
			In:   []string{f.name}, Out: []string{"f32", "f64", "f32", "f32", "f64"},
		}, all)
		w32 := func(h uint64) uint64 {
			if f.isNaN(h) {
				return 0x7fffffff
			}
			return uint64(math.Float32bits(float32(f.decode(h))))
		}
		w64 := func(h uint64) uint64 {
			if f.isNaN(h) {
				return 0x7fffffffffffffff
			}
			return math.Float64bits(f.decode(h))
		}
		row := func(i int) string { return fmt.Sprintf("cvt from %s %#04x", f.name, all[i]) }
		confHalfCheck(t, "cvt.f32."+f.name, outs[0], func(i int) uint64 { return w32(all[i]) }, row)
		confHalfCheck(t, "cvt.f64."+f.name, outs[1], func(i int) uint64 { return w64(all[i]) }, row)
		confHalfCheck(t, "cvt.ftz.f32."+f.name, outs[2], func(i int) uint64 {
			x := w32(all[i])
			if x&0x7f800000 == 0 {
				return x & 0x80000000
			}
			return x
		}, row)
		confHalfCheck(t, "cvt.sat.f32."+f.name, outs[3], func(i int) uint64 { return confHalfF32Sat(w32(all[i])) }, row)
		confHalfCheck(t, "cvt.sat.f64."+f.name, outs[4], func(i int) uint64 {
			switch v := f.decode(all[i]); {
			case v != v || v <= 0:
				return 0
			case v > 1:
				return math.Float64bits(1)
			}
			return w64(all[i])
		}, row)
	}
}

// confHalfNarrowInputs returns f32 bit patterns that exercise rounding to .f16, .bf16 and
// .tf32: every midpoint between neighbouring values of each format and the f32 values one
// step either side, every bf16 value with assorted low bits, edge values, and random ones.
func confHalfNarrowInputs(r *rand.Rand) []uint64 {
	var out []uint64
	add := func(v float64) {
		b := math.Float32bits(float32(v))
		out = append(out, uint64(b), uint64(b+1), uint64(b-1))
		out = append(out, uint64(b|0x80000000), uint64((b+1)|0x80000000), uint64((b-1)|0x80000000))
	}
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for i := 0; i+1 < len(f.table); i++ {
			add((f.table[i] + f.table[i+1]) / 2)
		}
		// Around the largest finite value: the overflow threshold and beyond.
		top := f.table[len(f.table)-1]
		ulp := top - f.table[len(f.table)-2]
		add(top + ulp/2)
		add(top + ulp)
		add(top * 2)
	}
	for h := range uint32(1 << 16) {
		for _, low := range []uint32{0x8000, 0x1000, r.Uint32() & 0xffff} {
			out = append(out, uint64(h<<16|low))
		}
	}
	for range 20000 {
		out = append(out, uint64(r.Uint32()))
	}
	return out
}

// TestConfHalfCvtNarrow rounds f32 values to .f16 and .bf16 in every rounding mode, with
// .relu, .satfinite and .ftz, and packs pairs into .f16x2/.bf16x2 (a in the upper half).
func TestConfHalfCvtNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	in := confHalfNarrowInputs(r)
	other := slices.Clone(in)
	r.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	var body []string
	var outT []string
	type check struct {
		name string
		want func(x, y uint64) uint64
	}
	var checks []check
	val := func(x uint64) float64 { return float64(math.Float32frombits(uint32(x))) }
	relu := func(h uint64) uint64 {
		if h != 0x7fff && h&0x8000 != 0 {
			return 0
		}
		return h
	}
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		satfinite := func(h uint64) uint64 {
			if h&0x7fff == f.infBits() {
				return h&0x8000 | f.maxFinite()
			}
			return h
		}
		conv := func(x uint64, mode int) uint64 { return f.round(val(x), 0, mode, 0x7fff) }
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			body = append(body, fmt.Sprintf("cvt.%s.%s.f32 %%d%d, %%a0;", confHalfModeNames[mode], f.name, len(outT)))
			outT = append(outT, f.name)
			checks = append(checks, check{"cvt." + confHalfModeNames[mode] + "." + f.name, func(x, _ uint64) uint64 { return conv(x, mode) }})
		}
		for _, fm := range []struct {
			mods      string
			mode      int
			relu, sat bool
		}{{".rn.relu", confHalfRN, true, false}, {".rz.relu", confHalfRZ, true, false}, {".rn.satfinite", confHalfRN, false, true}, {".rz.relu.satfinite", confHalfRZ, true, true}} {
			one := func(x uint64) uint64 {
				h := conv(x, fm.mode)
				if fm.sat {
					h = satfinite(h)
				}
				if fm.relu {
					h = relu(h)
				}
				return h
			}
			body = append(body, fmt.Sprintf("cvt%s.%s.f32 %%d%d, %%a0;", fm.mods, f.name, len(outT)),
				fmt.Sprintf("cvt%s.%sx2.f32 %%d%d, %%a0, %%a1;", fm.mods, f.name, len(outT)+1))
			outT = append(outT, f.name, f.name+"x2")
			checks = append(checks, check{"cvt" + fm.mods + "." + f.name, func(x, _ uint64) uint64 { return one(x) }},
				check{"cvt" + fm.mods + "." + f.name + "x2", func(x, y uint64) uint64 { return one(x)<<16 | one(y) }})
		}
	}
	body = append(body, fmt.Sprintf("cvt.rn.ftz.f16.f32 %%d%d, %%a0;", len(outT)))
	outT = append(outT, "f16")
	checks = append(checks, check{"cvt.rn.ftz.f16.f32", func(x, _ uint64) uint64 {
		if x&0x7f800000 == 0 {
			x &= 0x80000000
		}
		return confHalfF16.round(val(x), 0, confHalfRN, 0x7fff)
	}})
	// sat is .sat on a rounded result: the only NaN rounding produces is the canonical one.
	sat := func(h uint64, one uint64) uint64 {
		switch {
		case h == 0x7fff || h&0x8000 != 0:
			return 0
		case h > one:
			return one
		}
		return h
	}
	body = append(body, fmt.Sprintf("cvt.rn.sat.f16.f32 %%d%d, %%a0;", len(outT)), fmt.Sprintf("cvt.rp.ftz.sat.bf16.f32 %%d%d, %%a0;", len(outT)+1))
	outT = append(outT, "f16", "bf16")
	checks = append(checks, check{"cvt.rn.sat.f16.f32", func(x, _ uint64) uint64 { return sat(confHalfF16.round(val(x), 0, confHalfRN, 0x7fff), 0x3c00) }},
		check{"cvt.rp.ftz.sat.bf16.f32", func(x, _ uint64) uint64 {
			if x&0x7f800000 == 0 {
				x &= 0x80000000
			}
			return sat(confHalfBF16.round(val(x), 0, confHalfRP, 0x7fff), 0x3f80)
		}})
	outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{"f32", "f32"}, Out: outT}, in, other)
	for k, c := range checks {
		confHalfCheck(t, c.name, outs[k], func(i int) uint64 { return c.want(in[i], other[i]) },
			func(i int) string { return fmt.Sprintf("%s(%#08x, %#08x)", c.name, in[i], other[i]) })
	}
}

// TestConfHalfCvtF64 rounds f64 values to .f16 and .bf16 in every rounding mode with a single
// rounding: the inputs include the midpoints of both formats and values one f64 step away.
func TestConfHalfCvtF64(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var in []uint64
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for i := 0; i+1 < len(f.table); i += 3 {
			b := math.Float64bits((f.table[i] + f.table[i+1]) / 2)
			for _, x := range []uint64{b, b + 1, b - 1, b + 1<<28, b - 1<<28} {
				in = append(in, x, x|1<<63)
			}
		}
	}
	for _, x := range []float64{0, 1e300, 1e-300, math.Inf(1), math.NaN(), 65504, 65519.99, 65520, 65536, 3.4e38, 5e-324} {
		in = append(in, math.Float64bits(x), math.Float64bits(-x))
	}
	for range 20000 {
		// Random exponents around the 16-bit formats' ranges.
		in = append(in, math.Float64bits(math.Ldexp(r.Float64()+0.5, r.IntN(320)-160)), r.Uint64())
	}
	var body []string
	var outT []string
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			body = append(body, fmt.Sprintf("cvt.%s.%s.f64 %%d%d, %%a0;", confHalfModeNames[mode], f.name, len(outT)))
			outT = append(outT, f.name)
		}
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{"f64"}, Out: outT}, in)
	k := 0
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			confHalfCheck(t, "cvt.f64", outs[k], func(i int) uint64 { return f.round(math.Float64frombits(in[i]), 0, mode, 0x7fff) },
				func(i int) string { return fmt.Sprintf("cvt.%s.%s.f64 %#016x", confHalfModeNames[mode], f.name, in[i]) })
			k++
		}
	}
}

// confHalfIntTypes are cvt's integer types with their width and signedness.
var confHalfIntTypes = []struct {
	name   string
	bits   int
	signed bool
}{
	{"s8", 8, true}, {"u8", 8, false}, {"s16", 16, true}, {"u16", 16, false},
	{"s32", 32, true}, {"u32", 32, false}, {"s64", 64, true}, {"u64", 64, false},
}

// confHalfToInt is the reference float → integer conversion of an integral value v: NaN gives
// 0 and out-of-range values saturate; the result is the type's bits.
func confHalfToInt(v float64, bits int, signed bool) uint64 {
	lo, hi := 0.0, math.Ldexp(1, bits)-1
	if signed {
		lo, hi = -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)-1
	}
	mask := uint64(math.MaxUint64) >> (64 - bits)
	switch {
	case v != v:
		return 0
	case v <= lo:
		return uint64(int64(lo)) & mask
	case v >= hi && signed:
		return mask >> 1
	case v >= hi:
		return mask
	case signed:
		return uint64(int64(v)) & mask
	}
	return uint64(v) & mask
}

var confHalfIntRound = []struct {
	name string
	f    func(float64) float64
}{{"rni", math.RoundToEven}, {"rzi", math.Trunc}, {"rmi", math.Floor}, {"rpi", math.Ceil}}

// TestConfHalfCvtToInt converts every .f16 and .bf16 value to every integer type with each
// integer rounding mode.
func TestConfHalfCvtToInt(t *testing.T) {
	all := confHalfAll16()
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		for _, rnd := range confHalfIntRound {
			var body, outT []string
			for k, it := range confHalfIntTypes {
				body = append(body, fmt.Sprintf("cvt.%s.%s.%s %%d%d, %%a0;", rnd.name, it.name, f.name, k))
				outT = append(outT, it.name)
			}
			outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{f.name}, Out: outT}, all)
			for k, it := range confHalfIntTypes {
				confHalfCheck(t, "cvt to int", outs[k], func(i int) uint64 { return confHalfToInt(rnd.f(f.decode(all[i])), it.bits, it.signed) },
					func(i int) string { return fmt.Sprintf("cvt.%s.%s.%s %#04x", rnd.name, it.name, f.name, all[i]) })
			}
		}
	}
}

// TestConfHalfCvtFromInt converts integers of every type to .f16 and .bf16 in every rounding
// mode: all values of the 8- and 16-bit types, and for the wider types edges, values near
// powers of two and random values of every magnitude.
func TestConfHalfCvtFromInt(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	wide := []uint64{0, 1, 2, 3, 2047, 2048, 2049, 2050, 2051, 4097, 4098, 4099, 65504, 65519, 65520, 65521, 65535, 65536, 1<<31 - 1, 1 << 31, 1<<32 - 1}
	for k := range 64 {
		p := uint64(1) << k
		wide = append(wide, p, p-1, p+1, p|p>>8, p|p>>9, p|p>>11|1, p|p>>12)
	}
	for range 20000 {
		wide = append(wide, r.Uint64()>>r.IntN(64))
	}
	for _, v := range slices.Clone(wide) {
		wide = append(wide, -v)
	}
	for _, it := range confHalfIntTypes {
		in := wide
		if it.bits <= 16 {
			in = confHalfAll16()
		}
		mask := uint64(math.MaxUint64) >> (64 - it.bits)
		col := make([]uint64, len(in))
		for i, v := range in {
			col[i] = v & mask
		}
		var body, outT []string
		for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
			for mode := confHalfRN; mode <= confHalfRP; mode++ {
				body = append(body, fmt.Sprintf("cvt.%s.%s.%s %%d%d, %%a0;", confHalfModeNames[mode], f.name, it.name, len(outT)))
				outT = append(outT, f.name)
			}
			body = append(body, fmt.Sprintf("cvt.rn.sat.%s.%s %%d%d, %%a0;", f.name, it.name, len(outT)))
			outT = append(outT, f.name)
		}
		outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{it.name}, Out: outT}, col)
		// exact returns the input as a float64 and the sign of its rounding error.
		exact := func(x uint64) (float64, float64) {
			var b big.Float
			if it.signed {
				b.SetInt64(int64(x<<(64-it.bits)) >> (64 - it.bits))
			} else {
				b.SetUint64(x)
			}
			s, acc := b.Float64()
			return s, -float64(acc) * 0x1p-1000
		}
		k := 0
		for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
			for mode := confHalfRN; mode <= confHalfRP; mode++ {
				confHalfCheck(t, "cvt from int", outs[k], func(i int) uint64 { s, e := exact(col[i]); return f.round(s, e, mode, 0x7fff) },
					func(i int) string {
						return fmt.Sprintf("cvt.%s.%s.%s %#x", confHalfModeNames[mode], f.name, it.name, col[i])
					})
				k++
			}
			one := uint64(0x3c00)
			if f == confHalfBF16 {
				one = 0x3f80
			}
			confHalfCheck(t, "cvt.rn.sat from int", outs[k], func(i int) uint64 {
				s, e := exact(col[i])
				switch {
				case s <= 0:
					return 0
				case s >= 1:
					return one
				}
				return f.round(s, e, confHalfRN, 0x7fff)
			}, func(i int) string { return fmt.Sprintf("cvt.rn.sat.%s.%s %#x", f.name, it.name, col[i]) })
			k++
		}
	}
}

// TestConfHalfCvtHalf converts every value between .f16 and .bf16 in every rounding mode,
// and rounds every value to an integral one in its own format (.rni .rzi .rmi .rpi, .sat).
func TestConfHalfCvtHalf(t *testing.T) {
	all := confHalfAll16()
	for _, pair := range [][2]*confHalfFmt{{confHalfF16, confHalfBF16}, {confHalfBF16, confHalfF16}} {
		src, dst := pair[0], pair[1]
		var body, outT []string
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			body = append(body, fmt.Sprintf("cvt.%s.%s.%s %%d%d, %%a0;", confHalfModeNames[mode], dst.name, src.name, len(outT)))
			outT = append(outT, dst.name)
		}
		for _, rnd := range confHalfIntRound {
			body = append(body, fmt.Sprintf("cvt.%s.%s.%s %%d%d, %%a0;", rnd.name, src.name, src.name, len(outT)))
			outT = append(outT, src.name)
		}
		body = append(body, fmt.Sprintf("cvt.sat.%s.%s %%d%d, %%a0;", src.name, src.name, len(outT)),
			fmt.Sprintf("cvt.rzi.sat.%s.%s %%d%d, %%a0;", src.name, src.name, len(outT)+1))
		outT = append(outT, src.name, src.name)
		outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{src.name}, Out: outT}, all)
		k := 0
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			confHalfCheck(t, "cvt half", outs[k], func(i int) uint64 { return dst.round(src.decode(all[i]), 0, mode, 0x7fff) },
				func(i int) string {
					return fmt.Sprintf("cvt.%s.%s.%s %#04x", confHalfModeNames[mode], dst.name, src.name, all[i])
				})
			k++
		}
		for _, rnd := range confHalfIntRound {
			confHalfCheck(t, "cvt.irnd half", outs[k], func(i int) uint64 { return src.round(rnd.f(src.decode(all[i])), 0, confHalfRN, 0x7fff) },
				func(i int) string { return fmt.Sprintf("cvt.%s.%s.%s %#04x", rnd.name, src.name, src.name, all[i]) })
			k++
		}
		one := src.round(1, 0, confHalfRN, 0)
		sat := func(v float64) uint64 {
			switch {
			case v != v || v <= 0:
				return 0
			case v >= 1:
				return one
			}
			return src.round(v, 0, confHalfRN, 0)
		}
		confHalfCheck(t, "cvt.sat half", outs[k], func(i int) uint64 { return sat(src.decode(all[i])) },
			func(i int) string { return fmt.Sprintf("cvt.sat.%s.%s %#04x", src.name, src.name, all[i]) })
		confHalfCheck(t, "cvt.rzi.sat half", outs[k+1], func(i int) uint64 { return sat(math.Trunc(src.decode(all[i]))) },
			func(i int) string { return fmt.Sprintf("cvt.rzi.sat.%s.%s %#04x", src.name, src.name, all[i]) })
	}
}

// TestConfHalfTF32 rounds f32 values to tf32 (.rna, .rn, .rz with .satfinite and .relu).
func TestConfHalfTF32(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	var in []uint64
	for range 20000 {
		in = append(in, uint64(r.Uint32()))
	}
	for h := range uint32(1 << 19) {
		// Every tf32 value with the tie, below-tie and above-tie low bits, both signs.
		for _, low := range []uint32{0x1000, 0x0fff, 0x1001} {
			if h%7 == 0 || h>>10&0xff == 0 || h>>10&0xff >= 0xfe {
				in = append(in, uint64(h<<13|low))
			}
		}
	}
	in = append(in, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0, 0x80000000, 0x7f7fffff, 0xff7fffff)
	forms := []struct {
		mods      string
		mode      int
		sat, relu bool
	}{{".rna", confHalfRNA, false, false}, {".rna.satfinite", confHalfRNA, true, false}, {".rn", confHalfRN, false, false},
		{".rz", confHalfRZ, false, false}, {".rn.relu", confHalfRN, false, true}, {".rz.satfinite.relu", confHalfRZ, true, true}, {".rn.satfinite", confHalfRN, true, false}}
	var body, outT []string
	for k, fm := range forms {
		body = append(body, fmt.Sprintf("cvt%s.tf32.f32 %%d%d, %%a0;", fm.mods, k))
		outT = append(outT, "b32")
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{"f32"}, Out: outT}, in)
	f := confHalfTF32
	for k, fm := range forms {
		confHalfCheck(t, "cvt"+fm.mods+".tf32.f32", outs[k], func(i int) uint64 {
			v := float64(math.Float32frombits(uint32(in[i])))
			if v != v {
				return 0x7fffffff
			}
			h := f.round(v, 0, fm.mode, 0)
			if fm.sat && h&^f.signBit() == f.infBits() {
				h = h&f.signBit() | f.maxFinite()
			}
			if fm.relu && h&f.signBit() != 0 {
				h = 0
			}
			return h << 13
		}, func(i int) string { return fmt.Sprintf("cvt%s.tf32.f32 %#08x", fm.mods, in[i]) })
	}
}

// TestConfHalfCvtPack runs cvt.pack.sat on 16- and 8-bit types.
func TestConfHalfCvtPack(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	edges := []int32{0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536, math.MaxInt32, math.MinInt32}
	var a, b, c []uint64
	for _, x := range edges {
		for _, y := range edges {
			a, b, c = append(a, uint64(uint32(x))), append(b, uint64(uint32(y))), append(c, uint64(r.Uint32()))
		}
	}
	for range 20000 {
		x, y := r.Int32()>>r.IntN(32), r.Int32()>>r.IntN(32)
		if r.IntN(2) == 0 {
			x = -x
		}
		a, b, c = append(a, uint64(uint32(x))), append(b, uint64(uint32(y))), append(c, uint64(r.Uint32()))
	}
	outs := harness.ConfRun(t, harness.ConfOp{
		Body: "cvt.pack.sat.u16.s32 %d0, %a0, %a1;\ncvt.pack.sat.s16.s32 %d1, %a0, %a1;\ncvt.pack.sat.u8.s32.b32 %d2, %a0, %a1, %a2;\ncvt.pack.sat.s8.s32.b32 %d3, %a0, %a1, %a2;",
		In:   []string{"s32", "s32", "b32"}, Out: []string{"b32", "b32", "b32", "b32"},
	}, a, b, c)
	clamp := func(v uint64, lo, hi int64, n int) uint64 {
		return uint64(min(max(int64(int32(v)), lo), hi)) & (1<<n - 1)
	}
	row := func(i int) string { return fmt.Sprintf("cvt.pack(%d, %d, %#x)", int32(a[i]), int32(b[i]), c[i]) }
	confHalfCheck(t, "u16", outs[0], func(i int) uint64 { return clamp(b[i], 0, 65535, 16) | clamp(a[i], 0, 65535, 16)<<16 }, row)
	confHalfCheck(t, "s16", outs[1], func(i int) uint64 {
		return clamp(b[i], -32768, 32767, 16) | clamp(a[i], -32768, 32767, 16)<<16
	}, row)
	confHalfCheck(t, "u8", outs[2], func(i int) uint64 {
		return clamp(b[i], 0, 255, 8) | clamp(a[i], 0, 255, 8)<<8 | c[i]<<16&0xffff0000
	}, row)
	confHalfCheck(t, "s8", outs[3], func(i int) uint64 {
		return clamp(b[i], -128, 127, 8) | clamp(a[i], -128, 127, 8)<<8 | c[i]<<16&0xffff0000
	}, row)
}

// TestConfHalfRejects checks that half-precision forms the ISA does not define, and the ones
// not implemented, fail at compile time rather than run wrongly.
func TestConfHalfRejects(t *testing.T) {
	for _, c := range []struct {
		body    string
		in, out []string
	}{
		{"add.rz.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"f16"}},
		{"sub.rm.f16x2 %d0, %a0, %a1;", []string{"f16x2", "f16x2"}, []string{"f16x2"}},
		{"add.ftz.bf16 %d0, %a0, %a1;", []string{"bf16", "bf16"}, []string{"bf16"}},
		{"mul.sat.bf16x2 %d0, %a0, %a1;", []string{"bf16x2", "bf16x2"}, []string{"bf16x2"}},
		{"add.relu.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"f16"}},
		{"fma.f16 %d0, %a0, %a1, %a2;", []string{"f16", "f16", "f16"}, []string{"f16"}},
		{"fma.rp.bf16 %d0, %a0, %a1, %a2;", []string{"bf16", "bf16", "bf16"}, []string{"bf16"}},
		{"fma.rn.sat.relu.f16 %d0, %a0, %a1, %a2;", []string{"f16", "f16", "f16"}, []string{"f16"}},
		{"fma.rn.ftz.bf16 %d0, %a0, %a1, %a2;", []string{"bf16", "bf16", "bf16"}, []string{"bf16"}},
		{"neg.ftz.bf16 %d0, %a0;", []string{"bf16"}, []string{"bf16"}},
		{"abs.sat.f16 %d0, %a0;", []string{"f16"}, []string{"f16"}},
		{"min.xorsign.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"f16"}},
		{"max.relu.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"f16"}},
		{"max.ftz.bf16 %d0, %a0, %a1;", []string{"bf16", "bf16"}, []string{"bf16"}},
		{"div.rn.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"f16"}},
		{"sqrt.rn.f16 %d0, %a0;", []string{"f16"}, []string{"f16"}},
		{"ex2.approx.ftz.f16 %d0, %a0;", []string{"f16"}, []string{"f16"}},
		{"fma.f32.f16 %d0, %a0, %a1, %a2;", []string{"f16", "f16", "f32"}, []string{"f32"}},
		{"add.ftz.f32.f16 %d0, %a0, %a1;", []string{"f16", "f32"}, []string{"f32"}},
		{"add.rna.f32.bf16 %d0, %a0, %a1;", []string{"bf16", "f32"}, []string{"f32"}},
		{"mul.rn.f32.f16 %d0, %a0, %a1;", []string{"f16", "f32"}, []string{"f32"}},
		{"add.rn.f32.f16x2 %d0, %a0, %a1;", []string{"f16x2", "f32"}, []string{"f32"}},
		{"setp.lt.ftz.bf16 %d0, %a0, %a1;", []string{"bf16", "bf16"}, []string{"pred"}},
		{"setp.lo.f16 %d0, %a0, %a1;", []string{"f16", "f16"}, []string{"pred"}},
		{"setp.lt.f16x2 %d0, %a0, %a1;", []string{"f16x2", "f16x2"}, []string{"pred"}},
		{"setp.lt.f16 %d0|%d1, %a0, %a1;", []string{"f16", "f16"}, []string{"pred", "pred"}},
		{"cvt.rna.f16.f32 %d0, %a0;", []string{"f32"}, []string{"f16"}},
		{"cvt.f16.f32 %d0, %a0;", []string{"f32"}, []string{"f16"}},
		{"cvt.bf16.f16 %d0, %a0;", []string{"f16"}, []string{"bf16"}},
		{"cvt.rn.f32.f16 %d0, %a0;", []string{"f16"}, []string{"f32"}},
		{"cvt.rz.f16.f16 %d0, %a0;", []string{"f16"}, []string{"f16"}},
		{"cvt.rm.relu.f16.f32 %d0, %a0;", []string{"f32"}, []string{"f16"}},
		{"cvt.rn.relu.f16.f64 %d0, %a0;", []string{"f64"}, []string{"f16"}},
		{"cvt.rp.f16x2.f32 %d0, %a0, %a1;", []string{"f32", "f32"}, []string{"f16x2"}},
		{"cvt.rn.ftz.f16.f64 %d0, %a0;", []string{"f64"}, []string{"f16"}},
		{"cvt.rni.f16.f32 %d0, %a0;", []string{"f32"}, []string{"f16"}},
		{"cvt.rn.s32.f16 %d0, %a0;", []string{"f16"}, []string{"s32"}},
		{"cvt.rni.f32.f16 %d0, %a0;", []string{"f16"}, []string{"f32"}},
		{"cvt.rna.relu.tf32.f32 %d0, %a0;", []string{"f32"}, []string{"b32"}},
		{"cvt.rm.tf32.f32 %d0, %a0;", []string{"f32"}, []string{"b32"}},
		{"mov.f16 %d0, 0f3F800000;", []string{"f16"}, []string{"f16"}},
		{"add.f16 %d0, %a0, 0f3F800000;", []string{"f16"}, []string{"f16"}},
		{"max.bf16x2 %d0, 0, %a0;", []string{"bf16x2"}, []string{"bf16x2"}},
		{"setp.lt.f16 %d0, %a0, 0x3c00;", []string{"f16"}, []string{"pred"}},
		{"cvt.rn.f16.f32 %d0, %a0, %a1;", []string{"f32", "f32"}, []string{"f16"}},
		{"cvt.rn.f16x2.f32 %d0, %a0;", []string{"f32"}, []string{"f16x2"}},
		{"cvt.rn.f32.f64 %d0, %a0, %a1;", []string{"f64", "f64"}, []string{"f32"}},
		{"cvt.rs.f16x2.f32 %d0, %a0, %a1, %a2;", []string{"f32", "f32", "b32"}, []string{"f16x2"}},
		{"cvt.pack.u16.s32 %d0, %a0, %a1;", []string{"s32", "s32"}, []string{"b32"}},
		{"cvt.pack.sat.u8.s32 %d0, %a0, %a1;", []string{"s32", "s32"}, []string{"b32"}},
		{"cvt.pack.sat.u32.s32 %d0, %a0, %a1;", []string{"s32", "s32"}, []string{"b32"}},
	} {
		_, err := ptx2go.Compile([]byte(harness.ConfKernel(harness.ConfOp{Body: c.body, In: c.in, Out: c.out})), ptx2go.Options{File: "conf.ptx"})
		require.Error(t, err, "%s must not compile", c.body)
		require.Contains(t, err.Error(), "conf.ptx:", "%s", c.body)
	}
}

// TestConfHalfAtomAdd runs atom.add.noftz on .f16x2 and .bf16x2: each row adds its own input
// to the global word it was loaded from, and the word is read back.
func TestConfHalfAtomAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	lo, hi := confHalfSample(r, 4096), confHalfSample(r, 4096)
	r.Shuffle(len(hi), func(i, j int) { hi[i], hi[j] = hi[j], hi[i] })
	in := confHalfPairs(lo, hi)
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		x2 := f.name + "x2"
		outs := harness.ConfRun(t, harness.ConfOp{
			Body: fmt.Sprintf("atom.global.add.noftz.%s %%d0, [%%ptr], %%a0;\nld.global.b32 %%d1, [%%ptr];", x2),
			In:   []string{x2}, Out: []string{x2, x2},
		}, in)
		add := func(x, y uint64) uint64 {
			s, e := confHalfTwoSum(f.decode(x), f.decode(y))
			return f.round(s, e, confHalfRN, 0x7fff)
		}
		row := func(i int) string { return fmt.Sprintf("atom.add.%s %#08x", x2, in[i]) }
		confHalfCheck(t, "old value", outs[0], func(i int) uint64 { return in[i] }, row)
		confHalfCheck(t, "sum", outs[1], func(i int) uint64 { return add(lo[i], lo[i]) | add(hi[i], hi[i])<<16 }, row)
	}
}

// TestConfHalfLoadStore loads and stores .f16, .v2.f16 and .f16x2 registers: each row works on
// the global word its input was loaded from.
func TestConfHalfLoadStore(t *testing.T) {
	all := confHalfAll16()
	outs := harness.ConfRun(t, harness.ConfOp{
		Body: ".reg .f16 %h<2>;\n.reg .f16x2 %hh;\nld.global.f16 %h0, [%ptr];\nst.global.f16 [%ptr+2], %h0;\n" +
			"ld.global.v2.f16 {%h0, %h1}, [%ptr];\nmov.b32 %d0, {%h0, %h1};\nld.global.f16x2 %hh, [%ptr];\n" +
			"st.global.f16x2 [%ptr+4], %hh;\nld.global.b64 %d1, [%ptr];",
		In: []string{"f16"}, Out: []string{"f16x2", "b64"},
	}, all)
	row := func(i int) string { return fmt.Sprintf("%#04x", all[i]) }
	confHalfCheck(t, "ld.v2.f16", outs[0], func(i int) uint64 { return all[i] * 0x10001 }, row)
	confHalfCheck(t, "st.f16x2", outs[1], func(i int) uint64 { return all[i] * 0x0001000100010001 }, row)
}

// confHalfRoundF32 rounds the exact value s+err (err: the exact error of the float64 s) to f32
// in mode by scaling to an integer significand; a zero s with zero err is returned as is.
func confHalfRoundF32(s, err float64, mode int) uint64 {
	switch {
	case s != s:
		return 0x7fffffff
	case math.IsInf(s, 0) || s == 0 && err == 0:
		return uint64(math.Float32bits(float32(s)))
	}
	_, e := math.Frexp(s)
	q := max(e-1, -126) - 23
	y := math.Ldexp(s, -q)
	// down moves an integral y one step toward zero: at the bottom of a binade the step is
	// half as large, so y is rescaled first.
	down := func() float64 {
		if math.Abs(y) == 0x1p23 && q > -149 {
			y, q = 2*y, q-1
		}
		return y - math.Copysign(1, y)
	}
	var r float64
	switch mode {
	case confHalfRN:
		r = math.RoundToEven(y)
		if t := math.Trunc(y); math.Abs(y-t) == 0.5 && err != 0 {
			r = t
			if (err > 0) == (y > 0) {
				r = t + math.Copysign(1, y)
			}
		}
	case confHalfRZ:
		r = math.Trunc(y)
		if r == y && err != 0 && (err > 0) != (y > 0) {
			r = down()
		}
	case confHalfRM:
		r = math.Floor(y)
		switch {
		case r == y && err < 0 && y > 0:
			r = down()
		case r == y && err < 0:
			r--
		}
	case confHalfRP:
		r = math.Ceil(y)
		switch {
		case r == y && err > 0 && y < 0:
			r = down()
		case r == y && err > 0:
			r++
		}
	}
	v := math.Ldexp(r, q)
	if math.Abs(v) >= 0x1p128 {
		up := mode == confHalfRN || mode == confHalfRP && s > 0 || mode == confHalfRM && s < 0
		if up {
			return uint64(math.Float32bits(float32(math.Copysign(math.Inf(1), s))))
		}
		return uint64(math.Float32bits(float32(math.Copysign(math.MaxFloat32, s))))
	}
	return uint64(math.Float32bits(float32(math.Copysign(v, s))))
}

// confHalfSumF32 is the reference f32 result of the exact x + y in mode, with IEEE 754's sign
// of an exact zero: -0 toward -inf unless both operands are +0, else the round-to-nearest sign.
func confHalfSumF32(x, y float64, mode int) uint64 {
	s, e := confHalfTwoSum(x, y)
	if s == 0 && e == 0 && mode == confHalfRM && !(x == 0 && y == 0 && !math.Signbit(x) && !math.Signbit(y)) {
		return 0x80000000
	}
	return confHalfRoundF32(s, e, mode)
}

// TestConfHalfMixed runs the mixed-precision add/sub{.rnd}{.sat}.f32.{f16,bf16} and
// fma.rnd{.sat}.f32.{f16,bf16} over every 16-bit a against f32 operands chosen to cancel it,
// to land on f32 rounding boundaries, edges and random values.
func TestConfHalfMixed(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	all := confHalfAll16()
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0x1p-149, -0x1p-149, 0x1p-126, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, 3e38, 0.5, 65504}
	for _, f := range []*confHalfFmt{confHalfF16, confHalfBF16} {
		var a, b, c []uint64
		f32 := func(v float64) uint64 { return uint64(math.Float32bits(float32(v))) }
		for k := range 8 {
			for _, x := range all {
				v := f.decode(x)
				var cv uint64
				switch k {
				case 0, 5:
					cv = uint64(r.Uint32())
				case 1:
					cv = f32(-v)
				case 2:
					cv = f32(-v * (1 + 0x1p-20))
				case 3:
					cv = uint64(math.Float32bits(edges[int(x)%len(edges)]))
				case 4:
					cv = f32(v * (4*r.Float64() - 2))
				case 6:
					cv = uint64(r.Uint32() & 0x807fffff)
				case 7:
					cv = f32(v * 0x1p-24 * float64(1+2*(x&1)))
				}
				a, b, c = append(a, x), append(b, all[(int(x)*40503+k*977)&0xffff]), append(c, cv)
			}
		}
		var body, outT []string
		type check struct {
			name string
			want func(i int) uint64
		}
		var checks []check
		val := func(x uint64) float64 { return float64(math.Float32frombits(uint32(x))) }
		add := func(mod, op string, want func(i int) uint64) {
			body = append(body, fmt.Sprintf("%s%s.f32.%s %%d%d, %%a0, %%a2;", op, mod, f.name, len(outT)))
			outT = append(outT, "f32")
			checks = append(checks, check{op + mod, want})
		}
		fma := func(mod string, want func(i int) uint64) {
			body = append(body, fmt.Sprintf("fma%s.f32.%s %%d%d, %%a0, %%a1, %%a2;", mod, f.name, len(outT)))
			outT = append(outT, "f32")
			checks = append(checks, check{"fma" + mod, want})
		}
		for mode := confHalfRN; mode <= confHalfRP; mode++ {
			m := "." + confHalfModeNames[mode]
			add(m, "add", func(i int) uint64 { return confHalfSumF32(f.decode(a[i]), val(c[i]), mode) })
			fma(m, func(i int) uint64 { return confHalfSumF32(f.decode(a[i])*f.decode(b[i]), val(c[i]), mode) })
		}
		add("", "sub", func(i int) uint64 { return confHalfSumF32(f.decode(a[i]), -val(c[i]), confHalfRN) })
		add(".rm", "sub", func(i int) uint64 { return confHalfSumF32(f.decode(a[i]), -val(c[i]), confHalfRM) })
		add(".rz.sat", "add", func(i int) uint64 { return confHalfF32Sat(confHalfSumF32(f.decode(a[i]), val(c[i]), confHalfRZ)) })
		fma(".rn.sat", func(i int) uint64 {
			return confHalfF32Sat(confHalfSumF32(f.decode(a[i])*f.decode(b[i]), val(c[i]), confHalfRN))
		})
		outs := harness.ConfRun(t, harness.ConfOp{Body: strings.Join(body, "\n"), In: []string{f.name, f.name, "f32"}, Out: outT}, a, b, c)
		for k, ch := range checks {
			confHalfCheck(t, ch.name+".f32."+f.name, outs[k], ch.want,
				func(i int) string {
					return fmt.Sprintf("%s.f32.%s(%#04x, %#04x, %#08x)", ch.name, f.name, a[i], b[i], c[i])
				})
		}
	}
}

// halfSetF16 is the value of the IEEE binary16 bits h; ftz reads a subnormal as zero.
func halfSetF16(h uint16, ftz bool) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch {
	case e == 0x1f && m != 0:
		return math.NaN()
	case e == 0x1f:
		return sign * math.Inf(1)
	case e == 0 && ftz:
		return sign * 0
	case e == 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// halfSetBF16 is the value of the bfloat16 bits h.
func halfSetBF16(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

// TestHalfSet runs testdata/ptx/hand/half_set.ptx: set.CmpOp{.BoolOp}{.ftz}.dtype.stype with
// .f16, .bf16, .f16x2 and .bf16x2 sources, whose result is 1.0 in a 16-bit float dtype or all
// ones in an integer one (0xffff per half for a packed source), against a Go model. Both
// engines rejected the form, which nvcc's cuda_fp16.h emits in hexp and hlog.
func TestHalfSet(t *testing.T) {
	const path = "testdata/ptx/hand/half_set.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("half_set")
		require.NoError(t, err)
		const n = 64
		r := rand.New(rand.NewPCG(13, 14))
		special := []uint16{0, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x8001, 0x3c00, 0x7e00, 0x7fff, 0x7f80, 0xff81}
		half := func() uint32 {
			if r.IntN(3) == 0 {
				return uint32(special[r.IntN(len(special))])
			}
			return uint32(r.Uint32() & 0xffff)
		}
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = half()|half()<<16, half()|half()<<16
			if i%5 == 0 {
				b[i] = a[i]
			}
		}
		dev := runtime.NewDevice()
		out, err := dev.Malloc(32 * n)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(n), out, harness.Upload(t, dev, a), harness.Upload(t, dev, b)))
		got := harness.SemDownload(t, dev, out, 8*n)
		nan := func(x, y float64) bool { return x != x || y != y }
		bit := func(ok bool, one uint32) uint32 {
			if ok {
				return one
			}
			return 0
		}
		for i := range n {
			c := i&1 == 1
			x, y := a[i], b[i]
			lo := func(v uint32) uint16 { return uint16(v) }
			hi := func(v uint32) uint16 { return uint16(v >> 16) }
			f := func(h func(uint32) uint16, ftz bool) (float64, float64) {
				return halfSetF16(h(x), ftz), halfSetF16(h(y), ftz)
			}
			bf := func(h func(uint32) uint16) (float64, float64) { return halfSetBF16(h(x)), halfSetBF16(h(y)) }
			var want [8]uint32
			p, q := f(lo, false)
			want[0] = bit(p < q, 0x3c00)
			p, q = f(hi, true)
			want[1] = bit(p == q, 0xffffffff)
			p, q = f(lo, false)
			p2, q2 := f(hi, false)
			want[2] = bit(p >= q || c, 0x3c00) | bit(p2 >= q2 || c, 0x3c00)<<16
			want[3] = bit(nan(p, q) || p != q, 0xffff) | bit(nan(p2, q2) || p2 != q2, 0xffff)<<16
			p, q = bf(lo)
			p2, q2 = bf(hi)
			want[4] = bit(nan(p, q) || p > q, 0x3f80)
			want[5] = bit(p <= q && !c, 0xffff) | bit(p2 <= q2 && !c, 0xffff)<<16
			p, q = f(hi, false)
			want[6] = bit(nan(p, q), 0xffff)
			p, q = bf(lo)
			want[7] = bit(!nan(p, q) != c, 0x3f80) | bit(!nan(p2, q2) != c, 0x3f80)<<16
			if [8]uint32(got[8*i:8*i+8]) != want {
				t.Errorf("thread %d (a=%#08x, b=%#08x): %#x, want %#x", i, x, y, got[8*i:8*i+8], want)
			}
		}
	})
}
