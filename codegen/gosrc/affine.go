package gosrc

import (
	"slices"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Lane strides. A warp pass's address loop shows that lane l's access is at lane 0's address
// plus l times the access size. Where the address is known at compile time to grow by a
// constant from lane to lane of a full warp, it is enough to compute it for lanes 0 and 31:
// ctaid*ntid + tid and base + 4*index are, as long as %tid.x counts up along the warp
// (runtime.Warp.TidLinear) and a 32-bit index widened to 64 bits does not wrap between lane 0
// and lane 31. A single such widening can only wrap once over 31 small steps, which moves lane
// 31's address by a multiple of 2^32 that the two-lane check sees.

// laneStep is what is known of how a value changes from lane to lane of a full warp.
type laneStep struct {
	ok bool
	// stride is lane l+1's value minus lane l's, modulo 2 to the value's width.
	stride uint64
	// widened says a narrower lane-varying value was extended on the way: the value steps
	// by stride only where that value did not wrap between lanes 0 and 31.
	widened bool
	// tid says the value reads %tid, whose steps hold only where runtime.Warp.TidLinear does.
	tid bool
}

// maxWidenStride bounds the stride of a value widened: 31 steps of it stay far below 2^31,
// so the narrower value wraps at most once between lane 0 and lane 31.
const maxWidenStride = 1 << 20

var unknownStep = laneStep{}

// laneSteps computes laneStep for the values of one function, each once.
type laneSteps struct {
	memo map[*ssa.Value]laneStep
}

func newLaneSteps() *laneSteps { return &laneSteps{memo: map[*ssa.Value]laneStep{}} }

// value returns v's laneStep. A warp-uniform value steps by 0; others are followed through
// their defining instructions, in any block: a value computed only from constants, kernel
// parameters, %ntid, %ctaid, %nctaid, %tid and %laneid is the same function of the lane
// whenever a lane computes it.
func (ls *laneSteps) value(v *ssa.Value) laneStep {
	if v.Uniform {
		return laneStep{ok: true}
	}
	if st, ok := ls.memo[v]; ok {
		return st
	}
	ls.memo[v] = unknownStep // an SSA value cannot depend on itself without a phi, which is unknown
	st := ls.instr(v)
	ls.memo[v] = st
	return st
}

// instr follows a lane-varying value through its defining instruction.
func (ls *laneSteps) instr(v *ssa.Value) laneStep {
	if v.Kind != ssa.DefInstr {
		return unknownStep
	}
	d := v.Instr
	if d.Guard != nil || len(d.Defs) != 1 || len(d.Dsts) != 1 || d.Dsts[0].Kind != ssa.ArgValue {
		return unknownStep
	}
	t := layout.InstrType(d)
	bits := t.Bits()
	if d.Op != frontend.OpCvt && (!t.IsInteger() && t != frontend.B16 && t != frontend.B32 && t != frontend.B64 || bits < 16) {
		return unknownStep
	}
	arg := func(i int) laneStep { return ls.arg(d.Args[i]) }
	switch d.Op {
	case frontend.OpMov:
		if len(d.Args) != 1 || len(d.Mods) != 1 {
			return unknownStep
		}
		return arg(0).truncate(bits)
	case frontend.OpCvta:
		switch layout.InstrSpace(d) {
		case frontend.SpaceGlobal, frontend.SpaceConst, frontend.SpaceShared:
			return arg(0).truncate(bits) // identity or a constant window base added or taken away
		}
	case frontend.OpAdd, frontend.OpSub:
		if len(d.Args) != 2 || len(d.Mods) != 1 {
			return unknownStep
		}
		a, b := arg(0), arg(1)
		if d.Op == frontend.OpSub {
			b.stride = -b.stride
		}
		return a.plus(b).truncate(bits)
	case frontend.OpMul, frontend.OpMad:
		if !onlyMods(d, frontend.ModLo, frontend.ModWide) || has(d, frontend.ModLo) == has(d, frontend.ModWide) {
			return unknownStep
		}
		p, width := ls.product(d, bits, has(d, frontend.ModWide))
		if d.Op == frontend.OpMul {
			return p
		}
		return p.plus(ls.arg(d.Args[2])).truncate(width)
	case frontend.OpShl:
		k, isConst := constArg(d.Args[1])
		if len(d.Mods) != 1 || !isConst || k >= uint64(bits) {
			return unknownStep
		}
		a := arg(0)
		a.stride <<= k
		return a.truncate(bits)
	case frontend.OpCvt:
		ts := types(d)
		if len(ts) != 2 || len(d.Mods) != 2 || !ts[0].IsInteger() || !ts[1].IsInteger() {
			return unknownStep
		}
		to, from := ts[0].Bits(), ts[1].Bits()
		a := arg(0).truncate(from)
		if to > from {
			return a.widen(from)
		}
		return a.truncate(to)
	}
	return unknownStep
}

// product returns the step of a mul's or mad's product and the product's width: one factor
// must be a constant unless both are warp-uniform. .wide widens both factors first.
func (ls *laneSteps) product(d *ssa.Instr, bits int, wide bool) (laneStep, int) {
	a, b := ls.arg(d.Args[0]), ls.arg(d.Args[1])
	if wide {
		a, b = a.truncate(bits).widen(bits), b.truncate(bits).widen(bits)
		bits *= 2
	}
	if !a.ok || !b.ok {
		return unknownStep, bits
	}
	switch {
	case a.stride == 0 && b.stride == 0:
		return laneStep{ok: true, widened: a.widened || b.widened, tid: a.tid || b.tid}, bits
	case b.stride == 0:
		if c, ok := constArg(d.Args[1]); ok {
			a.stride *= c
			return a.truncate(bits), bits
		}
	case a.stride == 0:
		if c, ok := constArg(d.Args[0]); ok {
			b.stride *= c
			return b.truncate(bits), bits
		}
	}
	return unknownStep, bits
}

// arg returns an operand's step.
func (ls *laneSteps) arg(a ssa.Arg) laneStep {
	switch a.Kind {
	case ssa.ArgImm, ssa.ArgSym:
		return laneStep{ok: true}
	case ssa.ArgValue:
		if a.Not {
			return unknownStep
		}
		return ls.value(a.Value)
	case ssa.ArgSpecial:
		return specialStep(a.Name)
	}
	return unknownStep
}

// specialStep is the step of a special register: %tid.x counts up along a warp whose
// TidLinear holds, on which %tid.y and %tid.z do not change.
func specialStep(name string) laneStep {
	switch name {
	case "%tid.x":
		return laneStep{ok: true, stride: 1, tid: true}
	case "%tid.y", "%tid.z":
		return laneStep{ok: true, tid: true}
	case "%laneid":
		return laneStep{ok: true, stride: 1}
	}
	if slices.Contains([]string{"%ntid", "%ctaid", "%nctaid"}, name[:max(len(name)-2, 0)]) {
		return laneStep{ok: true}
	}
	return unknownStep
}

// warpSpecial reports whether a special register is the same in every lane of a warp, as
// specialStep knows: %ntid, %ctaid or %nctaid.
func warpSpecial(name string) bool {
	st := specialStep(name)
	return st.ok && st.stride == 0 && !st.tid
}

// constArg returns an operand's value where it is a constant: an immediate or a register an
// unguarded mov set to one.
func constArg(a ssa.Arg) (uint64, bool) {
	switch {
	case a.Kind == ssa.ArgImm:
		return a.Imm, true
	case a.Kind == ssa.ArgValue && !a.Not && a.Value.Kind == ssa.DefInstr:
		d := a.Value.Instr
		if d.Op == frontend.OpMov && d.Guard == nil && len(d.Args) == 1 && d.Args[0].Kind == ssa.ArgImm {
			return truncate(d.Args[0].Imm, layout.InstrType(d)), true
		}
	}
	return 0, false
}

// plus is the step of a sum. Two widened values could wrap at different lanes, which the
// check on lanes 0 and 31 alone might not see.
func (s laneStep) plus(o laneStep) laneStep {
	if !s.ok || !o.ok || s.widened && o.widened {
		return unknownStep
	}
	return laneStep{ok: true, stride: s.stride + o.stride, widened: s.widened || o.widened, tid: s.tid || o.tid}
}

// truncate keeps the low bits of the step, as arithmetic of that width does.
func (s laneStep) truncate(bits int) laneStep {
	if bits < 64 {
		s.stride &= 1<<bits - 1
	}
	return s
}

// widen is the step of a value of the given width extended to 64 bits: the same signed
// step, where the narrow value does not wrap.
func (s laneStep) widen(bits int) laneStep {
	if !s.ok || s.stride == 0 {
		return s
	}
	if s.widened {
		return unknownStep
	}
	stride := int64(s.stride<<(64-bits)) >> (64 - bits)
	if stride > maxWidenStride || stride < -maxWidenStride {
		return unknownStep
	}
	return laneStep{ok: true, stride: uint64(stride), widened: true, tid: s.tid}
}
