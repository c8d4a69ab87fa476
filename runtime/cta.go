package runtime

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// NumBarriers is the number of named barriers per CTA (bar.sync 0..15).
const NumBarriers = 16

// CTA is one thread block: its warps, shared memory and barriers. Its warps run cooperatively
// on one goroutine: each runs until it waits at a barrier, finishes or has used its time slice.
type CTA struct {
	L *launch
	// ID is the CTA's %ctaid.
	ID      Dim3
	Shared  []byte
	Warps   []*Warp
	threads int
	bars    [NumBarriers]barrier
	used    uint16   // the barriers with arrivals in their current phase
	stats   *counter // nil unless the launch collects statistics
	// pool holds the free frames per Func.Index, shared by the CTA's warps: a warp that
	// finishes hands its frame to the next one, so a kernel without barriers runs every warp
	// in the same register file, which stays in the CPU's cache.
	pool [][]*frame
	// printf is the printf output of the CTA running now, in the order its warps printed.
	printf []byte
	// wins are the generated code's cached global allocations (Window), one per inline
	// access, kept from warp to warp and CTA to CTA of the launch on this worker.
	wins []Window
	// arrivals counts the arrivals at barriers, which orders the waiters a deadlock names.
	arrivals uint64
	// passMisses counts, per warp pass, the passes in a row that found the block's accesses
	// unfit on this worker (Warp.PassOK).
	passMisses []uint8
	// chk is the checks' state in a checked launch (check_cta.go), nil otherwise.
	chk *ctaCheck
	// ends says where each block of the kernel ends, for runConverged (blockEnds).
	ends []int8
}

// barrier is the state of one named barrier.
type barrier struct {
	arrived  int // threads arrived in this phase
	expected int // thread count named by the arrivals, 0 for every live thread
	waiting  []barWaiter
	// straight counts the warps waiting at the barrier that runStraight left at its
	// successor, all their lanes on one path (Warp.straightBar names the barrier): unlike
	// those listed in waiting, they only have to be let run again.
	straight int
	popc     uint32
	and, or  bool
}

// barWaiter is a group of lanes of one warp waiting at a barrier.
type barWaiter struct {
	w    *Warp
	mask uint32
	op   *Barrier
	loc  string
	seq  uint64 // the CTA's arrival count when it arrived
}

// newCTA builds the reusable state of a CTA for a launch: the warps and their local memory.
func newCTA(l *launch) *CTA {
	c := &CTA{L: l, threads: int(l.Block.Count()), wins: make([]Window, l.Mod.NumWindows), passMisses: make([]uint8, l.Mod.NumPasses)}
	c.Shared = alignedBytes(l.Mod.SharedSize + l.DynamicShared)
	c.ends = blockEnds(l.Kernel)
	nw := (c.threads + WarpSize - 1) / WarpSize
	for i := range nw {
		w := &Warp{CTA: c, ID: i, LocalStride: l.localStride}
		w.Local = alignedBytes(l.localStride * WarpSize)
		for lane := range WarpSize {
			t := i*WarpSize + lane
			if t >= c.threads {
				break
			}
			w.Lanes |= 1 << lane
			d := l.Block.at(uint64(t))
			w.Tid[0][lane], w.Tid[1][lane], w.Tid[2][lane] = d.X, d.Y, d.Z
		}
		w.TidLinear = tidLinear(w)
		c.Warps = append(c.Warps, w)
	}
	return c
}

// tidLinear reports whether w is full and its lanes' %tid.x count up from lane 0's in one row.
func tidLinear(w *Warp) bool {
	if w.Lanes != ^uint32(0) {
		return false
	}
	for l := range WarpSize {
		if w.Tid[0][l] != w.Tid[0][0]+uint32(l) || w.Tid[1][l] != w.Tid[1][0] || w.Tid[2][l] != w.Tid[2][0] {
			return false
		}
	}
	return true
}

// run executes the CTA with linear index id to completion.
func (c *CTA) run(id uint64) {
	c.ID = c.L.Grid.at(id)
	clear(c.Shared)
	for b := c.used; b != 0; b &= b - 1 { // what a fault left
		i := bits.TrailingZeros16(b)
		c.bars[i] = barrier{waiting: c.bars[i].waiting[:0]} // keep the lists' memory
	}
	c.used = 0
	kernel, localBase, slice := c.L.Kernel, c.L.Mod.LocalSize, c.L.firstSlice()
	for _, w := range c.Warps {
		if len(w.Local) > 0 {
			clear(w.Local)
		}
		w.start(kernel, localBase, slice)
	}
	if c.chk != nil {
		c.chk.start(id)
	}
	straight := c.stats == nil && c.chk == nil
	for {
		from, yielded := 0, false
		if straight && c.used == 0 {
			// A pass that reaches the last warp with no barrier arrival recorded and no time
			// slice used up leaves every warp finished: nothing is left to release or run.
			if from, yielded = c.lockstep(); from == len(c.Warps) && !yielded && c.used == 0 {
				return
			}
		}
		for _, w := range c.Warps[from:] {
			if w.waiting || len(w.stack) == 0 || straight && w.runStraight() {
				continue
			}
			yielded = c.runWarp(w) || yielded
		}
		if c.release() || yielded {
			continue
		}
		for _, w := range c.Warps {
			if w.waiting {
				c.deadlock()
			}
		}
		return
	}
}

// runWarp runs w on the trampoline (Warp.run) in a pass of CTA.run and reports whether it
// used up its time slice.
func (c *CTA) runWarp(w *Warp) (yielded bool) {
	switch w.run() {
	case warpBlocked:
		w.waiting = true
	case warpYielded:
		return true
	}
	return false
}

// live is the number of threads of the CTA that have not exited.
func (c *CTA) live() int {
	n := 0
	for _, w := range c.Warps {
		n += popcount(w.Active())
	}
	return n
}

// arrive records the lanes in m at barrier b and reports its number and whether the lanes
// must wait.
func (w *Warp) arrive(b *Barrier, m uint32, loc string) (uint64, bool) {
	c := w.CTA
	l := firstLane(m)
	id := b.number(w, l)
	if id >= NumBarriers {
		w.Fault(FaultIllegal, loc, l, fmt.Sprintf("barrier %d out of range 0..%d", id, NumBarriers-1))
	}
	bar := &c.bars[id]
	c.used |= 1 << id
	if b.Count >= 0 {
		n := int(uint32(w.R[b.Count*WarpSize+l]))
		if n <= 0 || n%WarpSize != 0 && n != c.threads {
			w.Fault(FaultIllegal, loc, l, fmt.Sprintf("barrier thread count %d is not a positive multiple of the warp size", n))
		}
		bar.expected = n
	}
	bar.arrived += popcount(m)
	if c.chk != nil {
		n := -1
		if b.Count >= 0 {
			n = bar.expected
		}
		c.chk.arrive(w, b, id, m, loc, n)
	}
	if b.Kind == BarArrive {
		return id, false
	}
	if b.Kind != BarSync {
		p := w.P[b.Pred]
		if b.PredNeg {
			p = ^p
		}
		if len(bar.waiting) == 0 {
			bar.and, bar.or = true, false
		}
		bar.popc += uint32(popcount(p & m))
		bar.and = bar.and && p&m == m
		bar.or = bar.or || p&m != 0
	}
	n := len(bar.waiting)
	if n < cap(bar.waiting) {
		bar.waiting = bar.waiting[:n+1]
	} else {
		bar.waiting = append(bar.waiting, barWaiter{})
	}
	bw := &bar.waiting[n] // field by field, as pushEntry
	bw.w, bw.mask, bw.op, bw.loc, bw.seq = w, m, b, loc, c.arrivals
	c.arrivals++
	return id, true
}

// release opens every barrier whose expected threads have all arrived and reports whether any did.
func (c *CTA) release() bool {
	if c.used == 0 {
		return false
	}
	live := c.live()
	any := false
	for b := c.used; b != 0; b &= b - 1 {
		id := bits.TrailingZeros16(b)
		bar := &c.bars[id]
		if len(bar.waiting) == 0 && bar.straight == 0 {
			continue
		}
		want := live
		if bar.expected > 0 && bar.expected < live {
			want = bar.expected
		}
		if bar.arrived < want {
			continue
		}
		for _, bw := range bar.waiting {
			w, m, op := bw.w, bw.mask, bw.op
			w.waiting = false
			w.unblock(uint64(id))
			switch op.Kind {
			case BarRedPopc:
				d := w.R[op.Dst*WarpSize:][:WarpSize]
				for mm := m; mm != 0; mm &= mm - 1 {
					d[firstLane(mm)] = uint64(bar.popc)
				}
			case BarRedAnd, BarRedOr:
				v := bar.and
				if op.Kind == BarRedOr {
					v = bar.or
				}
				if v {
					w.P[op.Dst] |= m
				} else {
					w.P[op.Dst] &^= m
				}
			}
		}
		if c.chk != nil {
			c.chk.release(c, id, bar)
		}
		if bar.straight > 0 {
			for _, w := range c.Warps {
				if w.straightBar == id+1 {
					w.waiting, w.straightBar = false, 0
				}
			}
		}
		*bar = barrier{waiting: bar.waiting[:0]}
		c.used &^= 1 << id
		any = true
	}
	return any
}

// straightWaiter is the arrival of a warp that waits as runStraight left it.
func (w *Warp) straightWaiter() barWaiter {
	t := &w.Fn.Blocks[w.straightPC].Term
	return barWaiter{w: w, mask: w.stack[0].mask, op: t.Barrier, loc: t.Loc, seq: w.straightSeq}
}

// deadlock reports the CTA's blocked warps as a fault.
func (c *CTA) deadlock() {
	var parts []string
	var first *barWaiter
	for id := range c.bars {
		bar := &c.bars[id]
		if len(bar.waiting) == 0 && bar.straight == 0 {
			continue
		}
		waiters := slices.Clone(bar.waiting)
		for _, w := range c.Warps {
			if w.straightBar == id+1 {
				waiters = append(waiters, w.straightWaiter())
			}
		}
		slices.SortFunc(waiters, func(a, b barWaiter) int { return cmp.Compare(a.seq, b.seq) })
		var ws []string
		for _, bw := range waiters {
			if s := fmt.Sprint(bw.w.ID); !slices.Contains(ws, s) {
				ws = append(ws, s)
			}
		}
		if first == nil {
			first = &waiters[0]
		}
		parts = append(parts, fmt.Sprintf("barrier %d has %d of %d threads (waiting warps %s)", id, bar.arrived, c.live(), strings.Join(ws, ",")))
	}
	if first == nil {
		c.warpSyncDeadlock()
	}
	f := first.w.newFault(FaultDeadlock, first.loc, firstLane(first.mask))
	f.Detail = strings.Join(parts, "; ")
	panic(f)
}

// warpSyncDeadlock reports lanes that wait at a warp-level synchronization for lanes of their
// warp that can never reach one.
func (c *CTA) warpSyncDeadlock() {
	for _, w := range c.Warps {
		for _, s := range w.syncs {
			var arrived uint32
			for _, o := range w.syncs {
				arrived |= o.lanes
			}
			e := &w.stack[len(w.stack)-1]
			f := w.newFault(FaultWarpSync, w.Fn.blockLoc(e.resume), firstLane(s.lanes))
			f.Detail = fmt.Sprintf("%s membermask 0x%08x names lanes 0x%08x that never reach a warp-level synchronization", s.sync.What, s.need, s.need&w.Active()&^arrived)
			panic(f)
		}
	}
	panic("runtime: a CTA's warps wait, but at no barrier or warp-level synchronization")
}
