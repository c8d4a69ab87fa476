package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// cpAsync lowers the asynchronous-copy instructions (layout.CpAsync lists the forms and their
// semantics) as codegen/closure does: a copy runs at issue through runtime.Warp.CpAsync,
// commit and wait are no-ops, and cp.async.mbarrier.arrive is an immediate arrive-on through
// runtime.Warp.Mbarrier.
func (e *blockEmit) cpAsync(in *ssa.Instr) {
	form, ok, msg := layout.CpAsync(in)
	switch {
	case msg != "":
		e.errorf(in, "%s", msg)
		return
	case !ok:
		e.unsupported(in)
		return
	}
	switch form.Kind {
	case layout.CpAsyncCommit, layout.CpAsyncWait:
		return // every copy has completed at issue: nothing is pending
	case layout.CpAsyncArrive:
		e.cpAsyncArrive(in, form)
		return
	}
	dst := e.memOperandIn(form.Dst, frontend.SpaceShared)
	src := e.memOperandIn(form.Src, frontend.SpaceGlobal)
	if dst == nil || src == nil {
		e.unsupported(in)
		return
	}
	da, dm, doff := e.cpAsyncAddr(dst)
	sa, sm, soff := e.cpAsyncAddr(src)
	Z := jen.Code(jen.Nil())
	if form.HasSrcSize {
		z, ok := e.operandSlot(form.SrcSize, frontend.U32)
		if !ok {
			e.unsupported(in)
			return
		}
		Z = jen.Id(e.reg(z))
	}
	ignore := jen.Code(jen.Lit(0))
	if form.HasIgnore {
		ignore = jen.Id("w").Dot("P").Index(jen.Lit(e.f.Regs[form.Ignore.Value.Reg.ID]))
		if form.Ignore.Not {
			ignore = jen.Op("^").Add(ignore)
		}
	}
	lc := jen.Lit(layout.Loc(in.Pos))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		return []jen.Code{jen.Id("w").Dot("CpAsync").Call(da, dm, doff, sa, sm, soff, jen.Lit(form.Size), Z, ignore, jen.Id(mask), lc)}
	})
}

// cpAsyncAddr spells a memory operand as runtime.Warp.CpAsync and Mbarrier take it: the
// lanes' base register (nil for a uniform address), its mask and the offset.
func (e *blockEmit) cpAsyncAddr(ad *memAddr) (A, amask, off jen.Code) {
	if ad.base < 0 {
		return jen.Nil(), jen.Lit(0), ad.addr
	}
	return jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off)
}

// cpAsyncArrive lowers cp.async.mbarrier.arrive{.noinc} to runtime.Warp.Mbarrier.
func (e *blockEmit) cpAsyncArrive(in *ssa.Instr, form layout.CpAsyncForm) {
	fsp, op := frontend.SpaceShared, "MbarCpAsyncArrive"
	if form.Generic {
		fsp = frontend.SpaceNone
	}
	if form.Noinc {
		op = "MbarCpAsyncArriveNoinc"
	}
	ad := e.memOperandIn(form.Dst, fsp)
	if ad == nil {
		e.unsupported(in)
		return
	}
	A, amask, off := e.cpAsyncAddr(ad)
	b := e.f.ConstSlot(1) // one arrival
	lc := jen.Lit(layout.Loc(in.Pos))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		return []jen.Code{jen.Id("w").Dot("Mbarrier").Call(jen.Qual(rtPath, op), jen.Qual(rtPath, ad.space), jen.Nil(), A, jen.Id(e.reg(b)), amask, off, jen.Id(mask), lc)}
	})
}
