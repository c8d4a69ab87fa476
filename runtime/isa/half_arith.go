package isa

import "math"

// The half-precision arithmetic of PTX (add, sub, mul, fma on .f16 and .bf16; each lane of
// .f16x2/.bf16x2 is one call). The ISA defines only .rn for these; every result is correctly
// rounded from the exact value and a NaN result is the canonical NaN 0x7fff. Callers apply
// .ftz (FtzF16 on inputs and result), .sat (SatF16) and .relu (ReluF16) around them.

// sumOdd returns p + c rounded to float64 in round-to-odd: the round-to-nearest sum, moved one
// step toward the exact sum when it is inexact and its last bit is even. Rounding that result
// again, in any direction, to a format of at most 51 bits of precision is the same as rounding
// the exact sum once, which makes the two-step rounding below correct.
func sumOdd(p, c float64) float64 {
	s := p + c
	if s == 0 || math.IsInf(s, 0) || s != s {
		return s
	}
	// TwoSum: s + err == p + c exactly.
	bb := s - p
	err := (p - (s - bb)) + (c - bb)
	if b := math.Float64bits(s); err != 0 && b&1 == 0 {
		if (err > 0) == (s > 0) {
			return math.Float64frombits(b + 1)
		}
		return math.Float64frombits(b - 1)
	}
	return s
}

// result rounds an exactly-or-odd-rounded float64 result to format f with .rn.
func (f halfFormat) result(x float64) uint16 { return uint16(f.fromFloat64(x, RN, NaNF16)) }

// The products of two 16-bit values are exact in float64 (at most 22 significand bits, and
// their exponents stay far inside float64's range), so mul rounds once and fma adds with
// sumOdd.

// AddF16 is add.rn.f16.
func AddF16(a, b uint16) uint16 { return fmtF16.result(sumOdd(F16Value(a), F16Value(b))) }

// SubF16 is sub.rn.f16.
func SubF16(a, b uint16) uint16 { return fmtF16.result(sumOdd(F16Value(a), -F16Value(b))) }

// MulF16 is mul.rn.f16.
func MulF16(a, b uint16) uint16 { return fmtF16.result(F16Value(a) * F16Value(b)) }

// FmaF16 is fma.rn.f16: a*b+c with a single rounding.
func FmaF16(a, b, c uint16) uint16 {
	return fmtF16.result(sumOdd(F16Value(a)*F16Value(b), F16Value(c)))
}

// AddBF16 is add.rn.bf16.
func AddBF16(a, b uint16) uint16 { return fmtBF16.result(sumOdd(BF16Value(a), BF16Value(b))) }

// SubBF16 is sub.rn.bf16.
func SubBF16(a, b uint16) uint16 { return fmtBF16.result(sumOdd(BF16Value(a), -BF16Value(b))) }

// MulBF16 is mul.rn.bf16.
func MulBF16(a, b uint16) uint16 { return fmtBF16.result(BF16Value(a) * BF16Value(b)) }

// FmaBF16 is fma.rn.bf16: a*b+c with a single rounding.
func FmaBF16(a, b, c uint16) uint16 {
	return fmtBF16.result(sumOdd(BF16Value(a)*BF16Value(b), BF16Value(c)))
}

// SumF32 rounds the exact sum x + y of two float64 values to f32 in direction r; a NaN gives
// the canonical NaN. It is the mixed-precision add/sub{.rnd}.f32.{f16,bf16} (x the widened
// 16-bit operand) and fma.rnd.f32.{f16,bf16} (x the exact product of the 16-bit operands).
// An exact zero sum of operands that are not both +0 is -0 when rounding toward -inf, as IEEE
// 754 specifies, and +0 otherwise.
func SumF32(x, y float64, r Rounding) uint32 {
	s := sumOdd(x, y)
	if s == 0 && r == RM && !(x == 0 && y == 0 && !math.Signbit(x) && !math.Signbit(y)) {
		return 0x80000000
	}
	return uint32(fmtF32.fromFloat64(s, r, NaNF32))
}

// MinF16 is min{.NaN}{.xorsign.abs}.f16: a NaN operand yields the other operand (with .NaN,
// the canonical NaN), two NaNs the canonical NaN, and -0 is below +0. With .xorsign.abs the
// magnitudes are compared and the result's sign is the XOR of the operands' signs.
func MinF16(a, b uint16, nan, xorsignAbs bool) uint16 {
	return fmtF16.minMax(a, b, false, nan, xorsignAbs)
}

// MaxF16 is max{.NaN}{.xorsign.abs}.f16; see MinF16.
func MaxF16(a, b uint16, nan, xorsignAbs bool) uint16 {
	return fmtF16.minMax(a, b, true, nan, xorsignAbs)
}

// MinBF16 is min{.NaN}{.xorsign.abs}.bf16; see MinF16.
func MinBF16(a, b uint16, nan, xorsignAbs bool) uint16 {
	return fmtBF16.minMax(a, b, false, nan, xorsignAbs)
}

// MaxBF16 is max{.NaN}{.xorsign.abs}.bf16; see MinF16.
func MaxBF16(a, b uint16, nan, xorsignAbs bool) uint16 {
	return fmtBF16.minMax(a, b, true, nan, xorsignAbs)
}

func (f halfFormat) minMax(a, b uint16, isMax, nan, xorsignAbs bool) uint16 {
	var sign uint16
	if xorsignAbs {
		sign = (a ^ b) & 0x8000
		a &= 0x7fff
		b &= 0x7fff
	}
	an, bn := f.isNaN(uint64(a)), f.isNaN(uint64(b))
	var d uint16
	switch {
	case an && bn, nan && (an || bn):
		return NaNF16
	case an:
		d = b
	case bn:
		d = a
	default:
		x, y := f.value(uint64(a)), f.value(uint64(b))
		switch {
		case x == y:
			// Equal values differ at most in the sign of zero: min takes -0, max +0.
			if (a&0x8000 != 0) != isMax {
				d = a
			} else {
				d = b
			}
		case (x < y) != isMax:
			d = a
		default:
			d = b
		}
	}
	if xorsignAbs {
		d = d&0x7fff | sign
	}
	return d
}

// CvtPack is cvt.pack.sat.{u8,s8,u16,s16}.s32{.b32}: a and b are saturated to the n-bit
// integer type; b fills bits 0..n-1 of the result, a bits n..2n-1, and when 2n < 32 the low
// bits of c fill the rest.
func CvtPack(a, b int32, c uint32, n int, signed bool) uint32 {
	lo, hi := int64(0), int64(1)<<n-1
	if signed {
		lo, hi = -int64(1)<<(n-1), int64(1)<<(n-1)-1
	}
	sat := func(v int32) uint32 { return uint32(min(max(int64(v), lo), hi)) & (1<<n - 1) }
	d := sat(b) | sat(a)<<n
	if 2*n < 32 {
		d |= c << (2 * n)
	}
	return d
}
