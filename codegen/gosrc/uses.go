package gosrc

import "github.com/ptx2go/ptx2go/ssa"

// uses maps each SSA value to the instructions that read it; a nil entry stands for a read
// that is not an instruction operand (a phi, a terminator, a call, the value a guarded write
// keeps on lanes whose guard is false), which always reads the register file.
func (f *fnGen) valueUses() map[*ssa.Value][]*ssa.Instr {
	if f.uses != nil {
		return f.uses
	}
	u := map[*ssa.Value][]*ssa.Instr{}
	var arg func(in *ssa.Instr, a ssa.Arg)
	arg = func(in *ssa.Instr, a ssa.Arg) {
		if a.Value != nil {
			u[a.Value] = append(u[a.Value], in)
		}
		for _, e := range a.Elems {
			arg(in, e)
		}
	}
	other := func(vs ...*ssa.Value) {
		for _, v := range vs {
			if v != nil {
				u[v] = append(u[v], nil)
			}
		}
	}
	for _, b := range f.Fn.Blocks {
		for _, p := range b.Phis {
			other(p.Args...)
		}
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				arg(in, a)
			}
			for _, a := range in.Dsts {
				// A vector or pair destination may name values too; treat them as reads.
				if a.Kind == ssa.ArgVector || a.Kind == ssa.ArgPair {
					for _, e := range a.Elems {
						if e.Value != nil {
							other(e.Value)
						}
					}
				}
			}
			other(in.Prev...)
		}
		t := &b.Term
		other(t.Cond, t.Index)
		other(t.RetVals...)
		if c := t.Call; c != nil {
			other(c.Target, c.Guard)
			other(c.Prev...)
			for _, a := range c.Args {
				arg(nil, a)
			}
			for _, a := range c.Results {
				arg(nil, a)
			}
		}
	}
	f.uses = u
	return u
}

// onlyReadBy reports whether every read of v is an instruction in set.
func (f *fnGen) onlyReadBy(v *ssa.Value, set map[*ssa.Instr]bool) bool {
	for _, in := range f.valueUses()[v] {
		if in == nil || !set[in] {
			return false
		}
	}
	return true
}
