package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// The lowering decisions below follow codegen/closure's (which isa function for which opcode,
// type and modifiers); which forms are accepted is the table of forms' (layout.CheckForms),
// which Generate checks before lowering. The operations Go's operators define exactly (integer
// arithmetic, logic, shifts, comparisons, integer/float conversions) are written as Go
// expressions, as closure's typed lane loops do.

func utype(n int) string { return fmt.Sprintf("uint%d", n) }
func stype(n int) string { return fmt.Sprintf("int%d", n) }

func conv(t string, x jen.Code) *jen.Statement { return jen.Id(t).Call(x) }
func u64(x jen.Code) *jen.Statement            { return jen.Uint64().Call(x) }
func isaFn(name string, args ...jen.Code) *jen.Statement {
	return jen.Qual(isaPath, name).Call(args...)
}
func define(n string, x jen.Code) []jen.Code { return []jen.Code{jen.Id(n).Op(":=").Add(x)} }

var roundingName = map[frontend.Mod]string{frontend.ModRz: "RZ", frontend.ModRm: "RM", frontend.ModRp: "RP"}

func rounding(in *ssa.Instr) frontend.Mod {
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindRounding {
			return m
		}
	}
	return 0
}

// isaRounding is isa.RN, isa.RZ, ... for the instruction's rounding modifier.
func isaRounding(in *ssa.Instr) jen.Code {
	if n, ok := roundingName[rounding(in)]; ok {
		return jen.Qual(isaPath, n)
	}
	return jen.Qual(isaPath, "RN")
}

// onlyMods reports whether every non-type modifier is in the allowed list.
func onlyMods(in *ssa.Instr, allowed ...frontend.Mod) bool {
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindType {
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == m
		}
		if !ok {
			return false
		}
	}
	return true
}

// value returns statements that define n as the uint64 register value the instruction
// writes, or nil for a form the back end does not handle.
func (c ctx) value(in *ssa.Instr, n string) []jen.Code {
	if code, ok := c.valueExt(in, n); ok {
		return code
	}
	t := layout.InstrType(in)
	src := func(i int, t frontend.Type) jen.Code { return c.src(in, in.Args[i], t) }
	switch in.Op {
	case frontend.OpMov:
		if len(in.Args) != 1 || in.Args[0].Kind == ssa.ArgVector || in.Dsts[0].Kind == ssa.ArgVector {
			return nil
		}
		return define(n, u64(src(0, t)))
	case frontend.OpCvta:
		var base uint64
		switch layout.InstrSpace(in) {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			return define(n, u64(src(0, t)))
		case frontend.SpaceShared:
			base = uint64(runtime.SharedWindow)
		case frontend.SpaceLocal:
			base = uint64(runtime.LocalWindow)
		case frontend.SpaceParam:
			base = uint64(runtime.ParamWindow)
		}
		op := "+"
		if has(in, frontend.ModTo) {
			op = "-"
		}
		return define(n, u64(conv(utype(t.Bits()), jen.Add(src(0, t)).Op(op).Id(c.e.imm(base)))))
	case frontend.OpSelp:
		p := c.pred(in.Args[2])
		return []jen.Code{
			jen.Id(n).Op(":=").Add(u64(src(1, t))),
			jen.If(p).Block(jen.Id(n).Op("=").Add(u64(src(0, t)))),
		}
	case frontend.OpCvt:
		return c.cvt(in, n)
	case frontend.OpLd, frontend.OpLdu:
		return c.load(in, n)
	case frontend.OpCreatepolicy:
		policy, copy, ok, msg := layout.CachePolicy(in)
		switch {
		case msg != "":
			c.e.errorf(in, "%s", msg)
			return nil
		case !ok:
			return nil
		case copy:
			return define(n, u64(src(0, frontend.B64)))
		}
		return define(n, jen.Id(c.e.imm(policy)))
	}
	if t.IsFloat() {
		return c.float(in, n, t)
	}
	return c.integer(in, n, t)
}

// integer lowers integer arithmetic and logic on n-bit values.
func (c ctx) integer(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	bits := t.Bits()
	signed := t.IsSigned()
	U, S := utype(bits), stype(bits)
	a := func(i int) jen.Code { return c.src(in, in.Args[i], t) }
	uop := func(op string, i, j int) []jen.Code {
		return define(n, u64(conv(U, a(i)).Op(op).Add(conv(U, a(j)))))
	}
	wide, hi := has(in, frontend.ModWide), has(in, frontend.ModHi)
	switch in.Op {
	case frontend.OpAdd:
		return uop("+", 0, 1)
	case frontend.OpSub:
		return uop("-", 0, 1)
	case frontend.OpMul, frontend.OpMad:
		var prod jen.Code
		cn := bits
		switch {
		case wide && signed:
			cn = 2 * bits
			prod = conv(utype(cn), jen.Int64().Call(conv(S, a(0))).Op("*").Int64().Call(conv(S, a(1))))
		case wide:
			cn = 2 * bits
			prod = conv(utype(cn), jen.Uint64().Call(conv(U, a(0))).Op("*").Uint64().Call(conv(U, a(1))))
		case hi:
			prod = conv(U, isaFn("MulHi", a(0), a(1), jen.Lit(bits), jen.Lit(signed)))
		default:
			prod = conv(U, a(0)).Op("*").Add(conv(U, a(1)))
		}
		if in.Op == frontend.OpMul {
			return define(n, u64(jen.Add(prod)))
		}
		if c.warpInvariant(in.Args[0]) && c.warpInvariant(in.Args[1]) {
			prod = jen.Id(c.e.hoist(prod))
		}
		add := conv(utype(cn), c.src(in, in.Args[2], typeOfBits(cn)))
		return define(n, u64(conv(utype(cn), jen.Add(prod).Op("+").Add(add))))
	case frontend.OpDiv:
		return define(n, isaFn("Div", a(0), a(1), jen.Lit(bits), jen.Lit(signed)))
	case frontend.OpRem:
		return define(n, isaFn("Rem", a(0), a(1), jen.Lit(bits), jen.Lit(signed)))
	case frontend.OpMin, frontend.OpMax:
		fn := "min"
		if in.Op == frontend.OpMax {
			fn = "max"
		}
		if signed {
			return define(n, u64(conv(U, jen.Id(fn).Call(conv(S, a(0)), conv(S, a(1))))))
		}
		return define(n, u64(jen.Id(fn).Call(conv(U, a(0)), conv(U, a(1)))))
	case frontend.OpAbs:
		return []jen.Code{
			jen.Id(n + "s").Op(":=").Add(conv(S, a(0))),
			jen.Id(n).Op(":=").Add(u64(conv(U, jen.Id("max").Call(jen.Id(n+"s"), jen.Op("-").Id(n+"s"))))),
		}
	case frontend.OpNeg:
		return define(n, u64(jen.Op("-").Add(conv(U, a(0)))))
	case frontend.OpAnd:
		return uop("&", 0, 1)
	case frontend.OpOr:
		return uop("|", 0, 1)
	case frontend.OpXor:
		return uop("^", 0, 1)
	case frontend.OpNot:
		return define(n, u64(jen.Op("^").Add(conv(U, a(0)))))
	case frontend.OpShl, frontend.OpShr:
		amount := conv("uint32", c.src(in, in.Args[1], frontend.U32))
		switch {
		case in.Op == frontend.OpShl:
			return define(n, u64(conv(U, a(0)).Op("<<").Add(amount)))
		case signed:
			return define(n, u64(conv(U, conv(S, a(0)).Op(">>").Add(amount))))
		}
		return define(n, u64(conv(U, a(0)).Op(">>").Add(amount)))
	case frontend.OpPopc:
		return define(n, u64(jen.Qual("math/bits", "OnesCount64").Call(u64(conv(U, a(0))))))
	case frontend.OpClz:
		return define(n, u64(jen.Qual("math/bits", "LeadingZeros64").Call(u64(conv(U, a(0)))).Op("-").Lit(64-bits)))
	case frontend.OpBrev:
		return define(n, jen.Qual("math/bits", "Reverse64").Call(a(0)).Op(">>").Lit(64-bits))
	case frontend.OpBfe:
		return define(n, isaFn("Bfe", a(0), conv("uint32", c.src(in, in.Args[1], frontend.U32)), conv("uint32", c.src(in, in.Args[2], frontend.U32)), jen.Lit(bits), jen.Lit(signed)))
	}
	return nil
}

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

// srcF32 returns a float32 expression for the f32 source operand i: the float32 local of a
// lane local computed by f32 arithmetic in the same lane loop (blockEmit.shadow), or the
// operand's bits converted.
func (c ctx) srcF32(in *ssa.Instr, i int) jen.Code {
	a := in.Args[i]
	if s := c.e.seg; a.Kind == ssa.ArgValue && !c.scalar && s != nil && !c.e.lane {
		if n, ok := s.lanes[c.e.f.Regs[a.Value.Reg.ID]]; ok && s.floats[n] {
			s.use(n + "F")
			return jen.Id(n + "F")
		}
	}
	return jen.Qual("math", "Float32frombits").Call(conv("uint32", c.src(in, a, frontend.F32)))
}

// float lowers f32 and f64 arithmetic.
func (c ctx) float(in *ssa.Instr, n string, t frontend.Type) []jen.Code {
	f32 := t == frontend.F32
	var args []jen.Code
	ftz, sat := has(in, frontend.ModFtz), has(in, frontend.ModSat)
	rn := rounding(in) == 0 || rounding(in) == frontend.ModRn
	approx := has(in, frontend.ModApprox)
	arg := func(i int) jen.Code {
		x := c.src(in, in.Args[i], t)
		if f32 {
			x = conv("uint32", x)
			if ftz {
				x = isaFn("Ftz32", x)
			}
		}
		return x
	}
	for i := range in.Args {
		args = append(args, arg(i))
	}
	// post applies .ftz and .sat to an f32 result and widens it to a register value.
	post := func(x jen.Code) []jen.Code {
		if f32 && ftz {
			x = isaFn("Ftz32", x)
		}
		if sat {
			if f32 {
				x = isaFn("Sat32", x)
			} else {
				x = isaFn("Sat64", x)
			}
		}
		if f32 {
			x = u64(x)
		}
		return define(n, x)
	}
	suffix := "F64"
	if f32 {
		suffix = "F32"
	}
	names := map[frontend.Opcode]string{frontend.OpAdd: "Add", frontend.OpSub: "Sub", frontend.OpMul: "Mul", frontend.OpFma: "Fma", frontend.OpMad: "Fma"}
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpFma, frontend.OpMad:
		if rn && !sat {
			if f32 && !ftz {
				// The result also as a float32 local, nF, which later f32 arithmetic in the
				// lane loop reads without moving the bits through an integer register.
				nf := n + "F"
				c.e.shadow(n)
				if names[in.Op] == "Fma" {
					// FmaF32RN with its common case inline: the float64 fma rounded once. The
					// product of two float32 values is exact in float64, so a multiply and an
					// add are that fma; unlike math.FMA they need no check of the CPU and no
					// call where it lacks FMA, around which the compiler would save registers.
					f, p, z := n+"f", n+"p", n+"z"
					return []jen.Code{
						jen.Var().Id(n).Uint64(),
						jen.Var().Id(nf).Float32(),
						jen.Id(p).Op(",").Id(z).Op(":=").Float64().Call(c.srcF32(in, 0)).Op("*").Float64().Call(c.srcF32(in, 1)).Op(",").Float64().Call(c.srcF32(in, 2)),
						jen.If(jen.Id(f).Op(":=").Id(p).Op("+").Id(z),
							isaFn("FmaF32Rounded", jen.Id(p), jen.Id(z), jen.Id(f))).Block(
							jen.Id(nf).Op("=").Float32().Call(jen.Id(f)),
							jen.Id(n).Op("=").Add(u64(jen.Qual("math", "Float32bits").Call(jen.Id(nf))))).Else().Block(
							c.slowPath(
								jen.Id(n).Op("=").Add(u64(isaFn("FmaF32RN", args...))),
								jen.Id(nf).Op("=").Qual("math", "Float32frombits").Call(jen.Uint32().Call(jen.Id(n))))),
						jen.Id("_").Op("=").Id(nf),
					}
				}
				op := map[frontend.Opcode]string{frontend.OpAdd: "+", frontend.OpSub: "-", frontend.OpMul: "*"}[in.Op]
				return []jen.Code{
					jen.Id(nf).Op(":=").Add(isaFn("CanonF32", jen.Add(c.srcF32(in, 0)).Op(op).Add(c.srcF32(in, 1)))),
					jen.Id(n).Op(":=").Add(u64(jen.Qual("math", "Float32bits").Call(jen.Id(nf)))),
					jen.Id("_").Op("=").Id(nf),
				}
			}
			return post(isaFn(names[in.Op]+suffix+"RN", args...))
		}
		return post(isaFn(names[in.Op]+suffix, append(args, isaRounding(in))...))
	case frontend.OpDiv:
		switch {
		case approx:
			return post(isaFn("DivApproxF32", args...))
		case has(in, frontend.ModFull):
			return post(isaFn("DivF32", append(args, jen.Qual(isaPath, "RN"))...))
		}
		return post(isaFn("Div"+suffix, append(args, isaRounding(in))...))
	case frontend.OpRcp, frontend.OpSqrt:
		name := "Rcp"
		if in.Op == frontend.OpSqrt {
			name = "Sqrt"
		}
		return post(isaFn(name+suffix, append(args, isaRounding(in))...))
	case frontend.OpRsqrt, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2:
		fn := map[frontend.Opcode]string{frontend.OpRsqrt: "RsqrtApproxF32", frontend.OpSin: "SinApproxF32",
			frontend.OpCos: "CosApproxF32", frontend.OpLg2: "Lg2ApproxF32", frontend.OpEx2: "Ex2ApproxF32"}[in.Op]
		return post(isaFn(fn, args...))
	case frontend.OpTanh:
		return post(isaFn("TanhApproxF32", args...))
	case frontend.OpNeg, frontend.OpAbs:
		name := "Neg"
		if in.Op == frontend.OpAbs {
			name = "Abs"
		}
		// The result of neg/abs is not flushed: it is subnormal only when the operand was.
		x := isaFn(name+suffix, args...)
		if f32 {
			return define(n, u64(x))
		}
		return define(n, x)
	case frontend.OpMin, frontend.OpMax:
		name := "Min"
		if in.Op == frontend.OpMax {
			name = "Max"
		}
		return post(isaFn(name+suffix, append(args, jen.Lit(has(in, frontend.ModNaN)))...))
	}
	return nil
}

// intRoundingName maps .rni/.rzi/.rmi/.rpi to runtime/isa's direction.
var intRoundingName = map[frontend.Mod]string{frontend.ModRni: "RN", frontend.ModRzi: "RZ", frontend.ModRmi: "RM", frontend.ModRpi: "RP"}

// cvt lowers cvt between integer, f32 and f64 types as codegen/closure does: integer
// conversions as Go conversions, integer to float in the forms Go's conversions round
// exactly, and from floats with runtime/isa's FloatToInt and CvtFloat (every rounding mode,
// .sat, .ftz).
func (c ctx) cvt(in *ssa.Instr, n string) []jen.Code {
	ts := types(in)
	dt, st := ts[0], ts[1]
	sat, ftz := has(in, frontend.ModSat), has(in, frontend.ModFtz)
	regBits := 64
	if x := in.Dsts[0]; x.Kind == ssa.ArgValue && x.Value != nil {
		regBits = x.Value.Reg.Type.Bits()
	}
	a := c.src(in, in.Args[0], st)
	dn := dt.Bits()
	// readFloat is the float64 value of the float source, .ftz applied to an f32.
	readFloat := func() jen.Code {
		if st == frontend.F64 {
			return jen.Qual("math", "Float64frombits").Call(a)
		}
		x := conv("uint32", a)
		if ftz {
			x = isaFn("Ftz32", x)
		}
		return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(x))
	}
	switch {
	case !dt.IsFloat() && !st.IsFloat():
		// Read the source as its type, convert to the destination type, and keep a signed
		// result sign-extended to the register's width.
		var v jen.Code
		if st.IsSigned() {
			v = conv(stype(st.Bits()), a)
		} else {
			v = conv(utype(st.Bits()), a)
		}
		var code []jen.Code
		if sat {
			// .sat clamps the source's value to the destination type's range, as
			// codegen/closure's clampSigned and clampUnsigned.
			x := c.e.fresh("cs")
			switch {
			case st.IsSigned() && dt.IsSigned():
				code = define(x, jen.Int64().Call(v))
				if dn < 64 {
					code = append(code, jen.Id(x).Op("=").Min(jen.Max(jen.Id(x), jen.Lit(-int64(1)<<(dn-1))), jen.Lit(int64(1)<<(dn-1)-1)))
				}
			case st.IsSigned():
				code = define(x, jen.Uint64().Call(jen.Max(jen.Int64().Call(v), jen.Lit(int64(0)))))
				if dn < 64 {
					code = append(code, jen.Id(x).Op("=").Min(jen.Id(x), jen.Lit(uint64(1)<<dn-1)))
				}
			case dt.IsSigned():
				code = define(x, jen.Min(jen.Uint64().Call(v), jen.Lit(uint64(1)<<(dn-1)-1)))
			default:
				code = define(x, jen.Uint64().Call(v))
				if dn < 64 {
					code = append(code, jen.Id(x).Op("=").Min(jen.Id(x), jen.Lit(uint64(1)<<dn-1)))
				}
			}
			v = jen.Id(x)
		}
		if dt.IsSigned() && regBits > dn {
			return append(code, define(n, u64(conv(utype(regBits), conv(stype(regBits), conv(stype(dn), v)))))...)
		}
		return append(code, define(n, u64(conv(utype(dn), v)))...)
	case !dt.IsFloat():
		// float → integer: round to an integer, then saturate; NaN becomes 0.
		r := intRoundingName[rounding(in)]
		v := isaFn("FloatToInt", readFloat(), jen.Qual(isaPath, r), jen.Lit(dn), jen.Lit(dt.IsSigned()))
		if dt.IsSigned() && regBits > dn {
			return define(n, u64(conv(utype(regBits), conv(stype(regBits), conv(stype(dn), v)))))
		}
		return define(n, v)
	case !st.IsFloat():
		// integer → float: Go's conversions round the common .rn forms exactly; the others
		// are runtime/isa's IntToFloat.
		var v jen.Code
		if st.IsSigned() {
			v = conv(stype(st.Bits()), a)
		} else {
			v = conv(utype(st.Bits()), a)
		}
		var r jen.Code
		switch {
		case rounding(in) == 0 || rounding(in) == frontend.ModRn:
			r = jen.Qual(isaPath, "RN")
			if !sat && (st == frontend.S32 || st == frontend.U32 || st == frontend.S64) {
				if dt == frontend.F32 {
					return define(n, u64(jen.Qual("math", "Float32bits").Call(jen.Float32().Call(v))))
				}
				return define(n, jen.Qual("math", "Float64bits").Call(jen.Float64().Call(v)))
			}
		default:
			r = jen.Qual(isaPath, roundingName[rounding(in)])
		}
		var x jen.Code
		if st.IsSigned() {
			x = isaFn("IntToFloat", jen.Int64().Call(v), jen.Lit(0), jen.True(), jen.Lit(dn), r)
		} else {
			x = isaFn("IntToFloat", jen.Lit(0), jen.Uint64().Call(v), jen.False(), jen.Lit(dn), r)
		}
		if sat && dt == frontend.F32 {
			x = u64(isaFn("Sat32", conv("uint32", x)))
		} else if sat {
			x = isaFn("Sat64", x)
		}
		return define(n, x)
	}
	// float → float.
	r, toInt := intRoundingName[rounding(in)]
	if !toInt {
		switch rounding(in) {
		case 0, frontend.ModRn:
			r = "RN"
		default:
			r = roundingName[rounding(in)]
		}
	}
	return define(n, isaFn("CvtFloat", a, jen.Lit(dn), jen.Lit(st.Bits()), jen.Qual(isaPath, r), jen.Lit(toInt), jen.Lit(ftz), jen.Lit(sat)))
}

// predValue returns statements that define n as the boolean a predicate-writing instruction
// computes for the lane (and n+"q" as the second result of a setp with p|q and a combine op).
func (c ctx) predValue(in *ssa.Instr, n string) []jen.Code {
	switch in.Op {
	case frontend.OpSetp:
		if isHalf(layout.InstrType(in)) {
			return c.halfSetp(in, n)
		}
		return c.setp(in, n)
	case frontend.OpTestp:
		return c.testp(in, n)
	case frontend.OpIsspacep:
		return c.isspacep(in, n)
	case frontend.OpMov:
		if len(in.Args) == 1 {
			return define(n, c.pred(in.Args[0]))
		}
	case frontend.OpAnd, frontend.OpOr, frontend.OpXor:
		op := map[frontend.Opcode]string{frontend.OpAnd: "&&", frontend.OpOr: "||", frontend.OpXor: "!="}[in.Op]
		return define(n, jen.Parens(c.pred(in.Args[0])).Op(op).Parens(c.pred(in.Args[1])))
	case frontend.OpNot:
		return define(n, jen.Op("!").Parens(c.pred(in.Args[0])))
	}
	return nil
}

// setp: p = (a cmp b) BOP c and, with p|q, q = !(a cmp b) BOP c.
func (c ctx) setp(in *ssa.Instr, n string) []jen.Code {
	t := layout.InstrType(in)
	var cmp frontend.Mod
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindCompare {
			cmp = m
		}
	}
	ftz := has(in, frontend.ModFtz)
	a, b := c.src(in, in.Args[0], t), c.src(in, in.Args[1], t)
	var test jen.Code
	if t == frontend.F32 || t == frontend.F64 {
		val := func(x jen.Code) jen.Code {
			if t == frontend.F32 {
				x = conv("uint32", x)
				if ftz {
					x = isaFn("Ftz32", x)
				}
				return jen.Float64().Call(jen.Qual("math", "Float32frombits").Call(x))
			}
			return jen.Qual("math", "Float64frombits").Call(x)
		}
		x, y := n+"x", n+"y"
		pre := []jen.Code{jen.List(jen.Id(x), jen.Id(y)).Op(":=").List(val(a), val(b))}
		unord := jen.Parens(jen.Id(x).Op("!=").Id(x).Op("||").Id(y).Op("!=").Id(y))
		ops := map[frontend.Mod]string{frontend.ModEq: "==", frontend.ModLt: "<", frontend.ModLe: "<=", frontend.ModGt: ">", frontend.ModGe: ">="}
		uops := map[frontend.Mod]string{frontend.ModEqu: "==", frontend.ModLtu: "<", frontend.ModLeu: "<=", frontend.ModGtu: ">", frontend.ModGeu: ">="}
		switch {
		case cmp == frontend.ModNum:
			test = jen.Op("!").Add(unord)
		case cmp == frontend.ModNan:
			test = unord
		case cmp == frontend.ModNe:
			test = jen.Id(x).Op("!=").Id(y).Op("&&").Op("!").Add(unord)
		case cmp == frontend.ModNeu:
			test = jen.Add(unord).Op("||").Id(x).Op("!=").Id(y)
		case ops[cmp] != "":
			test = jen.Id(x).Op(ops[cmp]).Id(y)
		case uops[cmp] != "":
			test = jen.Add(unord).Op("||").Id(x).Op(uops[cmp]).Id(y)
		default:
			return nil
		}
		return c.combine(in, n, append(pre, jen.Id(n+"t").Op(":=").Add(test)))
	}
	bits := t.Bits()
	U, S := utype(bits), stype(bits)
	ua, ub := conv(U, a), conv(U, b)
	sa, sb := conv(S, a), conv(S, b)
	x, y := ua, ub
	if t.IsSigned() {
		x, y = sa, sb
	}
	switch {
	case cmp == frontend.ModEq:
		test = jen.Add(ua).Op("==").Add(ub)
	case cmp == frontend.ModNe:
		test = jen.Add(ua).Op("!=").Add(ub)
	case cmp == frontend.ModLt || cmp == frontend.ModLo && !t.IsSigned():
		test = jen.Add(x).Op("<").Add(y)
	case cmp == frontend.ModLe || cmp == frontend.ModLs && !t.IsSigned():
		test = jen.Add(x).Op("<=").Add(y)
	case cmp == frontend.ModGt || cmp == frontend.ModHi && !t.IsSigned():
		test = jen.Add(x).Op(">").Add(y)
	case cmp == frontend.ModGe || cmp == frontend.ModHs && !t.IsSigned():
		test = jen.Add(x).Op(">=").Add(y)
	default:
		return nil
	}
	return c.combine(in, n, []jen.Code{jen.Id(n + "t").Op(":=").Add(test)})
}

// combine applies setp's .and/.or/.xor with its third operand to the test n+"t".
func (c ctx) combine(in *ssa.Instr, n string, stmts []jen.Code) []jen.Code {
	op := pairComb(in)
	if op == "" {
		return append(stmts, jen.Id(n).Op(":=").Id(n+"t"))
	}
	gop := map[string]string{".and": "&&", ".or": "||", ".xor": "!="}[op]
	cv := n + "c"
	stmts = append(stmts, jen.Id(cv).Op(":=").Add(c.pred(in.Args[2])))
	stmts = append(stmts, jen.Id(n).Op(":=").Id(n+"t").Op(gop).Id(cv))
	stmts = append(stmts, jen.Id(n+"q").Op(":=").Op("!").Id(n+"t").Op(gop).Id(cv))
	stmts = append(stmts, jen.Id("_").Op("=").Id(n+"q"))
	return stmts
}
