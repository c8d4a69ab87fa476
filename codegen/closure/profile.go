package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Static statistics of runtime blocks (runtime.BlockProfile): the source line of every PTX
// instruction a block issues, its branch, atomic and memory instructions. The runtime
// multiplies them by how often and with how many lanes the block ran; only the lanes of
// memory operations are counted as they run, from the MemOp records made here.

// newProfile starts the profile of a runtime block of the current function.
func (f *fnCompiler) newProfile() *runtime.BlockProfile {
	return &runtime.BlockProfile{File: f.Fn.Pos.File}
}

// profileLine counts one PTX instruction at pos.
func profileLine(p *runtime.BlockProfile, pos frontend.Pos) {
	if n := len(p.Lines); n > 0 && p.Lines[n-1].Line == pos.Line {
		p.Lines[n-1].Count++
		return
	}
	p.Lines = append(p.Lines, runtime.LineCount{Line: pos.Line, Count: 1})
}

// profileInstr records instruction in: its line, and when it has code, for a memory
// instruction the bytes each lane moves and the index in the block's code of the closure
// before which its lanes are counted: the one that accesses memory (the last of the
// instruction's, after the operand set-up), or for a hoisted instruction, which runs in the
// prologue, the next closure of the block (its lanes are the block's; it has no guard).
func (f *fnCompiler) profileInstr(p *runtime.BlockProfile, in *ssa.Instr, at int, hasCode bool) {
	profileLine(p, in.Pos)
	if !hasCode {
		return
	}
	op := runtime.MemOp{Code: at, Guard: -1, Base: -1}
	e := &emitter{f: f, in: in}
	t := e.typ()
	switch in.Op {
	case frontend.OpLd, frontend.OpLdu:
		op.Kind = runtime.MemLoad
		op.Bytes = t.Bytes() * vectorLen(in.Dsts[0], false)
	case frontend.OpSt:
		op.Kind = runtime.MemStore
		op.Bytes = t.Bytes() * vectorLen(in.Args[1], true)
	case frontend.OpAtom, frontend.OpRed:
		op.Kind = runtime.MemAtomic
		p.Atomics++
	default:
		return
	}
	if in.Guard != nil {
		op.Guard, op.GuardNeg = f.Regs[in.Guard.Reg.ID], in.GuardNeg
	}
	a := in.Args[0]
	switch sp := e.space(); sp {
	case frontend.SpaceNone:
		op.Generic = true
		switch {
		case a.Value != nil:
			op.Space = runtime.MemGeneric
			op.Base, op.Wide, op.Off = f.Regs[a.Value.Reg.ID], a.Value.Reg.Type.Bits() == 64, uint64(a.Offset)
		case a.Var != nil:
			op.Space = memSpace(a.Var.Space)
		default:
			op.Space = runtime.GenericSpace(uint64(a.Offset))
		}
	default:
		op.Space = memSpace(sp)
	}
	p.Mem = append(p.Mem, op)
}

// vectorLen is the number of elements a scalar or vector operand moves; a store skips the
// elements written as _.
func vectorLen(a ssa.Arg, skipSinks bool) int {
	if a.Kind != ssa.ArgVector {
		return 1
	}
	n := 0
	for _, x := range a.Elems {
		if !skipSinks || x.Kind != ssa.ArgSink {
			n++
		}
	}
	return n
}

// memSpace maps an addressable state space to the runtime's statistics space.
func memSpace(s frontend.Space) runtime.MemSpace {
	switch s {
	case frontend.SpaceShared:
		return runtime.MemShared
	case frontend.SpaceLocal:
		return runtime.MemLocal
	case frontend.SpaceParam:
		return runtime.MemParam
	case frontend.SpaceConst:
		return runtime.MemConst
	}
	return runtime.MemGlobal
}

// profileTerm records a block's terminator: its line when it is a PTX instruction issued
// here (explicit), and whether it is a branch. A guarded ret, exit, trap or brx.idx is issued
// at the synthetic branch on its guard; the block that branch leads to issues nothing more.
func profileTerm(p *runtime.BlockProfile, b *ssa.Block, explicit bool) {
	t := &b.Term
	if explicit {
		profileLine(p, t.Pos)
	}
	switch {
	case t.Synthetic:
		p.Branch = b.Succs[0].Term.Kind == ssa.TermBrx
		p.Divergence = p.Branch
	case t.Kind == ssa.TermBrx:
		p.Branch = explicit
		p.Divergence = true
	case t.Kind == ssa.TermJump, t.Kind == ssa.TermBranch:
		p.Branch = explicit
		p.Divergence = explicit
	}
}
