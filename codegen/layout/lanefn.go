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
	for fn, local := range LaneFuncsLocal(p) {
		if !local {
			ok[fn] = true
		}
	}
	return ok
}

// LaneFuncsLocal returns LaneFuncs' functions and those that qualify once loads and stores
// through an address into the lane's own local memory count as the lane's own too
// (laneLocalAccess), each with true where it, or a function it can call, makes such an
// access. A lane's local memory is private: no other lane or warp can address it, so its
// accesses commute with the other lanes' calls. But a per-lane run cannot tell from the code
// that an address is the lane's (a generic one may be global or shared; a local one may be out
// of bounds or misaligned), and a faulting lane would fault in another order than the SIMT
// stack's lockstep: a back end that runs the true ones per lane must check every such address
// as the SIMT path does, and where one fails leave the call to the SIMT path with local memory
// as it was before the call.
func LaneFuncsLocal(p *ssa.Program) map[*ssa.Function]bool {
	local := map[*ssa.Function]bool{}
	for _, fn := range p.Funcs {
		if ok, l := laneFuncBody(fn); ok {
			local[fn] = l
		}
	}
	// A function qualifies only if every function it calls does, and touches local memory if
	// one of them does: drop callers of dropped functions, and mark callers of marked ones,
	// until nothing changes.
	for changed := true; changed; {
		changed = false
		for fn := range local {
			for _, b := range fn.Blocks {
				c := b.Term.Call
				if c == nil {
					continue
				}
				l, ok := local[c.Direct]
				if !ok {
					delete(local, fn)
					changed = true
					break
				}
				if l && !local[fn] {
					local[fn] = true
					changed = true
				}
			}
		}
	}
	return local
}

// laneFuncBody reports whether fn's own body qualifies for LaneFuncsLocal, its callees
// aside: a device function with a body, no variables but .param ones, terminators that are
// jumps, branches, ret or direct unguarded calls, and instructions that laneFuncInstr or
// laneLocalAccess accepts; and whether some are laneLocalAccess ones.
func laneFuncBody(fn *ssa.Function) (ok, local bool) {
	if fn.Kind != frontend.Func || fn.Decl || fn.Noreturn || len(fn.Blocks) == 0 {
		return false, false
	}
	for _, v := range fn.Vars {
		if v.Space != frontend.SpaceParam {
			return false, false
		}
	}
	for _, b := range fn.Blocks {
		switch t := &b.Term; t.Kind {
		case ssa.TermJump, ssa.TermBranch, ssa.TermRet:
		case ssa.TermCall:
			c := t.Call
			if c.Direct == nil || c.Direct.Decl || c.Guard != nil || c.Target != nil {
				return false, false
			}
		default:
			return false, false
		}
		for _, in := range b.Instrs {
			switch {
			case laneFuncInstr(in):
			case laneLocalAccess(in):
				local = true
			default:
				return false, false
			}
		}
	}
	return true, local
}

// laneLocalAccess reports whether an instruction is an ld or st that may address the lane's
// own local memory: of the .local or the generic space, through a register (a pointer) or a
// module's .local variable, of scalars or vectors of up to four elements of at most 64 bits
// in registers or immediates.
func laneLocalAccess(in *ssa.Instr) bool {
	if in.Op != frontend.OpLd && in.Op != frontend.OpSt {
		return false
	}
	if sp := InstrSpace(in); sp != frontend.SpaceLocal && sp != frontend.SpaceNone {
		return false
	}
	if t := InstrType(in); t == frontend.Pred || t.Bits() == 0 || t.Bits() > 64 {
		return false
	}
	addrs := 0
	for _, as := range [][]ssa.Arg{in.Args, in.Dsts} {
		for _, a := range as {
			switch a.Kind {
			case ssa.ArgAddr:
				addrs++
				if a.Value == nil && (a.Var == nil || a.Var.Space != frontend.SpaceLocal) {
					return false
				}
			case ssa.ArgVector:
				if len(a.Elems) > 4 {
					return false
				}
			}
		}
	}
	return addrs == 1
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
