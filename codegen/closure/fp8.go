package closure

import (
	"math"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// The conversions to and from the narrow packed formats .e4m3x2, .e5m2x2, .e2m1x2, .e2m3x2,
// .e3m2x2 and .ue8m0x2. A pair is packed with the first element (from source a, or from the
// upper half of a packed source) in the upper bits: 8 bits per element for the 8- and 6-bit
// formats (the 6-bit ones zero-padded), 4 bits for .e2m1. The element semantics are in
// runtime/isa/fp8.go.

// narrowOf returns the isa format of a packed narrow type; ok is false for other types.
func narrowOf(t frontend.Type) (isa.Narrow, bool) {
	switch t {
	case frontend.E4M3x2:
		return isa.E4M3, true
	case frontend.E5M2x2:
		return isa.E5M2, true
	case frontend.E2M3x2:
		return isa.E2M3, true
	case frontend.E3M2x2:
		return isa.E3M2, true
	case frontend.E2M1x2:
		return isa.E2M1, true
	}
	return 0, false
}

// narrowField is the width of one element's field in a packed pair: 4 bits for .e2m1, 8
// for the others (the 6-bit formats zero-padded).
func narrowField(n isa.Narrow) uint {
	if n == isa.E2M1 {
		return 4
	}
	return 8
}

// isNarrowCvt reports whether a cvt names a narrow float type, scalar or packed: the
// conversions cvtNarrow lowers or rejects.
func (e *emitter) isNarrowCvt() bool {
	for _, t := range e.types() {
		switch t {
		case frontend.E4M3, frontend.E5M2, frontend.UE8M0x2:
			return true
		}
		if _, ok := narrowOf(t); ok {
			return true
		}
	}
	return false
}

// cvtNarrow lowers the forms the ISA defines:
//
//	cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32       d, a, b
//	cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.{f16x2,bf16x2} d, a
//	cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}              d, a
//	cvt.{rz,rp}{.satfinite}.ue8m0x2.f32                                    d, a, b
//	cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2                                 d, a
//	cvt.rn.bf16x2.ue8m0x2                                                  d, a
//
// Everything else involving these types (scalar .e4m3/.e5m2, other rounding modes, a missing
// mandatory .satfinite, other partner types) is not in the table of forms
// (layout.CheckForms).
func (e *emitter) cvtNarrow() runtime.Instr {
	in := e.in
	ts := e.types()
	dt, st := ts[0], ts[1]
	rnd := e.rounding()
	relu, sf := e.has(frontend.ModRelu), e.has(frontend.ModSatfinite)
	if n, ok := narrowOf(dt); ok {
		return e.narrowPack(st, narrowField(n), func(x float64) uint64 { return uint64(isa.NarrowFromF64(n, x, relu)) })
	}
	if n, ok := narrowOf(st); ok {
		w := narrowField(n)
		d, a := e.dst(in.Dsts[0]), e.src(in.Args[0], st)
		return lanes1(d, a, func(x uint64) uint64 {
			hi := isa.NarrowToF16(n, uint8(x>>w), relu)
			lo := isa.NarrowToF16(n, uint8(x), relu)
			return uint64(hi)<<16 | uint64(lo)
		})
	}
	switch {
	case dt == frontend.UE8M0x2:
		r := isa.RZ
		if rnd == frontend.ModRp {
			r = isa.RP
		}
		return e.narrowPack(st, 8, func(x float64) uint64 { return uint64(isa.UE8M0FromF64(x, r, sf)) })
	case st == frontend.UE8M0x2:
		d, a := e.dst(in.Dsts[0]), e.src(in.Args[0], st)
		return lanes1(d, a, func(x uint64) uint64 {
			return uint64(isa.UE8M0ToBF16(uint8(x>>8)))<<16 | uint64(isa.UE8M0ToBF16(uint8(x)))
		})
	}
	return e.unsupported()
}

// narrowPack lowers a conversion to a packed pair of w-bit fields: from two .f32 sources
// (a into the upper field, b into the lower) or from one .f16x2/.bf16x2 source (its upper
// half into the upper field). conv converts one element, given exactly as a float64. The
// .ue8m0x2 conversions take .f32 and .bf16x2 sources only.
func (e *emitter) narrowPack(st frontend.Type, w uint, conv func(float64) uint64) runtime.Instr {
	in := e.in
	dt := e.types()[0]
	d := e.dst(in.Dsts[0])
	switch {
	case st == frontend.F32 && len(in.Args) == 2:
		a, b := e.src(in.Args[0], st), e.src(in.Args[1], st)
		return lanes2(d, a, b, func(x, y uint64) uint64 {
			return conv(float64(math.Float32frombits(uint32(x))))<<w | conv(float64(math.Float32frombits(uint32(y))))
		})
	case isHalfPacked(st) && len(in.Args) == 1 && (dt != frontend.UE8M0x2 || st == frontend.BF16x2):
		value := halfKindOf(st).value
		a := e.halfSrc(in.Args[0], st)
		return lanes1(d, a, func(x uint64) uint64 {
			return conv(value(uint16(x>>16)))<<w | conv(value(uint16(x)))
		})
	}
	return e.unsupported()
}
