package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/runtime"
)

// runFunc generates the function's block chain (runtime.Func.Run): a switch on the first
// block, then each block's code, which follows its jump, or its branch when every lane goes
// the same way, with a goto to the next block's code, without going back to the runtime's
// trampoline. A divergent branch runs each path's chain in turn through the runtime
// (Warp.DivergeInline), and goes on with all the lanes at the reconvergence point. A direct
// call goes on into the callee's chain through the runtime (Warp.CallInline), and on after it
// when every lane returns. Whatever else needs the SIMT stack (a barrier, the exit, the end of
// the time slice) returns to the runtime, which runs the last block's terminator.
//
// Each block's code is a function of its own, called from the chain: the Go compiler inlines
// small helpers (loads, stores, float operations) only into functions of moderate size, and
// allocates registers better in them, so one function for a whole kernel would run slower.
func (f *fnGen) runFunc() (string, []jen.Code) {
	base := f.ident[:len(f.ident)-len("Func")]
	name := f.g.names.unique(base + "Run")
	plan := f.regionPlan()
	blockFns := map[int]string{}
	for i, b := range f.blocks {
		if b.rt.Kind != runtime.TermNone && b.instrs != nil {
			blockFns[i] = f.g.names.unique(fmt.Sprintf("%sBlock%d", base, i))
		}
	}
	// blockBody is the chain's code for block pc.
	type blockBody struct {
		pc   int
		code []jen.Code
	}
	var bodies []blockBody
	var blockDecls []jen.Code
	follows := false    // whether any block goes on to another within the chain
	dispatched := false // whether a block goes on at a block the runtime chose
	label := func(i int) string { return fmt.Sprintf("block%d", i) }
	// goOn is the code that goes on from the block the chain stands at (pc) to block k,
	// unless k is the running SIMT entry's end (stop) or the exit, or the time slice ends.
	goOn := func(k int32) []jen.Code {
		follows = true
		if k >= f.Exit {
			return []jen.Code{jen.Return(jen.Id("pc"), jen.Id("budget"))}
		}
		return []jen.Code{
			jen.If(jen.Id("stop").Op("==").Lit(int(k)).Op("||").Id("budget").Op("<=").Lit(1)).Block(jen.Return(jen.Id("pc"), jen.Id("budget"))),
			jen.List(jen.Id("pc"), jen.Id("budget")).Op("=").List(jen.Lit(int(k)), jen.Id("budget").Op("-").Lit(1)),
			jen.Goto().Id(label(int(k))),
		}
	}
	for i, b := range f.blocks {
		if b.rt.Kind == runtime.TermNone {
			continue
		}
		body := []jen.Code{jen.Comment(b.comment)}
		if t := f.traceOf(i); t != nil {
			if code := f.emitPass(t.instrs, t.guard); code != nil {
				traceFn := f.g.names.unique(fmt.Sprintf("%sTrace%d", base, i))
				blockDecls = append(blockDecls, jen.Comment(fmt.Sprintf("%s runs blocks %d and %d of %s %s for a full warp whose lanes all go from one to the other, in one", traceFn, i, t.second, kindName(f.Fn), f.Fn.Name)).Line().
					Comment("pass over the lanes where its accesses allow (codegen/gosrc/trace.go), and reports whether it did.").Line().
					Func().Id(traceFn).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("m").Uint32(), jen.Id("budget").Int()).Bool().Block(code...))
				pass := f.g.npass
				f.g.npass++
				j := t.second
				body = append(body, jen.If(jen.Id("m").Op("==").Id("0xffffffff").Op("&&").Id("budget").Op(">").Lit(1).Op("&&").Id("stop").Op("!=").Lit(j).Op("&&").
					Id("w").Dot("PassOK").Call(jen.Lit(pass)).Op("&&").Id("w").Dot("PassDone").Call(jen.Lit(pass), jen.Id(traceFn).Call(jen.Id("w"), jen.Id("m"), jen.Id("budget")))).Block(
					append([]jen.Code{
						jen.Comment(fmt.Sprintf("blocks %d and %d ran: on from block %d", i, j, j)),
						jen.List(jen.Id("pc"), jen.Id("budget")).Op("=").List(jen.Lit(j), jen.Id("budget").Op("-").Lit(1)),
					}, goOn(f.blocks[j].rt.Succ)...)...))
			}
		}
		if b.instrs != nil {
			blockFn := blockFns[i]
			code := b.code
			if b.pass != nil {
				passFn := f.g.names.unique(blockFn + "Warp")
				blockDecls = append(blockDecls, jen.Comment(fmt.Sprintf("%s runs block %d of %s %s for a full warp in one pass over the lanes where its", passFn, i, kindName(f.Fn), f.Fn.Name)).Line().
					Comment("accesses allow (codegen/gosrc/warppass.go), and reports whether it did.").Line().
					Func().Id(passFn).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("m").Uint32(), jen.Id("budget").Int()).Bool().Block(b.pass...))
				pass := f.g.npass
				f.g.npass++
				code = append([]jen.Code{jen.If(jen.Id("m").Op("==").Id("0xffffffff").Op("&&").Id("budget").Op("!=").Lit(0).Op("&&").Id("w").Dot("PassOK").Call(jen.Lit(pass)).Op("&&").
					Id("w").Dot("PassDone").Call(jen.Lit(pass), jen.Id(passFn).Call(jen.Id("w"), jen.Id("m"), jen.Id("budget")))).Block(jen.Return())}, code...)
			}
			blockDecls = append(blockDecls, jen.Comment(fmt.Sprintf("%s runs block %d of %s %s for the lanes m (budget 0: counting statistics).", blockFn, i, kindName(f.Fn), f.Fn.Name)).Line().
				Comment(b.comment).Line().
				Func().Id(blockFn).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("m").Uint32(), jen.Id("budget").Int()).Block(code...))
			body = append(body, jen.Id(blockFn).Call(jen.Id("w"), jen.Id("m"), jen.Id("budget")),
				jen.If(jen.Id("budget").Op("==").Lit(0)).Block(jen.Return(jen.Id("pc"), jen.Lit(0))))
		}
		switch b.rt.Kind {
		case runtime.TermJump:
			body = append(body, goOn(b.rt.Succ)...)
		case runtime.TermBranch:
			p := jen.Id("w").Dot("P").Index(jen.Lit(b.rt.Pred))
			if b.rt.Negate {
				p = jen.Op("^").Add(p)
			}
			// The lanes split: each runs a region on its own (region.go) unless the running
			// SIMT entry ends inside it.
			var diverged []jen.Code
			for _, r := range plan[i] {
				var in []jen.Code
				for _, x := range r.blocks {
					in = append(in, jen.Lit(x))
				}
				diverged = append(diverged, jen.Switch(jen.Id("stop")).Block(jen.Case(in...), jen.Default().Block(
					jen.Return(jen.Qual(rtPath, "RunDone"), jen.Id("budget").Op("-").Id(r.fn).Call(jen.Id("w"), jen.Id("m"), jen.Id("pc"))))))
			}
			if taken, other, ok := f.ifThen(i); ok {
				diverged = append(diverged, f.ifThenCode(blockFns, taken, other, goOn(b.rt.Reconv))...)
			} else {
				dispatched = true
				// Both paths run from here, down to the reconvergence point, where the chain
				// goes on with all the lanes (runtime.Warp.DivergeInline).
				term := jen.Op("&").Id(f.ident).Dot("Blocks").Index(jen.Lit(i)).Dot("Term")
				diverged = append(diverged,
					jen.If(jen.List(jen.Id("pc"), jen.Id("m"), jen.Id("budget")).Op("=").Id("w").Dot("DivergeInline").Call(jen.Id("pc"), term, jen.Id("m"), jen.Id("t"), jen.Id("stop"), jen.Id("budget")),
						jen.Id("pc").Op("==").Qual(rtPath, "RunDone")).Block(jen.Return(jen.Id("pc"), jen.Id("budget"))),
					jen.Goto().Id("dispatch"))
			}
			body = append(body,
				jen.Id("t").Op(":=").Id("m").Op("&").Add(p),
				jen.If(jen.Id("t").Op("==").Id("m")).Block(goOn(b.rt.Succ)...).
					Else().If(jen.Id("t").Op("==").Lit(0)).Block(goOn(b.rt.Alt)...).
					Else().Block(diverged...))
		case runtime.TermCall:
			cs := b.rt.Call
			if cs.Direct == nil || cs.Direct.Builtin != runtime.BuiltinNone || cs.Guard >= 0 || b.rt.Succ == int32(i) {
				body = append(body, jen.Return(jen.Id("pc"), jen.Id("budget")))
				break
			}
			// A direct call every lane makes: the callee's chain runs it (runtime.Warp.CallInline),
			// or its per-lane function each lane's call where the callee has one (lanefn.go).
			follows = true
			term := jen.Op("&").Id(f.ident).Dot("Blocks").Index(jen.Lit(i)).Dot("Term")
			call := jen.Id("w").Dot("CallInline").Call(jen.Id("pc"), term, jen.Id("m"), jen.Id("stop"), jen.Id("budget"))
			if lane := f.g.laneFns[f.g.fnList[cs.Direct.Index].Fn]; lane != "" {
				call = jen.Id("w").Dot("CallLanes").Call(jen.Id("pc"), term, jen.Id("m"), jen.Id("stop"), jen.Id("budget"), jen.Id(lane))
			}
			body = append(body,
				jen.If(jen.List(jen.Id("pc"), jen.Id("budget")).Op("=").Add(call),
					jen.Id("pc").Op("!=").Lit(int(b.rt.Succ))).Block(jen.Return(jen.Id("pc"), jen.Id("budget"))),
				jen.Goto().Id(label(int(b.rt.Succ))))
		default:
			body = append(body, jen.Return(jen.Id("pc"), jen.Id("budget")))
		}
		bodies = append(bodies, blockBody{i, body})
	}
	// Where every block hands back to the runtime (no jumps or branches), the chain is one
	// block long: a switch runs it. Otherwise the switch only finds the first block: each
	// block's code is a labelled section that goes on to the next with a goto, and a divergent
	// branch run by the runtime comes back to the switch for the block it goes on at.
	var cases, code []jen.Code
	for _, b := range bodies {
		if follows {
			cases = append(cases, jen.Case(jen.Lit(b.pc)).Block(jen.Goto().Id(label(b.pc))))
		} else {
			cases = append(cases, jen.Case(jen.Lit(b.pc)).Block(b.code...))
		}
	}
	if dispatched {
		code = append(code, jen.Id("dispatch").Op(":"))
	}
	code = append(code, jen.Switch(jen.Id("pc")).Block(cases...), jen.Return(jen.Id("pc"), jen.Id("budget")))
	if follows {
		for _, b := range bodies {
			code = append(code, jen.Id(label(b.pc)).Op(":").Block(b.code...))
		}
	}
	return name, append([]jen.Code{jen.Comment(fmt.Sprintf("%s runs blocks of %s %s for the lanes m from block pc, following jumps and branches all of them take", name, kindName(f.Fn), f.Fn.Name)).Line().
		Comment("(runtime.Func.Run).").Line().
		Func().Id(name).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("pc").Int32(), jen.Id("m").Uint32(), jen.Id("stop").Int32(), jen.Id("budget").Int()).
		Params(jen.Int32(), jen.Int()).Block(code...)}, blockDecls...)
}
