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
// own registers, .param variables and local memory (layout.LaneFuncsLocal: arithmetic, its own
// parameters and results, loads and stores through pointers into its lane's local memory,
// calls to other such functions) also gets a second Go function, a runtime.LaneFunc, that
// runs one lane's whole call: its registers and predicates in Go locals, its blocks joined by
// goto as in a per-lane region (region.go), its .param area a byte slice of the lane's own,
// its local accesses checked and made directly (lanelocal.go), and its calls to per-lane
// functions Go calls, so recursion is Go recursion; and a runtime.LaneLoop that runs a call
// site's call with it for each lane. Every call site of the function then goes through
// runtime.Warp.CallLanes, which runs the call lane after lane where the launch allows it and
// falls back to the SIMT path (CallInline) otherwise: with statistics or the sanitizer, past
// the call depth (the stack overflow fault), for a lane still running after
// runtime.LaneSteps loop iterations and calls, or at an address that is not the lane's local
// memory or would fault (see runtime/lanecall.go and runtime/lanelocal.go). A module
// generated with check hooks gets no per-lane functions.

// laneFuncs generates the per-lane function of every function that qualifies, is called
// directly and whose code this back end can generate per lane, with its loop over a call's
// lanes (laneLoop), whose names it records in g.laneFns for the call sites (run.go). A
// function whose code it cannot generate is dropped, and with it every function calling it.
func (g *gen) laneFuncs() {
	if g.check {
		return
	}
	ok := layout.LaneFuncsLocal(g.prog)
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
		if _, lane := ok[f.Fn]; lane && called[f.Fn] && inParamArea(f.RF.Params) && inParamArea(f.RF.Results) {
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
			g.laneFns = map[*ssa.Function]string{}
			for _, f := range g.fnList {
				if names[f.Fn] != "" {
					g.laneFns[f.Fn] = g.names.unique(names[f.Fn] + "s")
					decls = append(decls, f.laneLoop(g.laneFns[f.Fn], names[f.Fn], ok[f.Fn]))
				}
			}
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
	preds, tids, ends := map[int]bool{}, map[int]bool{}, map[int]bool{}
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
					if !e.laneLocal(in, ends) {
						return fail()
					}
					continue
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
	code = append(code, laneLocalPre(ends)...)
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
		Comment("u is the lane's local memory; calls is how many calls it may still nest;").Line().
		Comment("it returns steps plus its loop-head passes and calls, and false where it gave up.").Line().
		Func().Id(name).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("l").Int(), jen.Id("pa").Index().Byte(), jen.Id("u").Op("*").Qual(rtPath, "LaneLocal"), jen.List(jen.Id("calls"), jen.Id("steps")).Int()).
		Params(jen.Int(), jen.Bool()).Block(code...)
}

// laneLoop is the runtime.LaneLoop named name of f, whose per-lane function is lane: for each
// lane, the callee's .param area at the start of pa zeroed, the arguments copied in, the
// lane's local memory chosen where the function reaches it (local), the call, and the results
// copied out. An argument or result of 4 or 8 bytes that the call site keeps in a .param
// variable of the same size is one move; any other goes through runtime.Warp.LaneArg or
// LaneResult.
func (f *fnGen) laneLoop(name, lane string, local bool) jen.Code {
	size := f.RF.ParamSize
	var pre, each []jen.Code
	frame := []jen.Code{jen.Id("fp").Op(":=").Id("w").Dot("Param"), jen.Id("fs").Op(":=").Id("w").Dot("Fn").Dot("ParamSize")}
	if size > 0 {
		each = append(each, jen.Op("*").Parens(jen.Op("*").Index(jen.Lit(size)).Byte()).Parens(jen.Id("pa")).Op("=").Index(jen.Lit(size)).Byte().Values())
	}
	// move is the copy of the call site's slot x (an argument or a result) to or from the
	// callee's slot c: fast, the one move, where the call site's slot allows it, else slow.
	move := func(x string, c runtime.Slot, fast func(frame jen.Code) jen.Code, slow jen.Code) jen.Code {
		if c.Size != 4 && c.Size != 8 {
			return slow
		}
		pre, frame = append(pre, frame...), nil
		pre = append(pre,
			jen.Id(x+"o").Op(":=").Id(x).Dot("ParamOff"),
			jen.Id(x+"f").Op(":=").Id(x).Dot("Reg").Op("<").Lit(0).Op("&&").Id(x).Dot("Size").Op("==").Lit(c.Size))
		frame := jen.Id("fp").Index(jen.Id("l").Op("*").Id("fs").Op("+").Id(x+"o"), jen.Empty())
		return jen.If(jen.Id(x + "f")).Block(fast(frame)).Else().Block(slow)
	}
	for i, d := range f.RF.Params {
		a := fmt.Sprintf("a%d", i)
		pre = append(pre, jen.Id(a).Op(":=").Op("&").Id("cs").Dot("Args").Index(jen.Lit(i)))
		area := jen.Id("pa").Index(jen.Lit(d.ParamOff), jen.Lit(d.ParamOff+d.Size))
		each = append(each, move(a, d,
			func(frame jen.Code) jen.Code {
				return storeLE(jen.Id("pa"), jen.Lit(d.ParamOff), d.Size, loadLE(frame, jen.Lit(0), d.Size))
			},
			jen.Id("w").Dot("LaneArg").Call(jen.Id(a), jen.Id("l"), area)))
	}
	if local {
		each = append(each, jen.Id("u").Dot("SetLane").Call(jen.Id("w"), jen.Id("l")))
	}
	each = append(each,
		jen.List(jen.Id("n"), jen.Id("ok")).Op(":=").Id(lane).Call(jen.Id("w"), jen.Id("l"), jen.Id("pa"), jen.Id("u"), jen.Id("calls"), jen.Lit(0)),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Lit(0), jen.False())),
		jen.Id("most").Op("=").Max(jen.Id("most"), jen.Id("n")))
	for i, s := range f.RF.Results {
		r := fmt.Sprintf("r%d", i)
		pre = append(pre, jen.Id(r).Op(":=").Op("&").Id("cs").Dot("Results").Index(jen.Lit(i)))
		area := jen.Id("pa").Index(jen.Lit(s.ParamOff), jen.Lit(s.ParamOff+s.Size))
		each = append(each, move(r, s,
			func(frame jen.Code) jen.Code {
				return storeLE(frame, jen.Lit(0), s.Size, loadLE(jen.Id("pa"), jen.Lit(s.ParamOff), s.Size))
			},
			jen.Id("w").Dot("LaneResult").Call(jen.Id(r), jen.Id("l"), area)))
	}
	body := append(pre,
		jen.Id("most").Op(":=").Lit(0),
		jen.For(jen.Id("mm").Op(":=").Id("m"), jen.Id("mm").Op("!=").Lit(0), jen.Id("mm").Op("&=").Id("mm").Op("-").Lit(1)).Block(
			append([]jen.Code{jen.Id("l").Op(":=").Qual("math/bits", "TrailingZeros32").Call(jen.Id("mm")).Op("&").Lit(runtime.WarpSize - 1)}, each...)...),
		jen.Return(jen.Id("most"), jen.True()))
	return jen.Comment(fmt.Sprintf("%s runs a call of %s %s for each lane of m with %s (runtime.LaneLoop, codegen/gosrc/lanefn.go).", name, kindName(f.Fn), f.Fn.Name, lane)).Line().
		Func().Id(name).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("cs").Op("*").Qual(rtPath, "CallSite"), jen.Id("m").Uint32(), jen.Id("pa").Index().Byte(), jen.Id("u").Op("*").Qual(rtPath, "LaneLocal"), jen.Id("calls").Int()).
		Params(jen.Int(), jen.Bool()).Block(body...)
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
		jen.If(jen.List(jen.Id("steps"), jen.Id("ok")).Op("=").Id(name).Call(jen.Id("w"), jen.Id("l"), jen.Id("ca"), jen.Id("u"), jen.Id("calls").Op("-").Lit(1), jen.Id("steps")), jen.Op("!").Id("ok")).Block(
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
