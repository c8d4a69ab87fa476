package layout

import (
	"fmt"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Instructions that only hint the hardware, checked here for both back ends:
// prefetch{.global,.local}.{L1,L2}, prefetch.global.L2::evict_{last,normal} and prefetchu.L1
// warm caches (a prefetch of an invalid address is no fault on a GPU), pmevent signals
// performance-monitor events there are no counters for, nanosleep.u32 suspends the thread
// (the back ends yield the goroutine), and brkpt is a debugger's breakpoint.
// griddepcontrol.wait waits for the grids the launch depends on to complete, and
// griddepcontrol.launch_dependents lets dependent grids start early (programmatic dependent
// launch, sm_90): launches run one after another here, so a grid's prerequisites have completed
// before it starts and there is nothing to wait for or to signal. setmaxnreg.{inc,dec}.sync.aligned.u32
// (sm_90a) moves registers between the warps of a warpgroup, which have no limit here.

// knownMod looks up a modifier the frontend knows; an unknown name is a bug, caught at init.
func knownMod(name string) frontend.Mod {
	m, ok := frontend.LookupMod(name)
	if !ok {
		panic("layout: frontend does not know the modifier " + name)
	}
	return m
}

var (
	modL1               = knownMod(".L1")
	modL2               = knownMod(".L2")
	modL2EvLast         = knownMod(".L2::evict_last")
	modL2EvNorm         = knownMod(".L2::evict_normal")
	modMask             = knownMod(".mask")
	modWait             = knownMod(".wait")
	modLaunchDependents = knownMod(".launch_dependents")
)

// CheckHint checks the form of prefetch, prefetchu, nanosleep, pmevent, brkpt,
// griddepcontrol and setmaxnreg. It returns
// ok for a form the back ends run, or an error message for a malformed one; neither (false,
// "") is a form neither back end supports (reported as an unsupported instruction).
func CheckHint(in *ssa.Instr) (ok bool, msg string) {
	switch in.Op {
	case frontend.OpPrefetch, frontend.OpPrefetchu:
		if len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgAddr {
			return false, ""
		}
		levels, evict := 0, false
		sp := frontend.SpaceNone
		for _, m := range in.Mods {
			s, isSpace := m.Space()
			switch {
			case isSpace && in.Op == frontend.OpPrefetch && (s == frontend.SpaceGlobal || s == frontend.SpaceLocal):
				sp = s
			case m == modL1:
				levels++
			case (m == modL2 || m == modL2EvLast || m == modL2EvNorm) && in.Op == frontend.OpPrefetch:
				levels++
				evict = evict || m != modL2
			default:
				return false, ""
			}
		}
		return levels == 1 && (!evict || sp == frontend.SpaceGlobal), ""
	case frontend.OpNanosleep:
		if len(in.Mods) != 1 || len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgValue && in.Args[0].Kind != ssa.ArgImm {
			return false, ""
		}
		t, isType := in.Mods[0].Type()
		return isType && t == frontend.U32, ""
	case frontend.OpPmevent:
		if len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgImm {
			return false, ""
		}
		limit := uint64(15)
		switch {
		case len(in.Mods) == 1 && in.Mods[0] == modMask:
			limit = 0xffff
		case len(in.Mods) != 0:
			return false, ""
		}
		if in.Args[0].Imm > limit {
			return false, fmt.Sprintf("pmevent operand %d is out of range 0..%d", in.Args[0].Imm, limit)
		}
		return true, ""
	case frontend.OpBrkpt:
		return len(in.Mods) == 0 && len(in.Args) == 0, ""
	case frontend.OpGriddepcontrol:
		return len(in.Mods) == 1 && (in.Mods[0] == modWait || in.Mods[0] == modLaunchDependents) && len(in.Args) == 0, ""
	case frontend.OpSetmaxnreg:
		return checkSetmaxnreg(in)
	}
	return false, ""
}

// checkSetmaxnreg checks setmaxnreg.{inc,dec}.sync.aligned.u32 n: n is an immediate register
// count per thread from 24 to 256, a multiple of 8.
func checkSetmaxnreg(in *ssa.Instr) (ok bool, msg string) {
	var action, sync, aligned, u32 int
	for _, m := range in.Mods {
		t, isType := m.Type()
		switch {
		case m == frontend.ModInc || m == frontend.ModDec:
			action++
		case m == frontend.ModSync:
			sync++
		case m == frontend.ModAligned:
			aligned++
		case isType && t == frontend.U32:
			u32++
		default:
			return false, ""
		}
	}
	if action != 1 || sync != 1 || aligned != 1 || u32 != 1 || len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgImm {
		return false, ""
	}
	if n := in.Args[0].Imm; n < 24 || n > 256 || n%8 != 0 {
		return false, fmt.Sprintf("setmaxnreg register count %d is not a multiple of 8 from 24 to 256", n)
	}
	return true, ""
}
