package layout

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// LaneFuncs returns the device functions whose every call can run one lane at a time: a
// function whose body, and every function it can call, only computes on its own lane's
// registers (laneFuncInstr), reads and writes its own .param variables (its parameters, its
// results and its calls' arguments and results) at constant offsets, and makes direct,
// unguarded calls to other such functions, recursion included. Inside such a call no lane can
// see another one, memory or the warp: no load or store of any other state space, no atomic,
// no warp-level instruction, barrier, exit or trap, no builtin (printf, malloc, ...), no clock
// read, no .local variable. Running the call lane after lane, each lane's whole call before
// the next lane's, then gives every lane the registers, predicates and results that the SIMT
// stack gives it, and nothing else changes but the call's depth, which stays within the
// runtime's limit only where the depth the lanes reach does (the back end must check it).
// Both back ends may run such calls per lane; kernels never qualify.
func LaneFuncs(p *ssa.Program) map[*ssa.Function]bool {
	ok := map[*ssa.Function]bool{}
	for _, fn := range p.Funcs {
		if laneFuncBody(fn) {
			ok[fn] = true
		}
	}
	// A function qualifies only if every function it calls does: drop callers of dropped
	// functions until nothing changes.
	for changed := true; changed; {
		changed = false
		for fn := range ok {
			for _, b := range fn.Blocks {
				if c := b.Term.Call; c != nil && !ok[c.Direct] {
					delete(ok, fn)
					changed = true
					break
				}
			}
		}
	}
	return ok
}

// laneFuncBody reports whether fn's own body qualifies for LaneFuncs, its callees aside: a
// device function with a body, no variables but .param ones, terminators that are jumps,
// branches, ret or direct unguarded calls, and instructions that laneFuncInstr accepts.
func laneFuncBody(fn *ssa.Function) bool {
	if fn.Kind != frontend.Func || fn.Decl || fn.Noreturn || len(fn.Blocks) == 0 {
		return false
	}
	for _, v := range fn.Vars {
		if v.Space != frontend.SpaceParam {
			return false
		}
	}
	for _, b := range fn.Blocks {
		switch t := &b.Term; t.Kind {
		case ssa.TermJump, ssa.TermBranch, ssa.TermRet:
		case ssa.TermCall:
			c := t.Call
			if c.Direct == nil || c.Direct.Decl || c.Guard != nil || c.Target != nil {
				return false
			}
		default:
			return false
		}
		for _, in := range b.Instrs {
			if !laneFuncInstr(in) {
				return false
			}
		}
	}
	return true
}

// laneFuncInstr reports whether an instruction of a LaneFuncs function only acts on its
// lane: arithmetic, comparison, selection and conversion of its registers (reading no clock
// or performance counter, whose values depend on when the lane runs), a memory fence, or a
// scalar ld.param or st.param of a .param variable at a constant offset.
func laneFuncInstr(in *ssa.Instr) bool {
	for _, as := range [][]ssa.Arg{in.Args, in.Dsts} {
		for _, a := range as {
			if timeDependent(a) {
				return false
			}
		}
	}
	if laneArithmetic(in.Op) {
		return true
	}
	switch in.Op {
	case frontend.OpAddc, frontend.OpBmsk, frontend.OpDp2a, frontend.OpDp4a, frontend.OpFence,
		frontend.OpFns, frontend.OpMadc, frontend.OpMembar, frontend.OpSubc, frontend.OpSzext,
		frontend.OpVabsdiff, frontend.OpVadd, frontend.OpVmax, frontend.OpVmin, frontend.OpVsub:
		return true
	case frontend.OpLd, frontend.OpSt:
		return InstrSpace(in) == frontend.SpaceParam && constParamAddr(in)
	}
	return false
}

// constParamAddr reports whether the memory operand of a scalar ld or st names a .param
// variable at a constant offset (not an address in a register).
func constParamAddr(in *ssa.Instr) bool {
	var addr []ssa.Arg
	for _, as := range [][]ssa.Arg{in.Args, in.Dsts} {
		for _, a := range as {
			switch a.Kind {
			case ssa.ArgAddr:
				addr = append(addr, a)
			case ssa.ArgVector:
				return false
			}
		}
	}
	return len(addr) == 1 && addr[0].Value == nil && addr[0].Var != nil && addr[0].Var.Space == frontend.SpaceParam
}

// timeDependent reports whether an operand reads a clock, the global timer or a performance
// counter.
func timeDependent(a ssa.Arg) bool {
	if a.Kind != ssa.ArgSpecial {
		return false
	}
	for _, p := range []string{"%clock", "%globaltimer", "%pm"} {
		if strings.HasPrefix(a.Name, p) {
			return true
		}
	}
	return false
}
