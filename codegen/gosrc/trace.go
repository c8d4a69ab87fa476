package gosrc

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Traces. Most kernels open with a bounds test, `i = ctaid*ntid + tid; if (i < n) { body }`:
// a block that computes the index and branches, and the body's block, which reads the index
// again from the register file. For a full warp whose lanes all take the body's side, the
// block chain runs both blocks as one warp pass (warppass.go) over their instructions
// together: the index stays a Go local of the lane loop and never goes to the register file
// where nothing after the body reads it. The pass's address loop also computes the
// comparison's stepping value for lanes 0 and 31, and the pass runs only where
// runtime.StepMask shows that every lane goes the body's way (a guard). The first block only
// computes (lane-local arithmetic and kernel parameters), so running its lanes interleaved
// with the body's is invisible, as in any warp pass; where the guard or the pass's checks
// fail, nothing has been written and the blocks run as before.

// passGuard is the branch that ends a trace's first block: its setp, and the predicate bits
// of the whole warp that send every lane to the trace's second block (0 or all ones).
type passGuard struct {
	setp *ssa.Instr
	want uint32
	// second are the instructions of the trace's second block.
	second map[*ssa.Instr]bool
	// direct says nothing else in the trace reads or writes the predicate: the pass sets
	// it from want instead of running the setp for each lane.
	direct bool
	// from and to are the SSA blocks of the trace's two blocks.
	from, to *ssa.Block
}

// trace is a block chain shortcut: the block it starts at, then block second, as one warp
// pass over instrs.
type trace struct {
	second int
	instrs []*ssa.Instr
	guard  *passGuard
}

// traceOf returns the trace that starts at block i, or nil: block i ends in a branch whose
// predicate a setp of the block sets by comparing a value that steps by 1 from lane to lane,
// one side of the branch (not its reconvergence point) is a block with a warp pass of its own
// that jumps on and reads a lane value block i computes, and the two blocks' instructions
// make one warp pass.
func (f *fnGen) traceOf(i int) *trace {
	bi := f.blocks[i]
	if f.g.check || bi.rt.Kind != runtime.TermBranch || bi.instrs == nil {
		return nil
	}
	var setp *ssa.Instr
	for _, in := range bi.instrs {
		for _, d := range in.Defs {
			if d.Reg.Type == frontend.Pred && f.Regs[d.Reg.ID] == int(bi.rt.Pred) {
				setp = in
			}
		}
	}
	if setp == nil || setp.Op != frontend.OpSetp {
		return nil
	}
	for _, j := range []int32{bi.rt.Alt, bi.rt.Succ} {
		if j == bi.rt.Reconv || j < 0 || int(j) >= len(f.blocks) {
			continue
		}
		bj := f.blocks[j]
		if bj.rt.Kind != runtime.TermJump || bj.instrs == nil || bj.pass == nil || !f.feeds(bi.instrs, bj.instrs) {
			continue
		}
		// The lanes all go to j where the branch's condition (the predicate, or its
		// negation) is false for each of them (j is the branch's fall-through), or true.
		want := uint32(0)
		if (j == bi.rt.Alt) == bi.rt.Negate {
			want = ^uint32(0)
		}
		t := &trace{second: int(j), instrs: f.hoistUniforms(append(slices.Clone(bi.instrs), bj.instrs...)), guard: &passGuard{setp: setp, want: want, second: map[*ssa.Instr]bool{}, from: bi.src, to: bj.src}}
		for _, in := range bj.instrs {
			t.guard.second[in] = true
		}
		return t
	}
	return nil
}

// feeds reports whether the first block computes a lane value the second reads: only then
// does a trace save anything (the value's trip through the register file), while a warp
// whose lanes split or all skip the second block pays for the trace's checks.
func (f *fnGen) feeds(first, second []*ssa.Instr) bool {
	in := map[*ssa.Instr]bool{}
	for _, x := range second {
		in[x] = true
	}
	for _, x := range first {
		for _, d := range x.Defs {
			if !d.Uniform && d.Reg.Type != frontend.Pred && f.anyReadBy(d, in) {
				return true
			}
		}
	}
	return false
}

// hoistUniforms moves each warp-uniform computation (kernel parameter loads and arithmetic on
// uniform values) ahead of the lane work before it where no instruction it passes reads or
// writes its register or writes one it reads, so that a warp pass sees all of them before
// its first lane instruction, as it does in a single block.
func (f *fnGen) hoistUniforms(instrs []*ssa.Instr) []*ssa.Instr {
	var head, rest []*ssa.Instr
	for _, in := range instrs {
		if hoistable(in) && !slices.ContainsFunc(rest, func(x *ssa.Instr) bool { return f.conflicts(x, in) }) {
			head = append(head, in)
			continue
		}
		rest = append(rest, in)
	}
	return append(head, rest...)
}

// hoistable reports whether an instruction computes one warp-uniform register from
// immediates, uniform registers and kernel parameters.
func hoistable(in *ssa.Instr) bool {
	if in.Guard != nil || len(in.Defs) != 1 || !in.Defs[0].Uniform || in.Defs[0].Reg.Type == frontend.Pred {
		return false
	}
	if !laneLocal(in) && (in.Op != frontend.OpLd || layout.InstrSpace(in) != frontend.SpaceParam) {
		return false
	}
	for _, a := range in.Args {
		if a.Kind == ssa.ArgValue && (!a.Value.Uniform || a.Value.Reg.Type == frontend.Pred) {
			return false
		}
	}
	return true
}

// conflicts reports whether moving in ahead of x would change what either computes.
func (f *fnGen) conflicts(x, in *ssa.Instr) bool {
	dst, inr := f.key(in.Defs[0]), f.reads(in)
	if f.reads(x)[dst] {
		return true
	}
	for _, d := range x.Defs {
		if k := f.key(d); k == dst || inr[k] {
			return true
		}
	}
	return false
}

// reads returns the register slots and predicates an instruction's operands and guard read.
func (f *fnGen) reads(in *ssa.Instr) map[slotKey]bool {
	r := map[slotKey]bool{}
	for _, a := range in.Args {
		if a.Value != nil {
			r[f.key(a.Value)] = true
		}
	}
	if in.Guard != nil {
		r[f.key(in.Guard)] = true
	}
	return r
}

// guardReady reports whether the guard's other operand is known when the address loop runs:
// an immediate, a special register, a register the trace does not write, or a warp-uniform
// local computed before the trace's first lane instruction. A value the trace computes as
// lane work (from registers an earlier block left) would be read from the register file
// before the trace writes it.
func (e *blockEmit) guardReady() bool {
	fp := e.pass
	a := fp.step.in.Args[1-fp.step.k]
	if a.Kind != ssa.ArgValue || a.Value.Kind != ssa.DefInstr || !slices.Contains(e.instrs, a.Value.Instr) {
		return true
	}
	_, ok := e.uni[e.f.Regs[a.Value.Reg.ID]]
	return ok && slices.Contains(fp.before, a.Value.Instr)
}

// guardCheck returns the code that ends the pass unless the guard's comparison sends every
// lane the trace's way: its stepping value's lanes 0 and 31, captured by the address loop in
// g0 and g31, show no wrap, and StepMask from lane 0's gives the wanted bits.
func (e *blockEmit) guardCheck(c stepCompare, want uint32) jen.Code {
	other := e.scalarOperand(c.in, c.in.Args[1-c.k], c.t)
	var cond jen.Code = jen.Add(c.exact(jen.Id("g31"))).Op("-").Add(c.exact(jen.Id("g0"))).Op("==").Lit(31)
	if c.tid {
		cond = and(cond, jen.Id("w").Dot("TidLinear"))
	}
	cond = and(cond, jen.Qual(rtPath, "StepMask").Call(c.exact(jen.Id("g0")), c.exact(other), jen.Qual(rtPath, c.cmp)).Op("==").Id(fmt.Sprintf("%#x", want)))
	return jen.If(jen.Op("!").Parens(cond)).Block(jen.Return(jen.False()))
}

// guardPlan completes a trace pass's plan with its guard: the comparison must be a stepping
// one (steppred.go) whose value the address loop can compute, and no uniform value of the
// second block may go to the register file before the checks (if they fail, that block may
// not run at all). Its other operand is checked where the address loop is generated
// (guardReady).
func (e *blockEmit) guardPlan(fp *warpPass, addr func(*ssa.Value) bool) bool {
	g := fp.guard
	c, ok := e.stepCompare(&segment{order: []*ssa.Instr{g.setp}}, g.setp)
	if !ok || !addr(c.value) {
		return false
	}
	fp.step = c
	g.direct = true
	for _, in := range e.instrs {
		if g.second[in] && hoistable(in) && !e.f.onlyReadBy(in.Defs[0], e.local) {
			return false
		}
		if in == g.setp {
			continue
		}
		pred := slotKey{pred: true, slot: c.pred}
		if e.f.reads(in)[pred] || slices.ContainsFunc(in.Defs, func(d *ssa.Value) bool { return e.f.key(d) == pred }) {
			g.direct = false
		}
	}
	return true
}

// captureGuard adds to the address loop the capture of the guard's stepping value at lanes
// 0 and 31.
func (e *blockEmit) captureGuard() {
	s, c := e.seg, e.pass.step
	s.cur = len(s.groups)
	s.uses = append(s.uses, map[string]bool{})
	x := ctx{e: e}.src(c.in, ssa.Arg{Kind: ssa.ArgValue, Value: c.value}, c.value.Reg.Type)
	group := []jen.Code{jen.Switch(jen.Id("l")).Block(
		jen.Case(jen.Lit(0)).Block(jen.Id("g0").Op("=").Add(x)),
		jen.Case(jen.Lit(31)).Block(jen.Id("g31").Op("=").Add(x)))}
	s.body = append(s.body, group...)
	s.groups = append(s.groups, group)
	s.float = append(s.float, false)
}

// readOnlyBy reports whether the instructions in set are the only reads of v that the code
// being generated must provide for: in a trace's pass, a phi operand that flows from the
// first block along an edge other than the one to the second is not read on the trace's
// path (the zero a bounds test's block sets for the lanes that skip the body, which the body
// overwrites), so it need not go to the register file.
func (e *blockEmit) readOnlyBy(v *ssa.Value, set map[*ssa.Instr]bool) bool {
	var g *passGuard
	if e.pass != nil {
		g = e.pass.guard
	}
	if g == nil {
		return e.f.onlyReadBy(v, set)
	}
	others := 0 // reads that are not instruction operands (valueUses' nil entries)
	for _, in := range e.f.valueUses()[v] {
		if in == nil {
			others++
		} else if !set[in] {
			return false
		}
	}
	for _, b := range e.f.Fn.Blocks {
		if b == g.to {
			continue
		}
		for _, p := range b.Phis {
			for i, a := range p.Args {
				if a == v && i < len(b.Preds) && b.Preds[i] == g.from {
					others--
				}
			}
		}
	}
	return others == 0
}
