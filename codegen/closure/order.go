package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// integer is a PTX integer type as the Go type whose order is that type's order: a register
// converted to it keeps the type's low bits, so < compares exactly as setp does.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// orderedCompare is setp's ordered integer comparison x < y of type t, each result bit
// xor-ed with invert (so x >= y is !(x < y)). xu and yu say an operand is warp-uniform.
func orderedCompare(t frontend.Type, x, y int, xu, yu bool, invert uint32) func(w *runtime.Warp, m uint32) uint32 {
	signed := t.IsSigned()
	switch t.Bits() {
	case 8:
		if signed {
			return lessThan[int8](x, y, xu, yu, invert)
		}
		return lessThan[uint8](x, y, xu, yu, invert)
	case 16:
		if signed {
			return lessThan[int16](x, y, xu, yu, invert)
		}
		return lessThan[uint16](x, y, xu, yu, invert)
	case 32:
		if signed {
			return lessThan[int32](x, y, xu, yu, invert)
		}
		return lessThan[uint32](x, y, xu, yu, invert)
	}
	if signed {
		return lessThan[int64](x, y, xu, yu, invert)
	}
	return lessThan[uint64](x, y, xu, yu, invert)
}

// equalCompare is setp.eq (invert 0) or setp.ne (invert all ones) on the low n bits.
func equalCompare(n, x, y int, xu, yu bool, invert uint32) func(w *runtime.Warp, m uint32) uint32 {
	if yu && !xu {
		x, y, xu = y, x, true
	}
	switch n {
	case 8:
		return equalTo[uint8](x, y, xu, invert)
	case 16:
		return equalTo[uint16](x, y, xu, invert)
	case 32:
		return equalTo[uint32](x, y, xu, invert)
	}
	return equalTo[uint64](x, y, xu, invert)
}

// equalTo returns the lanes where registers x and y are equal read as K, xor invert. When xu
// says x is warp-uniform it is read once from the first active lane.
//
//go:noinline
func equalTo[K integer](x, y int, xu bool, invert uint32) func(w *runtime.Warp, m uint32) uint32 {
	if xu {
		return func(w *runtime.Warp, m uint32) uint32 {
			s, Y := K(w.R[x*ws+first(m)]), regs(w, y)
			var r uint32
			for l := range ws {
				r |= bit(s == K(Y[l])) << l
			}
			return (r ^ invert) & m
		}
	}
	return func(w *runtime.Warp, m uint32) uint32 {
		X, Y := regs(w, x), regs(w, y)
		var r uint32
		for l := range ws {
			r |= bit(K(X[l]) == K(Y[l])) << l
		}
		return (r ^ invert) & m
	}
}

// lessThan returns the lanes where register x < register y read as K, xor invert. A uniform
// operand is read once from the first active lane.
//
//go:noinline
func lessThan[K integer](x, y int, xu, yu bool, invert uint32) func(w *runtime.Warp, m uint32) uint32 {
	switch {
	case xu:
		return func(w *runtime.Warp, m uint32) uint32 {
			s, Y := K(w.R[x*ws+first(m)]), regs(w, y)
			var r uint32
			for l := range ws {
				r |= bit(s < K(Y[l])) << l
			}
			return (r ^ invert) & m
		}
	case yu:
		return func(w *runtime.Warp, m uint32) uint32 {
			X, s := regs(w, x), K(w.R[y*ws+first(m)])
			var r uint32
			for l := range ws {
				r |= bit(K(X[l]) < s) << l
			}
			return (r ^ invert) & m
		}
	}
	return func(w *runtime.Warp, m uint32) uint32 {
		X, Y := regs(w, x), regs(w, y)
		var r uint32
		for l := range ws {
			r |= bit(K(X[l]) < K(Y[l])) << l
		}
		return (r ^ invert) & m
	}
}

// bit is 1 for true and 0 for false, which the compiler turns into a flag move, not a branch.
func bit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// floatBase is one of the comparisons from which floatCompare builds all of setp's float tests.
type floatBase uint8

const (
	floatLt floatBase = iota
	floatLe
	floatEq
	floatLtGt // ordered not-equal
	floatNum  // neither is NaN
)

// floatCompare is setp's comparison of .f32 (widened exactly to float64, after .ftz flushes
// subnormals) or .f64 operands, or nil for a comparison that is not a float one. Every test is
// a base test, possibly with its operands swapped and its result inverted: ltu is !(a >= b),
// which holds for NaN operands as the unordered tests must.
func floatCompare(cmp frontend.Mod, t frontend.Type, ftz bool, x, y int) func(w *runtime.Warp, m uint32) uint32 {
	var base floatBase
	var swap bool
	var invert uint32
	switch cmp {
	case frontend.ModLt:
		base = floatLt
	case frontend.ModGt:
		base, swap = floatLt, true
	case frontend.ModLe:
		base = floatLe
	case frontend.ModGe:
		base, swap = floatLe, true
	case frontend.ModEq:
		base = floatEq
	case frontend.ModNe:
		base = floatLtGt
	case frontend.ModNum:
		base = floatNum
	case frontend.ModLtu: // !(a >= b)
		base, swap, invert = floatLe, true, ^uint32(0)
	case frontend.ModGtu: // !(a <= b)
		base, invert = floatLe, ^uint32(0)
	case frontend.ModLeu: // !(a > b)
		base, swap, invert = floatLt, true, ^uint32(0)
	case frontend.ModGeu: // !(a < b)
		base, invert = floatLt, ^uint32(0)
	case frontend.ModEqu:
		base, invert = floatLtGt, ^uint32(0)
	case frontend.ModNeu:
		base, invert = floatEq, ^uint32(0)
	case frontend.ModNan:
		base, invert = floatNum, ^uint32(0)
	default:
		return nil
	}
	if swap {
		x, y = y, x
	}
	kind := floatF64
	if t == frontend.F32 {
		kind = floatF32
		if ftz {
			kind = floatF32Ftz
		}
	}
	return floatTest(base, invert, x, y, kind)
}

// floatKind says how a register holds a float operand.
type floatKind uint8

const (
	floatF64 floatKind = iota
	floatF32
	floatF32Ftz // .f32 with subnormals read as zero
)

// decodeFloats sets d to the float64 value of each lane of s.
func decodeFloats(d *[ws]float64, s *[ws]uint64, kind floatKind) {
	switch kind {
	case floatF64:
		for l := range ws {
			d[l] = f64(s[l])
		}
	case floatF32:
		for l := range ws {
			d[l] = float64(f32(s[l]))
		}
	case floatF32Ftz:
		for l := range ws {
			d[l] = float64(f32(ftz32(s[l])))
		}
	}
}

// floatTest decodes both operands of every lane, then runs the base test inline.
//
//go:noinline
func floatTest(base floatBase, invert uint32, x, y int, kind floatKind) func(w *runtime.Warp, m uint32) uint32 {
	return func(w *runtime.Warp, m uint32) uint32 {
		var a, b [ws]float64
		decodeFloats(&a, regs(w, x), kind)
		decodeFloats(&b, regs(w, y), kind)
		var r uint32
		switch base {
		case floatLt:
			for l := range ws {
				r |= bit(a[l] < b[l]) << l
			}
		case floatLe:
			for l := range ws {
				r |= bit(a[l] <= b[l]) << l
			}
		case floatEq:
			for l := range ws {
				r |= bit(a[l] == b[l]) << l
			}
		case floatLtGt:
			for l := range ws {
				r |= bit(a[l] < b[l] || a[l] > b[l]) << l
			}
		case floatNum:
			for l := range ws {
				r |= bit(a[l] == a[l] && b[l] == b[l]) << l
			}
		}
		return (r ^ invert) & m
	}
}
