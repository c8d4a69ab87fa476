package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// matrix lowers the warp-level matrix instructions (layout.Matrix lists the forms) as
// codegen/closure does, to runtime.Warp.Ldmatrix, runtime.Warp.Mma, (integer mma)
// runtime.Warp.MmaInt and (.f64 mma) runtime.Warp.MmaF64 with register slots as literals:
//
//	w.Ldmatrix([4]int{5, 6, 7, 8}, 4, false, r9, 0xffffffff, 0x0, m, "file.ptx:30")
//	w.Mma(16, isa.MatF16, isa.MatF32, isa.MatF32, [4]int{...}, [4]int{...}, [4]int{...}, [4]int{...}, m, "file.ptx:31")
func (e *blockEmit) matrix(in *ssa.Instr) {
	form, ok, msg := layout.Matrix(in)
	switch {
	case msg != "":
		e.errorf(in, "%s", msg)
		return
	case !ok:
		e.unsupported(in)
		return
	}
	good := true
	// lits are the register slots of args as literals, padded with 0 to n; a destination's
	// slots lose their warp-uniform locals.
	lits := func(args []ssa.Arg, dst bool, t frontend.Type, n int) []jen.Code {
		s := make([]jen.Code, max(n, len(args)))
		for i := range s {
			s[i] = jen.Lit(0)
		}
		for i, a := range args {
			slot, ok := e.operandSlot(a, t)
			good = good && ok
			if dst {
				delete(e.uni, slot)
			}
			s[i] = jen.Lit(slot)
		}
		return s
	}
	array := func(s []jen.Code) jen.Code { return jen.Index(jen.Lit(len(s))).Int().Values(s...) }
	slots := func(args []ssa.Arg, dst bool) jen.Code { return array(lits(args, dst, frontend.B32, 4)) }
	lc := jen.Lit(layout.Loc(in.Pos))
	var call func(mask string) []jen.Code
	switch {
	case form.Kind == layout.MatrixLdmatrix:
		d := slots(form.Dsts, true)
		ad := e.memOperandIn(form.Addr, frontend.SpaceShared)
		if ad == nil {
			e.unsupported(in)
			return
		}
		A, amask, off := e.cpAsyncAddr(ad)
		call = func(mask string) []jen.Code {
			return []jen.Code{jen.Id("w").Dot("Ldmatrix").Call(d, jen.Lit(form.N), jen.Lit(form.Trans), A, amask, off, jen.Id(mask), lc)}
		}
	case form.AB == isa.MatF64:
		// a and b are one .f64 register slot each, c and d two.
		d, c := array(lits(form.Dsts, true, frontend.B64, 2)), array(lits(form.Cs, false, frontend.B64, 2))
		a, b := lits(form.A, false, frontend.B64, 1)[0], lits(form.B, false, frontend.B64, 1)[0]
		call = func(mask string) []jen.Code {
			return []jen.Code{jen.Id("w").Dot("MmaF64").Call(d, a, b, c, jen.Id(mask), lc)}
		}
	default:
		d, a, b, c := slots(form.Dsts, true), slots(form.A, false), slots(form.B, false), slots(form.Cs, false)
		call = func(mask string) []jen.Code {
			if form.Int {
				return []jen.Code{jen.Id("w").Dot("MmaInt").Call(jen.Lit(form.K), jen.Lit(form.SignedA), jen.Lit(form.SignedB), jen.Lit(form.Satfinite), d, a, b, c, jen.Id(mask), lc)}
			}
			return []jen.Code{jen.Id("w").Dot("Mma").Call(jen.Lit(form.K), mt(form.AB), mt(form.C), mt(form.D), d, a, b, c, jen.Id(mask), lc)}
		}
	}
	if !good {
		e.unsupported(in)
		return
	}
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, call)
}

// wmma lowers the wmma instructions (layout.Wmma lists the forms) as codegen/closure does, to
// runtime.Warp.WmmaLoad, WmmaStore, WmmaMma and WmmaMmaInt with register slots as literals.
func (e *blockEmit) wmma(in *ssa.Instr) {
	form, ok, msg := layout.Wmma(in)
	switch {
	case msg != "":
		e.errorf(in, "%s", msg)
		return
	case !ok:
		e.unsupported(in)
		return
	}
	good := true
	slots := func(args []ssa.Arg, dst bool) jen.Code {
		var s [8]jen.Code
		for i := range s {
			s[i] = jen.Lit(0)
		}
		for i, a := range args {
			n, ok := e.operandSlot(a, frontend.B32)
			good = good && ok
			if dst {
				delete(e.uni, n)
			}
			s[i] = jen.Lit(n)
		}
		return jen.Index(jen.Lit(8)).Int().Values(s[:]...)
	}
	lc := jen.Lit(layout.Loc(in.Pos))
	shape := jen.Qual(rtPath, map[runtime.WmmaShape]string{runtime.WmmaSquare: "WmmaSquare", runtime.WmmaM32N8: "WmmaM32N8", runtime.WmmaM8N32: "WmmaM8N32"}[form.Shape])
	var call func(mask string) []jen.Code
	if form.Kind == layout.WmmaMma {
		d, a, b, c := slots(form.D, true), slots(form.A, false), slots(form.B, false), slots(form.Cs, false)
		call = func(mask string) []jen.Code {
			if form.DT == isa.MatS32 {
				return []jen.Code{jen.Id("w").Dot("WmmaMmaInt").Call(mt(form.In), mt(form.InB), shape, jen.Lit(form.Satfinite), d, a, b, c, jen.Id(mask), lc)}
			}
			return []jen.Code{jen.Id("w").Dot("WmmaMma").Call(mt(form.In), mt(form.C), mt(form.DT), shape, d, a, b, c, jen.Id(mask), lc)}
		}
	} else {
		ad := e.memOperandIn(form.Addr, form.Space)
		if ad == nil {
			e.unsupported(in)
			return
		}
		A, amask, off := e.cpAsyncAddr(ad)
		s := e.f.ConstSlot(16)
		if form.HasStride {
			var ok bool
			s, ok = e.operandSlot(form.Stride, frontend.U32)
			good = good && ok
		}
		regs := slots(form.Regs, form.Kind == layout.WmmaLoad)
		sp := jen.Qual(rtPath, ad.space)
		call = func(mask string) []jen.Code {
			if form.Kind == layout.WmmaStore {
				return []jen.Code{jen.Id("w").Dot("WmmaStore").Call(mt(form.Type), shape, jen.Lit(form.Col), sp, regs, A, amask, off, jen.Lit(s), jen.Id(mask), lc)}
			}
			frag := map[runtime.WmmaFrag]string{runtime.WmmaA: "WmmaA", runtime.WmmaB: "WmmaB", runtime.WmmaC: "WmmaC"}[form.Frag]
			return []jen.Code{jen.Id("w").Dot("WmmaLoad").Call(jen.Qual(rtPath, frag), mt(form.Type), shape, jen.Lit(form.Col), sp, regs, A, amask, off, jen.Lit(s), jen.Id(mask), lc)}
		}
	}
	if !good {
		e.unsupported(in)
		return
	}
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, call)
}

// matTypeNames are the names of the isa.MatType constants.
var matTypeNames = map[isa.MatType]string{isa.MatF16: "MatF16", isa.MatBF16: "MatBF16", isa.MatTF32: "MatTF32", isa.MatF32: "MatF32",
	isa.MatF64: "MatF64", isa.MatS8: "MatS8", isa.MatU8: "MatU8", isa.MatS32: "MatS32"}

// mt is the isa.MatType constant t in generated code.
func mt(t isa.MatType) jen.Code { return jen.Qual(isaPath, matTypeNames[t]) }
