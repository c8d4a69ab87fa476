package closure

import (
	"math"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// The canonical NaNs the GPU produces for invalid operations.
const (
	nan32 = 0x7fffffff
	nan64 = 0x7fffffffffffffff
)

// fma32 is a correctly rounded float32 fused multiply-add. The product of two float32 values
// is exact in float64; the sum is computed in round-to-odd (a float64 sum plus its exact
// error), which makes the final rounding to float32 correct despite rounding twice.
func fma32(a, b, c float32) float32 {
	// Fast path: one float64 FMA. Rounding it to float32 is exact unless it landed on a float32
	// midpoint (the low 29 mantissa bits are 1 followed by zeros) or in the subnormal range.
	r := math.FMA(float64(a), float64(b), float64(c))
	if bits := math.Float64bits(r); bits&(1<<29-1) != 1<<28 && math.Abs(r) >= 0x1p-126 {
		return float32(r)
	}
	p := float64(a) * float64(b)
	s := p + float64(c)
	if math.IsInf(s, 0) || math.IsNaN(s) || s == 0 {
		return float32(math.FMA(float64(a), float64(b), float64(c)))
	}
	// TwoSum: s + err == p + c exactly.
	bb := s - p
	err := (p - (s - bb)) + (float64(c) - bb)
	if err != 0 && math.Float64bits(s)&1 == 0 {
		if (err > 0) == (s > 0) {
			s = math.Float64frombits(math.Float64bits(s) + 1)
		} else {
			s = math.Float64frombits(math.Float64bits(s) - 1)
		}
	}
	return float32(s)
}

// floatOp lowers f32 and f64 arithmetic. Only round-to-nearest-even is implemented for now;
// the directed rounding modes are rejected rather than computed wrongly.
func (e *emitter) floatOp(t frontend.Type) runtime.Instr {
	in := e.in
	if isHalf(t) {
		return e.halfOp(t)
	}
	if t != frontend.F32 && t != frontend.F64 {
		return e.unsupported()
	}
	if r := e.rounding(); r != 0 && r != frontend.ModRn {
		return e.unsupported()
	}
	is32 := t == frontend.F32
	ftz := e.has(frontend.ModFtz) && is32
	sat := e.has(frontend.ModSat)
	d := e.dst(in.Dsts[0])
	src := func(i int) int { return e.src(in.Args[i], t) }
	// fin applies .ftz to inputs; fout applies .ftz and .sat to results.
	fin := func(v uint64) uint64 {
		if ftz {
			return ftz32(v)
		}
		return v
	}
	fout := func(v uint64) uint64 {
		if ftz {
			v = ftz32(v)
		}
		if sat {
			if is32 {
				f := f32(v)
				switch {
				case f != f || f <= 0:
					return 0
				case f > 1:
					return b32(1)
				}
			} else {
				f := f64(v)
				switch {
				case f != f || f <= 0:
					return 0
				case f > 1:
					return b64(1)
				}
			}
		}
		return v
	}
	bin := func(op32 func(x, y float32) float32, op64 func(x, y float64) float64) runtime.Instr {
		a, b := src(0), src(1)
		if is32 {
			if !ftz && !sat {
				return lanes2(d, a, b, func(x, y uint64) uint64 { return b32(op32(f32(x), f32(y))) })
			}
			return lanes2(d, a, b, func(x, y uint64) uint64 { return fout(b32(op32(f32(fin(x)), f32(fin(y))))) })
		}
		return lanes2(d, a, b, func(x, y uint64) uint64 { return fout(b64(op64(f64(x), f64(y)))) })
	}
	un := func(op32 func(x float32) float32, op64 func(x float64) float64) runtime.Instr {
		a := src(0)
		if is32 {
			return lanes1(d, a, func(x uint64) uint64 { return fout(b32(op32(f32(fin(x))))) })
		}
		if op64 == nil {
			return e.unsupported()
		}
		return lanes1(d, a, func(x uint64) uint64 { return fout(b64(op64(f64(x)))) })
	}
	approx := e.has(frontend.ModApprox)
	switch in.Op {
	case frontend.OpAdd:
		return bin(func(x, y float32) float32 { return x + y }, func(x, y float64) float64 { return x + y })
	case frontend.OpSub:
		return bin(func(x, y float32) float32 { return x - y }, func(x, y float64) float64 { return x - y })
	case frontend.OpMul:
		return bin(func(x, y float32) float32 { return x * y }, func(x, y float64) float64 { return x * y })
	case frontend.OpDiv:
		if !is32 && approx {
			return e.unsupported()
		}
		return bin(func(x, y float32) float32 { return x / y }, func(x, y float64) float64 { return x / y })
	case frontend.OpFma, frontend.OpMad:
		a, b, c := src(0), src(1), src(2)
		if is32 {
			return lanes3(d, a, b, c, func(x, y, z uint64) uint64 {
				return fout(b32(fma32(f32(fin(x)), f32(fin(y)), f32(fin(z)))))
			})
		}
		return lanes3(d, a, b, c, func(x, y, z uint64) uint64 { return fout(b64(math.FMA(f64(x), f64(y), f64(z)))) })
	case frontend.OpNeg:
		if is32 {
			return lanes1(d, src(0), func(x uint64) uint64 { return fin(x) ^ 0x80000000 })
		}
		return lanes1(d, src(0), func(x uint64) uint64 { return x ^ 1<<63 })
	case frontend.OpAbs:
		if is32 {
			return lanes1(d, src(0), func(x uint64) uint64 { return fin(x) &^ 0x80000000 })
		}
		return lanes1(d, src(0), func(x uint64) uint64 { return x &^ (1 << 63) })
	case frontend.OpMin, frontend.OpMax:
		if e.has(frontend.ModNaN) || e.has(frontend.ModXorsign) {
			return e.unsupported()
		}
		isMax := in.Op == frontend.OpMax
		if is32 {
			return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return fout(minMax32(fin(x), fin(y), isMax)) })
		}
		return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return minMax64(x, y, isMax) })
	case frontend.OpSqrt:
		return un(func(x float32) float32 { return float32(math.Sqrt(float64(x))) }, math.Sqrt)
	case frontend.OpRcp:
		return un(func(x float32) float32 { return 1 / x }, func(x float64) float64 { return 1 / x })
	case frontend.OpRsqrt:
		if !approx {
			return e.unsupported()
		}
		return un(func(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) }, func(x float64) float64 { return 1 / math.Sqrt(x) })
	case frontend.OpEx2:
		return un(func(x float32) float32 { return float32(math.Exp2(float64(x))) }, nil)
	case frontend.OpLg2:
		return un(func(x float32) float32 { return float32(math.Log2(float64(x))) }, nil)
	case frontend.OpSin:
		return un(func(x float32) float32 { return float32(math.Sin(float64(x))) }, nil)
	case frontend.OpCos:
		return un(func(x float32) float32 { return float32(math.Cos(float64(x))) }, nil)
	case frontend.OpTanh:
		return un(func(x float32) float32 { return float32(math.Tanh(float64(x))) }, nil)
	}
	return e.unsupported()
}

// minMax32 is PTX min/max.f32: a NaN operand yields the other operand, two NaNs the canonical
// NaN, and -0 is smaller than +0.
func minMax32(x, y uint64, isMax bool) uint64 {
	a, b := f32(x), f32(y)
	switch {
	case a != a && b != b:
		return nan32
	case a != a:
		return y
	case b != b:
		return x
	case a == b:
		// Equal values differ only in the sign of zero: min prefers -0, max +0.
		if (x&0x80000000 != 0) != isMax {
			return x
		}
		return y
	case (a < b) != isMax:
		return x
	}
	return y
}

func minMax64(x, y uint64, isMax bool) uint64 {
	a, b := f64(x), f64(y)
	switch {
	case a != a && b != b:
		return nan64
	case a != a:
		return y
	case b != b:
		return x
	case a == b:
		if (x&(1<<63) != 0) != isMax {
			return x
		}
		return y
	case (a < b) != isMax:
		return x
	}
	return y
}
