package runtime

import (
	"cmp"
	"math/bits"
	"slices"
)

// Execution statistics. A launch with LaunchConfig.Stats set counts, per CTA worker, how often
// each block runs and with how many lanes; everything that follows from the program's
// structure (instructions per line, branches, barriers, calls, atomics) is derived from those
// counts and the block's static Profile when the launch ends. Only what the structure cannot
// tell is counted as it happens: divergent splits, reconvergences, stack depths and the lanes
// of memory operations (whose guards may exclude lanes). Without Stats the only cost is the
// nil check the trampoline makes per block.

// MemSpace is the state space of a memory access, as statistics report it.
type MemSpace uint8

// The state spaces. MemGeneric is only a MemOp's static space: generic accesses are counted
// in the space their address falls in.
const (
	MemGlobal MemSpace = iota
	MemShared
	MemLocal
	MemParam
	MemConst
	NumMemSpaces
	MemGeneric = NumMemSpaces
)

var memSpaceNames = [...]string{"global", "shared", "local", "param", "const", "generic"}

// String is the space's PTX name without the dot.
func (s MemSpace) String() string { return memSpaceNames[s] }

// MemKind says what a memory operation does.
type MemKind uint8

// The memory operation kinds.
const (
	MemLoad   MemKind = iota // ld, ldu
	MemStore                 // st
	MemAtomic                // atom, red
)

// MemOp is one memory instruction of a block, as statistics see it.
type MemOp struct {
	// Code is the index in Block.Code of the closure that performs the access; the lanes are
	// counted just before it runs, so a guard computed earlier in the block is seen. A load
	// hoisted into Func.Prologue is counted before the closure that follows it in the block,
	// or after the block's code when none does.
	Code  int
	Kind  MemKind
	Space MemSpace
	// Bytes is the size each lane loads or stores (the whole vector; 0 for atomics).
	Bytes int
	// Guard is the guarding predicate, or -1; lanes where it is false (true when GuardNeg)
	// do not access memory.
	Guard    int
	GuardNeg bool
	// Generic says the instruction addresses generic memory. Space is then MemGeneric when
	// each lane's address must be looked at: register Base (read as 64 bits when Wide, else
	// 32) plus Off. A generic address of a variable or a constant is resolved when compiling,
	// and Space is the real one.
	Generic bool
	Base    int
	Wide    bool
	Off     uint64
}

// LineCount is how many PTX instructions of a block are on one source line.
type LineCount struct {
	Line  int32
	Count int32
}

// BlockProfile is the static part of a block's statistics, computed when compiling.
type BlockProfile struct {
	File  string
	Lines []LineCount // per source line, in order; the counts add up to Block.PTXInstrs
	// Branch says the block issues a branch instruction (bra or brx.idx) as its terminator.
	Branch bool
	// Divergence says a split of the block's lanes at its terminator is a divergent branch:
	// set for branch blocks and for the brx.idx a guarded brx.idx leads to.
	Divergence bool
	Atomics    int     // atom and red instructions
	Mem        []MemOp // memory instructions, in Code order
}

// Stats are execution counts of a launch. A launch adds its counts to the Stats it is given
// (maxima take the larger value), so one Stats can total several launches.
type Stats struct {
	// Instructions counts warp instructions issued (a guarded instruction counts whether or
	// not its guard holds); LaneInstructions adds up the lanes active at each issue.
	Instructions     uint64
	LaneInstructions uint64
	// Branches counts executed branch instructions per warp, like nvprof's branch event:
	// bra (conditional or not) and brx.idx. Calls, ret and exit are not branches; calls are
	// counted in Calls. DivergentBranches counts those whose active lanes went more than one
	// way (a guarded brx.idx whose guard and index both split counts twice).
	Branches          uint64
	DivergentBranches uint64
	// Calls counts executed call instructions per warp (a divergent indirect call that
	// runs one callee after the other still counts once).
	Calls uint64
	// Reconvergences counts SIMT stack entries popped because their lanes reached the
	// entry's reconvergence point (the end of a divergent branch, loop or call); entries
	// whose lanes all exited, or that return early from a function, are not counted.
	Reconvergences uint64
	// PredicatedRegions counts the divergent branches whose short region ran predicated
	// (Term.Predicated): no SIMT entry was pushed, and each side ran for its lanes alone. They
	// are counted in DivergentBranches too, and Reconvergences and MaxStackDepth count what
	// the SIMT stack would have done, so the statistics are those of the branch.
	PredicatedRegions uint64
	// MaxStackDepth is the deepest SIMT stack of any warp: the entries of all its call
	// frames together (1 for a kernel that never diverges or calls; a call adds one).
	// MaxCallDepth is the deepest nesting of calls (0 for a kernel that makes none).
	MaxStackDepth int
	MaxCallDepth  int
	// Barriers counts CTA barrier instructions (bar/barrier .sync, .arrive, .red) executed
	// per warp; bar.warp.sync is not one.
	Barriers uint64
	// Atomics counts atom and red warp instructions; AtomicLanes the lane operations they
	// performed (the lanes whose guard held).
	Atomics     uint64
	AtomicLanes uint64
	// Loaded and Stored are the bytes ld/ldu and st moved, per state space, summed over the
	// lanes that performed them (what the threads asked for, not memory transactions).
	// Generic accesses count in the space of each lane's address (global for const data
	// reached through a generic address); GenericLoaded and GenericStored are the part of the
	// totals that came through generic addresses. Atomics are not included.
	Loaded, Stored               [NumMemSpaces]uint64
	GenericLoaded, GenericStored uint64
	// Lines is the per-source-line profile, sorted by file and line.
	Lines []LineStats
}

// LineStats is the execution profile of one PTX source line.
type LineStats struct {
	File             string
	Line             int
	Instructions     uint64 // warp instructions issued
	LaneInstructions uint64 // lanes active at those issues
}

// Efficiency is the warp execution efficiency: the fraction of the 32 lanes active at an
// average issue, LaneInstructions / (32 * Instructions); 0 when nothing ran.
func (s *Stats) Efficiency() float64 { return efficiency(s.LaneInstructions, s.Instructions) }

// Efficiency is the line's warp execution efficiency, as Stats.Efficiency.
func (l *LineStats) Efficiency() float64 { return efficiency(l.LaneInstructions, l.Instructions) }

func efficiency(lanes, instrs uint64) float64 {
	if instrs == 0 {
		return 0
	}
	return float64(lanes) / float64(WarpSize*instrs)
}

// blockCount is what one block's executions add up to.
type blockCount struct {
	exec     uint64 // times a warp ran it
	lanes    uint64 // active lanes summed over those runs
	diverged uint64 // runs whose terminator split the lanes
}

// counter is a CTA worker's running statistics.
type counter struct {
	blocks         [][]blockCount // [Func.Index][block]
	reconvergences uint64
	predicated     uint64
	maxStack       int
	maxCalls       int
	atomicLanes    uint64
	loaded, stored [NumMemSpaces]uint64
	genLoaded      uint64
	genStored      uint64
	// reruns holds, per warp, the SIMT stack indexes of the entries that re-run a call block
	// for one group of a divergent call: that execution is not a new issue. They are consumed
	// top first, so each list is a stack.
	reruns [][]int32
}

func newCounter(mod *Module, warps int) *counter {
	c := &counter{blocks: make([][]blockCount, len(mod.Funcs)), reruns: make([][]int32, warps)}
	for i, f := range mod.Funcs {
		c.blocks[i] = make([]blockCount, len(f.Blocks))
	}
	return c
}

// merge adds o's counts into c.
func (c *counter) merge(o *counter) {
	for i, bs := range o.blocks {
		for j, b := range bs {
			t := &c.blocks[i][j]
			t.exec += b.exec
			t.lanes += b.lanes
			t.diverged += b.diverged
		}
	}
	c.reconvergences += o.reconvergences
	c.predicated += o.predicated
	c.maxStack = max(c.maxStack, o.maxStack)
	c.maxCalls = max(c.maxCalls, o.maxCalls)
	c.atomicLanes += o.atomicLanes
	for s := range c.loaded {
		c.loaded[s] += o.loaded[s]
		c.stored[s] += o.stored[s]
	}
	c.genLoaded += o.genLoaded
	c.genStored += o.genStored
}

// runCounted is the trampoline's block execution with statistics: it counts the block's run
// and the lanes of its memory operations, and runs its code.
func (w *Warp) runCounted(c *counter, b *Block, pc int32, m uint32) {
	if b.Term.Kind == TermCall && c.takeRerun(w) {
		for _, in := range b.Code {
			in(w, m)
		}
		return
	}
	bc := &c.blocks[w.Fn.Index][pc]
	bc.exec++
	bc.lanes += uint64(bits.OnesCount32(m))
	c.maxStack = max(c.maxStack, len(w.stack))
	c.maxCalls = max(c.maxCalls, len(w.calls))
	var ops []MemOp
	if b.Profile != nil {
		ops = b.Profile.Mem
	}
	for i, in := range b.Code {
		for len(ops) > 0 && ops[0].Code == i {
			c.countMem(w, &ops[0], m)
			ops = ops[1:]
		}
		in(w, m)
	}
	for i := range ops {
		c.countMem(w, &ops[i], m) // hoisted loads after the block's last closure
	}
}

// countLeave counts the blocks that lanes m run from block pc to the function's exit along
// blocks without instructions (Func.leaves).
func (c *counter) countLeave(w *Warp, pc int32, m uint32) {
	for m != 0 && pc != w.Fn.Exit {
		bc := &c.blocks[w.Fn.Index][pc]
		bc.exec++
		bc.lanes += uint64(bits.OnesCount32(m))
		t := &w.Fn.Blocks[pc].Term
		switch t.Kind {
		case TermJump:
			pc = t.Succ
		case TermBranch:
			p := t.predicate(w)
			c.countLeave(w, t.Alt, m&^p)
			pc, m = t.Succ, m&p
		default:
			return
		}
	}
}

// countMem counts the lanes of m that perform op, and the bytes they move.
func (c *counter) countMem(w *Warp, op *MemOp, m uint32) {
	if op.Guard >= 0 {
		p := w.P[op.Guard]
		if op.GuardNeg {
			p = ^p
		}
		m &= p
	}
	if op.Kind == MemAtomic {
		c.atomicLanes += uint64(bits.OnesCount32(m))
		return
	}
	total := &c.loaded
	if op.Kind == MemStore {
		total = &c.stored
	}
	n := uint64(op.Bytes * bits.OnesCount32(m))
	if op.Generic {
		if op.Kind == MemStore {
			c.genStored += n
		} else {
			c.genLoaded += n
		}
	}
	if op.Space != MemGeneric {
		total[op.Space] += n
		return
	}
	regs := w.R[op.Base*WarpSize:][:WarpSize]
	for ; m != 0; m &= m - 1 {
		a := regs[bits.TrailingZeros32(m)]
		if !op.Wide {
			a = uint64(uint32(a))
		}
		total[GenericSpace(a+op.Off)] += uint64(op.Bytes)
	}
}

// GenericSpace is the state space a generic address falls in: the shared, local and kernel
// parameter windows, else global memory.
func GenericSpace(addr uint64) MemSpace {
	switch {
	case addr-uint64(SharedWindow) < WindowSize:
		return MemShared
	case addr-uint64(LocalWindow) < WindowSize:
		return MemLocal
	case InParamWindow(addr):
		return MemParam
	}
	return MemGlobal
}

// noteReruns records that the top k SIMT entries of w re-run the current call block, one per
// group of a divergent call.
func (c *counter) noteReruns(w *Warp, k int) {
	n := len(w.stack)
	for i := n - k; i < n; i++ {
		c.reruns[w.ID] = append(c.reruns[w.ID], int32(i))
	}
}

// takeRerun reports whether w's top SIMT entry re-runs a call block, consuming the record.
func (c *counter) takeRerun(w *Warp) bool {
	r := c.reruns[w.ID]
	if k := len(r) - 1; k >= 0 && r[k] == int32(len(w.stack)-1) {
		c.reruns[w.ID] = r[:k]
		return true
	}
	return false
}

// diverged records that block pc of w's current function split its lanes at its terminator.
func (c *counter) diverged(w *Warp, pc int32) { c.blocks[w.Fn.Index][pc].diverged++ }

// add folds a launch's counts c on module mod into s.
func (s *Stats) add(mod *Module, c *counter) {
	type key struct {
		file string
		line int
	}
	index := map[key]int{}
	for i, l := range s.Lines {
		index[key{l.File, l.Line}] = i
	}
	for fi, f := range mod.Funcs {
		for bi := range f.Blocks {
			b := &f.Blocks[bi]
			n := c.blocks[fi][bi]
			if n.exec == 0 {
				continue
			}
			s.Instructions += n.exec * uint64(b.PTXInstrs)
			s.LaneInstructions += n.lanes * uint64(b.PTXInstrs)
			switch b.Term.Kind {
			case TermBarrier:
				s.Barriers += n.exec
			case TermCall:
				s.Calls += n.exec
			}
			p := b.Profile
			if p == nil {
				continue
			}
			if p.Branch {
				s.Branches += n.exec
			}
			if p.Divergence {
				s.DivergentBranches += n.diverged
			}
			s.Atomics += n.exec * uint64(p.Atomics)
			for _, lc := range p.Lines {
				k := key{p.File, int(lc.Line)}
				i, ok := index[k]
				if !ok {
					i = len(s.Lines)
					index[k] = i
					s.Lines = append(s.Lines, LineStats{File: p.File, Line: int(lc.Line)})
				}
				l := &s.Lines[i]
				l.Instructions += n.exec * uint64(lc.Count)
				l.LaneInstructions += n.lanes * uint64(lc.Count)
			}
		}
	}
	s.Reconvergences += c.reconvergences
	s.PredicatedRegions += c.predicated
	s.MaxStackDepth = max(s.MaxStackDepth, c.maxStack)
	s.MaxCallDepth = max(s.MaxCallDepth, c.maxCalls)
	s.AtomicLanes += c.atomicLanes
	for sp := range s.Loaded {
		s.Loaded[sp] += c.loaded[sp]
		s.Stored[sp] += c.stored[sp]
	}
	s.GenericLoaded += c.genLoaded
	s.GenericStored += c.genStored
	slices.SortFunc(s.Lines, func(a, b LineStats) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
}

// CountMem counts a memory instruction of generated code (codegen/gosrc) that runs once for
// the lanes m of the warp, before it runs, as the runtime counts a closure's: op.Guard
// excludes lanes, a generic address is looked at per lane. It does nothing unless the launch
// collects statistics.
func (w *Warp) CountMem(op *MemOp, m uint32) {
	if c := w.CTA.stats; c != nil {
		c.countMem(w, op, m)
	}
}

// CountAccess counts one lane's access of generated code that runs inside a lane loop: n
// bytes loaded or stored (an atomic counts the lane) in space sp, or at the generic address
// addr when sp is MemGeneric; generic says the instruction addresses generic memory. It does
// nothing unless the launch collects statistics.
func (w *Warp) CountAccess(kind MemKind, sp MemSpace, generic bool, addr uint64, n int) {
	c := w.CTA.stats
	if c == nil {
		return
	}
	if kind == MemAtomic {
		c.atomicLanes++
		return
	}
	if sp == MemGeneric {
		sp = GenericSpace(addr)
	}
	total, gen := &c.loaded, &c.genLoaded
	if kind == MemStore {
		total, gen = &c.stored, &c.genStored
	}
	total[sp] += uint64(n)
	if generic {
		*gen += uint64(n)
	}
}
