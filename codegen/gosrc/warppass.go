package gosrc

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Warp passes. A block whose lane work is arithmetic with scalar loads and stores of
// global or shared memory also gets a pass for a full warp (the block function's Warp
// variant) that runs all of it in one loop over the lanes, stores included, each access a
// plain move at a per-warp base plus the lane's offset: no address arithmetic, bounds or
// alignment check, slow path or register-file round trip between a load loop and a store
// loop. A first loop over the lanes computes only the addresses and shows, before anything
// else runs, that every access is contiguous (lane l's address is lane 0's plus l times the
// access size), in bounds of the allocation its ordinary code last touched (runtime.Window)
// or of shared memory, and aligned for the whole warp, and that each store's bytes are apart
// from every other access's or the very same bytes lane for lane (an in-place update, where
// each lane reads and writes only its own element). Then no access can fault and no lane can
// see another's store, so running the block lane by lane is invisible. Otherwise the pass
// returns false having written nothing but the warp-uniform values the ordinary code
// recomputes, and the ordinary code runs.

// passOp is a lane memory access of a warp pass.
type passOp struct {
	in     *ssa.Instr
	ad     *memAddr
	size   int
	store  bool
	window int // the runtime.Window of its ordinary code (global and generic accesses)
}

// warpPass is the state of a block's warp pass being generated.
type warpPass struct {
	ops   []passOp
	index map[*ssa.Instr]int
	// slice holds the instructions that compute the accesses' addresses.
	slice map[*ssa.Instr]bool
	// rest are the block's instructions from the one being generated on, before those ahead
	// of it; started says the address loop has been generated (at the first lane instruction).
	rest    []*ssa.Instr
	before  []*ssa.Instr
	started bool
	// final says the block's last loop is being ended.
	final bool
	// failed says the block turned out not to fit (a warp-uniform instruction after lane
	// work would end the loop).
	failed bool
	// guard, in a trace's pass, is the comparison the address loop also computes, and step
	// its stepping form.
	guard *passGuard
	step  stepCompare
}

// emitWarpPass generates the body of the block's warp pass for a full warp, or returns nil
// where the block does not qualify. It runs after emitBlock, which records the windows of
// the block's global accesses.
func (f *fnGen) emitWarpPass(instrs []*ssa.Instr) []jen.Code {
	if f.g.check {
		return nil // the check hooks run before each access (Options.Check)
	}
	return f.emitPass(instrs, nil)
}

// emitPass generates the body of a warp pass over instrs, which a guard (trace.go), if any,
// lets run only where every lane takes the trace's way; nil where they do not qualify.
func (f *fnGen) emitPass(instrs []*ssa.Instr, guard *passGuard) []jen.Code {
	e := newBlockEmit(f, nil, instrs)
	fp := e.passPlan(instrs, guard)
	if fp == nil {
		return nil
	}
	e.pass = fp
	for i, in := range instrs {
		fp.rest, fp.before = instrs[i:], instrs[:i]
		if guard != nil && guard.direct && in == guard.setp {
			if e.seg != nil {
				e.seg.instrs[in] = true // it reads the loop's values: they need no register
			}
			continue
		}
		e.instr(in)
		if e.bad || fp.failed {
			return nil
		}
	}
	fp.final = true
	e.flush()
	if e.bad || fp.failed || !fp.started {
		return nil
	}
	if guard != nil && guard.direct {
		e.stmts = append(e.stmts, jen.Commentf("%d: %s, whose lanes the check above gave", guard.setp.Pos.Line, spelling(guard.setp)),
			jen.Id("w").Dot("P").Index(jen.Lit(fp.step.pred)).Op("=").Id(fmt.Sprintf("%#x", guard.want)))
	}
	return append(e.body(), jen.Return(jen.True()))
}

// passPlan returns the plan of the block's warp pass, or nil where it does not qualify:
// it holds an instruction other than lane-local arithmetic, a load of one value for the
// whole warp (a kernel parameter) and unguarded scalar loads and stores of global, generic or
// shared memory at a register address computed without loads, predicates or the carry flag
// (the address loop must write nothing: an add.cc there would set CC.CF before an addc of the
// ordinary code reads the old one), or no such access at all.
func (e *blockEmit) passPlan(instrs []*ssa.Instr, guard *passGuard) *warpPass {
	fp := &warpPass{index: map[*ssa.Instr]int{}, slice: map[*ssa.Instr]bool{}, guard: guard}
	inBlock := map[*ssa.Instr]bool{}
	warpLoads := map[*ssa.Instr]bool{}
	for _, in := range instrs {
		inBlock[in] = true
		switch {
		case in.Op == frontend.OpMembar || in.Op == frontend.OpFence:
		case in.Op == frontend.OpLd || in.Op == frontend.OpLdu || in.Op == frontend.OpSt:
			if layout.InstrType(in) == frontend.B128 || len(memArgs(in)) == 0 {
				return nil
			}
			ad := e.memOperand(in, memArgs(in)[0])
			if ad == nil {
				return nil
			}
			if !e.laneMemOK(in) {
				if in.Op == frontend.OpSt || !ad.shared || firstDst(in).Kind != ssa.ArgValue {
					return nil
				}
				warpLoads[in] = true
				continue
			}
			win, hasWin := e.f.windows[in]
			switch {
			case in.Guard != nil || ad.base < 0:
				return nil
			case ad.space == "SpaceShared":
			case ad.space == "SpaceGlobal" || ad.space == "SpaceGeneric":
				if !hasWin {
					return nil
				}
			default:
				return nil
			}
			fp.index[in] = len(fp.ops)
			fp.ops = append(fp.ops, passOp{in: in, ad: ad, size: layout.InstrType(in).Bytes(), store: in.Op == frontend.OpSt, window: win})
		case laneLocal(in) && layout.InstrType(in) != frontend.B128: // (an accepted form with .b128 registers is of type .b128)
		default:
			return nil
		}
	}
	if len(fp.ops) == 0 {
		return nil
	}
	var addr func(v *ssa.Value) bool
	addr = func(v *ssa.Value) bool {
		if v.Kind != ssa.DefInstr || !inBlock[v.Instr] || fp.slice[v.Instr] || warpLoads[v.Instr] {
			return true
		}
		d := v.Instr
		if !laneLocal(d) || multiDst(d) || d.Guard != nil || len(d.Defs) != 1 || len(d.Dsts) != 1 || d.Dsts[0].Kind != ssa.ArgValue || d.Defs[0].Reg.Type == frontend.Pred {
			return false
		}
		fp.slice[d] = true
		for _, a := range d.Args {
			if a.Kind != ssa.ArgValue && a.Kind != ssa.ArgImm && a.Kind != ssa.ArgFloat && a.Kind != ssa.ArgSpecial && a.Kind != ssa.ArgSym {
				return false
			}
			if a.Value != nil && (a.Value.Reg.Type == frontend.Pred || !addr(a.Value)) {
				return false
			}
		}
		return true
	}
	for _, op := range fp.ops {
		if !addr(memArgs(op.in)[0].Value) {
			return nil
		}
	}
	if guard != nil && !e.guardPlan(fp, addr) {
		return nil
	}
	return fp
}

// passAddrs generates, at the block's first lane instruction, the loop that computes the
// accesses' addresses and the checks that let the warp pass go on.
func (e *blockEmit) passAddrs() {
	fp := e.pass
	fp.started = true
	uni := maps.Clone(e.uni)
	parts := e.passParts()
	e.seg = newSegment(&e.f.g.nwin)
	s := e.seg
	checked := map[int]bool{}
	if defines := func(in *ssa.Instr) bool { return slices.Contains(in.Defs, fp.step.value) }; fp.guard != nil && !slices.ContainsFunc(fp.rest, defines) {
		if slices.ContainsFunc(e.instrs, defines) {
			fp.failed = true // computed where the address loop does not
			return
		}
		e.captureGuard() // the stepping value comes from the register file
	}
	for _, in := range fp.rest {
		if fp.slice[in] {
			e.laneInstr(in)
			if fp.guard != nil && slices.Contains(in.Defs, fp.step.value) {
				e.captureGuard()
			}
			continue
		}
		k, ok := fp.index[in]
		if !ok || checked[parts[k].check] {
			continue
		}
		op, part := fp.ops[k], parts[k]
		checked[part.check] = true
		s.cur = len(s.groups)
		s.uses = append(s.uses, map[string]bool{})
		c := ctx{e: e}
		var x jen.Code
		if part.lane != nil {
			x = c.src(in, ssa.Arg{Kind: ssa.ArgValue, Value: part.lane}, part.lane.Reg.Type)
		} else {
			x = c.accessAddr(in, op.ad)
		}
		d := fmt.Sprintf("fd%d", part.check)
		group := []jen.Code{
			jen.Commentf("%d: %s", in.Pos.Line, part.what),
			jen.Id(d).Op(":=").Add(x).Op("-").Uint64().Call(jen.Id("l")).Op("<<").Lit(bits.TrailingZeros(uint(op.size))),
			jen.Id(fmt.Sprintf("fl%d", part.check)).Op("&=").Id(d),
			jen.Id(fmt.Sprintf("fh%d", part.check)).Op("|=").Id(d),
		}
		s.body = append(s.body, group...)
		s.groups = append(s.groups, group)
		s.float = append(s.float, false)
	}
	if e.bad {
		return
	}
	e.seg, e.uni = nil, uni
	for _, st := range s.stores {
		if !e.read[st.name] {
			st.stmt.Add(jen.Id("_").Op("=").Id(st.name))
		}
	}
	var decls, pre []jen.Code
	for c := range len(checked) {
		decls = append(decls, jen.Id(fmt.Sprintf("fl%d", c)).Op(",").Id(fmt.Sprintf("fh%d", c)).Op(":=").Id("^").Uint64().Call(jen.Lit(0)).Op(",").Uint64().Call(jen.Lit(0)))
	}
	for _, i := range sortedKeys(s.tid) {
		pre = append(pre, jen.Id(fmt.Sprintf("tid%d", i)).Op(":=").Op("&").Id("w").Dot("Tid").Index(jen.Lit(i)))
	}
	pre = append(pre, s.hoisted...)
	e.stmts = append(e.stmts, jen.Comment("the accesses' addresses: lane l's must be lane 0's plus l times the access size"))
	e.stmts = append(e.stmts, decls...)
	loop := jen.For(jen.Id("l").Op(":=").Range().Lit(32))
	if tid, ok := e.passStep(parts); ok {
		step := jen.Lit(31)
		if tid {
			step = jen.Id("step")
			pre = append(pre, jen.Id("step").Op(":=").Lit(1), jen.If(jen.Id("w").Dot("TidLinear")).Block(jen.Id("step").Op("=").Lit(31)))
		}
		e.stmts = append(e.stmts, jen.Comment("each steps by its access size from lane to lane (affine.go): lanes 0 and 31 show where it starts and that it does not wrap"))
		loop = jen.For(jen.Id("l").Op(":=").Lit(0), jen.Id("l").Op("<").Lit(32), jen.Id("l").Op("+=").Add(step))
	}
	if fp.guard != nil {
		if !e.guardReady() {
			fp.failed = true
			return
		}
		e.stmts = append(e.stmts, jen.Comment("the trace's branch: lanes 0 and 31 of the compared value (trace.go)"), jen.Var().Id("g0").Op(",").Id("g31").Uint64())
	}
	e.stmts = append(e.stmts, jen.Block(append(pre, loop.Block(s.body...))...))
	if fp.guard != nil {
		e.stmts = append(e.stmts, e.guardCheck(fp.step, fp.guard.want))
	}
	e.stmts = append(e.stmts, e.passChecks(parts, len(checked))...)
}

// passPart is how the address loop checks an access: its address, or, for an address that
// is a warp-uniform local plus a 64-bit lane value (a base pointer plus a scaled index), that
// lane value, which accesses of the same size at the same index share.
type passPart struct {
	check int        // the check, numbered in order of first use
	lane  *ssa.Value // the lane value, or nil for the address itself
	uni   string     // the warp-uniform local added to it
	off   uint64     // the operand's offset
	what  string     // a comment
}

// passParts returns the part each access checks.
func (e *blockEmit) passParts() []passPart {
	fp := e.pass
	parts := make([]passPart, len(fp.ops))
	shared := map[[2]any]int{}
	n := 0
	for k, op := range fp.ops {
		parts[k] = passPart{check: n, what: "the address of " + spelling(op.in), off: op.ad.off}
		if lane, uni := e.passSplit(op); lane != nil {
			key := [2]any{lane, op.size}
			c, ok := shared[key]
			if !ok {
				c = n
				shared[key] = c
			}
			parts[k] = passPart{check: c, lane: lane, uni: uni, off: op.ad.off, what: "the index of " + spelling(op.in)}
			if ok {
				continue
			}
		}
		n++
	}
	return parts
}

// passSplit returns, for an access at a 64-bit register set by an add of a warp-uniform local
// computed before the block's lane work and a lane value, that lane value and local.
func (e *blockEmit) passSplit(op passOp) (*ssa.Value, string) {
	fp := e.pass
	v := memArgs(op.in)[0].Value
	if v.Kind != ssa.DefInstr || !fp.slice[v.Instr] || op.ad.amask != ^uint64(0) {
		return nil, ""
	}
	d := v.Instr
	if d.Op != frontend.OpAdd || layout.InstrType(d).Bits() != 64 || len(d.Args) != 2 || len(d.Mods) != 1 {
		return nil, ""
	}
	for i, a := range d.Args {
		x := d.Args[1-i]
		if a.Kind != ssa.ArgValue || x.Kind != ssa.ArgValue || a.Not || x.Not || a.Value.Kind != ssa.DefInstr {
			continue
		}
		slot := e.f.Regs[a.Value.Reg.ID]
		u, ok := e.uni[slot]
		if !ok || !slices.Contains(fp.before, a.Value.Instr) {
			continue
		}
		// The local holds a's value unless a lane instruction writes its register first.
		redefined := false
		for _, in := range fp.rest {
			if in == d {
				break
			}
			for _, def := range in.Defs {
				redefined = redefined || e.f.Regs[def.Reg.ID] == slot
			}
		}
		if !redefined {
			return x.Value, u
		}
	}
	return nil, ""
}

// passStep reports whether every access's checked address or index is known to step by the
// access size from lane to lane (affine.go), and whether that needs %tid to count up along
// the warp.
func (e *blockEmit) passStep(parts []passPart) (tid, ok bool) {
	if e.f.steps == nil {
		e.f.steps = newLaneSteps()
	}
	for k, op := range e.pass.ops {
		v := parts[k].lane
		if v == nil {
			a := memArgs(op.in)[0]
			if a.Value == nil || op.ad.amask != ^uint64(0) {
				return false, false
			}
			v = a.Value
		}
		st := e.f.steps.value(v)
		if !st.ok || v.Reg.Type.Bits() != 64 || st.stride != uint64(op.size) {
			return false, false
		}
		tid = tid || st.tid
	}
	return tid, true
}

// passBase names the local holding access k's lane 0 address.
func passBase(k int) string { return fmt.Sprintf("fb%d", k) }

// passChecks returns the checks after the address loop, and the memory pointer and lane 0
// offset (fpK, foK) of each access for the warp pass.
func (e *blockEmit) passChecks(parts []passPart, nchecks int) []jen.Code {
	fp := e.pass
	fail := jen.Return(jen.False())
	var spread jen.Code
	for c := range nchecks {
		x := jen.Parens(jen.Id(fmt.Sprintf("fl%d", c)).Op("^").Id(fmt.Sprintf("fh%d", c)))
		if spread == nil {
			spread = x
		} else {
			spread = jen.Add(spread).Op("|").Add(x)
		}
	}
	out := []jen.Code{jen.If(jen.Add(spread).Op("!=").Lit(0)).Block(fail)}
	shared := false
	for k, op := range fp.ops {
		b, p, o := jen.Id(passBase(k)), fmt.Sprintf("fp%d", k), fmt.Sprintf("fo%d", k)
		lo := jen.Id(fmt.Sprintf("fl%d", parts[k].check))
		if part := parts[k]; part.lane != nil {
			e.read[part.uni] = true
			lo = jen.Id(part.uni).Op("+").Add(lo).Op("+").Add(hexLit(part.off))
		}
		out = append(out, jen.Id(passBase(k)).Op(":=").Add(lo))
		span := uint64(31 * op.size)
		var inBounds jen.Code
		if op.ad.space == "SpaceShared" {
			if !shared {
				shared = true
				out = append(out, jen.Id("sh").Op(":=").Id("w").Dot("SharedMem").Call())
			}
			end := jen.Qual(rtPath, "AccessEnd").Call(jen.Id("sh"), jen.Lit(op.size))
			out = append(out, jen.Id(p).Op(",").Id(o).Op(":=").Qual(rtPath, "MemPtr").Call(jen.Id("sh")).Op(",").Add(b))
			inBounds = jen.Add(end).Op(">").Add(hexLit(span)).Op("&&").Id(o).Op("<").Add(end).Op("-").Add(hexLit(span))
		} else {
			win := fmt.Sprintf("fw%d", k)
			out = append(out,
				jen.Id(win).Op(":=").Id("w").Dot("Window").Call(jen.Lit(op.window)),
				jen.Id(p).Op(",").Id(o).Op(":=").Id(win).Dot("Ptr").Op(",").Add(b).Op("-").Id(win).Dot("Base"))
			inBounds = jen.Id(o).Op("<").Id(win).Dot("End").Op("&&").Id(win).Dot("End").Op("-").Id(o).Op(">").Add(hexLit(span))
		}
		cond := inBounds
		if op.size > 1 {
			cond = jen.Add(inBounds).Op("&&").Add(b).Op("&").Lit(op.size - 1).Op("==").Lit(0)
		}
		out = append(out, jen.If(jen.Op("!").Parens(cond)).Block(fail))
	}
	for k, op := range fp.ops {
		if !op.store {
			continue
		}
		for j, other := range fp.ops {
			if j == k || other.store && j < k || (op.ad.space == "SpaceShared") != (other.ad.space == "SpaceShared") {
				continue
			}
			bk, bj := jen.Id(passBase(k)), jen.Id(passBase(j))
			overlap := jen.Add(bk).Op("+").Lit(32 * op.size).Op(">").Add(bj).Op("&&").Add(bj).Op("+").Lit(32 * other.size).Op(">").Add(bk)
			if op.size == other.size {
				overlap = jen.Add(bk).Op("!=").Add(bj).Op("&&").Add(overlap)
			}
			out = append(out, jen.If(overlap).Block(fail))
		}
	}
	for k := range fp.ops {
		out = append(out, jen.Id(passFirst(k)).Op(":=").Qual(rtPath, "Offset").Call(jen.Id(fmt.Sprintf("fp%d", k)), jen.Id(fmt.Sprintf("fo%d", k))))
	}
	return out
}

// passFirst names the pointer to lane 0's element of access k, which the lanes index.
func passFirst(k int) string { return fmt.Sprintf("fa%d", k) }

// passLoad defines n as lane l's value of a load in the warp pass.
func (c ctx) passLoad(in *ssa.Instr, n string) []jen.Code {
	k := c.e.pass.index[in]
	op := c.e.pass.ops[k]
	if layout.InstrType(in) == frontend.F32 && op.size == 4 {
		// Straight into a float32 local that f32 arithmetic reads (blockEmit.shadow).
		c.e.shadow(n)
		return []jen.Code{
			jen.Id(n+"F").Op(":=").Qual(rtPath, "LoadF32").Call(jen.Id(passFirst(k)), passOffset(op.size)),
			jen.Id(n).Op(":=").Uint64().Call(jen.Qual("math", "Float32bits").Call(jen.Id(n + "F"))),
			jen.Id("_").Op("=").Id(n + "F"),
		}
	}
	return append([]jen.Code{jen.Id(n).Op(":=").Qual(rtPath, loadFn[op.size]).Call(jen.Id(passFirst(k)), passOffset(op.size))},
		c.loadExtend(in, n)...)
}

// passStore is lane l's store in the warp pass.
func (c ctx) passStore(in *ssa.Instr) []jen.Code {
	k := c.e.pass.index[in]
	op := c.e.pass.ops[k]
	return []jen.Code{jen.Qual(rtPath, storeFn[op.size]).Call(jen.Id(passFirst(k)), passOffset(op.size), u64(c.src(in, memArgs(in)[1], layout.InstrType(in))))}
}

// passOffset is lane l's offset from lane 0's element of an access of the given size.
func passOffset(size int) jen.Code {
	return jen.Uint64().Call(jen.Id("l")).Op("<<").Lit(bits.TrailingZeros(uint(size)))
}
