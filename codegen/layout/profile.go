package layout

import (
	"fmt"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// The static statistics of runtime blocks (runtime.BlockProfile) that both back ends record
// the same way: the source line of every PTX instruction a block issues and its branch.

// ProfileLine counts one PTX instruction at pos.
func ProfileLine(p *runtime.BlockProfile, pos frontend.Pos) {
	if n := len(p.Lines); n > 0 && p.Lines[n-1].Line == pos.Line {
		p.Lines[n-1].Count++
		return
	}
	p.Lines = append(p.Lines, runtime.LineCount{Line: pos.Line, Count: 1})
}

// VectorLen is the number of elements a scalar or vector operand moves; a store skips the
// elements written as _.
func VectorLen(a ssa.Arg, skipSinks bool) int {
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

// MemSpace maps an addressable state space to the runtime's statistics space.
func MemSpace(s frontend.Space) runtime.MemSpace {
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

// ProfileTerm records a block's terminator: its line when it is a PTX instruction issued
// here (explicit), and whether it is a branch. A guarded ret, exit, trap or brx.idx is issued
// at the synthetic branch on its guard; the block that branch leads to issues nothing more.
func ProfileTerm(p *runtime.BlockProfile, b *ssa.Block, explicit bool) {
	t := &b.Term
	if explicit {
		ProfileLine(p, t.Pos)
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

// StartLoc is the PTX file:line of the first line a block's profile counts: where the block
// starts (runtime.Block.Loc), or "" for a block that issues no instruction.
func StartLoc(p *runtime.BlockProfile) string {
	if len(p.Lines) == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", p.File, p.Lines[0].Line)
}

// MemOp is the statistics record of memory instruction in (ld, ldu, st, atom, red), whose
// registers have the slots regs, as both back ends count it; false for any other
// instruction. The caller sets Code.
func MemOp(in *ssa.Instr, regs []int) (runtime.MemOp, bool) {
	op := runtime.MemOp{Guard: -1, Base: -1}
	t := frontend.TypeNone
	for _, m := range in.Mods {
		if x, ok := m.Type(); ok {
			t = x
		}
	}
	switch in.Op {
	case frontend.OpLd, frontend.OpLdu:
		op.Kind = runtime.MemLoad
		op.Bytes = t.Bytes() * VectorLen(in.Dsts[0], false)
	case frontend.OpSt:
		op.Kind = runtime.MemStore
		op.Bytes = t.Bytes() * VectorLen(in.Args[1], true)
	case frontend.OpAtom, frontend.OpRed:
		op.Kind = runtime.MemAtomic
	default:
		return op, false
	}
	if in.Guard != nil {
		op.Guard, op.GuardNeg = regs[in.Guard.Reg.ID], in.GuardNeg
	}
	a := in.Args[0]
	switch sp := in.Space(); sp {
	case frontend.SpaceNone:
		op.Generic = true
		switch {
		case a.Value != nil:
			op.Space = runtime.MemGeneric
			op.Base, op.Wide, op.Off = regs[a.Value.Reg.ID], a.Value.Reg.Type.Bits() == 64, uint64(a.Offset)
		case a.Var != nil:
			op.Space = MemSpace(a.Var.Space)
		default:
			op.Space = runtime.GenericSpace(uint64(a.Offset))
		}
	default:
		op.Space = MemSpace(sp)
	}
	return op, true
}
