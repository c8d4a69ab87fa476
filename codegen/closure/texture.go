package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// image lowers the texture and surface instructions and istypeof (layout.Image lists the
// forms) to runtime.Warp.Image, which both back ends share: the operands' register slots in a
// runtime.ImageInstr built once.
func (e *emitter) image() runtime.Instr {
	form, ok, msg := layout.Image(e.in)
	switch {
	case msg != "":
		return e.errorf("%s", msg)
	case !ok:
		return e.unsupported()
	}
	in := &runtime.ImageInstr{Op: form.Op, Geom: form.Geom, Handle: -1, IntCoords: form.IntCoords, Half: form.Half,
		HalfPairs: form.HalfPairs, Comp: form.Comp, Query: form.Query, Bytes: form.Bytes, Clamp: form.Clamp,
		Red: form.Red, Signed: form.Signed, Kind: form.Kind, Loc: e.loc()}
	if h := form.Handle; h.Kind == ssa.ArgSym {
		in.Global, in.Name = e.f.c.Globals[h.Var], h.Var.Name
	} else {
		in.Handle = e.src(h, frontend.U64)
	}
	ct := frontend.F32
	if form.IntCoords {
		ct = frontend.S32
	}
	for i, a := range form.Coords {
		t := ct
		if i == 0 && (form.Geom == runtime.GeomA1D || form.Geom == runtime.GeomA2D || form.Geom == runtime.GeomACube) ||
			form.Op != runtime.ImageTex && form.Op != runtime.ImageTld4 {
			t = frontend.S32
		}
		in.Coords[i] = e.src(a, t)
	}
	in.NCoords = len(form.Coords)
	for i, a := range form.Dsts {
		in.Dsts[i] = e.dst(a)
	}
	in.NDsts = len(form.Dsts)
	for i, a := range form.Srcs {
		in.Srcs[i] = e.src(a, form.SrcType)
	}
	in.NSrcs = len(form.Srcs)
	if form.Op == runtime.ImageIstypeof {
		in.Pred = e.predDst(form.Pred)
	}
	if e.bad {
		return nil
	}
	return func(w *runtime.Warp, m uint32) { w.Image(in, m) }
}
