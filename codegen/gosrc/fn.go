package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// generate lays the function out and generates its blocks.
func (f *fnGen) generate() {
	f.assignRegisters()
	f.layoutFrame()
	f.layoutBlocks()
	for _, b := range f.fn.Blocks {
		f.block(b)
	}
	f.blocks = append(f.blocks, blockGen{comment: "the virtual exit", term: jen.Dict{jen.Id("Kind"): jen.Qual(rtPath, "TermNone"), jen.Id("Reconv"): jen.Lit(-1)}})
}

// blockName describes an SSA block for comments: b3 ($L__BB0_2), PTX line 40.
func blockName(b *ssa.Block) string {
	s := fmt.Sprintf("b%d", b.ID)
	if b.Label != "" {
		s += " (" + b.Label + ")"
	}
	return s
}

// block lowers one SSA block into its runtime blocks: code up to each barrier, and a call's
// block of its own, as closure does.
func (f *fnGen) block(b *ssa.Block) {
	var pending []*ssa.Instr
	count := 0
	part := 0
	emit := func(term jen.Dict, comment string) {
		name := ""
		if len(pending) > 0 {
			name = f.g.names.unique(fmt.Sprintf("%sB%d", f.ident[:len(f.ident)-len("Func")], b.ID))
			if part > 0 {
				name = f.g.names.unique(fmt.Sprintf("%sB%d_%d", f.ident[:len(f.ident)-len("Func")], b.ID, part))
			}
			f.emitBlock(name, b, pending)
		}
		lines := ""
		if len(pending) > 0 {
			lines = fmt.Sprintf(", PTX lines %d-%d", pending[0].Pos.Line, pending[len(pending)-1].Pos.Line)
		} else if b.Pos.Line > 0 {
			lines = fmt.Sprintf(", PTX line %d", b.Pos.Line)
		}
		f.blocks = append(f.blocks, blockGen{code: name, ptxInstrs: count, term: term, comment: blockName(b) + lines + comment})
		pending, count = nil, 0
		part++
	}
	for _, in := range b.Instrs {
		count++
		if isBarrier(in) {
			next := int32(len(f.blocks) + 1)
			term := jen.Dict{
				jen.Id("Kind"):    jen.Qual(rtPath, "TermBarrier"),
				jen.Id("Loc"):     jen.Lit(loc(in.Pos)),
				jen.Id("Succ"):    jen.Lit(int(next)),
				jen.Id("Reconv"):  jen.Lit(-1),
				jen.Id("Barrier"): f.barrier(in),
			}
			emit(term, fmt.Sprintf("; %s at line %d", spelling(in), in.Pos.Line))
			continue
		}
		pending = append(pending, in)
	}
	if callNeedsOwnBlock(b) {
		emit(jen.Dict{jen.Id("Kind"): jen.Qual(rtPath, "TermJump"), jen.Id("Succ"): jen.Lit(len(f.blocks) + 1), jen.Id("Reconv"): jen.Lit(-1)}, "; code before the call")
	}
	if explicitTerm(b) {
		count++
	}
	term, comment := f.term(b)
	emit(term, comment)
}

// target maps an SSA block to its first runtime block; the virtual exit to Func.Exit.
func (f *fnGen) target(b *ssa.Block) int32 {
	if b == nil || b == f.fn.Exit {
		return f.exit
	}
	return f.start[b.ID]
}

func (f *fnGen) targetName(b *ssa.Block) string {
	if b == nil || b == f.fn.Exit {
		return "the exit"
	}
	return fmt.Sprintf("block %d (%s)", f.target(b), blockName(b))
}

// term lowers a terminator, with a comment that names a divergent branch's reconvergence point.
func (f *fnGen) term(b *ssa.Block) (jen.Dict, string) {
	t := &b.Term
	d := jen.Dict{jen.Id("Loc"): jen.Lit(loc(t.Pos))}
	reconv := int32(-1)
	comment := ""
	if t.Reconv != nil {
		reconv = f.target(t.Reconv)
	}
	d[jen.Id("Reconv")] = jen.Lit(int(reconv))
	if !t.Divergent {
		d[jen.Id("Uniform")] = jen.True()
	} else if t.Reconv != nil {
		comment = fmt.Sprintf("; divergent, reconverges at %s", f.targetName(t.Reconv))
	}
	kind := func(k string) { d[jen.Id("Kind")] = jen.Qual(rtPath, k) }
	switch t.Kind {
	case ssa.TermJump:
		kind("TermJump")
		d[jen.Id("Succ")] = jen.Lit(int(f.target(b.Succs[0])))
	case ssa.TermBranch:
		kind("TermBranch")
		d[jen.Id("Succ")] = jen.Lit(int(f.target(b.Succs[0])))
		d[jen.Id("Alt")] = jen.Lit(int(f.target(b.Succs[1])))
		d[jen.Id("Pred")] = jen.Lit(f.regs[t.Cond.Reg.ID])
		if t.Negate {
			d[jen.Id("Negate")] = jen.True()
		}
	case ssa.TermBrx:
		kind("TermBrx")
		d[jen.Id("Index")] = jen.Lit(f.regs[t.Index.Reg.ID])
		var tab []jen.Code
		for _, tb := range t.Table {
			tab = append(tab, jen.Lit(int(f.target(tb))))
		}
		d[jen.Id("Table")] = jen.Index().Int32().Values(tab...)
	case ssa.TermCall:
		kind("TermCall")
		d[jen.Id("Succ")] = jen.Lit(int(f.target(b.Succs[0])))
		d[jen.Id("Call")] = f.callSite(t.Call, t.Pos)
	case ssa.TermRet:
		kind("TermJump")
		d[jen.Id("Succ")] = jen.Lit(int(f.exit))
		comment += "; ret"
	case ssa.TermExit:
		kind("TermExit")
	case ssa.TermTrap:
		kind("TermTrap")
	default:
		f.g.errorf(t.Pos, "unsupported terminator")
	}
	return d, comment
}

// callSite lowers a call's target, guard and argument slots as closure does.
func (f *fnGen) callSite(call *ssa.Call, pos frontend.Pos) jen.Code {
	d := jen.Dict{}
	guard, target := -1, -1
	if call.Guard != nil {
		guard = f.regs[call.Guard.Reg.ID]
		if call.GuardNeg {
			d[jen.Id("GuardNeg")] = jen.True()
		}
	}
	if call.Direct != nil {
		callee := f.g.funcs[call.Direct]
		if callee == nil {
			f.g.errorf(pos, "unsupported: call to %s, which is declared but has no body in this module", call.Direct.Name)
		} else {
			f.addCallee(callee)
			d[jen.Id("Direct")] = jen.Id(callee.ident)
		}
	} else {
		target = f.regs[call.Target.Reg.ID]
		var allowed []jen.Code
		for _, t := range call.Targets {
			if c := f.g.funcs[t]; c != nil {
				allowed = append(allowed, jen.Id(c.ident))
				f.addCallee(c)
			}
		}
		if len(allowed) > 0 {
			d[jen.Id("Allowed")] = jen.Index().Op("*").Qual(rtPath, "Func").Values(allowed...)
		}
		if call.Proto != nil {
			proto := sigString(*call.Proto)
			d[jen.Id("Proto")] = jen.Lit(proto)
			if len(call.Targets) == 0 {
				for _, g := range f.g.fnList {
					if g.fn.Kind != frontend.Entry && sigString(g.fn.Sig) == proto {
						f.addCallee(g)
					}
				}
			}
		}
	}
	argSlot := func(a ssa.Arg) slotLayout {
		switch a.Kind {
		case ssa.ArgSym:
			if a.Var != nil && a.Var.Space == frontend.SpaceParam {
				if off, ok := f.param[a.Var]; ok {
					return slotLayout{reg: -1, paramOff: int(off + a.Offset), size: int(a.Var.Size - a.Offset)}
				}
			}
		case ssa.ArgValue:
			if t := a.Value.Reg.Type; t != frontend.B128 {
				return slotLayout{reg: f.regs[a.Value.Reg.ID], pred: t == frontend.Pred, size: t.Bytes()}
			}
		case ssa.ArgImm:
			return slotLayout{reg: f.constSlot(a.Imm), size: 8}
		}
		f.g.errorf(a.Pos, "unsupported call argument")
		return slotLayout{reg: -1}
	}
	add := func(slots []slotLayout, a ssa.Arg) []slotLayout {
		if a.Kind != ssa.ArgVector {
			return append(slots, argSlot(a))
		}
		for _, e := range a.Elems {
			slots = append(slots, argSlot(e))
		}
		return slots
	}
	var args, results []slotLayout
	for _, a := range call.Args {
		args = add(args, a)
	}
	for _, r := range call.Results {
		results = add(results, r)
	}
	d[jen.Id("Guard")] = jen.Lit(guard)
	d[jen.Id("Target")] = jen.Lit(target)
	if args != nil {
		d[jen.Id("Args")] = slotsLit(args)
	}
	if results != nil {
		d[jen.Id("Results")] = slotsLit(results)
	}
	return jen.Op("&").Qual(rtPath, "CallSite").Values(d)
}

// barrier lowers bar.sync/barrier.sync (and bar.arrive, bar.red) into the terminator's operands.
func (f *fnGen) barrier(in *ssa.Instr) jen.Code {
	d := jen.Dict{}
	has := func(m frontend.Mod) bool {
		for _, x := range in.Mods {
			if x == m {
				return true
			}
		}
		return false
	}
	args := in.Args
	if has(frontend.ModRed) {
		f.g.errorf(in.Pos, "instruction %s is not supported by the Go source back end yet", spelling(in))
		return jen.Nil()
	}
	if has(frontend.ModArrive) {
		d[jen.Id("Kind")] = jen.Qual(rtPath, "BarArrive")
	}
	if in.Guard != nil {
		f.g.errorf(in.Pos, "unsupported: %s with a guard", spelling(in))
	}
	slot := func(a ssa.Arg) int {
		switch a.Kind {
		case ssa.ArgValue:
			return f.regs[a.Value.Reg.ID]
		case ssa.ArgImm:
			return f.constSlot(a.Imm & 0xffffffff)
		}
		f.g.errorf(in.Pos, "unsupported: %s with special-register operands", spelling(in))
		return 0
	}
	if len(args) == 0 {
		d[jen.Id("ID")] = jen.Lit(f.constSlot(0))
	} else {
		d[jen.Id("ID")] = jen.Lit(slot(args[0]))
	}
	count := -1
	if len(args) > 1 {
		count = slot(args[1])
	}
	d[jen.Id("Count")] = jen.Lit(count)
	return jen.Op("&").Qual(rtPath, "Barrier").Values(d)
}

// spelling is the instruction's opcode with its modifiers, as written.
func spelling(in *ssa.Instr) string {
	s := in.Op.String()
	for _, m := range in.Mods {
		s += m.String()
	}
	return s
}
