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
		x, y, xu, yu = y, x, yu, xu
	}
	switch n {
	case 8:
		return equalTo[uint8](x, y, xu, yu, invert)
	case 16:
		return equalTo[uint16](x, y, xu, yu, invert)
	case 32:
		return equalTo[uint32](x, y, xu, yu, invert)
	}
	return equalTo[uint64](x, y, xu, yu, invert)
}

// equalTo returns the lanes where registers x and y are equal read as K, xor invert. When xu
// says x is warp-uniform it is read once from the first active lane.
//
//go:noinline
func equalTo[K integer](x, y int, xu, yu bool, invert uint32) func(w *runtime.Warp, m uint32) uint32 {
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
