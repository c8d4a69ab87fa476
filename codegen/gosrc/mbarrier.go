package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// mbarOpNames spells the runtime.MbarOp constants.
var mbarOpNames = map[runtime.MbarOp]string{
	runtime.MbarInit: "MbarInit", runtime.MbarInval: "MbarInval", runtime.MbarArrive: "MbarArrive",
	runtime.MbarArriveNoComplete: "MbarArriveNoComplete", runtime.MbarArriveDrop: "MbarArriveDrop",
	runtime.MbarArriveDropNoComplete: "MbarArriveDropNoComplete", runtime.MbarTestWait: "MbarTestWait",
	runtime.MbarTestWaitParity: "MbarTestWaitParity", runtime.MbarPendingCount: "MbarPendingCount",
}

// mbarrier lowers the mbarrier instructions (layout.Mbarrier lists the forms) to
// runtime.Warp.Mbarrier, as codegen/closure does.
func (e *blockEmit) mbarrier(in *ssa.Instr) {
	form, ok := layout.Mbarrier(in)
	if !ok {
		e.unsupported(in)
		return
	}
	sp, A, amask, off := jen.Qual(rtPath, "SpaceShared"), jen.Nil(), jen.Code(jen.Lit(0)), jen.Code(jen.Lit(0))
	if form.Op != runtime.MbarPendingCount {
		ad := e.memOperand(in, form.Addr)
		if ad == nil {
			e.unsupported(in)
			return
		}
		sp = jen.Qual(rtPath, ad.space)
		if ad.base < 0 {
			off = ad.addr
		} else {
			A, amask, off = jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off)
		}
	}
	b := e.f.ConstSlot(1) // an arrive without count counts one
	if form.HasB {
		if b, ok = e.operandSlot(form.B, form.BType); !ok {
			e.unsupported(in)
			return
		}
	}
	D, pred := jen.Code(jen.Nil()), -1
	switch {
	case form.Op == runtime.MbarTestWait || form.Op == runtime.MbarTestWaitParity:
		if form.HasDst {
			pred = e.f.Regs[form.Dst.Value.Reg.ID]
		}
	case form.HasDst:
		s := e.f.Regs[form.Dst.Value.Reg.ID]
		delete(e.uni, s)
		D = jen.Id(e.reg(s))
	}
	lc := jen.Lit(layout.Loc(in.Pos))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		call := jen.Id("w").Dot("Mbarrier").Call(jen.Qual(rtPath, mbarOpNames[form.Op]), sp, D, A, jen.Id(e.reg(b)), amask, off, jen.Id(mask), lc)
		if pred < 0 {
			return []jen.Code{call}
		}
		p := jen.Id("w").Dot("P").Index(jen.Lit(pred))
		return []jen.Code{jen.Add(p).Op("=").Add(p).Op("&^").Id(mask).Op("|").Add(call)}
	})
}
