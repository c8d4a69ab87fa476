package ssa

// SSA construction follows Braun et al., "Simple and Efficient Construction of Static Single
// Assignment Form" (CC 2013): blocks are filled in reverse postorder, a block is sealed once all
// its predecessors are filled, and reads that reach a join create phis on demand. Trivial phis
// are removed afterwards, so the result is pruned and, on reducible graphs, minimal.

type ssaBuilder struct {
	fn  *Function
	mem *memory
	// current holds the value of each register at the end of each block, by blockReg.
	current    map[uint64]*Value
	sealed     []bool
	filled     []bool
	incomplete [][]*Phi // per block: the phis waiting for its predecessors, in creation order
	reachable  []bool   // per block: whether a path from the entry reaches it
	undef      []*Value // per register ID: its undefined value
	// phis lists every phi created; until numbering, a phi's value has its index as ID.
	phis []*Phi
	// replaced maps a phi's index to the value that replaces it, once found trivial.
	replaced []*Value
	// free lists the undefined and parameter values in the order of their first use; listed
	// holds them.
	free   []*Value
	listed map[*Value]bool
}

// blockReg is the key of register r's value at the end of block bl.
func blockReg(r *Reg, bl *Block) uint64 { return uint64(bl.ID)<<32 | uint64(r.ID) }

func buildSSA(fn *Function, mem *memory) {
	n := len(fn.Blocks)
	size := n
	for _, bl := range fn.Blocks {
		size += len(bl.Instrs)
	}
	s := &ssaBuilder{fn: fn, mem: mem, current: make(map[uint64]*Value, size), sealed: make([]bool, n),
		filled: make([]bool, n), incomplete: make([][]*Phi, n), undef: make([]*Value, len(fn.Regs))}
	entry := fn.Blocks[0]
	for _, p := range fn.Params {
		for _, r := range p.Regs {
			s.write(r, entry, s.newValue(r, DefParam))
		}
	}
	for _, p := range fn.Results {
		for _, r := range p.Regs {
			s.write(r, entry, s.newValue(r, DefUndef))
		}
	}
	order, reached := blockOrder(fn)
	s.reachable = make([]bool, n)
	for _, bl := range order[:reached] {
		s.reachable[bl.ID] = true
	}
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

func (s *ssaBuilder) newValue(r *Reg, kind DefKind) *Value {
	v := s.mem.values.alloc()
	*v = Value{Reg: r, Kind: kind}
	return v
}

// blockOrder lists the blocks in reverse postorder from the entry, then the unreachable ones;
// reached is how many are reachable.
func blockOrder(fn *Function) (order []*Block, reached int) {
	seen := make([]bool, len(fn.Blocks))
	post := make([]*Block, 0, len(fn.Blocks))
	type frame struct {
		b    *Block
		next int
	}
	stack := make([]frame, 1, len(fn.Blocks))
	stack[0] = frame{b: fn.Blocks[0]}
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
	order = make([]*Block, 0, len(fn.Blocks))
	for i := len(post) - 1; i >= 0; i-- {
		order = append(order, post[i])
	}
	for _, bl := range fn.Blocks {
		if !seen[bl.ID] {
			order = append(order, bl)
		}
	}
	return order, len(post)
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
	for _, phi := range s.incomplete[bl.ID] {
		s.addPhiOperands(phi.Dst.Reg, phi)
	}
	s.incomplete[bl.ID] = nil
}

func (s *ssaBuilder) write(r *Reg, bl *Block, v *Value) { s.current[blockReg(r, bl)] = v }

func (s *ssaBuilder) read(r *Reg, bl *Block) *Value {
	if v, ok := s.current[blockReg(r, bl)]; ok {
		if v == nil {
			// The read came back to a block it is still looking through: a cycle of
			// single-predecessor blocks, which no path from the entry reaches. (From a
			// reachable block, the walk up single predecessors meets the entry or a join,
			// whose phi it wrote before reading its operands.)
			return s.undefOf(r)
		}
		return v
	}
	var v *Value
	switch {
	case !s.sealed[bl.ID]:
		phi := s.newPhi(r, bl)
		s.incomplete[bl.ID] = append(s.incomplete[bl.ID], phi)
		v = phi.Dst
	case len(bl.Preds) == 0:
		v = s.undefOf(r)
	case len(bl.Preds) == 1:
		if !s.reachable[bl.ID] {
			s.current[blockReg(r, bl)] = nil // in progress
		}
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
	if v := s.undef[r.ID]; v != nil {
		return v
	}
	v := s.newValue(r, DefUndef)
	s.undef[r.ID] = v
	return v
}

func (s *ssaBuilder) newPhi(r *Reg, bl *Block) *Phi {
	phi := s.mem.phis.alloc()
	*phi = Phi{Block: bl, Dst: s.newValue(r, DefPhi)}
	phi.Dst.Phi = phi
	phi.Dst.ID = len(s.phis)
	s.phis = append(s.phis, phi)
	bl.Phis = s.mem.phiL.append(bl.Phis, phi)
	return phi
}

func (s *ssaBuilder) addPhiOperands(r *Reg, phi *Phi) {
	phi.Args = s.mem.vals.slice(len(phi.Block.Preds))
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
		for i := range c.Prev {
			f(&c.Prev[i])
		}
	}
}

// resolve follows the replacements of trivial phis from v.
func (s *ssaBuilder) resolve(v *Value) *Value {
	for v.Kind == DefPhi && s.replaced[v.ID] != nil {
		v = s.replaced[v.ID]
	}
	return v
}

// removeTrivialPhis replaces every phi whose operands are all one value (or itself) by that
// value, until none is left, then rewrites every use, listing the values defined nowhere in
// s.free on the way.
func (s *ssaBuilder) removeTrivialPhis() {
	s.replaced = make([]*Value, len(s.phis))
	for changed := true; changed; {
		changed = false
		for _, bl := range s.fn.Blocks {
			for _, phi := range bl.Phis {
				if s.replaced[phi.Dst.ID] != nil {
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
					s.replaced[phi.Dst.ID] = same
					changed = true
				}
			}
		}
	}
	rewrite := func(pv **Value) {
		v := s.resolve(*pv)
		*pv = v
		if (v.Kind == DefUndef || v.Kind == DefParam) && !s.listed[v] {
			if s.listed == nil {
				s.listed = map[*Value]bool{}
			}
			s.listed[v] = true
			s.free = append(s.free, v)
		}
	}
	for _, bl := range s.fn.Blocks {
		kept := bl.Phis[:0]
		for _, phi := range bl.Phis {
			if s.replaced[phi.Dst.ID] != nil {
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
	n := len(fn.Params) + len(s.free)
	for _, bl := range fn.Blocks {
		n += len(bl.Phis)
		for _, in := range bl.Instrs {
			n += len(in.Defs)
		}
		if c := bl.Term.Call; c != nil {
			n += len(c.Defs)
		}
	}
	fn.Values = make([]*Value, 0, n)
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
	// A value is numbered once fn.Values holds it at its ID; the IDs values arrive with (zero,
	// or a phi's index) cannot fake that.
	addOnce := func(v *Value) {
		if v.ID >= len(fn.Values) || fn.Values[v.ID] != v {
			add(v)
		}
	}
	for _, p := range fn.Params {
		for _, r := range p.Regs {
			if v := s.current[blockReg(r, fn.Blocks[0])]; v != nil && v.Kind == DefParam {
				addOnce(v)
			}
		}
	}
	for _, bl := range fn.Blocks {
		for _, phi := range bl.Phis {
			add(phi.Dst)
		}
		for _, in := range bl.Instrs {
			for _, d := range in.Defs {
				add(d)
			}
		}
		if c := bl.Term.Call; c != nil {
			for _, d := range c.Defs {
				add(d)
			}
		}
	}
	// Undefined values and unused parameters get IDs too, so every referenced value is numbered.
	for _, v := range s.free {
		addOnce(v)
	}
}
