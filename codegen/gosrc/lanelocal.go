package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Local memory in per-lane functions (layout.LaneFuncsLocal). A load or store of the .local or
// the generic space reads or writes the running lane's local memory, runtime.LaneLocal.Mem
// (the Go local lmp), directly, after checking what the SIMT path's access would check: a
// generic address must lie in the local window, and the access inside the lane's local memory
// and aligned to its size. Where a check fails the function gives the call up (returns
// false), so that the SIMT path makes the access, or raises its fault with its kind, line,
// CTA and thread. A store first saves the bytes it overwrites (runtime.LaneLocal.Save), so
// that a call given up leaves local memory as it was.

// laneLocal adds the code of a load or store of layout.LaneFuncsLocal's kind to the
// per-lane function being generated, noting in ends the access sizes whose bounds (lmEndN) it
// reads, and reports whether it could: false for a form it does not generate.
func (e *blockEmit) laneLocal(in *ssa.Instr, ends map[int]bool) bool {
	t := layout.InstrType(in)
	args := memArgs(in)
	if isHalf(t) || t == frontend.Pred || t.Bits() == 0 || t.Bits() > 64 || len(args) == 0 {
		return false
	}
	ad := e.memOperand(in, args[0])
	if ad == nil || ad.space != "SpaceLocal" && ad.space != "SpaceGeneric" {
		return false
	}
	var elems []ssa.Arg
	switch store := in.Op == frontend.OpSt; {
	case store && len(args) == 2 && args[1].Kind == ssa.ArgVector:
		elems = args[1].Elems
	case store && len(args) == 2:
		elems = args[1:2]
	case !store && len(args) == 1 && firstDst(in).Kind == ssa.ArgVector:
		elems = firstDst(in).Elems
	case !store && len(args) == 1:
		elems = in.Dsts[:1]
	default:
		return false
	}
	es := t.Bytes()
	n := es * len(elems)
	if n&(n-1) != 0 {
		return false
	}
	c := ctx{e: e}
	a := e.fresh("la")
	addr := c.accessAddr(in, ad)
	if ad.space == "SpaceGeneric" {
		addr = jen.Add(addr).Op("-").Uint64().Call(jen.Qual(rtPath, "LocalWindow"))
	}
	end := fmt.Sprintf("lmEnd%d", n)
	ends[n] = true
	bad := jen.Id(a).Op(">=").Id(end)
	if n > 1 {
		bad = bad.Op("||").Id(a).Op("&").Lit(n - 1).Op("!=").Lit(0)
	}
	giveUp := jen.Return(jen.Id("steps"), jen.False())
	code := []jen.Code{
		jen.Commentf("%d: %s", in.Pos.Line, spelling(in)),
		jen.Id(a).Op(":=").Add(addr),
		jen.If(bad).Block(giveUp),
	}
	at := func(i int) jen.Code {
		if i == 0 {
			return jen.Id(a)
		}
		return jen.Id(a).Op("+").Lit(i * es)
	}
	if in.Op == frontend.OpSt {
		for o := 0; o < n; o += 8 {
			k := min(n, 8)
			at := jen.Id(a).Op("+").Lit(o)
			if o == 0 {
				at = jen.Id(a)
			}
			save := jen.Id("u").Dot("Save").Call(at, jen.Lit(k), privateLoad(at, k))
			code = append(code, jen.If(jen.Op("!").Add(save)).Block(giveUp))
		}
		for i, x := range elems {
			switch x.Kind {
			case ssa.ArgSink:
			case ssa.ArgValue, ssa.ArgImm, ssa.ArgFloat:
				if isPred(x) {
					return false
				}
				code = append(code, jen.Qual(rtPath, "StorePrivate").Types(jen.Id(utype(8*es))).Call(jen.Id("lmp"), at(i), u64(c.src(in, x, t))))
			default:
				return false
			}
		}
	} else {
		for i, x := range elems {
			switch {
			case x.Kind == ssa.ArgSink:
			case x.Kind == ssa.ArgValue && !isPred(x):
				v := fmt.Sprintf("%sv%d", a, i)
				code = append(code, jen.Id(v).Op(":=").Add(privateLoad(at(i), es)))
				if bits := x.Value.Reg.Type.Bits(); t.IsSigned() && 8*es < 64 {
					w := min(bits, 64)
					code = append(code, jen.Id(v).Op("=").Add(u64(conv(utype(w), conv(stype(w), conv(stype(8*es), jen.Id(v)))))))
				}
				slot := e.f.Regs[x.Value.Reg.ID]
				delete(e.uni, slot)
				code = append(code, e.setLaneReg(slot, v))
			default:
				return false
			}
		}
	}
	if e.bad {
		return false
	}
	if in.Guard != nil {
		g := c.pred(ssa.Arg{Kind: ssa.ArgValue, Value: in.Guard, Not: in.GuardNeg})
		code = []jen.Code{code[0], jen.If(g).Block(code[1:]...)}
	}
	e.seg.body = append(e.seg.body, code...)
	return true
}

// laneLocalPre declares what the local accesses of a per-lane function use: the lane's local
// memory and, for each access size n in ends, the bound lmEndN its addresses must stay below.
func laneLocalPre(ends map[int]bool) []jen.Code {
	if len(ends) == 0 {
		return nil
	}
	code := []jen.Code{jen.Comment("The lane's local memory, which its local accesses index by local address."),
		jen.Id("lmp").Op(":=").Id("u").Dot("Mem")}
	for _, n := range sortedKeys(ends) {
		code = append(code, jen.Id(fmt.Sprintf("lmEnd%d", n)).Op(":=").Qual(rtPath, "LaneEnd").Call(jen.Id("u").Dot("Size"), jen.Lit(n)))
	}
	return code
}

// privateLoad reads the n-byte element at offset o of the lane's local memory, whose bounds
// the code has checked.
func privateLoad(o jen.Code, n int) jen.Code {
	return jen.Qual(rtPath, "LoadPrivate").Types(jen.Id(utype(8*n))).Call(jen.Id("lmp"), o)
}
