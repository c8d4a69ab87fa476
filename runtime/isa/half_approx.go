package isa

import "math"

// ex2.approx and tanh.approx on the 16-bit formats. The ISA only bounds their error; these
// return the correctly rounded result (to nearest even), the most accurate value any bound
// allows, so they are deterministic and within every documented bound.

// approxHalf evaluates fn on the exact value of h in format f and rounds the float64 result
// to f; a NaN operand or result gives the canonical NaN. float64 carries 53 bits, so the
// rounding to 11 or 8 bits is correct except in the (never observed) case of a transcendental
// result within 2^-53 relative of a rounding boundary.
func approxHalf(f halfFormat, h uint16, fn func(float64) float64) uint16 {
	r := fn(f.value(uint64(h)))
	if r != r {
		return NaNF16
	}
	return uint16(f.fromFloat64(r, RN, NaNF16))
}

// ftzBF16 flushes a bf16 subnormal to zero of the same sign.
func ftzBF16(h uint16) uint16 {
	if h&0x7f80 == 0 {
		return h & 0x8000
	}
	return h
}

// Ex2ApproxF16 is ex2.approx.f16: 2^a (2^-inf = +0, 2^+inf = +inf), subnormals kept.
func Ex2ApproxF16(h uint16) uint16 { return approxHalf(fmtF16, h, math.Exp2) }

// Ex2ApproxFtzBF16 is ex2.approx.ftz.bf16: 2^a with subnormal operands and results flushed
// to zero of the same sign.
func Ex2ApproxFtzBF16(h uint16) uint16 {
	return ftzBF16(approxHalf(fmtBF16, ftzBF16(h), math.Exp2))
}

// TanhApproxF16 is tanh.approx.f16 (tanh(±0) = ±0, tanh(±inf) = ±1).
func TanhApproxF16(h uint16) uint16 { return approxHalf(fmtF16, h, math.Tanh) }

// TanhApproxBF16 is tanh.approx.bf16.
func TanhApproxBF16(h uint16) uint16 { return approxHalf(fmtBF16, h, math.Tanh) }
