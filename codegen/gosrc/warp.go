package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// warp lowers a warp-level instruction (shfl, vote, match, redux, elect, activemask,
// bar.warp.sync), decoded by layout.DecodeWarp as codegen/closure decodes it, into a call of
// the runtime.Warp method that runs it for the whole warp:
//
//	w.Shfl(runtime.ShflDown, d, p, a, b, c, mm, m, exec, "file.ptx:30")
//
// with register slots as literals, m the lanes that reach it and exec those that execute it
// (m and the guard, for the instructions that apply their own guard).
func (e *blockEmit) warp(in *ssa.Instr) {
	wi, _ := layout.DecodeWarp(in)
	ok := true
	src := func(a ssa.Arg, t frontend.Type) jen.Code {
		s, good := e.operandSlot(a, t)
		ok = ok && good
		return jen.Lit(s)
	}
	var mm jen.Code = jen.Lit(-1)
	if wi.Sync {
		mm = src(wi.Mask, frontend.B32)
	}
	var srcs []jen.Code
	for _, a := range wi.Srcs {
		srcs = append(srcs, src(a, wi.SrcType))
	}
	dst := func(a ssa.Arg, pred bool) jen.Code {
		switch {
		case a.Kind == ssa.ArgSink && pred:
			p := e.f.RF.NumPreds
			e.f.RF.NumPreds++
			return jen.Lit(p)
		case a.Kind == ssa.ArgSink:
			return jen.Lit(e.f.Scratch())
		case a.Kind == ssa.ArgValue && (a.Value.Reg.Type == frontend.Pred) == pred:
			s := e.f.Regs[a.Value.Reg.ID]
			if !pred {
				delete(e.uni, s)
			}
			return jen.Lit(s)
		}
		ok = false
		return nil
	}
	var p jen.Code = jen.Lit(-1)
	if wi.HasPredDst {
		p = dst(wi.PredDst, true)
	}
	exec := jen.Id("m")
	if g := in.Guard; g != nil && wi.SelfGuarded {
		op := "&"
		if in.GuardNeg {
			op = "&^"
		}
		exec = jen.Id("m").Op(op).Id("w").Dot("P").Index(jen.Lit(e.f.Regs[g.Reg.ID]))
	}
	loc := jen.Lit(layout.Loc(in.Pos))
	var call jen.Code
	switch wi.Op {
	case frontend.OpActivemask:
		d := dst(wi.Dst, false)
		if !ok {
			break
		}
		e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
		e.guarded(in, func(mask string) []jen.Code {
			return []jen.Code{jen.Id("w").Dot("Activemask").Call(d, jen.Id(mask))}
		})
		return
	case frontend.OpBar, frontend.OpBarrier:
		call = jen.Id("w").Dot("BarWarpSync").Call(mm, jen.Id("m"), exec, loc)
	case frontend.OpShfl:
		mode := map[runtime.ShflMode]string{runtime.ShflUp: "ShflUp", runtime.ShflDown: "ShflDown", runtime.ShflBfly: "ShflBfly", runtime.ShflIdx: "ShflIdx"}[wi.Shfl]
		call = jen.Id("w").Dot("Shfl").Call(append([]jen.Code{jen.Qual(rtPath, mode), dst(wi.Dst, false), p}, append(srcs, mm, jen.Id("m"), exec, loc)...)...)
	case frontend.OpVote:
		mode := map[runtime.VoteMode]string{runtime.VoteAll: "VoteAll", runtime.VoteAny: "VoteAny", runtime.VoteUni: "VoteUni", runtime.VoteBallot: "VoteBallot"}[wi.Vote]
		var v jen.Code
		switch a := wi.VotePred; {
		case isPred(a) && a.Not:
			v = jen.Op("^").Id("w").Dot("P").Index(jen.Lit(e.f.Regs[a.Value.Reg.ID]))
		case isPred(a):
			v = jen.Id("w").Dot("P").Index(jen.Lit(e.f.Regs[a.Value.Reg.ID]))
		case a.Kind == ssa.ArgImm && a.Imm != 0:
			v = jen.Id("0xffffffff")
		case a.Kind == ssa.ArgImm:
			v = jen.Lit(0)
		default:
			ok = false
		}
		call = jen.Id("w").Dot("Vote").Call(jen.Qual(rtPath, mode), dst(wi.Dst, wi.Vote != runtime.VoteBallot), v, mm, jen.Id("m"), exec, loc)
	case frontend.OpMatch:
		call = jen.Id("w").Dot("Match").Call(jen.Lit(wi.MatchAll), jen.Lit(wi.Width), dst(wi.Dst, false), p, srcs[0], mm, jen.Id("m"), exec, loc)
	case frontend.OpRedux:
		op := map[runtime.ReduxOp]string{runtime.ReduxAdd: "ReduxAdd", runtime.ReduxMinU: "ReduxMinU", runtime.ReduxMinS: "ReduxMinS",
			runtime.ReduxMaxU: "ReduxMaxU", runtime.ReduxMaxS: "ReduxMaxS", runtime.ReduxAnd: "ReduxAnd", runtime.ReduxOr: "ReduxOr", runtime.ReduxXor: "ReduxXor"}[wi.Redux]
		call = jen.Id("w").Dot("Redux").Call(jen.Qual(rtPath, op), dst(wi.Dst, false), srcs[0], mm, jen.Id("m"), exec, loc)
	default: // elect
		call = jen.Id("w").Dot("Elect").Call(dst(wi.Dst, false), p, mm, jen.Id("m"), exec, loc)
	}
	if !ok {
		e.unsupported(in)
		return
	}
	comment := fmt.Sprintf("PTX line %d: %s", in.Pos.Line, spelling(in))
	if in.Guard != nil {
		comment += ", guarded: the lanes whose guard is false reach it without executing it"
	}
	e.stmts = append(e.stmts, jen.Comment(comment), call)
}
