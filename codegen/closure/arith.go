package closure

import (
	"math"
	"math/bits"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

func f64bits(f float64) uint64    { return math.Float64bits(f) }
func f32(v uint64) float32        { return math.Float32frombits(uint32(v)) }
func f64(v uint64) float64        { return math.Float64frombits(v) }
func b32(f float32) uint64        { return uint64(math.Float32bits(f)) }
func b64(f float64) uint64        { return math.Float64bits(f) }
func sext(v uint64, n int) int64  { return int64(v<<(64-n)) >> (64 - n) }
func mask(n int) uint64           { return math.MaxUint64 >> (64 - n) }
func wrap(v uint64, n int) uint64 { return v & mask(n) }
func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func ftz32(v uint64) uint64 {
	if v&0x7f800000 == 0 {
		return v & 0x80000000
	}
	return v
}

// arith lowers integer and floating-point arithmetic and logic.
func (e *emitter) arith() runtime.Instr {
	if code, ok := e.intExt(); ok {
		return code
	}
	in := e.in
	t := e.typ()
	if t.IsFloat() {
		return e.floatOp(t)
	}
	n := t.Bits()
	signed := t.IsSigned()
	mk := mask(n)
	wide := e.has(frontend.ModWide)
	hi := e.has(frontend.ModHi)
	srcT := t
	d := e.dst(in.Dsts[0])
	src := func(i int) int { return e.src(in.Args[i], srcT) }
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub:
		a, b := src(0), src(1)
		sub := in.Op == frontend.OpSub
		if e.has(frontend.ModSat) {
			return lanes2(d, a, b, func(x, y uint64) uint64 {
				ys := int64(int32(y))
				if sub {
					ys = -ys
				}
				r := min(max(int64(int32(x))+ys, math.MinInt32), math.MaxInt32)
				return wrap(uint64(r), 32)
			})
		}
		switch {
		case sub:
			return typedInt(opSub, n, d, a, b)
		case n == 64 && e.uniformArg(1):
			return add64Uniform(d, a, b)
		case n == 64 && e.uniformArg(0):
			return add64Uniform(d, b, a)
		}
		return typedInt(opAdd, n, d, a, b)
	case frontend.OpMul, frontend.OpMad:
		a, b := src(0), src(1)
		var mul func(x, y uint64) uint64
		switch {
		case wide:
			if signed {
				mul = func(x, y uint64) uint64 { return wrap(uint64(sext(x, n)*sext(y, n)), 2*n) }
			} else {
				mul = func(x, y uint64) uint64 { return (x & mk) * (y & mk) }
			}
		case hi:
			mul = func(x, y uint64) uint64 { return isa.MulHi(x, y, n, signed) }
		default:
			mul = func(x, y uint64) uint64 { return (x * y) & mk }
		}
		if in.Op == frontend.OpMul {
			switch {
			case wide && n == 32 && e.uniformArg(1):
				return mulWide32Uniform(d, a, b, signed)
			case wide && n == 32 && e.uniformArg(0):
				return mulWide32Uniform(d, b, a, signed)
			case wide && n == 32 && signed:
				return inline2("mul.wide.s32", d, a, b)
			case wide && n == 32:
				return inline2("mul.wide.u32", d, a, b)
			case !wide && !hi:
				return typedInt(opMulLo, n, d, a, b)
			}
			return lanes2(d, a, b, mul)
		}
		cn := n
		if wide {
			cn = 2 * n
		}
		c := e.src(in.Args[2], typeOfBits(cn))
		if !wide && !hi && n == 32 && e.uniformArg(0) && e.uniformArg(1) {
			return mad32Uniform(d, a, b, c)
		}
		if !wide && !hi && n == 32 {
			return mad32(d, a, b, c)
		}
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return wrap(mul(x, y)+z, cn) })
	case frontend.OpDiv, frontend.OpRem:
		a, b := src(0), src(1)
		if in.Op == frontend.OpRem {
			return lanes2(d, a, b, func(x, y uint64) uint64 { return isa.Rem(x, y, n, signed) })
		}
		return lanes2(d, a, b, func(x, y uint64) uint64 { return isa.Div(x, y, n, signed) })
	case frontend.OpMin, frontend.OpMax:
		a, b := src(0), src(1)
		isMax := in.Op == frontend.OpMax
		switch {
		case signed && isMax:
			return typedInt(opMaxS, n, d, a, b)
		case signed:
			return typedInt(opMinS, n, d, a, b)
		case isMax:
			return typedInt(opMax, n, d, a, b)
		}
		return typedInt(opMin, n, d, a, b)
	case frontend.OpAbs:
		return lanes1(d, src(0), func(x uint64) uint64 {
			if v := sext(x, n); v < 0 {
				return (uint64(-v)) & mk
			}
			return (x) & mk
		})
	case frontend.OpNeg:
		a := src(0)
		return typedInt(opNeg, n, d, a, a)
	case frontend.OpAnd:
		return typedInt(opAnd, n, d, src(0), src(1))
	case frontend.OpOr:
		return typedInt(opOr, n, d, src(0), src(1))
	case frontend.OpXor:
		return typedInt(opXor, n, d, src(0), src(1))
	case frontend.OpNot:
		a := src(0)
		return typedInt(opNot, n, d, a, a)
	case frontend.OpCnot:
		return lanes1(d, src(0), func(x uint64) uint64 { return boolBit((x)&mk == 0) })
	case frontend.OpShl, frontend.OpShr:
		a := src(0)
		b := e.src(in.Args[1], frontend.U32)
		switch {
		case in.Op == frontend.OpShl:
			return typedInt(opShl, n, d, a, b)
		case signed:
			return typedInt(opSar, n, d, a, b)
		}
		return typedInt(opShr, n, d, a, b)
	case frontend.OpPopc:
		return lanes1(d, src(0), func(x uint64) uint64 { return uint64(bits.OnesCount64((x) & mk)) })
	case frontend.OpClz:
		return lanes1(d, src(0), func(x uint64) uint64 { return uint64(bits.LeadingZeros64((x)&mk) - (64 - n)) })
	case frontend.OpBrev:
		return lanes1(d, src(0), func(x uint64) uint64 { return bits.Reverse64(x) >> (64 - n) })
	case frontend.OpBfe:
		a := src(0)
		b, c := e.src(in.Args[1], frontend.U32), e.src(in.Args[2], frontend.U32)
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return isa.Bfe(x, uint32(y), uint32(z), n, signed) })
	case frontend.OpBfi:
		a, b := src(0), src(1)
		c, dd := e.src(in.Args[2], frontend.U32), e.src(in.Args[3], frontend.U32)
		// bfi has four sources; pack the position and length into one scratch register.
		pl := e.f.Scratch()
		e.pre = append(e.pre, lanes2(pl, c, dd, func(p, l uint64) uint64 { return uint64(uint8(p)) | uint64(uint8(l))<<8 }))
		return lanes3(d, a, b, pl, func(x, y, z uint64) uint64 { return isa.Bfi(x, y, uint32(z&0xff), uint32(z>>8&0xff), n) })
	case frontend.OpShf:
		left := e.has(frontend.ModL)
		clamp, _ := e.clampOrWrap()
		a, b := e.src(in.Args[0], frontend.B32), e.src(in.Args[1], frontend.B32)
		c := e.src(in.Args[2], frontend.U32)
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return uint64(isa.Shf(uint32(x), uint32(y), uint32(z), left, clamp)) })
	}
	return e.unsupported()
}
