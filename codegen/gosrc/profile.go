package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Execution statistics. Each runtime block gets the static profile the closure back end
// gives it (its PTX lines, branch, atomics; codegen/layout), so the runtime derives the same
// counts from how often the block ran. Memory instructions count their lanes themselves when
// the launch collects statistics (the block chain then runs with no budget, run.go): an
// access inside a lane loop counts its lane (runtime.Warp.CountAccess), any other its warp
// before it runs (runtime.Warp.CountMem), as the runtime counts the closure engine's.

// memOp is the statistics record of a memory instruction, as the closure back end makes it.
func (f *fnGen) memOp(in *ssa.Instr) (runtime.MemOp, bool) { return layout.MemOp(in, f.Regs) }

var memKindName = map[runtime.MemKind]string{runtime.MemLoad: "MemLoad", runtime.MemStore: "MemStore", runtime.MemAtomic: "MemAtomic"}

var memSpaceName = map[runtime.MemSpace]string{runtime.MemGlobal: "MemGlobal", runtime.MemShared: "MemShared", runtime.MemLocal: "MemLocal",
	runtime.MemParam: "MemParam", runtime.MemConst: "MemConst", runtime.MemGeneric: "MemGeneric"}

// countWarp counts a memory instruction that runs once for the warp (lanes m, its guard
// applied by the runtime), in launches that collect statistics.
func (e *blockEmit) countWarp(in *ssa.Instr) jen.Code {
	op, ok := e.f.memOp(in)
	if !ok {
		return jen.Null()
	}
	d := jen.Dict{jen.Id("Kind"): jen.Qual(rtPath, memKindName[op.Kind]), jen.Id("Space"): jen.Qual(rtPath, memSpaceName[op.Space]),
		jen.Id("Bytes"): jen.Lit(op.Bytes), jen.Id("Guard"): jen.Lit(op.Guard), jen.Id("Base"): jen.Lit(op.Base)}
	if op.GuardNeg {
		d[jen.Id("GuardNeg")] = jen.True()
	}
	if op.Generic {
		d[jen.Id("Generic")] = jen.True()
	}
	if op.Wide {
		d[jen.Id("Wide")] = jen.True()
	}
	if op.Off != 0 {
		d[jen.Id("Off")] = hexLit(op.Off)
	}
	return jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Id("w").Dot("CountMem").Call(jen.Op("&").Qual(rtPath, "MemOp").Values(d), jen.Id("m")))
}

// countLane counts lane l's access at address a of a memory instruction inside a lane loop
// (its guard already holds), in launches that collect statistics. An unguarded access whose
// space is known is counted for the warp before the loop instead, which keeps the loop free
// of the call.
func (e *blockEmit) countLane(in *ssa.Instr, a string) jen.Code {
	op, _ := e.f.memOp(in)
	if in.Guard == nil && op.Space != runtime.MemGeneric {
		e.seg.counts = append(e.seg.counts, e.countWarp(in))
		return jen.Null()
	}
	e.seg.sideEffects[e.seg.cur] = true // counted in the loop: the lane's pass must not run twice
	return jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Id("w").Dot("CountAccess").Call(
		jen.Qual(rtPath, memKindName[op.Kind]), jen.Qual(rtPath, memSpaceName[op.Space]), jen.Lit(op.Generic), jen.Id(a), jen.Lit(op.Bytes)))
}

// profileLit is the literal of a block's static profile.
func (f *fnGen) profileLit(p *runtime.BlockProfile) jen.Code {
	d := jen.Dict{jen.Id("File"): jen.Lit(p.File)}
	if len(p.Lines) > 0 {
		var ls []jen.Code
		for _, l := range p.Lines {
			ls = append(ls, jen.Values(jen.Dict{jen.Id("Line"): jen.Lit(int(l.Line)), jen.Id("Count"): jen.Lit(int(l.Count))}))
		}
		d[jen.Id("Lines")] = jen.Index().Qual(rtPath, "LineCount").Values(ls...)
	}
	if p.Branch {
		d[jen.Id("Branch")] = jen.True()
	}
	if p.Divergence {
		d[jen.Id("Divergence")] = jen.True()
	}
	if p.Atomics != 0 {
		d[jen.Id("Atomics")] = jen.Lit(p.Atomics)
	}
	return jen.Op("&").Qual(rtPath, "BlockProfile").Values(d)
}
