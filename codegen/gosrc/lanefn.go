package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Per-lane functions. A device function whose calls cannot let a lane see anything but its
// own registers and .param variables (layout.LaneFuncs: arithmetic, its own parameters and
// results, calls to other such functions) also gets a second Go function, a runtime.LaneFunc,
// that runs one lane's whole call: its registers and predicates in Go locals, its blocks
// joined by goto as in a per-lane region (region.go), its .param area a byte slice of the
// lane's own, and its calls to per-lane functions Go calls, so recursion is Go recursion.
// Every call site of the function then goes through runtime.Warp.CallLanes, which runs the
// call lane after lane where the launch allows it and falls back to the SIMT path
// (CallInline) otherwise: with statistics or the sanitizer, past the call depth (the stack
// overflow fault), or for a lane still running after runtime.LaneSteps loop iterations and
// calls (see runtime/lanecall.go). A module generated with check hooks gets no per-lane
// functions.

// laneFuncs generates the per-lane function of every function that qualifies, is called
// directly and whose code this back end can generate per lane, and records their names in g.laneFns for the call
// sites (run.go). A function whose code it cannot generate is dropped, and with it every
// function calling it.
func (g *gen) laneFuncs() {
	if g.check {
		return
	}
	ok := layout.LaneFuncs(g.prog)
	// Only direct calls use them: a function only called through a pointer gets none.
	called := map[*ssa.Function]bool{}
	for _, fn := range g.prog.Funcs {
		for _, b := range fn.Blocks {
			if c := b.Term.Call; c != nil && c.Direct != nil && c.Guard == nil {
				called[c.Direct] = true
			}
		}
	}
	names := map[*ssa.Function]string{}
	for _, f := range g.fnList {
		if ok[f.Fn] && called[f.Fn] && inParamArea(f.RF.Params) && inParamArea(f.RF.Results) {
			names[f.Fn] = g.names.unique(f.ident[:len(f.ident)-len("Func")] + "Lane")
		}
	}
	for {
		var decls []jen.Code
		var failed *fnGen
		for _, f := range g.fnList {
			if names[f.Fn] == "" {
				continue
			}
			d := f.laneFunc(names)
			if d == nil {
				failed = f
				break
			}
			decls = append(decls, d)
		}
		if failed == nil {
			g.laneFns = names
			g.decls = append(g.decls, decls...)
			return
		}
		delete(names, failed.Fn)
		dropLaneCallers(names)
	}
}

// dropLaneCallers removes from names every function that calls one not in names, until
// none is left.
func dropLaneCallers(names map[*ssa.Function]string) {
	for changed := true; changed; {
		changed = false
		for fn := range names {
			for _, b := range fn.Blocks {
				if c := b.Term.Call; c != nil && names[c.Direct] == "" {
					delete(names, fn)
					changed = true
					break
				}
			}
		}
	}
}

// inParamArea reports whether every slot lives in the .param area, which a LaneFunc receives
// (runtime.Warp.CallLanes copies arguments into it and results out of it).
func inParamArea(slots []runtime.Slot) bool {
	for _, s := range slots {
		if s.Reg >= 0 {
			return false
		}
	}
	return true
}

// laneFunc generates the per-lane function of f (runtime.LaneFunc), whose name and those of
// the per-lane functions it calls are in names, or returns nil where some code of f cannot be
// generated per lane.
func (f *fnGen) laneFunc(names map[*ssa.Function]string) jen.Code {
	e := &blockEmit{f: f, regs: map[int]bool{}, imms: map[uint64]string{}, uni: map[int]string{}, local: map[*ssa.Instr]bool{},
		read: map[string]bool{}, lane: true, written: map[int]bool{}}
	preds, tids := map[int]bool{}, map[int]bool{}
	errs, nwin := len(f.g.errs), f.g.nwin
	fail := func() jen.Code {
		f.g.errs, f.g.nwin = f.g.errs[:errs], nwin
		return nil
	}
	targets := map[int32]bool{}
	label := func(pc int32) string {
		targets[pc] = true
		if pc >= f.Exit {
			return "done"
		}
		return fmt.Sprintf("b%d", pc)
	}
	// A call starts at block 0; the blocks it cannot reach are left out, as Go would find them
	// unreachable.
	reach, heads := f.walkBlocks(f.Exit, 0)
	// step counts a loop-head pass or a call, and gives up past runtime.LaneSteps.
	step := jen.If(jen.Id("steps").Op("++"), jen.Id("steps").Op(">").Qual(rtPath, "LaneSteps")).Block(jen.Return(jen.Id("steps"), jen.False()))
	type labelled struct {
		pc   int32
		body []jen.Code
	}
	var blocks []labelled
	for i, b := range f.blocks {
		pc := int32(i)
		if b.rt.Kind == runtime.TermNone || !reach[pc] {
			continue
		}
		var body []jen.Code
		if heads[pc] {
			body = append(body, step)
		}
		if len(b.instrs) > 0 {
			e.seg = newSegment(&f.g.nwin)
			for _, in := range b.instrs {
				if (in.Op == frontend.OpLd || in.Op == frontend.OpSt) && !e.laneParamOK(in) {
					return fail()
				}
				// Each lane has its own .param area: its accesses need not end the loop.
				e.seg.mem = segNoMem
				e.instr(in)
				if e.bad || e.seg == nil || len(e.stmts) > 0 {
					return fail()
				}
			}
			s := e.seg
			e.seg = nil
			body = append(body, s.body...)
			for p := range s.preds {
				preds[p] = true
			}
			for x := range s.tid {
				tids[x] = true
			}
		}
		switch t := b.rt; t.Kind {
		case runtime.TermJump:
			body = append(body, jen.Goto().Id(label(t.Succ)))
		case runtime.TermBranch:
			preds[t.Pred] = true
			cond := jen.Id(laneBool(t.Pred))
			if t.Negate {
				cond = jen.Op("!").Add(cond)
			}
			body = append(body, jen.If(cond).Block(jen.Goto().Id(label(t.Succ))), jen.Goto().Id(label(t.Alt)))
		case runtime.TermCall:
			call := f.laneCall(e, t.Call, names, step)
			if call == nil {
				return fail()
			}
			body = append(body, jen.Block(call...), jen.Goto().Id(label(t.Succ)))
		default:
			return fail()
		}
		blocks = append(blocks, labelled{pc, body})
	}
	var code []jen.Code
	code = append(code,
		jen.Comment("The lane's own .param area, which its accesses index from offset 0."),
		jen.Id("pmp").Op(":=").Qual(rtPath, "MemPtr").Call(jen.Id("pa")),
		jen.Const().Id("pmStride").Op("=").Uint64().Call(jen.Lit(0)),
		jen.Id("_").Op("=").Id("pmp"))
	code = append(code, e.top...)
	consts := map[int]uint64{}
	for _, c := range f.Consts() {
		consts[c.Reg] = c.Value
	}
	// An activation starts with zeroed registers (runtime.Func.ZeroRegs) and predicates.
	for _, s := range sortedKeys(e.regs) {
		x := fmt.Sprintf("x%d", s)
		code = append(code, jen.Id(x).Op(":=").Uint64().Call(jen.Id(fmt.Sprintf("%#x", consts[s]))), jen.Id("_").Op("=").Id(x))
	}
	for _, p := range sortedKeys(preds) {
		code = append(code, jen.Id(laneBool(p)).Op(":=").False(), jen.Id("_").Op("=").Id(laneBool(p)))
	}
	for _, x := range sortedKeys(tids) {
		code = append(code, jen.Id(fmt.Sprintf("tid%d", x)).Op(":=").Op("&").Id("w").Dot("Tid").Index(jen.Lit(x)))
	}
	for _, b := range blocks {
		if targets[b.pc] {
			code = append(code, jen.Id(fmt.Sprintf("b%d", b.pc)).Op(":").Block(b.body...))
		} else {
			code = append(code, jen.Block(b.body...))
		}
	}
	if targets[f.Exit] {
		code = append(code, jen.Id("done").Op(":"), jen.Return(jen.Id("steps"), jen.True()))
	}
	name := names[f.Fn]
	return jen.Comment(fmt.Sprintf("%s runs a call of %s %s for lane l alone (runtime.LaneFunc, codegen/gosrc/lanefn.go): pa starts with", name, kindName(f.Fn), f.Fn.Name)).Line().
		Comment(fmt.Sprintf("the lane's .param area (%d bytes), with the arguments and, on return, the results, and its callees' areas follow;", f.RF.ParamSize)).Line().
		Comment("calls is how many calls it may still nest;").Line().
		Comment("it returns steps plus its loop-head passes and calls, and false where it gave up.").Line().
		Func().Id(name).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("l").Int(), jen.Id("pa").Index().Byte(), jen.List(jen.Id("calls"), jen.Id("steps")).Int()).
		Params(jen.Int(), jen.Bool()).Block(code...)
}

// laneParamOK reports whether a load or store runs in a per-lane function: an unguarded
// scalar access of a .param variable of the frame at a constant offset, aligned and inside
// the area, which cannot fault (ctx.frameParam).
func (e *blockEmit) laneParamOK(in *ssa.Instr) bool {
	if in.Guard != nil || layout.InstrSpace(in) != frontend.SpaceParam || !e.laneMemOK(in) {
		return false
	}
	ad := e.memOperand(in, memArgs(in)[0])
	return ad != nil && ctx{e: e}.frameParam(ad, layout.InstrType(in).Bytes())
}

// laneCall is the code of a call inside a per-lane function: the arguments copied into the
// callee's .param area, zeroed, as runtime.copySlot copies them, the call of its
// per-lane function (step counts it), and the results copied back; nil where the call site
// passes a predicate or a register of a size the copy does not handle.
func (f *fnGen) laneCall(e *blockEmit, cs *runtime.CallSite, names map[*ssa.Function]string, step jen.Code) []jen.Code {
	callee := f.g.fnList[cs.Direct.Index]
	name := names[callee.Fn]
	if name == "" {
		return nil
	}
	sized := func(n int) bool { return n == 1 || n == 2 || n == 4 || n == 8 }
	// The callee's area follows the caller's in the lane's buffer (runtime.LaneFunc).
	own, size := f.RF.ParamSize, callee.RF.ParamSize
	code := []jen.Code{
		jen.If(jen.Len(jen.Id("pa")).Op("<").Lit(own + size).Op("||").Id("calls").Op("==").Lit(0)).Block(jen.Return(jen.Id("steps"), jen.False())),
		jen.Id("ca").Op(":=").Id("pa").Index(jen.Lit(own), jen.Empty()),
		jen.Clear(jen.Id("ca").Index(jen.Empty(), jen.Lit(size))),
	}
	for i, s := range cs.Args {
		d := callee.RF.Params[i]
		switch n := min(s.Size, d.Size); {
		case s.Pred:
			return nil
		case s.Reg >= 0:
			if !sized(min(d.Size, 8)) {
				return nil
			}
			code = append(code, storeLE(jen.Id("ca"), jen.Lit(d.ParamOff), min(d.Size, 8), e.laneReg(s.Reg)))
		default:
			code = append(code, jen.Copy(jen.Id("ca").Index(jen.Lit(d.ParamOff), jen.Lit(d.ParamOff+n)), jen.Id("pa").Index(jen.Lit(s.ParamOff), jen.Empty())))
		}
	}
	code = append(code,
		step,
		jen.Var().Id("ok").Bool(),
		jen.If(jen.List(jen.Id("steps"), jen.Id("ok")).Op("=").Id(name).Call(jen.Id("w"), jen.Id("l"), jen.Id("ca"), jen.Id("calls").Op("-").Lit(1), jen.Id("steps")), jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Id("steps"), jen.False())))
	for i, d := range cs.Results {
		s := callee.RF.Results[i]
		switch n := min(s.Size, d.Size); {
		case d.Pred:
			return nil
		case d.Reg >= 0:
			if !sized(min(s.Size, 8)) {
				return nil
			}
			e.written[d.Reg] = true
			code = append(code, jen.Add(e.laneReg(d.Reg)).Op("=").Add(loadLE(jen.Id("ca"), jen.Lit(s.ParamOff), min(s.Size, 8))))
		default:
			code = append(code, jen.Copy(jen.Id("pa").Index(jen.Lit(d.ParamOff), jen.Lit(d.ParamOff+n)), jen.Id("ca").Index(jen.Lit(s.ParamOff), jen.Empty())))
			if d.Size > n {
				code = append(code, jen.Clear(jen.Id("pa").Index(jen.Lit(d.ParamOff+n), jen.Lit(d.ParamOff+d.Size))))
			}
		}
	}
	return code
}

// walkBlocks walks the blocks depth-first from starts, through jumps, branches and calls'
// returns, up to stop and the function's exit. It returns the blocks it reached and its loop
// heads, the blocks a back edge of the walk goes to: every loop has one, so a lane that never
// leaves a loop passes one again and again.
func (f *fnGen) walkBlocks(stop int32, starts ...int32) (reached, heads map[int32]bool) {
	reached, heads = map[int32]bool{}, map[int32]bool{}
	onPath := map[int32]bool{}
	var walk func(pc int32)
	walk = func(pc int32) {
		if pc == stop || pc >= f.Exit {
			return
		}
		if onPath[pc] {
			heads[pc] = true
			return
		}
		if reached[pc] {
			return
		}
		reached[pc], onPath[pc] = true, true
		switch rt := f.blocks[pc].rt; rt.Kind {
		case runtime.TermJump, runtime.TermCall:
			walk(rt.Succ)
		case runtime.TermBranch:
			walk(rt.Succ)
			walk(rt.Alt)
		}
		onPath[pc] = false
	}
	for _, pc := range starts {
		walk(pc)
	}
	return reached, heads
}
