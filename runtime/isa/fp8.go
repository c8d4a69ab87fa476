package isa

import "math"

// The narrow floating-point formats of cvt (PTX ISA 8.6+): the 8-bit .e4m3 and .e5m2, the
// 6-bit .e2m3 and .e3m2, the 4-bit .e2m1 and the exponent-only .ue8m0. They only appear packed
// in pairs (.e4m3x2 and the like) and only as the source or destination of a conversion; the
// functions here convert one element.

// Narrow is one of the signed narrow formats: E4M3, E5M2, E2M3, E3M2 or E2M1.
type Narrow uint8

// The signed narrow formats.
const (
	E4M3 Narrow = iota // 1 sign, 4 exponent, 3 fraction bits (bias 7); no infinity, NaN 0x7f/0xff
	E5M2               // 1 sign, 5 exponent, 2 fraction bits (bias 15); IEEE-style infinities and NaNs
	E2M3               // 1 sign, 2 exponent, 3 fraction bits (bias 1); finite only
	E3M2               // 1 sign, 3 exponent, 2 fraction bits (bias 3); finite only
	E2M1               // 1 sign, 2 exponent, 1 fraction bit (bias 1); finite only
)

// narrowFormat is the layout of a narrow format: fraction bits, exponent bias, the sign bit,
// the magnitude code of the largest finite value, and the magnitude codes of infinity and of
// the canonical NaN (0 where the format has none).
type narrowFormat struct {
	frac, bias   int
	sign, maxFin uint8
	inf, nan     uint8
}

var narrowFormats = [...]narrowFormat{
	E4M3: {frac: 3, bias: 7, sign: 0x80, maxFin: 0x7e, nan: 0x7f},
	E5M2: {frac: 2, bias: 15, sign: 0x80, maxFin: 0x7b, inf: 0x7c, nan: 0x7f},
	E2M3: {frac: 3, bias: 1, sign: 0x20, maxFin: 0x1f},
	E3M2: {frac: 2, bias: 3, sign: 0x20, maxFin: 0x1f},
	E2M1: {frac: 1, bias: 1, sign: 0x08, maxFin: 0x07},
}

// Bits is the width of one element of the format.
func (n Narrow) Bits() int {
	switch n {
	case E4M3, E5M2:
		return 8
	case E2M1:
		return 4
	}
	return 6
}

// NarrowValue decodes the element c of format n exactly (bits above the element's width are
// ignored); a NaN encoding decodes to a float64 NaN, E5M2's infinities to ±Inf.
func NarrowValue(n Narrow, c uint8) float64 {
	f := narrowFormats[n]
	c &= f.sign<<1 - 1
	mag := c &^ f.sign
	var v float64
	switch {
	case f.nan != 0 && mag >= f.nan, f.inf != 0 && mag > f.inf:
		return math.NaN()
	case f.inf != 0 && mag == f.inf:
		v = math.Inf(1)
	default:
		exp := int(mag >> f.frac)
		m := int(mag & (1<<f.frac - 1))
		if exp == 0 {
			v = math.Ldexp(float64(m), 1-f.bias-f.frac)
		} else {
			v = math.Ldexp(float64(m|1<<f.frac), exp-f.bias-f.frac)
		}
	}
	if c&f.sign != 0 {
		v = -v
	}
	return v
}

// NarrowFromF64 is the element conversion of cvt.rn.satfinite{.relu} to format n: x is
// rounded to nearest, ties to even, with gradual underflow; a magnitude above the largest
// finite value (infinity included) gives that value with x's sign. A NaN gives the format's
// NaN 0x7f for E4M3 and E5M2 and +MAX_NORM for the formats without NaN, as .satfinite
// specifies. With relu a negative result (-0 included) becomes +0.
func NarrowFromF64(n Narrow, x float64, relu bool) uint8 {
	f := narrowFormats[n]
	if x != x {
		if f.nan != 0 {
			return f.nan
		}
		return f.maxFin
	}
	var sign uint8
	if math.Signbit(x) {
		if relu {
			return 0
		}
		sign = f.sign
	}
	a := math.Abs(x)
	if a >= NarrowValue(n, f.maxFin) {
		return sign | f.maxFin
	}
	if a == 0 {
		return sign
	}
	// lead is the exponent of the result's binade (the smallest normal one for subnormals);
	// q is a in units of that binade's last place, exact in float64.
	_, e := math.Frexp(a)
	lead := max(e-1, 1-f.bias)
	q := math.RoundToEven(math.Ldexp(a, f.frac-lead))
	var code uint8
	switch one := float64(int(1) << f.frac); {
	case q < one:
		// Subnormal (or zero): the biased exponent field is 0.
		code = uint8(q)
	case q == 2*one:
		// Rounded up into the next binade.
		code = uint8(lead+1+f.bias) << f.frac
	default:
		code = uint8(lead+f.bias)<<f.frac | uint8(q-one)
	}
	return sign | code
}

// NarrowToF16 is the element conversion of cvt.rn{.relu}.f16x2 from format n: exact (every
// value of the narrow formats is an f16), a NaN gives the canonical f16 NaN 0x7fff, and with
// relu a negative value becomes +0.
func NarrowToF16(n Narrow, c uint8, relu bool) uint16 {
	h := F64ToF16(math.Float64bits(NarrowValue(n, c)), RN)
	if relu {
		h = ReluF16(h)
	}
	return h
}

// The .ue8m0 format: an unsigned biased exponent, value 2^(c-127) for c in 0..254, and 0xff
// for NaN. It has no sign, no zero and no infinity.
const (
	UE8M0NaN     = 0xff
	UE8M0MaxNorm = 0xfe
)

// UE8M0FromF64 is the element conversion of cvt.frnd3{.satfinite}.ue8m0x2 (frnd3: .rz or
// .rp) from an f32 or bf16 value x. The format has no sign, so |x| is converted: .rz gives the
// largest power of two not above it, .rp the smallest not below it, clamped below to the
// smallest value 2^-127 (zero included). A NaN gives NaN; a magnitude above the largest value
// 2^127 gives 2^127 with .satfinite, and otherwise 2^127 with .rz and NaN with .rp
// (infinity gives NaN), the format having no infinity to overflow to.
func UE8M0FromF64(x float64, r Rounding, satfinite bool) uint8 {
	a := math.Abs(x)
	switch {
	case a != a:
		return UE8M0NaN
	case a > 0x1p127:
		if satfinite || r == RZ && !math.IsInf(a, 1) {
			return UE8M0MaxNorm
		}
		return UE8M0NaN
	case a == 0:
		return 0
	}
	frac, e := math.Frexp(a) // a = frac * 2^e, frac in [0.5, 1)
	c := e - 1 + 127
	if r == RP && frac != 0.5 {
		c++
	}
	return uint8(max(c, 0))
}

// UE8M0ToBF16 is the element conversion of cvt.rn.bf16x2.ue8m0x2: exact (2^-127 is a bf16
// subnormal), NaN gives the canonical bf16 NaN 0x7fff.
func UE8M0ToBF16(c uint8) uint16 {
	if c == UE8M0NaN {
		return NaNBF16
	}
	return F64ToBF16(math.Float64bits(math.Ldexp(1, int(c)-127)), RN)
}
