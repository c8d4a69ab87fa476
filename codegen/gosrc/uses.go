package gosrc

import (
	"slices"

	"github.com/ptx2go/ptx2go/ssa"
)

// forEachRead calls visit for every read of an SSA value in the function: in the block b that
// reads it, with in the instruction whose operand it is, or nil for a read that is not an
// instruction operand (a guard, a terminator, a call, the value a guarded write keeps on lanes
// whose guard is false, a vector or pair destination). A phi's operand is read at the end of
// the predecessor it flows in from.
func (f *fnGen) forEachRead(visit func(b *ssa.Block, in *ssa.Instr, v *ssa.Value)) {
	var arg func(b *ssa.Block, in *ssa.Instr, a ssa.Arg)
	arg = func(b *ssa.Block, in *ssa.Instr, a ssa.Arg) {
		if a.Value != nil {
			visit(b, in, a.Value)
		}
		for _, e := range a.Elems {
			arg(b, in, e)
		}
	}
	other := func(b *ssa.Block, vs ...*ssa.Value) {
		for _, v := range vs {
			if v != nil {
				visit(b, nil, v)
			}
		}
	}
	for _, b := range f.Fn.Blocks {
		for _, p := range b.Phis {
			for i, v := range p.Args {
				if i < len(b.Preds) {
					other(b.Preds[i], v)
				}
			}
		}
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				arg(b, in, a)
			}
			for _, a := range in.Dsts {
				if a.Kind == ssa.ArgVector || a.Kind == ssa.ArgPair {
					arg(b, nil, a)
				}
			}
			other(b, in.Guard)
			other(b, in.Prev...)
		}
		t := &b.Term
		other(b, t.Cond, t.Index)
		other(b, t.RetVals...)
		if c := t.Call; c != nil {
			other(b, c.Target, c.Guard)
			other(b, c.Prev...)
			for _, a := range c.Args {
				arg(b, nil, a)
			}
			for _, a := range c.Results {
				arg(b, nil, a)
			}
		}
	}
}

// valueUses maps each SSA value to the instructions that read it; a nil entry stands for a
// read that is not an instruction operand (forEachRead), which always reads the register file.
func (f *fnGen) valueUses() map[*ssa.Value][]*ssa.Instr {
	if f.uses != nil {
		return f.uses
	}
	u := map[*ssa.Value][]*ssa.Instr{}
	f.forEachRead(func(_ *ssa.Block, in *ssa.Instr, v *ssa.Value) { u[v] = append(u[v], in) })
	f.uses = u
	return u
}

// anyReadBy reports whether an instruction in set reads v.
func (f *fnGen) anyReadBy(v *ssa.Value, set map[*ssa.Instr]bool) bool {
	return slices.ContainsFunc(f.valueUses()[v], func(in *ssa.Instr) bool { return set[in] })
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
