package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The conversions to and from the narrow packed formats .e4m3x2, .e5m2x2, .e2m1x2, .e2m3x2,
// .e3m2x2 and .ue8m0x2, lowered as codegen/closure's fp8.go does with runtime/isa's element
// conversions. A pair is packed with the first element (from source a, or from the upper half
// of a packed source) in the upper bits: 8 bits per element, 4 for .e2m1.

// narrowName is the name of the isa.Narrow constant of a packed narrow type, "" for another.
func narrowName(t frontend.Type) string {
	return map[frontend.Type]string{frontend.E4M3x2: "E4M3", frontend.E5M2x2: "E5M2", frontend.E2M3x2: "E2M3",
		frontend.E3M2x2: "E3M2", frontend.E2M1x2: "E2M1"}[t]
}

// narrowFieldBits is the width of one element's field in a packed pair.
func narrowFieldBits(name string) int {
	if name == "E2M1" {
		return 4
	}
	return 8
}

// isNarrowCvt reports whether a cvt names a narrow float type, scalar or packed.
func isNarrowCvt(in *ssa.Instr) bool {
	for _, t := range types(in) {
		if t == frontend.E4M3 || t == frontend.E5M2 || t == frontend.UE8M0x2 || narrowName(t) != "" {
			return true
		}
	}
	return false
}

// cvtNarrow lowers the forms of the table of forms (layout.CheckForms), as codegen/closure's cvtNarrow does:
//
//	cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32       d, a, b
//	cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.{f16x2,bf16x2} d, a
//	cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}              d, a
//	cvt.{rz,rp}{.satfinite}.ue8m0x2.f32                                    d, a, b
//	cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2                                 d, a
//	cvt.rn.bf16x2.ue8m0x2                                                  d, a
func (c ctx) cvtNarrow(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	dt, st := ts[0], ts[1]
	rnd := rounding(in)
	relu, sf := has(in, frontend.ModRelu), has(in, frontend.ModSatfinite)
	if name := narrowName(dt); name != "" {
		return c.narrowPack(in, n, dt, st, narrowFieldBits(name), func(x jen.Code) jen.Code {
			return u64(isaFn("NarrowFromF64", jen.Qual(isaPath, name), x, jen.Lit(relu)))
		})
	}
	if name := narrowName(st); name != "" {
		w := narrowFieldBits(name)
		a := n + "a"
		elem := func(shift int) jen.Code {
			return u64(isaFn("NarrowToF16", jen.Qual(isaPath, name), jen.Uint8().Call(jen.Id(a).Op(">>").Lit(shift)), jen.Lit(relu)))
		}
		return []jen.Code{
			jen.Id(a).Op(":=").Add(c.src(in, in.Args[0], st)),
			jen.Id(n).Op(":=").Add(elem(w)).Op("<<").Lit(16).Op("|").Add(elem(0)),
		}
	}
	switch {
	case dt == frontend.UE8M0x2:
		r := roundingName[rnd]
		return c.narrowPack(in, n, dt, st, 8, func(x jen.Code) jen.Code {
			return u64(isaFn("UE8M0FromF64", x, jen.Qual(isaPath, r), jen.Lit(sf)))
		})
	case st == frontend.UE8M0x2:
		a := n + "a"
		return []jen.Code{
			jen.Id(a).Op(":=").Add(c.src(in, in.Args[0], st)),
			jen.Id(n).Op(":=").Add(u64(isaFn("UE8M0ToBF16", jen.Uint8().Call(jen.Id(a).Op(">>").Lit(8))))).Op("<<").Lit(16).Op("|").
				Add(u64(isaFn("UE8M0ToBF16", jen.Uint8().Call(jen.Id(a))))),
		}
	}
	return nil
}

// narrowPack defines n as a packed pair of w-bit fields: from two .f32 sources (a into the
// upper field) or from one .f16x2/.bf16x2 source (its upper half into the upper field); elem
// converts one element given exactly as a float64.
func (c ctx) narrowPack(in *ssa.Instr, n string, dt, st frontend.Type, w int, elem func(x jen.Code) jen.Code) []jen.Code {
	switch {
	case st == frontend.F32 && len(in.Args) == 2:
		f := func(i int) jen.Code {
			return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(conv("uint32", c.src(in, in.Args[i], st))))
		}
		return define(n, jen.Add(elem(f(0))).Op("<<").Lit(w).Op("|").Add(elem(f(1))))
	case isHalfPacked(st) && len(in.Args) == 1 && (dt != frontend.UE8M0x2 || st == frontend.BF16x2):
		if a := in.Args[0]; a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat {
			return nil
		}
		a := n + "a"
		value := func(x jen.Code) jen.Code { return isaFn(halfName(st)+"Value", jen.Uint16().Call(x)) }
		return []jen.Code{
			jen.Id(a).Op(":=").Add(c.src(in, in.Args[0], st)),
			jen.Id(n).Op(":=").Add(elem(value(jen.Id(a).Op(">>").Lit(16)))).Op("<<").Lit(w).Op("|").Add(elem(value(jen.Id(a)))),
		}
	}
	return nil
}
