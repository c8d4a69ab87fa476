package layout

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// The sanitizer's hooks (runtime/check.go). A back end compiling with checks puts a call of
// runtime.Warp.CheckMem with each of CheckSites' sites before the instruction, and CheckUni's
// before a block's .uni branch; both back ends take the sites from here, so they check the
// same accesses.

// CheckSites returns the check hooks of instruction in: its memory accesses (ld, ldu, st,
// atom, red, the two sides of cp.async) or, for a warp-level synchronization, the ordering it
// gives the lanes. Other instructions have none.
func (f *Frame) CheckSites(in *ssa.Instr) []*runtime.CheckSite {
	if mask, ok := WarpSyncMask(in); ok {
		ws, ok := f.WarpSync(in, mask)
		if !ok {
			return nil
		}
		s := f.site(in, runtime.CheckWarpSync)
		s.Mask, s.Joint = ws.Mask, ws.Joint
		return []*runtime.CheckSite{s}
	}
	if in.Op == frontend.OpFence || in.Op == frontend.OpMembar {
		if in.Guard != nil || strings.Contains(Spelling(in), ".proxy") {
			return nil // a proxy fence orders no thread's accesses with another's
		}
		return []*runtime.CheckSite{f.site(in, runtime.CheckFence)}
	}
	t := InstrType(in)
	n := max(vecLen(in), 1)
	switch in.Op {
	case frontend.OpLd, frontend.OpLdu:
		if len(in.Args) == 0 {
			return nil
		}
		return f.memSite(in, runtime.CheckLoad, in.Args[0], InstrSpace(in), t.Bytes()*n)
	case frontend.OpSt:
		if len(in.Args) == 0 {
			return nil
		}
		ss := f.memSite(in, runtime.CheckStore, in.Args[0], InstrSpace(in), t.Bytes()*n)
		if len(ss) > 0 && n == 1 && len(in.Args) > 1 && in.Args[1].Kind == ssa.ArgValue && !in.Args[1].Not && in.Args[1].Value.Reg.Type != frontend.Pred {
			ss[0].Val = f.Regs[in.Args[1].Value.Reg.ID] + 1
		}
		return ss
	case frontend.OpAtom, frontend.OpRed:
		if len(in.Args) == 0 {
			return nil
		}
		return f.memSite(in, runtime.CheckAtomic, in.Args[0], InstrSpace(in), t.Bytes()*n)
	case frontend.OpMbarrier:
		mb, ok := Mbarrier(in)
		if !ok {
			return nil
		}
		switch mb.Op {
		case runtime.MbarArrive, runtime.MbarArriveNoComplete, runtime.MbarArriveDrop, runtime.MbarArriveDropNoComplete:
			return f.memSite(in, runtime.CheckRelease, mb.Addr, InstrSpace(in), 8)
		case runtime.MbarTestWait, runtime.MbarTestWaitParity:
			return f.memSite(in, runtime.CheckAcquire, mb.Addr, InstrSpace(in), 8)
		}
		return nil
	case frontend.OpCp:
		cp, ok, _ := CpAsync(in)
		if ok && cp.Kind == CpAsyncArrive {
			// The copies the thread issued before complete before its arrive: the arrive
			// releases them to the threads that wait for the phase.
			return f.memSite(in, runtime.CheckRelease, cp.Dst, frontend.SpaceShared, 8)
		}
		if !ok || cp.Kind != CpAsyncCopy {
			return nil
		}
		return append(f.memSite(in, runtime.CheckLoad, cp.Src, frontend.SpaceGlobal, cp.Size),
			f.memSite(in, runtime.CheckStore, cp.Dst, frontend.SpaceShared, cp.Size)...)
	}
	return nil
}

// CheckUni returns the hook of block b's terminator when it is a conditional .uni branch,
// whose condition synccheck requires to be the same in every lane, or nil.
func (f *Frame) CheckUni(b *ssa.Block) *runtime.CheckSite {
	t := &b.Term
	if t.Kind != ssa.TermBranch || !t.Uni || t.Cond == nil {
		return nil
	}
	s := &runtime.CheckSite{Op: runtime.CheckUniform, Base: -1, Global: -1, Guard: -1,
		Pred: f.Regs[t.Cond.Reg.ID], PredNeg: t.Negate, Loc: Loc(t.Pos), Instr: "bra.uni", Src: f.M.Prog.SrcLines[int(t.Pos.Line)]}
	return s
}

// CheckSrc is the module's map from PTX file:line to CUDA source line (runtime.Module.CheckSrc).
func (m *Module) CheckSrc() map[string]string {
	out := make(map[string]string, len(m.Prog.SrcLines))
	for line, src := range m.Prog.SrcLines {
		out[Loc(frontend.Pos{File: m.Prog.File, Line: int32(line)})] = src
	}
	return out
}

func (f *Frame) site(in *ssa.Instr, op runtime.CheckOp) *runtime.CheckSite {
	s := &runtime.CheckSite{Op: op, Base: -1, Global: -1, Guard: -1, Loc: Loc(in.Pos), Instr: Spelling(in), Src: f.M.Prog.SrcLines[int(in.Pos.Line)]}
	if in.Guard != nil {
		s.Guard, s.GuardNeg = f.Regs[in.Guard.Reg.ID], in.GuardNeg
	}
	return s
}

// memSite is the hook of an access of size bytes at address operand a of state space sp.
func (f *Frame) memSite(in *ssa.Instr, op runtime.CheckOp, a ssa.Arg, sp frontend.Space, size int) []*runtime.CheckSite {
	if a.Kind != ssa.ArgAddr || size <= 0 {
		return nil
	}
	s := f.site(in, op)
	s.Size, s.Off = size, uint64(a.Offset)
	// A strong access (.volatile, .relaxed, .acquire, .release) takes part in the memory
	// model's synchronization: a strong store after a fence releases, a strong load acquires.
	s.Strong = hasMod(in, frontend.ModVolatile) || hasMod(in, frontend.ModRelaxed) || hasMod(in, frontend.ModAcquire) || hasMod(in, frontend.ModRelease)
	s.Release = hasMod(in, frontend.ModRelease) || hasMod(in, frontend.ModAcqRel)
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		s.Space = runtime.SpaceGlobal
	case frontend.SpaceShared:
		s.Space = runtime.SpaceShared
	case frontend.SpaceLocal:
		s.Space = runtime.SpaceLocal
	case frontend.SpaceNone:
		s.Space = runtime.SpaceGeneric
	default:
		return nil // .param: kernel parameters and call arguments are never checked
	}
	switch {
	case a.Value != nil:
		s.Base, s.Wide = f.Regs[a.Value.Reg.ID], a.Value.Reg.Type.Bits() == 64
	case a.Var != nil:
		v := a.Var
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			s.Global = f.M.Globals[v]
		case frontend.SpaceShared:
			s.Off += uint64(f.M.Shared[v])
			if sp == frontend.SpaceNone {
				s.Off += uint64(runtime.SharedWindow)
			}
		case frontend.SpaceLocal:
			if sp == frontend.SpaceNone {
				s.Off += uint64(runtime.LocalWindow)
			}
			if o, ok := f.M.Local[v]; ok {
				s.Off += uint64(o)
			} else {
				s.Off += uint64(f.Local[v])
				s.LocalFrame = true
			}
		default:
			return nil
		}
	}
	return []*runtime.CheckSite{s}
}
