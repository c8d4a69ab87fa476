package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// The canonical NaNs the GPU produces for invalid operations, as register values.
const (
	nan32 = uint64(isa.NaN32)
	nan64 = isa.NaN64
)

// floatOp lowers f32 and f64 arithmetic, min/max, neg/abs, testp and copysign. The scalar
// semantics live in runtime/isa; this picks the isa function of the modifiers (the table of
// forms, layout.CheckForms, has accepted them) and binds it into a lane loop.
func (e *emitter) floatOp(t frontend.Type) runtime.Instr {
	in := e.in
	if isHalf(t) {
		return e.halfOp(t)
	}
	switch in.Op {
	case frontend.OpTestp:
		return e.testp(t)
	case frontend.OpCopysign:
		if t == frontend.F32 {
			return e.lanesF32(false, false, func(a, b uint32) uint32 { return isa.CopysignF32(a, b) })
		}
		return e.lanesF64(false, func(a, b uint64) uint64 { return isa.CopysignF64(a, b) })
	}
	if t == frontend.F32 {
		return e.floatOp32()
	}
	return e.floatOp64()
}

// isaRounding is the rounding direction of the instruction's .rn/.rz/.rm/.rp (none means .rn).
func (e *emitter) isaRounding() isa.Rounding {
	switch e.rounding() {
	case frontend.ModRz:
		return isa.RZ
	case frontend.ModRm:
		return isa.RM
	case frontend.ModRp:
		return isa.RP
	}
	return isa.RN
}

// floatOp32 lowers the f32 forms.
func (e *emitter) floatOp32() runtime.Instr {
	r := e.isaRounding()
	ftz, sat := e.has(frontend.ModFtz), e.has(frontend.ModSat)
	approx := e.has(frontend.ModApprox)
	switch e.in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpFma, frontend.OpMad:
		if r == isa.RN && !sat {
			return e.fastFloat(frontend.F32, ftz)
		}
		switch e.in.Op {
		case frontend.OpAdd:
			return e.lanesF32(ftz, sat, func(a, b uint32) uint32 { return isa.AddF32(a, b, r) })
		case frontend.OpSub:
			return e.lanesF32(ftz, sat, func(a, b uint32) uint32 { return isa.SubF32(a, b, r) })
		case frontend.OpMul:
			return e.lanesF32(ftz, sat, func(a, b uint32) uint32 { return isa.MulF32(a, b, r) })
		}
		return e.lanesF32(ftz, sat, func(a, b, c uint32) uint32 { return isa.FmaF32(a, b, c, r) })
	case frontend.OpDiv:
		switch {
		case approx:
			return e.lanesF32(ftz, false, isa.DivApproxF32)
		case e.has(frontend.ModFull):
			return e.lanesF32(ftz, false, func(a, b uint32) uint32 { return isa.DivF32(a, b, isa.RN) })
		}
		return e.lanesF32(ftz, false, func(a, b uint32) uint32 { return isa.DivF32(a, b, r) })
	case frontend.OpRcp, frontend.OpSqrt:
		// The .approx forms are correctly rounded to nearest (r is RN for them).
		if e.in.Op == frontend.OpRcp {
			return e.lanesF32(ftz, false, func(a uint32) uint32 { return isa.RcpF32(a, r) })
		}
		return e.lanesF32(ftz, false, func(a uint32) uint32 { return isa.SqrtF32(a, r) })
	case frontend.OpRsqrt, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2:
		fn := map[frontend.Opcode]func(uint32) uint32{
			frontend.OpRsqrt: isa.RsqrtApproxF32, frontend.OpSin: isa.SinApproxF32,
			frontend.OpCos: isa.CosApproxF32, frontend.OpLg2: isa.Lg2ApproxF32, frontend.OpEx2: isa.Ex2ApproxF32,
		}[e.in.Op]
		return e.lanesF32(ftz, false, fn)
	case frontend.OpTanh:
		return e.lanesF32(false, false, isa.TanhApproxF32)
	case frontend.OpNeg, frontend.OpAbs:
		// The result of neg/abs is not flushed: it is subnormal only when the operand was.
		// Without .ftz they only flip or clear the sign bit.
		if !ftz {
			d, a := e.dst(e.in.Dsts[0]), e.src(e.in.Args[0], frontend.F32)
			if e.in.Op == frontend.OpNeg {
				return typedInt(opXor, 32, d, a, e.f.ConstSlot(1<<31))
			}
			return typedInt(opAnd, 32, d, a, e.f.ConstSlot(1<<31-1))
		}
		if e.in.Op == frontend.OpNeg {
			return e.lanesF32(false, false, func(a uint32) uint32 { return isa.NegF32(ftzIf(ftz, a)) })
		}
		return e.lanesF32(false, false, func(a uint32) uint32 { return isa.AbsF32(ftzIf(ftz, a)) })
	case frontend.OpMin, frontend.OpMax:
		nanProp := e.has(frontend.ModNaN)
		op := isa.MinF32
		if e.in.Op == frontend.OpMax {
			op = isa.MaxF32
		}
		if e.has(frontend.ModXorsign) {
			return e.lanesF32(ftz, false, func(a, b uint32) uint32 { return isa.XorsignAbs32(op, a, b, nanProp) })
		}
		if !ftz && !nanProp {
			f := fMinF32
			if e.in.Op == frontend.OpMax {
				f = fMaxF32
			}
			return floatLanes(f, e.dst(e.in.Dsts[0]), e.src(e.in.Args[0], frontend.F32), e.src(e.in.Args[1], frontend.F32), -1)
		}
		return e.lanesF32(ftz, false, func(a, b uint32) uint32 { return op(a, b, nanProp) })
	}
	return e.unsupported()
}

// ftzIf applies .ftz to an f32 operand when ftz is set.
func ftzIf(ftz bool, v uint32) uint32 {
	if ftz {
		return isa.Ftz32(v)
	}
	return v
}

// floatOp64 lowers the f64 forms.
func (e *emitter) floatOp64() runtime.Instr {
	r := e.isaRounding()
	switch e.in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpFma, frontend.OpMad, frontend.OpDiv,
		frontend.OpRcp, frontend.OpSqrt:
		if e.has(frontend.ModApprox) {
			// rcp.approx.ftz.f64: correctly rounded to nearest, subnormals flushed.
			return e.lanesF64(false, func(a uint64) uint64 { return isa.Ftz64(isa.RcpF64(isa.Ftz64(a), isa.RN)) })
		}
		if r == isa.RN && e.in.Op != frontend.OpDiv && e.in.Op != frontend.OpRcp && e.in.Op != frontend.OpSqrt {
			return e.fastFloat(frontend.F64, false)
		}
		switch e.in.Op {
		case frontend.OpAdd:
			return e.lanesF64(false, func(a, b uint64) uint64 { return isa.AddF64(a, b, r) })
		case frontend.OpSub:
			return e.lanesF64(false, func(a, b uint64) uint64 { return isa.SubF64(a, b, r) })
		case frontend.OpMul:
			return e.lanesF64(false, func(a, b uint64) uint64 { return isa.MulF64(a, b, r) })
		case frontend.OpDiv:
			return e.lanesF64(false, func(a, b uint64) uint64 { return isa.DivF64(a, b, r) })
		case frontend.OpRcp:
			return e.lanesF64(false, func(a uint64) uint64 { return isa.RcpF64(a, r) })
		case frontend.OpSqrt:
			return e.lanesF64(false, func(a uint64) uint64 { return isa.SqrtF64(a, r) })
		}
		return e.lanesF64(false, func(a, b, c uint64) uint64 { return isa.FmaF64(a, b, c, r) })
	case frontend.OpRsqrt:
		return e.lanesF64(e.has(frontend.ModFtz), isa.RsqrtApproxF64)
	case frontend.OpNeg, frontend.OpAbs:
		if e.in.Op == frontend.OpNeg {
			return e.lanesF64(false, isa.NegF64)
		}
		return e.lanesF64(false, isa.AbsF64)
	case frontend.OpMin, frontend.OpMax:
		nanProp := e.has(frontend.ModNaN)
		if e.in.Op == frontend.OpMax {
			return e.lanesF64(false, func(a, b uint64) uint64 { return isa.MaxF64(a, b, nanProp) })
		}
		return e.lanesF64(false, func(a, b uint64) uint64 { return isa.MinF64(a, b, nanProp) })
	}
	return e.unsupported()
}

// lanesF32 binds an f32 operation of one, two or three operands (a func(uint32) uint32,
// func(a, b uint32) uint32 or func(a, b, c uint32) uint32) into a lane loop, applying .ftz to
// the operands and the result and then .sat to the result when asked.
func (e *emitter) lanesF32(ftz, sat bool, op any) runtime.Instr {
	d := e.dst(e.in.Dsts[0])
	src := func(i int) int { return e.src(e.in.Args[i], frontend.F32) }
	post := func(v uint32) uint64 {
		if ftz {
			v = isa.Ftz32(v)
		}
		if sat {
			v = isa.Sat32(v)
		}
		return uint64(v)
	}
	plain := !ftz && !sat
	switch f := op.(type) {
	case func(uint32) uint32:
		if plain {
			return lanes1(d, src(0), func(x uint64) uint64 { return uint64(f(uint32(x))) })
		}
		return lanes1(d, src(0), func(x uint64) uint64 { return post(f(ftzIf(ftz, uint32(x)))) })
	case func(a, b uint32) uint32:
		if plain {
			return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return uint64(f(uint32(x), uint32(y))) })
		}
		return lanes2(d, src(0), src(1), func(x, y uint64) uint64 {
			return post(f(ftzIf(ftz, uint32(x)), ftzIf(ftz, uint32(y))))
		})
	case func(a, b, c uint32) uint32:
		if plain {
			return lanes3(d, src(0), src(1), src(2), func(x, y, z uint64) uint64 {
				return uint64(f(uint32(x), uint32(y), uint32(z)))
			})
		}
		return lanes3(d, src(0), src(1), src(2), func(x, y, z uint64) uint64 {
			return post(f(ftzIf(ftz, uint32(x)), ftzIf(ftz, uint32(y)), ftzIf(ftz, uint32(z))))
		})
	}
	panic("lanesF32: unexpected operation type")
}

// lanesF64 binds an f64 operation of one, two or three operands into a lane loop; ftz
// flushes subnormal operands and results (the .approx.ftz.f64 forms).
func (e *emitter) lanesF64(ftz bool, op any) runtime.Instr {
	d := e.dst(e.in.Dsts[0])
	src := func(i int) int { return e.src(e.in.Args[i], frontend.F64) }
	switch f := op.(type) {
	case func(uint64) uint64:
		if ftz {
			return lanes1(d, src(0), func(x uint64) uint64 { return isa.Ftz64(f(isa.Ftz64(x))) })
		}
		return lanes1(d, src(0), f)
	case func(a, b uint64) uint64:
		return lanes2(d, src(0), src(1), f)
	case func(a, b, c uint64) uint64:
		return lanes3(d, src(0), src(1), src(2), f)
	}
	panic("lanesF64: unexpected operation type")
}

// testp lowers testp.op.type p, a.
func (e *emitter) testp(t frontend.Type) runtime.Instr {
	var class isa.FloatClass
	for _, m := range e.in.Mods {
		if c, known := testpClasses[m.String()]; known {
			class = c
		}
	}
	p := e.predDst(e.in.Dsts[0])
	a := e.src(e.in.Args[0], t)
	test := func(x, _ uint64) bool { return isa.TestpF64(class, x) }
	if t == frontend.F32 {
		test = func(x, _ uint64) bool { return isa.TestpF32(class, uint32(x)) }
	}
	cond := setLanes(p, a, a, test)
	return func(w *runtime.Warp, m uint32) { writePred(w, p, m, cond(w, m)) }
}

// testpClasses maps testp's property modifiers to the isa classes.
var testpClasses = map[string]isa.FloatClass{
	".finite": isa.ClassFinite, ".infinite": isa.ClassInfinite, ".number": isa.ClassNumber,
	".notanumber": isa.ClassNotANumber, ".normal": isa.ClassNormal, ".subnormal": isa.ClassSubnormal,
}
