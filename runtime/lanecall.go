package runtime

import (
	"math/bits"
	"sync"
)

// Per-lane calls. A device function whose body, and everything it can call, only computes on
// its own lane's registers and .param variables (codegen/layout.LaneFuncs) cannot let a lane
// see another lane, memory or the warp while the call runs. Generated code (codegen/gosrc,
// lanefn.go) compiles such a function a second time as a LaneFunc, which runs one lane's whole
// call with its registers in Go locals, its blocks joined by goto and its calls as Go calls
// (recursion as Go recursion), and makes the function's call sites go through CallLanes. That
// runs the call lane after lane and goes on after it as if the warp had returned from the
// call with the same lanes: the same registers, predicates and results, without the SIMT and
// call-return stacks, frames or argument copies of every call.
//
// What a LaneFunc cannot reproduce it leaves to the SIMT path (CallInline), with nothing done
// but the results of the lanes that already ran, which that path writes again with the same
// values: launches that collect statistics, run the sanitizer or limit a warp's blocks (their
// counts are per block); a call whose nesting would exceed the launch's call depth or the
// lane's local memory, where the SIMT path reports the stack-overflow fault; and a lane that
// runs more than LaneSteps loop iterations and calls, which may never end: on the SIMT stack
// the warp's time slices end, so cancellation, timeouts and the schedulers' progress checks
// work as usual.

// LaneFunc runs one call of a per-lane function for lane l of w: pa starts with the callee's
// .param area for that lane, its arguments written, where it leaves its results, and the
// areas of the calls it nests follow in the rest of pa; calls is how many calls the lane may
// still nest inside it. It returns the loop iterations and calls it made, counted from steps,
// and false where it stopped: a call deeper than calls or than pa holds, or more than
// LaneSteps in all.
type LaneFunc func(w *Warp, l int, pa []byte, calls, steps int) (int, bool)

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

// laneParams holds the buffers of the per-lane calls running (*[laneParamBytes]byte).
var laneParams = sync.Pool{New: func() any { return new([laneParamBytes]byte) }}

// CallLanes runs, from generated code's block chain, the direct call that ends block pc
// (terminator t) for the lanes m with the callee's LaneFunc lane, one lane after the other,
// and returns as CallInline does: the call's successor and the budget left when the chain may
// go on there, else RunDone with the SIMT entry at the successor. The call is charged one
// block and the most steps a lane made. Where the call cannot run per lane (see above), it
// runs it with CallInline.
func (w *Warp) CallLanes(pc int32, t *Term, m uint32, stop int32, budget int, lane LaneFunc) (int32, int) {
	if budget <= 1 || !w.laneCallsOK(t) {
		return w.CallInline(pc, t, m, stop, budget)
	}
	most, ok := w.callEachLane(t, m, lane)
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

// callEachLane runs the call of t for each lane of m with lane, in lane order, each lane's
// arguments copied into a zeroed .param area and its results copied out as the call-return
// stack would (copySlot). It returns the most steps a lane made, and false where a lane
// stopped (the lanes before it have written their results).
func (w *Warp) callEachLane(t *Term, m uint32, lane LaneFunc) (int, bool) {
	cs := t.Call
	callee := cs.Direct
	calls := min(w.CTA.L.maxDepth-len(w.calls), maxLaneCallDepth) - 1
	if calls < 0 || w.LocalBase+w.Fn.LocalSize+callee.LocalSize > w.LocalStride {
		return 0, false // the SIMT path faults: a stack overflow
	}
	buf := laneParams.Get().(*[laneParamBytes]byte)
	defer laneParams.Put(buf)
	pa := buf[:callee.ParamSize]
	stride := w.Fn.ParamSize
	most := 0
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		clear(pa)
		for i := range cs.Args {
			s, d := &cs.Args[i], &callee.Params[i]
			if s.Reg >= 0 {
				putParam(pa[d.ParamOff:][:min(d.Size, 8)], w.R[s.Reg*WarpSize+l])
				continue
			}
			copy(pa[d.ParamOff:][:min(s.Size, d.Size)], w.Param[l*stride+s.ParamOff:])
		}
		n, ok := lane(w, l, buf[:], calls, 0)
		if !ok {
			return 0, false
		}
		most = max(most, n)
		for i := range cs.Results {
			d, s := &cs.Results[i], &callee.Results[i]
			if d.Reg >= 0 {
				w.R[d.Reg*WarpSize+l] = ParamValue(pa[s.ParamOff:][:min(s.Size, 8)])
				continue
			}
			dst := w.Param[l*stride+d.ParamOff:][:d.Size]
			clear(dst[copy(dst, pa[s.ParamOff:][:min(s.Size, d.Size)]):])
		}
	}
	return most, true
}
