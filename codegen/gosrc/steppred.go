package gosrc

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Step predicates. A lane loop that only sets predicates, each by comparing an integer
// register that steps by 1 from lane to lane (%tid.x, %laneid, ctaid*ntid + tid: affine.go)
// with a warp-invariant value, as the `if (tid < s)` after each barrier of a tree reduction
// does, needs no loop for a full warp: where lane 31's value is lane 0's plus 31 in the
// comparison's type (no wrap between them), the lanes that pass are a run that
// runtime.StepMask computes from lane 0's value.

// stepCmps are the integer comparisons StepMask makes, by modifier; unsigned types also
// spell them lo, ls, hi, hs.
var stepCmps = map[frontend.Mod]string{
	frontend.ModEq: "StepEQ", frontend.ModNe: "StepNE", frontend.ModLt: "StepLT", frontend.ModLe: "StepLE",
	frontend.ModGt: "StepGT", frontend.ModGe: "StepGE", frontend.ModLo: "StepLT", frontend.ModLs: "StepLE",
	frontend.ModHi: "StepGT", frontend.ModHs: "StepGE",
}

// swappedCmp is the comparison with its operands exchanged.
var swappedCmp = map[string]string{"StepEQ": "StepEQ", "StepNE": "StepNE", "StepLT": "StepGT", "StepLE": "StepGE", "StepGT": "StepLT", "StepGE": "StepLE"}

// stepCompare is a setp whose predicate runtime.StepMask can set for a full warp.
type stepCompare struct {
	in    *ssa.Instr
	t     frontend.Type
	cmp   string     // the comparison of the stepping operand with the other
	k     int        // the stepping operand
	value *ssa.Value // its value, which steps by 1 from lane to lane
	slot  int        // its register slot
	pred  int        // the predicate slot written
	tid   bool       // the step holds only where w.TidLinear
}

// stepCompare returns in as a stepCompare: an unguarded setp of one predicate comparing a
// 16- or 32-bit integer value that steps by 1 from lane to lane with a warp-invariant one,
// neither of whose registers the block writes again before the end of the lane loop s
// (whose code reads them once the loop has run).
func (e *blockEmit) stepCompare(s *segment, in *ssa.Instr) (stepCompare, bool) {
	if e.f.steps == nil {
		e.f.steps = newLaneSteps()
	}
	t := layout.InstrType(in)
	cmp := ""
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindCompare {
			cmp = stepCmps[m]
		}
	}
	unsignedOnly := has(in, frontend.ModLo) || has(in, frontend.ModLs) || has(in, frontend.ModHi) || has(in, frontend.ModHs)
	bitsOnly := t.IsBits() && cmp != "StepEQ" && cmp != "StepNE"
	if in.Op != frontend.OpSetp || in.Guard != nil || len(in.Dsts) != 1 || !isPred(in.Dsts[0]) || len(in.Args) != 2 ||
		len(in.Mods) != 2 || cmp == "" || t.Bits() != 16 && t.Bits() != 32 || t.IsFloat() || bitsOnly || unsignedOnly && t.IsSigned() {
		return stepCompare{}, false
	}
	k := -1 // the operand that steps
	for j, a := range in.Args {
		if a.Kind == ssa.ArgValue && !a.Not && !a.Value.Uniform && a.Value.Reg.Type != frontend.Pred {
			k = j
		}
	}
	if k < 0 || !e.scalarOperandOK(in.Args[1-k]) {
		return stepCompare{}, false
	}
	v := in.Args[k].Value
	st := e.f.steps.value(v).truncate(t.Bits())
	if !st.ok || st.stride != 1 || e.rewritten(s, in, v) || in.Args[1-k].Kind == ssa.ArgValue && e.rewritten(s, in, in.Args[1-k].Value) {
		return stepCompare{}, false
	}
	if k == 1 {
		cmp = swappedCmp[cmp]
	}
	return stepCompare{in: in, t: t, cmp: cmp, k: k, value: v, slot: e.f.Regs[v.Reg.ID], pred: e.f.Regs[in.Dsts[0].Value.Reg.ID], tid: st.tid}, true
}

// rewritten reports whether an instruction of the block after in, up to the end of the lane
// loop s, writes v's register.
func (e *blockEmit) rewritten(s *segment, in *ssa.Instr, v *ssa.Value) bool {
	i := slices.Index(e.instrs, in)
	last := slices.Index(e.instrs, s.order[len(s.order)-1])
	if i < 0 || last < 0 {
		return true
	}
	slot := e.f.Regs[v.Reg.ID]
	for _, later := range e.instrs[i+1 : last+1] {
		for _, d := range later.Defs {
			if (d.Reg.Type == frontend.Pred) == (v.Reg.Type == frontend.Pred) && e.f.Regs[d.Reg.ID] == slot {
				return true
			}
		}
	}
	return false
}

// lanes returns lane 0's and lane 31's values of the stepping register, exactly in the
// comparison's type, once the loop has run.
func (c stepCompare) lanes(e *blockEmit) (lane0, lane31 jen.Code) {
	r := jen.Id(e.reg(c.slot))
	return c.exact(jen.Add(r).Index(jen.Lit(0))), c.exact(jen.Add(r).Index(jen.Lit(31)))
}

// exact is x converted to int64 through the comparison's type.
func (c stepCompare) exact(x jen.Code) jen.Code {
	if c.t.IsSigned() {
		return jen.Int64().Call(conv(stype(c.t.Bits()), x))
	}
	return jen.Int64().Call(conv(utype(c.t.Bits()), x))
}

// check is true where lane 31's value is lane 0's plus 31 in the comparison's type; key
// names the register and type it tests.
func (c stepCompare) check(e *blockEmit) (check jen.Code, key string) {
	lane0, lane31 := c.lanes(e)
	return jen.Add(lane31).Op("-").Add(lane0).Op("==").Lit(31), fmt.Sprintf("%d %v %d", c.slot, c.t.IsSigned(), c.t.Bits())
}

// mask is the predicate's lanes where check holds.
func (c stepCompare) mask(e *blockEmit) jen.Code {
	lane0, _ := c.lanes(e)
	other := e.scalarOperand(c.in, c.in.Args[1-c.k], c.t)
	return jen.Qual(rtPath, "StepMask").Call(lane0, c.exact(other), jen.Qual(rtPath, c.cmp))
}

// stepCondition is the condition under which StepMask gives the predicates of the
// comparisons cs: each stepping value's lanes 0 and 31 show no wrap, and %tid counts up
// along the warp where a step goes through it.
func (e *blockEmit) stepCondition(cond jen.Code, cs []stepCompare) jen.Code {
	checked := map[string]bool{}
	tid := false
	for _, c := range cs {
		check, key := c.check(e)
		if !checked[key] {
			checked[key] = true
			cond = and(cond, check)
		}
		tid = tid || c.tid
	}
	if tid {
		cond = and(cond, jen.Id("w").Dot("TidLinear"))
	}
	return cond
}

// and is a && b, or b where a is nil.
func and(a, b jen.Code) jen.Code {
	if a == nil {
		return b
	}
	return jen.Add(a).Op("&&").Add(b)
}

// stepPreds returns, for a lane loop of such comparisons only, the condition under which a
// full warp may skip the loop and the predicate writes that replace it; ok is false
// otherwise.
func (e *blockEmit) stepPreds(s *segment) (cond jen.Code, writes []jen.Code, ok bool) {
	if e.lane || e.pass != nil || len(s.order) == 0 || len(s.slows) > 0 {
		return nil, nil, false
	}
	var cs []stepCompare
	for _, in := range s.order {
		c, ok := e.stepCompare(s, in)
		if !ok {
			return nil, nil, false
		}
		cs = append(cs, c)
	}
	for _, c := range cs {
		writes = append(writes, jen.Commentf("%d: %s", c.in.Pos.Line, spelling(c.in)), jen.Id("w").Dot("P").Index(jen.Lit(c.pred)).Op("=").Add(c.mask(e)))
	}
	return e.stepCondition(jen.Id("m").Op("==").Id("0xffffffff"), cs), writes, true
}

// Deferred step comparisons. In a lane loop that does more than compare (the bounds test
// `i = ctaid*ntid + tid; if (i < n)` that opens most kernels), a full warp's loop leaves out
// each such comparison whose predicate nothing else in the loop touches, and sets the
// predicate after it from the stepping value's register: the loop itself stores that value
// for every lane. Where lanes 0 and 31 show a wrap, a loop over the register runs the
// comparisons instead.

// deferredSteps returns the comparisons of the segment that a full warp's loop may leave
// out: each reads its stepping value from a register that holds it for every lane once the
// loop has run, as the loop defines it with a register store (store says which) or reads it
// from the register file, and no other instruction of the loop writes that register, or
// touches the predicate.
func (e *blockEmit) deferredSteps(s *segment) (cs []stepCompare, store map[*ssa.Value]bool) {
	if e.lane || e.pass != nil || len(s.chunks()) > 1 {
		return nil, nil
	}
	stored := map[*ssa.Value]bool{}
	for _, st := range s.stores {
		stored[st.v] = true
	}
	store = map[*ssa.Value]bool{}
	for i, in := range s.order {
		c, ok := e.stepCompare(s, in)
		if !ok {
			continue
		}
		ok = !e.f.anyReadBy(in.Defs[0], s.instrs)
		for j, other := range s.order {
			if other.Guard == in.Defs[0] {
				ok = false
			}
			for _, d := range other.Defs {
				pred := d.Reg.Type == frontend.Pred
				if pred && j != i && e.f.Regs[d.Reg.ID] == c.pred || !pred && d != c.value && e.f.Regs[d.Reg.ID] == c.slot {
					ok = false
				}
				if d == c.value && !stored[d] {
					ok = false
				}
			}
		}
		for _, a := range in.Args {
			if a.Kind == ssa.ArgValue && a.Value != c.value && defOf(a.Value, s.order) != nil {
				ok = false // a lane local of the loop, which the loop after it could not read
			}
		}
		if !ok {
			continue
		}
		if defOf(c.value, s.order) != nil {
			store[c.value] = true
		}
		cs = append(cs, c)
	}
	return cs, store
}

// defOf returns the instruction of order that defines v, or nil.
func defOf(v *ssa.Value, order []*ssa.Instr) *ssa.Instr {
	for _, in := range order {
		if slices.Contains(in.Defs, v) {
			return in
		}
	}
	return nil
}

// deferredLoop is the full warp's code for a segment with the deferred comparisons cs: the
// loop without them, then their predicates from StepMask, or, where the step check fails,
// a loop of just them over the registers.
func (e *blockEmit) deferredLoop(s *segment, cs []stepCompare) jen.Code {
	deferred := map[*ssa.Instr]stepCompare{}
	for _, c := range cs {
		deferred[c.in] = c
	}
	lanes := map[*ssa.Value]laneStore{}
	for _, st := range s.stores {
		lanes[st.v] = st
	}
	var body, again, masks []jen.Code
	declared := map[string]bool{}
	for i, in := range s.order {
		c, ok := deferred[in]
		if !ok {
			body = append(body, s.groups[i]...)
			continue
		}
		if st, ok := lanes[c.value]; ok && !declared[st.name] {
			declared[st.name] = true
			again = append(again, jen.Id(st.name).Op(":=").Id(e.reg(st.slot)).Index(jen.Id("l")))
		}
		again = append(again, s.groups[i]...)
		target := predName(c.pred)
		if s.collected[c.pred] {
			target += "n"
		}
		masks = append(masks, jen.Commentf("%d: %s", in.Pos.Line, spelling(in)), jen.Id(target).Op("=").Add(c.mask(e)))
	}
	return jen.Block(
		jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(body...),
		jen.If(e.stepCondition(nil, cs)).Block(masks...).Else().Block(jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(again...)),
	)
}

// scalarOperandOK reports whether an operand has one value for the whole warp that
// scalarOperand can give: an immediate, a warp-uniform value, or %ntid, %ctaid or %nctaid.
func (e *blockEmit) scalarOperandOK(a ssa.Arg) bool {
	switch a.Kind {
	case ssa.ArgImm:
		return true
	case ssa.ArgSpecial:
		return warpSpecial(a.Name)
	case ssa.ArgValue:
		return !a.Not && a.Value.Uniform && a.Value.Reg.Type != frontend.Pred
	}
	return false
}

// scalarOperand returns the code of an operand scalarOperandOK accepts: the immediate, the
// warp-uniform local or register (lane 0's), or the special register.
func (e *blockEmit) scalarOperand(in *ssa.Instr, a ssa.Arg, t frontend.Type) jen.Code {
	if a.Kind == ssa.ArgValue {
		slot := e.f.Regs[a.Value.Reg.ID]
		if _, ok := e.uni[slot]; !ok {
			return jen.Id(e.reg(slot)).Index(jen.Lit(0))
		}
	}
	return ctx{e: e, scalar: true}.src(in, a, t)
}
