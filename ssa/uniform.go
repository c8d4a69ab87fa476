package ssa

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// uniformity marks the values of fn that are equal in every active lane of a warp and the
// terminators at which a warp's lanes may split. It starts optimistic (everything uniform) and
// propagates divergence to a fixed point:
//   - per-lane sources (%tid, %laneid, loads from memory other than kernel parameters and
//     constants, shuffles, atomics, device-function parameters, call results, undefined values,
//     and the carry flag that addc, subc and madc read) are divergent;
//   - an instruction with a divergent operand, guard or previous value defines divergent values;
//   - a branch on a divergent condition (not .uni) diverges; then every phi between it and its
//     reconvergence block, and in that block, is divergent, and so is every value defined in that
//     region and used outside it (lanes leave a loop in different iterations), where the value
//     a guarded instruction or call keeps counts as a use at it.
func uniformity(fn *Function) {
	for _, v := range fn.Values {
		v.Uniform = v.Kind == DefInstr || v.Kind == DefPhi
	}
	// The uses and the region finder are made when a first terminator turns out divergent.
	var uses *crossUses
	var r *regionFinder
	// applied[b] records that the region of b's divergent terminator has been marked. Whether a
	// value is defined in a region and used outside it does not depend on uniformity, so that
	// needs doing once per terminator.
	applied := make([]bool, len(fn.Blocks))
	for changed := true; changed; {
		changed = false
		mark := func(v *Value) {
			if v != nil && v.Uniform {
				v.Uniform = false
				changed = true
			}
		}
		for _, b := range fn.Blocks {
			for _, phi := range b.Phis {
				for _, a := range phi.Args {
					if !a.Uniform {
						mark(phi.Dst)
					}
				}
			}
			for _, in := range b.Instrs {
				if !instrUniform(fn, in) {
					for _, d := range in.Defs {
						mark(d)
					}
				}
			}
			t := &b.Term
			div := termDivergent(t)
			if div && !t.Divergent {
				t.Divergent = true
				changed = true
			}
			if !div || t.Reconv == nil || applied[b.ID] {
				continue
			}
			applied[b.ID] = true
			if r == nil {
				uses, r = newCrossUses(fn), newRegionFinder(fn)
			}
			region, inRegion := r.region(b, t.Reconv)
			for _, rb := range region {
				for _, phi := range rb.Phis {
					mark(phi.Dst)
				}
			}
			for _, phi := range t.Reconv.Phis {
				mark(phi.Dst)
			}
			usedOutside := func(v *Value) bool {
				for _, ub := range uses.of(v) {
					if !inRegion(ub) {
						return true
					}
				}
				return false
			}
			for _, rb := range region {
				for _, in := range rb.Instrs {
					for _, d := range in.Defs {
						if usedOutside(d) {
							mark(d)
						}
					}
				}
				for _, phi := range rb.Phis {
					if usedOutside(phi.Dst) {
						mark(phi.Dst)
					}
				}
			}
		}
	}
}

// crossUses lists, per value, the blocks other than its own that use it (a block once per
// use); a phi operand is used in the phi's block. Only the values of instructions and phis, the
// ones that start out uniform, are listed.
type crossUses struct {
	start  []int32 // the blocks using value i are blocks[start[i]:start[i+1]]
	blocks []int32
}

func newCrossUses(fn *Function) *crossUses {
	// home[i] is 1 + the ID of the block defining value i, if an instruction or phi does.
	home := make([]int32, len(fn.Values))
	for _, b := range fn.Blocks {
		for _, phi := range b.Phis {
			home[phi.Dst.ID] = int32(b.ID) + 1
		}
		for _, in := range b.Instrs {
			for _, d := range in.Defs {
				home[d.ID] = int32(b.ID) + 1
			}
		}
	}
	type use struct{ value, block int32 }
	var uses []use
	ForEachUse(fn, func(b *Block, v *Value) {
		if h := home[v.ID]; h != 0 && h != int32(b.ID)+1 {
			uses = append(uses, use{int32(v.ID), int32(b.ID)})
		}
	})
	u := &crossUses{start: make([]int32, len(fn.Values)+1), blocks: make([]int32, len(uses))}
	for _, x := range uses {
		u.start[x.value+1]++
	}
	for i := 1; i < len(u.start); i++ {
		u.start[i] += u.start[i-1]
	}
	next := append([]int32(nil), u.start[:len(fn.Values)]...)
	for _, x := range uses {
		u.blocks[next[x.value]] = x.block
		next[x.value]++
	}
	return u
}

// of returns the IDs of the blocks other than its own that use v.
func (u *crossUses) of(v *Value) []int32 { return u.blocks[u.start[v.ID]:u.start[v.ID+1]] }

// ForEachUse calls f on every use of a value in fn (phi operands, instruction operands, guards
// and previous values, terminator operands), with the block using it.
func ForEachUse(fn *Function, f func(b *Block, v *Value)) {
	for _, b := range fn.Blocks {
		use := func(pv **Value) { f(b, *pv) }
		for _, phi := range b.Phis {
			for _, a := range phi.Args {
				f(b, a)
			}
		}
		for _, in := range b.Instrs {
			forInstrUses(in, use)
		}
		forTermUses(&b.Term, use)
	}
}

// regionFinder finds divergence regions, reusing its memory from one region to the next.
type regionFinder struct {
	stamp []int32 // stamp[b] == mark: block b is in the region being found (or is its end)
	mark  int32
	out   []*Block
	stack []*Block
}

func newRegionFinder(fn *Function) *regionFinder {
	n := len(fn.Blocks)
	return &regionFinder{stamp: make([]int32, n+1), out: make([]*Block, 0, n), stack: make([]*Block, 0, n)}
}

// region lists the blocks reachable from b's successors without passing reconv, and returns a
// test for membership by block ID. Both are valid until the next call.
func (r *regionFinder) region(b, reconv *Block) ([]*Block, func(id int32) bool) {
	r.mark++
	mark := r.mark
	r.stamp[reconv.ID] = mark
	r.out = r.out[:0]
	r.stack = append(r.stack[:0], b.Succs...)
	for len(r.stack) > 0 {
		x := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		if r.stamp[x.ID] == mark || x.Term.Kind == TermNone {
			continue
		}
		r.stamp[x.ID] = mark
		r.out = append(r.out, x)
		r.stack = append(r.stack, x.Succs...)
	}
	return r.out, func(id int32) bool { return r.stamp[id] == mark && int(id) != reconv.ID }
}

// termDivergent reports whether lanes may split at the terminator given current uniformity.
func termDivergent(t *Terminator) bool {
	if t.Uni || !mayDiverge(t) {
		return false
	}
	switch t.Kind {
	case TermBranch:
		return !t.Cond.Uniform
	case TermBrx:
		return !t.Index.Uniform
	case TermCall:
		c := t.Call
		return (c.Guard != nil && !c.Guard.Uniform) || (c.Target != nil && !c.Target.Uniform)
	}
	return false
}

// instrUniform reports whether an instruction computes the same results in every lane.
func instrUniform(fn *Function, in *Instr) bool {
	if in.Guard != nil && !in.Guard.Uniform {
		return false
	}
	for _, v := range in.Prev {
		if !v.Uniform {
			return false
		}
	}
	switch in.Op {
	case frontend.OpActivemask:
		return true // one result for the whole warp
	case frontend.OpVote, frontend.OpRedux:
		// One result per group of lanes that pass the same membermask: for the whole warp
		// when the mask (the last operand) is the same in every lane, or when there is none
		// (vote without .sync).
		if in.Op == frontend.OpVote && !modsHave(in.Mods, frontend.ModSync) {
			return true
		}
		return len(in.Args) > 0 && argUniform(&in.Args[len(in.Args)-1])
	case frontend.OpLd, frontend.OpLdu:
		if !uniformLoad(fn, in) {
			return false
		}
	case frontend.OpAtom, frontend.OpShfl, frontend.OpMatch, frontend.OpTex, frontend.OpTld4, frontend.OpSuld,
		frontend.OpAlloca, frontend.OpStacksave, frontend.OpMbarrier, frontend.OpElect,
		frontend.OpLdmatrix, frontend.OpMma, frontend.OpWmma:
		// (ldmatrix and mma give each lane its own piece of a matrix, whatever their operands.)
		return false
	case frontend.OpAddc, frontend.OpSubc, frontend.OpMadc:
		// They read the carry flag CC.CF, a per-lane register the IR does not track: the
		// carry-out of a lane's previous add.cc, sub.cc or mad.cc, which differs between
		// lanes even when the instructions' operands do not (add.cc of per-lane values, then
		// addc.u32 d, 0, 0).
		return false
	}
	for i := range in.Args {
		if !argUniform(&in.Args[i]) {
			return false
		}
	}
	return true
}

// uniformLoad reports whether a load reads memory every lane sees the same: a kernel's own
// parameters, or constant memory.
func uniformLoad(fn *Function, in *Instr) bool {
	switch in.Space() {
	case frontend.SpaceConst:
		return true
	case frontend.SpaceParam:
		if fn.Kind != frontend.Entry || len(in.Args) == 0 {
			return false
		}
		v := in.Args[0].Var
		return v != nil && v.Func == fn && isParamVar(fn, v)
	}
	return false
}

func isParamVar(fn *Function, v *Variable) bool {
	for _, p := range fn.Params {
		if p.Var == v {
			return true
		}
	}
	return false
}

func argUniform(a *Arg) bool {
	switch a.Kind {
	case ArgValue, ArgAddr:
		if a.Value != nil && !a.Value.Uniform {
			return false
		}
	case ArgSpecial:
		return uniformSpecial(a.Name)
	}
	for i := range a.Elems {
		if !argUniform(&a.Elems[i]) {
			return false
		}
	}
	return true
}

// uniformSpecial reports whether a special register reads the same in every lane of a warp.
func uniformSpecial(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch base {
	case "%ntid", "%ctaid", "%nctaid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
		"%dynamic_smem_size", "%total_smem_size", "%clusterid", "%nclusterid", "%cluster_ctaid",
		"%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster":
		return true
	}
	return false
}

// Space returns the state space an instruction's modifiers name, or SpaceNone.
func (in *Instr) Space() frontend.Space {
	for _, m := range in.Mods {
		if s, ok := m.Space(); ok {
			return s
		}
	}
	return frontend.SpaceNone
}
