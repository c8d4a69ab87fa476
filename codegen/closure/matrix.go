package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// matrix lowers the warp-level matrix instructions (layout.Matrix lists the forms) to
// runtime.Warp.Ldmatrix, runtime.Warp.Mma, runtime.Warp.MmaInt and runtime.Warp.MmaF64, as
// codegen/gosrc does.
func (e *emitter) matrix() runtime.Instr {
	form, ok, msg := layout.Matrix(e.in)
	switch {
	case msg != "":
		return e.errorf("%s", msg)
	case !ok:
		return e.unsupported()
	}
	slots := func(args []ssa.Arg, dst bool) (s [4]int) {
		for i, a := range args {
			if dst {
				s[i] = e.dst(a)
			} else {
				s[i] = e.src(a, frontend.B32)
			}
		}
		return s
	}
	d := slots(form.Dsts, true)
	loc := e.loc()
	if form.Kind == layout.MatrixLdmatrix {
		ad := e.memOperandIn(form.Addr, frontend.SpaceShared)
		if ad == nil || e.bad {
			return nil
		}
		n, trans := form.N, form.Trans
		return func(w *runtime.Warp, m uint32) {
			var addrs [ws]uint64
			u := ad.uniformValue(w)
			for mm := m; mm != 0; mm &= mm - 1 {
				l := first(mm)
				addrs[l] = ad.at(w, u, l)
			}
			w.Ldmatrix(d, n, trans, &addrs, ^uint64(0), 0, m, loc)
		}
	}
	a, b, c := slots(form.A, false), slots(form.B, false), slots(form.Cs, false)
	if e.bad {
		return nil
	}
	k, ab, ct, dt := form.K, form.AB, form.C, form.D
	if ab == isa.MatF64 {
		d2, c2 := [2]int{d[0], d[1]}, [2]int{c[0], c[1]}
		return func(w *runtime.Warp, m uint32) { w.MmaF64(d2, a[0], b[0], c2, m, loc) }
	}
	if form.Int {
		sa, sb, sat := form.SignedA, form.SignedB, form.Satfinite
		return func(w *runtime.Warp, m uint32) {
			w.MmaInt(k, sa, sb, sat, d, a, b, c, m, loc)
		}
	}
	return func(w *runtime.Warp, m uint32) {
		w.Mma(k, ab, ct, dt, d, a, b, c, m, loc)
	}
}

// wmma lowers the wmma instructions (layout.Wmma lists the forms) to runtime.Warp.WmmaLoad,
// WmmaStore, WmmaMma and WmmaMmaInt, as codegen/gosrc does.
func (e *emitter) wmma() runtime.Instr {
	form, ok, msg := layout.Wmma(e.in)
	switch {
	case msg != "":
		return e.errorf("%s", msg)
	case !ok:
		return e.unsupported()
	}
	slots := func(args []ssa.Arg, dst bool) (s [8]int) {
		for i, a := range args {
			if dst {
				s[i] = e.dst(a)
			} else {
				s[i] = e.src(a, frontend.B32)
			}
		}
		return s
	}
	loc := e.loc()
	if form.Kind == layout.WmmaMma {
		d, a, b, c := slots(form.D, true), slots(form.A, false), slots(form.B, false), slots(form.Cs, false)
		if e.bad {
			return nil
		}
		it, ct, dt, sh := form.In, form.C, form.DT, form.Shape
		if dt == isa.MatS32 {
			bt, satf := form.InB, form.Satfinite
			return func(w *runtime.Warp, m uint32) { w.WmmaMmaInt(it, bt, sh, satf, d, a, b, c, m, loc) }
		}
		return func(w *runtime.Warp, m uint32) { w.WmmaMma(it, ct, dt, sh, d, a, b, c, m, loc) }
	}
	sp := map[frontend.Space]runtime.Space{frontend.SpaceGlobal: runtime.SpaceGlobal, frontend.SpaceShared: runtime.SpaceShared,
		frontend.SpaceNone: runtime.SpaceGeneric}[form.Space]
	ad := e.memOperandIn(form.Addr, form.Space)
	s := e.f.ConstSlot(16)
	if form.HasStride {
		s = e.src(form.Stride, frontend.U32)
	}
	regs := slots(form.Regs, form.Kind == layout.WmmaLoad)
	if ad == nil || e.bad {
		return nil
	}
	frag, t, sh, col, store := form.Frag, form.Type, form.Shape, form.Col, form.Kind == layout.WmmaStore
	return func(w *runtime.Warp, m uint32) {
		var addrs [ws]uint64
		u := ad.uniformValue(w)
		for mm := m; mm != 0; mm &= mm - 1 {
			l := first(mm)
			addrs[l] = ad.at(w, u, l)
		}
		if store {
			w.WmmaStore(t, sh, col, sp, regs, &addrs, ^uint64(0), 0, s, m, loc)
		} else {
			w.WmmaLoad(frag, t, sh, col, sp, regs, &addrs, ^uint64(0), 0, s, m, loc)
		}
	}
}
