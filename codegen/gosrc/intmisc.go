package gosrc

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// The lane-local forms beyond ops.go's core set, lowered as codegen/closure's intx.go,
// intsimd.go, float.go and half.go do: the integer instructions with their semantics in
// runtime/isa (mul24, sad, bfind, fns, szext, bmsk, dp4a, dp2a, prmt, lop3, shf, bfi, the
// video instructions, slct, cnot, the saturating and .relu forms), the packed-integer forms,
// testp, isspacep, copysign, min/max .xorsign.abs, the half-precision instructions (half.go) and mov
// packing registers into a wide value.

// laneLocalExt reports whether an opcode this file lowers computes only on its own lane.
func laneLocalExt(op frontend.Opcode) bool {
	switch op {
	case frontend.OpMul24, frontend.OpMad24, frontend.OpSad, frontend.OpBfind, frontend.OpFns, frontend.OpSzext,
		frontend.OpBmsk, frontend.OpDp4a, frontend.OpDp2a, frontend.OpPrmt, frontend.OpLop3, frontend.OpShf,
		frontend.OpBfi, frontend.OpVadd, frontend.OpVsub, frontend.OpVabsdiff, frontend.OpVmin, frontend.OpVmax,
		frontend.OpSlct, frontend.OpCnot, frontend.OpTestp, frontend.OpCopysign, frontend.OpSet,
		frontend.OpAddc, frontend.OpSubc, frontend.OpMadc, frontend.OpIsspacep, frontend.OpCreatepolicy:
		return true
	}
	return false
}

// hasPackedInt reports whether the instruction names a packed integer type.
func hasPackedInt(in *ssa.Instr) bool {
	for _, t := range types(in) {
		if t.IsPackedInt() {
			return true
		}
	}
	return false
}

// valueExt returns statements defining n for the forms this file and half.go lower; ok is
// false for the forms ops.go lowers itself. A nil result with ok is a form neither handles.
func (c ctx) valueExt(in *ssa.Instr, n string) (code []jen.Code, ok bool) {
	t := layout.InstrType(in)
	switch {
	case len(in.Dsts) != 1:
		return nil, false
	case in.Op == frontend.OpMov:
		if len(in.Args) == 1 && in.Args[0].Kind == ssa.ArgVector && in.Dsts[0].Kind == ssa.ArgValue {
			return c.pack(in, n, in.Args[0].Elems, t), true
		}
		return nil, false
	case in.Op == frontend.OpSelp:
		return nil, false
	case in.Op == frontend.OpSet:
		return c.set(in, n), true // before isHalf: set.f16.f16 compares, it is no half arithmetic
	case in.Op == frontend.OpCvt:
		if isNarrowCvt(in) {
			return c.cvtNarrow(in, n), true
		}
		if isHalfCvt(in) {
			return c.cvtHalf(in, n), true
		}
		return nil, false
	case hasPackedInt(in):
		return c.packedInt(in, n, t), true
	case isHalf(t):
		return c.halfOp(in, n, t), true
	}
	return c.intExt(in, n, t)
}

// pack concatenates element registers into one wide value, first element lowest.
func (c ctx) pack(in *ssa.Instr, n string, elems []ssa.Arg, t frontend.Type) []jen.Code {
	k := len(elems)
	if k == 0 || t.Bits()%k != 0 || t.Bits() > 64 {
		return nil
	}
	eb := t.Bits() / k
	var v *jen.Statement
	for i, x := range elems {
		e := conv(utype(64), conv(utype(eb), c.src(in, x, typeOfBits(eb))))
		if eb == 64 {
			e = u64(c.src(in, x, typeOfBits(eb)))
		}
		if i > 0 {
			e = jen.Parens(e.Op("<<").Lit(i * eb))
		}
		if v == nil {
			v = jen.Add(e)
		} else {
			v = v.Op("|").Add(e)
		}
	}
	return define(n, v)
}

// packedInt lowers min.{u16x2,u8x4}, min{.relu}.{s16x2,s8x4}, the same forms of max, and
// add.{u16x2,s16x2}.
func (c ctx) packedInt(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	a, b := conv("uint32", c.src(in, in.Args[0], t)), conv("uint32", c.src(in, in.Args[1], t))
	if in.Op == frontend.OpAdd {
		return define(n, u64(isaFn("AddPacked", a, b)))
	}
	relu := has(in, frontend.ModRelu)
	signed := t == frontend.S16x2 || t == frontend.S8x4
	lanes := 2
	if t == frontend.U8x4 || t == frontend.S8x4 {
		lanes = 4
	}
	return define(n, u64(isaFn("MinMaxPacked", a, b, jen.Lit(lanes), jen.Lit(signed), jen.Lit(in.Op == frontend.OpMax), jen.Lit(relu))))
}

// prmtModeNames maps prmt's mode modifiers to the names of their isa.PrmtMode constants.
var prmtModeNames = func() map[frontend.Mod]string {
	names := map[string]string{".f4e": "PrmtF4e", ".b4e": "PrmtB4e", ".rc8": "PrmtRc8", ".ecl": "PrmtEcl", ".ecr": "PrmtEcr", ".rc16": "PrmtRc16"}
	modes := map[frontend.Mod]string{}
	for name, mode := range names {
		if m, ok := frontend.LookupMod(name); ok {
			modes[m] = mode
		}
	}
	return modes
}()

// testpClasses maps testp's property modifiers to the names of the isa.FloatClass constants.
var testpClasses = map[string]string{
	".finite": "ClassFinite", ".infinite": "ClassInfinite", ".number": "ClassNumber",
	".notanumber": "ClassNotANumber", ".normal": "ClassNormal", ".subnormal": "ClassSubnormal",
}

// intExt lowers the integer and float forms beyond ops.go's core set.
func (c ctx) intExt(in *ssa.Instr, n string, t frontend.Type) ([]jen.Code, bool) {
	src := func(i int, t frontend.Type) jen.Code { return c.src(in, in.Args[i], t) }
	u32 := func(i int, t frontend.Type) jen.Code { return conv("uint32", src(i, t)) }
	isa32 := func(fn string, args ...jen.Code) []jen.Code { return define(n, u64(isaFn(fn, args...))) }
	if t == frontend.F64 && (in.Op == frontend.OpRcp || in.Op == frontend.OpRsqrt) && has(in, frontend.ModApprox) {
		return c.approx64(in, n), true
	}
	if t.IsFloat() && (in.Op == frontend.OpAdd || in.Op == frontend.OpSub || in.Op == frontend.OpMad) {
		return nil, false // ops.go's float forms, .sat included
	}
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub:
		if !has(in, frontend.ModSat) || has(in, frontend.ModCc) {
			return nil, false
		}
		return isa32("AddSat32", u32(0, t), u32(1, t), jen.Lit(in.Op == frontend.OpSub)), true
	case frontend.OpMad:
		if !has(in, frontend.ModSat) || has(in, frontend.ModCc) {
			return nil, false
		}
		return isa32("MadHiSat32", u32(0, t), u32(1, t), u32(2, t)), true
	case frontend.OpMin, frontend.OpMax:
		switch {
		case has(in, frontend.ModRelu):
			return isa32("MinMaxRelu32", u32(0, t), u32(1, t), jen.Lit(in.Op == frontend.OpMax)), true
		case has(in, frontend.ModXorsign):
			// min/max{.ftz}{.NaN}.xorsign.abs.f32.
			x, y := u32(0, t), u32(1, t)
			if has(in, frontend.ModFtz) {
				x, y = isaFn("Ftz32", x), isaFn("Ftz32", y)
			}
			fn := "MinF32"
			if in.Op == frontend.OpMax {
				fn = "MaxF32"
			}
			v := isaFn("XorsignAbs32", jen.Qual(isaPath, fn), x, y, jen.Lit(has(in, frontend.ModNaN)))
			if has(in, frontend.ModFtz) {
				v = isaFn("Ftz32", v)
			}
			return define(n, u64(v)), true
		}
		return nil, false
	case frontend.OpCopysign:
		if t == frontend.F32 {
			return isa32("CopysignF32", u32(0, t), u32(1, t)), true
		}
		return define(n, isaFn("CopysignF64", src(0, t), src(1, t))), true
	case frontend.OpMul24, frontend.OpMad24:
		hi := has(in, frontend.ModHi)
		signed := t == frontend.S32
		if in.Op == frontend.OpMul24 {
			return isa32("Mul24", u32(0, t), u32(1, t), jen.Lit(hi), jen.Lit(signed)), true
		}
		if has(in, frontend.ModSat) {
			return isa32("Mad24HiSat", u32(0, t), u32(1, t), u32(2, t)), true
		}
		return define(n, u64(isaFn("Mul24", u32(0, t), u32(1, t), jen.Lit(hi), jen.Lit(signed)).Op("+").Add(u32(2, t)))), true
	case frontend.OpSad:
		return define(n, isaFn("Sad", src(0, t), src(1, t), src(2, t), jen.Lit(t.Bits()), jen.Lit(t.IsSigned()))), true
	case frontend.OpBfind:
		return isa32("Bfind", src(0, t), jen.Lit(t.Bits()), jen.Lit(t.IsSigned()), jen.Lit(has(in, frontend.ModShiftamt))), true
	case frontend.OpFns:
		return isa32("Fns", u32(0, t), u32(1, t), u32(2, t)), true
	case frontend.OpSzext:
		clamp := has(in, frontend.ModClamp)
		return isa32("Szext", u32(0, t), u32(1, t), jen.Lit(t == frontend.S32), jen.Lit(clamp)), true
	case frontend.OpBmsk:
		clamp := has(in, frontend.ModClamp)
		return isa32("Bmsk", u32(0, t), u32(1, t), jen.Lit(clamp)), true
	case frontend.OpDp4a, frontend.OpDp2a:
		ts := types(in)
		as, bs := jen.Lit(ts[0] == frontend.S32), jen.Lit(ts[1] == frontend.S32)
		a, b, z := u32(0, frontend.B32), u32(1, frontend.B32), u32(2, frontend.B32)
		if in.Op == frontend.OpDp4a {
			return isa32("Dp4a", a, b, z, as, bs), true
		}
		hi := has(in, frontend.ModHi)
		return isa32("Dp2a", a, b, z, as, bs, jen.Lit(hi)), true
	case frontend.OpPrmt:
		mode := "PrmtGeneric"
		for _, m := range in.Mods {
			if pm, ok := prmtModeNames[m]; ok {
				mode = pm
			}
		}
		return isa32("Prmt", u32(0, t), u32(1, t), u32(2, t), jen.Qual(isaPath, mode)), true
	case frontend.OpLop3:
		lut := in.Args[3]
		return isa32("Lop3", u32(0, t), u32(1, t), u32(2, t), jen.Lit(int(lut.Imm))), true
	case frontend.OpShf:
		left, clamp := has(in, frontend.ModL), has(in, frontend.ModClamp)
		return isa32("Shf", u32(0, t), u32(1, t), u32(2, frontend.U32), jen.Lit(left), jen.Lit(clamp)), true
	case frontend.OpBfi:
		return define(n, isaFn("Bfi", src(0, t), src(1, t), u32(2, frontend.U32), u32(3, frontend.U32), jen.Lit(t.Bits()))), true
	case frontend.OpCnot:
		return []jen.Code{
			jen.Var().Id(n).Uint64(),
			jen.If(jen.Add(src(0, t)).Op("&").Add(isaFn("Mask", jen.Lit(t.Bits()))).Op("==").Lit(0)).Block(jen.Id(n).Op("=").Lit(1)),
		}, true
	case frontend.OpVadd, frontend.OpVsub, frontend.OpVabsdiff, frontend.OpVmin, frontend.OpVmax:
		return c.video(in, n), true
	case frontend.OpSlct:
		return c.slct(in, n), true
	case frontend.OpSet:
		return c.set(in, n), true
	}
	return nil, false
}

// video lowers vadd, vsub, vabsdiff, vmin and vmax on whole words, with .sat and a secondary
// .add, .min or .max.
func (c ctx) video(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	op := map[frontend.Opcode]string{frontend.OpVadd: "VideoAdd", frontend.OpVsub: "VideoSub",
		frontend.OpVabsdiff: "VideoAbsdiff", frontend.OpVmin: "VideoMin", frontend.OpVmax: "VideoMax"}[in.Op]
	sec := "VideoSecNone"
	for _, s := range []struct {
		m    frontend.Mod
		name string
	}{{frontend.ModAdd, "VideoSecAdd"}, {frontend.ModMin, "VideoSecMin"}, {frontend.ModMax, "VideoSecMax"}} {
		if has(in, s.m) {
			sec = s.name
		}
	}
	arg := func(i int) jen.Code { return conv("uint32", c.src(in, in.Args[i], frontend.B32)) }
	var z jen.Code = jen.Lit(0)
	if sec != "VideoSecNone" {
		z = arg(2)
	}
	return define(n, u64(isaFn("Video", jen.Qual(isaPath, op), jen.Qual(isaPath, sec), jen.Lit(ts[0] == frontend.S32),
		jen.Lit(ts[1] == frontend.S32), jen.Lit(ts[2] == frontend.S32), jen.Lit(has(in, frontend.ModSat)), arg(0), arg(1), z)))
}

// slct lowers slct.dtype.s32 and slct{.ftz}.dtype.f32: d = c >= 0 ? a : b. For .f32, -0
// selects a, NaN selects b, and .ftz reads a subnormal c as zero.
func (c ctx) slct(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	dt, ct := ts[0], ts[1]
	ftz := has(in, frontend.ModFtz)
	z := conv("uint32", c.src(in, in.Args[2], ct))
	var nonNeg jen.Code
	switch {
	case ct == frontend.S32:
		nonNeg = conv("int32", z).Op(">=").Lit(0)
	case ftz:
		nonNeg = jen.Qual("math", "Float32frombits").Call(isaFn("Ftz32", z)).Op(">=").Lit(0)
	default:
		nonNeg = jen.Qual("math", "Float32frombits").Call(z).Op(">=").Lit(0)
	}
	return []jen.Code{
		jen.Id(n).Op(":=").Add(u64(c.src(in, in.Args[1], dt))),
		jen.If(nonNeg).Block(jen.Id(n).Op("=").Add(u64(c.src(in, in.Args[0], dt)))),
	}
}

// set lowers set.CmpOp{.BoolOp}{.ftz}.dtype.stype: d is all ones (1.0f for .f32) when
// (a CmpOp b) BoolOp c holds, else 0.
func (c ctx) set(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	dt, st := ts[0], ts[1]
	if isHalf(st) {
		return c.halfSet(in, n, dt, st)
	}
	one := uint64(0xffffffff)
	if dt == frontend.F32 {
		one = 0x3f800000
	}
	stmts := c.compare(in, n, st)
	if stmts == nil {
		return nil
	}
	return append(stmts,
		jen.Var().Id(n).Uint64(),
		jen.If(jen.Id(n+"t")).Block(jen.Id(n).Op("=").Id(c.e.imm(one))))
}

// halfSet lowers set with a 16-bit float stype, as codegen/closure's halfSet: for .f16 and
// .bf16, d is 1.0 in dtype (.f16, .bf16) or all ones (.u16, .s16, .u32, .s32) where
// (a CmpOp b) BoolOp c holds, else 0; for .f16x2 and .bf16x2 each half of d is 1.0 in its half
// of dtype (.f16x2, .bf16x2) or 0xffff (.u32, .s32) where its halves compare so.
func (c ctx) halfSet(in *ssa.Instr, n string, dt, st frontend.Type) []jen.Code {
	var one uint64
	packed := isHalfPacked(st)
	switch {
	case dt == frontend.F16 && !packed, dt == frontend.F16x2 && packed:
		one = 0x3c00
	case dt == frontend.BF16 && !packed, dt == frontend.BF16x2 && packed:
		one = 0x3f80
	case (dt == frontend.U16 || dt == frontend.S16) && !packed:
		one = 0xffff
	case dt == frontend.U32 || dt == frontend.S32:
		one = 0xffffffff
		if packed {
			one = 0xffff
		}
	default:
		return nil
	}
	stmts := c.halfCompare(in, n+"h", st)
	if stmts == nil {
		return nil
	}
	stmts = append(stmts,
		jen.Var().Id(n).Uint64(),
		jen.If(jen.Id(n+"h")).Block(jen.Id(n).Op("=").Id(c.e.imm(one))))
	if packed {
		stmts = append(stmts, jen.If(jen.Id(n+"hq")).Block(jen.Id(n).Op("|=").Id(c.e.imm(one<<16))))
	}
	return stmts
}

// compare returns statements defining n+"t" as (a CmpOp b) BoolOp c for set and testp-free
// comparisons of type st.
func (c ctx) compare(in *ssa.Instr, n string, st frontend.Type) []jen.Code {
	cmp := compareMod(in)
	ftz := has(in, frontend.ModFtz)
	a, b := c.src(in, in.Args[0], st), c.src(in, in.Args[1], st)
	var stmts []jen.Code
	var test jen.Code
	if st.IsFloat() {
		val := func(x jen.Code) jen.Code {
			if st == frontend.F32 {
				x = conv("uint32", x)
				if ftz {
					x = isaFn("Ftz32", x)
				}
				return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(x))
			}
			return jen.Qual("math", "Float64frombits").Call(x)
		}
		x, y := n+"x", n+"y"
		stmts = append(stmts, jen.List(jen.Id(x), jen.Id(y)).Op(":=").List(val(a), val(b)))
		test = floatTest(cmp, x, y)
	} else {
		test = intTest(cmp, st, a, b)
	}
	if test == nil {
		return nil
	}
	op := ""
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor} {
		if has(in, m) {
			op = m.String()
		}
	}
	if op == "" {
		return append(stmts, jen.Id(n+"t").Op(":=").Add(test))
	}
	gop := map[string]string{".and": "&&", ".or": "||", ".xor": "!="}[op]
	return append(stmts, jen.Id(n+"t").Op(":=").Parens(test).Op(gop).Parens(c.pred(in.Args[2])))
}

// intTest is the integer comparison cmp of a and b as type t, or nil for one the type does
// not define.
func intTest(cmp frontend.Mod, t frontend.Type, a, b jen.Code) jen.Code {
	bits := t.Bits()
	if bits == 0 {
		return nil
	}
	U, S := utype(bits), stype(bits)
	ua, ub := conv(U, a), conv(U, b)
	x, y := ua, ub
	if t.IsSigned() {
		x, y = conv(S, a), conv(S, b)
	}
	switch {
	case cmp == frontend.ModEq:
		return jen.Add(ua).Op("==").Add(ub)
	case cmp == frontend.ModNe:
		return jen.Add(ua).Op("!=").Add(ub)
	case t.IsBits():
		return nil
	case cmp == frontend.ModLt || cmp == frontend.ModLo && !t.IsSigned():
		return jen.Add(x).Op("<").Add(y)
	case cmp == frontend.ModLe || cmp == frontend.ModLs && !t.IsSigned():
		return jen.Add(x).Op("<=").Add(y)
	case cmp == frontend.ModGt || cmp == frontend.ModHi && !t.IsSigned():
		return jen.Add(x).Op(">").Add(y)
	case cmp == frontend.ModGe || cmp == frontend.ModHs && !t.IsSigned():
		return jen.Add(x).Op(">=").Add(y)
	}
	return nil
}

// testp defines n as testp.property.{f32,f64} a.
func (c ctx) testp(in *ssa.Instr, n string) []jen.Code {
	t := layout.InstrType(in)
	class := ""
	for _, m := range in.Mods {
		if cl, known := testpClasses[m.String()]; known {
			class = cl
		}
	}
	if t == frontend.F32 {
		return define(n, isaFn("TestpF32", jen.Qual(isaPath, class), conv("uint32", c.src(in, in.Args[0], t))))
	}
	return define(n, isaFn("TestpF64", jen.Qual(isaPath, class), c.src(in, in.Args[0], t)))
}

// isspacep lowers isspacep.space p, a, as codegen/closure's isspacep: whether the generic
// address a (a 32-bit register is zero-extended) lies in the window of the CTA's shared memory
// or the thread's local memory or the launch's kernel parameters, in a .const variable of the
// module, or, for .global, in none of those nor among the function addresses.
func (c ctx) isspacep(in *ssa.Instr, n string) []jen.Code {
	sp, _ := in.Mods[0].Space()
	a := in.Args[0]
	var addr jen.Code
	if a.Kind != ssa.ArgValue || a.Value.Reg.Type.Bits() == 64 {
		addr = c.src(in, a, frontend.U64)
	} else {
		addr = u64(conv("uint32", c.src(in, a, frontend.U32)))
	}
	x := n + "a"
	code := define(x, addr)
	in_ := func(base jen.Code, size uint64) jen.Code {
		return jen.Id(x).Op("-").Add(base).Op("<").Lit(size)
	}
	isConst := func() jen.Code {
		var cond jen.Code = jen.False()
		first := true
		for i, g := range c.e.f.g.Mod.Globals {
			if !g.ReadOnly {
				continue
			}
			t := jen.Parens(in_(jen.Id("w").Dot("GlobalVar").Call(jen.Lit(i)), uint64(g.Size)))
			if first {
				cond, first = t, false
			} else {
				cond = jen.Add(cond).Op("||").Add(t)
			}
		}
		return cond
	}
	var test jen.Code
	switch sp {
	case frontend.SpaceShared:
		test = in_(jen.Uint64().Call(jen.Qual(rtPath, "SharedWindow")), runtime.WindowSize)
	case frontend.SpaceLocal:
		test = in_(jen.Uint64().Call(jen.Qual(rtPath, "LocalWindow")), runtime.WindowSize)
	case frontend.SpaceConst:
		test = isConst()
	case frontend.SpaceGlobal:
		test = jen.Qual(rtPath, "IsGlobalGeneric").Call(jen.Id(x)).Op("&&").
			Id(x).Op("-").Uint64().Call(jen.Qual(rtPath, "FuncWindow")).Op(">=").Lit(uint64(runtime.WindowSize)).
			Op("&&").Op("!").Parens(isConst())
	case frontend.SpaceParam:
		test = jen.Qual(rtPath, "InParamWindow").Call(jen.Id(x))
	default:
		return nil
	}
	return append(code, jen.Id(n).Op(":=").Add(test))
}

// barRed fills in bar.red's kind, destination and source predicate (as codegen/closure's
// barrier does) and returns the remaining operands, the barrier number and thread count.
func (f *fnGen) barRed(in *ssa.Instr, d jen.Dict) []ssa.Arg {
	args := in.Args
	// bar.red writes its first operand; the SSA builder lists it with the sources.
	dst := ssa.Arg{Kind: ssa.ArgSink}
	if len(in.Dsts) > 0 {
		dst = in.Dsts[0]
	} else if len(args) > 0 {
		dst, args = args[0], args[1:]
	}
	kind := "BarRedOr"
	switch {
	case has(in, frontend.ModPopc):
		kind = "BarRedPopc"
	case has(in, frontend.ModAnd):
		kind = "BarRedAnd"
	}
	last := len(args) - 1
	d[jen.Id("Kind")] = jen.Qual(rtPath, kind)
	d[jen.Id("Dst")] = jen.Lit(f.Regs[dst.Value.Reg.ID])
	d[jen.Id("Pred")] = jen.Lit(f.Regs[args[last].Value.Reg.ID])
	if args[last].Not {
		d[jen.Id("PredNeg")] = jen.True()
	}
	return args[:last:last]
}

// uniformSpecialExt is one of the special registers beyond emit.go's with one value per warp
// (codegen/closure's specialReader gives the same values), or nil.
func uniformSpecialExt(name string) jen.Code {
	if n := len(name); n > 2 && name[n-2] == '.' && name[n-1] >= 'x' && name[n-1] <= 'z' {
		switch name[:n-2] {
		case "%cluster_ctaid":
			return jen.Uint64().Call(jen.Lit(0))
		case "%cluster_nctaid":
			return jen.Uint64().Call(jen.Lit(1))
		}
		return nil
	}
	clock := jen.Qual(rtPath, "Clock64").Call()
	timer := jen.Qual(rtPath, "GlobalTimer").Call()
	switch name {
	case "%clock":
		return u64(conv("uint32", clock))
	case "%clock_hi":
		return clock.Op(">>").Lit(32)
	case "%clock64":
		return clock
	case "%globaltimer":
		return timer
	case "%globaltimer_lo":
		return u64(conv("uint32", timer))
	case "%globaltimer_hi":
		return timer.Op(">>").Lit(32)
	case "%dynamic_smem_size":
		return jen.Uint64().Call(jen.Id("w").Dot("DynamicShared").Call())
	case "%smid", "%gridid", "%cluster_ctarank", "%is_explicit_cluster":
		return jen.Uint64().Call(jen.Lit(0))
	case "%nsmid", "%cluster_nctarank":
		return jen.Uint64().Call(jen.Lit(1))
	}
	if n, ok := strings.CutPrefix(name, "%envreg"); ok {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < 32 && strconv.Itoa(i) == n {
			return jen.Id("w").Dot("EnvReg").Call(jen.Lit(i))
		}
	}
	if ssa.PerfMonitorRegister(name) {
		return jen.Uint64().Call(jen.Lit(0))
	}
	return nil
}

// laneSpecialExt is one of the %lanemask registers, per lane, or nil.
func laneSpecialExt(name string) jen.Code {
	l := jen.Id("l")
	switch name {
	case "%lanemask_eq":
		return jen.Uint64().Call(jen.Lit(1)).Op("<<").Add(l)
	case "%lanemask_lt":
		return jen.Parens(jen.Uint64().Call(jen.Lit(1)).Op("<<").Add(l)).Op("-").Lit(1)
	case "%lanemask_le":
		return jen.Parens(jen.Uint64().Call(jen.Lit(1)).Op("<<").Parens(l.Clone().Op("+").Lit(1))).Op("-").Lit(1)
	case "%lanemask_gt":
		return u64(jen.Op("^").Parens(jen.Uint32().Call(jen.Lit(1)).Op("<<").Parens(l.Clone().Op("+").Lit(1)).Op("-").Lit(1)))
	case "%lanemask_ge":
		return u64(jen.Op("^").Parens(jen.Uint32().Call(jen.Lit(1)).Op("<<").Add(l).Op("-").Lit(1)))
	}
	return nil
}

// approx64 lowers rcp.approx.ftz.f64 (correctly rounded to nearest, subnormals flushed) and
// rsqrt.approx{.ftz}.f64, as codegen/closure does.
func (c ctx) approx64(in *ssa.Instr, n string) []jen.Code {
	a := c.src(in, in.Args[0], frontend.F64)
	ftz := has(in, frontend.ModFtz)
	if ftz {
		a = isaFn("Ftz64", a)
	}
	var v jen.Code
	switch {
	case in.Op == frontend.OpRcp && ftz:
		v = isaFn("RcpF64", a, jen.Qual(isaPath, "RN"))
	case in.Op == frontend.OpRsqrt:
		v = isaFn("RsqrtApproxF64", a)
	default:
		return nil
	}
	if ftz {
		v = isaFn("Ftz64", v)
	}
	return define(n, v)
}
