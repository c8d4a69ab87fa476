package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// memAddr is a lowered memory operand.
type memAddr struct {
	space string   // runtime.Space constant name
	base  int      // register slot of a register base, or -1
	amask uint64   // the base register's width
	addr  jen.Code // a uniform address (base < 0), offset included
	off   uint64   // the offset (base >= 0)
	// shared says a uniform address names the same bytes for every lane: read once per warp.
	shared bool
	// kparam, when kparamOK, is the offset of a kernel parameter the operand names.
	kparam   uint64
	kparamOK bool
	// param, when paramOK, is the constant offset of the frame's .param variable the operand
	// names.
	param   uint64
	paramOK bool
}

func hexLit(v uint64) jen.Code { return jen.Id(fmt.Sprintf("%#x", v)) }

// maxKernelParamOffset bounds the kernel parameter offsets read directly from the launch's
// buffer; larger ones (a negative offset wrapped around) take the runtime's checked load.
const maxKernelParamOffset = 1 << 20

func (e *blockEmit) memOperand(in *ssa.Instr, a ssa.Arg) *memAddr {
	return e.memOperandIn(a, layout.InstrSpace(in))
}

// memOperandIn is memOperand for state space sp (cp.async names two).
func (e *blockEmit) memOperandIn(a ssa.Arg, sp frontend.Space) *memAddr {
	f := e.f
	ad := &memAddr{base: -1}
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		ad.space = "SpaceGlobal"
	case frontend.SpaceShared:
		ad.space = "SpaceShared"
	case frontend.SpaceLocal:
		ad.space = "SpaceLocal"
	case frontend.SpaceNone:
		ad.space = "SpaceGeneric"
	case frontend.SpaceParam:
		ad.space = "SpaceParam"
	default:
		return nil
	}
	off := uint64(a.Offset)
	switch {
	case a.Kind != ssa.ArgAddr:
		return nil
	case a.Value != nil:
		ad.base = f.Regs[a.Value.Reg.ID]
		ad.amask = 0xffffffff
		if a.Value.Reg.Type.Bits() == 64 {
			ad.amask = ^uint64(0)
		}
		ad.off = off
		if sp == frontend.SpaceParam && f.Fn.Kind == frontend.Entry {
			ad.space = "SpaceKernelParam"
		}
	case a.Var != nil:
		v := a.Var
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			if sp == frontend.SpaceShared || sp == frontend.SpaceLocal || sp == frontend.SpaceParam {
				return nil
			}
			ad.shared = true
			ad.addr = jen.Id("w").Dot("GlobalVar").Call(jen.Lit(f.g.Globals[v])).Op("+").Add(hexLit(off))
		case frontend.SpaceShared:
			o := uint64(f.g.Shared[v]) + off
			if sp == frontend.SpaceNone {
				o += uint64(runtime.SharedWindow)
			}
			ad.shared = true
			ad.addr = hexLit(o)
		case frontend.SpaceLocal:
			win := uint64(0)
			if sp == frontend.SpaceNone {
				win = uint64(runtime.LocalWindow)
			}
			if o, ok := f.g.Local[v]; ok {
				ad.addr = hexLit(win + uint64(o) + off)
			} else {
				ad.addr = jen.Uint64().Call(jen.Id("w").Dot("LocalBase")).Op("+").Add(hexLit(win + uint64(f.Local[v]) + off))
			}
		case frontend.SpaceParam:
			if o, ok := f.KParam[v]; ok {
				ad.shared = true
				ad.space = "SpaceKernelParam"
				ad.addr = hexLit(uint64(o) + off)
				ad.kparam, ad.kparamOK = uint64(o)+off, true
			} else {
				ad.addr = hexLit(uint64(f.Param[v]) + off)
				ad.param, ad.paramOK = uint64(f.Param[v])+off, true
			}
		default:
			return nil
		}
	default:
		ad.addr = hexLit(off)
	}
	return ad
}

// guardMask returns the mask expression of a warp-level instruction's lanes, emitting
// `mN := m & w.P[g]` for a guarded one, and wraps the code in `if mN != 0`.
func (e *blockEmit) guarded(in *ssa.Instr, body func(mask string) []jen.Code) {
	if in.Guard == nil {
		e.stmts = append(e.stmts, body("m")...)
		return
	}
	g := e.f.Regs[in.Guard.Reg.ID]
	mn := e.fresh("m")
	op := "&"
	if in.GuardNeg {
		op = "&^"
	}
	e.stmts = append(e.stmts,
		jen.Id(mn).Op(":=").Id("m").Op(op).Id("w").Dot("P").Index(jen.Lit(g)),
		jen.If(jen.Id(mn).Op("!=").Lit(0)).Block(body(mn)...))
}

func (e *blockEmit) load(in *ssa.Instr) {
	t := layout.InstrType(in)
	d := firstDst(in)
	if t.Bits() > 64 || t == frontend.Pred || d.Kind != ssa.ArgValue || len(memArgs(in)) != 1 || d.Value.Reg.Type == frontend.Pred {
		e.unsupported(in)
		return
	}
	ad := e.memOperand(in, memArgs(in)[0])
	if ad == nil {
		e.unsupported(in)
		return
	}
	es := t.Bytes()
	width := d.Value.Reg.Type.Bits()
	sextWidth := 0
	if t.IsSigned() {
		sextWidth = width
	}
	slot := e.f.Regs[d.Value.Reg.ID]
	delete(e.uni, slot)
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	if ad.base < 0 && ad.shared {
		// Every lane reads the same bytes: once per warp, then broadcast.
		u := e.fresh("u")
		e.guarded(in, func(mask string) []jen.Code {
			v := jen.Id("w").Dot("LoadUniform").Call(sp, ad.addr, jen.Lit(es), jen.Id(mask), lc)
			out := []jen.Code{jen.Id(u).Op(":=").Add(v)}
			if ad.kparamOK && ad.kparam < maxKernelParamOffset {
				// A kernel parameter: read from the launch's buffer directly; the runtime
				// reports the fault of one past its end (or before its start: a negative
				// offset wraps around, past any buffer).
				out = []jen.Code{
					jen.Var().Id(u).Uint64(),
					jen.If(jen.Id("kp").Op(":=").Id("w").Dot("KernelParams").Call(), jen.Len(jen.Id("kp")).Op(">=").Lit(int(ad.kparam)+es)).Block(
						jen.Id(u).Op("=").Add(loadLE(jen.Id("kp"), hexLit(ad.kparam), es))).
						Else().Block(jen.Id(u).Op("=").Add(v)),
				}
			}
			if sextWidth > 0 {
				out = append(out, jen.Id(u).Op("=").Add(u64(conv(utype(min(width, 64)), conv(stype(min(width, 64)), conv(stype(8*es), jen.Id(u)))))))
			}
			if in.Guard == nil && e.f.onlyReadBy(in.Defs[0], e.local) {
				return out
			}
			return append(out, jen.Qual(rtPath, "Broadcast").Call(jen.Id(e.reg(slot)), jen.Id(mask), jen.Id(u)))
		})
		if in.Guard == nil {
			e.uni[slot] = u
			e.unis = append(e.unis, u)
		}
		return
	}
	e.guarded(in, func(mask string) []jen.Code {
		if ad.base < 0 {
			return []jen.Code{jen.Id("w").Dot("LoadLanes").Call(sp, jen.Id(e.reg(slot)), jen.Nil(), jen.Lit(0), ad.addr, jen.Lit(es), jen.Lit(sextWidth), jen.Id(mask), lc)}
		}
		return []jen.Code{jen.Id("w").Dot("LoadLanes").Call(sp, jen.Id(e.reg(slot)), jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off), jen.Lit(es), jen.Lit(sextWidth), jen.Id(mask), lc)}
	})
}

func (e *blockEmit) store(in *ssa.Instr) {
	t := layout.InstrType(in)
	if t.Bits() > 64 || t == frontend.Pred || len(memArgs(in)) != 2 {
		e.unsupported(in)
		return
	}
	ad := e.memOperand(in, memArgs(in)[0])
	if ad == nil {
		e.unsupported(in)
		return
	}
	src := memArgs(in)[1]
	var slot int
	switch src.Kind {
	case ssa.ArgValue:
		if src.Value.Reg.Type == frontend.Pred {
			e.unsupported(in)
			return
		}
		slot = e.f.Regs[src.Value.Reg.ID]
	case ssa.ArgImm:
		slot = e.f.ConstSlot(truncate(src.Imm, t))
	default:
		e.unsupported(in)
		return
	}
	es := t.Bytes()
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		if ad.base < 0 {
			return []jen.Code{jen.Id("w").Dot("StoreLanes").Call(sp, jen.Id(e.reg(slot)), jen.Nil(), jen.Lit(0), ad.addr, jen.Lit(es), jen.Id(mask), lc)}
		}
		return []jen.Code{jen.Id("w").Dot("StoreLanes").Call(sp, jen.Id(e.reg(slot)), jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off), jen.Lit(es), jen.Id(mask), lc)}
	})
}

// loadVector lowers ld.v2/.v4 (runtime.Warp.LoadVector): one access of the whole vector per
// lane; an element written as _ is not kept.
func (e *blockEmit) loadVector(in *ssa.Instr) {
	t := layout.InstrType(in)
	d := firstDst(in)
	if t.Bits() > 64 || t == frontend.Pred || len(memArgs(in)) != 1 {
		e.unsupported(in)
		return
	}
	ad := e.memOperand(in, memArgs(in)[0])
	if ad == nil {
		e.unsupported(in)
		return
	}
	sextWidth := -1
	var D []jen.Code
	for _, x := range d.Elems {
		switch {
		case x.Kind == ssa.ArgSink:
			D = append(D, jen.Nil())
		case x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred:
			w := 0
			if t.IsSigned() {
				w = x.Value.Reg.Type.Bits()
			}
			if sextWidth >= 0 && w != sextWidth {
				e.unsupported(in)
				return
			}
			sextWidth = w
			slot := e.f.Regs[x.Value.Reg.ID]
			delete(e.uni, slot)
			D = append(D, jen.Id(e.reg(slot)))
		default:
			e.unsupported(in)
			return
		}
	}
	e.memVector(in, ad, "LoadVector", D, []jen.Code{jen.Lit(t.Bytes()), jen.Lit(max(sextWidth, 0))})
}

// storeVector lowers st.v2/.v4 (runtime.Warp.StoreVector); an element written as _ is not
// stored.
func (e *blockEmit) storeVector(in *ssa.Instr) {
	t := layout.InstrType(in)
	if t.Bits() > 64 || t == frontend.Pred || len(memArgs(in)) != 2 {
		e.unsupported(in)
		return
	}
	ad := e.memOperand(in, memArgs(in)[0])
	if ad == nil {
		e.unsupported(in)
		return
	}
	var S []jen.Code
	for _, x := range memArgs(in)[1].Elems {
		if x.Kind == ssa.ArgSink {
			S = append(S, jen.Nil())
			continue
		}
		slot, ok := e.operandSlot(x, t)
		if !ok {
			e.unsupported(in)
			return
		}
		S = append(S, jen.Id(e.reg(slot)))
	}
	e.memVector(in, ad, "StoreVector", S, []jen.Code{jen.Lit(t.Bytes())})
}

func (e *blockEmit) memVector(in *ssa.Instr, ad *memAddr, fn string, regs, tail []jen.Code) {
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	list := jen.Index().Op("*").Index(jen.Qual(rtPath, "WarpSize")).Uint64().Values(regs...)
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		var args []jen.Code
		if ad.base < 0 {
			args = []jen.Code{sp, list, jen.Nil(), jen.Lit(0), ad.addr}
		} else {
			args = []jen.Code{sp, list, jen.Id(e.reg(ad.base)), hexLit(ad.amask), hexLit(ad.off)}
		}
		args = append(args, tail...)
		args = append(args, jen.Id(mask), lc)
		return []jen.Code{jen.Id("w").Dot(fn).Call(args...)}
	})
}

// memArgs is the operands of ld, ldu or st without the cache-policy operand of
// .L2::cache_hint: a hint to the L2 cache, with no effect on what the access reads or writes
// (codegen/closure checks it is a .b64 and ignores it too).
func memArgs(in *ssa.Instr) []ssa.Arg {
	if has(in, modCacheHint) && len(in.Args) > 0 {
		return in.Args[:len(in.Args)-1]
	}
	return in.Args
}
