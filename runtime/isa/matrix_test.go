package isa

import (
	"math"
	"testing"
)

// TestMatrixNumerics checks the mma element semantics: .tf32 ignores the low 13 mantissa
// bits, the sum starts at c and adds the products in order in float64, the result is rounded
// once (to nearest even) to f32 or f16, and a NaN becomes the canonical NaN.
func TestMatrixNumerics(t *testing.T) {
	if got := MatElem(MatTF32, math.Float32bits(1+0x1fff*0x1p-23), 0); got != 1 {
		t.Errorf("tf32 of 1+0x1fff ulp = %v, want 1", got)
	}
	if got := MatElem(MatTF32, math.Float32bits(1+0x2000*0x1p-23), 0); got != 1+0x1p-10 {
		t.Errorf("tf32 of 1+2^-10 = %v, want it unchanged", got)
	}
	if got := MatElem(MatF16, 0x3c00c000, 0); got != -2 {
		t.Errorf("f16 low half = %v, want -2", got)
	}
	if got := MatElem(MatF16, 0x3c00c000, 1); got != 1 {
		t.Errorf("f16 high half = %v, want 1", got)
	}
	if got := MatElem(MatBF16, 0x3f80_4040, 0); got != 3 {
		t.Errorf("bf16 low half = %v, want 3", got)
	}
	// 1 + 2^-24 + 2^-24: rounding after each addition to f32 would give 1; the float64 sum
	// rounded once gives 1 + 2^-23.
	if got := MatRound(MatF32, MmaDot(1, []float64{0x1p-12, 0x1p-12}, []float64{0x1p-12, 0x1p-12})); got != math.Float32bits(1+0x1p-23) {
		t.Errorf("one rounding: got %#x", got)
	}
	// In k order from c: 2^60 + 1 - 2^60 loses the 1 in float64.
	if got := MmaDot(0x1p60, []float64{1, -1}, []float64{1, 0x1p60}); got != 0 {
		t.Errorf("k order: got %v, want 0", got)
	}
	// f16 rounding to nearest even: 2049 is a tie between 2048 and 2050.
	if got := MatRound(MatF16, 2049); got != 0x6800 {
		t.Errorf("f16 of 2049 = %#x, want 0x6800 (2048)", got)
	}
	if got := MatRound(MatF16, 2051); got != 0x6802 {
		t.Errorf("f16 of 2051 = %#x, want 0x6802 (2052)", got)
	}
	if got := MatRound(MatF32, math.NaN()); got != 0x7fffffff {
		t.Errorf("f32 NaN = %#x", got)
	}
	if got := MatRound(MatF16, math.Inf(1)*0); got != 0x7fff {
		t.Errorf("f16 NaN = %#x", got)
	}
	if got := MatRound(MatF16, 70000); got != 0x7c00 {
		t.Errorf("f16 overflow = %#x, want +Inf", got)
	}
}
