package isa

import "math/bits"

// Integer arithmetic of the PTX ISA on n-bit values (n = 16, 32 or 64) held in the low bits of a
// uint64. Results are returned wrapped to their width, zero above it.

// Mask returns a value with the low n bits set (0 < n <= 64).
func Mask(n int) uint64 { return ^uint64(0) >> (64 - n) }

// Sext sign-extends the low n bits of v.
func Sext(v uint64, n int) int64 { return int64(v<<(64-n)) >> (64 - n) }

// Div is div.{u,s}n. PTX leaves division by zero machine-specific; NVIDIA GPUs return all ones
// (the quotient routines ptxas emits end with d = ~0 when b == 0), so Div does too, for every
// width and signedness. The overflowing signed quotient MinInt/-1 wraps to MinInt, as the
// hardware's two's-complement negation does.
func Div(a, b uint64, n int, signed bool) uint64 {
	m := Mask(n)
	if b&m == 0 {
		return m
	}
	if !signed {
		return (a & m) / (b & m)
	}
	x, y := Sext(a, n), Sext(b, n)
	if y == -1 {
		return uint64(-x) & m
	}
	return uint64(x/y) & m
}

// Rem is rem.{u,s}n: the remainder with the sign of the dividend. A zero divisor gives all
// ones, as Div does (the GPU's remainder routines share the quotient's final fix-up), and
// MinInt % -1 is 0.
func Rem(a, b uint64, n int, signed bool) uint64 {
	m := Mask(n)
	if b&m == 0 {
		return m
	}
	if !signed {
		return (a & m) % (b & m)
	}
	x, y := Sext(a, n), Sext(b, n)
	if y == -1 {
		return 0
	}
	return uint64(x%y) & m
}

// MulHi is mul.hi.{u,s}n: the high n bits of the 2n-bit product.
func MulHi(a, b uint64, n int, signed bool) uint64 {
	if n == 64 {
		hi, _ := bits.Mul64(a, b)
		if signed {
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
		}
		return hi
	}
	if signed {
		return uint64(Sext(a, n)*Sext(b, n)>>n) & Mask(n)
	}
	return (a & Mask(n)) * (b & Mask(n)) >> n & Mask(n)
}

// MulWide is mul.wide.{u,s}n for n = 16 or 32: the full 2n-bit product.
func MulWide(a, b uint64, n int, signed bool) uint64 {
	if signed {
		return uint64(Sext(a, n)*Sext(b, n)) & Mask(2*n)
	}
	return (a & Mask(n)) * (b & Mask(n))
}

// AddSat32 is add.sat.s32 (sub.sat.s32 when sub is set): the exact result clamped to the
// int32 range.
func AddSat32(a, b uint32, sub bool) uint32 {
	y := int64(int32(b))
	if sub {
		y = -y
	}
	return uint32(clamp32(int64(int32(a)) + y))
}

// clamp32 clamps v to the int32 range.
func clamp32(v int64) int32 {
	return int32(min(max(v, -1<<31), 1<<31-1))
}

// MadHiSat32 is mad.hi.sat.s32: the high 32 bits of the signed 64-bit product plus c, clamped to
// the int32 range.
func MadHiSat32(a, b, c uint32) uint32 {
	hi := int64(int32(a)) * int64(int32(b)) >> 32
	return uint32(clamp32(hi + int64(int32(c))))
}

// AddCarry adds a, b and the carry-in (0 or 1) on n bits (32 or 64) and returns the wrapped sum
// and the carry-out: add.cc, addc and the addition of mad.cc and madc.
func AddCarry(a, b, cin uint64, n int) (sum, cout uint64) {
	if n == 64 {
		return bits.Add64(a, b, cin)
	}
	s := a&Mask(n) + b&Mask(n) + cin
	return s & Mask(n), s >> n & 1
}

// SubCarry computes a + ^b + cin on n bits (32 or 64), that is a - b - (1 - cin), and returns
// the wrapped difference and the carry-out, which is NOT borrow: sub.cc (cin 1) and subc (cin
// CC.CF) set CC.CF this way on NVIDIA GPUs, so one flag serves chains that mix them with
// add.cc, addc, mad.cc and madc.
func SubCarry(a, b, cin uint64, n int) (diff, cout uint64) {
	return AddCarry(a, ^b&Mask(n), cin, n)
}

// Mul24 is mul24.{lo,hi}.{u,s}32: the product of the low 24 bits of a and b (sign-extended for
// signed) is 48 bits wide; .lo returns bits 31..0 and .hi bits 47..16.
func Mul24(a, b uint32, hi, signed bool) uint32 {
	var t uint64
	if signed {
		t = uint64(Sext(uint64(a), 24) * Sext(uint64(b), 24))
	} else {
		t = uint64(a&0xffffff) * uint64(b&0xffffff)
	}
	if hi {
		return uint32(t >> 16)
	}
	return uint32(t)
}

// Mad24HiSat is mad24.hi.sat.s32: bits 47..16 of the signed 48-bit product plus c, clamped to
// the int32 range.
func Mad24HiSat(a, b, c uint32) uint32 {
	t := Sext(uint64(a), 24) * Sext(uint64(b), 24) >> 16
	return uint32(clamp32(t + int64(int32(c))))
}

// Sad is sad.{u,s}n: c + |a - b|, the absolute difference taken exactly.
func Sad(a, b, c uint64, n int, signed bool) uint64 {
	var diff uint64
	if signed {
		x, y := Sext(a, n), Sext(b, n)
		if x > y {
			diff = uint64(x) - uint64(y)
		} else {
			diff = uint64(y) - uint64(x)
		}
	} else {
		x, y := a&Mask(n), b&Mask(n)
		diff = max(x, y) - min(x, y)
	}
	return (c + diff) & Mask(n)
}

// MinMaxRelu32 is {min,max}.relu.s32: the minimum (or maximum) of the signed inputs, and 0 if
// that is negative.
func MinMaxRelu32(a, b uint32, isMax bool) uint32 {
	x, y := int32(a), int32(b)
	r := min(x, y)
	if isMax {
		r = max(x, y)
	}
	return uint32(max(r, 0))
}

// Shl is shl.bn: amounts of n or more give 0 (the amount is an unsigned 32-bit value).
func Shl(a uint64, s uint32, n int) uint64 {
	if s >= uint32(n) {
		return 0
	}
	return a << s & Mask(n)
}

// Shr is shr.{b,u,s}n: amounts of n or more give 0, or the sign fill for signed types (the
// amount is an unsigned 32-bit value, so a negative .s32 amount is a large one).
func Shr(a uint64, s uint32, n int, signed bool) uint64 {
	if signed {
		return uint64(Sext(a, n)>>min(s, uint32(n-1))) & Mask(n)
	}
	if s >= uint32(n) {
		return 0
	}
	return a & Mask(n) >> s
}
