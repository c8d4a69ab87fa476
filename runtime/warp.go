package runtime

import "math/bits"

// WarpSize is the number of lanes in a warp.
const WarpSize = 32

// Warp is 32 lanes executing one instruction at a time under an active mask. Registers live
// in the current call frame: register s of lane l is R[s*32+l]; predicate p is the lane mask P[p].
type Warp struct {
	CTA *CTA
	// ID is the warp's index in its CTA; lane l is thread ID*32+l of the CTA.
	ID int
	// Lanes are the lanes that exist (a CTA's last warp may be partial); Exited those that ended.
	Lanes  uint32
	Exited uint32
	Fn     *Func
	R      []uint64
	P      []uint32
	// inlineCalls counts the calls generated code is running inside one another on the Go
	// stack (CallInline), at most maxInlineCalls.
	inlineCalls int
	Param       []byte // the current frame's per-lane .param area: lane l at [l*Fn.ParamSize:]
	// Local is the per-lane local memory, lane l at [l*LocalStride:(l+1)*LocalStride];
	// LocalBase is where the current frame's .local area starts in it.
	Local       []byte
	LocalStride int
	LocalBase   int

	stack []simtEntry
	calls []callRecord
	frame *frame

	// waiting says no path of the warp can run until a barrier it waits at is released.
	waiting bool
	// straightBar is 1 + the barrier the warp waits at as runStraight left it (0: none);
	// straightPC, the block that ends there, and straightSeq, the CTA's arrival count then,
	// describe that arrival for a deadlock report (straightWaiter).
	straightBar int
	straightPC  int32
	straightSeq uint64
	// budget is the number of blocks left in the warp's time slice of sliceLen blocks; ran
	// counts the blocks of the slices it has used up in this CTA.
	budget   int
	sliceLen int
	ran      uint64
	// progress is the state of the no-progress check at the ends of time slices (sched.go).
	progress progressCheck
	// syncs are the groups of lanes waiting at warp-level synchronizations (its only);
	// synced are lanes released from one, which instructions accept as having reached it.
	syncs  []syncWait
	synced uint32

	// Tid is each lane's %tid. TidLinear says the warp is full and lane l's %tid is lane 0's
	// plus (l, 0, 0): generated code then knows how addresses computed from it step. They
	// come last: the fields above, which every warp's start touches, then share fewer cache
	// lines.
	TidLinear bool
	Tid       [3][32]uint32
}

// simtEntry is one SIMT reconvergence stack entry: the lanes in mask run from block pc until
// they reach reconv, where the entry is popped. A call frame's base entry has reconv -1. An
// entry waiting at barrier b has pc = blockedPC(b) and continues at resume when it opens.
type simtEntry struct {
	pc     int32
	reconv int32
	mask   uint32
	resume int32
	// atTerm says block pc's code has run (generated code stopped there inside a call it
	// ran itself, CallInline): only its terminator is left.
	atTerm bool
}

// pushEntry pushes a SIMT entry for the lanes in mask at block pc that reconverge at reconv.
// It stores the fields one by one: appending a composite literal builds it on the Go stack
// and copies it with wide moves that miss store-to-load forwarding, a stall that was a tenth
// of a small kernel's warp start.
func (w *Warp) pushEntry(pc, reconv int32, mask uint32) {
	n := len(w.stack)
	if n < cap(w.stack) {
		w.stack = w.stack[:n+1]
	} else {
		w.stack = append(w.stack, simtEntry{})
	}
	e := &w.stack[n]
	e.pc, e.reconv, e.mask, e.resume, e.atTerm = pc, reconv, mask, 0, false
}

// pushCall pushes the call-return record of a call made by the lanes in mask at call site
// cs from the current function, whose frame is caller; like pushEntry, field by field.
func (w *Warp) pushCall(caller *frame, cs *CallSite, mask uint32) {
	n := len(w.calls)
	if n < cap(w.calls) {
		w.calls = w.calls[:n+1]
	} else {
		w.calls = append(w.calls, callRecord{})
	}
	r := &w.calls[n]
	r.fn, r.frame, r.site = w.Fn, caller, cs
	r.base, r.localBase, r.mask = len(w.stack), w.LocalBase, mask
}

// blockedPC is the pc of a SIMT entry whose lanes wait at barrier id.
func blockedPC(id uint64) int32 { return -2 - int32(id) }

// callRecord is one call-return stack entry: the caller's state to restore when the callee's
// base SIMT entry (at index base) reaches the callee's exit.
type callRecord struct {
	fn        *Func
	frame     *frame
	site      *CallSite
	base      int
	localBase int
	// mask is the lanes that made the call; those that have not exited get the results.
	mask uint32
}

// frame is the register file and .param area of one activation of a function.
type frame struct {
	fn    *Func
	r     []uint64
	p     []uint32
	param []byte
	// ready says the function's Prologue has run in this frame.
	ready bool
}

// acquireFrame returns a zeroed frame for fn with its constants in place, reusing a free one.
func (w *Warp) acquireFrame(fn *Func) *frame {
	pool := &w.CTA.pool
	for len(*pool) <= fn.Index {
		*pool = append(*pool, nil)
	}
	var f *frame
	if free := (*pool)[fn.Index]; len(free) > 0 {
		f = free[len(free)-1]
		(*pool)[fn.Index] = free[:len(free)-1]
		resetFrame(f)
		return f
	}
	f = &frame{
		fn:    fn,
		r:     make([]uint64, fn.NumRegs*WarpSize),
		p:     make([]uint32, fn.NumPreds),
		param: alignedBytes(fn.ParamSize * WarpSize),
	}
	for _, c := range fn.Consts {
		s := f.r[c.Reg*WarpSize:][:WarpSize]
		for l := range s {
			s[l] = c.Value
		}
	}
	return f
}

// resetFrame readies a used frame for a new activation of its function: the registers some
// path reads before writing, the predicates and, where some path may read it before writing
// it, the .param area start zeroed again.
func resetFrame(f *frame) {
	for _, s := range f.fn.ZeroRegs {
		clear(f.r[int(s)*WarpSize:][:WarpSize])
	}
	clear(f.p)
	if f.fn.ZeroParams {
		clear(f.param)
	}
}

func (w *Warp) releaseFrame(f *frame) {
	pool := w.CTA.pool
	pool[f.fn.Index] = append(pool[f.fn.Index], f)
}

// enter makes f the current frame.
func (w *Warp) enter(f *frame) {
	w.frame = f
	w.Fn = f.fn
	w.R = f.r
	w.P = f.p
	w.Param = f.param
}

// Thread returns the CTA-relative thread coordinates of a lane.
func (w *Warp) Thread(lane int) Dim3 {
	return w.CTA.L.Block.at(uint64(w.ID*WarpSize + lane))
}

// Active reports the lanes that exist and have not exited.
func (w *Warp) Active() uint32 { return w.Lanes &^ w.Exited }

// firstLane is the lowest set lane of a non-empty mask.
func firstLane(m uint32) int { return bits.TrailingZeros32(m) }
