package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// image lowers the texture and surface instructions and istypeof (layout.Image lists the
// forms) as codegen/closure does, to runtime.Warp.Image with a runtime.ImageInstr of register
// slots written as a literal:
//
//	w.Image(&runtime.ImageInstr{Op: 0, Geom: 1, Handle: 7, Coords: [4]int{8, 9, 0, 0}, NCoords: 2, ...}, m)
func (e *blockEmit) image(in *ssa.Instr) {
	form, ok, msg := layout.Image(in)
	switch {
	case msg != "":
		e.errorf(in, "%s", msg)
		return
	case !ok:
		e.unsupported(in)
		return
	}
	good := true
	slot := func(a ssa.Arg, t frontend.Type) int {
		s, ok := e.operandSlot(a, t)
		good = good && ok
		return s
	}
	fields := jen.Dict{
		jen.Id("Op"): jen.Lit(int(form.Op)), jen.Id("Geom"): jen.Lit(int(form.Geom)), jen.Id("IntCoords"): jen.Lit(form.IntCoords),
		jen.Id("Half"): jen.Lit(form.Half), jen.Id("HalfPairs"): jen.Lit(form.HalfPairs), jen.Id("Comp"): jen.Lit(form.Comp),
		jen.Id("Query"): jen.Lit(int(form.Query)), jen.Id("Bytes"): jen.Lit(form.Bytes), jen.Id("Clamp"): jen.Lit(int(form.Clamp)),
		jen.Id("Red"): jen.Lit(int(form.Red)), jen.Id("Signed"): jen.Lit(form.Signed), jen.Id("Kind"): jen.Lit(form.Kind),
		jen.Id("Loc"): jen.Lit(layout.Loc(in.Pos)),
	}
	if h := form.Handle; h.Kind == ssa.ArgSym {
		fields[jen.Id("Handle")] = jen.Lit(-1)
		fields[jen.Id("Global")] = jen.Lit(e.f.g.Globals[h.Var])
		fields[jen.Id("Name")] = jen.Lit(h.Var.Name)
	} else {
		fields[jen.Id("Handle")] = jen.Lit(slot(h, frontend.U64))
	}
	ct := frontend.F32
	if form.IntCoords {
		ct = frontend.S32
	}
	array := func(s [4]int) jen.Code {
		c := make([]jen.Code, 4)
		for i, v := range s {
			c[i] = jen.Lit(v)
		}
		return jen.Index(jen.Lit(4)).Int().Values(c...)
	}
	var coords, dsts, srcs [4]int
	for i, a := range form.Coords {
		t := ct
		if i == 0 && (form.Geom == runtime.GeomA1D || form.Geom == runtime.GeomA2D || form.Geom == runtime.GeomACube) ||
			form.Op != runtime.ImageTex && form.Op != runtime.ImageTld4 {
			t = frontend.S32
		}
		coords[i] = slot(a, t)
	}
	for i, a := range form.Dsts {
		dsts[i] = slot(a, frontend.B32)
		delete(e.uni, dsts[i])
	}
	for i, a := range form.Srcs {
		srcs[i] = slot(a, form.SrcType)
	}
	fields[jen.Id("Coords")], fields[jen.Id("NCoords")] = array(coords), jen.Lit(len(form.Coords))
	fields[jen.Id("Dsts")], fields[jen.Id("NDsts")] = array(dsts), jen.Lit(len(form.Dsts))
	fields[jen.Id("Srcs")], fields[jen.Id("NSrcs")] = array(srcs), jen.Lit(len(form.Srcs))
	if form.Op == runtime.ImageIstypeof {
		fields[jen.Id("Pred")] = jen.Lit(e.f.Regs[form.Pred.Value.Reg.ID])
	}
	if !good {
		e.unsupported(in)
		return
	}
	e.stmts = append(e.stmts, jen.Commentf("PTX line %d: %s", in.Pos.Line, spelling(in)))
	e.guarded(in, func(mask string) []jen.Code {
		return []jen.Code{jen.Id("w").Dot("Image").Call(jen.Op("&").Qual(rtPath, "ImageInstr").Values(fields), jen.Id(mask))}
	})
}
