package gosrc

import (
	"fmt"
	"math"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

var (
	modCacheHint = lookupMod(".L2::cache_hint")
	modNoftz     = lookupMod(".noftz")
	atomOps      = []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor, frontend.ModCas, frontend.ModExch,
		frontend.ModAdd, frontend.ModInc, frontend.ModDec, frontend.ModMin, frontend.ModMax}
)

func lookupMod(name string) frontend.Mod {
	m, ok := frontend.LookupMod(name)
	if !ok {
		panic("gosrc: frontend does not know the modifier " + name)
	}
	return m
}

// atomIsaOp is runtime/isa's operation (the AtomOp constant's name) for an atom/red
// operation on type t, as codegen/closure picks it, for the forms the table of forms
// (layout.CheckForms) accepts.
func atomIsaOp(op frontend.Mod, t frontend.Type) string {
	switch op {
	case frontend.ModAnd, frontend.ModOr, frontend.ModXor, frontend.ModExch:
		if t != frontend.B32 && t != frontend.B64 {
			return ""
		}
		return map[frontend.Mod]string{frontend.ModAnd: "AtomAnd", frontend.ModOr: "AtomOr", frontend.ModXor: "AtomXor", frontend.ModExch: "AtomExch"}[op]
	case frontend.ModCas:
		if t != frontend.B16 && t != frontend.B32 && t != frontend.B64 {
			return ""
		}
		return "AtomCas"
	case frontend.ModInc, frontend.ModDec:
		if t != frontend.U32 {
			return ""
		}
		if op == frontend.ModInc {
			return "AtomInc"
		}
		return "AtomDec"
	case frontend.ModMin, frontend.ModMax:
		if t != frontend.U32 && t != frontend.S32 && t != frontend.U64 && t != frontend.S64 {
			return ""
		}
		name := "AtomMin"
		if op == frontend.ModMax {
			name = "AtomMax"
		}
		if t.IsSigned() {
			return name + "S"
		}
		return name + "U"
	case frontend.ModAdd:
		switch t {
		case frontend.U32, frontend.S32, frontend.U64:
			return "AtomAdd"
		case frontend.F32:
			return "AtomAddF32"
		case frontend.F64:
			return "AtomAddF64"
		case frontend.F16, frontend.BF16, frontend.F16x2, frontend.BF16x2:
			// The .noftz additions.
			return "AtomAdd" + halfAtomSuffix(t)
		}
	}
	return ""
}

// atomFuncVar returns the package-level variable holding isa.AtomFunc(op, bits), declaring
// it on first use.
func (g *gen) atomFuncVar(op string, bits int) string {
	name := fmt.Sprintf("%s%d", lowerFirst(op), bits)
	if c := op[len(op)-1]; c >= '0' && c <= '9' {
		// The float operations name their width.
		name = lowerFirst(op)
	}
	if g.atomVars == nil {
		g.atomVars = map[string]bool{}
	}
	if !g.atomVars[name] {
		g.atomVars[name] = true
		g.decls = append(g.decls, jen.Comment(fmt.Sprintf("%s is isa.AtomFunc(isa.%s, %d).", name, op, bits)).Line().
			Var().Id(name).Op("=").Qual(isaPath, "AtomFunc").Call(jen.Qual(isaPath, op), jen.Lit(bits)))
	}
	return name
}

func lowerFirst(s string) string { return string(s[0]+'a'-'A') + s[1:] }

// operandSlot returns the register slot holding source operand a of type t in every lane: its
// register, or a constant register for an immediate.
func (e *blockEmit) operandSlot(a ssa.Arg, t frontend.Type) (int, bool) {
	switch a.Kind {
	case ssa.ArgValue:
		if a.Value.Reg.Type == frontend.Pred {
			return 0, false
		}
		return e.f.Regs[a.Value.Reg.ID], true
	case ssa.ArgImm:
		v := a.Imm
		if t == frontend.F32 || t == frontend.F64 {
			v = layout.FloatBits(t, frontend.FloatDecimal, math.Float64bits(float64(int64(a.Imm))))
		}
		return e.f.ConstSlot(truncate(v, t)), true
	case ssa.ArgFloat:
		if isHalf(t) || t.Bits() != 32 && t.Bits() != 64 {
			return 0, false
		}
		ft := frontend.F32
		if t.Bits() == 64 {
			ft = frontend.F64
		}
		return e.f.ConstSlot(layout.FloatBits(ft, a.Form, a.Imm)), true
	}
	return 0, false
}

// atom lowers atom and red on global, shared and generic addresses, as codegen/closure does:
//
//	atom{.sem}{.scope}{.space}.op{.L2::cache_hint}.type d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.space}.cas.type d, [a], b, c
//	red{.sem}{.scope}{.space}.op{.L2::cache_hint}.type [a], b{, cache-policy}
//
// The lanes update memory one after another in lane order (runtime.Warp.AtomLanes). The
// table of forms (layout.CheckForms) says which types each operation takes.
func (e *blockEmit) atom(in *ssa.Instr) {
	isRed := in.Op == frontend.OpRed
	var op frontend.Mod
	nops := 0
	for _, m := range in.Mods {
		if slices.Contains(atomOps, m) {
			op = m
			nops++
		}
	}
	t := layout.InstrType(in)
	if nops == 1 && vectorLen(in) > 0 {
		e.atomVector(in, op, t)
		return
	}
	isaOp := atomIsaOp(op, t)
	args := in.Args
	ad := e.memOperand(in, args[0])
	b, okb := e.operandSlot(args[1], t)
	c := b
	okc := true
	if op == frontend.ModCas {
		c, okc = e.operandSlot(args[2], t)
	}
	if ad == nil || !okb || !okc {
		e.unsupported(in)
		return
	}
	d := jen.Nil()
	if !isRed {
		switch x := in.Dsts[0]; {
		case x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred:
			slot := e.f.Regs[x.Value.Reg.ID]
			delete(e.uni, slot)
			d = jen.Id(e.reg(slot))
		case x.Kind == ssa.ArgSink:
		default:
			e.unsupported(in)
			return
		}
	}
	fn := e.f.g.atomFuncVar(isaOp, t.Bits())
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	B, C := jen.Id(e.reg(b)), jen.Id(e.reg(c))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		if ad.base < 0 {
			return []jen.Code{jen.Id("w").Dot("AtomLanes").Call(sp, jen.Id(fn), d, jen.Nil(), B, C, jen.Lit(0), ad.addr, jen.Lit(t.Bytes()), jen.Id(mask), lc)}
		}
		return []jen.Code{jen.Id("w").Dot("AtomLanes").Call(sp, jen.Id(fn), d, jen.Id(e.reg(ad.base)), B, C, hexLit(ad.amask), hexLit(ad.off), jen.Lit(t.Bytes()), jen.Id(mask), lc)}
	})
}
