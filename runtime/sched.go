package runtime

import (
	"fmt"
	"math/bits"
	goruntime "runtime"
)

// Sched is the scheduling model of the lanes of a warp.
type Sched uint8

// The scheduling models.
const (
	// SchedDefault is SchedITS for modules targeting sm_70 and newer (or naming no target),
	// SchedIPDOM for older targets.
	SchedDefault Sched = iota
	// SchedITS is independent thread scheduling (sm_70 and newer): lanes reconverge at immediate
	// post-dominators as usual, but when the running path of a warp makes no progress (it
	// spins on a state that does not change) or waits at a barrier, the warp's other paths
	// run, so lanes of one warp may wait for each other.
	SchedITS
	// SchedIPDOM is the pre-Volta model: the strict reconvergence stack. A path that spins
	// while other lanes of its warp wait for it at a reconvergence point is a SIMT deadlock
	// fault.
	SchedIPDOM
)

func (s Sched) String() string {
	switch s {
	case SchedITS:
		return "its"
	case SchedIPDOM:
		return "ipdom"
	}
	return "default"
}

// ParseSched reads "its", "ipdom" or "default".
func ParseSched(s string) (Sched, error) {
	switch s {
	case "its":
		return SchedITS, nil
	case "ipdom":
		return SchedIPDOM, nil
	case "default", "":
		return SchedDefault, nil
	}
	return 0, fmt.Errorf("unknown scheduling model %q (want its or ipdom)", s)
}

// resolve picks the model for a module: the default follows its .target.
func (s Sched) resolve(mod *Module) Sched {
	if s != SchedDefault {
		return s
	}
	if mod.SM != 0 && mod.SM < 70 {
		return SchedIPDOM
	}
	return SchedITS
}

const (
	// probeBlocks bounds how many blocks past the end of a slice a warp runs looking for a
	// loop header, and then for its return there, to check its progress.
	probeBlocks = 512
	// spinSlice is the time slice of a warp whose last check found it spinning: it lets the
	// warp it may wait for run soon.
	spinSlice = 64
	// ipdomStuckSlices is how many checks in a row may find a path spinning, with lanes of
	// its warp waiting for it and every other warp of its CTA stalled, before ipdom reports a
	// SIMT deadlock. Other CTAs run meanwhile, so a path waiting for one of them has time.
	ipdomStuckSlices = 4096
)

// progressCheck is a warp's state for telling a spinning path from a progressing one: after
// each time slice the running path runs on to a loop header, its state there is hashed, and
// when it comes back to the header with the same state, it made no progress (it spins).
type progressCheck struct {
	phase uint8 // 0: running; 1: looking for a loop header; 2: waiting for the return there
	left  int   // blocks the probe may still run
	pc    int32
	mask  uint32
	hash  uint64
	stuck int // checks in a row that found the path spinning
	// mbarWaited says an mbarrier wait of the warp found its phase incomplete since the probe
	// reached the loop header: the path waits for others even when its registers change, as
	// a polling loop's counter and clock reads do (libcu++'s cuda::barrier).
	mbarWaited bool
}

// endSlice runs when the warp has used its time slice (or, while probing, after each block).
// It checks for cancellation and whether the running path progresses. A spinning path gets a
// short slice; under its another path of the warp takes over, under ipdom one that spins
// long while others of its warp wait for it is a SIMT deadlock. It reports whether the warp
// should yield to the CTA's other warps; false means it runs on, probing.
func (w *Warp) endSlice() bool {
	e := &w.stack[len(w.stack)-1]
	fn := w.Fn
	pg := &w.progress
	w.ran += uint64(w.sliceLen)
	if lim := w.CTA.L.maxBlocks; lim > 0 && w.ran >= lim {
		w.Fault(FaultBudget, fn.blockLoc(e.pc), firstLane(e.mask), fmt.Sprintf("warp %d ran %d blocks, the launch's limit", w.ID, w.ran))
	}
	switch pg.phase {
	case 0:
		w.CTA.L.checkCancel(w, e, fn.Blocks[e.pc].Term.Loc)
		if len(w.CTA.Warps) == 1 {
			if _, _, ok := w.otherPath(); !ok {
				w.setSlice(timeSlice) // nothing could run instead, and nothing waits for it
				return true
			}
		}
		pg.phase, pg.left = 1, probeBlocks
		fallthrough
	case 1:
		if fn.loopHeader(e.pc) {
			pg.phase, pg.pc, pg.mask, pg.hash, pg.mbarWaited = 2, e.pc, e.mask, w.pathHash(e), false
			w.setSlice(1)
			return false
		}
	case 2:
		if e.pc == pg.pc {
			return w.judge(e, e.mask == pg.mask && (pg.mbarWaited || w.pathHash(e) == pg.hash))
		}
	}
	if pg.left--; pg.left > 0 {
		w.setSlice(1)
		return false
	}
	return w.judge(e, false)
}

// judge ends a progress check that found the running path spinning or not.
func (w *Warp) judge(e *simtEntry, spinning bool) bool {
	pg := &w.progress
	pg.phase = 0
	if spinning {
		w.setSlice(spinSlice)
		pg.stuck++
		if w.CTA.L.yieldSpin {
			// In a cooperative launch with more CTAs than processors a CTA may spin until
			// others arrive (grid.sync()): let the other CTAs' goroutines run.
			goruntime.Gosched()
		}
	} else {
		w.setSlice(timeSlice)
		pg.stuck = 0
	}
	if _, _, ok := w.otherPath(); !ok {
		return true
	}
	if w.CTA.L.sched == SchedIPDOM {
		if pg.stuck >= ipdomStuckSlices && w.CTA.othersStalled(w) {
			w.simtDeadlock(e)
		}
		return true
	}
	if spinning && w.CTA.othersStalled(w) {
		w.switchPath()
	}
	return true
}

// othersStalled reports whether every warp of the CTA but w has finished, waits at a barrier
// or was found spinning at its last check. A path spinning while another warp still works
// may wait for that warp (cooperative groups' tiles larger than a warp do), and lanes of its
// own warp that wait for it must not run ahead into a warp-level synchronization.
func (c *CTA) othersStalled(w *Warp) bool {
	for _, o := range c.Warps {
		if o != w && len(o.stack) > 0 && !o.waiting && o.progress.stuck == 0 {
			return false
		}
	}
	return true
}

// setSlice gives the warp a time slice of n blocks, or what is left of the launch's block
// budget when that is less.
func (w *Warp) setSlice(n int) {
	if lim := w.CTA.L.maxBlocks; lim > 0 && lim-w.ran < uint64(n) {
		n = int(lim - w.ran)
	}
	w.budget, w.sliceLen = n, n
}

// pathHash hashes what decides the running path's future: its block, lanes, call depth, and
// the registers and predicates of those lanes.
func (w *Warp) pathHash(e *simtEntry) uint64 {
	const prime = 0x100000001b3
	h := uint64(0xcbf29ce484222325)
	mix := func(v uint64) { h = (h ^ v) * prime }
	mix(uint64(e.pc))
	mix(uint64(e.mask))
	mix(uint64(len(w.stack)))
	mix(uint64(len(w.calls)))
	for s := 0; s+WarpSize <= len(w.R); s += WarpSize {
		for m := e.mask; m != 0; m &= m - 1 {
			mix(w.R[s+bits.TrailingZeros32(m)])
		}
	}
	for _, p := range w.P {
		mix(uint64(p & e.mask))
	}
	return h
}

// otherPath finds a path of the current function's activation other than the running one
// that can run: the lowest stack entry that is a leaf (no entry above waits for it) and not
// waiting at a barrier, or lanes of a waiting entry that no entry above it holds (they wait
// at a reconvergence point for lanes that may be waiting for them). It returns the entry's
// index and, for the second kind, those lanes.
func (w *Warp) otherPath() (int, uint32, bool) {
	base := 0
	if k := len(w.calls); k > 0 {
		base = w.calls[k-1].base
	}
	top := len(w.stack) - 1
	for i := base; i < top; i++ {
		e := &w.stack[i]
		if e.mask == 0 || e.pc < 0 || e.pc == w.Fn.Exit {
			continue
		}
		var above uint32
		leaf := true
		for j := i + 1; j <= top; j++ {
			above |= w.stack[j].mask
			if w.stack[j].reconv == e.pc {
				leaf = false
			}
		}
		if leaf {
			return i, 0, true
		}
		if parked := e.mask &^ above; parked != 0 {
			return i, parked, true
		}
	}
	return 0, 0, false
}

// switchPath makes another path of the warp the running one (under its only) and reports
// whether there was one. A leaf entry moves to the top; parked lanes of a waiting entry leave
// it for a new top entry that continues from where they wait and meets the entry's lanes
// again where the entry itself would (the function's exit for a base entry).
func (w *Warp) switchPath() bool {
	if w.CTA.L.sched != SchedITS {
		return false
	}
	i, parked, ok := w.otherPath()
	if !ok {
		return false
	}
	w.progress.stuck = 0
	if parked == 0 {
		e := w.stack[i]
		copy(w.stack[i:], w.stack[i+1:])
		w.stack[len(w.stack)-1] = e
		return true
	}
	e := &w.stack[i]
	e.mask &^= parked
	reconv := e.reconv
	if reconv < 0 {
		reconv = w.Fn.Exit
	}
	w.pushEntry(e.pc, reconv, parked)
	return true
}

// sameEnd reports whether two entries of one activation of a function whose exit is block
// exit end at the same place: the same reconvergence point, or the function's exit, which a
// base entry (reconv -1) and a path that left it (switchPath) both wait for.
func sameEnd(a, b *simtEntry, exit int32) bool {
	atExit := func(e *simtEntry) bool { return e.reconv < 0 || e.reconv == exit }
	return a.reconv == b.reconv || atExit(a) && atExit(b)
}

// unblock lets the warp's entries waiting at barrier id continue.
func (w *Warp) unblock(id uint64) {
	for i := range w.stack {
		if e := &w.stack[i]; e.pc == blockedPC(id) {
			e.pc = e.resume
		}
	}
}

// simtDeadlock stops the launch: under ipdom, the running path spins without progress while
// lanes of its warp wait for it at a reconvergence point, which they can never leave.
func (w *Warp) simtDeadlock(e *simtEntry) {
	fn := w.Fn
	i, parked, _ := w.otherPath()
	o := w.stack[i]
	waitMask, waitPC, where := parked, o.pc, "at the reconvergence point"
	if parked == 0 {
		waitMask, where = o.mask, "on the other side of a divergent branch, at"
	}
	f := w.newFault(FaultSIMTDeadlock, fn.blockLoc(e.pc), firstLane(e.mask))
	f.Detail = fmt.Sprintf("warp %d: lanes %#08x loop at %s without progress while lanes %#08x wait %s %s; "+
		"under the pre-Volta reconvergence stack (-sched ipdom) they never run (sm_70 and newer schedule them: -sched its)",
		w.ID, e.mask, fn.blockLoc(e.pc), waitMask, where, fn.blockLoc(waitPC))
	panic(f)
}

// blockLoc is the PTX file:line where block pc starts.
func (f *Func) blockLoc(pc int32) string {
	if pc == f.Exit {
		return f.Loc + " (function exit)"
	}
	if b := &f.Blocks[pc]; b.Loc != "" {
		return b.Loc
	}
	return f.Blocks[pc].Term.Loc
}

// syncWaitPC is the pc of a SIMT entry whose lanes wait at a warp-level synchronization.
const syncWaitPC = -1

// syncWait is a group of lanes waiting at a warp-level synchronization for the live lanes of
// need (their membermasks' union).
type syncWait struct {
	lanes, need uint32
	sync        *WarpSync
}

// warpSync is the rendezvous before a warp-level synchronization under its: when the executing
// lanes' membermasks name live lanes of other paths, the running entry waits until those reach
// one too, and other paths run meanwhile.
func (w *Warp) warpSync(ws *WarpSync, m uint32) {
	w.synced &^= m
	exec := m
	if ws.Guard >= 0 {
		g := w.P[ws.Guard]
		if ws.GuardNeg {
			g = ^g
		}
		exec &= g
	}
	var union uint32
	M := w.R[ws.Mask*WarpSize:][:WarpSize]
	for x := exec; x != 0; x &= x - 1 {
		union |= uint32(M[firstLane(x)])
	}
	if union&w.Active()&^m == 0 && len(w.syncs) == 0 {
		return
	}
	e := &w.stack[len(w.stack)-1]
	e.resume, e.pc = e.pc, syncWaitPC
	w.syncs = append(w.syncs, syncWait{lanes: m, need: union, sync: ws})
	w.releaseSyncs()
}

// releaseSyncs lets the waiting groups whose named lanes have all arrived (or exited) go on.
// Lanes of a joint instruction that wait at the same place of the same function activation
// for the same reconvergence point merge into one entry, so they run it together. The release
// may come from lanes running in a callee (one that exits there, say) while the groups wait
// in a caller: each activation's entries merge among themselves, against its own function's
// exit.
func (w *Warp) releaseSyncs() {
	var arrived uint32
	for _, s := range w.syncs {
		arrived |= s.lanes
	}
	var free uint32
	joint := false
	for _, s := range w.syncs {
		if s.need&w.Active()&^arrived == 0 {
			free |= s.lanes
			joint = joint || s.sync.Joint
		}
	}
	if free == 0 {
		return
	}
	if w.CTA.chk != nil {
		w.CTA.chk.warpSynced(w, free)
	}
	kept := w.syncs[:0]
	for _, s := range w.syncs {
		if s.lanes&free == 0 {
			kept = append(kept, s)
		}
	}
	w.syncs = kept
	// act is the activation that stack entry i belongs to (0: the kernel's, k: that of the
	// call w.calls[k-1]), fn its function, and top the entry the activation's lanes merge into.
	act, fn, top := len(w.calls), w.Fn, -1
	for i := len(w.stack) - 1; i >= 0; i-- {
		for act > 0 && i < w.calls[act-1].base {
			act--
			fn, top = w.calls[act].fn, -1
		}
		e := &w.stack[i]
		if e.pc != syncWaitPC || e.mask&free == 0 {
			continue
		}
		e.pc = e.resume
		if !joint {
			continue
		}
		if top < 0 || w.stack[top].pc != e.pc || !sameEnd(&w.stack[top], e, fn.Exit) {
			top = i
			continue
		}
		if e.reconv < 0 && w.stack[top].reconv >= 0 {
			// e is the function's base entry and the other a path that left it (switchPath):
			// the lanes meet again in the base entry, which returns from the function.
			e.mask |= w.stack[top].mask
			w.stack[top].mask = 0
			top = i
			continue
		}
		w.stack[top].mask |= e.mask
		e.mask = 0 // popped when it comes to the top
	}
	if !joint {
		w.synced |= free
	}
}
