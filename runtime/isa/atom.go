package isa

import "math"

// AtomOp is a read-modify-write operation of atom and red on 16-, 32- and 64-bit words.
type AtomOp uint8

// The operations. Min and max come signed and unsigned; inc and dec are .u32's wrapping
// counters; cas compares with b and writes c.
const (
	AtomAdd    AtomOp = iota // integer addition, wrapping
	AtomAddF32               // .add.f32: to nearest even, subnormals flushed, canonical NaN
	AtomAddF64               // .add.f64: to nearest even, canonical NaN
	AtomMinU
	AtomMaxU
	AtomMinS
	AtomMaxS
	AtomInc
	AtomDec
	AtomAnd
	AtomOr
	AtomXor
	AtomExch
	AtomCas
	// The .noftz additions on 16-bit floats: to nearest even with subnormals kept, canonical
	// NaN; the x2 forms add each half of a 32-bit word independently.
	AtomAddF16
	AtomAddBF16
	AtomAddF16x2
	AtomAddBF16x2
	// The .min and .max of the vector atomics on 16-bit floats, as min/max.f16 and .bf16: a
	// NaN operand yields the other one, two NaNs the canonical NaN, -0 is below +0.
	AtomMinF16
	AtomMaxF16
	AtomMinBF16
	AtomMaxBF16
	AtomMinF16x2
	AtomMaxF16x2
	AtomMinBF16x2
	AtomMaxBF16x2
)

// AtomFunc returns the new memory value of op on an n-bit word holding o, with operands b
// and c (n-bit values; c only for cas). The result may have bits above n set (a wrapping
// addition); the caller stores its low n bits.
func AtomFunc(op AtomOp, n int) func(o, b, c uint64) uint64 {
	switch op {
	case AtomAnd:
		return func(o, b, _ uint64) uint64 { return o & b }
	case AtomOr:
		return func(o, b, _ uint64) uint64 { return o | b }
	case AtomXor:
		return func(o, b, _ uint64) uint64 { return o ^ b }
	case AtomExch:
		return func(_, b, _ uint64) uint64 { return b }
	case AtomCas:
		return func(o, b, c uint64) uint64 {
			if o == b {
				return c
			}
			return o
		}
	case AtomInc:
		return func(o, b, _ uint64) uint64 {
			if o >= b {
				return 0
			}
			return o + 1
		}
	case AtomDec:
		return func(o, b, _ uint64) uint64 {
			if o == 0 || o > b {
				return b
			}
			return o - 1
		}
	case AtomMinS, AtomMaxS:
		isMax := op == AtomMaxS
		return func(o, b, _ uint64) uint64 {
			if int64(o<<(64-n))>>(64-n) < int64(b<<(64-n))>>(64-n) != isMax {
				return o
			}
			return b
		}
	case AtomMinU, AtomMaxU:
		isMax := op == AtomMaxU
		return func(o, b, _ uint64) uint64 {
			if o < b != isMax {
				return o
			}
			return b
		}
	case AtomAddF32:
		return func(o, b, _ uint64) uint64 { return uint64(AtomAddF32Bits(uint32(o), uint32(b))) }
	case AtomAddF16, AtomAddBF16, AtomAddF16x2, AtomAddBF16x2, AtomMinF16, AtomMaxF16, AtomMinBF16,
		AtomMaxBF16, AtomMinF16x2, AtomMaxF16x2, AtomMinBF16x2, AtomMaxBF16x2:
		return halfAtom(op)
	case AtomAddF64:
		return func(o, b, _ uint64) uint64 {
			r := math.Float64frombits(o) + math.Float64frombits(b)
			if r != r {
				return NaN64
			}
			return math.Float64bits(r)
		}
	}
	return func(o, b, _ uint64) uint64 { return o + b }
}

// AtomAddF32Bits is atom.add.f32: round to nearest even, with subnormal inputs and results
// flushed to sign-preserving zero, as the ISA specifies; a NaN result is the canonical NaN.
func AtomAddF32Bits(o, b uint32) uint32 {
	r := math.Float32frombits(Ftz32(o)) + math.Float32frombits(Ftz32(b))
	if r != r {
		return NaN32
	}
	return Ftz32(math.Float32bits(r))
}

// halfAtom is AtomFunc of the operations on 16-bit floats: on one half, or on both halves of
// a 32-bit word independently for the x2 forms.
func halfAtom(op AtomOp) func(o, b, c uint64) uint64 {
	minMax := func(f func(a, b uint16, nan, xorsignAbs bool) uint16) func(a, b uint16) uint16 {
		return func(a, b uint16) uint16 { return f(a, b, false, false) }
	}
	f := map[AtomOp]func(a, b uint16) uint16{
		AtomAddF16: AddF16, AtomAddF16x2: AddF16, AtomAddBF16: AddBF16, AtomAddBF16x2: AddBF16,
		AtomMinF16: minMax(MinF16), AtomMinF16x2: minMax(MinF16), AtomMaxF16: minMax(MaxF16), AtomMaxF16x2: minMax(MaxF16),
		AtomMinBF16: minMax(MinBF16), AtomMinBF16x2: minMax(MinBF16), AtomMaxBF16: minMax(MaxBF16), AtomMaxBF16x2: minMax(MaxBF16),
	}[op]
	switch op {
	case AtomAddF16x2, AtomAddBF16x2, AtomMinF16x2, AtomMaxF16x2, AtomMinBF16x2, AtomMaxBF16x2:
		return func(o, b, _ uint64) uint64 {
			return uint64(f(uint16(o>>16), uint16(b>>16)))<<16 | uint64(f(uint16(o), uint16(b)))
		}
	}
	return func(o, b, _ uint64) uint64 { return uint64(f(uint16(o), uint16(b))) }
}
