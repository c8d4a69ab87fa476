package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Lane steps. Some values grow by a constant from lane to lane of a full warp whenever a lane
// computes them: %tid.x and %laneid, ctaid*ntid + tid, base + 4*tid. Knowing that when the
// closure is built, a setp on such a value needs no loop over the lanes (runtime.StepMask) and
// a load or store through such an address shows its lanes consecutive from lanes 0 and 31
// alone. The analysis is the Go source engine's (codegen/gosrc/affine.go) with one difference:
// the only lane-invariant inputs it takes are constants, launch-invariant values (the
// prologue's) and %ntid, %ctaid and %nctaid, never a value that is merely warp-uniform, since
// lanes that left a loop in different iterations computed such a value from different
// iterations' inputs.
//
// What holds only where %tid.x counts up along the warp says so (tid), for the code to test
// runtime.Warp.TidLinear; what holds only where a narrower value widened on the way did not
// wrap says so too (widened), and the code's test of lanes 0 and 31 sees any wrap: a single
// widening of a value whose stride is at most maxWidenStride wraps at most once over 31
// steps, moving lane 31 by a multiple of 2^32 (or 2^16) from where the stride puts it.

// laneStep is what is known of how a value changes from lane to lane of a full warp.
type laneStep struct {
	ok bool
	// stride is lane l+1's value minus lane l's, modulo 2 to the value's width.
	stride uint64
	// widened says a narrower lane-varying value was extended on the way.
	widened bool
	// tid says the value reads %tid, whose steps hold only where Warp.TidLinear does.
	tid bool
}

// maxWidenStride bounds the stride of a value widened: 31 steps of it stay far below 2^15,
// so the narrower value (of 16 bits or more) wraps at most once between lane 0 and lane 31.
const maxWidenStride = 1 << 10

var unknownStep = laneStep{}

// step returns v's laneStep, computing each value's once.
func (f *fnCompiler) step(v *ssa.Value) laneStep {
	if f.invariant(v) {
		return laneStep{ok: true}
	}
	if f.steps == nil {
		f.steps = map[*ssa.Value]laneStep{}
	}
	if st, ok := f.steps[v]; ok {
		return st
	}
	f.steps[v] = unknownStep // an SSA value cannot depend on itself without a phi, which is unknown
	st := f.stepOfDef(v)
	f.steps[v] = st
	return st
}

// stepOfDef follows a value through its defining instruction.
func (f *fnCompiler) stepOfDef(v *ssa.Value) laneStep {
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
	arg := func(i int) laneStep { return f.argStep(d.Args[i]) }
	switch d.Op {
	case frontend.OpMov:
		if len(d.Args) == 1 && len(d.Mods) == 1 {
			return arg(0).truncate(bits)
		}
	case frontend.OpCvta:
		switch layout.InstrSpace(d) {
		case frontend.SpaceGlobal, frontend.SpaceConst, frontend.SpaceShared:
			return arg(0).truncate(bits) // identity, or a constant window base added or taken away
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
		lo, wide := (&emitter{in: d}).has(frontend.ModLo), (&emitter{in: d}).has(frontend.ModWide)
		if len(d.Mods) != 2 || lo == wide {
			return unknownStep
		}
		p, width := f.product(d, bits, wide)
		if d.Op == frontend.OpMul {
			return p
		}
		return p.plus(arg(2)).truncate(width)
	case frontend.OpShl:
		k, isConst := stepConst(d.Args[1])
		if len(d.Mods) != 1 || !isConst || k >= uint64(bits) {
			return unknownStep
		}
		a := arg(0)
		a.stride <<= k
		return a.truncate(bits)
	case frontend.OpCvt:
		ts := (&emitter{in: d}).types()
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
// must be a constant unless neither steps. .wide widens both factors first.
func (f *fnCompiler) product(d *ssa.Instr, bits int, wide bool) (laneStep, int) {
	a, b := f.argStep(d.Args[0]), f.argStep(d.Args[1])
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
		if c, ok := stepConst(d.Args[1]); ok {
			a.stride *= c
			return a.truncate(bits), bits
		}
	case a.stride == 0:
		if c, ok := stepConst(d.Args[0]); ok {
			b.stride *= c
			return b.truncate(bits), bits
		}
	}
	return unknownStep, bits
}

// argStep returns an operand's step.
func (f *fnCompiler) argStep(a ssa.Arg) laneStep {
	switch a.Kind {
	case ssa.ArgImm, ssa.ArgSym:
		return laneStep{ok: true}
	case ssa.ArgValue:
		if a.Not || a.Value.Reg.Type == frontend.Pred {
			return unknownStep
		}
		return f.step(a.Value)
	case ssa.ArgSpecial:
		return specialStep(a.Name)
	}
	return unknownStep
}

// specialStep is the step of a special register: %tid.x counts up along a warp whose
// TidLinear holds, on which %tid.y and %tid.z do not change; %laneid counts up along any.
func specialStep(name string) laneStep {
	switch name {
	case "%tid.x":
		return laneStep{ok: true, stride: 1, tid: true}
	case "%tid.y", "%tid.z":
		return laneStep{ok: true, tid: true}
	case "%laneid":
		return laneStep{ok: true, stride: 1}
	}
	switch name[:max(len(name)-2, 0)] {
	case "%ntid", "%ctaid", "%nctaid":
		return laneStep{ok: true}
	}
	return unknownStep
}

// stepConst returns an operand's value where it is a constant: an immediate or a register an
// unguarded mov set to one.
func stepConst(a ssa.Arg) (uint64, bool) {
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
// test of lanes 0 and 31 alone might not see.
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
