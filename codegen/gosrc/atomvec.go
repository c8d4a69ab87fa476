package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// vectorLen is the element count of the instruction's .v2/.v4/.v8 modifier, 0 without one.
func vectorLen(in *ssa.Instr) int {
	switch {
	case has(in, frontend.ModV2):
		return 2
	case has(in, frontend.ModV4):
		return 4
	case has(in, frontend.ModV8):
		return 8
	}
	return 0
}

// atomVectorIsaOp is runtime/isa's operation (the AtomOp constant's name) of a vector atomic,
// as the table of forms (layout.CheckForms) accepts them: .add on .v2/.v4 .f32 (without .noftz); .add, .min and .max
// .noftz on .v2/.v4/.v8 .f16 and .bf16 and on .v2/.v4 .f16x2 and .bf16x2; "" for another form.
func atomVectorIsaOp(op frontend.Mod, t frontend.Type, n int, noftz bool) string {
	name := map[frontend.Mod]string{frontend.ModAdd: "AtomAdd", frontend.ModMin: "AtomMin", frontend.ModMax: "AtomMax"}[op]
	switch t {
	case frontend.F32:
		if op == frontend.ModAdd && n <= 4 && !noftz {
			return "AtomAddF32"
		}
	case frontend.F16, frontend.BF16, frontend.F16x2, frontend.BF16x2:
		if name != "" && noftz && (n <= 4 || !isHalfPacked(t)) {
			return name + halfAtomSuffix(t)
		}
	}
	return ""
}

// atomVector lowers the vector atomics and reductions (codegen/closure's atomVector):
//
//	atom{.sem}{.scope}{.global}.add{.L2::cache_hint}.{v2,v4}.f32 d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.global}.{add,min,max}.noftz{.L2::cache_hint}.{v2,v4,v8}.{f16,bf16} d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.global}.{add,min,max}.noftz{.L2::cache_hint}.{v2,v4}.{f16x2,bf16x2} d, [a], b{, cache-policy}
//
// and red without d, each element a separate atomic on global memory
// (runtime.Warp.AtomVectorLanes).
func (e *blockEmit) atomVector(in *ssa.Instr, op frontend.Mod, t frontend.Type) {
	isRed := in.Op == frontend.OpRed
	n := vectorLen(in)
	isaOp := atomVectorIsaOp(op, t, n, has(in, modNoftz))
	args := in.Args
	ad := e.memOperand(in, args[0])
	if ad == nil {
		e.unsupported(in)
		return
	}
	var B []jen.Code
	for _, x := range args[1].Elems {
		s, ok := e.operandSlot(x, t)
		if !ok {
			e.unsupported(in)
			return
		}
		B = append(B, jen.Id(e.reg(s)))
	}
	D := jen.Nil()
	if !isRed {
		var ds []jen.Code
		for _, x := range in.Dsts[0].Elems {
			switch {
			case x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred:
				slot := e.f.Regs[x.Value.Reg.ID]
				delete(e.uni, slot)
				ds = append(ds, jen.Id(e.reg(slot)))
			case x.Kind == ssa.ArgSink:
				ds = append(ds, jen.Nil())
			default:
				e.unsupported(in)
				return
			}
		}
		D = jen.Index().Op("*").Index(jen.Qual(rtPath, "WarpSize")).Uint64().Values(ds...)
	}
	fn := e.f.g.atomFuncVar(isaOp, t.Bits())
	lc := jen.Lit(layout.Loc(in.Pos))
	Bs := jen.Index().Op("*").Index(jen.Qual(rtPath, "WarpSize")).Uint64().Values(B...)
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		if ad.base < 0 {
			return []jen.Code{jen.Id("w").Dot("AtomVectorLanes").Call(jen.Id(fn), D, Bs, jen.Nil(), jen.Lit(0), ad.addr, jen.Lit(t.Bytes()), jen.Id(mask), lc)}
		}
		return []jen.Code{jen.Id("w").Dot("AtomVectorLanes").Call(jen.Id(fn), D, Bs, jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off), jen.Lit(t.Bytes()), jen.Id(mask), lc)}
	})
}

// halfAtomSuffix is the isa.AtomOp name suffix of a 16-bit float type: F16, BF16, F16x2 or
// BF16x2.
func halfAtomSuffix(t frontend.Type) string {
	if isHalfPacked(t) {
		return halfName(t) + "x2"
	}
	return halfName(t)
}
