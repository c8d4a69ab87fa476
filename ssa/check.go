package ssa

import "fmt"

// Check verifies the IR's structural invariants and returns the first violation: block
// numbering, symmetric predecessor and successor lists, successor counts per terminator, one phi
// operand per predecessor, one kept value per def of a guarded instruction or call (none when
// unguarded), every used value numbered and defined before its use (its definition dominates the
// use), and reconvergence blocks exactly at the immediate post-dominators of potentially
// divergent terminators. Tests run it after building and after every pass.
func Check(p *Program) error {
	for _, fn := range p.Funcs {
		if fn.Decl {
			continue
		}
		if err := checkFunc(fn); err != nil {
			return fmt.Errorf("%s: %w", fn.Name, err)
		}
	}
	return nil
}

func checkFunc(fn *Function) error {
	if len(fn.Blocks) == 0 || fn.Exit == nil {
		return fmt.Errorf("no blocks or no exit block")
	}
	for i, v := range fn.Values {
		if v.ID != i {
			return fmt.Errorf("value %s has ID %d at index %d", valueName(v), v.ID, i)
		}
	}
	for i, b := range fn.Blocks {
		if b.ID != i || b.Func != fn {
			return fmt.Errorf("block %s is misnumbered or belongs to another function", blockName(b))
		}
		if err := checkEdges(b); err != nil {
			return fmt.Errorf("%s: %w", blockName(b), err)
		}
		for _, phi := range b.Phis {
			if len(phi.Args) != len(b.Preds) {
				return fmt.Errorf("%s: phi %s has %d operands for %d predecessors", blockName(b), valueName(phi.Dst), len(phi.Args), len(b.Preds))
			}
		}
		for _, in := range b.Instrs {
			if err := checkPrev(in.Guard, in.Defs, in.Prev); err != nil {
				return fmt.Errorf("%s: %s: %w", blockName(b), in.Op, err)
			}
		}
		if c := b.Term.Call; c != nil {
			if err := checkPrev(c.Guard, c.Defs, c.Prev); err != nil {
				return fmt.Errorf("%s: call: %w", blockName(b), err)
			}
		}
		wantReconv := mayDiverge(&b.Term)
		if wantReconv && b.Term.Reconv != b.Ipdom {
			return fmt.Errorf("%s: reconvergence block %s is not the immediate post-dominator %s", blockName(b), blockRef(b.Term.Reconv), blockRef(b.Ipdom))
		}
		if !wantReconv && (b.Term.Reconv != nil || b.Term.Divergent) {
			return fmt.Errorf("%s: a terminator that cannot diverge has a reconvergence annotation", blockName(b))
		}
		if b.Ipdom == nil {
			return fmt.Errorf("%s has no immediate post-dominator", blockName(b))
		}
	}
	return checkDefsDominateUses(fn)
}

// checkPrev checks that a guarded definition names one kept value per def, of the def's
// register, and that an unguarded one names none.
func checkPrev(guard *Value, defs, prev []*Value) error {
	if guard == nil {
		if len(prev) > 0 {
			return fmt.Errorf("unguarded, but keeps %d previous values", len(prev))
		}
		return nil
	}
	if len(prev) != len(defs) {
		return fmt.Errorf("guarded, with %d previous values for %d defs", len(prev), len(defs))
	}
	for i, d := range defs {
		if prev[i] == nil || prev[i].Reg != d.Reg {
			return fmt.Errorf("def %s keeps %s, a value of another register", valueName(d), valueName(prev[i]))
		}
	}
	return nil
}

func checkEdges(b *Block) error {
	want := -1
	switch b.Term.Kind {
	case TermJump, TermCall, TermRet, TermExit, TermTrap:
		want = 1
	case TermBranch:
		want = 2
	case TermBrx:
		if len(b.Succs) == 0 {
			return fmt.Errorf("brx.idx with no targets")
		}
	case TermNone:
		return fmt.Errorf("block has no terminator")
	}
	if want >= 0 && len(b.Succs) != want {
		return fmt.Errorf("terminator has %d successors, want %d", len(b.Succs), want)
	}
	for _, s := range b.Succs {
		if count(s.Preds, b) != count(b.Succs, s) {
			return fmt.Errorf("edge to %s is not mirrored in its predecessors", blockName(s))
		}
	}
	for _, p := range b.Preds {
		if count(p.Succs, b) != count(b.Preds, p) {
			return fmt.Errorf("edge from %s is not mirrored in its successors", blockName(p))
		}
	}
	return nil
}

func count(bs []*Block, x *Block) int {
	n := 0
	for _, b := range bs {
		if b == x {
			n++
		}
	}
	return n
}

// checkDefsDominateUses checks, in reachable blocks, that every use is of a numbered value whose
// definition comes earlier in the block or in a dominating block.
func checkDefsDominateUses(fn *Function) error {
	type site struct {
		block *Block
		index int // position in the block: -1 for phis, len(Instrs) for the terminator's call results
	}
	defs := map[*Value]site{}
	for _, b := range fn.Blocks {
		for _, phi := range b.Phis {
			defs[phi.Dst] = site{b, -1}
		}
		for i, in := range b.Instrs {
			for _, d := range in.Defs {
				defs[d] = site{b, i}
			}
		}
		if c := b.Term.Call; c != nil {
			for _, d := range c.Defs {
				defs[d] = site{b, len(b.Instrs) + 1}
			}
		}
	}
	dominates := func(a, b *Block) bool {
		for x := b; x != nil; x = x.Idom {
			if x == a {
				return true
			}
		}
		return false
	}
	reachable := func(b *Block) bool { return b.ID == 0 || b.Idom != nil }
	var err error
	checkUse := func(v *Value, at site) {
		if err != nil {
			return
		}
		if v == nil || v.ID >= len(fn.Values) || fn.Values[v.ID] != v {
			err = fmt.Errorf("%s uses an unnumbered value %s", blockName(at.block), valueName(v))
			return
		}
		d, ok := defs[v]
		if !ok {
			if v.Kind == DefInstr || v.Kind == DefPhi || v.Kind == DefCall {
				err = fmt.Errorf("%s uses %s, whose definition is not in the function", blockName(at.block), valueName(v))
			}
			return
		}
		if d.block == at.block && d.index >= at.index || d.block != at.block && !dominates(d.block, at.block) {
			err = fmt.Errorf("%s uses %s before its definition dominates the use", blockName(at.block), valueName(v))
		}
	}
	for _, b := range fn.Blocks {
		if !reachable(b) {
			continue
		}
		for _, phi := range b.Phis {
			for i, a := range phi.Args {
				if reachable(b.Preds[i]) {
					checkUse(a, site{b.Preds[i], len(b.Preds[i].Instrs) + 2})
				}
			}
		}
		for i, in := range b.Instrs {
			forInstrUses(in, func(pv **Value) { checkUse(*pv, site{b, i}) })
		}
		forTermUses(&b.Term, func(pv **Value) { checkUse(*pv, site{b, len(b.Instrs)}) })
	}
	return err
}
