package runtime

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"
)

// runStatus says why a warp stopped running.
type runStatus uint8

const (
	warpDone    runStatus = iota // every lane has finished
	warpBlocked                  // waiting at a barrier
	warpYielded                  // used its time slice; it runs again after the CTA's other warps
)

// timeSlice is how many blocks a warp runs before it looks at the cancel flag and lets the
// other warps of its CTA run. On a GPU all warps of a block run concurrently, so one warp may
// wait for another through memory (cooperative groups' tiles larger than a warp do); the slice
// guarantees that the other warp progresses. It is counted in blocks, so one worker stays
// deterministic.
const timeSlice = 4096

// start prepares the warp to run fn from its first block with every existing lane active.
// localBase is the module's .local size and slice the first time slice (CTA.run works both
// out once for all the CTA's warps).
func (w *Warp) start(fn *Func, localBase, slice int) {
	w.stack = w.stack[:0]
	w.calls = w.calls[:0]
	w.inlineCalls = 0 // a fault may have ended a launch inside calls
	w.Exited = 0
	w.LocalBase = localBase
	w.waiting, w.straightBar = false, 0
	w.ran = 0
	w.budget, w.sliceLen = slice, slice
	w.progress = progressCheck{}
	if f := w.frame; f != nil {
		if f.fn == fn {
			resetFrame(f) // the kernel frame the warp kept from its previous CTA
		} else {
			w.releaseFrame(f) // a callee's, after a fault ended the launch inside a call
			w.frame = nil
		}
	}
	w.Fn = fn
	w.pushEntry(0, -1, w.Lanes)
}

// enterKernel gives a warp that has not run yet its kernel frame, running the kernel's
// Prologue the first time the frame is used in this launch.
func (w *Warp) enterKernel() {
	f := w.acquireFrame(w.Fn)
	w.enter(f)
	if !f.ready {
		for _, in := range w.Fn.Prologue {
			in(w, ^uint32(0))
		}
		f.ready = true
	}
}

// run executes the warp until all its lanes finish, it waits at a barrier or it has used its
// time slice. This is the trampoline: blocks return control here, so the Go stack never grows with the PTX program.
func (w *Warp) run() runStatus {
	if w.frame == nil {
		w.enterKernel()
	}
	for {
		n := len(w.stack)
		if n == 0 {
			return warpDone // the warp keeps its kernel frame for its next CTA (start)
		}
		e := &w.stack[n-1]
		if e.mask == 0 || (e.reconv >= 0 && e.pc == e.reconv) {
			if e.mask != 0 && len(w.calls) == 0 && w.Fn.leaves(e.pc) {
				w.leave(e.pc, e.mask) // nothing left to wait for at this reconvergence point
				continue
			}
			if st := w.CTA.stats; st != nil && e.mask != 0 {
				st.reconvergences++
			}
			w.popEntry()
			continue
		}
		fn := w.Fn
		if uint32(e.pc) >= uint32(fn.Exit) {
			if e.pc < 0 { // waiting at a barrier
				if !w.switchPath() {
					return warpBlocked
				}
				continue
			}
			switch {
			case e.reconv < 0:
				w.returnFromCall()
			case len(w.calls) == 0:
				w.exitLanes(e.mask) // a kernel's threads end at its ret without waiting
			default:
				w.popEntry() // lanes that returned early wait for the rest of the call
			}
			continue
		}
		b := &fn.Blocks[e.pc]
		m := e.mask
		if e.atTerm {
			e.atTerm = false // the code ran in generated code's CallInline: on to the terminator
		} else {
			if w.budget--; w.budget <= 0 && w.endSlice() {
				return warpYielded
			}
			if st := w.CTA.stats; st != nil {
				w.runCounted(st, b, e.pc, m)
			} else if fn.Run != nil {
				pc, budget := fn.Run(w, e.pc, m, e.reconv, w.budget)
				w.budget = budget
				if pc == RunDone {
					continue
				}
				// A call or a divergent branch the code ran (CallInline, DivergeInline) may have
				// moved the stack, and left fewer lanes on this entry.
				e = &w.stack[len(w.stack)-1]
				e.pc = pc
				b = &fn.Blocks[pc]
				m = e.mask
			} else {
				for _, in := range b.Code {
					in(w, m)
				}
			}
		}
		t := &b.Term
		switch t.Kind {
		case TermJump:
			e.pc = t.Succ
		case TermBranch:
			p := t.predicate(w)
			taken, other := m&p, m&^p
			switch {
			case other == 0:
				e.pc = t.Succ
			case taken == 0:
				e.pc = t.Alt
			default:
				if st := w.CTA.stats; st != nil {
					st.diverged(w, e.pc)
				}
				if t.Predicated && w.runPredicated(e, t, taken, other) {
					break
				}
				w.diverge(t.Reconv, []target{{t.Alt, other}, {t.Succ, taken}})
			}
		case TermBrx:
			w.brx(t, m)
		case TermCall:
			w.call(t, m)
		case TermExit:
			w.exitLanes(m)
		case TermTrap:
			w.Fault(FaultTrap, t.Loc, firstLane(m), "")
		case TermWarpSync:
			e.pc = t.Succ
			if w.CTA.L.sched == SchedITS {
				w.warpSync(t.WarpSync, m)
			}
		case TermBarrier:
			e.pc = t.Succ
			if id, wait := w.arrive(t.Barrier, m, t.Loc); wait {
				e.resume, e.pc = e.pc, blockedPC(id)
			}
		default:
			panic(fmt.Sprintf("runtime: block %d of %s has no terminator", e.pc, fn.Name))
		}
	}
}

// runPredicated runs the short region of the divergent branch t (Term.Predicated) that the
// top entry e's lanes split at, taken going to Succ and other to Alt: each side's blocks for
// its lanes, the taken side first as the SIMT stack would (diverge runs its last target
// first), then e goes on at the reconvergence point with all its lanes. No entry is pushed or
// popped; each block still costs one block of the time slice. Statistics count what the
// stack would have done: the blocks with their lanes, the entries that would have reached the
// reconvergence point, the stack depth while the sides ran. It reports false, having done
// nothing, where the stack must take the branch: the time slice would end inside the region,
// or some lanes of a kernel's frame would leave at once (diverge's early exit).
func (w *Warp) runPredicated(e *simtEntry, t *Term, taken, other uint32) bool {
	fn := w.Fn
	reconv := t.Reconv
	if w.CTA.L.noPred || len(w.calls) == 0 && (fn.leaves(t.Succ) || fn.leaves(t.Alt) || fn.leaves(reconv)) {
		return false
	}
	var sides [2][MaxPredicatedBlocks]int32
	var lens [2]int
	for i, pc := range [2]int32{t.Succ, t.Alt} {
		for pc != reconv {
			if lens[i] == MaxPredicatedBlocks {
				return false
			}
			sides[i][lens[i]] = pc
			lens[i]++
			pc = fn.Blocks[pc].Term.Succ
		}
	}
	n := lens[0] + lens[1]
	if w.budget <= n+1 {
		return false
	}
	w.budget -= n
	st := w.CTA.stats
	if st == nil {
		for i, m := range [2]uint32{taken, other} {
			for _, pc := range sides[i][:lens[i]] {
				for _, in := range fn.Blocks[pc].Code {
					in(w, m)
				}
			}
		}
		e.pc = reconv
		return true
	}
	// The entries diverge would push: one per side with blocks; it replaces e when e ends at
	// the same point, and e then pops itself there, one reconvergence of the k.
	k := 0
	for _, l := range lens {
		if l > 0 {
			k++
		}
	}
	depth, pops := len(w.stack)+k, uint64(k)
	if e.reconv == reconv {
		depth, pops = depth-1, pops-1
	}
	for i, m := range [2]uint32{taken, other} {
		if lens[i] == 0 {
			continue
		}
		st.maxStack = max(st.maxStack, depth)
		for _, pc := range sides[i][:lens[i]] {
			w.runCounted(st, &fn.Blocks[pc], pc, m)
		}
		depth--
	}
	// Counted once the sides ran: a fault in a side ends the launch before its entry would
	// have reached the reconvergence point.
	st.reconvergences += pops
	st.predicated++
	e.pc = reconv
	return true
}

// MaxPredicatedBlocks bounds the blocks of one side of a predicated region (Term.Predicated):
// its at most 7 instructions fill at most 7 blocks.
const MaxPredicatedBlocks = 8

// target is one group of lanes going to one block.
type target struct {
	pc   int32
	mask uint32
}

// diverge splits the top entry's lanes among targets that meet again at reconv. The top entry
// waits at reconv with all its lanes, unless it already waits for the same point, in which
// case the new entries replace it. Targets equal to reconv need no entry: their lanes are
// already where the others will arrive. The last target runs first. In the kernel's own
// frame, lanes sent where only the end of the thread is left exit at once, as ptxas's
// predicated EXIT does, so they hold up no barrier while the others run.
func (w *Warp) diverge(reconv int32, targets []target) {
	e := &w.stack[len(w.stack)-1]
	if e.reconv == reconv {
		w.stack = w.stack[:len(w.stack)-1]
	} else {
		e.pc = reconv
	}
	kernel := len(w.calls) == 0
	n := len(w.stack)
	for _, t := range targets {
		if t.mask != 0 && (t.pc != reconv || kernel && w.Fn.leaves(t.pc)) {
			w.pushEntry(t.pc, reconv, t.mask)
		}
	}
	if !kernel {
		return
	}
	for i := n; i < len(w.stack); i++ {
		if t := w.stack[i]; w.Fn.leaves(t.pc) {
			w.leave(t.pc, t.mask)
		}
	}
}

// leave ends the threads in m of a kernel, which are at block pc with only the end of the
// thread left: they exit now instead of waiting for other lanes at a reconvergence point.
// Statistics count the blocks they would have run on the way out.
func (w *Warp) leave(pc int32, m uint32) {
	if st := w.CTA.stats; st != nil {
		st.countLeave(w, pc, m)
	}
	w.exitLanes(m)
}

// popEntry pops the top SIMT entry. Popping a callee's base entry (all its lanes exited)
// unwinds the call without copying results.
func (w *Warp) popEntry() {
	n := len(w.stack) - 1
	w.stack = w.stack[:n]
	if k := len(w.calls) - 1; k >= 0 && w.calls[k].base == n {
		w.leaveCall(false, 0)
	}
}

// returnFromCall finishes the current activation: a kernel's threads end; a device function
// returns its results to the caller's live lanes.
func (w *Warp) returnFromCall() {
	n := len(w.stack) - 1
	mask := w.stack[n].mask
	w.stack = w.stack[:n]
	if len(w.calls) == 0 {
		w.Exited |= mask
		return
	}
	w.leaveCall(true, w.calls[len(w.calls)-1].mask&^w.Exited)
}

// leaveCall pops the call-return stack, copying results for the lanes in mask when copy is set.
func (w *Warp) leaveCall(copyResults bool, mask uint32) {
	k := len(w.calls) - 1
	rec := &w.calls[k] // valid until the next pushCall
	w.calls = w.calls[:k]
	callee := w.frame
	if copyResults {
		dsts := rec.site.Results
		srcs := callee.fn.Results[:len(dsts)]
		for i := range dsts {
			copySlot(rec.frame, &dsts[i], callee, &srcs[i], mask)
		}
	}
	w.releaseFrame(callee)
	w.enter(rec.frame)
	w.LocalBase = rec.localBase
}

// copySlot copies one argument or result from slot s of frame from to slot d of frame to for
// the lanes in mask; a predicate is copied as those lanes' bits of its mask. A .param slot is
// written in full, zeroed past a shorter source, so the callee's parameters need no cleared
// area (Func.ZeroParams).
func copySlot(to *frame, d *Slot, from *frame, s *Slot, mask uint32) {
	switch {
	case s.Pred:
		to.p[d.Reg] = to.p[d.Reg]&^mask | from.p[s.Reg]&mask
	case s.Reg >= 0 && d.Reg >= 0:
		dst, src := to.r[d.Reg*WarpSize:][:WarpSize], from.r[s.Reg*WarpSize:][:WarpSize]
		if mask == 1<<WarpSize-1 {
			copy(dst, src)
			return
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (WarpSize - 1)
			dst[l] = src[l]
		}
	case s.Reg >= 0:
		src, n := from.r[s.Reg*WarpSize:][:WarpSize], min(d.Size, 8)
		dst, stride := to.param[d.ParamOff:], to.fn.ParamSize
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			putParam(dst[l*stride:][:n], src[l])
			clear(dst[l*stride+n:][:d.Size-n])
		}
	case d.Reg >= 0:
		dst, n := to.r[d.Reg*WarpSize:][:WarpSize], min(s.Size, 8)
		src, stride := from.param[s.ParamOff:], from.fn.ParamSize
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (WarpSize - 1)
			dst[l] = ParamValue(src[l*stride:][:n])
		}
	default:
		// The strides and offsets are read once: this copy is a large part of a call.
		dst, ds := to.param[d.ParamOff:], to.fn.ParamSize
		src, ss := from.param[s.ParamOff:], from.fn.ParamSize
		switch n, al := min(s.Size, d.Size), d.ParamOff|s.ParamOff|ds|ss; {
		case n == d.Size && n == 4 && al&3 == 0:
			copyParamWords[uint32](dst, ds, src, ss, mask)
		case n == d.Size && n == 8 && al&7 == 0:
			copyParamWords[uint64](dst, ds, src, ss, mask)
		default:
			for m := mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				copy(dst[l*ds:][:n], src[l*ss:][:n])
				clear(dst[l*ds+n:][:d.Size-n])
			}
		}
	}
}

// copyParamWords copies, for each lane l of mask, the aligned word of type T at dst[l*ds:]
// from src[l*ss:]. The layout keeps both words inside their lanes' areas, so no bounds test
// is needed: this copy is a large part of a call.
func copyParamWords[T uint32 | uint64](dst []byte, ds int, src []byte, ss int, mask uint32) {
	dp, sp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		*(*T)(unsafe.Add(dp, l*ds)) = *(*T)(unsafe.Add(sp, l*ss))
	}
}

// putParam stores the len(b) low bytes of v into b, little-endian.
func putParam(b []byte, v uint64) {
	switch len(b) {
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
	}
}

// ParamValue loads the little-endian value of the (at most 8) bytes b, zero-extended: a .param
// slot's value, for the runtime's calls and the engines' per-lane calls.
func ParamValue(b []byte) uint64 {
	switch len(b) {
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	var v uint64
	for i := range b {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// brx runs brx.idx: each lane goes to Table[index]; one entry per distinct target.
func (w *Warp) brx(t *Term, m uint32) {
	idx := w.R[t.Index*WarpSize:][:WarpSize]
	var groups [WarpSize]target
	ng := 0
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm)
		i := uint32(idx[l])
		if int(i) >= len(t.Table) {
			w.Fault(FaultBrxRange, t.Loc, l, fmt.Sprintf("index %d, %d targets", i, len(t.Table)))
		}
		pc := t.Table[i]
		g := 0
		for g < ng && groups[g].pc != pc {
			g++
		}
		if g == ng {
			groups[g] = target{pc: pc}
			ng++
		}
		groups[g].mask |= 1 << l
	}
	if ng == 1 {
		w.stack[len(w.stack)-1].pc = groups[0].pc
		return
	}
	if st := w.CTA.stats; st != nil {
		st.diverged(w, w.stack[len(w.stack)-1].pc)
	}
	// Reverse so the group of the lowest lane runs first.
	for i, j := 0, ng-1; i < j; i, j = i+1, j-1 {
		groups[i], groups[j] = groups[j], groups[i]
	}
	w.diverge(t.Reconv, groups[:ng])
}

// call runs a call terminator: lanes whose guard is false skip it; the others are grouped by
// callee, and when more than one group remains the call block runs again for each group.
func (w *Warp) call(t *Term, m uint32) {
	cs := t.Call
	e := &w.stack[len(w.stack)-1]
	callers := m
	if cs.Guard >= 0 {
		g := w.P[cs.Guard]
		if cs.GuardNeg {
			g = ^g
		}
		callers &= g
	}
	if callers == 0 {
		e.pc = t.Succ
		return
	}
	self := e.pc
	if cs.Direct != nil {
		if cs.Direct.Builtin != BuiltinNone {
			w.callBuiltin(t, cs.Direct, callers)
			e.pc = t.Succ
			return
		}
		if callers != m {
			w.diverge(t.Succ, []target{{self, callers}})
			if st := w.CTA.stats; st != nil {
				st.noteReruns(w, 1)
			}
			return
		}
		if !w.callPerLane(t, cs.Direct, m) {
			w.enterCall(t, cs.Direct, m)
		}
		return
	}
	var groups [WarpSize]struct {
		fn   *Func
		mask uint32
	}
	ng := 0
	addr := w.R[cs.Target*WarpSize:][:WarpSize]
	for mm := callers; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm)
		fn := w.resolveCallee(t, addr[l], l)
		g := 0
		for g < ng && groups[g].fn != fn {
			g++
		}
		if g == ng {
			groups[g].fn = fn
			groups[g].mask = 0
			ng++
		}
		groups[g].mask |= 1 << l
	}
	if ng == 1 && callers == m {
		if !w.callPerLane(t, groups[0].fn, m) {
			w.enterCall(t, groups[0].fn, m)
		}
		return
	}
	var targets [WarpSize]target
	for g := range ng {
		targets[ng-1-g] = target{self, groups[g].mask}
	}
	w.diverge(t.Succ, targets[:ng])
	if st := w.CTA.stats; st != nil {
		st.noteReruns(w, ng)
	}
}

// resolveCallee turns a lane's function address into a function of the module, checking it
// against the call site's target set or prototype.
func (w *Warp) resolveCallee(t *Term, addr uint64, lane int) *Func {
	cs := t.Call
	funcs := w.CTA.L.Mod.Funcs
	off := addr - uint64(FuncWindow)
	if addr < uint64(FuncWindow) || off%FuncAlign != 0 || off/FuncAlign >= uint64(len(funcs)) {
		w.addrFault(FaultCallTarget, t.Loc, lane, "", addr, "not a function address")
	}
	fn := funcs[off/FuncAlign]
	if fn.Kernel {
		w.addrFault(FaultCallTarget, t.Loc, lane, "", addr, fmt.Sprintf("%s is a kernel", fn.Name))
	}
	if len(cs.Allowed) > 0 {
		for _, a := range cs.Allowed {
			if a == fn {
				return fn
			}
		}
		w.addrFault(FaultCallTarget, t.Loc, lane, "", addr, fmt.Sprintf("%s is not in the call site's target list", fn.Name))
	}
	if cs.Proto != "" && fn.Sig != cs.Proto {
		w.addrFault(FaultCallSignature, t.Loc, lane, "", addr, fmt.Sprintf("%s has signature %s, the prototype is %s", fn.Name, fn.Sig, cs.Proto))
	}
	return fn
}

// CallInline runs, from generated code's block chain (Func.Run of the caller), the call that
// ends block pc (terminator t) for the lanes m, with the callee's own Run, instead of handing
// the call to the runtime's loop: a recursive kernel's calls then cost a Go call. It keeps the
// runtime's state exactly as the loop would: the same call-return record and SIMT entries,
// and the same budget of blocks. It returns the call's successor and the budget left when
// the callee returned with every lane of m and the caller may go on there (not its stop, the
// running entry's reconvergence point, nor the time slice's end); RunDone when it stopped
// elsewhere, having set the SIMT entries for the runtime's loop; and pc itself, with nothing
// done, for a call it leaves to the runtime (indirect, guarded, to a builtin, with one block
// of budget left, or maxInlineCalls deep in such calls, which bounds the Go stack whatever the
// PTX recursion's depth: the runtime's loop then makes the call, from the bottom of the stack).
func (w *Warp) CallInline(pc int32, t *Term, m uint32, stop int32, budget int) (int32, int) {
	cs := t.Call
	callee := cs.Direct
	if budget <= 1 || callee == nil || callee.Run == nil || callee.Builtin != BuiltinNone || cs.Guard >= 0 || w.inlineCalls >= maxInlineCalls {
		return pc, budget
	}
	w.enterCall(t, callee, m)
	w.inlineCalls++
	end, left := callee.Run(w, 0, m, -1, budget-1)
	w.inlineCalls--
	if end == RunDone {
		return RunDone, left
	}
	if et := &callee.Blocks[end].Term; et.Kind != TermJump || et.Succ != callee.Exit {
		e := &w.stack[len(w.stack)-1]
		e.pc, e.atTerm = end, true
		return RunDone, left
	}
	w.returnFromCall()
	if w.stack[len(w.stack)-1].mask != m || t.Succ == stop || left <= 1 {
		return RunDone, left
	}
	return t.Succ, left - 1
}

// maxInlineCalls is how many calls CallInline and paths DivergeInline runs inside one
// another.
const maxInlineCalls = 64

// DivergeInline runs, from generated code's block chain (Func.Run), the divergent branch that
// ends block pc (terminator t) for the lanes m, of which taken take it, instead of handing the
// warp back to the runtime's loop: it sets the SIMT entries as the loop would (Warp.diverge),
// runs each path's blocks with the function's own Run, taken first, down to the reconvergence
// point, and pops each path's entry there, as the loop would. The warp runs the same blocks
// with the same lanes in the same order, and the same budget of blocks. It returns the block
// the chain goes on at, the lanes that run it and the budget left; or RunDone where a path
// stopped elsewhere (a barrier, a call not made inline, the end of the time slice), or the
// chain should not go on, with the SIMT entries set for the runtime's loop. With one block of
// budget left, maxInlineCalls deep, or where a kernel's lanes may leave early (Warp.leave), it
// hands the branch itself to the loop.
func (w *Warp) DivergeInline(pc int32, t *Term, m, taken uint32, stop int32, budget int) (int32, uint32, int) {
	fn := w.Fn
	reconv := t.Reconv
	n := len(w.stack) - 1
	if budget <= 1 || w.inlineCalls >= maxInlineCalls || len(w.calls) == 0 && (fn.leaves(t.Succ) || fn.leaves(t.Alt) || fn.leaves(reconv)) {
		e := &w.stack[n]
		e.pc, e.atTerm = pc, true
		return RunDone, m, budget
	}
	other := m &^ taken
	if w.stack[n].reconv == reconv {
		// The running entry ends where the paths meet: it becomes the other path's entry, or
		// where a path goes straight there, narrows to the lanes of the other.
		e := &w.stack[n]
		switch {
		case t.Alt == reconv:
			e.mask = taken
			return w.goOn(t.Succ, stop, budget)
		case t.Succ == reconv:
			e.mask = other
			return w.goOn(t.Alt, stop, budget)
		}
		e.pc, e.mask = t.Alt, other
		w.pushEntry(t.Succ, reconv, taken)
		if budget, ok := w.runPath(t.Succ, reconv, budget); !ok {
			return RunDone, m, budget
		}
		return w.goOn(t.Alt, stop, budget)
	}
	w.stack[n].pc = reconv
	if t.Alt != reconv {
		w.pushEntry(t.Alt, reconv, other)
	}
	if t.Succ != reconv {
		w.pushEntry(t.Succ, reconv, taken)
		var ok bool
		if budget, ok = w.runPath(t.Succ, reconv, budget); !ok {
			return RunDone, m, budget
		}
	}
	if t.Alt != reconv {
		var ok bool
		if budget, ok = w.runPath(t.Alt, reconv, budget); !ok {
			return RunDone, m, budget
		}
	}
	return w.goOn(reconv, stop, budget)
}

// runPath runs the lanes of the top SIMT entry from block pc with the function's Run until
// they reach reconv, where it pops their entry. It returns the budget left and whether they
// did; where they stopped elsewhere, it has set the entry for the runtime's loop.
func (w *Warp) runPath(pc, reconv int32, budget int) (int, bool) {
	e := &w.stack[len(w.stack)-1]
	if e.mask == 0 { // the path's lanes exited on the other path
		w.stack = w.stack[:len(w.stack)-1]
		return budget, true
	}
	if budget <= 1 {
		return budget, false // the loop runs the path's first block, at the end of the time slice
	}
	w.inlineCalls++
	end, left := w.Fn.Run(w, pc, e.mask, reconv, budget-1)
	w.inlineCalls--
	if end == RunDone {
		return left, false
	}
	e = &w.stack[len(w.stack)-1]
	if w.Fn.Blocks[end].Term.next(w, e.mask) != reconv {
		e.pc, e.atTerm = end, true
		return left, false
	}
	w.stack = w.stack[:len(w.stack)-1]
	return left, true
}

// goOn returns where the block chain that runs the top SIMT entry goes on after a divergent
// branch ran inline: at block pc with the entry's lanes and one block of budget less; or
// RunDone, with the entry at pc for the runtime's loop, where pc is the chain's stop, the
// exit, or the time slice ends.
func (w *Warp) goOn(pc, stop int32, budget int) (int32, uint32, int) {
	e := &w.stack[len(w.stack)-1]
	if pc == stop || pc >= w.Fn.Exit || budget <= 1 || e.mask == 0 {
		e.pc, e.atTerm = pc, false
		return RunDone, e.mask, budget
	}
	return pc, e.mask, budget - 1
}

// predicate is the lanes for which branch t goes to Succ: its predicate, negated for @!p.
func (t *Term) predicate(w *Warp) uint32 {
	if t.Negate {
		return ^w.P[t.Pred]
	}
	return w.P[t.Pred]
}

// next is the block a jump, or a branch that every lane of m takes the same way, goes to;
// -1 for any other terminator.
func (t *Term) next(w *Warp, m uint32) int32 {
	switch t.Kind {
	case TermJump:
		return t.Succ
	case TermBranch:
		switch m & t.predicate(w) {
		case m:
			return t.Succ
		case 0:
			return t.Alt
		}
	}
	return -1
}

// enterCall pushes a call-return record and a base SIMT entry for callee with lanes m.
func (w *Warp) enterCall(t *Term, callee *Func, m uint32) {
	L := w.CTA.L
	if len(w.calls) >= L.maxDepth {
		w.Fault(FaultStackOverflow, t.Loc, firstLane(m), fmt.Sprintf("call to %s at depth %d exceeds the limit of %d", callee.Name, len(w.calls)+1, L.maxDepth))
	}
	base := w.LocalBase + w.Fn.LocalSize
	if base+callee.LocalSize > w.LocalStride {
		w.Fault(FaultStackOverflow, t.Loc, firstLane(m), fmt.Sprintf("call to %s at depth %d needs %d bytes of local memory, the limit is %d", callee.Name, len(w.calls)+1, base+callee.LocalSize, w.LocalStride))
	}
	e := &w.stack[len(w.stack)-1]
	e.pc = t.Succ
	caller := w.frame
	f := w.acquireFrame(callee)
	cs := t.Call
	params := callee.Params[:len(cs.Args)]
	for i := range params {
		copySlot(f, &params[i], caller, &cs.Args[i], m)
	}
	w.pushCall(caller, cs, m)
	w.pushEntry(0, -1, m)
	w.enter(f)
	w.LocalBase = base
}

// exitLanes ends the threads in m: they leave every SIMT entry of the warp.
func (w *Warp) exitLanes(m uint32) {
	if w.CTA.chk != nil {
		w.CTA.chk.exit(w, m)
	}
	w.Exited |= m
	for i := range w.stack {
		w.stack[i].mask &^= m
	}
	if len(w.syncs) > 0 {
		w.releaseSyncs()
	}
}
