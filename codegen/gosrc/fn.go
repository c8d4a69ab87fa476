package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// generate lays the function out and generates its blocks.
func (f *fnGen) generate() {
	for _, b := range f.Fn.Blocks {
		f.block(b)
	}
	f.blocks = append(f.blocks, blockGen{comment: "the virtual exit", rt: runtime.Term{Kind: runtime.TermNone}, term: jen.Dict{jen.Id("Kind"): jen.Qual(rtPath, "TermNone"), jen.Id("Reconv"): jen.Lit(-1)}})
}

// blockName describes an SSA block for comments: b3 ($L__BB0_2), PTX line 40.
func blockName(b *ssa.Block) string {
	s := fmt.Sprintf("b%d", b.ID)
	if b.Label != "" {
		s += " (" + b.Label + ")"
	}
	return s
}

// block lowers one SSA block into its runtime blocks as codegen/closure does: code up to each
// barrier, code before each warp-level synchronization, and a call's block of its own.
func (f *fnGen) block(b *ssa.Block) {
	var pending []*ssa.Instr
	count := 0
	part := 0
	prof := &runtime.BlockProfile{File: f.Fn.Pos.File}
	emit := func(term jen.Dict, rt runtime.Term, comment string) {
		var body, pass []jen.Code
		if len(pending) > 0 {
			body = f.emitBlock(b, pending)
			if body != nil {
				pass = f.emitWarpPass(pending)
			}
		}
		if s := f.CheckUni(b); s != nil && f.g.check && (rt.Kind == runtime.TermBranch) {
			body = append(body, f.g.checkHooks([]*runtime.CheckSite{s})...)
		}
		lines := ""
		if len(pending) > 0 {
			lines = fmt.Sprintf(", PTX lines %d-%d", pending[0].Pos.Line, pending[len(pending)-1].Pos.Line)
		} else if b.Pos.Line > 0 {
			lines = fmt.Sprintf(", PTX line %d", b.Pos.Line)
		}
		f.blocks = append(f.blocks, blockGen{code: body, ptxInstrs: count, loc: layout.StartLoc(prof), term: term, rt: rt, comment: blockName(b) + lines + comment, instrs: pending, prof: prof, pass: pass, src: b})
		pending, count = nil, 0
		prof = &runtime.BlockProfile{File: f.Fn.Pos.File}
		part++
	}
	for _, in := range b.Instrs {
		if mask, ok := layout.WarpSyncMask(in); ok {
			// The synchronization starts a block of its own, as in codegen/closure: under
			// independent thread scheduling the lanes reaching it wait there (runtime.TermWarpSync).
			ws, _ := f.WarpSync(in, mask) // the table of forms admits registers and immediates only
			term := jen.Dict{
				jen.Id("Kind"):     jen.Qual(rtPath, "TermWarpSync"),
				jen.Id("Loc"):      jen.Lit(layout.Loc(in.Pos)),
				jen.Id("Succ"):     jen.Lit(len(f.blocks) + 1),
				jen.Id("Reconv"):   jen.Lit(-1),
				jen.Id("WarpSync"): warpSyncLit(ws),
			}
			emit(term, runtime.Term{Kind: runtime.TermWarpSync}, fmt.Sprintf("; the lanes wait here for those %s at line %d names", spelling(in), in.Pos.Line))
		}
		count++
		layout.ProfileLine(prof, in.Pos)
		if in.Op == frontend.OpAtom || in.Op == frontend.OpRed {
			prof.Atomics++
		}
		if layout.IsBarrier(in) {
			next := int32(len(f.blocks) + 1)
			term := jen.Dict{
				jen.Id("Kind"):    jen.Qual(rtPath, "TermBarrier"),
				jen.Id("Loc"):     jen.Lit(layout.Loc(in.Pos)),
				jen.Id("Succ"):    jen.Lit(int(next)),
				jen.Id("Reconv"):  jen.Lit(-1),
				jen.Id("Barrier"): f.barrier(in),
			}
			emit(term, runtime.Term{Kind: runtime.TermBarrier}, fmt.Sprintf("; %s at line %d", spelling(in), in.Pos.Line))
			continue
		}
		pending = append(pending, in)
	}
	if layout.CallNeedsOwnBlock(b) {
		next := int32(len(f.blocks) + 1)
		emit(jen.Dict{jen.Id("Kind"): jen.Qual(rtPath, "TermJump"), jen.Id("Succ"): jen.Lit(int(next)), jen.Id("Reconv"): jen.Lit(-1)}, runtime.Term{Kind: runtime.TermJump, Succ: next}, "; code before the call")
	}
	explicit := layout.ExplicitTerm(b)
	if explicit {
		count++
	}
	layout.ProfileTerm(prof, b, explicit)
	term, rt, comment := f.term(b)
	emit(term, rt, comment)
}

func (f *fnGen) targetName(b *ssa.Block) string {
	if b == nil || b == f.Fn.Exit {
		return "the exit"
	}
	return fmt.Sprintf("block %d (%s)", f.Target(b), blockName(b))
}

// term lowers a terminator, with a comment that names a divergent branch's reconvergence point.
func (f *fnGen) term(b *ssa.Block) (jen.Dict, runtime.Term, string) {
	t := &b.Term
	comment := ""
	if t.Divergent && t.Reconv != nil {
		comment = fmt.Sprintf("; divergent, reconverges at %s", f.targetName(t.Reconv))
	}
	if t.Kind == ssa.TermRet {
		comment += "; ret"
	}
	rt := f.Term(b)
	d := jen.Dict{jen.Id("Loc"): jen.Lit(rt.Loc), jen.Id("Reconv"): jen.Lit(int(rt.Reconv))}
	if rt.Uniform {
		d[jen.Id("Uniform")] = jen.True()
	}
	kind := func(k string) { d[jen.Id("Kind")] = jen.Qual(rtPath, k) }
	switch rt.Kind {
	case runtime.TermJump:
		kind("TermJump")
		d[jen.Id("Succ")] = jen.Lit(int(rt.Succ))
	case runtime.TermBranch:
		kind("TermBranch")
		d[jen.Id("Succ")] = jen.Lit(int(rt.Succ))
		d[jen.Id("Alt")] = jen.Lit(int(rt.Alt))
		d[jen.Id("Pred")] = jen.Lit(rt.Pred)
		if rt.Negate {
			d[jen.Id("Negate")] = jen.True()
		}
		if rt.Predicated {
			d[jen.Id("Predicated")] = jen.True()
		}
	case runtime.TermBrx:
		kind("TermBrx")
		d[jen.Id("Index")] = jen.Lit(rt.Index)
		var tab []jen.Code
		for _, x := range rt.Table {
			tab = append(tab, jen.Lit(int(x)))
		}
		d[jen.Id("Table")] = jen.Index().Int32().Values(tab...)
	case runtime.TermCall:
		kind("TermCall")
		d[jen.Id("Succ")] = jen.Lit(int(rt.Succ))
		d[jen.Id("Call")] = f.callSite(rt.Call)
	case runtime.TermExit:
		kind("TermExit")
	case runtime.TermTrap:
		kind("TermTrap")
	}
	return d, rt, comment
}

// callSite is the literal of a call site.
func (f *fnGen) callSite(cs *runtime.CallSite) jen.Code {
	d := jen.Dict{jen.Id("Guard"): jen.Lit(cs.Guard), jen.Id("Target"): jen.Lit(cs.Target)}
	if cs.GuardNeg {
		d[jen.Id("GuardNeg")] = jen.True()
	}
	if cs.Direct != nil {
		d[jen.Id("Direct")] = f.g.funcIdent(cs.Direct)
	}
	if len(cs.Allowed) > 0 {
		var allowed []jen.Code
		for _, rf := range cs.Allowed {
			allowed = append(allowed, f.g.funcIdent(rf))
		}
		d[jen.Id("Allowed")] = jen.Index().Op("*").Qual(rtPath, "Func").Values(allowed...)
	}
	if cs.Proto != "" {
		d[jen.Id("Proto")] = jen.Lit(cs.Proto)
	}
	if cs.Args != nil {
		d[jen.Id("Args")] = slotsLit(cs.Args)
	}
	if cs.Results != nil {
		d[jen.Id("Results")] = slotsLit(cs.Results)
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
	switch {
	case has(frontend.ModArrive):
		d[jen.Id("Kind")] = jen.Qual(rtPath, "BarArrive")
	case has(frontend.ModRed):
		args = f.barRed(in, d)
	}
	// The table of forms (layout.CheckForms) admits no guard and only registers and
	// immediates as operands.
	slot := func(a ssa.Arg) int {
		if a.Kind == ssa.ArgImm {
			return f.ConstSlot(a.Imm & 0xffffffff)
		}
		return f.Regs[a.Value.Reg.ID]
	}
	switch {
	case len(args) == 0:
		d[jen.Id("Fixed")] = jen.True()
	case args[0].Kind == ssa.ArgImm:
		d[jen.Id("Fixed")], d[jen.Id("Num")] = jen.True(), jen.Lit(int(args[0].Imm&0xffffffff))
	default:
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

// warpSyncLit is the literal of a warp-level synchronization's rendezvous.
func warpSyncLit(ws *runtime.WarpSync) jen.Code {
	d := jen.Dict{jen.Id("Mask"): jen.Lit(ws.Mask), jen.Id("Guard"): jen.Lit(ws.Guard), jen.Id("What"): jen.Lit(ws.What)}
	if ws.GuardNeg {
		d[jen.Id("GuardNeg")] = jen.True()
	}
	if ws.Joint {
		d[jen.Id("Joint")] = jen.True()
	}
	return jen.Op("&").Qual(rtPath, "WarpSync").Values(d)
}
