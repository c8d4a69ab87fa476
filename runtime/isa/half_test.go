package isa

import (
	"math"
	"testing"
)

// TestHalfRoundTrip checks that widening every non-NaN 16-bit value and rounding it back in
// any direction gives the value itself, and that NaNs become the canonical NaNs.
func TestHalfRoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		x := uint16(h)
		for r := RN; r <= RNA; r++ {
			f16, bf16 := F32ToF16(F16ToF32(x), r), F32ToBF16(BF16ToF32(x), r)
			f16d, bf16d := F64ToF16(F16ToF64(x), r), F64ToBF16(BF16ToF64(x), r)
			if IsNaNF16(x) {
				if F16ToF32(x) != NaNF32 || F16ToF64(x) != NaNF64 || f16 != NaNF16 || f16d != NaNF16 {
					t.Fatalf("f16 NaN %#04x: %#x %#x %#x %#x", x, F16ToF32(x), F16ToF64(x), f16, f16d)
				}
			} else if f16 != x || f16d != x {
				t.Fatalf("f16 %#04x mode %d: round trip gives %#04x, %#04x", x, r, f16, f16d)
			}
			if IsNaNBF16(x) {
				if BF16ToF32(x) != NaNF32 || bf16 != NaNBF16 || bf16d != NaNBF16 {
					t.Fatalf("bf16 NaN %#04x: %#x %#x %#x", x, BF16ToF32(x), bf16, bf16d)
				}
			} else if bf16 != x || bf16d != x {
				t.Fatalf("bf16 %#04x mode %d: round trip gives %#04x, %#04x", x, r, bf16, bf16d)
			}
		}
	}
}

// TestHalfKnownValues checks conversions and arithmetic against values worked out by hand.
func TestHalfKnownValues(t *testing.T) {
	f32 := func(f float32) uint32 { return math.Float32bits(f) }
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"1/3 rn", uint64(F32ToF16(f32(1.0/3), RN)), 0x3555},
		{"1/3 rp", uint64(F32ToF16(f32(1.0/3), RP)), 0x3556},
		{"-1/3 rm", uint64(F32ToF16(f32(-1.0/3), RM)), 0xb556},
		{"65520 rn overflows", uint64(F32ToF16(f32(65520), RN)), 0x7c00},
		{"65520 rz", uint64(F32ToF16(f32(65520), RZ)), 0x7bff},
		{"-1e9 rp", uint64(F32ToF16(f32(-1e9), RP)), 0xfbff},
		{"2^-25 rn ties to zero", uint64(F32ToF16(f32(0x1p-25), RN)), 0},
		{"2^-25 rna", uint64(F32ToF16(f32(0x1p-25), RNA)), 1},
		{"3*2^-25 rn ties to even", uint64(F32ToF16(f32(3*0x1p-25), RN)), 2},
		{"bf16 of 1+2^-8 ties to even", uint64(F32ToBF16(f32(1+0x1p-8), RN)), 0x3f80},
		{"bf16 of 1+3*2^-8", uint64(F32ToBF16(f32(1+3*0x1p-8), RN)), 0x3f82},
		{"u64 max to f16", uint64(U64ToF16(math.MaxUint64, RZ)), 0x7bff},
		{"s64 min to bf16", uint64(S64ToBF16(math.MinInt64, RN)), 0xdf00},
		{"2049 to f16 rn", uint64(S64ToF16(2049, RN)), 0x6800},
		{"2051 to f16 rn", uint64(S64ToF16(2051, RN)), 0x6802},
		{"tf32 rna tie", uint64(F32ToTF32(0x3f801000, RNA)), 0x3f802000},
		{"tf32 rn tie", uint64(F32ToTF32(0x3f801000, RN)), 0x3f800000},
		{"1+1", uint64(AddF16(0x3c00, 0x3c00)), 0x4000},
		{"inf-inf", uint64(SubF16(0x7c00, 0x7c00)), NaNF16},
		{"max*2", uint64(MulF16(0x7bff, 0x4000)), 0x7c00},
		{"fma single rounding", uint64(FmaF16(0x3c01, 0x3c01, 0xbc02)), 0x0010},
		{"bf16 1+tiny", uint64(AddBF16(0x3f80, 0x0001)), 0x3f80},
		{"min -0 +0", uint64(MinF16(0x0000, 0x8000, false, false)), 0x8000},
		{"max NaN", uint64(MaxF16(0x7e00, 0x3c00, false, false)), 0x3c00},
		{"max .NaN", uint64(MaxF16(0x7e00, 0x3c00, true, false)), NaNF16},
		{"min xorsign.abs", uint64(MinF16(0xc000, 0x3c00, false, true)), 0xbc00},
		{"pack u8", uint64(CvtPack(300, -5, 0xabcd, 8, false)), 0xabcdff00},
		{"pack s16", uint64(CvtPack(-40000, 40000, 0, 16, true)), 0x80007fff},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %#x, want %#x", c.name, c.got, c.want)
		}
	}
}
