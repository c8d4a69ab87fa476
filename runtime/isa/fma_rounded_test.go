package isa

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFmaF32 is fma.rn.f32 from math/big: a*b+c exactly, rounded once to float32.
func exactFmaF32(a, b, c float32) uint32 {
	if a != a || b != b || c != c {
		return NaN32
	}
	p := new(big.Float).SetPrec(400).Mul(big.NewFloat(float64(a)), big.NewFloat(float64(b)))
	s := new(big.Float).SetPrec(400).Add(p, big.NewFloat(float64(c)))
	if s.Sign() == 0 {
		return math.Float32bits(float32(float64(a)*float64(b) + float64(c))) // the sign of an exact zero
	}
	r, _ := s.Float32()
	return math.Float32bits(r)
}

// TestFmaF32Rounded checks the inline test of generated lane loops: whenever FmaF32Rounded
// accepts float32 of the float64 fma, that is the correctly rounded fma.rn.f32, and FmaF32RN
// (the slow path) is too, on operands built to hit float32 midpoints (a product of 25
// significant bits, nudged by a c below float64's precision; subnormal midpoints), the edge of
// the subnormal range, overflow, zeros, sums exact in float64 that are float32 midpoints, and
// random bits.
func TestFmaF32Rounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(a, b, c float32) {
		t.Helper()
		want := exactFmaF32(a, b, c)
		if got := FmaF32RN(math.Float32bits(a), math.Float32bits(b), math.Float32bits(c)); got != want {
			t.Fatalf("FmaF32RN(%g, %g, %g) = %#x, want %#x", a, b, c, got, want)
		}
		p, z := float64(a)*float64(b), float64(c)
		f := p + z
		r := math.Float32bits(float32(f))
		if FmaF32Rounded(p, z, f) && r != want {
			t.Fatalf("FmaF32Rounded accepts %#x for fma(%g, %g, %g), want %#x", r, a, b, c, want)
		}
	}
	for range 200000 {
		// Products of 25 significant bits: float32 midpoints when c is 0 or tiny.
		a := float32(1<<12+rng.IntN(1<<12)) * float32(math.Ldexp(1, rng.IntN(60)-30))
		b := float32(1<<12+rng.IntN(1<<12)) * float32(math.Ldexp(1, rng.IntN(60)-30))
		for _, c := range []float32{0, float32(math.Ldexp(1, -80)), -float32(math.Ldexp(1, -80)), float32(math.Ldexp(float64(a)*float64(b), -30))} {
			check(a, b, c)
		}
		// Odd multiples of 2^-150 below 2^-126: subnormal float32 midpoints, nudged by c.
		sa := float32(math.Ldexp(float64(2*rng.IntN(1<<11)+1), -75))
		sb := float32(math.Ldexp(float64(2*rng.IntN(1<<11)+1), -75))
		for _, c := range []float32{0, float32(math.Ldexp(1, -149)), -float32(math.Ldexp(1, -149))} {
			check(sa, sb, c)
		}
		check(sa, sb, float32(math.Ldexp(1, -126))*float32(rng.IntN(3)))
		// 2^-150 - 2^-196 added to an odd subnormal: float64 rounds the sum onto the float32
		// midpoint above it, which float32 rounding then sends up to even; the exact fma rounds down.
		// With the largest subnormal, the even neighbour is 2^-126, the smallest normal.
		for _, odd := range []float32{float32(math.Ldexp(float64(2*rng.IntN(1<<22)+1), -149)), math.Float32frombits(0x7fffff)} {
			check(float32(math.Ldexp(1+math.Ldexp(1, -23), -75)), float32(math.Ldexp(1-math.Ldexp(1, -23), -75)), odd)
		}
		// Around the smallest normal, the largest finite value and random bit patterns.
		x := math.Float32frombits(rng.Uint32())
		y := math.Float32frombits(rng.Uint32())
		z := math.Float32frombits(rng.Uint32())
		check(x, y, z)
		tiny := float32(math.Ldexp(1+rng.Float64(), -63-rng.IntN(3)))
		check(tiny, tiny, float32(math.Ldexp(rng.Float64()-0.5, -125)))
		big := float32(math.Ldexp(1+rng.Float64(), 63+rng.IntN(2)))
		check(big, big, -float32(math.Ldexp(rng.Float64(), 127)))
		// saxpy's a*x+y with a = 1.5: sums that are exact in float64 often are float32
		// midpoints, which the inline test accepts; with a c nudged below float64's
		// precision, the same midpoints are rounded ones, which it must not.
		x = float32(rng.IntN(1<<24)) * float32(math.Ldexp(1, rng.IntN(20)-30))
		z = float32(rng.IntN(1<<24)) * float32(math.Ldexp(1, rng.IntN(20)-30))
		check(1.5, x, z)
		check(1.5, x, -z)
		check(float32(1+math.Ldexp(1, -23)), x, z)
	}
}
