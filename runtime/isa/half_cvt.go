package isa

import "math"

// NegHalf is neg.{f16,bf16}: the sign bit flipped, NaNs included (both formats keep the sign
// in bit 15).
func NegHalf(h uint16) uint16 { return h ^ 0x8000 }

// AbsHalf is abs.{f16,bf16}: the sign bit cleared.
func AbsHalf(h uint16) uint16 { return h &^ 0x8000 }

// NarrowF32 is cvt.frnd2{.relu}{.satfinite}.{f16,bf16}.f32 (bf selects .bf16): x rounded in
// direction r, then with satfinite clamped to the largest finite value (a NaN stays NaN),
// then with relu a negative result or NaN made +0 as ReluF16/ReluBF16 do. It is also each half
// of cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32.
func NarrowF32(x uint32, bf bool, r Rounding, satfinite, relu bool) uint16 {
	f := math.Float64bits(float64(math.Float32frombits(x)))
	var h uint16
	if bf {
		h = F64ToBF16(f, r)
		if satfinite {
			h = SatFiniteBF16(h)
		}
		if relu {
			h = ReluBF16(h)
		}
		return h
	}
	h = F64ToF16(f, r)
	if satfinite {
		h = SatFiniteF16(h)
	}
	if relu {
		h = ReluF16(h)
	}
	return h
}

// CvtTF32 is cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32: x
// rounded to tf32 in direction r, clamped to the largest finite tf32 with satfinite, and a
// negative result made +0 with relu (a NaN stays the canonical NaN).
func CvtTF32(x uint32, r Rounding, satfinite, relu bool) uint32 {
	v := F32ToTF32(x, r)
	if satfinite {
		v = SatFiniteTF32(v)
	}
	if relu && v != NaNF32 && v&0x80000000 != 0 {
		v = 0
	}
	return v
}
