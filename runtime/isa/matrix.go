package isa

import "math"

// MatType is the element type of an mma fragment.
type MatType uint8

// The mma element types.
const (
	MatF16  MatType = iota // .f16, two a .b32 register (low half first)
	MatBF16                // .bf16, two a .b32 register
	MatTF32                // .tf32, one a .b32 register: an f32 whose low 13 mantissa bits are ignored
	MatF32                 // .f32, one a register
	MatF64                 // .f64, one a 64-bit register (wmma's m8n8k4)
	MatS8                  // .s8, four a .b32 register (integer wmma; lowest byte first)
	MatU8                  // .u8, four a .b32 register
	MatS32                 // .s32, one a register (integer wmma's accumulator)
)

// MatElem returns element i (0 or 1 for the packed 16-bit types, 0 otherwise) of a fragment
// register r of type t as a float64, exactly. A .tf32 element is the .f32 bits of r with the
// low 13 mantissa bits cleared, as the tensor cores read them.
func MatElem(t MatType, r uint32, i int) float64 {
	switch t {
	case MatF16:
		return F16Value(uint16(r >> (16 * i)))
	case MatBF16:
		return BF16Value(uint16(r >> (16 * i)))
	case MatTF32:
		return float64(math.Float32frombits(r &^ 0x1fff))
	}
	return float64(math.Float32frombits(r))
}

// MmaDot is one element of mma's D = A*B + C: c + a[0]*b[0] + ... + a[k-1]*b[k-1].
//
// NVIDIA does not document the order or the intermediate rounding of the tensor cores'
// accumulation, and no GPU checked this choice: every product is exact (a product of two
// .f16, .bf16 or .tf32 values fits a float64's mantissa), the sum starts at c and adds the
// products in k order in float64 (each addition rounded to nearest even in float64), and
// the result is rounded once to the destination type by MatRound. Inputs whose products are
// small integers (or any sum that float64 holds exactly) give the exact result whatever the
// order.
func MmaDot(c float64, a, b []float64) float64 {
	s := c
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}

// MmaDotF64 is one element of the .f64 wmma's D = A*B + C (m8n8k4, .rn): c + a[0]*b[0] + ...
// + a[k-1]*b[k-1] as a chain of fused multiply-adds in k order, each rounded to nearest even
// in float64. As for MmaDot, NVIDIA does not document the order; sums float64 holds exactly
// match the GPU whatever its order.
func MmaDotF64(c float64, a, b []float64) float64 {
	s := c
	for k := range a {
		s = math.FMA(a[k], b[k], s)
	}
	return s
}

// MatRound rounds an mma result to the destination type t (MatF32 or MatF16) to nearest
// even, a NaN becoming the canonical NaN (0x7fffffff, 0x7fff), and returns its bits.
func MatRound(t MatType, s float64) uint32 {
	if t == MatF16 {
		if s != s {
			return 0x7fff
		}
		return uint32(F64ToF16(math.Float64bits(s), RN))
	}
	if s != s {
		return 0x7fffffff
	}
	return math.Float32bits(float32(s))
}

// MmaDotInt is one element of integer mma's D = A*B + C on 8-bit elements (already widened to
// int32) and .s32 accumulators: c + a[0]*b[0] + ... + a[k-1]*b[k-1], exact. With satfinite
// (.satfinite) a sum outside the .s32 range is clamped to it; without, it wraps modulo 2^32
// as two's complement arithmetic does.
func MmaDotInt(c int32, a, b []int32, satfinite bool) int32 {
	s := int64(c)
	for k := range a {
		s += int64(a[k]) * int64(b[k])
	}
	if satfinite {
		s = min(max(s, math.MinInt32), math.MaxInt32)
	}
	return int32(s)
}
