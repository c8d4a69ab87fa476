package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Step predicates. A setp comparing a 16- or 32-bit integer that steps by 1 from lane to lane
// (step.go) with a warp-uniform operand, as the `if (tid < s)` after each barrier of a tree
// reduction does, needs no loop for a full warp: where lane 31's value is lane 0's plus 31 in
// the comparison's type (no wrap between them), and %tid.x counts up along the warp where the
// step goes through it, the lanes that pass are a run that runtime.StepMask computes from lane
// 0's value. Any other warp runs the comparison's lane loop.

// stepCmps are the integer comparisons StepMask makes, by modifier; unsigned types also spell
// them lo, ls, hi, hs.
var stepCmps = map[frontend.Mod]runtime.StepCmp{
	frontend.ModEq: runtime.StepEQ, frontend.ModNe: runtime.StepNE, frontend.ModLt: runtime.StepLT, frontend.ModLe: runtime.StepLE,
	frontend.ModGt: runtime.StepGT, frontend.ModGe: runtime.StepGE, frontend.ModLo: runtime.StepLT, frontend.ModLs: runtime.StepLE,
	frontend.ModHi: runtime.StepGT, frontend.ModHs: runtime.StepGE,
}

// swappedCmp is the comparison with its operands exchanged.
var swappedCmp = map[runtime.StepCmp]runtime.StepCmp{
	runtime.StepEQ: runtime.StepEQ, runtime.StepNE: runtime.StepNE, runtime.StepLT: runtime.StepGT,
	runtime.StepLE: runtime.StepGE, runtime.StepGT: runtime.StepLT, runtime.StepGE: runtime.StepLE,
}

// stepCompare returns setp's comparison with the step fast path in front of loop, the
// comparison's lane loop over registers a and b, when one operand steps by 1 from lane to
// lane and the other is warp-uniform; otherwise loop itself.
func (e *emitter) stepCompare(t frontend.Type, a, b int, loop func(w *runtime.Warp, m uint32) uint32) func(w *runtime.Warp, m uint32) uint32 {
	cmp, ok := stepCmps[e.compare()]
	if !ok || t.IsFloat() || t.Bits() != 16 && t.Bits() != 32 {
		return loop
	}
	for k, other := range [2]int{1, 0} {
		arg := e.in.Args[k]
		if arg.Kind != ssa.ArgValue || !e.uniformArg(other) {
			continue
		}
		st := e.f.argStep(arg).truncate(t.Bits())
		if !st.ok || st.stride != 1 {
			continue
		}
		x, y := a, b
		if k == 1 {
			x, y, cmp = b, a, swappedCmp[cmp]
		}
		switch {
		case t.Bits() == 16 && t.IsSigned():
			return steppedCompare[int16](x, y, cmp, st.tid, loop)
		case t.Bits() == 16:
			return steppedCompare[uint16](x, y, cmp, st.tid, loop)
		case t.IsSigned():
			return steppedCompare[int32](x, y, cmp, st.tid, loop)
		}
		return steppedCompare[uint32](x, y, cmp, st.tid, loop)
	}
	return loop
}

// steppedCompare is the comparison x CMP y over K, x stepping by 1 from lane to lane and y
// warp-uniform, by runtime.StepMask where the warp is full, lanes 0 and 31 of x show no wrap,
// and, where tid says the step goes through %tid.x, Warp.TidLinear holds; else by loop.
//
//go:noinline
func steppedCompare[K integer](x, y int, cmp runtime.StepCmp, tid bool, loop func(w *runtime.Warp, m uint32) uint32) func(w *runtime.Warp, m uint32) uint32 {
	return func(w *runtime.Warp, m uint32) uint32 {
		if m == ^uint32(0) && (w.TidLinear || !tid) {
			X := regs(w, x)
			if a := int64(K(X[0])); int64(K(X[ws-1]))-a == ws-1 {
				return runtime.StepMask(a, int64(K(w.R[y*ws])), cmp)
			}
		}
		return loop(w, m)
	}
}
