package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
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
	op, ok := layout.MemOp(in, f.Regs)
	if !ok {
		return
	}
	op.Code = at
	if op.Kind == runtime.MemAtomic {
		p.Atomics++
	}
	p.Mem = append(p.Mem, op)
}
