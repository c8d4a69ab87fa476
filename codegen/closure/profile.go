package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Static statistics of runtime blocks (runtime.BlockProfile): the source line of every PTX
// instruction a block issues (codegen/layout), its branch, atomic and memory instructions. The runtime
// multiplies them by how often and with how many lanes the block ran; only the lanes of
// memory operations are counted as they run, from the MemOp records made here.

// newProfile starts the profile of a runtime block of the current function.
func (f *fnCompiler) newProfile() *runtime.BlockProfile {
	return &runtime.BlockProfile{File: f.Fn.Pos.File}
}

// profileInstr records instruction in: its line, and when it has code, for a memory
// instruction the bytes each lane moves and the index in the block's code of the closure
// before which its lanes are counted: the one that accesses memory (the last of the
// instruction's, after the operand set-up), or for a hoisted instruction, which runs in the
// prologue, the next closure of the block (its lanes are the block's; it has no guard).
func (f *fnCompiler) profileInstr(p *runtime.BlockProfile, in *ssa.Instr, at int, hasCode bool) {
	layout.ProfileLine(p, in.Pos)
	if !hasCode {
		return
	}
	op := runtime.MemOp{Code: at, Guard: -1, Base: -1}
	e := &emitter{f: f, in: in}
	t := e.typ()
	switch in.Op {
	case frontend.OpLd, frontend.OpLdu:
		op.Kind = runtime.MemLoad
		op.Bytes = t.Bytes() * layout.VectorLen(in.Dsts[0], false)
	case frontend.OpSt:
		op.Kind = runtime.MemStore
		op.Bytes = t.Bytes() * layout.VectorLen(in.Args[1], true)
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
			op.Space = layout.MemSpace(a.Var.Space)
		default:
			op.Space = runtime.GenericSpace(uint64(a.Offset))
		}
	default:
		op.Space = layout.MemSpace(sp)
	}
	p.Mem = append(p.Mem, op)
}
