package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
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

// stepPreds returns, for a lane loop of such comparisons only, the condition under which a
// full warp may skip the loop and the predicate writes that replace it; ok is false
// otherwise.
func (e *blockEmit) stepPreds(s *segment) (cond jen.Code, writes []jen.Code, ok bool) {
	if e.lane || e.pass != nil || len(s.order) == 0 || len(s.slows) > 0 {
		return nil, nil, false
	}
	if e.f.steps == nil {
		e.f.steps = newLaneSteps()
	}
	cond = jen.Id("m").Op("==").Id("0xffffffff")
	tid := false
	checked := map[string]bool{} // the registers and types whose steps the condition checks
	for _, in := range s.order {
		t := typeOf(in)
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
			return nil, nil, false
		}
		k := -1 // the operand that steps
		for j, a := range in.Args {
			if a.Kind == ssa.ArgValue && !a.Not && !a.Value.Uniform && a.Value.Reg.Type != frontend.Pred {
				k = j
			}
		}
		if k < 0 {
			return nil, nil, false
		}
		other := e.scalarOperand(in, in.Args[1-k], t)
		if other == nil {
			return nil, nil, false
		}
		st := e.f.steps.value(in.Args[k].Value).truncate(t.Bits())
		if !st.ok || st.stride != 1 {
			return nil, nil, false
		}
		tid = tid || st.tid
		if k == 1 {
			cmp = swappedCmp[cmp]
		}
		exact := func(x jen.Code) jen.Code {
			if t.IsSigned() {
				return jen.Int64().Call(conv(stype(t.Bits()), x))
			}
			return jen.Int64().Call(conv(utype(t.Bits()), x))
		}
		r := e.reg(e.f.Regs[in.Args[k].Value.Reg.ID])
		lane0, lane31 := exact(jen.Id(r).Index(jen.Lit(0))), exact(jen.Id(r).Index(jen.Lit(31)))
		if key := fmt.Sprintf("%s %v %d", r, t.IsSigned(), t.Bits()); !checked[key] {
			checked[key] = true
			cond = jen.Add(cond).Op("&&").Add(lane31).Op("-").Add(lane0).Op("==").Lit(31)
		}
		writes = append(writes, jen.Commentf("%d: %s", in.Pos.Line, spelling(in)),
			jen.Id("w").Dot("P").Index(jen.Lit(e.f.Regs[in.Dsts[0].Value.Reg.ID])).Op("=").Qual(rtPath, "StepMask").Call(lane0, exact(other), jen.Qual(rtPath, cmp)))
	}
	if tid {
		cond = jen.Add(cond).Op("&&").Id("w").Dot("TidLinear")
	}
	return cond, writes, true
}

// scalarOperand returns an operand's one value for the whole warp, or nil: an immediate, a
// warp-uniform local or register (lane 0's), or %ntid, %ctaid or %nctaid.
func (e *blockEmit) scalarOperand(in *ssa.Instr, a ssa.Arg, t frontend.Type) jen.Code {
	switch a.Kind {
	case ssa.ArgImm:
	case ssa.ArgSpecial:
		if !warpSpecial(a.Name) {
			return nil
		}
	case ssa.ArgValue:
		if a.Not || !a.Value.Uniform || a.Value.Reg.Type == frontend.Pred {
			return nil
		}
		slot := e.f.Regs[a.Value.Reg.ID]
		if _, ok := e.uni[slot]; !ok {
			return jen.Id(e.reg(slot)).Index(jen.Lit(0))
		}
	default:
		return nil
	}
	return ctx{e: e, scalar: true}.src(in, a, t)
}
