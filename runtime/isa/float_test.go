package isa

import (
	"math"
	"testing"
)

// TestDirectedRoundingCases checks hand-derived results of the directed modes at the places
// where they differ from round-to-nearest: inexact sums and quotients, exact zeros, overflow
// and results below the smallest subnormal (the math/big fallbacks). The conformance tests in
// the root package compare every form against math/big on random operands.
func TestDirectedRoundingCases(t *testing.T) {
	up, down := math.Nextafter(1, 2), math.Nextafter(1, 0)
	max64 := math.MaxFloat64
	cases := []struct {
		name string
		got  uint64
		want float64
	}{
		{"1 + 2^-60 rp", AddF64(b64(1), b64(0x1p-60), RP), up},
		{"1 + 2^-60 rz", AddF64(b64(1), b64(0x1p-60), RZ), 1},
		{"1 - 2^-60 rn", AddF64(b64(1), b64(-0x1p-60), RN), 1},
		{"1 - 2^-60 rm", AddF64(b64(1), b64(-0x1p-60), RM), down},
		{"x - x rm", SubF64(b64(3), b64(3), RM), math.Copysign(0, -1)},
		{"x - x rp", SubF64(b64(3), b64(3), RP), 0},
		{"max + max rz", AddF64(b64(max64), b64(max64), RZ), max64},
		{"max + max rm", AddF64(b64(max64), b64(max64), RM), max64},
		{"max + max rp", AddF64(b64(max64), b64(max64), RP), math.Inf(1)},
		{"-max - max rp", SubF64(b64(-max64), b64(max64), RP), -max64},
		{"tiny product rp", MulF64(b64(0x1p-600), b64(0x1p-500), RP), 0x1p-1074},
		{"tiny product rz", MulF64(b64(0x1p-600), b64(0x1p-500), RZ), 0},
		{"tiny product rm neg", MulF64(b64(-0x1p-600), b64(0x1p-500), RM), -0x1p-1074},
		{"half subnormal product rn", MulF64(b64(0x1p-575), b64(0x1p-500), RN), 0},
		// 1/3 and sqrt(2) round to nearest downward and upward respectively.
		{"1/3 rz", DivF64(b64(1), b64(3), RZ), 1.0 / 3},
		{"1/3 rp", DivF64(b64(1), b64(3), RP), math.Nextafter(1.0/3, 1)},
		{"subnormal quotient rp", DivF64(b64(0x1p-1074), b64(3), RP), 0x1p-1074},
		{"subnormal quotient rn", DivF64(b64(0x1p-1073), b64(3), RN), 0x1p-1074},
		{"sqrt 2 rz", SqrtF64(b64(2), RZ), math.Nextafter(math.Sqrt2, 0)},
		{"sqrt 2 rp", SqrtF64(b64(2), RP), math.Sqrt2},
		{"sqrt subnormal", SqrtF64(b64(0x1p-1074), RZ), 0x1p-537},
		{"fma cancels rm", FmaF64(b64(2), b64(3), b64(-6), RM), math.Copysign(0, -1)},
		{"fma tiny rp", FmaF64(b64(0x1p-600), b64(0x1p-500), b64(0), RP), 0x1p-1074},
		{"fma 1+ulp rz", FmaF64(b64(up), b64(up), b64(-1), RZ), 0x1p-51},
	}
	for _, c := range cases {
		if c.got != b64(c.want) {
			t.Errorf("%s: got %g (%#x), want %g (%#x)", c.name, f64(c.got), c.got, c.want, b64(c.want))
		}
	}
	cases32 := []struct {
		name string
		got  uint32
		want float32
	}{
		{"f32 1 + 2^-30 rp", AddF32(b32(1), b32(0x1p-30), RP), math.Nextafter32(1, 2)},
		{"f32 x - x rm", SubF32(b32(5), b32(5), RM), float32(math.Copysign(0, -1))},
		{"f32 subnormal quotient rz", DivF32(b32(0x1p-149), b32(3), RZ), 0},
		{"f32 subnormal quotient rp", DivF32(b32(0x1p-149), b32(3), RP), 0x1p-149},
		{"f32 max * 2 rz", MulF32(b32(math.MaxFloat32), b32(2), RZ), math.MaxFloat32},
		{"f32 fma midpoint rn", FmaF32(b32(1+0x1p-23), b32(1+0x1p-23), b32(0x1p-47), RN), 1 + 0x1p-22},
		{"f32 sqrt 2 rp", SqrtF32(b32(2), RP), math.Nextafter32(float32(math.Sqrt2), 2)},
	}
	for _, c := range cases32 {
		if c.got != b32(c.want) {
			t.Errorf("%s: got %g (%#x), want %g (%#x)", c.name, f32(c.got), c.got, c.want, b32(c.want))
		}
	}
	if AddF32(0x7f800001, b32(1), RZ) != NaN32 || FmaF64(b64(0), b64(math.Inf(1)), b64(1), RP) != NaN64 {
		t.Errorf("NaN results are not canonical")
	}
}
