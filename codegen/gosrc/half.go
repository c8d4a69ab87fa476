package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Half precision, lowered as codegen/closure's half.go does: .f16 and .bf16 values live in the
// low 16 bits of a register, .f16x2 and .bf16x2 in the low 32 bits with the first element in
// bits 0-15. The scalar semantics are runtime/isa's; this file picks the functions for the
// modifiers and applies them to one half or to both halves of a packed value.

func isBF16(t frontend.Type) bool       { return t == frontend.BF16 || t == frontend.BF16x2 }
func isHalfPacked(t frontend.Type) bool { return t == frontend.F16x2 || t == frontend.BF16x2 }

// halfName is the isa function name suffix of a 16-bit float type: "F16" or "BF16".
func halfName(t frontend.Type) string {
	if isBF16(t) {
		return "BF16"
	}
	return "F16"
}

// halfSrcs are the source operands of a half-precision instruction, or nil when one is an
// immediate: the ISA defines none for these types, and the table of forms rejects them.
func (c ctx) halfSrcs(in *ssa.Instr, t frontend.Type) []jen.Code {
	var xs []jen.Code
	for _, a := range in.Args {
		if isHalf(t) && (a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat) {
			return nil
		}
		xs = append(xs, c.src(in, a, t))
	}
	return xs
}

// halfLanes defines n as op applied to the 16-bit elements of the operands: once for a scalar
// type, to the low and the high halves independently for a packed one.
func halfLanes(n string, args []jen.Code, packed bool, op func(xs []jen.Code) jen.Code) []jen.Code {
	var out []jen.Code
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = fmt.Sprintf("%sh%d", n, i)
		out = append(out, jen.Id(names[i]).Op(":=").Add(a))
	}
	part := func(hi bool) jen.Code {
		var xs []jen.Code
		for _, nm := range names {
			if hi {
				xs = append(xs, jen.Uint16().Call(jen.Id(nm).Op(">>").Lit(16)))
			} else {
				xs = append(xs, jen.Uint16().Call(jen.Id(nm)))
			}
		}
		return op(xs)
	}
	if !packed {
		return append(out, jen.Id(n).Op(":=").Add(u64(part(false))))
	}
	return append(out, jen.Id(n).Op(":=").Add(u64(part(false))).Op("|").Add(u64(part(true))).Op("<<").Lit(16))
}

// halfOp lowers add, sub, mul, fma, neg, abs, min, max, ex2.approx and tanh.approx on .f16,
// .f16x2, .bf16 and .bf16x2, and the mixed-precision forms with an .f32 result, with the
// modifiers the table of forms (layout.CheckForms) accepts.
func (c ctx) halfOp(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	ts := types(in)
	if len(ts) == 2 && ts[0] == frontend.F32 && !isHalfPacked(t) {
		return c.halfMixed(in, n, t)
	}
	args := c.halfSrcs(in, t)
	if args == nil {
		return nil
	}
	bf, packed := isBF16(t), isHalfPacked(t)
	hn := halfName(t)
	lanes := func(op func(xs []jen.Code) jen.Code) []jen.Code { return halfLanes(n, args, packed, op) }
	if in.Op == frontend.OpEx2 || in.Op == frontend.OpTanh {
		fn := "TanhApprox" + hn
		switch {
		case in.Op == frontend.OpEx2 && bf:
			fn = "Ex2ApproxFtzBF16"
		case in.Op == frontend.OpEx2:
			fn = "Ex2ApproxF16"
		}
		return lanes(func(xs []jen.Code) jen.Code { return isaFn(fn, xs[0]) })
	}
	ftz, sat, relu := has(in, frontend.ModFtz), has(in, frontend.ModSat), has(in, frontend.ModRelu)
	in16 := func(x jen.Code) jen.Code {
		if ftz {
			return isaFn("FtzF16", x)
		}
		return x
	}
	out := func(x jen.Code) jen.Code {
		if ftz {
			x = isaFn("FtzF16", x)
		}
		if sat {
			x = isaFn("SatF16", x)
		}
		if relu {
			x = isaFn("Relu"+hn, x)
		}
		return x
	}
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul:
		fn := map[frontend.Opcode]string{frontend.OpAdd: "Add", frontend.OpSub: "Sub", frontend.OpMul: "Mul"}[in.Op] + hn
		return lanes(func(xs []jen.Code) jen.Code { return out(isaFn(fn, in16(xs[0]), in16(xs[1]))) })
	case frontend.OpFma:
		return lanes(func(xs []jen.Code) jen.Code { return out(isaFn("Fma"+hn, in16(xs[0]), in16(xs[1]), in16(xs[2]))) })
	case frontend.OpNeg, frontend.OpAbs:
		fn := "NegHalf"
		if in.Op == frontend.OpAbs {
			fn = "AbsHalf"
		}
		return lanes(func(xs []jen.Code) jen.Code { return isaFn(fn, in16(xs[0])) })
	case frontend.OpMin, frontend.OpMax:
		xs := has(in, frontend.ModXorsign)
		fn := "Min" + hn
		if in.Op == frontend.OpMax {
			fn = "Max" + hn
		}
		nan := has(in, frontend.ModNaN)
		return lanes(func(x []jen.Code) jen.Code { return isaFn(fn, in16(x[0]), in16(x[1]), jen.Lit(nan), jen.Lit(xs)) })
	}
	return nil
}

// halfMixed lowers add/sub{.rnd}{.sat}.f32.{f16,bf16} d, a, c and fma.rnd{.sat}.f32.{f16,bf16}
// d, a, b, c: the 16-bit operands widened exactly, the result rounded once to f32.
func (c ctx) halfMixed(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	r := "RN"
	if name, ok := roundingName[rounding(in)]; ok {
		r = name
	}
	value := func(i int) jen.Code {
		if a := in.Args[i]; a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat {
			panic("immediate operand for a half-precision instruction")
		}
		return isaFn(halfName(t)+"Value", jen.Uint16().Call(c.src(in, in.Args[i], t)))
	}
	f32 := func(i int) jen.Code {
		return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(conv("uint32", c.src(in, in.Args[i], frontend.F32))))
	}
	var x, y jen.Code
	switch in.Op {
	case frontend.OpAdd:
		x, y = value(0), f32(1)
	case frontend.OpSub:
		x, y = value(0), jen.Op("-").Add(f32(1))
	case frontend.OpFma:
		// The product of two 16-bit values is exact in float64.
		x, y = jen.Add(value(0)).Op("*").Add(value(1)), f32(2)
	default:
		return nil
	}
	v := isaFn("SumF32", x, y, jen.Qual(isaPath, r))
	if has(in, frontend.ModSat) {
		v = isaFn("Sat32", v)
	}
	return define(n, u64(v))
}

// floatTest is the comparison cmp of the float64 locals x and y (ordered unless the
// comparison is one of the unordered ...u forms, .num or .nan), or nil for another one.
func floatTest(cmp frontend.Mod, x, y string) jen.Code {
	unord := jen.Parens(jen.Id(x).Op("!=").Id(x).Op("||").Id(y).Op("!=").Id(y))
	ops := map[frontend.Mod]string{frontend.ModEq: "==", frontend.ModLt: "<", frontend.ModLe: "<=", frontend.ModGt: ">", frontend.ModGe: ">="}
	uops := map[frontend.Mod]string{frontend.ModEqu: "==", frontend.ModLtu: "<", frontend.ModLeu: "<=", frontend.ModGtu: ">", frontend.ModGeu: ">="}
	switch {
	case cmp == frontend.ModNum:
		return jen.Op("!").Add(unord)
	case cmp == frontend.ModNan:
		return unord
	case cmp == frontend.ModNe:
		return jen.Id(x).Op("!=").Id(y).Op("&&").Op("!").Add(unord)
	case cmp == frontend.ModNeu:
		return jen.Add(unord).Op("||").Id(x).Op("!=").Id(y)
	case ops[cmp] != "":
		return jen.Id(x).Op(ops[cmp]).Id(y)
	case uops[cmp] != "":
		return jen.Add(unord).Op("||").Id(x).Op(uops[cmp]).Id(y)
	}
	return nil
}

func compareMod(in *ssa.Instr) frontend.Mod {
	var cmp frontend.Mod
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindCompare {
			cmp = m
		}
	}
	return cmp
}

// halfPair reports whether a setp writes p|q with q an independent result: the packed
// half-precision forms, where p tests the low halves and q the high halves.
func halfPair(in *ssa.Instr) bool {
	return in.Op == frontend.OpSetp && isHalfPacked(layout.InstrType(in))
}

// halfSetp defines n (and n+"q" for a packed type) as setp's results on .f16/.bf16 and
// .f16x2/.bf16x2 operands, each combined with the optional predicate c by .and/.or/.xor.
func (c ctx) halfSetp(in *ssa.Instr, n string) []jen.Code {
	return c.halfCompare(in, n, layout.InstrType(in))
}

// halfCompare returns statements defining n as (a CmpOp b) BoolOp c on the low halves of the
// 16-bit float type t and, for a packed t, n+"q" as the same on the high halves, for setp and
// set.
func (c ctx) halfCompare(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	packed := isHalfPacked(t)
	ftz := has(in, frontend.ModFtz)
	cmp := compareMod(in)
	var args []jen.Code
	for _, a := range in.Args[:2] {
		if a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat {
			return nil
		}
		args = append(args, c.src(in, a, t))
	}
	val := func(x jen.Code) jen.Code {
		if ftz {
			x = isaFn("FtzF16", x)
		}
		return jen.Qual("math", "Float64frombits").Call(isaFn(halfName(t)+"ToF64", x))
	}
	a, b := n+"a", n+"b"
	stmts := []jen.Code{jen.List(jen.Id(a), jen.Id(b)).Op(":=").List(args[0], args[1])}
	test := func(out string, hi bool) jen.Code {
		x, y := out+"x", out+"y"
		ea, eb := jen.Uint16().Call(jen.Id(a)), jen.Uint16().Call(jen.Id(b))
		if hi {
			ea, eb = jen.Uint16().Call(jen.Id(a).Op(">>").Lit(16)), jen.Uint16().Call(jen.Id(b).Op(">>").Lit(16))
		}
		stmts = append(stmts, jen.List(jen.Id(x), jen.Id(y)).Op(":=").List(val(ea), val(eb)))
		return floatTest(cmp, x, y)
	}
	lo := test(n+"l", false)
	if lo == nil {
		return nil
	}
	var hi jen.Code
	if packed {
		hi = test(n+"u", true)
	}
	op := "" // pairComb, for set too
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor} {
		if has(in, m) {
			op = m.String()
		}
	}
	var cv jen.Code
	if op != "" {
		if len(in.Args) != 3 {
			return nil
		}
		stmts = append(stmts, jen.Id(n+"c").Op(":=").Add(c.pred(in.Args[2])))
		cv = jen.Id(n + "c")
	}
	comb := func(x jen.Code) jen.Code {
		if op == "" {
			return x
		}
		gop := map[string]string{".and": "&&", ".or": "||", ".xor": "!="}[op]
		return jen.Parens(x).Op(gop).Add(cv)
	}
	stmts = append(stmts, jen.Id(n).Op(":=").Add(comb(lo)))
	if packed {
		stmts = append(stmts, jen.Id(n+"q").Op(":=").Add(comb(hi)))
	}
	return stmts
}

// roundName is the isa rounding direction of .rn/.rz/.rm/.rp, "RN" for none.
func roundName(m frontend.Mod) string {
	if r, ok := roundingName[m]; ok {
		return r
	}
	return "RN"
}

// packMod is cvt's .pack modifier.
var packMod, _ = frontend.LookupMod(".pack")

// isHalfCvt reports whether a cvt involves a 16-bit float or .tf32 type, or is cvt.pack: the
// conversions cvtHalf lowers.
func isHalfCvt(in *ssa.Instr) bool {
	if has(in, packMod) {
		return true
	}
	for _, t := range types(in) {
		if isHalf(t) || t == frontend.TF32 {
			return true
		}
	}
	return false
}

// cvtHalf lowers the conversions that involve .f16, .bf16, .f16x2, .bf16x2 or .tf32, and
// cvt.pack, as codegen/closure's cvtHalf does.
func (c ctx) cvtHalf(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	if has(in, packMod) {
		return c.cvtPack(in, n, ts)
	}
	dt, st := ts[0], ts[1]
	relu, satfinite := has(in, frontend.ModRelu), has(in, frontend.ModSatfinite)
	rnd := rounding(in)
	switch {
	case dt == frontend.TF32:
		r := "RNA"
		switch rnd {
		case frontend.ModRn:
			r = "RN"
		case frontend.ModRz:
			r = "RZ"
		}
		return define(n, u64(isaFn("CvtTF32", conv("uint32", c.src(in, in.Args[0], st)), jen.Qual(isaPath, r), jen.Lit(satfinite), jen.Lit(relu))))
	case isHalfPacked(dt) || isHalfPacked(st) || relu || satfinite:
		// cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}{x2}.f32: for the packed types a goes to
		// the upper half and b to the lower.
		narrow := func(i int) jen.Code {
			return u64(isaFn("NarrowF32", conv("uint32", c.src(in, in.Args[i], frontend.F32)), jen.Lit(isBF16(dt)),
				jen.Qual(isaPath, roundName(rnd)), jen.Lit(satfinite), jen.Lit(relu)))
		}
		if isHalfPacked(dt) {
			return define(n, jen.Add(narrow(0)).Op("<<").Lit(16).Op("|").Add(narrow(1)))
		}
		return define(n, narrow(0))
	}
	return c.cvtScalarHalf(in, n, dt, st)
}

// cvtScalarHalf lowers cvt{.rnd}{.ftz}{.sat}.dtype.atype where one side is .f16 or .bf16 and
// the other an integer, .f16, .bf16, .f32 or .f64 type (codegen/closure's cvtScalarHalf).
func (c ctx) cvtScalarHalf(in *ssa.Instr, n string, dt, st frontend.Type) []jen.Code {
	rnd := rounding(in)
	ftz, sat := has(in, frontend.ModFtz), has(in, frontend.ModSat)
	if a := in.Args[0]; isHalf(st) && (a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat) {
		return nil
	}
	a := n + "s"
	stmts := []jen.Code{jen.Id(a).Op(":=").Add(c.src(in, in.Args[0], st))}
	// read decodes the float source exactly as a float64.
	read := func() jen.Code {
		switch {
		case isHalf(st):
			return isaFn(halfName(st)+"Value", jen.Uint16().Call(jen.Id(a)))
		case st == frontend.F32:
			x := conv("uint32", jen.Id(a))
			if ftz {
				x = isaFn("Ftz32", x)
			}
			return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(x))
		}
		return jen.Qual("math", "Float64frombits").Call(jen.Id(a))
	}
	regBits := 64
	if x := in.Dsts[0]; x.Kind == ssa.ArgValue && x.Value != nil {
		regBits = x.Value.Reg.Type.Bits()
	}
	if !isHalf(dt) {
		// From a 16-bit float to an integer, f32 or f64: the value is exact in float64.
		if dt.IsInteger() {
			r := intRoundingName[rnd]
			dn := dt.Bits()
			v := isaFn("FloatToInt", isaFn("RoundToInt", read(), jen.Qual(isaPath, r)), jen.Qual(isaPath, "RZ"), jen.Lit(dn), jen.Lit(dt.IsSigned()))
			if dt.IsSigned() && regBits > dn {
				v = u64(conv(utype(regBits), conv(stype(regBits), conv(stype(dn), v))))
			}
			return append(stmts, jen.Id(n).Op(":=").Add(v))
		}
		if dt == frontend.F64 {
			v := isaFn(halfName(st)+"ToF64", jen.Uint16().Call(jen.Id(a)))
			if sat {
				v = isaFn("Sat64", v)
			}
			return append(stmts, jen.Id(n).Op(":=").Add(v))
		}
		v := isaFn(halfName(st)+"ToF32", jen.Uint16().Call(jen.Id(a)))
		if ftz {
			v = isaFn("Ftz32", v)
		}
		if sat {
			v = isaFn("Sat32", v)
		}
		return append(stmts, jen.Id(n).Op(":=").Add(u64(v)))
	}
	hn := halfName(dt)
	fin := func(h jen.Code) []jen.Code {
		if sat {
			h = isaFn("Sat"+hn, h)
		}
		return append(stmts, jen.Id(n).Op(":=").Add(u64(h)))
	}
	fromF64 := func(f jen.Code, r string) jen.Code {
		return isaFn("F64To"+hn, jen.Qual("math", "Float64bits").Call(f), jen.Qual(isaPath, r))
	}
	if r, ok := intRoundingName[rnd]; ok {
		// cvt.rni.f16.f16: round to an integral value in the same format.
		return fin(fromF64(isaFn("RoundToInt", read(), jen.Qual(isaPath, r)), "RN"))
	}
	r := roundName(rnd)
	if st.IsInteger() {
		if st.IsSigned() {
			return fin(isaFn("S64To"+hn, isaFn("Sext", jen.Id(a), jen.Lit(st.Bits())), jen.Qual(isaPath, r)))
		}
		return fin(isaFn("U64To"+hn, jen.Id(a).Op("&").Add(isaFn("Mask", jen.Lit(st.Bits()))), jen.Qual(isaPath, r)))
	}
	if st == dt {
		return fin(jen.Uint16().Call(jen.Id(a)))
	}
	return fin(fromF64(read(), r))
}

// cvtPack lowers cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32
// d, a, b, c.
func (c ctx) cvtPack(in *ssa.Instr, n string, ts []frontend.Type) []jen.Code {
	ct := ts[0]
	signed := ct == frontend.S16 || ct == frontend.S8 || ct == frontend.S4 || ct == frontend.S2
	a, b := c.src(in, in.Args[0], frontend.S32), c.src(in, in.Args[1], frontend.S32)
	var z jen.Code = jen.Lit(0) // c: unused by the 16-bit forms, which fill all 32 bits
	if len(in.Args) == 3 {
		z = conv("uint32", c.src(in, in.Args[2], frontend.B32))
	}
	return define(n, u64(isaFn("CvtPack", conv("int32", a), conv("int32", b), z, jen.Lit(ct.Bits()), jen.Lit(signed))))
}
