package isa

import "math"

// The .approx instructions. The ISA bounds their error rather than defining their result
// bits, so these compute the function in float64 (the Go math library is accurate to about
// 1 ulp of float64) and round once to the destination format: for f32 results the error is
// at most 0.5 ulp + 2^-28 ulp of the result, far inside every bound the ISA states (the
// tests measure it). The results are therefore not bit-identical to a GPU's, which differ
// between GPU generations too; special values (infinities, zeros, NaN) follow the ISA exactly.
// The .ftz forms are these functions with Ftz32/Ftz64 applied to the operands and result.

// approx32 rounds f to float32 bits, NaN to the canonical NaN.
func approx32(f float64) uint32 { return canon32(float32(f)) }

// SinApproxF32 is sin.approx.f32. The ISA allows an absolute error of 2^-20.5 in
// [-100π, 100π]; this achieves at most 2^-25 (half an ulp of a result in [-1, 1]) everywhere.
// sin(±inf) is NaN, sin(±0) is ±0.
func SinApproxF32(a uint32) uint32 { return approx32(math.Sin(float64(f32(a)))) }

// CosApproxF32 is cos.approx.f32, with the error of SinApproxF32. cos(±inf) is NaN.
func CosApproxF32(a uint32) uint32 { return approx32(math.Cos(float64(f32(a)))) }

// Lg2ApproxF32 is lg2.approx.f32. The ISA allows an absolute error of 2^-22.6 for operands
// in [1, 2) (the mantissa); this achieves 2^-25 there and 0.5 ulp + 2^-28 ulp of the result
// everywhere. lg2(±0) is -inf, lg2(+inf) is +inf, negative operands give NaN.
func Lg2ApproxF32(a uint32) uint32 { return approx32(math.Log2(float64(f32(a)))) }

// Ex2ApproxF32 is ex2.approx.f32. The ISA allows a relative error of 2^-22 (2 ulp); this
// achieves 0.5 ulp + 2^-28 ulp. ex2(-inf) is +0, ex2(+inf) is +inf.
func Ex2ApproxF32(a uint32) uint32 { return approx32(math.Exp2(float64(f32(a)))) }

// TanhApproxF32 is tanh.approx.f32. The ISA allows a relative error of 2^-10.987; this
// achieves 0.5 ulp + 2^-28 ulp. tanh(±inf) is ±1, tanh(±0) is ±0.
func TanhApproxF32(a uint32) uint32 { return approx32(math.Tanh(float64(f32(a)))) }

// RsqrtApproxF32 is rsqrt.approx.f32. The ISA allows a relative error of 2^-22.9; this
// achieves 0.5 ulp + 2^-28 ulp. rsqrt(±0) is ±inf, rsqrt(+inf) is +0, negative operands
// give NaN.
func RsqrtApproxF32(a uint32) uint32 {
	return approx32(1 / math.Sqrt(float64(f32(a))))
}

// RsqrtApproxF64 is rsqrt.approx.f64 (and, with Ftz64 on operand and result,
// rsqrt.approx.ftz.f64). The ISA gives no error bound beyond "approximate"; this is the
// reciprocal of the correctly rounded root, rounded to nearest: within 1.5 ulp.
func RsqrtApproxF64(a uint64) uint64 { return canon64(1 / math.Sqrt(f64(a))) }

// DivApproxF32 is div.approx.f32. The ISA computes it as a * (1/b), with at most 2 ulp of
// error for 2^-126 <= |b| <= 2^126, and for 2^126 < |b| < 2^128 defines the result as 0
// (NaN when a is infinite), the reciprocal being flushed to zero there. This returns that
// zero (signed as the product's) in that range and the correctly rounded quotient elsewhere.
func DivApproxF32(a, b uint32) uint32 {
	if mag := b &^ 0x80000000; mag > 0x7e800000 && mag < 0x7f800000 {
		x := f32(a)
		if math.IsInf(float64(x), 0) || x != x {
			return NaN32
		}
		return (a ^ b) & 0x80000000
	}
	return DivF32(a, b, RN)
}
