package closure

import (
	"math/bits"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// Half precision: .f16 and .bf16 values live in the low 16 bits of a register slot, .f16x2 and
// .bf16x2 in the low 32 bits with the first element in bits 0-15. The scalar semantics are the
// functions of runtime/isa; this file resolves modifiers and lanes at build time.

// isHalf reports whether t is a 16-bit float type, scalar or packed.
func isHalf(t frontend.Type) bool {
	return t == frontend.F16 || t == frontend.F16x2 || t == frontend.BF16 || t == frontend.BF16x2
}

// isBF16 reports whether t is .bf16 or .bf16x2.
func isBF16(t frontend.Type) bool { return t == frontend.BF16 || t == frontend.BF16x2 }

// isHalfPacked reports whether t holds two 16-bit lanes.
func isHalfPacked(t frontend.Type) bool { return t == frontend.F16x2 || t == frontend.BF16x2 }

// halfSrc returns the register of a source operand of a half-precision instruction. The ISA
// defines no immediate operands for them (ptxas rejects `max.bf16x2 d, 0, b`), so immediates
// of a 16-bit float type are rejected (by the table of forms) rather than given a guessed
// meaning.
func (e *emitter) halfSrc(a ssa.Arg, t frontend.Type) int {
	if isHalf(t) && (a.Kind == ssa.ArgFloat || a.Kind == ssa.ArgImm) {
		e.errorf("immediate operand for a %s instruction", t)
		return 0
	}
	return e.src(a, t)
}

// halfFn is an operation on one 16-bit lane with up to three operands.
type halfFn func(a, b, c uint16) uint16

// halfLanes applies op to each active lane: once for a scalar type, to both halves
// independently for a packed one.
func halfLanes(d, a, b, c int, packed bool, op halfFn) runtime.Instr {
	if !packed {
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
			return uint64(op(uint16(x), uint16(y), uint16(z)))
		})
	}
	return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
		lo := op(uint16(x), uint16(y), uint16(z))
		hi := op(uint16(x>>16), uint16(y>>16), uint16(z>>16))
		return uint64(lo) | uint64(hi)<<16
	})
}

// halfOp lowers add, sub, mul, fma, neg, abs, min and max on .f16, .f16x2, .bf16 and .bf16x2
// with the modifiers the ISA defines for each: .rn (the only rounding), .ftz and .sat for .f16
// types, .relu for fma, .NaN and .xorsign.abs for min/max.
func (e *emitter) halfOp(t frontend.Type) runtime.Instr {
	in := e.in
	if ts := e.types(); len(ts) == 2 && ts[0] == frontend.F32 && !isHalfPacked(t) && len(in.Dsts) == 1 {
		return e.halfMixed(t)
	}
	if in.Op == frontend.OpEx2 || in.Op == frontend.OpTanh {
		return e.halfApprox(t)
	}
	bf, packed := isBF16(t), isHalfPacked(t)
	ftz, sat, relu := e.has(frontend.ModFtz), e.has(frontend.ModSat), e.has(frontend.ModRelu)
	in16 := func(h uint16) uint16 { return h }
	if ftz {
		in16 = isa.FtzF16
	}
	// out applies .ftz, .sat and .relu to a result.
	var post []func(uint16) uint16
	if ftz {
		post = append(post, isa.FtzF16)
	}
	if sat {
		post = append(post, isa.SatF16)
	}
	switch {
	case relu && bf:
		post = append(post, isa.ReluBF16)
	case relu:
		post = append(post, isa.ReluF16)
	}
	out := func(h uint16) uint16 {
		for _, p := range post {
			h = p(h)
		}
		return h
	}
	d := e.dst(in.Dsts[0])
	src := func(i int) int { return e.halfSrc(in.Args[i], t) }
	bin := func(f16, bf16 func(a, b uint16) uint16) runtime.Instr {
		op := f16
		if bf {
			op = bf16
		}
		a, b := src(0), src(1)
		if !ftz && !sat {
			return halfLanes(d, a, b, b, packed, func(x, y, _ uint16) uint16 { return op(x, y) })
		}
		return halfLanes(d, a, b, b, packed, func(x, y, _ uint16) uint16 { return out(op(in16(x), in16(y))) })
	}
	switch in.Op {
	case frontend.OpAdd:
		return bin(isa.AddF16, isa.AddBF16)
	case frontend.OpSub:
		return bin(isa.SubF16, isa.SubBF16)
	case frontend.OpMul:
		return bin(isa.MulF16, isa.MulBF16)
	case frontend.OpFma:
		op := isa.FmaF16
		if bf {
			op = isa.FmaBF16
		}
		a, b, c := src(0), src(1), src(2)
		if len(post) == 0 {
			return halfLanes(d, a, b, c, packed, op)
		}
		return halfLanes(d, a, b, c, packed, func(x, y, z uint16) uint16 { return out(op(in16(x), in16(y), in16(z))) })
	case frontend.OpNeg, frontend.OpAbs:
		a := src(0)
		if in.Op == frontend.OpNeg {
			return halfLanes(d, a, a, a, packed, func(x, _, _ uint16) uint16 { return isa.NegHalf(in16(x)) })
		}
		return halfLanes(d, a, a, a, packed, func(x, _, _ uint16) uint16 { return isa.AbsHalf(in16(x)) })
	case frontend.OpMin, frontend.OpMax:
		// .xorsign and .abs only come together.
		xs := e.has(frontend.ModXorsign)
		nan := e.has(frontend.ModNaN)
		var op func(a, b uint16, nan, xorsignAbs bool) uint16
		switch {
		case in.Op == frontend.OpMin && bf:
			op = isa.MinBF16
		case in.Op == frontend.OpMin:
			op = isa.MinF16
		case bf:
			op = isa.MaxBF16
		default:
			op = isa.MaxF16
		}
		a, b := src(0), src(1)
		return halfLanes(d, a, b, b, packed, func(x, y, _ uint16) uint16 { return op(in16(x), in16(y), nan, xs) })
	}
	return e.unsupported()
}

// halfMixed lowers the mixed-precision add/sub{.rnd}{.sat}.f32.{f16,bf16} d, a, c and
// fma.rnd{.sat}.f32.{f16,bf16} d, a, b, c: the 16-bit operands are widened exactly and the
// result is rounded once to f32 (.rn by default for add and sub; fma needs the modifier).
func (e *emitter) halfMixed(t frontend.Type) runtime.Instr {
	in := e.in
	r, _ := halfRounding(e.rounding())
	value := isa.F16Value
	if isBF16(t) {
		value = isa.BF16Value
	}
	sat := e.has(frontend.ModSat)
	fin := func(v uint32) uint64 { return satFloat(uint64(v), frontend.F32, sat) }
	d := e.dst(in.Dsts[0])
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub:
		a, c := e.halfSrc(in.Args[0], t), e.src(in.Args[1], frontend.F32)
		sign := 1.0
		if in.Op == frontend.OpSub {
			sign = -1
		}
		return lanes2(d, a, c, func(x, y uint64) uint64 {
			return fin(isa.SumF32(value(uint16(x)), sign*float64(f32(y)), r))
		})
	case frontend.OpFma:
		a, b, c := e.halfSrc(in.Args[0], t), e.halfSrc(in.Args[1], t), e.src(in.Args[2], frontend.F32)
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
			// The product of two 16-bit values is exact in float64.
			return fin(isa.SumF32(value(uint16(x))*value(uint16(y)), float64(f32(z)), r))
		})
	}
	return e.unsupported()
}

// halfSetp lowers setp on .f16/.bf16 (p, a, b[, c]) and .f16x2/.bf16x2 (p|q, a, b[, c]), the
// forms the ISA defines: for the packed types p tests the low halves and q the high halves,
// each combined with c by the optional .and/.or/.xor.
func (e *emitter) halfSetp() runtime.Instr {
	in := e.in
	t := e.typ()
	packed := isHalfPacked(t)
	cmp := e.halfCompare(t)
	p, q := -1, -1
	switch d := in.Dsts[0]; {
	case packed:
		p, q = e.predDst(d.Elems[0]), e.predDst(d.Elems[1])
	default:
		p = e.predDst(d)
	}
	return func(w *runtime.Warp, m uint32) {
		lo, hi := cmp(w, m)
		writePred(w, p, m, lo)
		if q >= 0 {
			writePred(w, q, m, hi)
		}
	}
}

// halfCompare returns, for setp and set on the 16-bit float type t, the function giving the
// lanes of m where (a CmpOp b) BoolOp c holds on the low halves (lo) and, for a packed type,
// on the high halves (hi); nil (reported by the caller) for a form the ISA does not define.
func (e *emitter) halfCompare(t frontend.Type) func(w *runtime.Warp, m uint32) (lo, hi uint32) {
	in := e.in
	bf, packed := isBF16(t), isHalfPacked(t)
	ftz := e.has(frontend.ModFtz)
	test := comparison(e.compare(), frontend.F64)
	widen := isa.F16ToF64
	if bf {
		widen = isa.BF16ToF64
	}
	val := func(h uint16) uint64 {
		if ftz {
			h = isa.FtzF16(h)
		}
		return widen(h)
	}
	a, b := e.halfSrc(in.Args[0], t), e.halfSrc(in.Args[1], t)
	bop := e.combineOp()
	c, cneg := -1, false
	if bop != 0 {
		c, cneg = e.pred(in.Args[2])
	}
	return func(w *runtime.Warp, m uint32) (lo, hi uint32) {
		A, B := regs(w, a), regs(w, b)
		for mm := m; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros32(mm) & (ws - 1)
			x, y := A[l], B[l]
			if test(val(uint16(x)), val(uint16(y))) {
				lo |= 1 << l
			}
			if packed && test(val(uint16(x>>16)), val(uint16(y>>16))) {
				hi |= 1 << l
			}
		}
		var cv uint32
		if c >= 0 {
			cv = w.P[c]
			if cneg {
				cv = ^cv
			}
		}
		return combine(bop, lo, cv), combine(bop, hi, cv)
	}
}

// halfSet lowers set.CmpOp{.BoolOp}{.ftz}.dtype.stype with a 16-bit float stype: for .f16
// and .bf16, d is 1.0 in dtype (.f16, .bf16) or all ones (.u16, .s16, .u32, .s32) where
// (a CmpOp b) BoolOp c holds, else 0; for .f16x2 and .bf16x2 each half of d is 1.0 in its
// half of dtype (.f16x2, .bf16x2) or 0xffff (.u32, .s32) where its halves compare so.
func (e *emitter) halfSet(dt, st frontend.Type) runtime.Instr {
	var one uint64
	packed := isHalfPacked(st)
	switch {
	case dt == frontend.F16 && !packed, dt == frontend.F16x2 && packed:
		one = 0x3c00
	case dt == frontend.BF16 && !packed, dt == frontend.BF16x2 && packed:
		one = 0x3f80
	case (dt == frontend.U16 || dt == frontend.S16) && !packed:
		one = 0xffff
	case dt == frontend.U32 || dt == frontend.S32:
		one = 0xffffffff
		if packed {
			one = 0xffff
		}
	default:
		return e.unsupported()
	}
	cmp := e.halfCompare(st)
	d := e.dst(e.in.Dsts[0])
	return func(w *runtime.Warp, m uint32) {
		lo, hi := cmp(w, m)
		D := regs(w, d)
		for mm := m; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros32(mm) & (ws - 1)
			v := one & -uint64(lo>>l&1)
			if packed {
				v |= (one & -uint64(hi>>l&1)) << 16
			}
			D[l] = v
		}
	}
}

// isHalfCvt reports whether a cvt involves a 16-bit float or tf32 type, or is cvt.pack: the
// conversions cvtHalf lowers.
func (e *emitter) isHalfCvt() bool {
	if e.has(halfPackMod) {
		return true
	}
	for _, t := range e.types() {
		if isHalf(t) || t == frontend.TF32 {
			return true
		}
	}
	return false
}

// halfPackMod is cvt's .pack modifier.
var halfPackMod, _ = frontend.LookupMod(".pack")

// halfRounding maps a float rounding modifier to its direction (none means .rn); ok is false
// for anything else.
func halfRounding(m frontend.Mod) (isa.Rounding, bool) {
	switch m {
	case 0, frontend.ModRn:
		return isa.RN, true
	case frontend.ModRz:
		return isa.RZ, true
	case frontend.ModRm:
		return isa.RM, true
	case frontend.ModRp:
		return isa.RP, true
	}
	return 0, false
}

// cvtHalf lowers the conversions that involve .f16, .bf16, .f16x2, .bf16x2 or .tf32, and
// cvt.pack.
func (e *emitter) cvtHalf() runtime.Instr {
	ts := e.types()
	if e.has(halfPackMod) {
		return e.cvtPack(ts)
	}
	dt, st := ts[0], ts[1]
	relu, satfinite := e.has(frontend.ModRelu), e.has(frontend.ModSatfinite)
	switch {
	case dt == frontend.TF32:
		return e.cvtTF32(st)
	case isHalfPacked(dt) || isHalfPacked(st):
		return e.cvtPair(dt)
	case relu || satfinite:
		return e.cvtNarrowSat(dt)
	}
	return e.cvtScalarHalf(dt, st)
}

// halfKind bundles the format-specific functions of .f16 or .bf16: exact decoding, rounding
// from f64 bits, and the .sat clamp.
type halfKind struct {
	value   func(uint16) float64
	fromF64 func(uint64, isa.Rounding) uint16
	sat     func(uint16) uint16
}

// halfKindOf returns the functions of the 16-bit float type t (or its packed form).
func halfKindOf(t frontend.Type) halfKind {
	if isBF16(t) {
		return halfKind{isa.BF16Value, isa.F64ToBF16, isa.SatBF16}
	}
	return halfKind{isa.F16Value, isa.F64ToF16, isa.SatF16}
}

// halfF32In reads an f32 source, flushing subnormals with .ftz.
//
//go:noinline
func halfF32In(ftz bool) func(uint64) uint64 {
	if ftz {
		return func(x uint64) uint64 { return ftz32(uint64(uint32(x))) }
	}
	return func(x uint64) uint64 { return uint64(uint32(x)) }
}

// cvtTF32 is cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32.
func (e *emitter) cvtTF32(st frontend.Type) runtime.Instr {
	r := isa.RNA
	switch e.rounding() {
	case frontend.ModRn:
		r = isa.RN
	case frontend.ModRz:
		r = isa.RZ
	}
	sf, relu := e.has(frontend.ModSatfinite), e.has(frontend.ModRelu)
	d, a := e.dst(e.in.Dsts[0]), e.src(e.in.Args[0], frontend.F32)
	return lanes1(d, a, func(x uint64) uint64 { return uint64(isa.CvtTF32(uint32(x), r, sf, relu)) })
}

// cvtPair is cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a is converted into
// the upper half of d and b into the lower half.
func (e *emitter) cvtPair(dt frontend.Type) runtime.Instr {
	conv := e.narrowF32(dt)
	d := e.dst(e.in.Dsts[0])
	a, b := e.src(e.in.Args[0], frontend.F32), e.src(e.in.Args[1], frontend.F32)
	return lanes2(d, a, b, func(x, y uint64) uint64 {
		return uint64(conv(uint32(x)))<<16 | uint64(conv(uint32(y)))
	})
}

// cvtNarrowSat is cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}.f32 with .relu or .satfinite.
func (e *emitter) cvtNarrowSat(dt frontend.Type) runtime.Instr {
	conv := e.narrowF32(dt)
	d, a := e.dst(e.in.Dsts[0]), e.src(e.in.Args[0], frontend.F32)
	return lanes1(d, a, func(x uint64) uint64 { return uint64(conv(uint32(x))) })
}

// narrowF32 returns the f32 → 16-bit conversion of cvt.frnd2{.relu}{.satfinite}, where frnd2
// is .rn or .rz; nil (reported) for other modifiers.
func (e *emitter) narrowF32(dt frontend.Type) func(uint32) uint16 {
	r, _ := halfRounding(e.rounding())
	bf := isBF16(dt)
	relu, sf := e.has(frontend.ModRelu), e.has(frontend.ModSatfinite)
	return func(x uint32) uint16 { return isa.NarrowF32(x, bf, r, sf, relu) }
}

// cvtScalarHalf lowers cvt{.rnd}{.ftz}{.sat}.dtype.atype where one side is .f16 or .bf16 and
// the other an integer, .f16, .bf16, .f32 or .f64 type. As the ISA requires, narrowing a float
// needs .rn/.rz/.rm/.rp, a float-to-integer conversion or a same-type rounding to an integral
// value needs .rni/.rzi/.rmi/.rpi, and exact conversions take no rounding modifier; an integer
// source rounds to nearest unless told otherwise. .ftz applies to .f32 operands only (the
// table of forms, layout.CheckForms, holds the rules).
func (e *emitter) cvtScalarHalf(dt, st frontend.Type) runtime.Instr {
	rnd := e.rounding()
	ftz, sat := e.has(frontend.ModFtz), e.has(frontend.ModSat)
	d := e.dst(e.in.Dsts[0])
	a := e.halfSrc(e.in.Args[0], st)
	// read decodes the source exactly as a float64 (integers go through readInt instead).
	var read func(uint64) float64
	switch {
	case isHalf(st):
		v := halfKindOf(st).value
		read = func(x uint64) float64 { return v(uint16(x)) }
	case st == frontend.F32:
		in := halfF32In(ftz)
		read = func(x uint64) float64 { return float64(f32(in(x))) }
	case st == frontend.F64:
		read = f64
	}
	if !isHalf(dt) {
		// From a 16-bit float to an integer, f32 or f64: the value is exact in float64.
		if dt.IsInteger() {
			round, _ := intRounding(rnd)
			toInt := e.floatToInt(dt)
			return lanes1(d, a, func(x uint64) uint64 { return toInt(isa.RoundToInt(read(x), round)) })
		}
		// Widening is exact: the ISA allows no rounding modifier.
		widen64, widen32 := isa.F16ToF64, isa.F16ToF32
		if isBF16(st) {
			widen64, widen32 = isa.BF16ToF64, isa.BF16ToF32
		}
		if dt == frontend.F64 {
			return lanes1(d, a, func(x uint64) uint64 { return satFloat(widen64(uint16(x)), dt, sat) })
		}
		out := halfF32In(ftz)
		return lanes1(d, a, func(x uint64) uint64 { return satFloat(out(uint64(widen32(uint16(x)))), dt, sat) })
	}
	k := halfKindOf(dt)
	fin := func(h uint16) uint64 {
		if sat {
			h = k.sat(h)
		}
		return uint64(h)
	}
	if round, ok := intRounding(rnd); ok {
		// cvt.rni.f16.f16: round to an integral value in the same format.
		return lanes1(d, a, func(x uint64) uint64 {
			return fin(k.fromF64(b64(isa.RoundToInt(read(x), round)), isa.RN))
		})
	}
	r, _ := halfRounding(rnd)
	if st.IsInteger() {
		sn := st.Bits()
		var conv func(uint64) uint16
		switch {
		case st.IsSigned() && isBF16(dt):
			conv = func(x uint64) uint16 { return isa.S64ToBF16(sext(x, sn), r) }
		case st.IsSigned():
			conv = func(x uint64) uint16 { return isa.S64ToF16(sext(x, sn), r) }
		case isBF16(dt):
			conv = func(x uint64) uint16 { return isa.U64ToBF16(wrap(x, sn), r) }
		default:
			conv = func(x uint64) uint16 { return isa.U64ToF16(wrap(x, sn), r) }
		}
		return lanes1(d, a, func(x uint64) uint64 { return fin(conv(x)) })
	}
	if st == dt {
		return lanes1(d, a, func(x uint64) uint64 { return fin(uint16(x)) })
	}
	// Narrowing a float loses precision: the ISA makes the rounding modifier mandatory.
	return lanes1(d, a, func(x uint64) uint64 { return fin(k.fromF64(b64(read(x)), r)) })
}

// floatToInt returns the conversion of an integral float64 to integer type dt: NaN gives 0,
// out-of-range values saturate, and a signed result is sign-extended to the destination
// register's width.
func (e *emitter) floatToInt(dt frontend.Type) func(float64) uint64 {
	dn := dt.Bits()
	regBits := 64
	if x := e.in.Dsts[0]; x.Kind == ssa.ArgValue && x.Value != nil {
		regBits = x.Value.Reg.Type.Bits()
	}
	signed := dt.IsSigned()
	return func(f float64) uint64 {
		// f is integral already: rounding it again changes nothing.
		v := isa.FloatToInt(f, isa.RZ, dn, signed)
		if signed && regBits > dn {
			return signExtend(v, dn, regBits)
		}
		return v
	}
}

// cvtPack is cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32
// d, a, b, c.
func (e *emitter) cvtPack(ts []frontend.Type) runtime.Instr {
	in := e.in
	ct := ts[0]
	n := ct.Bits()
	signed := ct == frontend.S16 || ct == frontend.S8 || ct == frontend.S4 || ct == frontend.S2
	d := e.dst(in.Dsts[0])
	a, b := e.src(in.Args[0], frontend.S32), e.src(in.Args[1], frontend.S32)
	c := b
	if len(in.Args) == 3 {
		c = e.src(in.Args[2], frontend.B32)
	}
	return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
		return uint64(isa.CvtPack(int32(x), int32(y), uint32(z), n, signed))
	})
}
