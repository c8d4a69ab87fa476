package harness

import "math"

// FMA32 is a correctly rounded float32 a*b + c, as the GPU's fma.rn.f32 (which clang emits
// for the kernel's acc += A*B at -O2). float32(math.FMA(...)) rounds twice (to float64, then to
// float32), which is wrong only when the float64 result lies exactly halfway between two float32
// values (its low 29 mantissa bits are 1<<28) or is below the float32 normal range; those rare
// cases take FMA32Slow.
func FMA32(a, b, c float32) float32 {
	s := math.FMA(float64(a), float64(b), float64(c))
	u := math.Float64bits(s)
	if u&(1<<29-1) != 1<<28 && u&(0x7ff<<52) >= (1023-126)<<52 {
		return float32(s)
	}
	return FMA32Slow(a, b, c)
}

// FMA32Slow is a correctly rounded float32 fma in every case: two float32 values multiply
// exactly in float64, and the float64 sum with c is made round-to-odd with its TwoSum error, after
// which rounding to float32 is correct.
func FMA32Slow(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(math.FMA(float64(a), float64(b), float64(c)))
	}
	bv := s - p
	e := (p - (s - bv)) + (float64(c) - bv)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		if (e > 0) == (s > 0) {
			s = math.Float64frombits(math.Float64bits(s) + 1)
		} else {
			s = math.Float64frombits(math.Float64bits(s) - 1)
		}
	}
	return float32(s)
}

// FibGo is the hand-written Go version of the recursion kernel, recursive as it is.
func FibGo(fibs, depths []int32, gcds []uint32, in []int32, in2 []uint32) {
	for i, n := range in {
		fibs[i] = fibRec(n)
		depths[i] = treeDepth(uint32(n))
		gcds[i] = gcd(uint32(n), in2[i])
	}
}

func fibRec(n int32) int32 {
	if n <= 1 {
		return n
	}
	return fibRec(n-1) + fibRec(n-2)
}

func treeDepth(x uint32) int32 {
	if x <= 1 {
		return 0
	}
	return 1 + max(treeDepth(x/2), treeDepth(x/3))
}

func gcd(a, b uint32) uint32 {
	if b == 0 {
		return a
	}
	return gcd(b, a%b)
}
