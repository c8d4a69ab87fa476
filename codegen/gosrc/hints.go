package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Instructions that only hint the hardware: prefetch, prefetchu, pmevent, griddepcontrol and
// setmaxnreg do nothing, nanosleep yields the goroutine (so that a kernel spinning on memory
// another CTA writes lets it run), and brkpt stops the launch with a breakpoint fault at its first executing lane, as
// in codegen/closure.

// hint lowers prefetch, prefetchu, nanosleep, pmevent, brkpt, griddepcontrol and setmaxnreg,
// whose forms layout.CheckHint checks for the table of forms, and applypriority and discard
// (layout.CheckCacheHint), which do nothing: the L2 cache is not modelled.
func (e *blockEmit) hint(in *ssa.Instr) {
	switch in.Op {
	case frontend.OpNanosleep:
		e.flush()
		e.stmts = append(e.stmts, jen.Qual("runtime", "Gosched").Call())
	case frontend.OpBrkpt:
		e.flush()
		e.guarded(in, func(mask string) []jen.Code {
			return []jen.Code{jen.Id("w").Dot("Fault").Call(jen.Qual(rtPath, "FaultBreakpoint"), jen.Lit(layout.Loc(in.Pos)),
				jen.Qual("math/bits", "TrailingZeros32").Call(jen.Id(mask)), jen.Lit(""))}
		})
	}
}
