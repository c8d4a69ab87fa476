package isa

import "math"

// Rounding is a rounding direction: PTX's .rn, .rz, .rm, .rp and .rna. The f32 and f64
// arithmetic functions take RN, RZ, RM and RP (the only modes the ISA defines for them); RNA
// is only defined for conversions (cvt.rna.tf32.f32), which the format rounding of half.go
// and fp8.go implements.
type Rounding uint8

// The rounding directions. RN (to nearest, ties to even) is the zero value.
const (
	RN  Rounding = iota // .rn: to nearest, ties to even
	RZ                  // .rz: toward zero
	RM                  // .rm: toward negative infinity
	RP                  // .rp: toward positive infinity
	RNA                 // .rna: to nearest, ties away from zero
)

// The canonical NaNs PTX arithmetic produces whenever its result is NaN, whatever the NaN
// operands' payloads.
const (
	NaN32 uint32 = 0x7fffffff
	NaN64 uint64 = 0x7fffffffffffffff
)

func f32(v uint32) float32 { return math.Float32frombits(v) }
func f64(v uint64) float64 { return math.Float64frombits(v) }
func b32(f float32) uint32 { return math.Float32bits(f) }
func b64(f float64) uint64 { return math.Float64bits(f) }

// canon32 returns the bits of f, or the canonical NaN when f is NaN.
func canon32(f float32) uint32 {
	if f != f {
		return NaN32
	}
	return b32(f)
}

func canon64(f float64) uint64 {
	if f != f {
		return NaN64
	}
	return b64(f)
}

// Ftz32 flushes an f32 subnormal to zero of the same sign (.ftz).
func Ftz32(v uint32) uint32 {
	if v&0x7f800000 == 0 {
		return v & 0x80000000
	}
	return v
}

// Ftz64 flushes an f64 subnormal to zero of the same sign (.ftz of rcp.approx.ftz.f64 and
// rsqrt.approx.ftz.f64).
func Ftz64(v uint64) uint64 {
	if v&0x7ff0000000000000 == 0 {
		return v & (1 << 63)
	}
	return v
}

// Sat32 is .sat on an f32 result: clamp to [0, 1], NaN (and -0) to +0.
func Sat32(v uint32) uint32 {
	f := f32(v)
	switch {
	case f != f || f <= 0:
		return 0
	case f > 1:
		return b32(1)
	}
	return v
}

// Sat64 is .sat on an f64 result: clamp to [0, 1], NaN (and -0) to +0.
func Sat64(v uint64) uint64 {
	f := f64(v)
	switch {
	case f != f || f <= 0:
		return 0
	case f > 1:
		return b64(1)
	}
	return v
}

// twoSumErr returns the rounding error of s = x + y (so x + y == s + err exactly): Dekker's
// Fast2Sum on the operands ordered by magnitude, exact for any finite x, y whose sum does not
// overflow, and without the intermediate overflow Knuth's TwoSum can hit near the largest
// finite values.
func twoSumErr(x, y, s float64) float64 {
	if math.Abs(x) < math.Abs(y) {
		x, y = y, x
	}
	return y - (s - x)
}

// sign is -1, 0 or +1 by the sign of f (0 for zero and NaN).
func sign(f float64) int {
	switch {
	case f > 0:
		return 1
	case f < 0:
		return -1
	}
	return 0
}

// toOdd turns hi, a float64 rounded to nearest from an exact value lying on side dir of it
// (dir = sign(exact - hi)), into that exact value rounded to odd: hi when exact, otherwise the
// neighbour toward exact whose last mantissa bit is 1. A value rounded to odd at 53 bits
// rounds correctly to float32 in any direction (53 >= 24 + 2), which removes double rounding.
func toOdd(hi float64, dir int) float64 {
	b := b64(hi)
	if dir == 0 || b&1 == 1 {
		return hi
	}
	if (dir > 0) == (hi > 0) {
		return f64(b + 1)
	}
	return f64(b - 1)
}

// round64To32 rounds a float64 to float32 bits in direction r, with float32 subnormals and
// overflow as IEEE 754 defines them. NaN becomes the canonical NaN.
func round64To32(x float64, r Rounding) uint32 {
	f := float32(x)
	if f != f {
		return NaN32
	}
	if r == RN || float64(f) == x {
		return b32(f)
	}
	above := float64(f) > x
	switch {
	case above && (r == RM || r == RZ && x > 0):
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	case !above && (r == RP || r == RZ && x < 0):
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return b32(f)
}

// Round64To32 is cvt.{rn,rz,rm,rp}.f32.f64: x rounded to float32 in direction r, with the
// canonical NaN for NaN.
func Round64To32(x uint64, r Rounding) uint32 { return round64To32(f64(x), r) }

// step64 moves s, the float64 nearest to an exact value lying on side dir of it, one ulp
// toward that value when direction r asks for it: the directed rounding of the exact value.
func step64(s float64, dir int, r Rounding) float64 {
	switch {
	case dir == 0:
	case dir < 0 && (r == RM || r == RZ && s > 0):
		return math.Nextafter(s, math.Inf(-1))
	case dir > 0 && (r == RP || r == RZ && s < 0):
		return math.Nextafter(s, math.Inf(1))
	}
	return s
}

// overflow64 is the result of an operation whose exact result overflows float64 (rounding to
// nearest gave an infinity from finite operands): infinity or the largest finite value,
// whichever direction r picks.
func overflow64(neg bool, r Rounding) float64 {
	inf := r == RN || r == RP && !neg || r == RM && neg
	switch {
	case inf && neg:
		return math.Inf(-1)
	case inf:
		return math.Inf(1)
	case neg:
		return -math.MaxFloat64
	}
	return math.MaxFloat64
}

// exactZero is the sign rule of IEEE 754 for an exact zero sum: -0 when both addends are -0,
// and under RM whenever either addend is negative (opposite signs cancel to -0 there).
func exactZero(negX, negY bool, r Rounding) float64 {
	if negX && negY || r == RM && (negX || negY) {
		return math.Copysign(0, -1)
	}
	return 0
}

// AddF32 is add{.rnd}.f32 (without .ftz and .sat, which the caller applies with Ftz32 and
// Sat32): the exact sum rounded once in direction r.
func AddF32(a, b uint32, r Rounding) uint32 {
	x, y := float64(f32(a)), float64(f32(b))
	s := x + y
	switch {
	case s != s:
		return NaN32
	case r == RN:
		return AddF32RN(a, b)
	case s == 0:
		return round64To32(exactZero(math.Signbit(x), math.Signbit(y), r), r)
	}
	return round64To32(toOdd(s, sign(twoSumErr(x, y, s))), r)
}

// SubF32 is sub{.rnd}.f32: a + (-b).
func SubF32(a, b uint32, r Rounding) uint32 { return AddF32(a, b^0x80000000, r) }

// CanonF32 returns f, or the canonical NaN when f is NaN: the result of an f32 add, sub or
// mul done on Go float32 values, which generated code keeps in floating-point registers.
func CanonF32(f float32) float32 {
	if f != f {
		return math.Float32frombits(NaN32)
	}
	return f
}

// AddF32RN, SubF32RN, MulF32RN and DivF32RN are the round-to-nearest forms, small enough to
// inline into the lane loops: float32 arithmetic in Go is IEEE 754 single precision.
func AddF32RN(a, b uint32) uint32 { return canon32(f32(a) + f32(b)) }

// SubF32RN is sub.rn.f32.
func SubF32RN(a, b uint32) uint32 { return canon32(f32(a) - f32(b)) }

// MulF32RN is mul.rn.f32.
func MulF32RN(a, b uint32) uint32 { return canon32(f32(a) * f32(b)) }

// DivF32RN is div.rn.f32.
func DivF32RN(a, b uint32) uint32 { return canon32(f32(a) / f32(b)) }

// MulF32 is mul{.rnd}.f32: the product of two float32 values is exact in float64, so one
// rounding to float32 is the correctly rounded product.
func MulF32(a, b uint32, r Rounding) uint32 {
	return round64To32(float64(f32(a))*float64(f32(b)), r)
}

// FmaF32 is fma{.rnd}.f32 and mad{.rnd}.f32: a*b + c with a single rounding in direction r.
// The product is exact in float64; the sum is rounded to odd (its float64 value and the
// sign of its exact error) before the one rounding to float32.
func FmaF32(a, b, c uint32, r Rounding) uint32 {
	if r == RN {
		return FmaF32RN(a, b, c)
	}
	return fmaF32(a, b, c, r)
}

// FmaF32RN is fma.rn.f32. One float64 FMA rounded to float32 is correct unless the float64
// sum was rounded onto a float32 midpoint or lies near the float32 subnormal range
// (FmaF32Rounded); those take the round-to-odd path.
func FmaF32RN(a, b, c uint32) uint32 {
	// The product of two float32 values is exact in float64: multiplying, then adding, is
	// the float64 fma.
	p, z := float64(f32(a))*float64(f32(b)), float64(f32(c))
	f := p + z
	if FmaF32Rounded(p, z, f) {
		return b32(float32(f))
	}
	return fmaF32(a, b, c, RN)
}

// FmaF32Rounded reports whether float32(f), for f = p + z in float64, p the exact product of
// two float32 values and z the float32 addend, is their exact fma.rn.f32: f lies in a binade
// of normal float32 values but the lowest and the highest (so float32(f) is normal and finite,
// and f's float32 midpoints are where the test looks), and f is not a float32 midpoint or is
// p + z exactly, a true midpoint that float32 rounds to even. The sum is exact when f - p is
// z and f - z is p: the difference from the operand of larger magnitude is computed exactly
// (Fast2Sum), so it equals the other operand only if nothing was rounded. The test reads f's
// bits alone, so lane loops keep FmaF32RN's common case inline without float32's bits.
func FmaF32Rounded(p, z, f float64) bool {
	u := b64(f)
	// Biased float64 exponents 898 to 1149 are float32's 2 to 253.
	return (u&(1<<29-1) != 1<<28 || f-p == z && f-z == p) && u>>52&0x7ff-898 < 252
}

// fmaF32 is FmaF32 through round-to-odd.
func fmaF32(a, b, c uint32, r Rounding) uint32 {
	x, y, z := float64(f32(a)), float64(f32(b)), float64(f32(c))
	p := x * y
	s := p + z
	switch {
	case s != s:
		return NaN32
	case s == 0:
		return round64To32(exactZero(math.Signbit(p), math.Signbit(z), r), r)
	case math.IsInf(s, 0):
		return round64To32(s, r)
	}
	return round64To32(toOdd(s, sign(twoSumErr(p, z, s))), r)
}

// DivF32 is div.{rn,rz,rm,rp}.f32 and div.full.f32: the quotient correctly rounded in
// direction r. (div.full allows 2 ulp of error; this is exact.) The float64 quotient's sign
// of error comes from its exact remainder a - q*b, computed with one FMA.
func DivF32(a, b uint32, r Rounding) uint32 {
	if r == RN {
		return DivF32RN(a, b)
	}
	x, y := float64(f32(a)), float64(f32(b))
	q := x / y
	switch {
	case q != q:
		return NaN32
	case q == 0 || math.IsInf(q, 0):
		return round64To32(q, r)
	}
	rem := math.FMA(-q, y, x)
	return round64To32(toOdd(q, sign(rem)*sign(y)), r)
}

// RcpF32 is rcp.{rn,rz,rm,rp}.f32 and rcp.approx.f32 (which allows 1 ulp of error; this is
// correctly rounded): 1/a.
func RcpF32(a uint32, r Rounding) uint32 { return DivF32(b32(1), a, r) }

// SqrtF32 is sqrt.{rn,rz,rm,rp}.f32 and sqrt.approx.f32 (which allows a relative error of
// 2^-23; this is correctly rounded). Negative operands give the canonical NaN; sqrt(-0) = -0.
func SqrtF32(a uint32, r Rounding) uint32 {
	x := float64(f32(a))
	q := math.Sqrt(x)
	switch {
	case q != q:
		return NaN32
	case r == RN || q == 0 || math.IsInf(q, 0):
		return round64To32(q, r)
	}
	return round64To32(toOdd(q, sign(math.FMA(-q, q, x))), r)
}

// AddF64 is add{.rnd}.f64: the sum rounded to nearest by the hardware, then moved one ulp
// when the exact error (TwoSum) says the direction r wants the other neighbour.
func AddF64(a, b uint64, r Rounding) uint64 {
	x, y := f64(a), f64(b)
	s := x + y
	switch {
	case s != s:
		return NaN64
	case r == RN:
		return AddF64RN(a, b)
	case s == 0:
		return b64(exactZero(math.Signbit(x), math.Signbit(y), r))
	case math.IsInf(s, 0):
		if math.IsInf(x, 0) || math.IsInf(y, 0) {
			return b64(s)
		}
		return b64(overflow64(s < 0, r))
	}
	return b64(step64(s, sign(twoSumErr(x, y, s)), r))
}

// SubF64 is sub{.rnd}.f64: a + (-b).
func SubF64(a, b uint64, r Rounding) uint64 { return AddF64(a, b^1<<63, r) }

// AddF64RN, SubF64RN, MulF64RN, FmaF64RN and DivF64RN are the round-to-nearest forms, small
// enough to inline into the lane loops.
func AddF64RN(a, b uint64) uint64 { return canon64(f64(a) + f64(b)) }

// SubF64RN is sub.rn.f64.
func SubF64RN(a, b uint64) uint64 { return canon64(f64(a) - f64(b)) }

// MulF64RN is mul.rn.f64.
func MulF64RN(a, b uint64) uint64 { return canon64(f64(a) * f64(b)) }

// FmaF64RN is fma.rn.f64.
func FmaF64RN(a, b, c uint64) uint64 { return canon64(math.FMA(f64(a), f64(b), f64(c))) }

// DivF64RN is div.rn.f64.
func DivF64RN(a, b uint64) uint64 { return canon64(f64(a) / f64(b)) }

// MulF64 is mul{.rnd}.f64. The product's exact error is an FMA away (TwoProd) unless the
// product is so small that the error underflows; those go through math/big.
func MulF64(a, b uint64, r Rounding) uint64 {
	x, y := f64(a), f64(b)
	p := x * y
	switch {
	case p != p:
		return NaN64
	case r == RN || x == 0 || y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0):
		return b64(p)
	case math.IsInf(p, 0):
		return b64(overflow64(p < 0, r))
	case math.Abs(p) < 0x1p-960:
		return b64(bigMul64(x, y, r))
	}
	return b64(step64(p, sign(math.FMA(x, y, -p)), r))
}

// FmaF64 is fma{.rnd}.f64 and mad{.rnd}.f64. Round to nearest is math.FMA; the directed
// modes compute the exact a*b + c with math/big and round it once.
func FmaF64(a, b, c uint64, r Rounding) uint64 {
	x, y, z := f64(a), f64(b), f64(c)
	f := math.FMA(x, y, z)
	switch {
	case f != f:
		return NaN64
	case r == RN || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0):
		return b64(f)
	case x == 0 || y == 0:
		if z == 0 {
			return b64(exactZero(math.Signbit(x) != math.Signbit(y), math.Signbit(z), r))
		}
		return c
	}
	return b64(bigFma64(x, y, z, r))
}

// DivF64 is div.{rn,rz,rm,rp}.f64. The quotient's exact remainder (one FMA) gives the side of
// the exact quotient; tiny quotients and dividends, where the remainder underflows, go
// through math/big.
func DivF64(a, b uint64, r Rounding) uint64 {
	x, y := f64(a), f64(b)
	q := x / y
	switch {
	case q != q:
		return NaN64
	case r == RN || x == 0 || y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0):
		return b64(q)
	case math.IsInf(q, 0):
		return b64(overflow64(q < 0, r))
	case math.Abs(q) < 0x1p-1000 || math.Abs(x) < 0x1p-960:
		return b64(bigQuo64(x, y, r))
	}
	return b64(step64(q, sign(math.FMA(-q, y, x))*sign(y), r))
}

// RcpF64 is rcp.{rn,rz,rm,rp}.f64: 1/a.
func RcpF64(a uint64, r Rounding) uint64 { return DivF64(b64(1), a, r) }

// SqrtF64 is sqrt.{rn,rz,rm,rp}.f64. The root's exact remainder a - q*q (one FMA) gives the
// side of the exact root; tiny operands are first scaled by 2^128 so that the remainder
// cannot underflow, the root then scaled back exactly by 2^-64.
func SqrtF64(a uint64, r Rounding) uint64 {
	x := f64(a)
	q := math.Sqrt(x)
	switch {
	case q != q:
		return NaN64
	case r == RN || x == 0 || math.IsInf(x, 0):
		return b64(q)
	}
	scale := 1.0
	if x < 0x1p-960 {
		x *= 0x1p128
		q = math.Sqrt(x)
		scale = 0x1p-64
	}
	return b64(step64(q, sign(math.FMA(-q, q, x)), r) * scale)
}
