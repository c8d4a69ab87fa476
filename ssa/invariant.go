package ssa

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// LaunchInvariant returns, in an order where every instruction comes after those defining its
// operands, the instructions of kernel fn that compute the same value in every thread of a
// launch and can neither fault nor touch memory other than the kernel's parameters: loads of
// a parameter within its bounds, mov of immediates, of %ntid, %nctaid and %dynamic_smem_size
// and of global, const and shared variable addresses, cvta, and integer arithmetic on such
// values. A back end may run them
// once per launch instead of once per warp.
//
// Only a register written by exactly one such instruction, never guarded, never read before
// that write on some path (the undefined value would show) and never a shfl or mma source
// (which read lanes that may not have run the write) qualifies. Device functions have none.
func LaunchInvariant(fn *Function) []*Instr {
	if fn.Kind != frontend.Entry {
		return nil
	}
	defs := make([]int, len(fn.Regs))
	for _, v := range fn.Values {
		if v.Kind != DefUndef {
			defs[v.Reg.ID]++
		}
	}
	excluded := make([]bool, len(fn.Regs))
	ForEachUse(fn, func(_ *Block, v *Value) {
		if v.Kind == DefUndef {
			excluded[v.Reg.ID] = true
		}
	})
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op == frontend.OpShfl || in.Op == frontend.OpMma || in.Op == frontend.OpWmma {
				for _, a := range in.Args {
					if a.Kind == ArgValue {
						excluded[a.Value.Reg.ID] = true
					}
				}
			}
		}
	}
	invariant := map[*Value]bool{}
	var order []*Instr
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if len(in.Defs) != 1 || invariant[in.Defs[0]] {
					continue
				}
				d := in.Defs[0]
				if defs[d.Reg.ID] != 1 || excluded[d.Reg.ID] || !invariantInstr(fn, in, invariant) {
					continue
				}
				invariant[d] = true
				order = append(order, in)
				changed = true
			}
		}
	}
	return order
}

// invariantInstr reports whether in is an unguarded, non-faulting instruction of a form
// LaunchInvariant hoists whose operands are all launch-invariant.
func invariantInstr(fn *Function, in *Instr, invariant map[*Value]bool) bool {
	if in.Guard != nil || len(in.Dsts) != 1 || in.Dsts[0].Kind != ArgValue || in.Defs[0].Reg.Type == frontend.Pred {
		return false
	}
	for _, m := range in.Mods {
		if m == frontend.ModCc {
			return false
		}
		if t, ok := m.Type(); ok && (!t.IsInteger() && !t.IsBits() || t == frontend.B128) {
			return false
		}
	}
	switch in.Op {
	case frontend.OpLd:
		return in.Space() == frontend.SpaceParam && inBoundsParam(fn, in)
	case frontend.OpMov, frontend.OpCvta, frontend.OpCvt, frontend.OpAdd, frontend.OpSub,
		frontend.OpMul, frontend.OpMad, frontend.OpShl, frontend.OpShr, frontend.OpAnd,
		frontend.OpOr, frontend.OpXor, frontend.OpNot:
	default:
		return false
	}
	for _, a := range in.Args {
		switch a.Kind {
		case ArgImm:
		case ArgValue:
			if a.Not || !invariant[a.Value] {
				return false
			}
		case ArgSpecial:
			if !launchSpecial(a.Name) {
				return false
			}
		case ArgSym:
			if a.Var == nil || a.Var.Space != frontend.SpaceGlobal && a.Var.Space != frontend.SpaceConst && a.Var.Space != frontend.SpaceShared {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// inBoundsParam reports whether a scalar ld.param reads inside one of the kernel's own
// parameters, named directly.
func inBoundsParam(fn *Function, in *Instr) bool {
	a := in.Args[0]
	if a.Kind != ArgAddr || a.Value != nil || a.Var == nil || !isParamVar(fn, a.Var) {
		return false
	}
	var size int64
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			size = int64(t.Bytes())
		}
	}
	return size > 0 && size <= 8 && a.Offset >= 0 && a.Offset+size <= a.Var.Size
}

// launchSpecial reports whether a special register reads the same in every thread of a launch.
func launchSpecial(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch base {
	case "%ntid", "%nctaid", "%dynamic_smem_size":
		return true
	}
	return false
}
