package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// cpAsync lowers the asynchronous-copy instructions (layout.CpAsync lists the forms and their
// semantics): a copy runs at issue through runtime.Warp.CpAsync, commit and wait are no-ops,
// and cp.async.mbarrier.arrive is an immediate arrive-on through runtime.Warp.Mbarrier, as in
// codegen/gosrc.
func (e *emitter) cpAsync() runtime.Instr {
	form, ok, msg := layout.CpAsync(e.in)
	switch {
	case msg != "":
		return e.errorf("%s", msg)
	case !ok:
		return e.unsupported()
	}
	switch form.Kind {
	case layout.CpAsyncCommit, layout.CpAsyncWait:
		// Every copy has completed at issue: nothing is pending.
		return func(*runtime.Warp, uint32) {}
	case layout.CpAsyncArrive:
		return e.cpAsyncArrive(form)
	}
	dst := e.memOperandIn(form.Dst, frontend.SpaceShared)
	src := e.memOperandIn(form.Src, frontend.SpaceGlobal)
	if dst == nil || src == nil {
		return nil
	}
	z := -1
	if form.HasSrcSize {
		z = e.src(form.SrcSize, frontend.U32)
	}
	p, neg := -1, false
	if form.HasIgnore {
		p, neg = e.pred(form.Ignore)
	}
	if e.bad {
		return nil
	}
	n, loc := form.Size, e.loc()
	return func(w *runtime.Warp, m uint32) {
		var da, sa [ws]uint64
		du, su := dst.uniformValue(w), src.uniformValue(w)
		for mm := m; mm != 0; mm &= mm - 1 {
			l := first(mm)
			da[l], sa[l] = dst.at(w, du, l), src.at(w, su, l)
		}
		var Z *[ws]uint64
		if z >= 0 {
			Z = regs(w, z)
		}
		var ignore uint32
		if p >= 0 {
			if ignore = w.P[p]; neg {
				ignore = ^ignore
			}
		}
		w.CpAsync(&da, ^uint64(0), 0, &sa, ^uint64(0), 0, n, Z, ignore, m, loc)
	}
}

// cpAsyncArrive lowers cp.async.mbarrier.arrive{.noinc}: each lane's object address, then
// runtime.Warp.Mbarrier.
func (e *emitter) cpAsyncArrive(form layout.CpAsyncForm) runtime.Instr {
	sp, fsp, op := runtime.SpaceShared, frontend.SpaceShared, runtime.MbarCpAsyncArrive
	if form.Generic {
		sp, fsp = runtime.SpaceGeneric, frontend.SpaceNone
	}
	if form.Noinc {
		op = runtime.MbarCpAsyncArriveNoinc
	}
	ad := e.memOperandIn(form.Dst, fsp)
	if ad == nil || e.bad {
		return nil
	}
	b, loc := e.f.ConstSlot(1), e.loc()
	return func(w *runtime.Warp, m uint32) {
		var addrs [ws]uint64
		u := ad.uniformValue(w)
		for mm := m; mm != 0; mm &= mm - 1 {
			l := first(mm)
			addrs[l] = ad.at(w, u, l)
		}
		w.Mbarrier(op, sp, nil, &addrs, regs(w, b), ^uint64(0), 0, m, loc)
	}
}
