package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The floating-point forms: f32 and f64 arithmetic, the 16-bit float types, comparisons.

var (
	rnds        = []frontend.Mod{frontend.ModRn, frontend.ModRz, frontend.ModRm, frontend.ModRp}
	intRnds     = []frontend.Mod{frontend.ModRni, frontend.ModRzi, frontend.ModRmi, frontend.ModRpi}
	floatCmps   = []frontend.Mod{frontend.ModEq, frontend.ModNe, frontend.ModLt, frontend.ModLe, frontend.ModGt, frontend.ModGe, frontend.ModEqu, frontend.ModNeu, frontend.ModLtu, frontend.ModLeu, frontend.ModGtu, frontend.ModGeu, frontend.ModNum, frontend.ModNan}
	boolOps     = []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor}
	testpKinds  = knownMods(".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal")
	signedInts  = tl(frontend.S8, frontend.S16, frontend.S32, frontend.S64)
	unsigned    = tl(frontend.U8, frontend.U16, frontend.U32, frontend.U64)
	orderedInts = tl(frontend.U8, frontend.U16, frontend.U32, frontend.U64, frontend.S8, frontend.S16, frontend.S32, frontend.S64)
	f16s        = tl(frontend.F16, frontend.F16x2)
	bf16s       = tl(frontend.BF16, frontend.BF16x2)
	f32         = tl(frontend.F32)
	f64         = tl(frontend.F64)
)

func init() {
	f := frontend.ModFtz
	addForms(
		// f32: {.rnd}{.ftz}{.sat}; f64: {.rnd}.
		&FormRow{
			Ops:      opl(frontend.OpAdd, frontend.OpSub, frontend.OpMul),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(rnds...), opt(f), opt(frontend.ModSat)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpFma, frontend.OpMad),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(rnds...), opt(f), opt(frontend.ModSat)},
			Operands: "%0, %0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpDiv),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{opt(rnds...)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpFma, frontend.OpMad),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{opt(rnds...)},
			Operands: "%0, %0, %0, %0",
		},
		// div.approx{.ftz}.f32, div.full{.ftz}.f32, div{.rnd}{.ftz}.f32.
		&FormRow{
			Ops:      opl(frontend.OpDiv),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{need(frontend.ModApprox, frontend.ModFull), opt(f)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpDiv),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(rnds...), opt(f)},
			Operands: "%0, %0, %0",
		},
		// rcp and sqrt: .approx{.ftz}.f32, {.rnd}{.ftz}.f32, {.rnd}.f64, rcp.approx.ftz.f64.
		&FormRow{
			Ops:      opl(frontend.OpRcp, frontend.OpSqrt),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{need(frontend.ModApprox), opt(f)},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpRcp, frontend.OpSqrt),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(rnds...), opt(f)},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpRcp, frontend.OpSqrt),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{opt(rnds...)},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpRcp),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{need(frontend.ModApprox), need(f)},
			Operands: "%0, %0",
		},
		// The approximations: rsqrt, sin, cos, lg2, ex2 .approx{.ftz}.f32, tanh.approx.f32,
		// rsqrt.approx{.ftz}.f64.
		&FormRow{
			Ops:      opl(frontend.OpRsqrt, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{need(frontend.ModApprox), opt(f)},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpTanh),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{need(frontend.ModApprox)},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpRsqrt),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{need(frontend.ModApprox), opt(f)},
			Operands: "%0, %0",
		},
		// neg{.ftz}.f32, abs{.ftz}.f32, neg.f64, abs.f64.
		&FormRow{
			Ops:      opl(frontend.OpNeg, frontend.OpAbs),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(f)},
			Operands: "%0, %0",
		},
		&FormRow{Ops: opl(frontend.OpNeg, frontend.OpAbs), Types: [][]frontend.Type{f64}, Operands: "%0, %0"},
		// min/max{.ftz}{.NaN}{.xorsign.abs}.f32, min/max{.NaN}.f64.
		&FormRow{
			Ops:      opl(frontend.OpMin, frontend.OpMax),
			Types:    [][]frontend.Type{f32},
			Mods:     []ModGroup{opt(f), opt(frontend.ModNaN), opt(frontend.ModXorsign), opt(frontend.ModAbs)},
			Rule:     xorsignAbs,
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMin, frontend.OpMax),
			Types:    [][]frontend.Type{f64},
			Mods:     []ModGroup{opt(frontend.ModNaN)},
			Operands: "%0, %0, %0",
		},
		&FormRow{Ops: opl(frontend.OpCopysign), Types: [][]frontend.Type{f32f64}, Operands: "%0, %0, %0"},
		&FormRow{
			Ops:      opl(frontend.OpTestp),
			Types:    [][]frontend.Type{f32f64},
			Mods:     []ModGroup{need(testpKinds...)},
			Operands: "%pred, %0",
		},

		// The 16-bit float types: add, sub, mul {.rn}{.ftz}{.sat} (.f16 types) or {.rn} (.bf16
		// types); fma.rn{.ftz}{.sat|.relu}; neg and abs {.ftz}; min and max
		// {.ftz}{.NaN}{.xorsign.abs}; ex2.approx, ex2.approx.ftz (.bf16 types), tanh.approx.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpAdd, frontend.OpSub, frontend.OpMul),
			Types:        [][]frontend.Type{f16s},
			Mods:         []ModGroup{opt(frontend.ModRn), opt(f), opt(frontend.ModSat)},
			Operands:     "%0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpAdd, frontend.OpSub, frontend.OpMul),
			Types:        [][]frontend.Type{bf16s},
			Mods:         []ModGroup{opt(frontend.ModRn)},
			Operands:     "%0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpFma),
			Types:        [][]frontend.Type{f16s},
			Mods:         []ModGroup{need(frontend.ModRn), opt(f), opt(frontend.ModSat, frontend.ModRelu)},
			Operands:     "%0, %0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpFma),
			Types:        [][]frontend.Type{bf16s},
			Mods:         []ModGroup{need(frontend.ModRn), opt(frontend.ModRelu)},
			Operands:     "%0, %0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpNeg, frontend.OpAbs),
			Types:        [][]frontend.Type{f16s},
			Mods:         []ModGroup{opt(f)},
			Operands:     "%0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpNeg, frontend.OpAbs),
			Types:        [][]frontend.Type{bf16s},
			Operands:     "%0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpMin, frontend.OpMax),
			Types:        [][]frontend.Type{f16s},
			Mods:         []ModGroup{opt(f), opt(frontend.ModNaN), opt(frontend.ModXorsign), opt(frontend.ModAbs)},
			Rule:         xorsignAbs,
			Operands:     "%0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpMin, frontend.OpMax),
			Types:        [][]frontend.Type{bf16s},
			Mods:         []ModGroup{opt(frontend.ModNaN), opt(frontend.ModXorsign), opt(frontend.ModAbs)},
			Rule:         xorsignAbs,
			Operands:     "%0, %0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpEx2),
			Types:        [][]frontend.Type{f16s},
			Mods:         []ModGroup{need(frontend.ModApprox)},
			Operands:     "%0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpEx2),
			Types:        [][]frontend.Type{bf16s},
			Mods:         []ModGroup{need(frontend.ModApprox), need(f)},
			Operands:     "%0, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpTanh),
			Types:        [][]frontend.Type{halfTypes},
			Mods:         []ModGroup{need(frontend.ModApprox)},
			Operands:     "%0, %0",
		},
		// Mixed precision: add/sub{.rnd}{.sat}.f32.{f16,bf16} d, a, c and
		// fma.rnd{.sat}.f32.{f16,bf16} d, a, b, c.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpAdd, frontend.OpSub),
			Types:        [][]frontend.Type{f32, {frontend.F16, frontend.BF16}},
			Mods:         []ModGroup{opt(rnds...), opt(frontend.ModSat)},
			Operands:     "%0, %1, %0",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpFma),
			Types:        [][]frontend.Type{f32, {frontend.F16, frontend.BF16}},
			Mods:         []ModGroup{need(rnds...), opt(frontend.ModSat)},
			Operands:     "%0, %1, %1, %0",
		},

		// setp.CmpOp{.ftz}{.BoolOp}.type p{|q}, a, b{, {!}c}: the comparisons each type
		// defines (.lo, .ls, .hi, .hs on unsigned integers; the unordered ones, .num and .nan
		// on floats), .ftz on .f32 and the .f16 types; the packed types write p|q.
		// set.CmpOp{.ftz}{.BoolOp}.dtype.stype d, a, b{, {!}c}: d is all ones (1.0 for a
		// float dtype) where the comparison holds; with a 16-bit float stype, a dtype of
		// .f16/.bf16 (or their pairs) gets 1.0, an integer one all ones, in each half for the
		// packed types.
	)
	type cmpForm struct {
		st   []frontend.Type
		cmps []frontend.Mod
		ftz  bool
		set  []frontend.Type // set's destination types
	}
	eqne := []frontend.Mod{frontend.ModEq, frontend.ModNe}
	for _, c := range []cmpForm{
		{intTypes, eqne, false, setTypes},
		{orderedInts, []frontend.Mod{frontend.ModLt, frontend.ModLe, frontend.ModGt, frontend.ModGe}, false, setTypes},
		{unsigned, []frontend.Mod{frontend.ModLo, frontend.ModLs, frontend.ModHi, frontend.ModHs}, false, setTypes},
		{f64, floatCmps, false, setTypes},
		{f32, floatCmps, true, setTypes},
		{tl(frontend.F16), floatCmps, true, tl(frontend.F16, frontend.BF16, frontend.U16, frontend.S16, frontend.U32, frontend.S32)},
		{tl(frontend.BF16), floatCmps, false, tl(frontend.F16, frontend.BF16, frontend.U16, frontend.S16, frontend.U32, frontend.S32)},
		{tl(frontend.F16x2), floatCmps, true, tl(frontend.F16x2, frontend.BF16x2, frontend.U32, frontend.S32)},
		{tl(frontend.BF16x2), floatCmps, false, tl(frontend.F16x2, frontend.BF16x2, frontend.U32, frontend.S32)},
	} {
		g := []ModGroup{need(c.cmps...)}
		if c.ftz {
			g = append(g, opt(f))
		}
		withBop := append(slices.Clone(g), need(boolOps...))
		half := isHalf(c.st[0])
		p := "%pred"
		if c.st[0] == frontend.F16x2 || c.st[0] == frontend.BF16x2 {
			p = "%pred|%pred"
		}
		addForms(
			&FormRow{
				Ops:          opl(frontend.OpSetp),
				Types:        [][]frontend.Type{c.st},
				Mods:         g,
				Rule:         setpRule,
				HalfOperands: half,
				Operands:     p + ", %0, %0",
			},
			&FormRow{
				Ops:          opl(frontend.OpSetp),
				Types:        [][]frontend.Type{c.st},
				Mods:         withBop,
				Rule:         setpRule,
				HalfOperands: half,
				Operands:     p + ", %0, %0, %pred",
			},
			&FormRow{
				Ops:          opl(frontend.OpSet),
				Types:        [][]frontend.Type{c.set, c.st},
				Mods:         g,
				Rule:         setRule,
				HalfOperands: half,
				Operands:     "%0, %1, %1",
			},
			&FormRow{
				Ops:          opl(frontend.OpSet),
				Types:        [][]frontend.Type{c.set, c.st},
				Mods:         withBop,
				Rule:         setRule,
				HalfOperands: half,
				Operands:     "%0, %1, %1, %pred",
			},
		)
	}
}

// setTypes are set's destination types for integer, .f32 and .f64 comparisons.
var setTypes = tl(frontend.U32, frontend.S32, frontend.F32)

// xorsignAbs is min/max's rule: .xorsign and .abs come together.
func xorsignAbs(in *ssa.Instr) (bool, string) {
	return hasMod(in, frontend.ModXorsign) == hasMod(in, frontend.ModAbs), ""
}

// setpRule checks setp's operands: a third source exactly with a .BoolOp, and a p|q
// destination for the packed types (one predicate, or p|q, for the others).
func setpRule(in *ssa.Instr) (bool, string) {
	if ok, msg := boolOpSource(in); !ok {
		return ok, msg
	}
	t := InstrType(in)
	packed := t == frontend.F16x2 || t == frontend.BF16x2
	switch d := in.Dsts[0]; {
	case packed && d.Kind != ssa.ArgPair:
		return rejectf("setp%s needs a predicate pair destination p|q", t)
	case packed:
		return true, ""
	case (t == frontend.F16 || t == frontend.BF16) && d.Kind == ssa.ArgPair:
		return rejectf("setp%s takes one predicate destination, not p|q", t)
	}
	return true, ""
}

// setRule checks set's operands: a third source exactly with a .BoolOp, and a register
// destination.
func setRule(in *ssa.Instr) (bool, string) {
	if len(in.Dsts) != 1 || in.Dsts[0].Kind == ssa.ArgPair || isPredArg(in.Dsts[0]) {
		return reject()
	}
	if len(in.Args) == 2 && compareBoolOp(in) != 0 {
		return rejectf("%s needs a predicate operand c", Spelling(in))
	}
	return boolOpSource(in)
}

// compareBoolOp is the .and, .or or .xor of setp, set and lop3, 0 without one.
func compareBoolOp(in *ssa.Instr) frontend.Mod {
	for _, m := range boolOps {
		if hasMod(in, m) {
			return m
		}
	}
	return 0
}

// boolOpSource checks that a comparison has its third, predicate source exactly when it has a
// .BoolOp.
func boolOpSource(in *ssa.Instr) (bool, string) {
	if (compareBoolOp(in) != 0) != (len(in.Args) == 3) {
		return reject()
	}
	return true, ""
}
