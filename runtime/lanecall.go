package runtime

import (
	"encoding/binary"
	"sync"
)

// Per-lane calls. A device function whose body, and everything it can call, only computes on
// its own lane's registers, .param variables and local memory (codegen/layout.LaneFuncsLocal)
// cannot let a lane see another lane, shared or global memory or the warp while the call
// runs. Generated code (codegen/gosrc, lanefn.go) compiles such a function a second time as a
// LaneFunc, which runs one lane's whole call with its registers in Go locals, its blocks
// joined by goto and its calls as Go calls (recursion as Go recursion), with a LaneLoop that
// runs a call site's call with it lane by lane, and makes the function's call sites go
// through CallLanes. That
// runs the call lane after lane and goes on after it as if the warp had returned from the
// call with the same lanes: the same registers, predicates and results, without the SIMT and
// call-return stacks, frames or argument copies of every call.
//
// What a LaneFunc cannot reproduce it leaves to the SIMT path (CallInline), with nothing done
// but the results of the lanes that already ran, which that path writes again with the same
// values: launches that collect statistics, run the sanitizer or limit a warp's blocks (their
// counts are per block); a call whose nesting would exceed the launch's call depth or the
// lane's local memory, where the SIMT path reports the stack-overflow fault; a lane that
// runs more than LaneSteps loop iterations and calls, which may never end: on the SIMT stack
// the warp's time slices end, so cancellation, timeouts and the schedulers' progress checks
// work as usual; and a load or store through an address that is not the lane's local memory,
// or that would fault there (lanelocal.go), after which local memory is restored.

// LaneLoop runs a call of a per-lane function at call site cs of w's current function for
// each lane of m with its LaneFunc, one lane after the other, in lane order: each lane's
// arguments copied into a zeroed .param area at the start of pa (LaneArg), whose rest holds
// the areas of nested calls, and its results copied out (LaneResult). u is the lanes' local
// memory (LaneLocal.SetLane) and calls how many calls a lane may nest. It returns the most
// steps a lane made, and false where a lane stopped: the lanes before it have written their
// results. Generated code has one for each per-lane function (codegen/gosrc/lanefn.go).
type LaneLoop func(w *Warp, cs *CallSite, m uint32, pa []byte, u *LaneLocal, calls int) (int, bool)

// LaneFunc runs one call of a per-lane function for lane l of w: pa starts with the callee's
// .param area for that lane, its arguments written, where it leaves its results, and the
// areas of the calls it nests follow in the rest of pa; u is the lane's local memory
// (lanelocal.go); calls is how many calls the lane may still nest inside it. It returns the
// loop iterations and calls it made, counted from steps, and false where it stopped: a call
// deeper than calls or than pa holds, more than LaneSteps in all, or a load or store that is
// not of the lane's local memory, or that would fault there.
type LaneFunc func(w *Warp, l int, pa []byte, u *LaneLocal, calls, steps int) (int, bool)

// LaneSteps is how many loop-head passes and calls one lane's per-lane call may make before
// the call is left to the SIMT path, which ends a lane that never returns at the end of a time
// slice.
const LaneSteps = 1 << 18

// maxLaneCallDepth bounds the Go recursion of LaneFuncs whatever LaunchConfig.MaxCallDepth
// is: deeper calls run on the SIMT path.
const maxLaneCallDepth = 1 << 12

// laneParamBytes is the size of the buffer that holds the .param areas of a lane's nested
// per-lane calls; deeper calls run on the SIMT path.
const laneParamBytes = 1 << 16

// laneCallState is what a per-lane call's lanes use in turn: the buffer of their .param areas
// and their local memory's saved stores.
type laneCallState struct {
	params [laneParamBytes]byte
	local  LaneLocal
}

// laneCalls holds the states of the per-lane calls running (*laneCallState).
var laneCalls = sync.Pool{New: func() any { return new(laneCallState) }}

// CallLanes runs, from generated code's block chain, the direct call that ends block pc
// (terminator t) for the lanes m with the callee's LaneLoop lanes, one lane after the other,
// and returns as CallInline does: the call's successor and the budget left when the chain may
// go on there, else RunDone with the SIMT entry at the successor. The call is charged one
// block and the most steps a lane made. Where the call cannot run per lane (see above), it
// runs it with CallInline.
func (w *Warp) CallLanes(pc int32, t *Term, m uint32, stop int32, budget int, lanes LaneLoop) (int32, int) {
	if budget <= 1 || !w.laneCallsOK(t) {
		return w.CallInline(pc, t, m, stop, budget)
	}
	most, ok := w.callEachLane(t, m, lanes)
	if !ok {
		return w.CallInline(pc, t, m, stop, budget)
	}
	left := budget - 1 - most
	e := &w.stack[len(w.stack)-1]
	if t.Succ == stop || left <= 1 {
		e.pc, e.atTerm = t.Succ, false
		return RunDone, left
	}
	return t.Succ, left - 1
}

// laneCallsOK reports whether the launch and the call site allow a per-lane call: no
// statistics, no sanitizer, no block limit, and arguments and results that the LaneFunc's
// .param area holds, none of them written by the call before it reads them.
func (w *Warp) laneCallsOK(t *Term) bool {
	c := w.CTA
	cs := t.Call
	callee := cs.Direct
	if c.stats != nil || c.chk != nil || c.L.maxBlocks != 0 || cs.Guard >= 0 || callee == nil || callee.ParamSize > laneParamBytes {
		return false
	}
	for i := range cs.Args {
		if callee.Params[i].Reg >= 0 || cs.Args[i].Pred {
			return false
		}
	}
	for i := range cs.Results {
		if callee.Results[i].Reg >= 0 || cs.Results[i].Pred {
			return false
		}
		for j := range cs.Args {
			if slotsOverlap(&cs.Results[i], &cs.Args[j]) {
				return false
			}
		}
	}
	return true
}

// slotsOverlap reports whether two slots of one frame share a register or .param bytes.
func slotsOverlap(a, b *Slot) bool {
	if a.Reg >= 0 || b.Reg >= 0 {
		return a.Reg == b.Reg && a.Pred == b.Pred
	}
	return a.ParamOff < b.ParamOff+b.Size && b.ParamOff < a.ParamOff+a.Size
}

// callEachLane runs the call of t for each lane of m with lanes. It returns the most steps a
// lane made, and false where a lane stopped (the lanes before it have written their results,
// and local memory is as before the call).
func (w *Warp) callEachLane(t *Term, m uint32, lanes LaneLoop) (int, bool) {
	cs := t.Call
	callee := cs.Direct
	calls := min(w.CTA.L.maxDepth-len(w.calls), maxLaneCallDepth) - 1
	if calls < 0 || w.LocalBase+w.Fn.LocalSize+callee.LocalSize > w.LocalStride {
		return 0, false // the SIMT path faults: a stack overflow
	}
	st := laneCalls.Get().(*laneCallState)
	defer laneCalls.Put(st)
	u := &st.local
	for {
		most, ok := lanes(w, cs, m, st.params[:], u, calls)
		if ok {
			u.forget()
			return most, true
		}
		u.restore()
		if !u.retry() {
			return 0, false
		}
	}
}

// LaneArg copies the argument s of a per-lane call, in the current frame, for lane l into
// dst, the callee's parameter in its zeroed .param area, as the call-return stack does
// (copySlot): a register's low bytes, or as many bytes of the frame's .param area as both
// hold.
func (w *Warp) LaneArg(s *Slot, l int, dst []byte) {
	if s.Reg >= 0 {
		putParam(dst[:min(len(dst), 8)], w.R[s.Reg*WarpSize+l])
		return
	}
	moveParam(dst, w.Param[l*w.Fn.ParamSize+s.ParamOff:], min(s.Size, len(dst)))
}

// LaneResult copies src, the result of a per-lane call in the callee's .param area, for lane
// l into its slot d in the current frame, as the call-return stack does (copySlot): a
// register gets its low bytes, and a .param slot as many bytes as both hold, the rest of it
// cleared.
func (w *Warp) LaneResult(d *Slot, l int, src []byte) {
	if d.Reg >= 0 {
		w.R[d.Reg*WarpSize+l] = ParamValue(src[:min(len(src), 8)])
		return
	}
	dst := w.Param[l*w.Fn.ParamSize+d.ParamOff:][:d.Size]
	n := min(len(src), d.Size)
	moveParam(dst, src, n)
	if n < d.Size {
		clear(dst[n:])
	}
}

// moveParam copies the first n bytes of src to dst, with a single move for 4 or 8 bytes.
func moveParam(dst, src []byte, n int) {
	switch n {
	case 8:
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	case 4:
		binary.LittleEndian.PutUint32(dst, binary.LittleEndian.Uint32(src))
	default:
		copy(dst[:n], src[:n])
	}
}
