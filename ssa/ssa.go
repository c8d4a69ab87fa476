package ssa

// SSA construction follows Braun et al., "Simple and Efficient Construction of Static Single
// Assignment Form" (CC 2013): blocks are filled in reverse postorder, a block is sealed once all
// its predecessors are filled, and reads that reach a join create phis on demand. Trivial phis
// are removed afterwards, so the result is pruned and, on reducible graphs, minimal.

type ssaBuilder struct {
	fn         *Function
	current    []map[*Reg]*Value // per block: the value of each register at its end
	sealed     []bool
	filled     []bool
	incomplete []map[*Reg]*Phi
	undef      map[*Reg]*Value
	replaced   map[*Value]*Value
}

func buildSSA(fn *Function) {
	n := len(fn.Blocks)
	s := &ssaBuilder{fn: fn, current: make([]map[*Reg]*Value, n), sealed: make([]bool, n), filled: make([]bool, n),
		incomplete: make([]map[*Reg]*Phi, n), undef: map[*Reg]*Value{}, replaced: map[*Value]*Value{}}
	for i := range n {
		s.current[i] = map[*Reg]*Value{}
	}
	entry := fn.Blocks[0]
	for _, p := range append(append([]*Param(nil), fn.Params...), fn.Results...) {
		if p.Reg != nil {
			v := &Value{Reg: p.Reg, Kind: DefParam}
			if isResult(fn, p) {
				v.Kind = DefUndef
			}
			s.current[entry.ID][p.Reg] = v
		}
	}
	order := blockOrder(fn)
	for _, bl := range order {
		s.fill(bl)
		s.filled[bl.ID] = true
		for _, succ := range bl.Succs {
			s.trySeal(succ)
		}
		s.trySeal(bl)
	}
	for _, bl := range fn.Blocks {
		if !s.sealed[bl.ID] {
			s.seal(bl)
		}
	}
	s.removeTrivialPhis()
	s.number()
}

func isResult(fn *Function, p *Param) bool {
	for _, r := range fn.Results {
		if r == p {
			return true
		}
	}
	return false
}

// blockOrder lists the blocks in reverse postorder from the entry, then the unreachable ones.
func blockOrder(fn *Function) []*Block {
	seen := make([]bool, len(fn.Blocks))
	var post []*Block
	type frame struct {
		b    *Block
		next int
	}
	stack := []frame{{b: fn.Blocks[0]}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.b.Succs) {
			s := top.b.Succs[top.next]
			top.next++
			if s.ID < len(seen) && !seen[s.ID] {
				seen[s.ID] = true
				stack = append(stack, frame{b: s})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order := make([]*Block, 0, len(fn.Blocks))
	for i := len(post) - 1; i >= 0; i-- {
		order = append(order, post[i])
	}
	for _, bl := range fn.Blocks {
		if !seen[bl.ID] {
			order = append(order, bl)
		}
	}
	return order
}

func (s *ssaBuilder) trySeal(bl *Block) {
	if bl.ID >= len(s.sealed) || s.sealed[bl.ID] {
		return
	}
	for _, p := range bl.Preds {
		if !s.filled[p.ID] {
			return
		}
	}
	s.seal(bl)
}

func (s *ssaBuilder) seal(bl *Block) {
	s.sealed[bl.ID] = true
	for r, phi := range s.incomplete[bl.ID] {
		s.addPhiOperands(r, phi)
	}
	s.incomplete[bl.ID] = nil
}

func (s *ssaBuilder) write(r *Reg, bl *Block, v *Value) { s.current[bl.ID][r] = v }

func (s *ssaBuilder) read(r *Reg, bl *Block) *Value {
	if v, ok := s.current[bl.ID][r]; ok {
		return v
	}
	var v *Value
	switch {
	case !s.sealed[bl.ID]:
		phi := s.newPhi(r, bl)
		if s.incomplete[bl.ID] == nil {
			s.incomplete[bl.ID] = map[*Reg]*Phi{}
		}
		s.incomplete[bl.ID][r] = phi
		v = phi.Dst
	case len(bl.Preds) == 0:
		v = s.undefOf(r)
	case len(bl.Preds) == 1:
		v = s.read(r, bl.Preds[0])
	default:
		phi := s.newPhi(r, bl)
		s.write(r, bl, phi.Dst)
		s.addPhiOperands(r, phi)
		v = phi.Dst
	}
	s.write(r, bl, v)
	return v
}

func (s *ssaBuilder) undefOf(r *Reg) *Value {
	if v := s.undef[r]; v != nil {
		return v
	}
	v := &Value{Reg: r, Kind: DefUndef}
	s.undef[r] = v
	return v
}

func (s *ssaBuilder) newPhi(r *Reg, bl *Block) *Phi {
	phi := &Phi{Block: bl}
	phi.Dst = &Value{Reg: r, Kind: DefPhi, Phi: phi}
	bl.Phis = append(bl.Phis, phi)
	return phi
}

func (s *ssaBuilder) addPhiOperands(r *Reg, phi *Phi) {
	for _, p := range phi.Block.Preds {
		phi.Args = append(phi.Args, s.read(r, p))
	}
}

// fill resolves the uses and records the definitions of one block, in order.
func (s *ssaBuilder) fill(bl *Block) {
	resolve := func(pv **Value) {
		if *pv != nil && (*pv).Version == -1 {
			*pv = s.read((*pv).Reg, bl)
		}
	}
	for _, in := range bl.Instrs {
		forInstrUses(in, resolve)
		for _, d := range in.Defs {
			s.write(d.Reg, bl, d)
		}
	}
	forTermUses(&bl.Term, resolve)
	if c := bl.Term.Call; c != nil {
		// A call's .reg results are defined on the edge into the return point.
		for _, d := range c.Defs {
			s.write(d.Reg, bl, d)
		}
	}
}

// forArgUses calls f on every value an operand reads.
func forArgUses(a *Arg, f func(**Value)) {
	if a.Value != nil && (a.Kind == ArgValue || a.Kind == ArgAddr) {
		f(&a.Value)
	}
	for i := range a.Elems {
		forArgUses(&a.Elems[i], f)
	}
}

// forInstrUses calls f on every value the instruction reads (destinations excluded).
func forInstrUses(in *Instr, f func(**Value)) {
	if in.Guard != nil {
		f(&in.Guard)
	}
	for i := range in.Args {
		forArgUses(&in.Args[i], f)
	}
	for i := range in.Prev {
		f(&in.Prev[i])
	}
}

// forTermUses calls f on every value a terminator reads.
func forTermUses(t *Terminator, f func(**Value)) {
	if t.Cond != nil {
		f(&t.Cond)
	}
	if t.Index != nil {
		f(&t.Index)
	}
	for i := range t.RetVals {
		f(&t.RetVals[i])
	}
	if c := t.Call; c != nil {
		if c.Target != nil {
			f(&c.Target)
		}
		if c.Guard != nil {
			f(&c.Guard)
		}
		for i := range c.Args {
			forArgUses(&c.Args[i], f)
		}
		for i := range c.Results {
			if c.Results[i].Kind != ArgValue {
				forArgUses(&c.Results[i], f)
			}
		}
	}
}

func (s *ssaBuilder) resolve(v *Value) *Value {
	for {
		r, ok := s.replaced[v]
		if !ok {
			return v
		}
		v = r
	}
}

// removeTrivialPhis replaces every phi whose operands are all one value (or itself) by that
// value, until none is left, then rewrites every use.
func (s *ssaBuilder) removeTrivialPhis() {
	for changed := true; changed; {
		changed = false
		for _, bl := range s.fn.Blocks {
			for _, phi := range bl.Phis {
				if _, gone := s.replaced[phi.Dst]; gone {
					continue
				}
				var same *Value
				trivial := true
				for _, a := range phi.Args {
					a = s.resolve(a)
					if a == same || a == phi.Dst {
						continue
					}
					if same != nil {
						trivial = false
						break
					}
					same = a
				}
				if trivial {
					if same == nil {
						same = s.undefOf(phi.Dst.Reg)
					}
					s.replaced[phi.Dst] = same
					changed = true
				}
			}
		}
	}
	rewrite := func(pv **Value) { *pv = s.resolve(*pv) }
	for _, bl := range s.fn.Blocks {
		kept := bl.Phis[:0]
		for _, phi := range bl.Phis {
			if _, gone := s.replaced[phi.Dst]; gone {
				continue
			}
			for i := range phi.Args {
				rewrite(&phi.Args[i])
			}
			kept = append(kept, phi)
		}
		bl.Phis = kept
		for _, in := range bl.Instrs {
			forInstrUses(in, rewrite)
		}
		forTermUses(&bl.Term, rewrite)
	}
}

// number gives every value an ID and a per-register version, in block order.
func (s *ssaBuilder) number() {
	fn := s.fn
	fn.Values = fn.Values[:0]
	versions := make([]int, len(fn.Regs))
	add := func(v *Value) {
		v.ID = len(fn.Values)
		fn.Values = append(fn.Values, v)
		if v.Kind != DefUndef {
			versions[v.Reg.ID]++
			v.Version = versions[v.Reg.ID]
		} else {
			v.Version = 0
		}
	}
	seen := map[*Value]bool{}
	addOnce := func(v *Value) {
		if v != nil && !seen[v] {
			seen[v] = true
			add(v)
		}
	}
	for _, p := range fn.Params {
		if p.Reg != nil {
			if v, ok := s.current[0][p.Reg]; ok && v.Kind == DefParam {
				addOnce(v)
			}
		}
	}
	for _, bl := range fn.Blocks {
		for _, phi := range bl.Phis {
			addOnce(phi.Dst)
		}
		for _, in := range bl.Instrs {
			for _, d := range in.Defs {
				addOnce(d)
			}
		}
		if c := bl.Term.Call; c != nil {
			for _, d := range c.Defs {
				addOnce(d)
			}
		}
	}
	// Undefined values and unused parameters get IDs too, so every referenced value is numbered.
	visit := func(pv **Value) { addOnce(*pv) }
	for _, bl := range fn.Blocks {
		for _, phi := range bl.Phis {
			for i := range phi.Args {
				visit(&phi.Args[i])
			}
		}
		for _, in := range bl.Instrs {
			forInstrUses(in, visit)
		}
		forTermUses(&bl.Term, visit)
	}
}
