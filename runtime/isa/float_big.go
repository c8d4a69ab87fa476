package isa

import (
	"math"
	"math/big"
)

// The math/big fallbacks of the f64 operations whose directed rounding has no cheap exact
// error term: fma, and products and quotients near the subnormal range. big.Float rounds
// correctly to a precision but has no subnormals and no overflow, so roundBig64 adds both.

// bigMode maps a rounding direction to math/big's.
func bigMode(r Rounding) big.RoundingMode {
	switch r {
	case RZ:
		return big.ToZero
	case RM:
		return big.ToNegativeInf
	case RP:
		return big.ToPositiveInf
	case RNA:
		return big.ToNearestAway
	}
	return big.ToNearestEven
}

// roundBig64 rounds x, an exact non-zero value or one rounded to odd at a precision well
// above 53 bits, to float64 in direction r: subnormals are rounded at the absolute precision
// 2^-1074, values beyond the largest finite one overflow as IEEE 754 says.
func roundBig64(x *big.Float, r Rounding) float64 {
	neg := x.Signbit()
	z := new(big.Float).SetPrec(53).SetMode(bigMode(r))
	if x.MantExp(nil) <= -1022 {
		// |x| < 2^-1022: adding ±2^-1022 puts the value in the binade whose ulp is 2^-1074,
		// so the rounding at 53 bits is the rounding to a multiple of 2^-1074; removing
		// the constant again is exact.
		c := new(big.Float).SetFloat64(math.Copysign(0x1p-1022, float64(x.Sign())))
		z.Add(x, c)
		z.Sub(z, c)
		f, _ := z.Float64()
		return math.Copysign(f, float64(x.Sign()))
	}
	z.Set(x)
	if z.MantExp(nil) > 1024 {
		return overflow64(neg, r)
	}
	f, _ := z.Float64()
	return f
}

// bigMul64 is the product x*y rounded in direction r.
func bigMul64(x, y float64, r Rounding) float64 {
	p := new(big.Float).SetPrec(106).Mul(big.NewFloat(x), big.NewFloat(y))
	return roundBig64(p, r)
}

// bigFma64 is x*y + z rounded once in direction r, for finite non-zero x, y and finite z.
// The exact sum spans at most 2*1074 + 2*1024 bits, well inside the working precision.
func bigFma64(x, y, z float64, r Rounding) float64 {
	p := new(big.Float).SetPrec(106).Mul(big.NewFloat(x), big.NewFloat(y))
	s := new(big.Float).SetPrec(4400).Add(p, big.NewFloat(z))
	if s.Sign() == 0 {
		return exactZero(p.Signbit(), math.Signbit(z), r)
	}
	return roundBig64(s, r)
}

// bigQuo64 is x/y rounded in direction r, for finite non-zero x and y. The quotient is
// truncated at 250 bits and, when inexact, given a sticky bit below those: that value lies
// on the same side of every rounding boundary of a coarser grid as the exact quotient.
func bigQuo64(x, y float64, r Rounding) float64 {
	q := new(big.Float).SetPrec(250).SetMode(big.ToZero).Quo(big.NewFloat(x), big.NewFloat(y))
	if q.Acc() != big.Exact {
		sticky := new(big.Float).SetMantExp(big.NewFloat(float64(q.Sign())), q.MantExp(nil)-260)
		q.SetPrec(300).Add(q, sticky)
	}
	return roundBig64(q, r)
}
