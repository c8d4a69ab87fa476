package isa

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"
)

// Crossed tests of the half-precision arithmetic: every value of a against a sample of b (and
// c), or against every value with PTX2GO_HALF_EXHAUSTIVE=1 (minutes). The reference rounds by
// scaling to an integer significand and math.RoundToEven, independent of roundExact.

// refHalf is a 16-bit format for the reference.
type refHalf struct {
	prec, expBits int
}

func (f refHalf) bias() int { return 1<<(f.expBits-1) - 1 }

// decode is the exact value of h, from its fields.
func (f refHalf) decode(h uint16) float64 {
	frac := int(h) & (1<<(f.prec-1) - 1)
	exp := int(h>>(f.prec-1)) & (1<<f.expBits - 1)
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	switch {
	case exp == 1<<f.expBits-1 && frac != 0:
		return math.NaN()
	case exp == 1<<f.expBits-1:
		return math.Inf(int(sign))
	case exp == 0:
		return sign * math.Ldexp(float64(frac), 2-f.bias()-f.prec)
	}
	return sign * math.Ldexp(float64(frac+1<<(f.prec-1)), exp-f.bias()-f.prec+1)
}

// roundRN rounds the exact value s+err (err: the exact error of the float64 s) to the format
// with round-to-nearest-even, as a float64 (±Inf on overflow, NaN for NaN).
func (f refHalf) roundRN(s, err float64) float64 {
	if s != s || math.IsInf(s, 0) || s == 0 {
		return s
	}
	_, e := math.Frexp(s)
	q := max(e-1, 1-f.bias()) - (f.prec - 1)
	y := math.Ldexp(s, -q)
	r := math.RoundToEven(y)
	if t := math.Trunc(y); math.Abs(y-t) == 0.5 && err != 0 {
		// Off the tie: the exact value is beyond it (err with y's sign) or short of it.
		r = t
		if (err > 0) == (y > 0) {
			r = t + math.Copysign(1, y)
		}
	}
	v := math.Ldexp(r, q)
	if math.Abs(v) >= math.Ldexp(1, f.bias()+1) {
		return math.Copysign(math.Inf(1), s)
	}
	return math.Copysign(v, s)
}

// twoSum returns x+y rounded to float64 and its exact error.
func twoSum(x, y float64) (float64, float64) {
	s := x + y
	if math.IsInf(s, 0) || s != s {
		return s, 0
	}
	bb := s - x
	return s, (x - (s - bb)) + (y - bb)
}

// crossSample returns n operands: interesting values of both formats, then random ones; all
// 65536 when PTX2GO_HALF_EXHAUSTIVE is set.
func crossSample(r *rand.Rand, n int) []uint16 {
	if os.Getenv("PTX2GO_HALF_EXHAUSTIVE") != "" {
		n = 1 << 16
		out := make([]uint16, n)
		for i := range out {
			out[i] = uint16(i)
		}
		return out
	}
	out := []uint16{0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x7f, 0x80, 0x3c00, 0xbc00, 0x3f80, 0xbf80,
		0x7bff, 0xfbff, 0x7f7f, 0xff7f, 0x7c00, 0xfc00, 0x7f80, 0xff80, 0x7fff, 0x7e01, 0xffc1, 0x3c01, 0x3f81}
	for len(out) < n {
		out = append(out, uint16(r.Uint32()))
	}
	return out
}

// crossCheck runs check(a, k) for every 16-bit a and every k < n, spread over the CPUs, and
// fails with the first mismatches reported.
func crossCheck(t *testing.T, n int, check func(a uint16, k int) string) {
	t.Helper()
	workers := runtime.GOMAXPROCS(0)
	bad := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for a := w; a < 1<<16 && bad[w] == ""; a += workers {
				for k := range n {
					if msg := check(uint16(a), k); msg != "" {
						bad[w] = msg
						break
					}
				}
			}
		})
	}
	wg.Wait()
	for _, b := range bad {
		if b != "" {
			t.Fatal(b)
		}
	}
}

// sameHalf reports whether the encoding got has the reference value want (NaN: the canonical
// NaN; zero: with want's sign).
func sameHalf(f refHalf, got uint16, want float64) bool {
	if want != want {
		return got == NaNF16
	}
	g := f.decode(got)
	return g == want && math.Signbit(g) == math.Signbit(want)
}

func TestHalfCrossArith(t *testing.T) {
	type op struct {
		name string
		fn   func(a, b uint16) uint16
		ref  func(x, y float64) (float64, float64)
	}
	mul := func(x, y float64) (float64, float64) { return x * y, 0 }
	sub := func(x, y float64) (float64, float64) { return twoSum(x, -y) }
	for _, c := range []struct {
		f   refHalf
		ops []op
	}{
		{refHalf{11, 5}, []op{{"add.f16", AddF16, twoSum}, {"sub.f16", SubF16, sub}, {"mul.f16", MulF16, mul}}},
		{refHalf{8, 8}, []op{{"add.bf16", AddBF16, twoSum}, {"sub.bf16", SubBF16, sub}, {"mul.bf16", MulBF16, mul}}},
	} {
		for _, o := range c.ops {
			bs := crossSample(rand.New(rand.NewPCG(1, 2)), 384)
			crossCheck(t, len(bs), func(a uint16, k int) string {
				b := bs[k]
				got := o.fn(a, b)
				if want := c.f.roundRN(o.ref(c.f.decode(a), c.f.decode(b))); !sameHalf(c.f, got, want) {
					return fmt.Sprintf("%s(%#04x, %#04x) = %#04x, want %v", o.name, a, b, got, want)
				}
				return ""
			})
		}
	}
}

func TestHalfCrossFma(t *testing.T) {
	for _, c := range []struct {
		name string
		f    refHalf
		fn   func(a, b, c uint16) uint16
	}{{"fma.f16", refHalf{11, 5}, FmaF16}, {"fma.bf16", refHalf{8, 8}, FmaBF16}} {
		r := rand.New(rand.NewPCG(3, 4))
		bs, cs := crossSample(r, 192), crossSample(r, 192)
		r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		crossCheck(t, len(bs), func(a uint16, k int) string {
			b, z := bs[k], cs[k]
			got := c.fn(a, b, z)
			want := c.f.roundRN(twoSum(c.f.decode(a)*c.f.decode(b), c.f.decode(z)))
			if !sameHalf(c.f, got, want) {
				return fmt.Sprintf("%s(%#04x, %#04x, %#04x) = %#04x, want %v", c.name, a, b, z, got, want)
			}
			return ""
		})
	}
}
