package closure

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// Per-lane forms. A device function whose calls may run one lane at a time
// (layout.LaneFuncs) also gets a scalar form: ops over one lane's registers (laneFrame), the
// SSA blocks' one after another with the indices of the ops they go on to, run by one switch
// (lanefuse.go), and calls as Go calls to the callee's form, recursion as Go recursion. The
// runtime runs the trampoline's calls of it with that form (runtime.Func.PerLane,
// runtime/lanescalar.go), lane after lane, where the launch collects no statistics and runs
// no checks.
//
// A form has the scalar code of the instructions the SIMT code runs, with the same operand
// slots and the same arithmetic (the expressions of the lane loops, the same isa helpers and
// comparisons), so each lane ends with the bits the SIMT stack gives it. Only the common
// integer arithmetic and conversion, comparison, selection and .param instructions have a
// scalar form: a function with any other instruction, or calling one that has none, or with
// more than laneSlots registers, predicates or .param bytes, keeps the SIMT stack. A block
// with an instruction that faults (a .param access outside the area) gives the call back to
// the stack, which raises the fault.

// laneFrame is one lane's activation of a per-lane form: its registers, by the layout's
// register slots, its predicates and its .param area, sized for form.
type laneFrame struct {
	r     []uint64
	p     []bool
	param []byte
	form  *laneFn
}

// laneInstr runs one instruction for one lane.
type laneInstr func(x *laneFrame)

// laneSite is a call in a per-lane form: the caller's argument and result slots, and the
// callee's form (set once every function is compiled).
type laneSite struct {
	cs     *runtime.CallSite
	callee *laneFn
	// args and results, where copies is set, are the copies between the .param areas
	// that pass the arguments and results (planCopies).
	args, results []paramCopy
	copies        bool
}

// laneFn is the per-lane form of a device function.
type laneFn struct {
	rf *runtime.Func
	// code is the ops of the function's blocks (lanefuse.go), the first block's first.
	code  []laneOp
	sites []*laneSite
	// consts are the constant registers the scalar code reads.
	consts []runtime.Const
}

// laneForm compiles the per-lane form of f's function, or returns nil where an instruction
// has no scalar form. It runs after the SIMT blocks, whose call sites it shares.
func (f *fnCompiler) laneForm() *laneFn {
	fn := f.Fn
	lf := &laneFn{rf: f.RF}
	f.laneConsts = map[int]bool{}
	// The ends of blocks first hold the numbers of the blocks they go on to, exit for the
	// function's exit, and then the indices of those blocks' first ops.
	exit := int32(len(fn.Blocks))
	index := func(b *ssa.Block) int32 {
		if b == nil || b == fn.Exit {
			return exit
		}
		return int32(b.ID)
	}
	start := make([]int32, len(fn.Blocks)+1)
	for i, b := range fn.Blocks {
		start[i] = int32(len(lf.code))
		ops, faults := []laneOp(nil), false
		for _, in := range b.Instrs {
			code, fault, ok := f.laneInstr(in)
			if !ok {
				return nil
			}
			if faults = fault; faults {
				break
			}
			ops = append(ops, code...)
		}
		switch t := &b.Term; {
		case faults:
			ops = []laneOp{{code: laneFault}}
		case t.Kind == ssa.TermJump && index(b.Succs[0]) == exit, t.Kind == ssa.TermRet:
			ops = append(ops, laneOp{code: laneRet})
		case t.Kind == ssa.TermJump:
			ops = append(ops, laneOp{code: laneJump, succ: index(b.Succs[0])})
		case t.Kind == ssa.TermBranch:
			succ, alt := index(b.Succs[0]), index(b.Succs[1])
			if t.Negate {
				succ, alt = alt, succ
			}
			ops = fuseBranch(ops, f.Regs[t.Cond.Reg.ID], succ, alt)
		case t.Kind == ssa.TermCall:
			last := f.Exit - 1
			if i+1 < len(fn.Blocks) {
				last = f.Start[i+1] - 1
			}
			ops = append(ops, laneOp{code: laneCall, imm: uint64(len(lf.sites)), succ: index(b.Succs[0])})
			lf.sites = append(lf.sites, &laneSite{cs: f.blocks[last].Term.Call})
		default:
			return nil
		}
		lf.code = append(lf.code, ops...)
	}
	start[exit] = int32(len(lf.code))
	lf.code = append(lf.code, laneOp{code: laneExit})
	for i := range lf.code {
		c := &lf.code[i]
		switch c.code {
		case laneJump, laneBranch, laneCall, laneBrLt32, laneBrLt32Imm, laneBrLe32, laneBrLe32Imm, laneBrEq32, laneBrEq32Imm:
			c.succ, c.alt = start[c.succ], start[c.alt]
		}
	}
	for _, c := range f.Consts() {
		if f.laneConsts[c.Reg] {
			lf.consts = append(lf.consts, c)
		}
	}
	return lf
}

// setPerLane gives the functions with a per-lane form whose callees all have one their
// runtime.Func.PerLane; the others keep the SIMT stack, and so do functions with more than
// laneSlots registers, predicates or .param bytes, whose slots the ops cannot hold.
func (c *compiler) setPerLane() {
	forms := map[*runtime.Func]*laneFn{}
	for _, lf := range c.laneForms {
		if rf := lf.rf; rf.NumRegs <= laneSlots && rf.NumPreds <= laneSlots && rf.ParamSize <= laneSlots {
			forms[rf] = lf
		}
	}
	for changed := true; changed; {
		changed = false
		for rf, lf := range forms {
			for _, s := range lf.sites {
				if forms[s.cs.Direct] == nil {
					delete(forms, rf)
					changed = true
					break
				}
			}
		}
	}
	for rf, lf := range forms {
		for _, s := range lf.sites {
			s.callee = forms[s.cs.Direct]
			s.planCopies()
		}
		rf.PerLane = lf.call
	}
}

// laneRun is the state of one per-lane call: the lanes' frames and what is left of its blocks
// and call depth.
type laneRun struct {
	blocks int
	depth  int
	// level is how deep the running lane's calls nest inside the call.
	level int
	// tops are the lanes' frames of the call itself, nested the frames of the calls they
	// make, one per level, reused by every call at that level.
	tops   [runtime.WarpSize]laneFrame
	nested []*laneFrame
}

// laneRuns keeps the laneRun of finished calls, with their frames, for the next ones.
var laneRuns = sync.Pool{New: func() any { return new(laneRun) }}

// start readies frame x for an activation of lf, as a SIMT frame is readied (runtime's
// resetFrame): the constants the scalar code reads in place, predicates and the registers
// some path reads before writing zeroed, and the .param area zeroed where some path may read
// it before writing it. A frame's slices have the function's sizes and room for laneSlots
// (the ops' view of them); it keeps its memory, and its sizes for the same form, for the
// next activations.
func (x *laneFrame) start(lf *laneFn) {
	fn := lf.rf
	if x.form != lf {
		if x.r == nil {
			x.r, x.p, x.param = make([]uint64, laneSlots), make([]bool, laneSlots), make([]byte, len(laneParams{}))
		}
		x.r, x.p, x.param, x.form = x.r[:fn.NumRegs], x.p[:fn.NumPreds], x.param[:fn.ParamSize], lf
	}
	for _, s := range fn.ZeroRegs {
		x.r[s] = 0
	}
	for _, c := range lf.consts {
		x.r[c.Reg] = c.Value
	}
	clear(x.p)
	if fn.ZeroParams {
		clear(x.param)
	}
}

// call is the runtime.PerLaneCall of lf: each lane of m runs the call in a frame of its own,
// and once every lane has returned their results go to the caller's frame.
func (lf *laneFn) call(w *runtime.Warp, cs *runtime.CallSite, m uint32, depth, blocks int) (int, bool) {
	run := laneRuns.Get().(*laneRun)
	defer laneRuns.Put(run)
	run.blocks, run.depth, run.level = blocks, depth, 0
	fn := lf.rf
	stride := w.Fn.ParamSize
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm)
		x := &run.tops[l]
		x.start(lf)
		for i := range cs.Args {
			s := &cs.Args[i]
			switch {
			case s.Pred:
				x.p[fn.Params[i].Reg] = w.P[s.Reg]>>l&1 != 0
			case s.Reg >= 0:
				x.put(&fn.Params[i], w.R[s.Reg*runtime.WarpSize+l])
			default:
				x.putBytes(&fn.Params[i], w.Param[l*stride+s.ParamOff:][:s.Size])
			}
		}
		if !lf.run(run, x) {
			return 0, false
		}
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm)
		x := &run.tops[l]
		for i := range cs.Results {
			d, s := &cs.Results[i], &fn.Results[i]
			switch {
			case d.Pred:
				bit := uint32(1) << l
				if x.p[s.Reg] {
					w.P[d.Reg] |= bit
				} else {
					w.P[d.Reg] &^= bit
				}
			case d.Reg >= 0:
				w.R[d.Reg*runtime.WarpSize+l] = x.get(s)
			default:
				putSlotBytes(w.Param[l*stride+d.ParamOff:][:d.Size], x, s)
			}
		}
	}
	return blocks - run.blocks, true
}

// call makes the call of site s from frame x, in a frame of the callee's own, copying the
// arguments and results as the call-return stack does (runtime's copySlot).
func (s *laneSite) call(run *laneRun, x *laneFrame) bool {
	if run.depth == 0 {
		return false
	}
	if run.level == len(run.nested) {
		run.nested = append(run.nested, new(laneFrame))
	}
	y := run.nested[run.level]
	y.start(s.callee)
	if s.copies {
		for _, c := range s.args {
			c.copy(y.param, x.param)
		}
	} else {
		s.copyArgs(x, y)
	}
	run.depth--
	run.level++
	ok := s.callee.run(run, y)
	run.level--
	run.depth++
	if !ok {
		return false
	}
	if s.copies {
		for _, c := range s.results {
			c.copy(x.param, y.param)
		}
	} else {
		s.copyResults(x, y)
	}
	return true
}

// paramCopy copies a 4-byte (8-byte when wide) .param variable at from to one at to.
type paramCopy struct {
	from, to int32
	wide     bool
}

// copy copies the variable from the .param area src to dst.
func (c paramCopy) copy(dst, src []byte) {
	if c.wide {
		binary.LittleEndian.PutUint64(dst[c.to:], binary.LittleEndian.Uint64(src[c.from:]))
		return
	}
	binary.LittleEndian.PutUint32(dst[c.to:], binary.LittleEndian.Uint32(src[c.from:]))
}

// planCopies sets the site's args and results where every argument and result is a .param
// variable of 4 or 8 bytes on both sides of the call, the common case; the other calls copy
// slot by slot (copyArgs, copyResults).
func (s *laneSite) planCopies() {
	plan := func(from, to []runtime.Slot) ([]paramCopy, bool) {
		var cs []paramCopy
		for i := range from {
			a, b := &from[i], &to[i]
			if a.Reg >= 0 || b.Reg >= 0 || a.Pred || b.Pred || a.Size != b.Size || a.Size != 4 && a.Size != 8 {
				return nil, false
			}
			cs = append(cs, paramCopy{from: int32(a.ParamOff), to: int32(b.ParamOff), wide: a.Size == 8})
		}
		return cs, true
	}
	fn := s.callee.rf
	args, ok := plan(s.cs.Args, fn.Params)
	results, ok2 := plan(fn.Results, s.cs.Results)
	if ok && ok2 {
		s.args, s.results, s.copies = args, results, true
	}
}

// copyArgs copies the call's arguments from the caller's frame x to the callee's y, slot by
// slot.
func (s *laneSite) copyArgs(x, y *laneFrame) {
	cs, fn := s.cs, s.callee.rf
	for i := range cs.Args {
		a, p := &cs.Args[i], &fn.Params[i]
		switch {
		case a.Pred:
			y.p[p.Reg] = x.p[a.Reg]
		case a.Reg >= 0:
			y.put(p, x.r[a.Reg])
		default:
			y.putBytes(p, x.param[a.ParamOff:][:a.Size])
		}
	}
}

// copyResults copies the call's results from the callee's frame y to the caller's x, slot by
// slot.
func (s *laneSite) copyResults(x, y *laneFrame) {
	cs, fn := s.cs, s.callee.rf
	for i := range cs.Results {
		d, r := &cs.Results[i], &fn.Results[i]
		switch {
		case d.Pred:
			x.p[d.Reg] = y.p[r.Reg]
		case d.Reg >= 0:
			x.r[d.Reg] = y.get(r)
		default:
			putSlotBytes(x.param[d.ParamOff:][:d.Size], y, r)
		}
	}
}

// get reads slot s of a register or .param variable as a value: a .param slot's first (at
// most 8) bytes, little-endian.
func (x *laneFrame) get(s *runtime.Slot) uint64 {
	if s.Reg >= 0 {
		return x.r[s.Reg]
	}
	return runtime.ParamValue(x.param[s.ParamOff:][:min(s.Size, 8)])
}

// put writes the value v to slot d: a .param slot gets its (at most 8) bytes, little-endian,
// and zeros after them.
func (x *laneFrame) put(d *runtime.Slot, v uint64) {
	if d.Reg >= 0 {
		x.r[d.Reg] = v
		return
	}
	putLE(x.param[d.ParamOff:][:d.Size], v)
}

// putBytes writes the bytes of a .param slot b to slot d: a register gets their value, a
// .param slot as many of them as fit and zeros after them.
func (x *laneFrame) putBytes(d *runtime.Slot, b []byte) {
	if d.Reg >= 0 {
		x.r[d.Reg] = runtime.ParamValue(b[:min(len(b), 8)])
		return
	}
	dst := x.param[d.ParamOff:][:d.Size]
	clear(dst[copy(dst, b):])
}

// putSlotBytes writes slot s of frame x to the .param bytes dst, as copySlot does.
func putSlotBytes(dst []byte, x *laneFrame, s *runtime.Slot) {
	if s.Reg >= 0 {
		putLE(dst, x.r[s.Reg])
		return
	}
	clear(dst[copy(dst, x.param[s.ParamOff:][:s.Size]):])
}

// putLE stores the low bytes of v into b, little-endian, and zeros past the eighth.
func putLE(b []byte, v uint64) {
	switch len(b) {
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
		return
	case 8:
		binary.LittleEndian.PutUint64(b, v)
		return
	}
	for i := range b {
		if i < 8 {
			b[i] = byte(v >> (8 * i))
		} else {
			b[i] = 0
		}
	}
}

// laneInstr returns the ops of an instruction of a per-lane function (a guarded one is a
// guard and its op), and whether the instruction always faults; ok is false where it has no
// scalar form.
func (f *fnCompiler) laneInstr(in *ssa.Instr) (code []laneOp, faults, ok bool) {
	if !laneOperands(in) {
		return nil, false, false
	}
	e := &emitter{f: f, in: in}
	op, faults := e.scalar()
	switch {
	case op.code == laneNone && !faults || e.bad || len(e.pre) > 0:
		return nil, false, false
	case faults:
		return nil, true, true
	case in.Guard != nil:
		return []laneOp{{code: laneGuard, a: uint8(f.Regs[in.Guard.Reg.ID]), neg: in.GuardNeg}, op}, false, true
	}
	return []laneOp{op}, false, true
}

// laneOperands reports whether every operand of in is one the scalar forms take: registers,
// integer immediates and, for ld and st, a .param variable's address.
func laneOperands(in *ssa.Instr) bool {
	for _, a := range in.Args {
		switch a.Kind {
		case ssa.ArgValue, ssa.ArgImm:
		case ssa.ArgAddr:
			if a.Value != nil || a.Var == nil || a.Var.Space != frontend.SpaceParam {
				return false
			}
		default:
			return false
		}
	}
	for _, a := range in.Dsts {
		if a.Kind != ssa.ArgValue && a.Kind != ssa.ArgSink {
			return false
		}
	}
	return true
}

// onlyMods reports whether every modifier of the instruction is a type, a state space, a
// comparison or one of extra.
func (e *emitter) onlyMods(extra ...frontend.Mod) bool {
next:
	for _, m := range e.in.Mods {
		switch m.Kind() {
		case frontend.ModKindType, frontend.ModKindSpace, frontend.ModKindCompare:
			continue
		}
		for _, x := range extra {
			if m == x {
				continue next
			}
		}
		return false
	}
	return true
}

// intType reports whether t is a 16-, 32- or 64-bit integer or bit type.
func intType(t frontend.Type) bool {
	switch t {
	case frontend.B16, frontend.U16, frontend.S16, frontend.B32, frontend.U32, frontend.S32,
		frontend.B64, frontend.U64, frontend.S64:
		return true
	}
	return false
}

// scalar lowers the instruction to its op: laneNone where it has none, or where faults says
// it always faults.
func (e *emitter) scalar() (code laneOp, faults bool) {
	in := e.in
	t := e.typ()
	switch in.Op {
	case frontend.OpMov:
		return e.scalarMov(t), false
	case frontend.OpSetp:
		return e.scalarSetp(t), false
	case frontend.OpSelp:
		if !e.onlyMods() || t == frontend.Pred || t == frontend.B128 || !isPred(in.Args[2]) {
			return laneOp{}, false
		}
		d := e.dst(in.Dsts[0])
		a, b := e.laneSrc(in.Args[0], t), e.laneSrc(in.Args[1], t)
		p, neg := e.pred(in.Args[2])
		return closureOp(func(x *laneFrame) {
			if x.p[p] != neg {
				x.r[d] = x.r[a]
			} else {
				x.r[d] = x.r[b]
			}
		}), false
	case frontend.OpLd, frontend.OpSt:
		return e.scalarParam(t)
	case frontend.OpCvt:
		return closureOp(e.scalarCvt()), false
	}
	if !intType(t) || len(in.Dsts) != 1 || isPred(in.Dsts[0]) {
		return laneOp{}, false
	}
	return e.scalarInt(t), false
}

// scalarMov is mov of a register or immediate, or of a predicate.
func (e *emitter) scalarMov(t frontend.Type) laneOp {
	in := e.in
	if !e.onlyMods() || t == frontend.B128 {
		return laneOp{}
	}
	if t == frontend.Pred {
		if !isPred(in.Args[0]) || in.Dsts[0].Kind != ssa.ArgValue {
			return laneOp{}
		}
		d := e.predDst(in.Dsts[0])
		s, neg := e.pred(in.Args[0])
		return closureOp(func(x *laneFrame) { x.p[d] = x.p[s] != neg })
	}
	if isPred(in.Args[0]) {
		return laneOp{}
	}
	d := e.dst(in.Dsts[0])
	if v, ok := laneImm(in.Args[0], t); ok {
		return immOp(laneMovImm, d, 0, v)
	}
	return regOp(laneMov, d, e.laneSrc(in.Args[0], t), 0)
}

// scalarSetp is setp with one destination and no combining predicate, of any type the
// lane loops compare with comparison: 32-bit integers with an op of their own
// (setpFastOp), the others with the lane loops' test.
func (e *emitter) scalarSetp(t frontend.Type) laneOp {
	in := e.in
	if !e.onlyMods() || len(in.Dsts) != 1 || len(in.Args) != 2 || isHalf(t) || isPred(in.Args[0]) || isPred(in.Args[1]) {
		return laneOp{}
	}
	cmp := e.compare()
	test := comparison(cmp, t)
	if test == nil {
		return laneOp{}
	}
	p := e.predDst(in.Dsts[0])
	a := e.laneSrc(in.Args[0], t)
	v, imm := laneImm(in.Args[1], t)
	b := -1
	if !imm {
		b = e.laneSrc(in.Args[1], t)
	}
	if op := setpFastOp(t, cmp, p, a, b, v, imm); op.code != laneNone {
		return op
	}
	if imm {
		return closureOp(func(x *laneFrame) { x.p[p] = test(x.r[a], v) })
	}
	return closureOp(func(x *laneFrame) { x.p[p] = test(x.r[a], x.r[b]) })
}

// scalarParam is a scalar ld.param or st.param of 4 or 8 bytes of one of the function's .param
// variables at a constant offset, into or from a register of the same width. An access
// outside the function's .param area faults (runtime.Warp.ParamBytes).
func (e *emitter) scalarParam(t frontend.Type) (laneOp, bool) {
	in := e.in
	if e.space() != frontend.SpaceParam || !e.onlyMods() || t.Bits() != 32 && t.Bits() != 64 || isHalf(t) {
		return laneOp{}, false
	}
	addr, val := in.Args[0], ssa.Arg{}
	switch {
	case in.Op == frontend.OpLd && len(in.Dsts) == 1:
		val = in.Dsts[0]
	case in.Op == frontend.OpSt && len(in.Args) == 2:
		val = in.Args[1]
	default:
		return laneOp{}, false
	}
	if addr.Kind != ssa.ArgAddr {
		return laneOp{}, false
	}
	base, ok := e.f.Param[addr.Var]
	if !ok || val.Kind == ssa.ArgValue && val.Value.Reg.Type.Bits() != t.Bits() || isPred(val) {
		return laneOp{}, false
	}
	off, n := base+addr.Offset, int64(t.Bytes())
	if off < 0 || off+n > int64(e.f.RF.ParamSize) {
		return laneOp{}, true
	}
	if in.Op == frontend.OpLd {
		if n == 4 {
			return regOp(laneLdParam32, e.dst(val), int(off), 0), false
		}
		return regOp(laneLdParam64, e.dst(val), int(off), 0), false
	}
	if n == 4 {
		return regOp(laneStParam32, int(off), e.laneSrc(val, t), 0), false
	}
	return regOp(laneStParam64, int(off), e.laneSrc(val, t), 0), false
}

// scalarInt is integer arithmetic and logic on 16-, 32- and 64-bit operands: the forms with
// an op of their own (intFastCodes) as that op, the others as scalarIntClosure.
func (e *emitter) scalarInt(t frontend.Type) laneOp {
	in := e.in
	var op intOp
	switch in.Op {
	case frontend.OpAdd:
		op = opAdd
	case frontend.OpSub:
		op = opSub
	case frontend.OpAnd:
		op = opAnd
	case frontend.OpOr:
		op = opOr
	case frontend.OpXor:
		op = opXor
	case frontend.OpShl:
		op = opShl
	case frontend.OpShr:
		op = opShr
		if t.IsSigned() {
			op = opSar
		}
	default:
		return closureOp(e.scalarIntClosure(t))
	}
	it := t
	if op == opShl || op == opShr {
		it = frontend.U32
	}
	v, imm := laneImm(in.Args[1], it)
	code := intFastCodes[intForm{t.Bits(), op, imm}]
	if code == laneNone || !e.onlyMods() {
		return closureOp(e.scalarIntClosure(t))
	}
	d, a := e.dst(in.Dsts[0]), e.laneSrc(in.Args[0], t)
	if imm {
		if op == opSub {
			v = -v
		}
		return immOp(code, d, a, v)
	}
	return regOp(code, d, a, e.laneSrc(in.Args[1], t))
}

// scalarIntClosure is scalarInt's closure, with the lane loops' expressions (arith,
// intLanes).
func (e *emitter) scalarIntClosure(t frontend.Type) laneInstr {
	in := e.in
	n := t.Bits()
	signed := t.IsSigned()
	mk := mask(n)
	wide, hi := e.has(frontend.ModWide), e.has(frontend.ModHi)
	d := e.dst(in.Dsts[0])
	src := func(i int) int { return e.laneSrc(in.Args[i], t) }
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpAnd, frontend.OpOr, frontend.OpXor, frontend.OpMin, frontend.OpMax:
		if !e.onlyMods() {
			return nil
		}
		if v, ok := laneImm(in.Args[1], t); ok {
			return scalarTypedImm(n, scalarOp(in.Op, signed), d, src(0), v)
		}
		return scalarTyped(n, scalarOp(in.Op, signed), d, src(0), src(1))
	case frontend.OpNot, frontend.OpNeg:
		if !e.onlyMods() {
			return nil
		}
		a := src(0)
		return scalarTyped(n, scalarOp(in.Op, signed), d, a, a)
	case frontend.OpShl, frontend.OpShr:
		if !e.onlyMods() {
			return nil
		}
		op := opShl
		if in.Op == frontend.OpShr {
			op = opShr
			if signed {
				op = opSar
			}
		}
		if v, ok := laneImm(in.Args[1], frontend.U32); ok {
			return scalarTypedImm(n, op, d, src(0), v)
		}
		return scalarTyped(n, op, d, src(0), e.laneSrc(in.Args[1], frontend.U32))
	case frontend.OpDiv, frontend.OpRem:
		if !e.onlyMods() {
			return nil
		}
		a, b := src(0), src(1)
		if in.Op == frontend.OpRem {
			return func(x *laneFrame) { x.r[d] = isa.Rem(x.r[a], x.r[b], n, signed) }
		}
		return func(x *laneFrame) { x.r[d] = isa.Div(x.r[a], x.r[b], n, signed) }
	case frontend.OpMul, frontend.OpMad:
		if !e.onlyMods(frontend.ModLo, frontend.ModHi, frontend.ModWide) || wide && n == 64 {
			return nil
		}
		a, b := src(0), src(1)
		var mul func(x, y uint64) uint64
		switch {
		case wide && signed:
			mul = func(x, y uint64) uint64 { return wrap(uint64(sext(x, n)*sext(y, n)), 2*n) }
		case wide:
			mul = func(x, y uint64) uint64 { return (x & mk) * (y & mk) }
		case hi:
			mul = func(x, y uint64) uint64 { return isa.MulHi(x, y, n, signed) }
		}
		if in.Op == frontend.OpMul {
			if mul == nil {
				return scalarTyped(n, opMulLo, d, a, b)
			}
			return func(x *laneFrame) { x.r[d] = mul(x.r[a], x.r[b]) }
		}
		cn := n
		if wide {
			cn = 2 * n
		}
		c := e.laneSrc(in.Args[2], typeOfBits(cn))
		if mul == nil {
			if n == 32 {
				return func(x *laneFrame) { x.r[d] = uint64(uint32(x.r[a]*x.r[b] + x.r[c])) }
			}
			return func(x *laneFrame) { x.r[d] = wrap((x.r[a]*x.r[b])&mk+x.r[c], cn) }
		}
		return func(x *laneFrame) { x.r[d] = wrap(mul(x.r[a], x.r[b])+x.r[c], cn) }
	}
	return nil
}

// scalarOp is the intOp of a two-operand (or, for not and neg, one-operand) instruction.
func scalarOp(op frontend.Opcode, signed bool) intOp {
	switch op {
	case frontend.OpSub:
		return opSub
	case frontend.OpAnd:
		return opAnd
	case frontend.OpOr:
		return opOr
	case frontend.OpXor:
		return opXor
	case frontend.OpNot:
		return opNot
	case frontend.OpNeg:
		return opNeg
	case frontend.OpMin:
		if signed {
			return opMinS
		}
		return opMin
	case frontend.OpMax:
		if signed {
			return opMaxS
		}
		return opMax
	}
	return opAdd
}

// scalarTyped is scalarInt's op on n-bit operands (16, 32 or 64).
func scalarTyped(n int, op intOp, d, a, b int) laneInstr {
	switch n {
	case 16:
		return scalarIntOp[uint16](op, d, a, b)
	case 32:
		return scalarIntOp[uint32](op, d, a, b)
	}
	return scalarIntOp[uint64](op, d, a, b)
}

// scalarIntOp is op over U for one lane, with the expressions of intLanes.
//
//go:noinline
func scalarIntOp[U unsigned](op intOp, d, a, b int) laneInstr {
	sh := 64 - 8*unsafe.Sizeof(U(0))
	switch op {
	case opAdd:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) + U(x.r[b])) }
	case opSub:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) - U(x.r[b])) }
	case opMulLo:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) * U(x.r[b])) }
	case opAnd:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) & U(x.r[b])) }
	case opOr:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) | U(x.r[b])) }
	case opXor:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) ^ U(x.r[b])) }
	case opNot:
		return func(x *laneFrame) { x.r[d] = uint64(^U(x.r[a])) }
	case opNeg:
		return func(x *laneFrame) { x.r[d] = uint64(-U(x.r[a])) }
	case opShl:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) << uint32(x.r[b])) }
	case opShr:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) >> uint32(x.r[b])) }
	case opSar:
		return func(x *laneFrame) { x.r[d] = uint64(U(int64(x.r[a]<<sh) >> sh >> uint32(x.r[b]))) }
	case opMin:
		return func(x *laneFrame) { x.r[d] = uint64(min(U(x.r[a]), U(x.r[b]))) }
	case opMax:
		return func(x *laneFrame) { x.r[d] = uint64(max(U(x.r[a]), U(x.r[b]))) }
	case opMinS:
		return func(x *laneFrame) { x.r[d] = uint64(min(int64(x.r[a]<<sh), int64(x.r[b]<<sh))) >> sh }
	}
	return func(x *laneFrame) { x.r[d] = uint64(max(int64(x.r[a]<<sh), int64(x.r[b]<<sh))) >> sh }
}

// scalarTypedImm is scalarTyped with an immediate second operand b.
func scalarTypedImm(n int, op intOp, d, a int, b uint64) laneInstr {
	switch n {
	case 16:
		return scalarIntOpImm[uint16](op, d, a, b)
	case 32:
		return scalarIntOpImm[uint32](op, d, a, b)
	}
	return scalarIntOpImm[uint64](op, d, a, b)
}

// scalarIntOpImm is scalarIntOp with an immediate second operand b, for the binary
// operations.
//
//go:noinline
func scalarIntOpImm[U unsigned](op intOp, d, a int, b uint64) laneInstr {
	sh := 64 - 8*unsafe.Sizeof(U(0))
	v := U(b)
	switch op {
	case opAdd:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) + v) }
	case opSub:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) - v) }
	case opMulLo:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) * v) }
	case opAnd:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) & v) }
	case opOr:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) | v) }
	case opXor:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) ^ v) }
	case opShl:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) << uint32(b)) }
	case opShr:
		return func(x *laneFrame) { x.r[d] = uint64(U(x.r[a]) >> uint32(b)) }
	case opSar:
		return func(x *laneFrame) { x.r[d] = uint64(U(int64(x.r[a]<<sh) >> sh >> uint32(b))) }
	case opMin:
		return func(x *laneFrame) { x.r[d] = uint64(min(U(x.r[a]), v)) }
	case opMax:
		return func(x *laneFrame) { x.r[d] = uint64(max(U(x.r[a]), v)) }
	case opMinS:
		return func(x *laneFrame) { x.r[d] = uint64(min(int64(x.r[a]<<sh), int64(b<<sh))) >> sh }
	}
	return func(x *laneFrame) { x.r[d] = uint64(max(int64(x.r[a]<<sh), int64(b<<sh))) >> sh }
}

// laneImm is the value of an integer immediate operand read as type t, as the constant
// register src would give it; ok is false for any other operand.
func laneImm(a ssa.Arg, t frontend.Type) (uint64, bool) {
	if a.Kind != ssa.ArgImm || t.IsFloat() {
		return 0, false
	}
	return truncate(a.Imm, t), true
}

// laneSrc is src for the scalar code, which records the constant registers it reads: a
// per-lane frame sets only those.
func (e *emitter) laneSrc(a ssa.Arg, t frontend.Type) int {
	s := e.src(a, t)
	if a.Kind == ssa.ArgImm {
		e.f.laneConsts[s] = true
	}
	return s
}

// scalarCvt is cvt between integer types with no modifier, with the lane loop's conversion
// (cvt): the source's n bits sign- or zero-extended, cut to the destination type, and
// sign-extended to the register's width for a signed destination.
func (e *emitter) scalarCvt() laneInstr {
	in := e.in
	ts := e.types()
	if !e.onlyMods() || len(ts) != 2 || len(in.Dsts) != 1 || isPred(in.Dsts[0]) || isPred(in.Args[0]) {
		return nil
	}
	dt, st := ts[0], ts[1]
	for _, t := range ts {
		if !intType(t) && t != frontend.B8 && t != frontend.U8 && t != frontend.S8 {
			return nil
		}
	}
	regBits := 64
	if x := in.Dsts[0]; x.Kind == ssa.ArgValue && x.Value != nil {
		regBits = x.Value.Reg.Type.Bits()
	}
	dn, sn := dt.Bits(), st.Bits()
	signedSrc, extend := st.IsSigned(), dt.IsSigned() && regBits > dn
	d, a := e.dst(in.Dsts[0]), e.laneSrc(in.Args[0], st)
	return func(x *laneFrame) {
		v := wrap(x.r[a], sn)
		if signedSrc {
			v = uint64(sext(x.r[a], sn))
		}
		v = wrap(v, dn)
		if extend {
			v = signExtend(v, dn, regBits)
		}
		x.r[d] = v
	}
}
