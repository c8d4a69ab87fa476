package reference

import (
	"errors"
	"math/bits"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// errUnsupported makes exec report the instruction as unsupported.
var errUnsupported = errors.New("unsupported")

// spelling is an instruction's opcode and modifiers as written.
func spelling(in *ssa.Instr) string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	for _, m := range in.Mods {
		b.WriteString(m.String())
	}
	return b.String()
}

// inst is the instruction being executed, with its decoded modifiers.
type inst struct {
	*ssa.Instr
	t *thread
	f *frame
}

func (x inst) has(m frontend.Mod) bool {
	for _, y := range x.Mods {
		if y == m {
			return true
		}
	}
	return false
}

func (x inst) types() []frontend.Type {
	var ts []frontend.Type
	for _, m := range x.Mods {
		if t, ok := m.Type(); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// typ is the last type modifier.
func (x inst) typ() frontend.Type {
	ts := x.types()
	if len(ts) == 0 {
		return frontend.TypeNone
	}
	return ts[len(ts)-1]
}

func (x inst) space() frontend.Space {
	for _, m := range x.Mods {
		if s, ok := m.Space(); ok {
			return s
		}
	}
	return frontend.SpaceNone
}

func (x inst) compare() frontend.Mod {
	for _, m := range x.Mods {
		if m.Kind() == frontend.ModKindCompare {
			return m
		}
	}
	return 0
}

func (x inst) vector() int {
	switch {
	case x.has(frontend.ModV2):
		return 2
	case x.has(frontend.ModV4):
		return 4
	case x.has(frontend.ModV8):
		return 8
	}
	return 1
}

func wrap(v uint64, n int) uint64 {
	if n <= 0 || n >= 64 {
		return v
	}
	return v & (1<<n - 1)
}

// ext reads the low n bits of v as a signed or unsigned 64-bit number.
func ext(v uint64, n int, signed bool) uint64 {
	if signed {
		return uint64(isa.Sext(v, n))
	}
	return wrap(v, n)
}

// exec runs one instruction (not a terminator) of frame f.
func (t *thread) exec(f *frame, in *ssa.Instr) (err error) {
	if isWarpSync(in) {
		return t.arriveWarpSync(f, in)
	}
	if in.Guard != nil {
		g := f.regs[in.Guard.Reg.ID] != 0
		if g == in.GuardNeg {
			return nil
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = t.errorf(pos(in.Pos), "malformed instruction %s (%v)", spelling(in), r)
		}
	}()
	x := inst{Instr: in, t: t, f: f}
	err = x.run()
	if errors.Is(err, errUnsupported) {
		return t.errorf(pos(in.Pos), "unsupported instruction %s", spelling(in))
	}
	return err
}

// src reads source operand a as type ty: a register's low ty.Bits() bits, an immediate, a
// special register or a symbol's address.
func (x inst) src(a ssa.Arg, ty frontend.Type) (uint64, error) {
	n := ty.Bits()
	switch a.Kind {
	case ssa.ArgValue:
		v := x.f.regs[a.Value.Reg.ID]
		if a.Value.Reg.Type == frontend.Pred {
			return 0, errUnsupported
		}
		return wrap(v, n), nil
	case ssa.ArgImm:
		if ty.IsFloat() {
			return 0, errUnsupported
		}
		return wrap(a.Imm, n), nil
	case ssa.ArgSpecial:
		v, err := x.special(a.Name)
		return wrap(v, n), err
	case ssa.ArgSym:
		v, err := x.symAddr(a)
		return wrap(v, n), err
	}
	return 0, errUnsupported
}

// pred reads a predicate operand (an immediate 0 or 1 too), with its negation.
func (x inst) pred(a ssa.Arg) (bool, error) {
	switch {
	case a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred:
		return (x.f.regs[a.Value.Reg.ID] != 0) != a.Not, nil
	case a.Kind == ssa.ArgImm:
		return a.Imm != 0, nil
	}
	return false, errUnsupported
}

func isPred(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred }

// dst writes v, a value of type ty, to destination a: the low ty.Bits() bits, sign-extended to
// a wider register when ty is signed.
func (x inst) dst(a ssa.Arg, v uint64, ty frontend.Type) error {
	switch a.Kind {
	case ssa.ArgSink:
		return nil
	case ssa.ArgValue:
	default:
		return errUnsupported
	}
	r := a.Value.Reg
	if r.Type == frontend.Pred {
		return errUnsupported
	}
	n, rn := ty.Bits(), r.Type.Bits()
	v = wrap(v, n)
	if ty.IsSigned() && rn > n {
		v = uint64(isa.Sext(v, n))
	}
	x.f.regs[r.ID] = wrap(v, rn)
	return nil
}

func (x inst) setPred(a ssa.Arg, v bool) error {
	switch {
	case a.Kind == ssa.ArgSink:
		return nil
	case !isPred(a):
		return errUnsupported
	}
	x.f.regs[a.Value.Reg.ID] = b2u(v)
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// special reads a special register.
func (x inst) special(name string) (uint64, error) {
	t := x.t
	ln := t.c.ln
	comp := func(d runtime.Dim3, c byte) uint64 {
		switch c {
		case 'x':
			return uint64(d.X)
		case 'y':
			return uint64(d.Y)
		}
		return uint64(d.Z)
	}
	if n := len(name); n > 2 && name[n-2] == '.' && name[n-1] >= 'x' && name[n-1] <= 'z' {
		c := name[n-1]
		switch name[:n-2] {
		case "%tid":
			return comp(t.tid, c), nil
		case "%ntid":
			return comp(ln.cfg.Block, c), nil
		case "%ctaid":
			return comp(t.c.id, c), nil
		case "%nctaid":
			return comp(ln.cfg.Grid, c), nil
		}
	}
	lane := uint64(t.linear % 32)
	switch name {
	case "%laneid":
		return lane, nil
	case "%warpid":
		return uint64(t.linear / 32), nil
	case "%nwarpid":
		return (ln.cfg.Block.Count() + 31) / 32, nil
	case "%lanemask_eq":
		return 1 << lane, nil
	case "%lanemask_lt":
		return 1<<lane - 1, nil
	case "%lanemask_le":
		return 1<<(lane+1) - 1, nil
	case "%lanemask_gt":
		return uint64(^uint32(1<<(lane+1) - 1)), nil
	case "%lanemask_ge":
		return uint64(^uint32(1<<lane - 1)), nil
	case "%dynamic_smem_size":
		return uint64(ln.cfg.DynamicShared), nil
	}
	return 0, errUnsupported
}

// symAddr is the address of a function or variable, in the variable's own state space.
func (x inst) symAddr(a ssa.Arg) (uint64, error) {
	l := x.t.c.ln.l
	if a.Fn != nil {
		i, ok := l.index[a.Fn]
		if !ok {
			return 0, errUnsupported
		}
		return funcAddr(i) + uint64(a.Offset), nil
	}
	v := a.Var
	switch v.Space {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		return l.globals[v] + uint64(a.Offset), nil
	case frontend.SpaceShared:
		return uint64(l.shared[v] + a.Offset), nil
	case frontend.SpaceLocal:
		if o, ok := l.modLocal[v]; ok {
			return uint64(o + a.Offset), nil
		}
		if o, ok := x.f.fl.local[v]; ok {
			return uint64(x.f.localBase + o + a.Offset), nil
		}
	case frontend.SpaceParam:
		if o, ok := x.f.fl.kparam[v]; ok {
			return uint64(o + a.Offset), nil
		}
		if o, ok := x.f.fl.param[v]; ok {
			return uint64(o + a.Offset), nil
		}
	}
	return 0, errUnsupported
}

func (x inst) run() error {
	switch x.Op {
	case frontend.OpMov:
		return x.mov()
	case frontend.OpLd, frontend.OpLdu:
		return x.load()
	case frontend.OpSt:
		return x.store()
	case frontend.OpAtom, frontend.OpRed:
		return x.atom()
	case frontend.OpCvta:
		return x.cvta()
	case frontend.OpCvt:
		return x.cvt()
	case frontend.OpSetp:
		return x.setp()
	case frontend.OpSet:
		return x.set()
	case frontend.OpSelp:
		return x.selp()
	case frontend.OpSlct:
		return x.slct()
	case frontend.OpMembar, frontend.OpFence:
		return nil
	case frontend.OpBar, frontend.OpBarrier:
		return x.barrier()
	}
	if len(x.Dsts) == 1 && isPred(x.Dsts[0]) {
		return x.predLogic()
	}
	return x.arith()
}

// barrier is bar.sync/barrier.sync with a barrier number and no thread count; the thread
// stops until its CTA's scheduler releases it. bar.warp.sync is a no-op for a thread alone.
func (x inst) barrier() error {
	if x.has(frontend.ModArrive) || x.has(frontend.ModRed) {
		return errUnsupported
	}
	if w, ok := frontend.LookupMod(".warp"); ok && x.has(w) {
		return nil
	}
	if len(x.Args) != 1 {
		return errUnsupported
	}
	id, err := x.src(x.Args[0], frontend.U32)
	if err != nil {
		return err
	}
	x.t.waiting, x.t.barrier, x.t.barLoc = true, id, pos(x.Pos)
	return nil
}

func (x inst) mov() error {
	t := x.typ()
	d, a := x.Dsts[0], x.Args[0]
	switch {
	case t == frontend.Pred:
		p, err := x.pred(a)
		if err != nil {
			return err
		}
		return x.setPred(d, p)
	case t.IsFloat() || t.Bits() > 64 || t.Bits() == 0:
		return errUnsupported
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector:
		if len(d.Elems) != len(a.Elems) {
			return errUnsupported
		}
		vals := make([]uint64, len(a.Elems))
		for i, e := range a.Elems {
			v, err := x.src(e, t)
			if err != nil {
				return err
			}
			vals[i] = v
		}
		for i, e := range d.Elems {
			if err := x.dst(e, vals[i], t); err != nil {
				return err
			}
		}
		return nil
	case d.Kind == ssa.ArgVector: // unpack, first element lowest
		v, err := x.src(a, t)
		if err != nil {
			return err
		}
		eb := t.Bits() / len(d.Elems)
		et := bitsType(eb)
		for i, e := range d.Elems {
			if err := x.dst(e, v>>(i*eb), et); err != nil {
				return err
			}
		}
		return nil
	case a.Kind == ssa.ArgVector: // pack
		eb := t.Bits() / len(a.Elems)
		et := bitsType(eb)
		var v uint64
		for i, e := range a.Elems {
			ev, err := x.src(e, et)
			if err != nil {
				return err
			}
			v |= wrap(ev, eb) << (i * eb)
		}
		return x.dst(d, v, t)
	}
	v, err := x.src(a, t)
	if err != nil {
		return err
	}
	return x.dst(d, v, t)
}

func bitsType(n int) frontend.Type {
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

// predLogic is and/or/xor/not on predicates.
func (x inst) predLogic() error {
	a, err := x.pred(x.Args[0])
	if err != nil {
		return err
	}
	if x.Op == frontend.OpNot {
		return x.setPred(x.Dsts[0], !a)
	}
	if len(x.Args) != 2 {
		return errUnsupported
	}
	b, err := x.pred(x.Args[1])
	if err != nil {
		return err
	}
	var r bool
	switch x.Op {
	case frontend.OpAnd:
		r = a && b
	case frontend.OpOr:
		r = a || b
	case frontend.OpXor:
		r = a != b
	default:
		return errUnsupported
	}
	return x.setPred(x.Dsts[0], r)
}

// args reads the first n source operands as type ty.
func (x inst) args(ty frontend.Type, n int) ([]uint64, error) {
	if len(x.Args) < n {
		return nil, errUnsupported
	}
	out := make([]uint64, n)
	for i := range n {
		v, err := x.src(x.Args[i], ty)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// intCompare tests a cmp b on integers of type ty; ok is false for an invalid pair.
func intCompare(cmp frontend.Mod, ty frontend.Type, a, b uint64) (r, ok bool) {
	n := ty.Bits()
	if ty.IsFloat() || n == 0 || n > 64 {
		return false, false
	}
	a, b = wrap(a, n), wrap(b, n)
	switch cmp {
	case frontend.ModEq:
		return a == b, true
	case frontend.ModNe:
		return a != b, true
	}
	if ty.IsBits() {
		return false, false
	}
	var lt, gt bool
	if ty.IsSigned() {
		sa, sb := isa.Sext(a, n), isa.Sext(b, n)
		lt, gt = sa < sb, sa > sb
		switch cmp {
		case frontend.ModLo, frontend.ModLs, frontend.ModHi, frontend.ModHs:
			return false, false
		}
	} else {
		lt, gt = a < b, a > b
	}
	switch cmp {
	case frontend.ModLt, frontend.ModLo:
		return lt, true
	case frontend.ModLe, frontend.ModLs:
		return !gt, true
	case frontend.ModGt, frontend.ModHi:
		return gt, true
	case frontend.ModGe, frontend.ModHs:
		return !lt, true
	}
	return false, false
}

// boolOp is the optional .and/.or/.xor of setp and set.
func (x inst) boolOp() frontend.Mod {
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor} {
		if x.has(m) {
			return m
		}
	}
	return 0
}

func combine(op frontend.Mod, r, c bool) bool {
	switch op {
	case frontend.ModAnd:
		return r && c
	case frontend.ModOr:
		return r || c
	case frontend.ModXor:
		return r != c
	}
	return r
}

// condition evaluates (a cmp b) and the optional bool op's predicate c, for setp and set.
func (x inst) condition(ty frontend.Type) (r bool, bop frontend.Mod, c bool, err error) {
	v, err := x.args(ty, 2)
	if err != nil {
		return false, 0, false, err
	}
	r, ok := intCompare(x.compare(), ty, v[0], v[1])
	if !ok || x.has(frontend.ModFtz) {
		return false, 0, false, errUnsupported
	}
	bop = x.boolOp()
	if bop != 0 {
		if len(x.Args) != 3 {
			return false, 0, false, errUnsupported
		}
		if c, err = x.pred(x.Args[2]); err != nil {
			return false, 0, false, err
		}
	}
	return r, bop, c, nil
}

func (x inst) setp() error {
	r, bop, c, err := x.condition(x.typ())
	if err != nil {
		return err
	}
	d := x.Dsts[0]
	if d.Kind == ssa.ArgPair {
		if err := x.setPred(d.Elems[0], combine(bop, r, c)); err != nil {
			return err
		}
		return x.setPred(d.Elems[1], combine(bop, !r, c))
	}
	return x.setPred(d, combine(bop, r, c))
}

// set is set.cmp{.bop}.dtype.stype with an integer source: d is all ones or 0.
func (x inst) set() error {
	ts := x.types()
	if len(ts) != 2 || ts[0] != frontend.U32 && ts[0] != frontend.S32 {
		return errUnsupported
	}
	r, bop, c, err := x.condition(ts[1])
	if err != nil {
		return err
	}
	var v uint64
	if combine(bop, r, c) {
		v = 0xffffffff
	}
	return x.dst(x.Dsts[0], v, ts[0])
}

func (x inst) selp() error {
	t := x.typ()
	if t.IsFloat() {
		return errUnsupported
	}
	v, err := x.args(t, 2)
	if err != nil {
		return err
	}
	p, err := x.pred(x.Args[2])
	if err != nil {
		return err
	}
	if p {
		return x.dst(x.Dsts[0], v[0], t)
	}
	return x.dst(x.Dsts[0], v[1], t)
}

// slct is slct.dtype.s32: d = c >= 0 ? a : b.
func (x inst) slct() error {
	ts := x.types()
	if len(ts) != 2 || ts[1] != frontend.S32 || ts[0].IsFloat() {
		return errUnsupported
	}
	v, err := x.args(ts[0], 2)
	if err != nil {
		return err
	}
	c, err := x.src(x.Args[2], frontend.S32)
	if err != nil {
		return err
	}
	if int32(c) >= 0 {
		return x.dst(x.Dsts[0], v[0], ts[0])
	}
	return x.dst(x.Dsts[0], v[1], ts[0])
}

// cvt between integer types, with .sat clamping to the destination type's range.
func (x inst) cvt() error {
	ts := x.types()
	if len(ts) != 2 || len(x.Args) != 1 {
		return errUnsupported
	}
	dt, st := ts[0], ts[1]
	if !dt.IsInteger() && !dt.IsBits() || !st.IsInteger() && !st.IsBits() || dt.Bits() > 64 || st.Bits() > 64 || x.rounding() {
		return errUnsupported
	}
	a, err := x.src(x.Args[0], st)
	if err != nil {
		return err
	}
	dn := dt.Bits()
	sat := x.has(frontend.ModSat)
	switch {
	case st.IsSigned():
		v := isa.Sext(a, st.Bits())
		if sat {
			switch {
			case dt.IsSigned() && dn < 64:
				v = min(max(v, -1<<(dn-1)), 1<<(dn-1)-1)
			case !dt.IsSigned() && v < 0:
				v = 0
			case !dt.IsSigned() && dn < 64:
				v = min(v, 1<<dn-1)
			}
		}
		a = uint64(v)
	case sat && dt.IsSigned():
		a = min(a, wrap(^uint64(0), dn-1))
	case sat:
		a = min(a, wrap(^uint64(0), dn))
	}
	return x.dst(x.Dsts[0], a, dt)
}

func (x inst) rounding() bool {
	for _, m := range x.Mods {
		if m.Kind() == frontend.ModKindRounding {
			return true
		}
	}
	return false
}

func (x inst) cvta() error {
	t := x.typ()
	a, err := x.src(x.Args[0], t)
	if err != nil {
		return err
	}
	var base uint64
	switch x.space() {
	case frontend.SpaceGlobal, frontend.SpaceConst:
	case frontend.SpaceShared:
		base = uint64(runtime.SharedWindow)
	case frontend.SpaceLocal:
		base = uint64(runtime.LocalWindow)
	case frontend.SpaceParam:
		if x.f.fn.Kind != frontend.Entry {
			return errUnsupported
		}
		base = uint64(runtime.ParamWindow)
	default:
		return errUnsupported
	}
	if x.has(frontend.ModTo) {
		return x.dst(x.Dsts[0], a-base, t)
	}
	return x.dst(x.Dsts[0], a+base, t)
}

// arith is the integer arithmetic, logic and bit instructions.
func (x inst) arith() error {
	t := x.typ()
	if len(x.Dsts) != 1 || t == frontend.TypeNone || t.IsFloat() || t.Bits() > 64 || t.IsPackedInt() {
		return errUnsupported
	}
	n := t.Bits()
	signed := t.IsSigned()
	d := x.Dsts[0]
	arg := func(i int, ty frontend.Type) uint64 {
		v, err := x.src(x.Args[i], ty)
		if err != nil {
			panic(unsupportedPanic{})
		}
		return v
	}
	a := func(i int) uint64 { return arg(i, t) }
	u32 := func(i int) uint32 { return uint32(arg(i, frontend.U32)) }
	res := func(v uint64) error { return x.dst(d, v, t) }
	res32 := func(v uint64) error { return x.dst(d, v, frontend.U32) }
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(unsupportedPanic); !ok {
					panic(r)
				}
				err = errUnsupported
			}
		}()
		err = x.arithOp(t, n, signed, a, u32, arg, res, res32)
	}()
	return err
}

type unsupportedPanic struct{}

var prmtModes = map[string]isa.PrmtMode{".f4e": isa.PrmtF4e, ".b4e": isa.PrmtB4e, ".rc8": isa.PrmtRc8,
	".ecl": isa.PrmtEcl, ".ecr": isa.PrmtEcr, ".rc16": isa.PrmtRc16}

func (x inst) modNamed(name string) bool {
	m, ok := frontend.LookupMod(name)
	return ok && x.has(m)
}

func (x inst) arithOp(t frontend.Type, n int, signed bool, a func(int) uint64, u32 func(int) uint32,
	arg func(int, frontend.Type) uint64, res, res32 func(uint64) error) error {
	cc, sat, hi, lo, wide := x.has(frontend.ModCc), x.has(frontend.ModSat), x.has(frontend.ModHi), x.has(frontend.ModLo), x.has(frontend.ModWide)
	nargs := len(x.Args)
	switch x.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpAddc, frontend.OpSubc:
		sub := x.Op == frontend.OpSub || x.Op == frontend.OpSubc
		carryIn := x.Op == frontend.OpAddc || x.Op == frontend.OpSubc
		if carryIn || cc {
			if n != 32 && n != 64 || sat || !t.IsInteger() {
				return errUnsupported
			}
			var cin uint64
			switch {
			case carryIn:
				cin = x.f.cf
			case sub:
				cin = 1 // sub.cc is a + ~b + 1: its carry-out is NOT borrow, as on the GPU
			}
			var r, cout uint64
			if sub {
				r, cout = isa.SubCarry(a(0), a(1), cin, n)
			} else {
				r, cout = isa.AddCarry(a(0), a(1), cin, n)
			}
			if cc {
				x.f.cf = cout
			}
			return res(r)
		}
		if sat {
			if t != frontend.S32 {
				return errUnsupported
			}
			return res(uint64(isa.AddSat32(uint32(a(0)), uint32(a(1)), sub)))
		}
		if sub {
			return res(a(0) - a(1))
		}
		return res(a(0) + a(1))
	case frontend.OpMul, frontend.OpMad, frontend.OpMadc:
		if !t.IsInteger() {
			return errUnsupported
		}
		isMad := x.Op != frontend.OpMul
		var p uint64
		rt := t
		switch {
		case wide:
			if n > 32 {
				return errUnsupported
			}
			p = isa.MulWide(a(0), a(1), n, signed)
			rt = bitsType(2 * n)
			if signed {
				rt = signedOf(2 * n)
			}
		case hi:
			p = isa.MulHi(a(0), a(1), n, signed)
		default:
			p = a(0) * a(1)
		}
		if !isMad {
			return x.dst(x.Dsts[0], p, rt)
		}
		if x.Op == frontend.OpMadc || cc {
			if wide || sat || !hi && !lo || n != 32 && n != 64 {
				return errUnsupported
			}
			var cin uint64
			if x.Op == frontend.OpMadc {
				cin = x.f.cf
			}
			r, cout := isa.AddCarry(wrap(p, n), a(2), cin, n)
			if cc {
				x.f.cf = cout
			}
			return res(r)
		}
		if sat {
			if t != frontend.S32 || !hi {
				return errUnsupported
			}
			return res(uint64(isa.MadHiSat32(uint32(a(0)), uint32(a(1)), uint32(a(2)))))
		}
		c := arg(2, rt)
		return x.dst(x.Dsts[0], p+c, rt)
	case frontend.OpMul24, frontend.OpMad24:
		if t != frontend.U32 && t != frontend.S32 || hi == lo {
			return errUnsupported
		}
		m := isa.Mul24(uint32(a(0)), uint32(a(1)), hi, signed)
		if x.Op == frontend.OpMul24 {
			return res(uint64(m))
		}
		if sat {
			if !hi || !signed {
				return errUnsupported
			}
			return res(uint64(isa.Mad24HiSat(uint32(a(0)), uint32(a(1)), uint32(a(2)))))
		}
		return res(uint64(m + uint32(a(2))))
	case frontend.OpSad:
		if !t.IsInteger() || n < 16 {
			return errUnsupported
		}
		return res(isa.Sad(a(0), a(1), a(2), n, signed))
	case frontend.OpDiv:
		if !t.IsInteger() {
			return errUnsupported
		}
		return res(isa.Div(a(0), a(1), n, signed))
	case frontend.OpRem:
		if !t.IsInteger() {
			return errUnsupported
		}
		return res(isa.Rem(a(0), a(1), n, signed))
	case frontend.OpMin, frontend.OpMax:
		isMax := x.Op == frontend.OpMax
		if x.has(frontend.ModRelu) {
			if t != frontend.S32 {
				return errUnsupported
			}
			return res(uint64(isa.MinMaxRelu32(uint32(a(0)), uint32(a(1)), isMax)))
		}
		if !t.IsInteger() || nargs != 2 {
			return errUnsupported
		}
		p, q := a(0), a(1)
		less := p < q
		if signed {
			less = isa.Sext(p, n) < isa.Sext(q, n)
		}
		if less != isMax {
			return res(p)
		}
		return res(q)
	case frontend.OpAbs:
		if !signed {
			return errUnsupported
		}
		v := isa.Sext(a(0), n)
		if v < 0 {
			v = -v
		}
		return res(uint64(v))
	case frontend.OpNeg:
		if !signed {
			return errUnsupported
		}
		return res(-a(0))
	case frontend.OpAnd:
		return res(a(0) & a(1))
	case frontend.OpOr:
		return res(a(0) | a(1))
	case frontend.OpXor:
		return res(a(0) ^ a(1))
	case frontend.OpNot:
		return res(^a(0))
	case frontend.OpCnot:
		return res(b2u(a(0) == 0))
	case frontend.OpShl:
		return res(isa.Shl(a(0), u32(1), n))
	case frontend.OpShr:
		return res(isa.Shr(a(0), u32(1), n, signed))
	case frontend.OpPopc:
		return res32(uint64(bits.OnesCount64(a(0))))
	case frontend.OpClz:
		return res32(uint64(bits.LeadingZeros64(a(0)) - (64 - n)))
	case frontend.OpBrev:
		return res(bits.Reverse64(a(0)) >> (64 - n))
	case frontend.OpBfe:
		if n != 32 && n != 64 {
			return errUnsupported
		}
		return res(isa.Bfe(a(0), u32(1), u32(2), n, signed))
	case frontend.OpBfi:
		if n != 32 && n != 64 {
			return errUnsupported
		}
		return res(isa.Bfi(a(0), a(1), uint32(uint8(u32(2))), uint32(uint8(u32(3))), n))
	case frontend.OpBfind:
		if !t.IsInteger() || n != 32 && n != 64 {
			return errUnsupported
		}
		return res32(uint64(isa.Bfind(a(0), n, signed, x.has(frontend.ModShiftamt))))
	case frontend.OpFns:
		if t != frontend.B32 {
			return errUnsupported
		}
		return res(uint64(isa.Fns(uint32(a(0)), uint32(a(1)), uint32(a(2)))))
	case frontend.OpSzext, frontend.OpBmsk:
		clamp, wrapM := x.has(frontend.ModClamp), x.has(frontend.ModWrap)
		if clamp == wrapM {
			return errUnsupported
		}
		if x.Op == frontend.OpBmsk {
			if t != frontend.B32 {
				return errUnsupported
			}
			return res(uint64(isa.Bmsk(uint32(a(0)), uint32(a(1)), clamp)))
		}
		if t != frontend.U32 && t != frontend.S32 {
			return errUnsupported
		}
		return res(uint64(isa.Szext(uint32(a(0)), uint32(a(1)), signed, clamp)))
	case frontend.OpDp4a, frontend.OpDp2a:
		ts := x.types()
		if len(ts) != 2 || ts[0] != frontend.U32 && ts[0] != frontend.S32 || ts[1] != frontend.U32 && ts[1] != frontend.S32 {
			return errUnsupported
		}
		as, bs := ts[0] == frontend.S32, ts[1] == frontend.S32
		p, q, r := uint32(arg(0, frontend.B32)), uint32(arg(1, frontend.B32)), uint32(arg(2, frontend.B32))
		if x.Op == frontend.OpDp4a {
			return res32(uint64(isa.Dp4a(p, q, r, as, bs)))
		}
		if hi == lo {
			return errUnsupported
		}
		return res32(uint64(isa.Dp2a(p, q, r, as, bs, hi)))
	case frontend.OpPrmt:
		if t != frontend.B32 {
			return errUnsupported
		}
		mode := isa.PrmtGeneric
		for name, m := range prmtModes {
			if x.modNamed(name) {
				mode = m
			}
		}
		return res(uint64(isa.Prmt(uint32(a(0)), uint32(a(1)), uint32(a(2)), mode)))
	case frontend.OpLop3:
		if t != frontend.B32 || nargs != 4 || x.boolOp() != 0 || x.Args[3].Kind != ssa.ArgImm || x.Args[3].Imm > 0xff {
			return errUnsupported
		}
		return res(uint64(isa.Lop3(uint32(a(0)), uint32(a(1)), uint32(a(2)), uint8(x.Args[3].Imm))))
	case frontend.OpShf:
		left, right := x.has(frontend.ModL), x.has(frontend.ModR)
		clamp, wrapM := x.has(frontend.ModClamp), x.has(frontend.ModWrap)
		if t != frontend.B32 || left == right || clamp == wrapM {
			return errUnsupported
		}
		return res(uint64(isa.Shf(uint32(a(0)), uint32(a(1)), u32(2), left, clamp)))
	}
	return errUnsupported
}

func signedOf(n int) frontend.Type {
	switch n {
	case 16:
		return frontend.S16
	case 32:
		return frontend.S32
	}
	return frontend.S64
}

// address computes a memory operand's address in the instruction's state space.
func (x inst) address(a ssa.Arg) (uint64, error) {
	if a.Kind != ssa.ArgAddr {
		return 0, errUnsupported
	}
	sp := x.space()
	var base uint64
	switch {
	case a.Value != nil:
		base = x.f.regs[a.Value.Reg.ID]
		if a.Value.Reg.Type.Bits() != 64 {
			base = uint64(uint32(base))
		}
	case a.Var != nil:
		v, err := x.symAddr(ssa.Arg{Kind: ssa.ArgSym, Var: a.Var})
		if err != nil {
			return 0, err
		}
		base = v
		if sp == frontend.SpaceNone {
			switch a.Var.Space {
			case frontend.SpaceShared:
				base += uint64(runtime.SharedWindow)
			case frontend.SpaceLocal:
				base += uint64(runtime.LocalWindow)
			case frontend.SpaceParam:
				return 0, errUnsupported
			}
		}
	}
	return base + uint64(a.Offset), nil
}

// memory returns the n bytes at addr in state space sp.
func (x inst) memory(sp frontend.Space, addr uint64, n int) ([]byte, error) {
	t := x.t
	loc := pos(x.Pos)
	if addr%uint64(n) != 0 && sp != frontend.SpaceParam {
		return nil, t.errorf(loc, "misaligned %d-byte access at %#x in %s space", n, addr, sp)
	}
	within := func(mem []byte, what string) ([]byte, error) {
		if addr >= uint64(len(mem)) || uint64(len(mem))-addr < uint64(n) {
			return nil, t.errorf(loc, "out-of-bounds %d-byte access at %#x in %s memory", n, addr, what)
		}
		return mem[addr : addr+uint64(n)], nil
	}
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		b := t.c.ln.dev.Bytes(addr, n)
		if b == nil {
			return nil, t.errorf(loc, "out-of-bounds %d-byte access at %#x in global memory", n, addr)
		}
		return b, nil
	case frontend.SpaceShared:
		return within(t.c.shared, "shared")
	case frontend.SpaceLocal:
		return within(t.local, "local")
	case frontend.SpaceParam:
		if x.f.fn.Kind == frontend.Entry && x.kernelParam() {
			return within(t.c.ln.params, "kernel parameter")
		}
		return within(x.f.param, "parameter")
	case frontend.SpaceNone:
		switch {
		case addr-uint64(runtime.SharedWindow) < runtime.WindowSize:
			return x.memory(frontend.SpaceShared, addr-uint64(runtime.SharedWindow), n)
		case addr-uint64(runtime.LocalWindow) < runtime.WindowSize:
			return x.memory(frontend.SpaceLocal, addr-uint64(runtime.LocalWindow), n)
		case runtime.InParamWindow(addr):
			if x.Op != frontend.OpLd && x.Op != frontend.OpLdu {
				return nil, t.errorf(loc, "%d-byte write at %#x to a kernel parameter, which is read-only", n, addr)
			}
			addr -= uint64(runtime.ParamWindow)
			return within(t.c.ln.params, "kernel parameter")
		}
		return x.memory(frontend.SpaceGlobal, addr, n)
	}
	return nil, errUnsupported
}

// kernelParam reports whether a kernel's .param access reaches the launch's parameter buffer:
// through a formal parameter, or a register (which holds an offset in it).
func (x inst) kernelParam() bool {
	for _, a := range x.Args {
		if a.Kind == ssa.ArgAddr && a.Var != nil {
			_, ok := x.f.fl.kparam[a.Var]
			return ok
		}
	}
	return true
}

// elems lists the operands of a scalar or vector operand.
func elems(a ssa.Arg) []ssa.Arg {
	if a.Kind == ssa.ArgVector {
		return a.Elems
	}
	return []ssa.Arg{a}
}

func (x inst) load() error {
	t := x.typ()
	if t.Bits() > 64 || t.Bits() == 0 || t == frontend.Pred || len(x.Dsts) != 1 {
		return errUnsupported
	}
	addr, err := x.address(x.Args[0])
	if err != nil {
		return err
	}
	ds := elems(x.Dsts[0])
	es := t.Bytes()
	mem, err := x.memory(x.space(), addr, es*len(ds))
	if err != nil {
		return err
	}
	for i, d := range ds {
		if err := x.dst(d, readLE(mem[i*es:(i+1)*es]), t); err != nil {
			return err
		}
	}
	return nil
}

func (x inst) store() error {
	t := x.typ()
	if t.Bits() > 64 || t.Bits() == 0 || t == frontend.Pred || len(x.Args) != 2 {
		return errUnsupported
	}
	addr, err := x.address(x.Args[0])
	if err != nil {
		return err
	}
	ss := elems(x.Args[1])
	es := t.Bytes()
	vals := make([]uint64, len(ss))
	for i, s := range ss {
		if s.Kind == ssa.ArgSink {
			continue
		}
		if vals[i], err = x.src(s, t); err != nil {
			return err
		}
	}
	mem, err := x.memory(x.space(), addr, es*len(ss))
	if err != nil {
		return err
	}
	for i, s := range ss {
		if s.Kind != ssa.ArgSink {
			writeLE(mem[i*es:(i+1)*es], vals[i])
		}
	}
	return nil
}

// atom is atom and red on integers in global, shared or generic memory; threads run one at a
// time, so a read-modify-write is atomic.
func (x inst) atom() error {
	t := x.typ()
	if len(x.types()) != 1 || t.IsFloat() || t.Bits() != 32 && t.Bits() != 64 || x.vector() != 1 {
		return errUnsupported
	}
	var op frontend.Mod
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor, frontend.ModCas, frontend.ModExch,
		frontend.ModAdd, frontend.ModInc, frontend.ModDec, frontend.ModMin, frontend.ModMax} {
		if x.has(m) {
			if op != 0 {
				return errUnsupported
			}
			op = m
		}
	}
	sp := x.space()
	isRed := x.Op == frontend.OpRed
	if op == 0 || sp != frontend.SpaceGlobal && sp != frontend.SpaceShared && sp != frontend.SpaceNone ||
		isRed && (op == frontend.ModCas || op == frontend.ModExch) || len(x.Dsts) != int(b2u(!isRed)) {
		return errUnsupported
	}
	addr, err := x.address(x.Args[0])
	if err != nil {
		return err
	}
	b, err := x.src(x.Args[1], t)
	if err != nil {
		return err
	}
	var c uint64
	if op == frontend.ModCas {
		if c, err = x.src(x.Args[2], t); err != nil {
			return err
		}
	}
	n := t.Bits()
	mem, err := x.memory(sp, addr, t.Bytes())
	if err != nil {
		return err
	}
	old := readLE(mem)
	var nv uint64
	switch op {
	case frontend.ModAnd:
		nv = old & b
	case frontend.ModOr:
		nv = old | b
	case frontend.ModXor:
		nv = old ^ b
	case frontend.ModExch:
		nv = b
	case frontend.ModCas:
		nv = old
		if old == b {
			nv = c
		}
	case frontend.ModAdd:
		nv = old + b
	case frontend.ModInc:
		if t != frontend.U32 {
			return errUnsupported
		}
		nv = old + 1
		if old >= b {
			nv = 0
		}
	case frontend.ModDec:
		if t != frontend.U32 {
			return errUnsupported
		}
		nv = old - 1
		if old == 0 || old > b {
			nv = b
		}
	case frontend.ModMin, frontend.ModMax:
		if !t.IsInteger() {
			return errUnsupported
		}
		less := old < b
		if t.IsSigned() {
			less = isa.Sext(old, n) < isa.Sext(b, n)
		}
		nv = b
		if less != (op == frontend.ModMax) {
			nv = old
		}
	}
	writeLE(mem, wrap(nv, n))
	if isRed {
		return nil
	}
	return x.dst(x.Dsts[0], old, t)
}
