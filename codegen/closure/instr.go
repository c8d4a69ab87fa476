package closure

import (
	"math/bits"
	"strings"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// emitter lowers one instruction. Operands that are not plain registers (immediates, special
// registers, symbol addresses) become registers: constants, or scratch registers filled by
// code in pre that runs first.
type emitter struct {
	f   *fnCompiler
	in  *ssa.Instr
	pre []runtime.Instr
	bad bool
	// fusedDone says the lowering computes the address of a fused memory instruction itself.
	fusedDone bool
}

// instr lowers an instruction to the code that runs it, or reports it unsupported.
func (f *fnCompiler) instr(in *ssa.Instr) []runtime.Instr {
	e := &emitter{f: f, in: in}
	code := e.lowerChecked()
	if e.bad || code == nil {
		if !e.bad {
			e.unsupported()
		}
		return nil
	}
	if d, ok := e.uniformResult(); ok {
		code = uniformLanes(code, d)
	}
	if fz, ok := f.fused[in]; ok && !e.fusedDone {
		inner := code
		code = func(w *runtime.Warp, m uint32) {
			materialize(w, fz, m)
			inner(w, m)
		}
	}
	if in.Guard != nil && !layout.WarpSynchronous(in) {
		g, neg, inner := f.Regs[in.Guard.Reg.ID], in.GuardNeg, code
		code = func(w *runtime.Warp, m uint32) {
			p := w.P[g]
			if neg {
				p = ^p
			}
			if m &= p; m != 0 {
				inner(w, m)
			}
		}
	}
	return append(e.pre, code)
}

// spelling is the instruction's opcode with its modifiers, as written.
func (e *emitter) spelling() string {
	var b strings.Builder
	b.WriteString(e.in.Op.String())
	for _, m := range e.in.Mods {
		b.WriteString(m.String())
	}
	return b.String()
}

// lowerChecked is lower, with an operand list that the lowering cannot use (the verifier
// checks operand counts and types, not every shape a malformed instruction can take) reported
// at the instruction's position instead of crashing the compiler.
func (e *emitter) lowerChecked() (code runtime.Instr) {
	defer func() {
		if r := recover(); r != nil {
			code = e.errorf("%s: malformed operands (%v)", e.spelling(), r)
		}
	}()
	return e.lower()
}

func (e *emitter) unsupported() runtime.Instr {
	e.f.c.errorf(e.in.Pos, "unsupported instruction %s", e.spelling())
	e.bad = true
	return nil
}

func (e *emitter) errorf(format string, args ...any) runtime.Instr {
	e.f.c.errorf(e.in.Pos, format, args...)
	e.bad = true
	return nil
}

// has reports whether the instruction carries modifier m.
func (e *emitter) has(m frontend.Mod) bool {
	for _, x := range e.in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// oneOf returns the single modifier of e among choices, or 0 when there is none or several.
func (e *emitter) oneOf(choices ...frontend.Mod) frontend.Mod {
	var found frontend.Mod
	for _, c := range choices {
		if e.has(c) {
			if found != 0 {
				return 0
			}
			found = c
		}
	}
	return found
}

// types lists the instruction's type modifiers in order.
func (e *emitter) types() []frontend.Type {
	var ts []frontend.Type
	for _, m := range e.in.Mods {
		if t, ok := m.Type(); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// typ is the instruction's (last) type.
func (e *emitter) typ() frontend.Type { return layout.InstrType(e.in) }

// space is the instruction's state space, SpaceNone for generic addressing.
func (e *emitter) space() frontend.Space { return layout.InstrSpace(e.in) }

// compare is the comparison modifier of setp/set/slct.
func (e *emitter) compare() frontend.Mod {
	for _, m := range e.in.Mods {
		if m.Kind() == frontend.ModKindCompare {
			return m
		}
	}
	return 0
}

// rounding is the rounding modifier, 0 if none.
func (e *emitter) rounding() frontend.Mod {
	for _, m := range e.in.Mods {
		if m.Kind() == frontend.ModKindRounding {
			return m
		}
	}
	return 0
}

func (e *emitter) loc() string { return layout.Loc(e.in.Pos) }

// src returns the register holding source operand a, read as type t.
func (e *emitter) src(a ssa.Arg, t frontend.Type) int {
	f := e.f
	switch a.Kind {
	case ssa.ArgValue:
		if a.Value.Reg.Type == frontend.Pred {
			e.errorf("predicate %s used where a .%s value is expected", a.Value.Reg.Name, strings.TrimPrefix(t.String(), "."))
			return 0
		}
		return f.Regs[a.Value.Reg.ID]
	case ssa.ArgImm:
		v := a.Imm
		if t == frontend.F32 || t == frontend.F64 {
			v = layout.FloatBits(t, frontend.FloatDecimal, f64bits(float64(int64(a.Imm))))
		}
		return f.ConstSlot(truncate(v, t))
	case ssa.ArgFloat:
		// PTX has no floating-point literals for the 16-bit float types.
		if !t.IsFloat() && t.Bits() != 32 && t.Bits() != 64 || isHalf(t) {
			e.errorf("floating-point immediate for a .%s operand", strings.TrimPrefix(t.String(), "."))
			return 0
		}
		ft := t
		if !t.IsFloat() {
			ft = frontend.F32
			if t.Bits() == 64 {
				ft = frontend.F64
			}
		}
		return f.ConstSlot(layout.FloatBits(ft, a.Form, a.Imm))
	case ssa.ArgSpecial:
		return e.special(a.Name)
	case ssa.ArgSym:
		return e.symAddr(a)
	}
	e.errorf("unsupported operand")
	return 0
}

// truncate keeps the low bits of v that fit type t.
func truncate(v uint64, t frontend.Type) uint64 {
	if n := t.Bits(); n > 0 && n < 64 {
		return v & (1<<n - 1)
	}
	return v
}

// dst returns the register written by destination operand a; a sink gets a scratch register.
func (e *emitter) dst(a ssa.Arg) int {
	switch a.Kind {
	case ssa.ArgValue:
		return e.f.Regs[a.Value.Reg.ID]
	case ssa.ArgSink:
		return e.f.Scratch()
	}
	e.errorf("unsupported destination operand")
	return 0
}

// isPred reports whether an operand is a predicate register.
func isPred(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred }

// pred returns the predicate index and negation of a predicate source operand. Immediate
// predicates become constant predicates.
func (e *emitter) pred(a ssa.Arg) (int, bool) {
	if isPred(a) {
		return e.f.Regs[a.Value.Reg.ID], a.Not
	}
	if a.Kind == ssa.ArgImm {
		p := e.f.RF.NumPreds
		e.f.RF.NumPreds++
		v := a.Imm != 0
		e.pre = append(e.pre, func(w *runtime.Warp, m uint32) {
			if v {
				w.P[p] = ^uint32(0)
			} else {
				w.P[p] = 0
			}
		})
		return p, false
	}
	e.errorf("operand must be a predicate")
	return 0, false
}

// predDst returns the predicate written by a destination; a sink gets a scratch predicate.
func (e *emitter) predDst(a ssa.Arg) int {
	if a.Kind == ssa.ArgSink {
		p := e.f.RF.NumPreds
		e.f.RF.NumPreds++
		return p
	}
	if !isPred(a) {
		e.errorf("destination must be a predicate")
		return 0
	}
	return e.f.Regs[a.Value.Reg.ID]
}

// special materializes a special register into a scratch register.
func (e *emitter) special(name string) int {
	d := e.f.Scratch()
	if read := e.readSpecial(name, d); read != nil {
		e.pre = append(e.pre, read)
	}
	return d
}

// readSpecial returns code that writes special register name to slot d in the active lanes, or
// nil after reporting an unknown name.
func (e *emitter) readSpecial(name string, d int) runtime.Instr {
	if n := len(name); n == 6 && name[:5] == "%tid." && name[5] >= 'x' && name[5] <= 'z' {
		i := int(name[5] - 'x')
		return func(w *runtime.Warp, m uint32) {
			D, T := regs(w, d), &w.Tid[i]
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(T[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D[l] = uint64(T[l])
			}
		}
	}
	warp, lane := specialReader(name)
	switch {
	case warp != nil:
		return func(w *runtime.Warp, m uint32) { broadcast(regs(w, d), m, warp(w)) }
	case lane != nil:
		return func(w *runtime.Warp, m uint32) {
			D := regs(w, d)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D[l] = lane(w, l)
			}
		}
	}
	e.errorf("unsupported special register %s", name)
	return nil
}

// symAddr returns a register holding the address of a variable or function, in the
// variable's own state space (as mov does).
func (e *emitter) symAddr(a ssa.Arg) int {
	f := e.f
	if a.Fn != nil {
		rf := f.c.Funcs[a.Fn]
		if rf == nil {
			e.errorf("unsupported: address of %s, which has no body in this module", a.Fn.Name)
			return 0
		}
		return f.ConstSlot(uint64(runtime.FuncAddr(rf)) + uint64(a.Offset))
	}
	v := a.Var
	switch v.Space {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		g, off := f.c.Globals[v], uint64(a.Offset)
		return e.uniform(func(w *runtime.Warp) uint64 { return w.GlobalVar(g) + off })
	case frontend.SpaceShared:
		return f.ConstSlot(uint64(f.c.Shared[v] + a.Offset))
	case frontend.SpaceLocal:
		if off, ok := f.c.Local[v]; ok {
			return f.ConstSlot(uint64(off + a.Offset))
		}
		off := uint64(f.Local[v] + a.Offset)
		return e.uniform(func(w *runtime.Warp) uint64 { return uint64(w.LocalBase) + off })
	case frontend.SpaceParam:
		if off, ok := f.KParam[v]; ok {
			return f.ConstSlot(uint64(off + a.Offset))
		}
		if off, ok := f.Param[v]; ok {
			return f.ConstSlot(uint64(off + a.Offset))
		}
	}
	e.errorf("unsupported: the address of %s variable %s", v.Space, v.Name)
	return 0
}

// uniform materializes a value that is the same in every lane but known only at run time.
//
//go:noinline
func (e *emitter) uniform(get func(w *runtime.Warp) uint64) int {
	d := e.f.Scratch()
	e.pre = append(e.pre, func(w *runtime.Warp, m uint32) {
		v := get(w)
		D := regs(w, d)
		for ; m != 0; m &= m - 1 {
			D[bits.TrailingZeros32(m)&(ws-1)] = v
		}
	})
	return d
}

// lower dispatches on the opcode. The form is one the table of forms accepts
// (layout.CheckForms), which Compile checked before lowering any instruction.
func (e *emitter) lower() runtime.Instr {
	if e.hasPackedInt() {
		return e.packedInt()
	}
	switch e.in.Op {
	case frontend.OpMov:
		return e.mov()
	case frontend.OpLd, frontend.OpLdu:
		return e.load()
	case frontend.OpSt:
		return e.store()
	case frontend.OpCvta:
		return e.cvta()
	case frontend.OpCvt:
		return e.cvt()
	case frontend.OpSetp:
		if isHalf(e.typ()) {
			return e.halfSetp()
		}
		return e.setp()
	case frontend.OpSelp:
		return e.selp()
	case frontend.OpAtom, frontend.OpRed:
		return e.atom()
	case frontend.OpShfl, frontend.OpVote, frontend.OpActivemask, frontend.OpMatch, frontend.OpRedux, frontend.OpElect:
		return e.warp()
	case frontend.OpIsspacep:
		return e.isspacep()
	case frontend.OpMbarrier:
		return e.mbarrier()
	case frontend.OpCp:
		return e.cpAsync()
	case frontend.OpLdmatrix, frontend.OpMma:
		return e.matrix()
	case frontend.OpWmma:
		return e.wmma()
	case frontend.OpTex, frontend.OpTld4, frontend.OpTxq, frontend.OpSuld, frontend.OpSust, frontend.OpSured,
		frontend.OpSuq, frontend.OpIstypeof:
		return e.image()
	case frontend.OpPrefetch, frontend.OpPrefetchu:
		return e.prefetch()
	case frontend.OpApplypriority, frontend.OpDiscard:
		return e.cacheHint()
	case frontend.OpCreatepolicy:
		return e.createPolicy()
	case frontend.OpNanosleep:
		return e.nanosleep()
	case frontend.OpPmevent, frontend.OpGriddepcontrol, frontend.OpSetmaxnreg:
		return e.pmevent()
	case frontend.OpBrkpt:
		return e.brkpt()
	case frontend.OpMembar, frontend.OpFence:
		// CTAs share memory through Go atomics and each CTA runs on one goroutine, so
		// program order already gives the ordering fences ask for.
		return func(*runtime.Warp, uint32) {}
	case frontend.OpBar, frontend.OpBarrier:
		if e.has(modWarp) {
			return e.warp()
		}
	}
	if isPred(firstDst(e.in)) && (e.in.Op == frontend.OpAnd || e.in.Op == frontend.OpOr || e.in.Op == frontend.OpXor || e.in.Op == frontend.OpNot) {
		return e.predLogic()
	}
	return e.arith()
}

func firstDst(in *ssa.Instr) ssa.Arg {
	if len(in.Dsts) == 0 {
		return ssa.Arg{Kind: ssa.ArgSink}
	}
	return in.Dsts[0]
}

func (e *emitter) mov() runtime.Instr {
	in := e.in
	d, a := in.Dsts[0], in.Args[0]
	t := e.typ()
	switch {
	case t == frontend.B128:
		return e.movB128()
	case t == frontend.Pred:
		pd := e.predDst(d)
		ps, neg := e.pred(a)
		return func(w *runtime.Warp, m uint32) {
			v := w.P[ps]
			if neg {
				v = ^v
			}
			writePred(w, pd, m, v)
		}
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector:
		return e.moveVector(d.Elems, a.Elems, t)
	case d.Kind == ssa.ArgVector:
		// Unpack: mov.b64 {lo, hi}, %rd.
		return e.unpack(d.Elems, e.src(a, t), t.Bits())
	case a.Kind == ssa.ArgVector:
		return e.pack(e.dst(d), a.Elems, t)
	}
	if a.Kind == ssa.ArgSpecial && d.Kind == ssa.ArgValue && t.Bits() >= 32 {
		// mov %r, %tid.x and friends write the register directly.
		return e.readSpecial(a.Name, e.dst(d))
	}
	return copyLanes(e.dst(d), e.src(a, t))
}

// moveVector is mov.v2/.v4. Every source is read before any destination is written, as on
// the GPU: destinations may name sources in another order (`mov.v2.u32 {a, b}, {b, a}` swaps).
func (e *emitter) moveVector(dsts, srcs []ssa.Arg, t frontend.Type) runtime.Instr {
	src := make([]int, len(srcs))
	for i, a := range srcs {
		src[i] = e.src(a, t)
	}
	dst := make([]int, len(dsts))
	for i, a := range dsts {
		dst[i] = e.dst(a)
	}
	return func(w *runtime.Warp, m uint32) {
		var old [4][ws]uint64
		for i, s := range src {
			old[i] = *regs(w, s)
		}
		for i, d := range dst {
			D := regs(w, d)
			if m == ^uint32(0) {
				*D = old[i]
				continue
			}
			for x := m; x != 0; x &= x - 1 {
				l := bits.TrailingZeros32(x) & (ws - 1)
				D[l] = old[i][l]
			}
		}
	}
}

// pack concatenates element registers into one wide value, first element lowest.
func (e *emitter) pack(d int, elems []ssa.Arg, t frontend.Type) runtime.Instr {
	n := len(elems)
	eb := t.Bits() / n
	et := typeOfBits(eb)
	src := make([]int, n)
	for i, x := range elems {
		src[i] = e.src(x, et)
	}
	return func(w *runtime.Warp, m uint32) {
		D := regs(w, d)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			var v uint64
			for i := n - 1; i >= 0; i-- {
				v = v<<eb | w.R[src[i]*ws+l]&(1<<eb-1)
			}
			D[l] = v
		}
	}
}

// unpack splits a wide value into element registers, first element lowest.
func (e *emitter) unpack(elems []ssa.Arg, a, width int) runtime.Instr {
	n := len(elems)
	eb := width / n
	dst := make([]int, n)
	for i, x := range elems {
		dst[i] = e.dst(x)
	}
	mask := uint64(1)<<eb - 1
	return func(w *runtime.Warp, m uint32) {
		A := regs(w, a)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			v := A[l]
			for i := range n {
				w.R[dst[i]*ws+l] = v >> (i * eb) & mask
			}
		}
	}
}

// typeOfBits is the bit-size type of a width.
func typeOfBits(n int) frontend.Type {
	switch n {
	case 8:
		return frontend.B8
	case 16:
		return frontend.B16
	case 32:
		return frontend.B32
	}
	return frontend.B64
}

func (e *emitter) cvta() runtime.Instr {
	d, a := e.dst(e.in.Dsts[0]), e.src(e.in.Args[0], e.typ())
	to := e.has(frontend.ModTo)
	var base uint64
	switch e.space() {
	case frontend.SpaceGlobal, frontend.SpaceConst:
	case frontend.SpaceShared:
		base = uint64(runtime.SharedWindow)
	case frontend.SpaceLocal:
		base = uint64(runtime.LocalWindow)
	case frontend.SpaceParam:
		base = uint64(runtime.ParamWindow)
	}
	width := e.typ()
	if base == 0 {
		return copyLanes(d, a)
	}
	if to {
		return lanes1(d, a, func(x uint64) uint64 { return truncate(x-base, width) })
	}
	return lanes1(d, a, func(x uint64) uint64 { return truncate(x+base, width) })
}

func (e *emitter) selp() runtime.Instr {
	t := e.typ()
	d := e.dst(e.in.Dsts[0])
	a, b := e.src(e.in.Args[0], t), e.src(e.in.Args[1], t)
	p, neg := e.pred(e.in.Args[2])
	return func(w *runtime.Warp, m uint32) {
		D, A, B := regs(w, d), regs(w, a), regs(w, b)
		c := w.P[p]
		if neg {
			c = ^c
		}
		if m == ^uint32(0) {
			for l := range ws {
				take := -uint64(c >> l & 1) // all ones where lane l takes a
				D[l] = B[l] ^ (A[l]^B[l])&take
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			if c&(1<<l) != 0 {
				D[l] = A[l]
			} else {
				D[l] = B[l]
			}
		}
	}
}

// predLogic is and/or/xor/not on predicates.
func (e *emitter) predLogic() runtime.Instr {
	d := e.predDst(e.in.Dsts[0])
	a, na := e.pred(e.in.Args[0])
	if e.in.Op == frontend.OpNot {
		return func(w *runtime.Warp, m uint32) {
			v := w.P[a]
			if !na {
				v = ^v
			}
			writePred(w, d, m, v)
		}
	}
	b, nb := e.pred(e.in.Args[1])
	op := e.in.Op
	return func(w *runtime.Warp, m uint32) {
		x, y := w.P[a], w.P[b]
		if na {
			x = ^x
		}
		if nb {
			y = ^y
		}
		var r uint32
		switch op {
		case frontend.OpAnd:
			r = x & y
		case frontend.OpOr:
			r = x | y
		default:
			r = x ^ y
		}
		writePred(w, d, m, r)
	}
}

// barrier lowers bar/barrier into a barrier terminator's operands: the table of forms
// (layout.CheckForms) admits no guard and only registers and immediates as operands.
func (f *fnCompiler) barrier(in *ssa.Instr) *runtime.Barrier {
	e := &emitter{f: f, in: in}
	b := &runtime.Barrier{Kind: runtime.BarSync, Count: -1}
	args := in.Args
	switch {
	case e.has(frontend.ModArrive):
		b.Kind = runtime.BarArrive
	case e.has(frontend.ModRed):
		// bar.red writes its first operand; the SSA builder lists it with the sources.
		dst := ssa.Arg{Kind: ssa.ArgSink}
		if len(in.Dsts) > 0 {
			dst = in.Dsts[0]
		} else if len(args) > 0 {
			dst, args = args[0], args[1:]
		}
		switch {
		case e.has(frontend.ModPopc):
			b.Kind = runtime.BarRedPopc
			b.Dst = e.dst(dst)
		case e.has(frontend.ModAnd):
			b.Kind = runtime.BarRedAnd
			b.Dst = e.predDst(dst)
		default:
			b.Kind = runtime.BarRedOr
			b.Dst = e.predDst(dst)
		}
		last := args[len(args)-1]
		b.Pred, b.PredNeg = e.pred(last)
		args = args[:len(args)-1]
	}
	switch {
	case len(args) == 0:
		b.Fixed = true
	case args[0].Kind == ssa.ArgImm:
		b.Fixed, b.Num = true, args[0].Imm&0xffffffff
	default:
		b.ID = e.src(args[0], frontend.U32)
	}
	if len(args) > 1 {
		b.Count = e.src(args[1], frontend.U32)
	}
	return b
}
