package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// mbarrier lowers the mbarrier instructions (layout.Mbarrier lists the forms): each lane's
// address, then runtime.Warp.Mbarrier, which both back ends share.
func (e *emitter) mbarrier() runtime.Instr {
	form, ok := layout.Mbarrier(e.in)
	if !ok {
		return e.unsupported()
	}
	var ad *address
	sp := runtime.SpaceShared
	if form.Op != runtime.MbarPendingCount {
		if e.space() == frontend.SpaceNone {
			sp = runtime.SpaceGeneric
		}
		if ad = e.memOperand(form.Addr); ad == nil {
			return nil
		}
	}
	b := e.f.ConstSlot(1) // an arrive without count counts one
	if form.HasB {
		b = e.src(form.B, form.BType)
	}
	d, p := -1, -1
	switch {
	case form.Op == runtime.MbarTestWait || form.Op == runtime.MbarTestWaitParity:
		p = e.predDst(form.Dst)
	case form.HasDst:
		d = e.dst(form.Dst)
	}
	if e.bad {
		return nil
	}
	op, loc := form.Op, e.loc()
	return func(w *runtime.Warp, m uint32) {
		var addrs [ws]uint64
		var A *[ws]uint64
		if ad != nil {
			A = &addrs
			u := ad.uniformValue(w)
			for mm := m; mm != 0; mm &= mm - 1 {
				l := first(mm)
				addrs[l] = ad.at(w, u, l)
			}
		}
		var D *[ws]uint64
		if d >= 0 {
			D = regs(w, d)
		}
		done := w.Mbarrier(op, sp, D, A, regs(w, b), ^uint64(0), 0, m, loc)
		if p >= 0 {
			writePred(w, p, m, done)
		}
	}
}
