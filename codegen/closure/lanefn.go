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
// (layout.LaneFuncs) also gets a scalar form: closures over one lane's registers
// (laneFrame), one block per SSA block with its successors as indices, run by a small loop,
// and calls as Go calls to the callee's form, recursion as Go recursion. The runtime runs the
// trampoline's calls of it with that form (runtime.Func.PerLane, runtime/lanescalar.go), lane
// after lane, where the launch collects no statistics and runs no checks.
//
// A form has the scalar code of the instructions the SIMT code runs, with the same operand
// slots and the same arithmetic (the expressions of the lane loops, the same isa helpers and
// comparisons), so each lane ends with the bits the SIMT stack gives it. Only the common
// integer arithmetic and conversion, comparison, selection and .param instructions have a
// scalar form: a function with any other instruction, or calling one that has none, keeps
// the SIMT stack. A block with an instruction that faults (a .param access outside the area)
// gives the call back to the stack, which raises the fault.

// laneFrame is one lane's activation of a per-lane form: its registers, by the layout's
// register slots, its predicates and its .param area.
type laneFrame struct {
	r     []uint64
	p     []bool
	param []byte
}

// laneInstr runs one instruction for one lane.
type laneInstr func(x *laneFrame)

// laneTerm is how a per-lane block ends.
type laneTerm uint8

const (
	laneJump   laneTerm = iota // to succ (the form's exit for ret)
	laneBranch                 // to succ where the predicate (negated when neg) holds, else alt
	laneCall                   // a call of site, then to succ
	laneFault                  // an instruction of the block faults: the stack must run the call
)

// laneBlock is one SSA block of a per-lane form.
type laneBlock struct {
	code      []laneInstr
	term      laneTerm
	succ, alt int32
	pred      int
	neg       bool
	site      *laneSite
}

// laneSite is a call in a per-lane form: the caller's argument and result slots, and the
// callee's form (set once every function is compiled).
type laneSite struct {
	cs     *runtime.CallSite
	callee *laneFn
}

// laneFn is the per-lane form of a device function.
type laneFn struct {
	rf     *runtime.Func
	blocks []laneBlock
	sites  []*laneSite
	// consts are the constant registers the scalar code reads.
	consts []runtime.Const
}

// laneForm compiles the per-lane form of f's function, or returns nil where an instruction
// has no scalar form. It runs after the SIMT blocks, whose call sites it shares.
func (f *fnCompiler) laneForm() *laneFn {
	fn := f.Fn
	lf := &laneFn{rf: f.RF, blocks: make([]laneBlock, len(fn.Blocks))}
	f.laneConsts = map[int]bool{}
	exit := int32(len(fn.Blocks))
	index := func(b *ssa.Block) int32 {
		if b == nil || b == fn.Exit {
			return exit
		}
		return int32(b.ID)
	}
	for i, b := range fn.Blocks {
		lb := &lf.blocks[i]
		for _, in := range b.Instrs {
			code, faults, ok := f.laneInstr(in)
			if !ok {
				return nil
			}
			if faults {
				lb.term = laneFault
				break
			}
			lb.code = append(lb.code, code)
		}
		if lb.term == laneFault {
			continue
		}
		switch t := &b.Term; t.Kind {
		case ssa.TermJump:
			lb.succ = index(b.Succs[0])
		case ssa.TermRet:
			lb.succ = exit
		case ssa.TermBranch:
			lb.term, lb.succ, lb.alt = laneBranch, index(b.Succs[0]), index(b.Succs[1])
			lb.pred, lb.neg = f.Regs[t.Cond.Reg.ID], t.Negate
		case ssa.TermCall:
			last := f.Exit - 1
			if i+1 < len(fn.Blocks) {
				last = f.Start[i+1] - 1
			}
			lb.term, lb.succ = laneCall, index(b.Succs[0])
			lb.site = &laneSite{cs: f.blocks[last].Term.Call}
			lf.sites = append(lf.sites, lb.site)
		default:
			return nil
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
// runtime.Func.PerLane; the others keep the SIMT stack.
func (c *compiler) setPerLane() {
	forms := map[*runtime.Func]*laneFn{}
	for _, lf := range c.laneForms {
		forms[lf.rf] = lf
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
// it before writing it. A frame keeps its memory for the next activations.
func (x *laneFrame) start(lf *laneFn) {
	fn := lf.rf
	nr, np, ns := fn.NumRegs, fn.NumPreds, fn.ParamSize
	if nr > cap(x.r) || np > cap(x.p) || ns > cap(x.param) {
		x.r, x.p, x.param = make([]uint64, max(nr, cap(x.r))), make([]bool, max(np, cap(x.p))), make([]byte, max(ns, cap(x.param)))
	}
	x.r, x.p, x.param = x.r[:nr], x.p[:np], x.param[:ns]
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

// run runs the form in frame x to its ret, and reports whether it got there within the run's
// blocks and call depth, with no fault on the way.
func (lf *laneFn) run(run *laneRun, x *laneFrame) bool {
	blocks := lf.blocks
	exit := int32(len(blocks))
	pc := int32(0)
	for pc != exit {
		if run.blocks--; run.blocks < 0 {
			return false
		}
		b := &blocks[pc]
		for _, in := range b.code {
			in(x)
		}
		switch b.term {
		case laneJump:
			pc = b.succ
		case laneBranch:
			if x.p[b.pred] != b.neg {
				pc = b.succ
			} else {
				pc = b.alt
			}
		case laneCall:
			if !b.site.call(run, x) {
				return false
			}
			pc = b.succ
		default:
			return false
		}
	}
	return true
}

// call makes the call of site s from frame x, in a frame of the callee's own, copying the
// arguments and results as the call-return stack does (runtime's copySlot).
func (s *laneSite) call(run *laneRun, x *laneFrame) bool {
	if run.depth == 0 {
		return false
	}
	fn := s.callee.rf
	if run.level == len(run.nested) {
		run.nested = append(run.nested, new(laneFrame))
	}
	y := run.nested[run.level]
	y.start(s.callee)
	cs := s.cs
	for i := range cs.Args {
		a, p := &cs.Args[i], &fn.Params[i]
		switch {
		case a.Reg < 0 && p.Reg < 0 && a.Size == 4 && p.Size == 4:
			binary.LittleEndian.PutUint32(y.param[p.ParamOff:], binary.LittleEndian.Uint32(x.param[a.ParamOff:]))
		case a.Pred:
			y.p[p.Reg] = x.p[a.Reg]
		case a.Reg >= 0:
			y.put(p, x.r[a.Reg])
		default:
			y.putBytes(p, x.param[a.ParamOff:][:a.Size])
		}
	}
	run.depth--
	run.level++
	ok := s.callee.run(run, y)
	run.level--
	run.depth++
	if ok {
		for i := range cs.Results {
			d, r := &cs.Results[i], &fn.Results[i]
			switch {
			case d.Reg < 0 && r.Reg < 0 && d.Size == 4 && r.Size == 4:
				binary.LittleEndian.PutUint32(x.param[d.ParamOff:], binary.LittleEndian.Uint32(y.param[r.ParamOff:]))
			case d.Pred:
				x.p[d.Reg] = y.p[r.Reg]
			case d.Reg >= 0:
				x.r[d.Reg] = y.get(r)
			default:
				putSlotBytes(x.param[d.ParamOff:][:d.Size], y, r)
			}
		}
	}
	return ok
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

// laneInstr returns the scalar code of an instruction of a per-lane function, and whether
// the instruction always faults; ok is false where it has no scalar form.
func (f *fnCompiler) laneInstr(in *ssa.Instr) (code laneInstr, faults, ok bool) {
	if !laneOperands(in) {
		return nil, false, false
	}
	e := &emitter{f: f, in: in}
	code, faults = e.scalar()
	if code == nil && !faults || e.bad || len(e.pre) > 0 {
		return nil, false, false
	}
	if g := in.Guard; g != nil && code != nil {
		p, neg, inner := f.Regs[g.Reg.ID], in.GuardNeg, code
		code = func(x *laneFrame) {
			if x.p[p] != neg {
				inner(x)
			}
		}
	}
	return code, faults, true
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

// scalar lowers the instruction to its scalar code: nil where it has none, or where faults
// says it always faults.
func (e *emitter) scalar() (code laneInstr, faults bool) {
	in := e.in
	t := e.typ()
	switch in.Op {
	case frontend.OpMov:
		return e.scalarMov(t), false
	case frontend.OpSetp:
		return e.scalarSetp(t), false
	case frontend.OpSelp:
		if !e.onlyMods() || t == frontend.Pred || t == frontend.B128 || !isPred(in.Args[2]) {
			return nil, false
		}
		d := e.dst(in.Dsts[0])
		a, b := e.laneSrc(in.Args[0], t), e.laneSrc(in.Args[1], t)
		p, neg := e.pred(in.Args[2])
		return func(x *laneFrame) {
			if x.p[p] != neg {
				x.r[d] = x.r[a]
			} else {
				x.r[d] = x.r[b]
			}
		}, false
	case frontend.OpLd, frontend.OpSt:
		return e.scalarParam(t)
	case frontend.OpCvt:
		return e.scalarCvt(), false
	}
	if !intType(t) || len(in.Dsts) != 1 || isPred(in.Dsts[0]) {
		return nil, false
	}
	return e.scalarInt(t), false
}

// scalarMov is mov of a register or immediate, or of a predicate.
func (e *emitter) scalarMov(t frontend.Type) laneInstr {
	in := e.in
	if !e.onlyMods() || t == frontend.B128 {
		return nil
	}
	if t == frontend.Pred {
		if !isPred(in.Args[0]) || in.Dsts[0].Kind != ssa.ArgValue {
			return nil
		}
		d := e.predDst(in.Dsts[0])
		s, neg := e.pred(in.Args[0])
		return func(x *laneFrame) { x.p[d] = x.p[s] != neg }
	}
	if isPred(in.Args[0]) {
		return nil
	}
	d := e.dst(in.Dsts[0])
	if v, ok := laneImm(in.Args[0], t); ok {
		return func(x *laneFrame) { x.r[d] = v }
	}
	a := e.laneSrc(in.Args[0], t)
	return func(x *laneFrame) { x.r[d] = x.r[a] }
}

// scalarSetp is setp with one destination and no combining predicate, of any type the
// lane loops compare with comparison.
func (e *emitter) scalarSetp(t frontend.Type) laneInstr {
	in := e.in
	if !e.onlyMods() || len(in.Dsts) != 1 || len(in.Args) != 2 || isHalf(t) || isPred(in.Args[0]) || isPred(in.Args[1]) {
		return nil
	}
	cmp := e.compare()
	test := comparison(cmp, t)
	if test == nil {
		return nil
	}
	p := e.predDst(in.Dsts[0])
	if v, ok := laneImm(in.Args[1], t); ok && !isPred(in.Args[0]) {
		a := e.laneSrc(in.Args[0], t)
		switch {
		case t == frontend.S32 && cmp == frontend.ModLt:
			return func(x *laneFrame) { x.p[p] = int32(x.r[a]) < int32(v) }
		case t == frontend.U32 && cmp == frontend.ModLt:
			return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) < uint32(v) }
		case t.Bits() == 32 && cmp == frontend.ModEq:
			return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) == uint32(v) }
		case t.Bits() == 32 && cmp == frontend.ModNe:
			return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) != uint32(v) }
		}
		return func(x *laneFrame) { x.p[p] = test(x.r[a], v) }
	}
	a, b := e.laneSrc(in.Args[0], t), e.laneSrc(in.Args[1], t)
	switch {
	case t == frontend.S32 && cmp == frontend.ModLt:
		return func(x *laneFrame) { x.p[p] = int32(x.r[a]) < int32(x.r[b]) }
	case t == frontend.U32 && cmp == frontend.ModLt:
		return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) < uint32(x.r[b]) }
	case t.Bits() == 32 && cmp == frontend.ModEq:
		return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) == uint32(x.r[b]) }
	case t.Bits() == 32 && cmp == frontend.ModNe:
		return func(x *laneFrame) { x.p[p] = uint32(x.r[a]) != uint32(x.r[b]) }
	}
	return func(x *laneFrame) { x.p[p] = test(x.r[a], x.r[b]) }
}

// scalarParam is a scalar ld.param or st.param of 4 or 8 bytes of one of the function's .param
// variables at a constant offset, into or from a register of the same width. An access
// outside the function's .param area faults (runtime.Warp.ParamBytes).
func (e *emitter) scalarParam(t frontend.Type) (laneInstr, bool) {
	in := e.in
	if e.space() != frontend.SpaceParam || !e.onlyMods() || t.Bits() != 32 && t.Bits() != 64 || isHalf(t) {
		return nil, false
	}
	addr, val := in.Args[0], ssa.Arg{}
	switch {
	case in.Op == frontend.OpLd && len(in.Dsts) == 1:
		val = in.Dsts[0]
	case in.Op == frontend.OpSt && len(in.Args) == 2:
		val = in.Args[1]
	default:
		return nil, false
	}
	if addr.Kind != ssa.ArgAddr {
		return nil, false
	}
	base, ok := e.f.Param[addr.Var]
	if !ok || val.Kind == ssa.ArgValue && val.Value.Reg.Type.Bits() != t.Bits() || isPred(val) {
		return nil, false
	}
	off, n := base+addr.Offset, int64(t.Bytes())
	if off < 0 || off+n > int64(e.f.RF.ParamSize) {
		return nil, true
	}
	if in.Op == frontend.OpLd {
		d := e.dst(val)
		if n == 4 {
			return func(x *laneFrame) { x.r[d] = uint64(binary.LittleEndian.Uint32(x.param[off:])) }, false
		}
		return func(x *laneFrame) { x.r[d] = binary.LittleEndian.Uint64(x.param[off:]) }, false
	}
	a := e.laneSrc(val, t)
	if n == 4 {
		return func(x *laneFrame) { binary.LittleEndian.PutUint32(x.param[off:], uint32(x.r[a])) }, false
	}
	return func(x *laneFrame) { binary.LittleEndian.PutUint64(x.param[off:], x.r[a]) }, false
}

// scalarInt is integer arithmetic and logic on 16-, 32- and 64-bit operands, with the lane
// loops' expressions (arith, intLanes).
func (e *emitter) scalarInt(t frontend.Type) laneInstr {
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
