package conformance_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// Atomics under conformance test: every atom/red operation and type of the ISA in global,
// shared and generic memory, row by row against a Go reference of the ISA semantics, and
// totals of many CTAs running in parallel.

// confAtomForm is one atom/red form: its PTX type, the operation and the reference.
type confAtomForm struct {
	op, typ string
	width   int
	ref     func(old, b, c uint64) uint64
}

func (f confAtomForm) name() string {
	if strings.Contains(f.typ, "16") && strings.Contains(f.typ, "f") && f.op == "add" {
		return "add.noftz." + f.typ
	}
	return f.op + "." + f.typ
}

// confAtomReg is the register type holding a value of the form's width.
func confAtomReg(width int) string { return fmt.Sprintf("b%d", width) }

// confAtomSource returns a kernel that runs the form once per row i < n (n a multiple of 256):
// row i updates slot i>>shift of mem (8 bytes per slot; a 16-bit value at byte 2*(slot&3), a
// 32-bit one at 4*(slot&1)) with operands b[i] and c[i], and stores the value atom returns in
// old[i]. space is "global", "shared" (the slots are copied to shared memory and back),
// "generic" (a global address without a space) or "generic-shared" (cvta of a shared address).
func confAtomSource(f confAtomForm, space string, red bool) string {
	reg := confAtomReg(f.width)
	var b strings.Builder
	b.WriteString(`.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 mem, .param .u64 bcol, .param .u64 ccol, .param .u64 oldcol, .param .u32 shift)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<24>;
`)
	fmt.Fprintf(&b, "\t.reg .%s %%v<4>;\n", reg)
	b.WriteString(`	.shared .align 8 .b8 sh[2048];
	mov.u32 %r0, %ctaid.x;
	mov.u32 %r1, %ntid.x;
	mov.u32 %r2, %tid.x;
	mad.lo.u32 %r3, %r0, %r1, %r2;
	ld.param.u32 %r4, [shift];
	shr.u32 %r5, %r3, %r4;
	shr.u32 %r6, %r2, %r4;
	mul.wide.u32 %rd0, %r3, 8;
	mul.wide.u32 %rd1, %r5, 8;
	mul.wide.u32 %rd2, %r6, 8;
`)
	switch f.width {
	case 16:
		b.WriteString("\tand.b32 %r7, %r5, 3;\n\tshl.b32 %r7, %r7, 1;\n")
	case 32:
		b.WriteString("\tand.b32 %r7, %r5, 1;\n\tshl.b32 %r7, %r7, 2;\n")
	default:
		b.WriteString("\tmov.u32 %r7, 0;\n")
	}
	b.WriteString(`	cvt.u64.u32 %rd3, %r7;
	ld.param.u64 %rd4, [mem];
	add.u64 %rd5, %rd4, %rd1;
	add.u64 %rd6, %rd5, %rd3;
	ld.param.u64 %rd7, [bcol];
	add.u64 %rd7, %rd7, %rd0;
	ld.param.u64 %rd8, [ccol];
	add.u64 %rd8, %rd8, %rd0;
	ld.param.u64 %rd9, [oldcol];
	add.u64 %rd9, %rd9, %rd0;
	mov.u64 %rd10, sh;
	add.u64 %rd11, %rd10, %rd2;
	add.u64 %rd12, %rd11, %rd3;
`)
	fmt.Fprintf(&b, "\tld.global.%s %%v1, [%%rd7];\n\tld.global.%s %%v2, [%%rd8];\n", reg, reg)
	shared := strings.Contains(space, "shared")
	if shared {
		b.WriteString("\tld.global.b64 %rd13, [%rd5];\n\tst.shared.b64 [%rd11], %rd13;\n\tbar.sync 0;\n")
	}
	addr, sp := "%rd6", ".global"
	switch space {
	case "shared":
		addr, sp = "%rd12", ".shared"
	case "generic":
		sp = ""
	case "generic-shared":
		b.WriteString("\tcvta.shared.u64 %rd14, %rd12;\n")
		addr, sp = "%rd14", ""
	}
	mods := "." + f.op
	if f.op == "add" && strings.Contains(f.typ, "16") && strings.HasPrefix(strings.TrimPrefix(f.typ, "b"), "f") {
		mods += ".noftz"
	}
	operands := "%v1"
	if f.op == "cas" {
		operands = "%v1, %v2"
	}
	if red {
		fmt.Fprintf(&b, "\tred%s%s.%s [%s], %s;\n\tmov.b%d %%v0, 0;\n", sp, mods, f.typ, addr, operands, f.width)
	} else {
		fmt.Fprintf(&b, "\tatom%s%s.%s %%v0, [%s], %s;\n", sp, mods, f.typ, addr, operands)
	}
	if shared {
		b.WriteString("\tbar.sync 0;\n\tld.shared.b64 %rd13, [%rd11];\n\tst.global.b64 [%rd5], %rd13;\n")
	}
	fmt.Fprintf(&b, "\tst.global.%s [%%rd9], %%v0;\n\tret;\n}\n", reg)
	return b.String()
}

// confAtomRun runs the form over the rows and checks every returned value and the final memory
// (all 8 bytes of every slot, so bytes next to a 16- or 32-bit value must be left alone)
// against the reference applied in row order.
func confAtomRun(t *testing.T, f confAtomForm, space string, red bool, shift uint, mem, bs, cs []uint64) {
	t.Helper()
	n := len(bs)
	require.Zero(t, n%256)
	src := confAtomSource(f, space, red)
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "atom.ptx"})
	require.NoError(t, err, "compiling:\n%s", src)
	k, err := mod.Kernel("k")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	up := func(s []uint64) runtime.Ptr {
		p, err := runtime.Upload(dev, s)
		require.NoError(t, err)
		return p
	}
	pm, pb, pc, po := up(mem), up(bs), up(cs), up(make([]uint64, n))
	cfg := runtime.LaunchConfig{Grid: runtime.D1(uint32(n / 256)), Block: runtime.D1(256), Workers: 4}
	require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, pm, pb, pc, po, uint32(shift)), "running:\n%s", src)
	gotMem := make([]uint64, len(mem))
	gotOld := make([]uint64, n)
	require.NoError(t, runtime.Download(dev, gotMem, pm))
	require.NoError(t, runtime.Download(dev, gotOld, po))

	want := slices.Clone(mem)
	wmask := uint64(math.MaxUint64)
	if f.width < 64 {
		wmask = 1<<f.width - 1
	}
	for i := range n {
		slot := i >> shift
		var off int
		switch f.width {
		case 16:
			off = 16 * (slot & 3)
		case 32:
			off = 32 * (slot & 1)
		}
		old := want[slot] >> off & wmask
		b, c := bs[i]&wmask, cs[i]&wmask
		nv := f.ref(old, b, c) & wmask
		want[slot] = want[slot]&^(wmask<<off) | nv<<off
		wantOld := old
		if red {
			wantOld = 0
		}
		require.Equal(t, wantOld, gotOld[i], "%s %s row %d: old %#x b %#x c %#x", f.name(), space, i, old, b, c)
	}
	for s := range want {
		require.Equal(t, want[s], gotMem[s], "%s %s: slot %d", f.name(), space, s)
	}
}

// confAtomEdges are interesting values of a width: zero, one, the sign boundary, all ones,
// and their neighbours.
func confAtomEdges(width int) []uint64 {
	top := uint64(1) << (width - 1)
	all := top | (top - 1)
	return []uint64{0, 1, 2, 3, top - 1, top, top + 1, all, all - 1, all - 2, 0x7f, 0x80, 0xff, 0x100, 1000}
}

// confAtomValues draws n values: edges, small numbers and random bits, masked to width.
func confAtomValues(r *rand.Rand, n, width int) []uint64 {
	edges := confAtomEdges(width)
	out := make([]uint64, n)
	for i := range out {
		var v uint64
		switch r.IntN(4) {
		case 0:
			v = edges[r.IntN(len(edges))]
		case 1:
			v = r.Uint64N(40)
		default:
			v = r.Uint64()
		}
		if width < 64 {
			v &= 1<<width - 1
		}
		out[i] = v
	}
	return out
}

func confAtomSigned(v uint64, width int) int64 { return int64(v<<(64-width)) >> (64 - width) }

// confAtomIntForms are the integer and bit forms with their ISA semantics.
func confAtomIntForms() []confAtomForm {
	var forms []confAtomForm
	for _, w := range []int{32, 64} {
		forms = append(forms,
			confAtomForm{"and", fmt.Sprintf("b%d", w), w, func(o, b, _ uint64) uint64 { return o & b }},
			confAtomForm{"or", fmt.Sprintf("b%d", w), w, func(o, b, _ uint64) uint64 { return o | b }},
			confAtomForm{"xor", fmt.Sprintf("b%d", w), w, func(o, b, _ uint64) uint64 { return o ^ b }},
			confAtomForm{"exch", fmt.Sprintf("b%d", w), w, func(_, b, _ uint64) uint64 { return b }},
			confAtomForm{"min", fmt.Sprintf("u%d", w), w, func(o, b, _ uint64) uint64 { return min(o, b) }},
			confAtomForm{"max", fmt.Sprintf("u%d", w), w, func(o, b, _ uint64) uint64 { return max(o, b) }},
			confAtomForm{"min", fmt.Sprintf("s%d", w), w, func(o, b, _ uint64) uint64 {
				if confAtomSigned(o, w) < confAtomSigned(b, w) {
					return o
				}
				return b
			}},
			confAtomForm{"max", fmt.Sprintf("s%d", w), w, func(o, b, _ uint64) uint64 {
				if confAtomSigned(o, w) > confAtomSigned(b, w) {
					return o
				}
				return b
			}},
		)
	}
	for _, w := range []int{16, 32, 64} {
		forms = append(forms, confAtomForm{"cas", fmt.Sprintf("b%d", w), w, func(o, b, c uint64) uint64 {
			if o == b {
				return c
			}
			return o
		}})
	}
	return append(forms,
		confAtomForm{"add", "u32", 32, func(o, b, _ uint64) uint64 { return o + b }},
		confAtomForm{"add", "s32", 32, func(o, b, _ uint64) uint64 { return o + b }},
		confAtomForm{"add", "u64", 64, func(o, b, _ uint64) uint64 { return o + b }},
		// inc: (old >= b) ? 0 : old+1; dec: (old == 0 || old > b) ? b : old-1 (unsigned).
		confAtomForm{"inc", "u32", 32, func(o, b, _ uint64) uint64 {
			if o >= b {
				return 0
			}
			return o + 1
		}},
		confAtomForm{"dec", "u32", 32, func(o, b, _ uint64) uint64 {
			if o == 0 || o > b {
				return b
			}
			return o - 1
		}},
	)
}

// TestConfAtomInt runs every integer form in every space, one row per slot (random old values)
// and 32 lanes per slot (a warp's lanes update one address in lane order), for atom and red.
func TestConfAtomInt(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 0xa70))
	const n = 256 * 16
	for _, f := range confAtomIntForms() {
		bs := confAtomValues(r, n, f.width)
		cs := confAtomValues(r, n, f.width)
		if f.op == "cas" {
			// Make about half of the compares succeed.
			for i := range bs {
				if r.IntN(2) == 0 {
					bs[i] = cs[(i+n-1)%n]
				}
			}
		}
		for _, space := range []string{"global", "shared", "generic", "generic-shared"} {
			for _, shift := range []uint{0, 5} {
				mem := confAtomValues(r, n, 64)
				if f.op == "cas" && shift == 0 {
					for i := range n {
						if r.IntN(2) == 0 {
							off := 0
							switch f.width {
							case 16:
								off = 16 * (i & 3)
							case 32:
								off = 32 * (i & 1)
							}
							wm := uint64(math.MaxUint64)
							if f.width < 64 {
								wm = 1<<f.width - 1
							}
							mem[i] = mem[i]&^(wm<<off) | bs[i]&wm<<off
						}
					}
				}
				confAtomRun(t, f, space, false, shift, mem, bs, cs)
				if f.op != "cas" && f.op != "exch" && space == "global" {
					confAtomRun(t, f, space, true, shift, slices.Clone(mem), bs, cs)
				}
			}
		}
	}
}

// confAtomHalf is an independent reference for 16-bit float addition: the values of a format
// in a table indexed by bit pattern, and rounding of the exact sum to the nearest entry.
type confAtomHalf struct {
	decode func(uint16) float64
	maxFin uint16    // largest finite bit pattern
	table  []float64 // table[k] = value of bit pattern k, k <= maxFin
}

func confAtomF16() *confAtomHalf {
	h := &confAtomHalf{maxFin: 0x7bff, decode: func(v uint16) float64 {
		e := int(v >> 10 & 0x1f)
		m := float64(v & 0x3ff)
		var x float64
		switch {
		case e == 0x1f && m != 0:
			x = math.NaN()
		case e == 0x1f:
			x = math.Inf(1)
		case e == 0:
			x = m * math.Pow(2, -24)
		default:
			x = (1 + m/1024) * math.Pow(2, float64(e-15))
		}
		if v&0x8000 != 0 {
			x = -x
		}
		return x
	}}
	return h.fill()
}

func confAtomBF16() *confAtomHalf {
	h := &confAtomHalf{maxFin: 0x7f7f, decode: func(v uint16) float64 {
		return float64(math.Float32frombits(uint32(v) << 16))
	}}
	return h.fill()
}

func (h *confAtomHalf) fill() *confAtomHalf {
	for k := 0; k <= int(h.maxFin); k++ {
		h.table = append(h.table, h.decode(uint16(k)))
	}
	return h
}

// add is the ISA's .noftz addition: the exact sum rounded to nearest even, subnormals kept,
// overflow to infinity, NaN results canonical (0x7fff).
func (h *confAtomHalf) add(x, y uint16) uint16 {
	a, b := h.decode(x), h.decode(y)
	inf := h.maxFin + 1
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) && math.IsInf(b, 0) && a != b:
		return 0x7fff
	case math.IsInf(a, 0):
		return x
	case math.IsInf(b, 0):
		return y
	}
	sum := new(big.Float).SetPrec(400).SetFloat64(a)
	sum.Add(sum, new(big.Float).SetPrec(400).SetFloat64(b))
	if sum.Sign() == 0 {
		if x&y&0x8000 != 0 {
			return 0x8000
		}
		return 0
	}
	var sign uint16
	if sum.Sign() < 0 {
		sign = 0x8000
		sum.Neg(sum)
	}
	z, _ := sum.Float64() // only for the search; comparisons use the exact sum
	k := sort.Search(len(h.table), func(i int) bool { return h.table[i] > z }) - 1
	if k < 0 {
		k = 0
	}
	lo := k
	var hiVal float64
	if lo == int(h.maxFin) {
		// Above the largest finite value the next step is the infinity threshold.
		hiVal = h.table[lo] + (h.table[lo] - h.table[lo-1])
	} else {
		hiVal = h.table[lo+1]
	}
	mid := new(big.Float).SetPrec(400).SetFloat64((h.table[lo] + hiVal) / 2)
	hi := uint16(lo + 1)
	switch c := sum.Cmp(mid); {
	case c < 0 || c == 0 && lo%2 == 0:
		return sign | uint16(lo)
	default:
		if hi > h.maxFin {
			return sign | inf
		}
		return sign | hi
	}
}

// confAtomAddF32 is atom.add.f32: subnormal inputs and results flushed to sign-preserving zero,
// the exact sum rounded to nearest even, a NaN result canonical.
func confAtomAddF32(o, b uint64) uint64 {
	ftz := func(v uint32) uint32 {
		if v&0x7f800000 == 0 {
			return v & 0x80000000
		}
		return v
	}
	x, y := ftz(uint32(o)), ftz(uint32(b))
	fx, fy := float64(math.Float32frombits(x)), float64(math.Float32frombits(y))
	switch {
	case math.IsNaN(fx) || math.IsNaN(fy) || math.IsInf(fx, 0) && math.IsInf(fy, 0) && fx != fy:
		return 0x7fffffff
	case math.IsInf(fx, 0):
		return uint64(x)
	case math.IsInf(fy, 0):
		return uint64(y)
	}
	sum := new(big.Float).SetPrec(400).SetFloat64(fx)
	sum.Add(sum, new(big.Float).SetPrec(400).SetFloat64(fy))
	if sum.Sign() == 0 {
		return uint64(x & y & 0x80000000)
	}
	r, _ := sum.Float32()
	return uint64(ftz(math.Float32bits(r)))
}

// confAtomAddF64 is atom.add.f64: the exact sum rounded to nearest even, subnormals kept.
func confAtomAddF64(o, b uint64) uint64 {
	fx, fy := math.Float64frombits(o), math.Float64frombits(b)
	switch {
	case math.IsNaN(fx) || math.IsNaN(fy) || math.IsInf(fx, 0) && math.IsInf(fy, 0) && fx != fy:
		return 0x7fffffffffffffff
	case math.IsInf(fx, 0):
		return o
	case math.IsInf(fy, 0):
		return b
	}
	sum := new(big.Float).SetPrec(2200).SetFloat64(fx)
	sum.Add(sum, new(big.Float).SetPrec(2200).SetFloat64(fy))
	if sum.Sign() == 0 {
		return o & b & (1 << 63)
	}
	r, _ := sum.Float64()
	return math.Float64bits(r)
}

// confAtomFloatBits draws float bit patterns of a width: specials, subnormals, near-overflow
// values, values of close exponents (so that sums round) and random bits.
func confAtomFloatBits(r *rand.Rand, n, width int) []uint64 {
	var exp, frac int
	switch width {
	case 16:
		exp, frac = 5, 10
	case 32:
		exp, frac = 8, 23
	default:
		exp, frac = 11, 52
	}
	out := make([]uint64, n)
	for i := range out {
		var v uint64
		sign := r.Uint64N(2) << (width - 1)
		switch r.IntN(6) {
		case 0: // specials: zeros, infinities, NaNs with payloads, the largest finite
			specials := []uint64{0, uint64(1<<exp-1) << frac, uint64(1<<exp-1)<<frac | 1, uint64(1<<exp-1)<<frac | 1<<(frac-1),
				uint64(1<<exp-1)<<frac - 1}
			v = specials[r.IntN(len(specials))]
		case 1: // subnormals
			v = r.Uint64N(1 << frac)
		case 2: // the smallest normals
			v = 1<<frac | r.Uint64N(1<<frac)
		case 3: // exponents near one
			v = uint64((1<<(exp-1))-2+r.IntN(4))<<frac | r.Uint64N(1<<frac)
		default:
			v = r.Uint64()
		}
		if width < 64 {
			v &= 1<<width - 1
		}
		out[i] = v | sign
	}
	return out
}

// TestConfAtomFloat runs add.f32 and add.f64 in every space against big.Float references.
func TestConfAtomFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0xf1))
	const n = 256 * 48
	forms := []confAtomForm{
		{"add", "f32", 32, func(o, b, _ uint64) uint64 { return confAtomAddF32(o, b) }},
		{"add", "f64", 64, func(o, b, _ uint64) uint64 { return confAtomAddF64(o, b) }},
	}
	for _, f := range forms {
		for _, space := range []string{"global", "shared", "generic", "generic-shared"} {
			for _, shift := range []uint{0, 5} {
				mem := confAtomFloatBits(r, n, 64)
				if f.width == 32 {
					lo := confAtomFloatBits(r, n, 32)
					hi := confAtomFloatBits(r, n, 32)
					for i := range mem {
						mem[i] = hi[i]<<32 | lo[i]
					}
				}
				bs := confAtomFloatBits(r, n, f.width)
				confAtomRun(t, f, space, false, shift, mem, bs, bs)
				if space == "global" {
					confAtomRun(t, f, space, true, shift, slices.Clone(mem), bs, bs)
				}
			}
		}
	}
}

// TestConfAtomHalf runs add.noftz.{f16,bf16} with every 16-bit old value against a set of
// operands, and the packed x2 forms on random pairs, in global and shared memory.
func TestConfAtomHalf(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 0x16))
	refs := map[string]*confAtomHalf{"f16": confAtomF16(), "bf16": confAtomBF16()}
	for _, name := range []string{"f16", "bf16"} {
		h := refs[name]
		scalar := confAtomForm{"add", name, 16, func(o, b, _ uint64) uint64 { return uint64(h.add(uint16(o), uint16(b))) }}
		pair := confAtomForm{"add", name + "x2", 32, func(o, b, _ uint64) uint64 {
			return uint64(h.add(uint16(o>>16), uint16(b>>16)))<<16 | uint64(h.add(uint16(o), uint16(b)))
		}}
		// Exhaustive: every old value (one per slot, four slots per 8-byte word) with 12 operands.
		operands := []uint64{0, 0x8000, 0x0001, 0x8001, uint64(h.maxFin), uint64(h.maxFin) | 0x8000, uint64(h.maxFin) + 1, 0x7fff}
		for len(operands) < 12 {
			operands = append(operands, r.Uint64N(1<<16))
		}
		for _, space := range []string{"global", "shared"} {
			for _, op := range operands {
				const n = 1 << 16
				mem := make([]uint64, n/4)
				for i := range mem {
					for k := range 4 {
						mem[i] |= uint64(4*i+k) << (16 * k)
					}
				}
				// Row i updates slot i, which holds value i: the 16-bit value at 2*(i&3) of word i>>2.
				bs := make([]uint64, n)
				for i := range bs {
					bs[i] = op
				}
				confAtomHalfRun(t, scalar, space, mem, bs)
			}
			const n = 256 * 32
			lo, hi := confAtomFloatBits(r, n, 16), confAtomFloatBits(r, n, 16)
			blo, bhi := confAtomFloatBits(r, n, 16), confAtomFloatBits(r, n, 16)
			mem := make([]uint64, n)
			bs := make([]uint64, n)
			for i := range n {
				if name == "bf16" {
					// Reuse f16 bit patterns but spread over bf16's exponents too.
					lo[i] ^= r.Uint64N(1<<15) & 0x7f80
					blo[i] ^= r.Uint64N(1<<15) & 0x7f80
				}
				mem[i] = r.Uint64()<<32 | hi[i]<<16 | lo[i]
				bs[i] = bhi[i]<<16 | blo[i]
			}
			confAtomRun(t, pair, space, false, 0, mem, bs, bs)
			confAtomRun(t, pair, space, false, 5, mem, bs, bs)
			if space == "global" {
				confAtomRun(t, pair, space, true, 0, slices.Clone(mem), bs, bs)
			}
		}
	}
}

// confAtomHalfRun runs a 16-bit form where 4 consecutive rows share one 8-byte word (rows
// are slots 4w..4w+3, at bytes 0, 2, 4, 6): confAtomRun with a row per 16-bit slot.
func confAtomHalfRun(t *testing.T, f confAtomForm, space string, words, bs []uint64) {
	t.Helper()
	// confAtomRun puts slot s at byte 2*(s&3) of word s; spread the packed words out.
	n := len(bs)
	mem := make([]uint64, n)
	for s := range n {
		mem[s] = words[s/4] // the other three 16-bit values of each word act as neighbours
	}
	confAtomRun(t, f, space, false, 0, mem, bs, bs)
}

// confAtomTotalsPTX is a kernel in which every thread of a grid hits shared counters with
// every kind of atomic; the totals are exact whatever the order.
const confAtomTotalsPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry totals(.param .u64 ctr, .param .u64 olds)
{
	.reg .pred %p<4>;
	.reg .b16 %h<8>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<32>;
	.reg .f32 %f<4>;
	.reg .f64 %fd<4>;
	.shared .align 8 .b8 sh[16];
	mov.u32 %r0, %ctaid.x;
	mov.u32 %r1, %ntid.x;
	mov.u32 %r2, %tid.x;
	mad.lo.u32 %r3, %r0, %r1, %r2;           // i
	cvt.u64.u32 %rd1, %r3;
	ld.param.u64 %rd0, [ctr];
	setp.eq.u32 %p0, %r2, 0;
	@%p0 st.shared.u32 [sh], 0;
	bar.sync 0;
	atom.global.add.u32 %r4, [%rd0], 1;                         // slot 0: N
	atom.global.add.u64 %rd2, [%rd0+8], %rd1;                   // slot 1: sum i
	neg.s32 %r5, %r3;
	red.global.add.s32 [%rd0+16], %r5;                          // slot 2: -sum i
	atom.global.add.f32 %f0, [%rd0+24], 0f3F800000;             // slot 3: N as f32
	cvt.rn.f64.u32 %fd0, %r3;
	mul.f64 %fd0, %fd0, 0d3FE0000000000000;
	red.global.add.f64 [%rd0+32], %fd0;                         // slot 4: sum i/2
	sub.s32 %r6, %r3, 5000;
	atom.global.min.s32 %r7, [%rd0+40], %r6;                    // slot 5: -5000
	mul.wide.u32 %rd3, %r3, %r3;
	atom.global.max.u64 %rd4, [%rd0+48], %rd3;                  // slot 6: (N-1)^2
	atom.global.inc.u32 %r8, [%rd0+56], 1000;                   // slot 7: N mod 1001
	red.global.dec.u32 [%rd0+64], 77;                           // slot 8: -N mod 78
	and.b32 %r9, %r3, 63;
	shl.b64 %rd5, 1, %r9;
	atom.global.or.b64 %rd6, [%rd0+72], %rd5;                   // slot 9: all ones
	red.global.xor.b32 [%rd0+80], %r3;                          // slot 10: xor i
	and.b32 %r10, %r3, 31;
	shl.b32 %r11, 1, %r10;
	not.b32 %r11, %r11;
	atom.global.and.b32 %r12, [%rd0+88], %r11;                  // slot 11: 0 (starts all ones)
CAS:                                                            // slot 12: 3N by a CAS loop
	ld.relaxed.gpu.global.u32 %r13, [%rd0+96];
	add.u32 %r14, %r13, 3;
	atom.acq_rel.gpu.global.cas.b32 %r15, [%rd0+96], %r13, %r14;
	setp.ne.u32 %p1, %r15, %r13;
	@%p1 bra CAS;
	and.b32 %r16, %r3, 1;                                       // slot 13: two 16-bit counters
	mul.wide.u32 %rd7, %r16, 2;
	add.u64 %rd8, %rd0, %rd7;
	mov.b16 %h6, 0;
CAS16:
	atom.global.cas.b16 %h0, [%rd8+104], %h6, %h6;              // an atomic read
	add.u16 %h1, %h0, 1;
	atom.global.cas.b16 %h2, [%rd8+104], %h0, %h1;
	setp.ne.u16 %p2, %h2, %h0;
	@%p2 bra CAS16;
	and.b32 %r17, %r3, 15;                                      // slots 14-17: 16 f16 sums of 1
	mul.wide.u32 %rd9, %r17, 2;
	add.u64 %rd10, %rd0, %rd9;
	mov.b16 %h3, 0x3C00;
	atom.global.add.noftz.f16 %h4, [%rd10+112], %h3;
	and.b32 %r18, %r3, 63;                                      // slots 18-33: 64 bf16 sums of 1
	mul.wide.u32 %rd11, %r18, 2;
	add.u64 %rd12, %rd0, %rd11;
	mov.b16 %h5, 0x3F80;
	red.global.add.noftz.bf16 [%rd12+144], %h5;
	mul.wide.u32 %rd13, %r17, 4;                                // slots 34-41: 16 f16x2 sums of (1, 0.5)
	add.u64 %rd14, %rd0, %rd13;
	atom.global.add.noftz.f16x2 %r19, [%rd14+272], 0x38003C00;
	mul.wide.u32 %rd15, %r18, 4;                                // slots 42-73: 64 bf16x2 sums of (1, 0.5)
	add.u64 %rd16, %rd0, %rd15;
	red.relaxed.gpu.global.add.noftz.bf16x2 [%rd16+336], 0x3F003F80;
	add.u32 %r20, %r3, 1;                                       // slot 74: exchange chain
	atom.global.exch.b32 %r21, [%rd0+592], %r20;
	ld.param.u64 %rd17, [olds];
	mul.wide.u32 %rd18, %r3, 4;
	add.u64 %rd18, %rd17, %rd18;
	st.global.u32 [%rd18], %r21;
	add.u64 %rd19, %rd0, 600;                                   // slot 75: generic address of global
	atom.add.u32 %r22, [%rd19], 1;
	atom.shared.add.u32 %r23, [sh], 1;                          // slot 76: shared, then generic shared
	mov.u64 %rd20, sh;
	cvta.shared.u64 %rd21, %rd20;
	atom.add.u32 %r24, [%rd21], 1;
	bar.sync 0;
	@%p0 ld.shared.u32 %r25, [sh];
	@%p0 red.global.add.u32 [%rd0+608], %r25;
	red.release.sys.global.add.u64 [%rd0+616], 2;               // slot 77: 2N
	createpolicy.fractional.L2::evict_last.b64 %rd22, 1.0;
	atom.global.L2::cache_hint.add.u32 %r26, [%rd0+624], 1, %rd22;  // slot 78: N
	ret;
}
`

// TestConfAtomTotals runs 64 CTAs of 256 threads on 8 workers, all updating the same global
// counters, and checks the exact totals.
func TestConfAtomTotals(t *testing.T) {
	mod, err := ptx2go.Compile([]byte(confAtomTotalsPTX), ptx2go.Options{File: "totals.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("totals")
	require.NoError(t, err)
	const ctas, block = 64, 256
	const n = ctas * block
	for round := range 3 {
		dev := runtime.NewDevice()
		init := make([]uint64, 80)
		init[11] = 0xffffffff
		ctr, err := runtime.Upload(dev, init)
		require.NoError(t, err)
		olds, err := runtime.Upload(dev, make([]uint32, n))
		require.NoError(t, err)
		cfg := runtime.LaunchConfig{Grid: runtime.D1(ctas), Block: runtime.D1(block), Workers: 8}
		require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, ctr, olds))
		got := make([]uint64, 80)
		require.NoError(t, runtime.Download(dev, got, ctr))
		sum := uint64(n) * (n - 1) / 2
		var xor uint32
		for i := range uint32(n) {
			xor ^= i
		}
		msg := fmt.Sprintf("round %d", round)
		require.Equal(t, uint64(n), got[0], msg)
		require.Equal(t, sum, got[1], msg)
		require.Equal(t, uint64(uint32(-int32(sum))), got[2], msg)
		require.Equal(t, uint64(math.Float32bits(n)), got[3], msg)
		require.Equal(t, math.Float64bits(float64(sum)/2), got[4], msg)
		require.Equal(t, uint64(math.MaxUint32-4999), got[5], msg)
		require.Equal(t, uint64(n-1)*(n-1), got[6], msg)
		require.Equal(t, uint64(n%1001), got[7], msg)
		require.Equal(t, uint64((78-n%78)%78), got[8], msg)
		require.Equal(t, uint64(math.MaxUint64), got[9], msg)
		require.Equal(t, uint64(xor), got[10], msg)
		require.Equal(t, uint64(0), got[11], msg)
		require.Equal(t, uint64(3*n), got[12], msg)
		require.Equal(t, uint64(n/2)<<16|n/2, got[13], msg)
		for s := 14; s < 18; s++ { // 16 f16 values of 1024.0 (0x6400)
			require.Equal(t, uint64(0x6400_6400_6400_6400), got[s], "%s slot %d", msg, s)
		}
		for s := 18; s < 34; s++ { // 64 bf16 values of 256.0 (0x4380)
			require.Equal(t, uint64(0x4380_4380_4380_4380), got[s], "%s slot %d", msg, s)
		}
		for s := 34; s < 42; s++ { // f16x2 (1024.0, 512.0)
			require.Equal(t, uint64(0x6000_6400_6000_6400), got[s], "%s slot %d", msg, s)
		}
		for s := 42; s < 74; s++ { // bf16x2 (256.0, 128.0)
			require.Equal(t, uint64(0x4300_4380_4300_4380), got[s], "%s slot %d", msg, s)
		}
		// The exchanged values form one chain: every old value but one final value is seen once.
		oldVals := make([]uint32, n)
		require.NoError(t, runtime.Download(dev, oldVals, olds))
		seen := append(oldVals, uint32(got[74]))
		slices.Sort(seen)
		for i, v := range seen {
			require.Equal(t, uint32(i), v, "%s exch chain", msg)
		}
		require.Equal(t, uint64(n), got[75], msg)
		require.Equal(t, uint64(2*n), got[76], msg)
		require.Equal(t, uint64(2*n), got[77], msg)
		require.Equal(t, uint64(n), got[78], msg)
	}
}

// TestConfAtomRejected checks that forms outside the ISA's table are compile errors.
func TestConfAtomRejected(t *testing.T) {
	for _, bad := range []string{
		"atom.global.add.s64 %rd1, [%rd0], %rd2;",
		"atom.global.add.f16 %h1, [%rd0], %h2;",
		"atom.global.add.noftz.f32 %f1, [%rd0], %f2;",
		"atom.local.add.u32 %r1, [%rd0], %r2;",
		"atom.const.add.u32 %r1, [%rd0], %r2;",
		"atom.global.inc.s32 %r1, [%rd0], %r2;",
		"atom.global.and.u32 %r1, [%rd0], %r2;",
		"atom.global.min.f32 %f1, [%rd0], %f2;",
		"atom.global.cas.b8 %r1, [%rd0], %r2, %r3;",
		"atom.global.exch.b16 %h1, [%rd0], %h2;",
		"red.global.cas.b32 [%rd0], %r2, %r3;",
		"red.global.exch.b32 [%rd0], %r2;",
		"red.acquire.gpu.global.add.u32 [%rd0], %r2;",
		"atom.relaxed.acquire.global.add.u32 %r1, [%rd0], %r2;",
		"atom.global.cta.gpu.add.u32 %r1, [%rd0], %r2;",
		"atom.global.add.add.u32 %r1, [%rd0], %r2;",
		"ld.relaxed.global.u32 %r1, [%rd0];",
		"ld.global.L2::cache_hint.u32 %r1, [%rd0];",
		"ld.global.u32 %r1, [%rd0], %rd2;",
		"st.global.nc.u32 [%rd0], %r1;",
		"ld.release.gpu.global.u32 %r1, [%rd0];",
		"st.acquire.gpu.global.u32 [%rd0], %r1;",
		"ld.global.wb.u32 %r1, [%rd0];",
		"ld.weak.relaxed.gpu.global.u32 %r1, [%rd0];",
		"ld.volatile.gpu.global.u32 %r1, [%rd0];",
		"ld.mmio.global.u32 %r1, [%rd0];",
		"ldu.shared.u32 %r1, [%rd0];",
		"ld.shared.nc.u32 %r1, [%rd0];",
		"prefetchu.L2 [%rd0];",
		"prefetch.shared.L1 [%rd0];",
		"prefetch.global [%rd0];",
		"isspacep.global.shared %p1, %rd0;",
	} {
		src := ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" +
			".reg .pred %p<2>;\n.reg .b16 %h<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n" + bad + "\nret;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "bad.ptx:", bad)
	}
}

// TestConfAtomQualifiers compiles and runs loads, stores, fences and prefetches with every
// memory-order and cache qualifier, checking the values moved.
func TestConfAtomQualifiers(t *testing.T) {
	var body strings.Builder
	loads := []string{"", ".weak", ".volatile", ".relaxed.cta", ".relaxed.cluster", ".relaxed.gpu", ".relaxed.sys",
		".acquire.cta", ".acquire.gpu", ".acquire.sys", ".mmio.relaxed.sys"}
	cacheLd := []string{"", ".ca", ".cg", ".cs", ".lu", ".cv", ".L1::evict_normal", ".L1::evict_unchanged",
		".L1::evict_first", ".L1::evict_last", ".L1::no_allocate", ".L2::evict_first", ".L2::evict_last",
		".L2::64B", ".L2::128B", ".L2::256B", ".L1::evict_last.L2::256B"}
	stores := []string{"", ".weak", ".volatile", ".relaxed.cta", ".relaxed.gpu", ".release.cluster", ".release.sys", ".mmio.relaxed.sys"}
	cacheSt := []string{"", ".wb", ".cg", ".cs", ".wt", ".L1::evict_normal", ".L1::no_allocate", ".L2::evict_last"}
	// Each step copies in[k] to out[k] with a different qualifier set: out[k] = in[k] + k.
	k := 0
	emit := func(ld, st string, hintLd, hintSt bool) {
		ldOps, stOps := "", ""
		if hintLd {
			ld += ".L2::cache_hint"
			ldOps = ", %rd9"
		}
		if hintSt {
			st += ".L2::cache_hint"
			stOps = ", %rd9"
		}
		fmt.Fprintf(&body, "\tld%s.u32 %%r1, [%%rd1+%d]%s;\n\tadd.u32 %%r1, %%r1, %d;\n\tst%s.u32 [%%rd2+%d], %%r1%s;\n",
			ld, 4*k, ldOps, k, st, 4*k, stOps)
		k++
	}
	for _, l := range loads {
		for _, c := range cacheLd {
			if strings.HasPrefix(l, ".mmio") || l == ".volatile" {
				c = ""
			}
			emit(l+".global"+c, stores[k%len(stores)]+".global"+cacheSt[k%len(cacheSt)], k%3 == 0, k%5 == 0)
		}
	}
	for _, c := range []string{"", ".L1::evict_last", ".L2::128B", ".L1::no_allocate.L2::256B"} {
		emit(".global.nc"+c, ".global", false, false)
		emit(".global.nc"+c, ".global", true, false)
	}
	emit("u.global", ".global", false, false)
	emit("u", "", false, false)
	steps := k
	vec := (k + 3) &^ 3 // 16-byte aligned
	fmt.Fprintf(&body, "\tld.global.nc.v2.u32 {%%r1, %%r2}, [%%rd1+%d];\n\tst.global.wt.v2.u32 [%%rd2+%d], {%%r2, %%r1};\n", 4*vec, 4*vec)
	fmt.Fprintf(&body, "\tld.relaxed.gpu.global.L2::cache_hint.v4.u32 {%%r1, %%r2, %%r3, %%r4}, [%%rd1+%d], %%rd9;\n", 4*vec+16)
	fmt.Fprintf(&body, "\tst.release.gpu.global.L1::no_allocate.L2::cache_hint.v4.u32 [%%rd2+%d], {%%r4, %%r3, %%r2, %%r1}, %%rd9;\n", 4*vec+16)
	src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry q(.param .u64 in, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u64 %rd9, 0;
	fence.sc.cta;
	fence.sc.gpu;
	fence.acq_rel.cluster;
	fence.acq_rel.sys;
	fence.proxy.alias;
	fence.proxy.async;
	fence.proxy.async.global;
	fence.proxy.async.shared::cta;
	membar.cta;
	membar.gl;
	membar.sys;
	prefetch.global.L1 [%rd1];
	prefetch.global.L2 [%rd1];
	prefetch.local.L1 [%rd1];
	prefetch.L2 [%rd1];
	prefetch.global.L2::evict_last [%rd1];
	prefetch.global.L2::evict_normal [%rd1];
	prefetchu.L1 [%rd1];
	prefetch.global.L2 [0];
` + body.String() + "\tret;\n}\n"
	// The kernel is also testdata/ptx/hand/mem_qualifiers.ptx, so that the Go source back end
	// runs it too (generated/hand_mem_qualifiers).
	const path = "testdata/ptx/hand/mem_qualifiers.ptx"
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(string(file), src), "%s is not the kernel this test writes:\n%s", path, src)
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		kq, err := mod.Kernel("q")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		words := vec + 8
		in := make([]uint32, words)
		for i := range in {
			in[i] = uint32(i*0x01010101 + 7)
		}
		pin, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		pout, err := runtime.Upload(dev, make([]uint32, words))
		require.NoError(t, err)
		require.NoError(t, kq.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), pin, pout))
		got := make([]uint32, words)
		require.NoError(t, runtime.Download(dev, got, pout))
		for i := range steps {
			require.Equal(t, in[i]+uint32(i), got[i], "step %d", i)
		}
		require.Equal(t, []uint32{in[vec+1], in[vec]}, got[vec:vec+2])
		require.Equal(t, []uint32{in[vec+7], in[vec+6], in[vec+5], in[vec+4]}, got[vec+4:vec+8])
	})
}

// TestConfAtomIsspacep checks isspacep on generic addresses of every space and cvta both ways
// (testdata/ptx/hand/isspacep.ptx), on both engines.
func TestConfAtomIsspacep(t *testing.T) {
	const path = "testdata/ptx/hand/isspacep.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		testIsspacep(t, path)
	})
}

func testIsspacep(t *testing.T, path string) {
	mod, err := harness.LoadModule(t, path)
	require.NoError(t, err)
	ks, err := mod.Kernel("s")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	out, err := runtime.Upload(dev, make([]uint32, 64))
	require.NoError(t, err)
	buf, err := runtime.Upload(dev, make([]uint32, 4))
	require.NoError(t, err)
	require.NoError(t, ks.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(1), out, buf))
	got := make([]uint32, 64)
	require.NoError(t, runtime.Download(dev, got, out))
	// Rows: the addresses; columns: global, const, shared x3, local, param x2.
	want := [][]uint32{
		{1, 0, 0, 0, 0, 0, 0, 0}, // a device allocation
		{1, 0, 0, 0, 0, 0, 0, 0}, // a .global variable
		{0, 1, 0, 0, 0, 0, 0, 0}, // a .const variable
		{0, 0, 1, 1, 1, 0, 0, 0}, // a .shared variable
		{0, 0, 0, 0, 0, 1, 0, 0}, // a .local variable
		{0, 1, 0, 0, 0, 0, 0, 0}, // the last byte of the .const variable
	}
	for a, row := range want {
		require.Equal(t, row, got[8*a:8*a+8], "address %d", a)
	}
	require.Equal(t, uint32(1), got[48], "isspacep.shared on a 32-bit register")
	require.Equal(t, uint32(1), got[49], "cvta round trips")
	require.Equal(t, uint32(0x100f0e0d), got[50], "load through a generic const address")
}

// TestHints runs testdata/ptx/hand/hints.ptx, whose prefetch, prefetchu, nanosleep and pmevent
// (one prefetch of an address nothing is allocated at) only hint the hardware, on both engines:
// the arithmetic around them must be all that shows, on full and partial warps; and its brk,
// whose guarded brkpt must stop the launch with a breakpoint fault at the first lane.
func TestHints(t *testing.T) {
	const path = "testdata/ptx/hand/hints.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("hints")
		require.NoError(t, err)
		for _, n := range []int{64, 40} {
			in := make([]uint32, n)
			for i := range in {
				in[i] = uint32(i*2654435761) ^ 0x9e37
			}
			dev := runtime.NewDevice()
			pin, err := runtime.Upload(dev, in)
			require.NoError(t, err)
			out, err := dev.Malloc(4 * n)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(n)), out, pin))
			got := make([]uint32, n)
			require.NoError(t, runtime.Download(dev, got, out))
			for i, x := range in {
				require.Equal(t, x*3+1, got[i], "%d threads: out[%d]", n, i)
			}
		}
		kb, err := mod.Kernel("brk")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 32)
		require.NoError(t, err)
		err = kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out)
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultBreakpoint, Kernel: "brk", Loc: harness.FaultLocIn(t, path, "brkpt"),
			Thread: runtime.Dim3{X: 9}})
	})
}
