package runtime

// Per-lane calls on the closure engine. A device function with a Func.PerLane form
// (codegen/layout.LaneFuncs: it computes only on its own lane's registers and .param
// variables, and calls only such functions) cannot let a lane see another lane, memory or the
// warp while the call runs. The trampoline's call then runs it with that form one lane at a
// time, each lane's whole call (recursion included) before the next lane's, instead of on the
// SIMT and call-return stacks, and goes on after the call as if the warp had returned from it
// with the same lanes: the same registers, predicates and results.
//
// The stack still runs the call where the per-lane form cannot show the same behaviour, and
// then nothing observable has happened, as the form writes the caller's results only once
// every lane returned:
//   - launches that collect statistics, run the sanitizer's checks or limit a warp's blocks
//     (LaunchConfig.MaxWarpBlocks): they count and check what the warp does block by block,
//     so they need the warp's own path;
//   - a call some lane of which would go deeper than the launch's call depth, or whose frame
//     would not fit in local memory: the stack raises the stack-overflow fault, with its lane
//     and line;
//   - a lane that reaches an instruction that faults: the stack raises the fault;
//   - a call whose lanes run more than MaxPerLaneBlocks blocks in all: a lane that may never
//     return (an endless loop) is left to the stack, whose time slices see a cancelled launch
//     and a SIMT deadlock.

// PerLaneCall runs a call of its function for the lanes m of w, one lane at a time: the
// arguments are the current frame's slots cs.Args, the results go to its slots cs.Results.
// Lanes may nest calls depth deep and run blocks blocks in all. It returns the blocks they
// ran, and false, with nothing written, where the SIMT stack must make the call.
type PerLaneCall func(w *Warp, cs *CallSite, m uint32, depth, blocks int) (int, bool)

// MaxPerLaneBlocks bounds the blocks one per-lane call runs, for all its lanes, before it
// gives the call back to the SIMT stack.
const MaxPerLaneBlocks = 1 << 20

// callPerLane runs the call of callee at call terminator t for the lanes m with the callee's
// per-lane form, and reports whether it did: the top SIMT entry then goes on at the call's
// successor, as after the stack's return. When it reports false nothing has changed and the
// stack makes the call.
func (w *Warp) callPerLane(t *Term, callee *Func, m uint32) bool {
	c := w.CTA
	if callee.PerLane == nil || c.stats != nil || c.chk != nil || c.L.maxBlocks != 0 {
		return false
	}
	L := c.L
	if len(w.calls) >= L.maxDepth || w.LocalBase+w.Fn.LocalSize+callee.LocalSize > w.LocalStride {
		return false
	}
	blocks, ok := callee.PerLane(w, t.Call, m, L.maxDepth-len(w.calls)-1, MaxPerLaneBlocks)
	if !ok {
		return false
	}
	w.stack[len(w.stack)-1].pc = t.Succ
	// The blocks the lanes ran count against the time slice, so that the warp still yields,
	// and sees a cancelled launch, about as often as on the stack.
	w.budget = max(w.budget-blocks, 1)
	return true
}
