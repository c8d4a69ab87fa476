package gosrc

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Register liveness, for per-lane regions (region.go): a lane leaving a region writes back
// only the registers and predicates some later instruction may read, so that values dead
// after the region (a loop body's temporaries) stay in Go locals the compiler may drop.

// slotKey names a register slot (pred false) or a predicate (pred true).
type slotKey struct {
	pred bool
	slot int
}

func (f *fnGen) key(v *ssa.Value) slotKey {
	return slotKey{v.Reg.Type == frontend.Pred, f.Regs[v.Reg.ID]}
}

// liveIns returns, for each SSA block, the values live on entry to it: read in it or after
// it before their definition is reached again. The phis at a block's start define their
// values there; a phi's operand is read at the end of its predecessor (forEachRead).
func (f *fnGen) liveIns() map[*ssa.Block]map[*ssa.Value]bool {
	if f.live != nil {
		return f.live
	}
	def := map[*ssa.Value]*ssa.Block{}
	for _, b := range f.Fn.Blocks {
		for _, p := range b.Phis {
			def[p.Dst] = b
		}
		for _, in := range b.Instrs {
			for _, v := range in.Defs {
				def[v] = b
			}
		}
		if c := b.Term.Call; c != nil {
			for _, v := range c.Defs {
				def[v] = b // written at the end of the block, by the call
			}
		}
	}
	live := map[*ssa.Block]map[*ssa.Value]bool{}
	type item struct {
		v *ssa.Value
		b *ssa.Block
	}
	var work []item
	// liveIn marks v live on entry to b, unless b defines it.
	liveIn := func(v *ssa.Value, b *ssa.Block) {
		if v == nil || def[v] == b {
			return
		}
		if live[b] == nil {
			live[b] = map[*ssa.Value]bool{}
		}
		if !live[b][v] {
			live[b][v] = true
			work = append(work, item{v, b})
		}
	}
	f.forEachRead(func(b *ssa.Block, _ *ssa.Instr, v *ssa.Value) { liveIn(v, b) })
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range it.b.Preds {
			liveIn(it.v, p)
		}
	}
	f.live = live
	return live
}

// neededAt returns the slots whose values a lane that continues at runtime block pc may read,
// or nil, meaning every slot, where pc does not start an SSA block.
func (f *fnGen) neededAt(pc int32) map[slotKey]bool {
	i := slices.Index(f.Start, pc)
	if i < 0 {
		return nil
	}
	b := f.Fn.Blocks[i]
	need := map[slotKey]bool{}
	for v := range f.liveIns()[b] {
		need[f.key(v)] = true
	}
	for _, p := range b.Phis {
		need[f.key(p.Dst)] = true // its operands are in its register at the block's start
	}
	return need
}
