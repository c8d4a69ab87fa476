package runtime

// CTA-wide barriers without bookkeeping. A warp whose live lanes are all on one path runs to
// the kernel's ret or to a bar.sync for every thread of the CTA in one call of its code
// (runStraight: the generated code's block chain, or the closures of its blocks). Where every warp of a CTA does so, stopping at the same barrier, the CTA runs
// its warps as CPU implementations of CUDA run a barrier-free region (MCUDA, POCL's
// work-item loops): one loop over the warps per region, split at each barrier, with no
// arrival recorded and nothing to release (CTA.lockstep).

// straightStop says where runConverged left a warp.
type straightStop uint8

const (
	// stopElsewhere: the warp must go on in Warp.run, at the terminator of the block where its
	// code stopped (divergence, a call the code did not make, another kind of barrier), or
	// where it was when its state did not allow the call (not converged, end of time slice).
	stopElsewhere straightStop = iota
	// stopDone: the warp's threads ended at the kernel's ret.
	stopDone
	// stopBarrier: the warp stopped at a bar.sync for every thread of the CTA; its entry
	// continues after it once the barrier opens.
	stopBarrier
)

// Where a kernel's block ends, for runConverged (CTA.ends): at a CTA-wide bar.sync of
// barrier 0..NumBarriers-1 (that number), or as below.
const (
	endsElsewhere   int8 = -1 // Warp.run takes the terminator
	endsAtRet       int8 = -2 // a jump to the kernel's exit
	endsAtBarrierIn int8 = -3 // a CTA-wide bar.sync of the barrier a register names
)

// blockEnds classifies the blocks of kernel fn by their terminators (CTA.ends).
func blockEnds(fn *Func) []int8 {
	ends := make([]int8, len(fn.Blocks))
	for pc := range fn.Blocks {
		t := &fn.Blocks[pc].Term
		ends[pc] = endsElsewhere
		switch {
		case t.Kind == TermJump && t.Succ == fn.Exit:
			ends[pc] = endsAtRet
		case t.Kind == TermBarrier && t.Barrier.Kind == BarSync && t.Barrier.Count < 0 && !t.Barrier.Fixed:
			ends[pc] = endsAtBarrierIn
		case t.Kind == TermBarrier && t.Barrier.Kind == BarSync && t.Barrier.Count < 0 && t.Barrier.Num < NumBarriers:
			ends[pc] = int8(t.Barrier.Num)
		}
	}
	return ends
}

// runConverged runs a warp when all its live lanes are on one path at the start of a block,
// with one call of its kernel's generated code (Func.Run, or runClosures on the closure
// engine) and without run's loop. It reports where the warp stopped; at a barrier, also the barrier's number and
// the block that ends there. The warp runs the same blocks as run would.
func (w *Warp) runConverged() (stop straightStop, id uint64, pc int32) {
	if len(w.stack) != 1 || len(w.calls)|len(w.syncs) != 0 || w.budget <= 1 {
		return stopElsewhere, 0, 0
	}
	e := &w.stack[0]
	fn := w.Fn
	m := w.Active()
	if e.atTerm || uint32(e.pc) >= uint32(fn.Exit) || e.mask != m {
		return stopElsewhere, 0, 0
	}
	if w.frame == nil {
		w.enterKernel()
	}
	if fn.Run == nil {
		pc, w.budget = w.runClosures(e.pc, m, w.budget-1)
	} else if pc, w.budget = fn.Run(w, e.pc, m, -1, w.budget-1); pc == RunDone {
		return stopElsewhere, 0, 0
	}
	// The code may have pushed and popped entries (DivergeInline), moving the stack.
	if len(w.stack) == 1 && len(w.calls) == 0 && w.stack[0].mask == w.Active() {
		e = &w.stack[0]
		switch end := w.CTA.ends[pc]; {
		case end >= 0:
			e.pc = fn.Blocks[pc].Term.Succ
			return stopBarrier, uint64(end), pc
		case end == endsAtRet:
			// The warp's threads end at the kernel's ret: returnFromCall without calls.
			w.stack = w.stack[:0]
			w.Exited |= e.mask
			return stopDone, 0, 0
		case end == endsAtBarrierIn:
			t := &fn.Blocks[pc].Term
			if id := t.Barrier.number(w, firstLane(m)); id < NumBarriers { // else run faults
				e.pc = t.Succ
				return stopBarrier, id, pc
			}
		}
	}
	e = &w.stack[len(w.stack)-1]
	e.pc, e.atTerm = pc, true
	return stopElsewhere, 0, 0
}

// runClosures is Func.Run for a kernel of the closure engine: it runs the blocks from pc for
// the lanes in m, following jumps and the branches all of them take one way, and returns the
// block whose terminator is left to the runtime (any other, or one that goes to the kernel's
// exit, or where the time slice ends) with the budget left. As in generated code, each block
// after the first costs one block of the budget, and the chain stops before the budget does.
func (w *Warp) runClosures(pc int32, m uint32, budget int) (int32, int) {
	fn := w.Fn
	for {
		b := &fn.Blocks[pc]
		for _, in := range b.Code {
			in(w, m)
		}
		next := b.Term.next(w, m)
		if next < 0 || next == fn.Exit || budget <= 1 {
			return pc, budget
		}
		pc, budget = next, budget-1
	}
}

// runStraight runs the warp with runConverged and reports whether it stopped at the kernel's
// ret or at a bar.sync for every thread of the CTA, where it then waits as run would have
// left it. Otherwise the warp waits at the terminator where its code stopped for run, which
// goes on from there at once.
func (w *Warp) runStraight() bool {
	stop, id, pc := w.runConverged()
	if stop == stopBarrier {
		w.arriveStraight(id, pc)
	}
	return stop != stopElsewhere
}

// arriveStraight records the arrival of a warp that runConverged left at barrier id after
// block pc: all its live lanes arrive, and it waits until the barrier opens.
func (w *Warp) arriveStraight(id uint64, pc int32) {
	c := w.CTA
	bar := &c.bars[id]
	c.used |= 1 << id
	bar.arrived += popcount(w.stack[0].mask)
	bar.straight++
	w.waiting, w.straightBar, w.straightPC, w.straightSeq = true, int(id)+1, pc, c.arrivals
	c.arrivals++
}

// lockstep runs passes over the CTA's warps while each runs with runConverged to the same
// CTA-wide bar.sync or to the kernel's ret. Such a pass needs no barrier state: every live
// thread arrived, so the barrier opens at once, and the next pass runs each warp on from it.
// The warps run in the same order and stop at the same places as in CTA.run's general loop,
// so memory, faults and printf output are the same. lockstep needs a CTA with no barrier
// state (c.used == 0). When a warp does otherwise, the warps of the pass before it are left
// waiting as runStraight would have left them, and so is the warp if it stopped at another
// such barrier; one whose code stopped elsewhere goes on in Warp.run (CTA.runWarp). lockstep
// then returns the index of the next warp, for the general loop to finish the pass, and
// whether the warp that ran in Warp.run yielded. It returns len(c.Warps) when every warp has
// finished.
func (c *CTA) lockstep() (next int, yielded bool) {
	for {
		var bar uint64
		arrived := false
		for i, w := range c.Warps {
			if len(w.stack) == 0 {
				continue
			}
			if w.waiting {
				c.arriveBefore(i, bar)
				return i, false
			}
			stop, id, pc := w.runConverged()
			switch {
			case stop == stopDone:
				continue
			case stop == stopBarrier && (!arrived || id == bar):
				bar, arrived = id, true
				w.straightPC = pc
				continue
			}
			c.arriveBefore(i, bar)
			if stop == stopBarrier {
				w.arriveStraight(id, pc)
				return i + 1, false
			}
			return i + 1, c.runWarp(w)
		}
		if !arrived {
			return len(c.Warps), false
		}
	}
}

// arriveBefore records, as runStraight would have, the arrivals of the warps before warp n
// that lockstep's current pass left at barrier bar: those that have not finished.
func (c *CTA) arriveBefore(n int, bar uint64) {
	for _, w := range c.Warps[:n] {
		if len(w.stack) > 0 {
			w.arriveStraight(bar, w.straightPC)
		}
	}
}
