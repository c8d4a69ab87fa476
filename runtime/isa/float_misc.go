package isa

// min, max, testp, copysign, neg and abs on f32 and f64.

const (
	sign32 uint32 = 0x80000000
	sign64 uint64 = 1 << 63
)

// MinF32 is min.f32: a NaN operand yields the other operand, two NaNs the canonical NaN, and
// -0 is smaller than +0. With nanProp (min.NaN.f32) any NaN operand yields the canonical NaN.
func MinF32(a, b uint32, nanProp bool) uint32 { return minMax32(a, b, false, nanProp) }

// MaxF32 is max.f32 with the NaN and signed-zero rules of MinF32; +0 is larger than -0.
func MaxF32(a, b uint32, nanProp bool) uint32 { return minMax32(a, b, true, nanProp) }

// MinF64 is min.f64, with the rules of MinF32.
func MinF64(a, b uint64, nanProp bool) uint64 { return minMax64(a, b, false, nanProp) }

// MaxF64 is max.f64, with the rules of MaxF32.
func MaxF64(a, b uint64, nanProp bool) uint64 { return minMax64(a, b, true, nanProp) }

// XorsignAbs32 applies .xorsign.abs to min/max.f32: op runs on |a| and |b|, and a non-NaN
// result takes the exclusive or of the operands' signs. A NaN result stays canonical.
func XorsignAbs32(op func(x, y uint32, nanProp bool) uint32, a, b uint32, nanProp bool) uint32 {
	d := op(a&^sign32, b&^sign32, nanProp)
	if d == NaN32 {
		return d
	}
	return d | (a^b)&sign32
}

func minMax32(x, y uint32, isMax, nanProp bool) uint32 {
	a, b := f32(x), f32(y)
	switch {
	case a != a && b != b, nanProp && (a != a || b != b):
		return NaN32
	case a != a:
		return y
	case b != b:
		return x
	case a == b:
		// Equal values differ at most in the sign of zero: min prefers -0, max +0.
		if (x&sign32 != 0) != isMax {
			return x
		}
		return y
	case (a < b) != isMax:
		return x
	}
	return y
}

func minMax64(x, y uint64, isMax, nanProp bool) uint64 {
	a, b := f64(x), f64(y)
	switch {
	case a != a && b != b, nanProp && (a != a || b != b):
		return NaN64
	case a != a:
		return y
	case b != b:
		return x
	case a == b:
		if (x&sign64 != 0) != isMax {
			return x
		}
		return y
	case (a < b) != isMax:
		return x
	}
	return y
}

// FloatClass is the property testp tests.
type FloatClass uint8

// The testp properties.
const (
	ClassFinite     FloatClass = iota // .finite: not infinite, not NaN
	ClassInfinite                     // .infinite: ±inf
	ClassNumber                       // .number: not NaN
	ClassNotANumber                   // .notanumber: NaN
	ClassNormal                       // .normal: normal, not zero
	ClassSubnormal                    // .subnormal: subnormal, not zero
)

// TestpF32 is testp.op.f32: whether a has property c.
func TestpF32(c FloatClass, a uint32) bool {
	exp, man := a>>23&0xff, a&(1<<23-1)
	return testp(c, exp == 0xff, exp == 0, man == 0)
}

// TestpF64 is testp.op.f64: whether a has property c.
func TestpF64(c FloatClass, a uint64) bool {
	exp, man := a>>52&0x7ff, a&(1<<52-1)
	return testp(c, exp == 0x7ff, exp == 0, man == 0)
}

// testp classifies a value by whether its exponent field is all ones (maxExp) or zero
// (minExp) and whether its mantissa field is zero.
func testp(c FloatClass, maxExp, minExp, manZero bool) bool {
	switch c {
	case ClassFinite:
		return !maxExp
	case ClassInfinite:
		return maxExp && manZero
	case ClassNumber:
		return !maxExp || manZero
	case ClassNotANumber:
		return maxExp && !manZero
	case ClassNormal:
		return !maxExp && !minExp
	}
	return minExp && !manZero
}

// CopysignF32 is copysign.f32 d, a, b: b with the sign of a (note the operand order, the
// reverse of C's copysign). The bits of b are kept, NaN payloads included.
func CopysignF32(a, b uint32) uint32 { return b&^sign32 | a&sign32 }

// CopysignF64 is copysign.f64 d, a, b: b with the sign of a.
func CopysignF64(a, b uint64) uint64 { return b&^sign64 | a&sign64 }

// NegF32 is neg.f32: the sign bit flipped, NaNs included.
func NegF32(a uint32) uint32 { return a ^ sign32 }

// NegF64 is neg.f64: the sign bit flipped.
func NegF64(a uint64) uint64 { return a ^ sign64 }

// AbsF32 is abs.f32: the sign bit cleared.
func AbsF32(a uint32) uint32 { return a &^ sign32 }

// AbsF64 is abs.f64: the sign bit cleared.
func AbsF64(a uint64) uint64 { return a &^ sign64 }
