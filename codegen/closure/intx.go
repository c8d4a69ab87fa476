package closure

import (
	"math/bits"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// The integer instruction forms beyond arith's basic set: the carry chain, 24-bit multiplies,
// saturating and packed byte forms, and the bit-manipulation instructions. Their scalar
// semantics live in runtime/isa.

// carrySlot returns the register slot that holds the condition-code carry flag CC.CF of every
// lane. SSA does not model CC; the closure back end keeps it in one hidden per-function,
// per-lane register that .cc forms write and addc/subc/madc read. Instructions run in program
// order within a function, so this is exact.
func (f *fnCompiler) carrySlot() int {
	if f.carry == 0 {
		f.carry = f.Scratch() + 1
	}
	return f.carry - 1
}

// intExt lowers the forms this file handles; ok is false for those arith handles itself.
func (e *emitter) intExt() (code runtime.Instr, ok bool) {
	in := e.in
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub:
		if !e.has(frontend.ModCc) {
			return nil, false
		}
		return e.carryArith(), true
	case frontend.OpAddc, frontend.OpSubc, frontend.OpMadc:
		return e.carryArith(), true
	case frontend.OpMad:
		switch {
		case e.has(frontend.ModCc):
			return e.carryArith(), true
		case e.has(frontend.ModSat) && !e.typ().IsFloat():
			return e.lanes3Of(frontend.S32, isa.MadHiSat32), true
		}
		return nil, false
	case frontend.OpMin, frontend.OpMax:
		if !e.has(frontend.ModRelu) || e.typ() != frontend.S32 {
			return nil, false
		}
		isMax := in.Op == frontend.OpMax
		return e.lanes2Of(frontend.S32, func(x, y uint32) uint32 { return isa.MinMaxRelu32(x, y, isMax) }), true
	case frontend.OpMul24, frontend.OpMad24:
		return e.mul24(), true
	case frontend.OpSad:
		return e.sad(), true
	case frontend.OpBfind:
		return e.bfind(), true
	case frontend.OpFns:
		return e.lanes3Of(frontend.B32, isa.Fns), true
	case frontend.OpSzext:
		t := e.typ()
		clamp, _ := e.clampOrWrap()
		signed := t == frontend.S32
		return e.lanes2Of(t, func(x, y uint32) uint32 { return isa.Szext(x, y, signed, clamp) }), true
	case frontend.OpBmsk:
		clamp, _ := e.clampOrWrap()
		return e.lanes2Of(frontend.B32, func(x, y uint32) uint32 { return isa.Bmsk(x, y, clamp) }), true
	case frontend.OpDp4a, frontend.OpDp2a:
		return e.dot(), true
	case frontend.OpPrmt:
		return e.prmt(), true
	case frontend.OpVadd, frontend.OpVsub, frontend.OpVabsdiff, frontend.OpVmin, frontend.OpVmax:
		return e.video(), true
	case frontend.OpLop3:
		return e.lop3(), true
	case frontend.OpSet:
		return e.set(), true
	case frontend.OpSlct:
		return e.slct(), true
	}
	return nil, false
}

// clampOrWrap reads the mandatory .clamp or .wrap mode of szext and bmsk.
func (e *emitter) clampOrWrap() (clamp, ok bool) {
	c, w := e.has(frontend.ModClamp), e.has(frontend.ModWrap)
	return c, c != w
}

// lanes2Of builds a lane loop for a two-operand 32-bit operation with operands of type t.
func (e *emitter) lanes2Of(t frontend.Type, op func(x, y uint32) uint32) runtime.Instr {
	in := e.in
	if len(in.Dsts) != 1 || len(in.Args) != 2 {
		return e.unsupported()
	}
	d, a, b := e.dst(in.Dsts[0]), e.src(in.Args[0], t), e.src(in.Args[1], t)
	return lanes2(d, a, b, func(x, y uint64) uint64 { return uint64(op(uint32(x), uint32(y))) })
}

// lanes3Of builds a lane loop for a three-operand 32-bit operation with operands of type t.
func (e *emitter) lanes3Of(t frontend.Type, op func(x, y, z uint32) uint32) runtime.Instr {
	in := e.in
	if len(in.Dsts) != 1 || len(in.Args) != 3 {
		return e.unsupported()
	}
	d, a, b, c := e.dst(in.Dsts[0]), e.src(in.Args[0], t), e.src(in.Args[1], t), e.src(in.Args[2], t)
	return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return uint64(op(uint32(x), uint32(y), uint32(z))) })
}

// carryArith lowers add.cc, sub.cc, addc, subc, mad.cc and madc on .u32 .s32 .u64 .s64. The
// carry flag is one bit per lane in carrySlot. A subtraction is a + ^b + carry-in (1 for
// sub.cc, CC.CF for subc) and leaves its carry-out, NOT borrow, in the flag, as NVIDIA GPUs do.
func (e *emitter) carryArith() runtime.Instr {
	in := e.in
	t := e.typ()
	n := t.Bits()
	op := in.Op
	readCF := op == frontend.OpAddc || op == frontend.OpSubc || op == frontend.OpMadc
	writeCF := e.has(frontend.ModCc)
	isMad := op == frontend.OpMad || op == frontend.OpMadc
	hi := e.has(frontend.ModHi)
	signed := t.IsSigned()
	d := e.dst(in.Dsts[0])
	a, b := e.src(in.Args[0], t), e.src(in.Args[1], t)
	c := a
	if isMad {
		c = e.src(in.Args[2], t)
	}
	cf := e.f.carrySlot()
	sub := op == frontend.OpSub || op == frontend.OpSubc
	var cin0 uint64 // the carry-in of the forms that read no flag
	if sub {
		cin0 = 1
	}
	return func(w *runtime.Warp, m uint32) {
		D, A, B, C, CF := regs(w, d), regs(w, a), regs(w, b), regs(w, c), regs(w, cf)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			cin := cin0
			if readCF {
				cin = CF[l] & 1
			}
			x, y := A[l], B[l]
			if isMad {
				if hi {
					x = isa.MulHi(x, y, n, signed)
				} else {
					x = x * y & isa.Mask(n)
				}
				y = C[l]
			}
			var r, cout uint64
			if sub {
				r, cout = isa.SubCarry(x, y, cin, n)
			} else {
				r, cout = isa.AddCarry(x, y, cin, n)
			}
			D[l] = r
			if writeCF {
				CF[l] = cout
			}
		}
	}
}

// mul24 lowers mul24.{lo,hi} and mad24.{lo,hi}{.sat} on .u32 and .s32; .sat is only
// mad24.hi.sat.s32.
func (e *emitter) mul24() runtime.Instr {
	t := e.typ()
	hi := e.has(frontend.ModHi)
	signed := t == frontend.S32
	if e.in.Op == frontend.OpMul24 {
		return e.lanes2Of(t, func(x, y uint32) uint32 { return isa.Mul24(x, y, hi, signed) })
	}
	if e.has(frontend.ModSat) {
		return e.lanes3Of(t, isa.Mad24HiSat)
	}
	return e.lanes3Of(t, func(x, y, z uint32) uint32 { return isa.Mul24(x, y, hi, signed) + z })
}

// sad lowers sad.{u,s}{16,32,64}: c + |a - b|.
func (e *emitter) sad() runtime.Instr {
	in := e.in
	t := e.typ()
	n := t.Bits()
	signed := t.IsSigned()
	d := e.dst(in.Dsts[0])
	a, b, c := e.src(in.Args[0], t), e.src(in.Args[1], t), e.src(in.Args[2], t)
	return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return isa.Sad(x, y, z, n, signed) })
}

// bfind lowers bfind{.shiftamt}.{u,s}{32,64}, whose result is .u32.
func (e *emitter) bfind() runtime.Instr {
	in := e.in
	t := e.typ()
	n := t.Bits()
	signed, shift := t.IsSigned(), e.has(frontend.ModShiftamt)
	return lanes1(e.dst(in.Dsts[0]), e.src(in.Args[0], t), func(x uint64) uint64 {
		return uint64(isa.Bfind(x, n, signed, shift))
	})
}

// dot lowers dp4a.atype.btype and dp2a.{lo,hi}.atype.btype with .u32/.s32 types.
func (e *emitter) dot() runtime.Instr {
	ts := e.types()
	as, bs := ts[0] == frontend.S32, ts[1] == frontend.S32
	if e.in.Op == frontend.OpDp4a {
		return e.lanes3Of(frontend.B32, func(x, y, z uint32) uint32 { return isa.Dp4a(x, y, z, as, bs) })
	}
	hi := e.has(frontend.ModHi)
	return e.lanes3Of(frontend.B32, func(x, y, z uint32) uint32 { return isa.Dp2a(x, y, z, as, bs, hi) })
}

// prmtModes maps the prmt mode modifiers, which the front end keeps without named constants,
// to their isa modes.
var prmtModes = func() map[frontend.Mod]isa.PrmtMode {
	names := map[string]isa.PrmtMode{
		".f4e": isa.PrmtF4e, ".b4e": isa.PrmtB4e, ".rc8": isa.PrmtRc8,
		".ecl": isa.PrmtEcl, ".ecr": isa.PrmtEcr, ".rc16": isa.PrmtRc16,
	}
	modes := map[frontend.Mod]isa.PrmtMode{}
	for name, mode := range names {
		if m, ok := frontend.LookupMod(name); ok {
			modes[m] = mode
		}
	}
	return modes
}()

// prmt lowers prmt.b32{.mode}.
func (e *emitter) prmt() runtime.Instr {
	mode := isa.PrmtGeneric
	for _, m := range e.in.Mods {
		if pm, ok := prmtModes[m]; ok {
			mode = pm
		}
	}
	return e.lanes3Of(frontend.B32, func(x, y, z uint32) uint32 { return isa.Prmt(x, y, z, mode) })
}

// lop3 lowers lop3.b32 d, a, b, c, immLut and lop3.{or,and}.b32 d|p, a, b, c, immLut, q,
// where p = (d != 0) BoolOp q.
func (e *emitter) lop3() runtime.Instr {
	in := e.in
	bop := e.combineOp()
	lut := uint8(in.Args[3].Imm)
	dd := in.Dsts[0]
	p := -1
	if dd.Kind == ssa.ArgPair {
		dd, p = dd.Elems[0], e.predDst(dd.Elems[1])
	}
	d := e.dst(dd)
	a, b, c := e.src(in.Args[0], frontend.B32), e.src(in.Args[1], frontend.B32), e.src(in.Args[2], frontend.B32)
	code := lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return uint64(isa.Lop3(uint32(x), uint32(y), uint32(z), lut)) })
	if p < 0 {
		return code
	}
	q, qneg := e.pred(in.Args[4])
	return func(w *runtime.Warp, m uint32) {
		code(w, m)
		D := regs(w, d)
		var nz uint32
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			nz |= uint32(boolBit(D[l] != 0)) << l
		}
		qv := w.P[q]
		if qneg {
			qv = ^qv
		}
		writePred(w, p, m, combine(bop, nz, qv))
	}
}

// set lowers set.CmpOp{.BoolOp}{.ftz}.dtype.stype: d is all ones (1.0f for .f32) when
// (a CmpOp b) BoolOp c holds, else 0; halfSet lowers a 16-bit float stype.
func (e *emitter) set() runtime.Instr {
	in := e.in
	ts := e.types()
	dt, st := ts[0], ts[1]
	if isHalf(st) {
		return e.halfSet(dt, st)
	}
	one := uint64(0xffffffff)
	if dt == frontend.F32 {
		one = 0x3f800000
	}
	test := comparison(e.compare(), st)
	ftz := e.has(frontend.ModFtz)
	if ftz {
		inner := test
		test = func(x, y uint64) bool { return inner(ftz32(x), ftz32(y)) }
	}
	d := e.dst(in.Dsts[0])
	a, b := e.src(in.Args[0], st), e.src(in.Args[1], st)
	bop := e.combineOp()
	c, cneg := -1, false
	if bop != 0 {
		c, cneg = e.pred(in.Args[2])
	}
	cond := setLanes(0, a, b, test)
	return func(w *runtime.Warp, m uint32) {
		r := cond(w, m)
		if c >= 0 {
			cv := w.P[c]
			if cneg {
				cv = ^cv
			}
			r = combine(bop, r, cv)
		}
		D := regs(w, d)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = one & -uint64(r>>l&1)
		}
	}
}

// slct lowers slct.dtype.s32 and slct{.ftz}.dtype.f32: d = c >= 0 ? a : b. For .f32, -0 selects
// a, NaN selects b, and .ftz reads a subnormal c as zero.
func (e *emitter) slct() runtime.Instr {
	in := e.in
	ts := e.types()
	dt, ct := ts[0], ts[1]
	ftz := e.has(frontend.ModFtz)
	var nonNeg func(v uint64) bool
	switch {
	case ct == frontend.S32:
		nonNeg = func(v uint64) bool { return int32(v) >= 0 }
	case ftz:
		nonNeg = func(v uint64) bool { return f32(ftz32(v)) >= 0 }
	default:
		nonNeg = func(v uint64) bool { return f32(v) >= 0 }
	}
	d := e.dst(in.Dsts[0])
	a, b, c := e.src(in.Args[0], dt), e.src(in.Args[1], dt), e.src(in.Args[2], ct)
	return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
		if nonNeg(z) {
			return x
		}
		return y
	})
}

// video lowers the scalar video instructions vadd, vsub, vabsdiff, vmin and vmax on whole
// words, with .sat and a secondary .add, .min or .max. The byte and half-word selectors on
// operands (a.b0, d.h1, ...) are not supported: the register names do not resolve.
func (e *emitter) video() runtime.Instr {
	in := e.in
	ts := e.types()
	op := map[frontend.Opcode]isa.VideoOp{frontend.OpVadd: isa.VideoAdd, frontend.OpVsub: isa.VideoSub,
		frontend.OpVabsdiff: isa.VideoAbsdiff, frontend.OpVmin: isa.VideoMin, frontend.OpVmax: isa.VideoMax}[in.Op]
	sec := isa.VideoSecNone
	for m, s := range map[frontend.Mod]isa.VideoSecOp{frontend.ModAdd: isa.VideoSecAdd, frontend.ModMin: isa.VideoSecMin, frontend.ModMax: isa.VideoSecMax} {
		if e.has(m) {
			sec = s
		}
	}
	sat := e.has(frontend.ModSat)
	signed := [3]bool{ts[0] == frontend.S32, ts[1] == frontend.S32, ts[2] == frontend.S32}
	if sec == isa.VideoSecNone {
		return e.lanes2Of(frontend.B32, func(x, y uint32) uint32 {
			return isa.Video(op, sec, signed[0], signed[1], signed[2], sat, x, y, 0)
		})
	}
	return e.lanes3Of(frontend.B32, func(x, y, z uint32) uint32 {
		return isa.Video(op, sec, signed[0], signed[1], signed[2], sat, x, y, z)
	})
}
