package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Instructions that only hint the hardware, lowered as codegen/closure's prefetch, nanosleep
// and pmevent: prefetch{.global,.local}.{L1,L2}, prefetch.global.L2::evict_{last,normal} and
// prefetchu.L1 warm caches (a prefetch of an invalid address is no fault on a GPU), pmevent
// signals performance-monitor events there are no counters for, and nanosleep yields the
// goroutine, so that a kernel spinning on memory another CTA writes lets it run. brkpt, a
// debugger's breakpoint, stops the launch with a breakpoint fault at its first executing lane.

// hintMod looks up a modifier the frontend knows.
func hintMod(name string) frontend.Mod {
	m, ok := frontend.LookupMod(name)
	if !ok {
		panic("gosrc: frontend does not know the modifier " + name)
	}
	return m
}

var (
	modL1       = hintMod(".L1")
	modL2       = hintMod(".L2")
	modL2EvLast = hintMod(".L2::evict_last")
	modL2EvNorm = hintMod(".L2::evict_normal")
	modMask     = hintMod(".mask")
)

// hint lowers prefetch, prefetchu, nanosleep, pmevent and brkpt, or reports a form codegen/closure
// rejects.
func (e *blockEmit) hint(in *ssa.Instr) {
	switch in.Op {
	case frontend.OpPrefetch, frontend.OpPrefetchu:
		if len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgAddr {
			e.unsupported(in)
			return
		}
		levels := 0
		for _, m := range in.Mods {
			sp, isSpace := m.Space()
			switch {
			case isSpace && in.Op == frontend.OpPrefetch && (sp == frontend.SpaceGlobal || sp == frontend.SpaceLocal):
			case m == modL1:
				levels++
			case (m == modL2 || m == modL2EvLast || m == modL2EvNorm) && in.Op == frontend.OpPrefetch:
				levels++
			default:
				e.unsupported(in)
				return
			}
		}
		if levels != 1 || (has(in, modL2EvLast) || has(in, modL2EvNorm)) && spaceOf(in) != frontend.SpaceGlobal {
			e.unsupported(in)
		}
	case frontend.OpNanosleep:
		if len(in.Mods) != 1 || typeOf(in) != frontend.U32 || len(in.Args) != 1 ||
			in.Args[0].Kind != ssa.ArgValue && in.Args[0].Kind != ssa.ArgImm {
			e.unsupported(in)
			return
		}
		e.flush()
		e.stmts = append(e.stmts, jen.Qual("runtime", "Gosched").Call())
	case frontend.OpPmevent:
		limit := uint64(15)
		switch {
		case len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgImm:
			e.unsupported(in)
			return
		case len(in.Mods) == 1 && in.Mods[0] == modMask:
			limit = 0xffff
		case len(in.Mods) != 0:
			e.unsupported(in)
			return
		}
		if in.Args[0].Imm > limit {
			e.errorf(in, "pmevent operand %d is out of range 0..%d", in.Args[0].Imm, limit)
		}
	case frontend.OpBrkpt:
		if len(in.Mods) != 0 || len(in.Args) != 0 {
			e.unsupported(in)
			return
		}
		e.flush()
		e.guarded(in, func(mask string) []jen.Code {
			return []jen.Code{jen.Id("w").Dot("Fault").Call(jen.Qual(rtPath, "FaultBreakpoint"), jen.Lit(layout.Loc(in.Pos)),
				jen.Qual("math/bits", "TrailingZeros32").Call(jen.Id(mask)), jen.Lit(""))}
		})
	default:
		e.unsupported(in)
	}
}
