package gosrc

import (
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// 128-bit values, as codegen/closure's b128.go lowers them: a .b128 register is two
// consecutive register slots, its low 64 bits first. The forms are mov.b128 (pack {lo, hi},
// unpack, copy; lowered with the lane-local instructions in multi.go), ld.b128, st.b128,
// atom.cas.b128 and atom.exch.b128 (runtime.Warp.LoadLanes128, StoreLanes128, AtomLanes128);
// the table of forms (layout.CheckForms) has no other form involving .b128.

// isB128 reports whether operand a is a .b128 register.
func isB128(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.B128 }

// anyB128 reports whether a .b128 register appears in a, an element of it, or its address base.
func anyB128(a ssa.Arg) bool {
	if a.Value != nil && a.Value.Reg.Type == frontend.B128 {
		return true
	}
	return slices.ContainsFunc(a.Elems, anyB128)
}

// b128Regs returns the register arrays of the two halves of a .b128 register operand, ok false
// for another operand.
func (e *blockEmit) b128Regs(a ssa.Arg) (lo, hi jen.Code, ok bool) {
	if !isB128(a) {
		return nil, nil, false
	}
	s := e.f.Regs[a.Value.Reg.ID]
	delete(e.uni, s)
	delete(e.uni, s+1)
	return jen.Id(e.reg(s)), jen.Id(e.reg(s + 1)), true
}

// b128Dst is b128Regs for a destination, where a sink gets a scratch pair.
func (e *blockEmit) b128Dst(a ssa.Arg) (lo, hi jen.Code, ok bool) {
	if a.Kind == ssa.ArgSink {
		s := e.f.Scratch()
		e.f.Scratch()
		return jen.Id(e.reg(s)), jen.Id(e.reg(s + 1)), true
	}
	return e.b128Regs(a)
}

// movB128 returns one lane's statements of mov.b128 and the slots they write.
func (e *blockEmit) movB128(in *ssa.Instr, c ctx) ([]jen.Code, []int) {
	d, a := in.Dsts[0], in.Args[0]
	slot := func(x ssa.Arg) int { return e.f.Regs[x.Value.Reg.ID] }
	half := func(x ssa.Arg) bool { return !anyB128(x) }
	n := e.fresh("q")
	switch {
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector:
		return nil, nil
	case d.Kind == ssa.ArgVector:
		// Unpack: either element may be _.
		if len(d.Elems) != 2 || !isB128(a) || !half(d.Elems[0]) || !half(d.Elems[1]) {
			return nil, nil
		}
		s := slot(a)
		code := []jen.Code{jen.List(jen.Id(n+"0"), jen.Id(n+"1")).Op(":=").List(e.laneReg(s), e.laneReg(s+1))}
		var slots []int
		for i, x := range d.Elems {
			v := n + string(rune('0'+i))
			switch x.Kind {
			case ssa.ArgValue:
				code = append(code, e.setLaneReg(slot(x), v))
				slots = append(slots, slot(x))
			case ssa.ArgSink:
				code = append(code, jen.Id("_").Op("=").Id(v))
			default:
				return nil, nil
			}
		}
		return code, slots
	case a.Kind == ssa.ArgVector:
		// Pack {lo, hi}.
		if len(a.Elems) != 2 || !half(a.Elems[0]) || !half(a.Elems[1]) || d.Kind != ssa.ArgValue || !isB128(d) {
			return nil, nil
		}
		s := slot(d)
		return []jen.Code{
			jen.List(jen.Id(n+"0"), jen.Id(n+"1")).Op(":=").List(c.src(in, a.Elems[0], frontend.B64), c.src(in, a.Elems[1], frontend.B64)),
			e.setLaneReg(s, n+"0"), e.setLaneReg(s+1, n+"1"),
		}, []int{s, s + 1}
	}
	if !isB128(a) || d.Kind != ssa.ArgValue || !isB128(d) {
		return nil, nil
	}
	s, ds := slot(a), slot(d)
	n0, n1 := n+"0", n+"1"
	return []jen.Code{
		jen.List(jen.Id(n0), jen.Id(n1)).Op(":=").List(e.laneReg(s), e.laneReg(s+1)),
		e.setLaneReg(ds, n0), e.setLaneReg(ds+1, n1),
	}, []int{ds, ds + 1}
}

// memB128 lowers ld.b128, st.b128, atom.cas.b128 and atom.exch.b128.
func (e *blockEmit) memB128(in *ssa.Instr) {
	var addr ssa.Arg
	if len(in.Args) > 0 {
		addr = in.Args[0]
	}
	if len(in.Args) == 0 || anyB128(addr) {
		e.unsupported(in)
		return
	}
	ad := e.memOperand(in, addr)
	if ad == nil {
		e.unsupported(in)
		return
	}
	lc := jen.Lit(layout.Loc(in.Pos))
	sp := jen.Qual(rtPath, ad.space)
	var A, amask, off jen.Code = jen.Nil(), jen.Lit(0), ad.addr
	if ad.base >= 0 {
		A, amask, off = jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off)
	}
	var call func(mask string) jen.Code
	switch in.Op {
	case frontend.OpLd:
		d0, d1, ok := e.b128Dst(firstDst(in))
		if !ok || len(in.Args) != 1 || len(in.Dsts) != 1 {
			e.unsupported(in)
			return
		}
		call = func(mask string) jen.Code {
			return jen.Id("w").Dot("LoadLanes128").Call(sp, d0, d1, A, amask, off, jen.Id(mask), lc)
		}
	case frontend.OpSt:
		if len(in.Args) != 2 {
			e.unsupported(in)
			return
		}
		s0, s1, ok := e.b128Regs(in.Args[1])
		if !ok {
			e.unsupported(in)
			return
		}
		call = func(mask string) jen.Code {
			return jen.Id("w").Dot("StoreLanes128").Call(sp, A, s0, s1, amask, off, jen.Id(mask), lc)
		}
	case frontend.OpAtom:
		var ok bool
		call, ok = e.atomB128(in, sp, A, amask, off, lc)
		if !ok {
			e.unsupported(in)
			return
		}
	default:
		e.unsupported(in)
		return
	}
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code { return []jen.Code{call(mask)} })
}

// atomB128 returns the call of atom.cas.b128 or atom.exch.b128, as the table of forms accepts
// them: on global, shared and generic addresses, with one optional memory order and scope,
// and .L2::cache_hint (with its cache-policy operand) only on exch.
func (e *blockEmit) atomB128(in *ssa.Instr, sp, A, amask, off, lc jen.Code) (func(mask string) jen.Code, bool) {
	op := frontend.ModExch
	if has(in, frontend.ModCas) {
		op = frontend.ModCas
	}
	args := in.Args
	b0, b1, okb := e.b128Regs(args[1])
	c0, c1, okc := b0, b1, okb
	if op == frontend.ModCas {
		c0, c1, okc = e.b128Regs(args[2])
	}
	d0, d1, okd := e.b128Dst(in.Dsts[0])
	if !okb || !okc || !okd {
		return nil, false
	}
	cas := op == frontend.ModCas
	return func(mask string) jen.Code {
		return jen.Id("w").Dot("AtomLanes128").Call(sp, jen.Lit(cas), d0, d1, A, b0, b1, c0, c1, amask, off, jen.Id(mask), lc)
	}, true
}
