package isa

import (
	"math"
	"math/bits"
)

// Canonical NaNs: the GPU produces these for every NaN result of half-precision arithmetic and
// of conversions to or from the half-precision formats.
const (
	NaNF16  = 0x7fff
	NaNBF16 = 0x7fff
	NaNF32  = 0x7fffffff
	NaNF64  = 0x7fffffffffffffff
)

// halfFormat describes a binary floating-point format by its precision (significand bits,
// the hidden bit included) and exponent width; sub is the value of the subnormal quantum.
type halfFormat struct {
	prec, expBits int
	sub           float64
}

func newHalfFormat(prec, expBits int) halfFormat {
	bias := 1<<(expBits-1) - 1
	return halfFormat{prec: prec, expBits: expBits, sub: math.Ldexp(1, 2-bias-prec)}
}

var (
	fmtF16  = newHalfFormat(11, 5)
	fmtBF16 = newHalfFormat(8, 8)
	fmtTF32 = newHalfFormat(11, 8)
	fmtF32  = newHalfFormat(24, 8)
)

func (f halfFormat) bias() int      { return 1<<(f.expBits-1) - 1 }
func (f halfFormat) sign() uint64   { return 1 << (f.prec - 1 + f.expBits) }
func (f halfFormat) inf() uint64    { return (1<<f.expBits - 1) << (f.prec - 1) }
func (f halfFormat) maxFin() uint64 { return f.inf() - 1 }

// isNaN reports whether h encodes a NaN in format f.
func (f halfFormat) isNaN(h uint64) bool { return h&^f.sign() > f.inf() }

// value decodes h exactly; a NaN decodes to a float64 NaN. A normal value is rebuilt as
// float64 bits, a subnormal one is its integer significand times the quantum.
func (f halfFormat) value(h uint64) float64 {
	mag := h &^ f.sign()
	exp := int(mag >> (f.prec - 1))
	frac := mag & (1<<(f.prec-1) - 1)
	var v float64
	switch {
	case mag > f.inf():
		return math.NaN()
	case mag == f.inf():
		v = math.Inf(1)
	case exp == 0:
		v = float64(frac) * f.sub
	default:
		v = math.Float64frombits(uint64(exp-f.bias()+1023)<<52 | frac<<(53-f.prec))
	}
	if h&f.sign() != 0 {
		v = -v
	}
	return v
}

// roundExact rounds the exact value (-1)^neg * m * 2^e (m > 0) to format f in direction r and
// returns its encoding, with IEEE 754 overflow rules (infinity or the largest finite value,
// depending on the direction) and gradual underflow.
func (f halfFormat) roundExact(neg bool, m uint64, e int, r Rounding) uint64 {
	p := f.prec
	lead := e + bits.Len64(m) - 1 // exponent of the leading bit
	emin := 1 - f.bias()
	q := lead - (p - 1) // exponent of the result's last significand bit
	if lead < emin {
		q = emin - (p - 1)
	}
	var kept uint64
	lost := 0 // 0: exact, 1: below half an ulp, 2: exactly half, 3: above half
	if q <= e {
		kept = m << (e - q)
	} else {
		s := q - e
		var rem, half uint64
		switch {
		case s > 64:
			kept, rem, half = 0, 1, 2
		case s == 64:
			kept, rem, half = 0, m, 1<<63
		default:
			kept, rem, half = m>>s, m&(1<<s-1), 1<<(s-1)
		}
		switch {
		case rem == 0:
		case rem < half:
			lost = 1
		case rem == half:
			lost = 2
		default:
			lost = 3
		}
	}
	up := false
	switch r {
	case RN:
		up = lost == 3 || lost == 2 && kept&1 == 1
	case RNA:
		up = lost >= 2
	case RM:
		up = lost != 0 && neg
	case RP:
		up = lost != 0 && !neg
	}
	if up {
		kept++
		if kept == 1<<p {
			kept >>= 1
			q++
		}
	}
	var enc uint64
	if q+p-1 > f.bias() {
		// Overflow: nearest modes and the direction away from zero give infinity, the others
		// the largest finite value.
		enc = f.maxFin()
		if r == RN || r == RNA || r == RM && neg || r == RP && !neg {
			enc = f.inf()
		}
	} else {
		enc = uint64(q+p-2+f.bias())<<(p-1) + kept
	}
	if neg {
		enc |= f.sign()
	}
	return enc
}

// fromFloat64 rounds x to format f in direction r; a NaN becomes nan.
func (f halfFormat) fromFloat64(x float64, r Rounding, nan uint64) uint64 {
	b := math.Float64bits(x)
	neg := b>>63 != 0
	exp := int(b >> 52 & 0x7ff)
	frac := b & (1<<52 - 1)
	var sign uint64
	if neg {
		sign = f.sign()
	}
	switch {
	case exp == 0x7ff && frac != 0:
		return nan
	case exp == 0x7ff:
		return sign | f.inf()
	case exp == 0 && frac == 0:
		return sign
	case exp == 0:
		return f.roundExact(neg, frac, -1074, r)
	}
	return f.roundExact(neg, frac|1<<52, exp-1075, r)
}

// fromInt rounds the integer (-1)^neg * m to format f in direction r.
func (f halfFormat) fromInt(neg bool, m uint64, r Rounding) uint64 {
	if m == 0 {
		return 0
	}
	return f.roundExact(neg, m, 0, r)
}

// toF32 and toF64 widen h exactly; NaNs become the canonical NaN of the wider format.
func (f halfFormat) toF32(h uint64) uint32 {
	if f.isNaN(h) {
		return NaNF32
	}
	return math.Float32bits(float32(f.value(h)))
}

func (f halfFormat) toF64(h uint64) uint64 {
	if f.isNaN(h) {
		return NaNF64
	}
	return math.Float64bits(f.value(h))
}

// F16Value decodes an f16 exactly (NaN for any NaN encoding).
func F16Value(h uint16) float64 { return fmtF16.value(uint64(h)) }

// BF16Value decodes a bf16 exactly (NaN for any NaN encoding).
func BF16Value(h uint16) float64 { return fmtBF16.value(uint64(h)) }

// IsNaNF16 reports whether h encodes an f16 NaN.
func IsNaNF16(h uint16) bool { return fmtF16.isNaN(uint64(h)) }

// IsNaNBF16 reports whether h encodes a bf16 NaN.
func IsNaNBF16(h uint16) bool { return fmtBF16.isNaN(uint64(h)) }

// F16ToF32 is cvt.f32.f16: exact, returning raw bits; a NaN gives the canonical NaN.
func F16ToF32(h uint16) uint32 { return fmtF16.toF32(uint64(h)) }

// F16ToF64 is cvt.f64.f16: exact, returning raw bits; a NaN gives the canonical NaN.
func F16ToF64(h uint16) uint64 { return fmtF16.toF64(uint64(h)) }

// BF16ToF32 is cvt.f32.bf16: exact, returning raw bits; a NaN gives the canonical NaN.
func BF16ToF32(h uint16) uint32 { return fmtBF16.toF32(uint64(h)) }

// BF16ToF64 is cvt.f64.bf16: exact, returning raw bits; a NaN gives the canonical NaN.
func BF16ToF64(h uint16) uint64 { return fmtBF16.toF64(uint64(h)) }

// F32ToF16 rounds an f32 (raw bits) to f16 in direction r (cvt.rn.f16.f32 and the other
// modes); a NaN gives the canonical NaN 0x7fff. The other narrowing conversions below follow
// the same rules.
func F32ToF16(x uint32, r Rounding) uint16 {
	return uint16(fmtF16.fromFloat64(float64(math.Float32frombits(x)), r, NaNF16))
}

// F64ToF16 rounds an f64 (raw bits) to f16 directly, with a single rounding.
func F64ToF16(x uint64, r Rounding) uint16 {
	return uint16(fmtF16.fromFloat64(math.Float64frombits(x), r, NaNF16))
}

// F32ToBF16 rounds an f32 (raw bits) to bf16.
func F32ToBF16(x uint32, r Rounding) uint16 {
	return uint16(fmtBF16.fromFloat64(float64(math.Float32frombits(x)), r, NaNBF16))
}

// F64ToBF16 rounds an f64 (raw bits) to bf16 directly, with a single rounding.
func F64ToBF16(x uint64, r Rounding) uint16 {
	return uint16(fmtBF16.fromFloat64(math.Float64frombits(x), r, NaNBF16))
}

// F16ToBF16 rounds an f16 to bf16 (cvt.rn.bf16.f16 and the other modes).
func F16ToBF16(h uint16, r Rounding) uint16 {
	return uint16(fmtBF16.fromFloat64(F16Value(h), r, NaNBF16))
}

// BF16ToF16 rounds a bf16 to f16 (bf16 has the wider range, f16 the wider significand).
func BF16ToF16(h uint16, r Rounding) uint16 {
	return uint16(fmtF16.fromFloat64(BF16Value(h), r, NaNF16))
}

// F32ToTF32 rounds an f32 (raw bits) to tf32 (8 exponent bits, 10 fraction bits), returned in
// the f32 layout with the low 13 bits zero, as cvt.rna.tf32.f32 writes it. A NaN gives the
// canonical f32 NaN.
func F32ToTF32(x uint32, r Rounding) uint32 {
	f := math.Float32frombits(x)
	if f != f {
		return NaNF32
	}
	return uint32(fmtTF32.fromFloat64(float64(f), r, 0) << 13)
}

// S64ToF16 rounds a signed integer to f16 with one rounding (cvt.rn.f16.s64 and the other
// modes and narrower types).
func S64ToF16(v int64, r Rounding) uint16 { return uint16(fmtF16.fromInt(v < 0, absS64(v), r)) }

// U64ToF16 rounds an unsigned integer to f16 with one rounding.
func U64ToF16(v uint64, r Rounding) uint16 { return uint16(fmtF16.fromInt(false, v, r)) }

// S64ToBF16 rounds a signed integer to bf16 with one rounding.
func S64ToBF16(v int64, r Rounding) uint16 {
	return uint16(fmtBF16.fromInt(v < 0, absS64(v), r))
}

// U64ToBF16 rounds an unsigned integer to bf16 with one rounding.
func U64ToBF16(v uint64, r Rounding) uint16 { return uint16(fmtBF16.fromInt(false, v, r)) }

// absS64 is |v| as an unsigned integer (MinInt64 included).
func absS64(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// The largest finite values and the ones, the bounds saturation clamps to.
const (
	F16MaxFinite  = 0x7bff
	BF16MaxFinite = 0x7f7f
	F16One        = 0x3c00
	BF16One       = 0x3f80
)

// FtzF16 flushes an f16 subnormal to zero of the same sign (.ftz); other values pass.
func FtzF16(h uint16) uint16 {
	if h&0x7c00 == 0 {
		return h & 0x8000
	}
	return h
}

// SatF16 is .sat for f16: clamp to [0, 1], NaN to +0.
func SatF16(h uint16) uint16 { return satHalf(fmtF16, h, F16One) }

// SatBF16 is .sat for bf16: clamp to [0, 1], NaN to +0.
func SatBF16(h uint16) uint16 { return satHalf(fmtBF16, h, BF16One) }

// satHalf clamps h to [0, one]; NaN and negative values (-0 included) give +0.
func satHalf(f halfFormat, h, one uint16) uint16 {
	switch {
	case f.isNaN(uint64(h)) || h&0x8000 != 0:
		return 0
	case h > one:
		return one
	}
	return h
}

// ReluF16 is .relu for f16: a negative result becomes +0 and a NaN the canonical NaN.
func ReluF16(h uint16) uint16 { return reluHalf(fmtF16, h) }

// ReluBF16 is .relu for bf16.
func ReluBF16(h uint16) uint16 { return reluHalf(fmtBF16, h) }

// reluHalf maps NaN to the canonical NaN and negative values (-0 included) to +0.
func reluHalf(f halfFormat, h uint16) uint16 {
	switch {
	case f.isNaN(uint64(h)):
		return NaNF16
	case h&0x8000 != 0:
		return 0
	}
	return h
}

// SatFiniteF16 is cvt's .satfinite for f16: an infinite result becomes the largest finite
// value of the same sign; NaN stays NaN.
func SatFiniteF16(h uint16) uint16 {
	if h&0x7fff == 0x7c00 {
		return h&0x8000 | F16MaxFinite
	}
	return h
}

// SatFiniteBF16 is .satfinite for bf16.
func SatFiniteBF16(h uint16) uint16 {
	if h&0x7fff == 0x7f80 {
		return h&0x8000 | BF16MaxFinite
	}
	return h
}

// SatFiniteTF32 is .satfinite for tf32 in the f32 layout: infinity becomes the largest finite
// tf32 value of the same sign.
func SatFiniteTF32(x uint32) uint32 {
	if x&0x7fffffff == 0x7f800000 {
		return x&0x80000000 | 0x7f7fe000
	}
	return x
}
