package isa

import "math"

// RoundToInt rounds f to an integral value in direction r: .rni (RN, ties to even), .rzi,
// .rmi, .rpi.
func RoundToInt(f float64, r Rounding) float64 {
	switch r {
	case RZ:
		return math.Trunc(f)
	case RM:
		return math.Floor(f)
	case RP:
		return math.Ceil(f)
	}
	return math.RoundToEven(f)
}

// FloatToInt is cvt.{rni,rzi,rmi,rpi}.{sN,uN} of the float value f: rounded to an integer in
// direction r, saturated to the n-bit type, NaN to 0. The result is the n-bit value,
// zero-extended (the caller sign-extends a signed one to its register).
func FloatToInt(f float64, r Rounding, n int, signed bool) uint64 {
	f = RoundToInt(f, r)
	if f != f {
		return 0
	}
	m := ^uint64(0) >> (64 - n)
	if signed {
		switch {
		case f < -math.Ldexp(1, n-1):
			return uint64(int64(-1)<<(n-1)) & m
		case f >= math.Ldexp(1, n-1):
			return m >> 1
		}
		return uint64(int64(f)) & m
	}
	switch {
	case f <= 0:
		return 0
	case f >= math.Ldexp(1, n):
		return m
	}
	return uint64(f)
}

// CvtFloat is cvt between f32 and f64 (dst and src are 32 or 64 bits) of the bits x:
// with toInt (.rni .rzi .rmi .rpi, dst == src) rounded to an integral value in direction r,
// else rounded to the destination in direction r (exact when widening). .ftz flushes an f32
// subnormal operand and result to zero, .sat clamps to [0, 1]; a NaN becomes the canonical
// NaN (0 with .sat).
func CvtFloat(x uint64, dst, src int, r Rounding, toInt, ftz, sat bool) uint64 {
	var f float64
	if src == 32 {
		v := uint32(x)
		if ftz {
			v = Ftz32(v)
		}
		f = float64(f32(v))
	} else {
		f = f64(x)
	}
	if toInt {
		f = RoundToInt(f, r)
	}
	var out uint64
	switch {
	case f != f && dst == 32:
		out = uint64(NaN32)
	case f != f:
		out = NaN64
	case dst == 64:
		out = b64(f)
	case toInt:
		out = uint64(math.Float32bits(float32(f)))
	default:
		out = uint64(Round64To32(b64(f), r))
	}
	if dst == 32 && ftz && f == f {
		out = uint64(Ftz32(uint32(out)))
	}
	if sat {
		if dst == 32 {
			return uint64(Sat32(uint32(out)))
		}
		return Sat64(out)
	}
	return out
}

// IntToFloat is cvt.{rn,rz,rm,rp}.{f32,f64} (dst 32 or 64 bits) of a signed (s) or unsigned
// (u) integer, rounded in direction r.
func IntToFloat(s int64, u uint64, signed bool, dst int, r Rounding) uint64 {
	// cmp is the sign of (exact integer - f) for an integral f.
	cmp := func(f float64) int {
		if signed {
			switch {
			case f >= 0x1p63:
				return -1
			case f < -0x1p63:
				return 1
			case s < int64(f):
				return -1
			case s > int64(f):
				return 1
			}
			return 0
		}
		switch {
		case f >= 0x1p64:
			return -1
		case u < uint64(f):
			return -1
		case u > uint64(f):
			return 1
		}
		return 0
	}
	if dst == 32 {
		var f float32
		if signed {
			f = float32(s)
		} else {
			f = float32(u)
		}
		if c := cmp(float64(f)); c != 0 && r != RN {
			above := c < 0
			switch {
			case r == RM && above, r == RZ && above && f > 0:
				f = math.Nextafter32(f, float32(math.Inf(-1)))
			case r == RP && !above, r == RZ && !above && f < 0:
				f = math.Nextafter32(f, float32(math.Inf(1)))
			}
		}
		return uint64(math.Float32bits(f))
	}
	var f float64
	if signed {
		f = float64(s)
	} else {
		f = float64(u)
	}
	if c := cmp(f); c != 0 && r != RN {
		switch {
		case r == RM && c < 0, r == RZ && c < 0 && f > 0:
			f = math.Nextafter(f, math.Inf(-1))
		case r == RP && c > 0, r == RZ && c > 0 && f < 0:
			f = math.Nextafter(f, math.Inf(1))
		}
	}
	return b64(f)
}
