package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Warp-level instructions: shfl, vote, match, redux, elect, activemask and bar.warp.sync. Their
// semantics are runtime.Warp's methods (runtime/warpops.go), shared with codegen/gosrc; this
// file resolves the operands and modifiers once and calls them.

// warpSync describes the rendezvous before a warp-level synchronization for the runtime
// (layout.Frame.WarpSync), reporting a membermask it cannot take.
func (f *fnCompiler) warpSync(in *ssa.Instr, mask ssa.Arg) *runtime.WarpSync {
	ws, _ := f.WarpSync(in, mask) // the table of forms admits registers and immediates only
	return ws
}

// guardLanes returns the function giving the lanes of m whose guard holds, for the
// instructions that apply their own guard.
//
//go:noinline
func (e *emitter) guardLanes() func(w *runtime.Warp, m uint32) uint32 {
	g := e.in.Guard
	if g == nil {
		return func(_ *runtime.Warp, m uint32) uint32 { return m }
	}
	p, neg := e.f.Regs[g.Reg.ID], e.in.GuardNeg
	return func(w *runtime.Warp, m uint32) uint32 {
		v := w.P[p]
		if neg {
			v = ^v
		}
		return m & v
	}
}

// warp lowers a warp-level instruction decoded by layout.DecodeWarp into a call of the
// runtime.Warp method that runs it.
func (e *emitter) warp() runtime.Instr {
	wi, _ := layout.DecodeWarp(e.in)
	loc := e.loc()
	guard := e.guardLanes()
	mm := -1
	if wi.Sync {
		mm = e.src(wi.Mask, frontend.B32)
	}
	var src []int
	for _, a := range wi.Srcs {
		src = append(src, e.src(a, wi.SrcType))
	}
	p := -1
	if wi.HasPredDst {
		p = e.predDst(wi.PredDst)
	}
	switch wi.Op {
	case frontend.OpActivemask:
		d := e.dst(wi.Dst)
		return func(w *runtime.Warp, m uint32) { w.Activemask(d, m) }
	case frontend.OpBar, frontend.OpBarrier:
		return func(w *runtime.Warp, m uint32) { w.BarWarpSync(mm, m, guard(w, m), loc) }
	case frontend.OpShfl:
		d, mode, a, b, c := e.dst(wi.Dst), wi.Shfl, src[0], src[1], src[2]
		return func(w *runtime.Warp, m uint32) { w.Shfl(mode, d, p, a, b, c, mm, m, guard(w, m), loc) }
	case frontend.OpVote:
		v, neg := e.pred(wi.VotePred)
		mode := wi.Vote
		var d int
		if mode == runtime.VoteBallot {
			d = e.dst(wi.Dst)
		} else {
			d = e.predDst(wi.Dst)
		}
		return func(w *runtime.Warp, m uint32) {
			pv := w.P[v]
			if neg {
				pv = ^pv
			}
			w.Vote(mode, d, pv, mm, m, guard(w, m), loc)
		}
	case frontend.OpMatch:
		d, all, width, a := e.dst(wi.Dst), wi.MatchAll, wi.Width, src[0]
		return func(w *runtime.Warp, m uint32) { w.Match(all, width, d, p, a, mm, m, guard(w, m), loc) }
	case frontend.OpRedux:
		d, op, a := e.dst(wi.Dst), wi.Redux, src[0]
		return func(w *runtime.Warp, m uint32) { w.Redux(op, d, a, mm, m, guard(w, m), loc) }
	default: // elect
		d := e.dst(wi.Dst)
		return func(w *runtime.Warp, m uint32) { w.Elect(d, p, mm, m, guard(w, m), loc) }
	}
}
