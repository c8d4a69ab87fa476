package closure

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// modWarp is `.warp` (bar.warp.sync), which has no named constant in frontend.
var modWarp, _ = frontend.LookupMod(".warp")

// accessFn resolves an address of one state space to the bytes it names.
type accessFn func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte

// address is a lowered memory operand: a register base plus offset, or an address that is
// the same in every lane, computed once per execution.
type address struct {
	base    int // register slot, or -1
	wide    bool
	uniform func(w *runtime.Warp) uint64
	// shared says a uniform address names the same bytes for every lane (not so for local
	// memory and a device function's .param variables, which every lane has its own copy of).
	shared bool
	off    uint64
	access accessFn
	// store marks the address of a store, atomic or reduction, which may not write constant
	// memory (see storeOperand).
	store bool
	// step is how the base register's value changes from lane to lane, where known (step.go).
	step laneStep
}

// at returns lane l's address.
func (a *address) at(w *runtime.Warp, u uint64, l int) uint64 {
	if a.base < 0 {
		return u
	}
	v := w.R[a.base*ws+l]
	if !a.wide {
		v = uint64(uint32(v))
	}
	return v + a.off
}

func (a *address) uniformValue(w *runtime.Warp) uint64 {
	if a.base >= 0 {
		return 0
	}
	return a.uniform(w) + a.off
}

// storeOperand is memOperand for a store, atomic or reduction: global and generic accesses
// fault on constant memory, and warp-wide spans skip it.
func (e *emitter) storeOperand(a ssa.Arg) *address {
	ad := e.memOperand(a)
	if ad == nil {
		return nil
	}
	ad.store = true
	switch e.space() {
	case frontend.SpaceGlobal:
		ad.access = (*runtime.Warp).GlobalStoreBytes
	case frontend.SpaceNone:
		ad.access = (*runtime.Warp).GenericStoreBytes
	}
	return ad
}

// memOperand lowers a [base+offset] operand for the instruction's state space.
func (e *emitter) memOperand(a ssa.Arg) *address { return e.memOperandIn(a, e.space()) }

// memOperandIn lowers a [base+offset] operand for state space sp (cp.async names two).
func (e *emitter) memOperandIn(a ssa.Arg, sp frontend.Space) *address {
	f := e.f
	ad := &address{base: -1, off: uint64(a.Offset)}
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		ad.access = (*runtime.Warp).GlobalBytes
	case frontend.SpaceShared:
		ad.access = (*runtime.Warp).SharedBytes
	case frontend.SpaceLocal:
		ad.access = (*runtime.Warp).LocalBytes
	case frontend.SpaceNone:
		ad.access = (*runtime.Warp).GenericBytes
	case frontend.SpaceParam:
		ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
			return w.ParamBytes(int64(addr), n, lane, loc)
		}
	default:
		e.unsupported()
		return nil
	}
	switch {
	case a.Kind != ssa.ArgAddr:
		e.errorf("memory operand expected")
		return nil
	case a.Value != nil:
		ad.base = f.Regs[a.Value.Reg.ID]
		ad.wide = a.Value.Reg.Type.Bits() == 64
		ad.step = f.step(a.Value)
		if sp == frontend.SpaceParam && f.Fn.Kind == frontend.Entry {
			ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
				return w.KernelParamBytes(int64(addr), n, lane, loc)
			}
		}
	case a.Var != nil:
		v := a.Var
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			g := f.c.Globals[v]
			ad.shared = true
			ad.uniform = func(w *runtime.Warp) uint64 { return w.GlobalVar(g) }
			if sp == frontend.SpaceShared || sp == frontend.SpaceLocal || sp == frontend.SpaceParam {
				e.errorf("%s variable %s accessed as %s", v.Space, v.Name, sp)
			}
		case frontend.SpaceShared:
			off := uint64(f.c.Shared[v])
			ad.shared = true
			if sp == frontend.SpaceNone {
				off += uint64(runtime.SharedWindow)
			}
			ad.uniform = func(*runtime.Warp) uint64 { return off }
		case frontend.SpaceLocal:
			win := uint64(0)
			if sp == frontend.SpaceNone {
				win = uint64(runtime.LocalWindow)
			}
			if off, ok := f.c.Local[v]; ok {
				ad.uniform = func(*runtime.Warp) uint64 { return win + uint64(off) }
			} else {
				off := uint64(f.Local[v])
				ad.uniform = func(w *runtime.Warp) uint64 { return win + uint64(w.LocalBase) + off }
			}
		case frontend.SpaceParam:
			if off, ok := f.KParam[v]; ok {
				o := uint64(off)
				ad.shared = true
				ad.uniform = func(*runtime.Warp) uint64 { return o }
				ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
					return w.KernelParamBytes(int64(addr), n, lane, loc)
				}
			} else {
				o := uint64(f.Param[v])
				ad.uniform = func(*runtime.Warp) uint64 { return o }
			}
		default:
			e.errorf("unsupported: access to %s variable %s", v.Space, v.Name)
			return nil
		}
	default:
		ad.uniform = func(*runtime.Warp) uint64 { return 0 }
	}
	return ad
}

// gather32 and gather64 load the element at A[l]+at of mem into D[l] for the lanes in m: the
// lanes of one warp reading scattered 4- or 8-byte elements of one backing store, each read
// atomically as runtime.LoadBits does.
func gather32(D, A *[ws]uint64, mem []byte, at uint64, m uint32) {
	for ; m != 0; m &= m - 1 {
		l := first(m)
		D[l] = uint64(atomic.LoadUint32(runtime.AtomicU32(mem[A[l]+at:])))
	}
}

func gather64(D, A *[ws]uint64, mem []byte, at uint64, m uint32) {
	for ; m != 0; m &= m - 1 {
		l := first(m)
		D[l] = atomic.LoadUint64(runtime.AtomicU64(mem[A[l]+at:]))
	}
}

// signExtend widens the low n bits of v to a signed value of width bits (kept zero-extended
// above width, as registers hold values).
func signExtend(v uint64, n, width int) uint64 {
	s := uint64(int64(v<<(64-n)) >> (64 - n))
	if width < 64 {
		s &= 1<<width - 1
	}
	return s
}

// elements returns the destination or source registers of a scalar or vector operand.
func (e *emitter) elements(a ssa.Arg, t frontend.Type, dst bool) []int {
	list := []ssa.Arg{a}
	if a.Kind == ssa.ArgVector {
		list = a.Elems
	}
	out := make([]int, len(list))
	for i, x := range list {
		if dst {
			out[i] = e.dst(x)
		} else {
			out[i] = e.src(x, t)
		}
	}
	return out
}

func (e *emitter) load() runtime.Instr {
	t := e.typ()
	if t == frontend.B128 {
		return e.loadB128()
	}
	if t.Bits() > 64 || t == frontend.Pred {
		return e.unsupported()
	}
	ad := e.memOperand(e.in.Args[0])
	dst := e.elements(e.in.Dsts[0], t, true)
	if ad == nil || e.bad {
		return nil
	}
	es := t.Bytes()
	n := es * len(dst)
	signed := t.IsSigned()
	width := make([]int, len(dst))
	d0 := e.in.Dsts[0]
	for i := range dst {
		width[i] = 64
		x := d0
		if d0.Kind == ssa.ArgVector {
			x = d0.Elems[i]
		}
		if x.Kind == ssa.ArgValue {
			width[i] = x.Value.Reg.Type.Bits()
		}
	}
	loc := e.loc()
	if ad.base < 0 && ad.shared {
		// Every lane reads the same bytes: read once, then broadcast.
		return func(w *runtime.Warp, m uint32) {
			l0 := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.uniformValue(w), n, l0, loc)
			for i, d := range dst {
				v := runtime.LoadBits(b[i*es : i*es+es])
				if signed {
					v = signExtend(v, es*8, width[i])
				}
				broadcast(regs(w, d), m, v)
			}
		}
	}
	// readLane writes the elements in b, the n bytes lane l reads, to its destinations.
	readLane := func(w *runtime.Warp, b []byte, l int) {
		for i, d := range dst {
			v := runtime.LoadBits(b[i*es : i*es+es])
			if signed {
				v = signExtend(v, es*8, width[i])
			}
			w.R[d*ws+l] = v
		}
	}
	perLane := func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			readLane(w, ad.access(w, ad.at(w, u, l), n, l, loc), l)
		}
	}
	span, run := e.spanner(ad)
	if span == nil {
		return perLane
	}
	base, off := ad.base, ad.off
	if len(dst) == 1 && (es == 4 || es == 8) && !signed {
		// The commonest loads, ld.global.{b32,b64,...} [%rd+off], with one address
		// translation for the warp, and one copy when the lanes read consecutive elements.
		d := dst[0]
		load := func(w *runtime.Warp, m uint32) {
			A := regs(w, base)
			if consecutive(w, A, m, uint64(es), &ad.step) {
				if b := run(w, A[0]+off, ws*es, es); b != nil {
					loadRun(regs(w, d), b, es)
					return
				}
			}
			mem, mb := span(w, A, m, off, n)
			if mem == nil {
				perLane(w, m)
				return
			}
			if es == 4 {
				gather32(regs(w, d), A, mem, off-mb, m)
			} else {
				gather64(regs(w, d), A, mem, off-mb, m)
			}
		}
		if fz, ok := e.f.fused[e.in]; ok {
			e.fusedDone = true
			return fusedAccess(fz, off, es, run, func(w *runtime.Warp, b []byte) { loadRun(regs(w, d), b, es) }, load)
		}
		return load
	}
	return func(w *runtime.Warp, m uint32) {
		A := regs(w, base)
		mem, mb := span(w, A, m, off, n)
		if mem == nil {
			perLane(w, m)
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			readLane(w, mem[A[l]+off-mb:][:n], l)
		}
	}
}

// spanFn returns the backing store that holds the n-byte access of every lane in m at
// A[l]+off and the address of its first byte, or nil when the lanes leave it, wrap around, or
// any access is misaligned; the caller then takes the per-lane path, which reports the fault
// for the right lane.
type spanFn func(w *runtime.Warp, A *[ws]uint64, m uint32, off uint64, n int) ([]byte, uint64)

// runFn returns the n bytes at address lo, all accessible and lo aligned to align, or nil
// (the caller then takes a path that reports the fault).
type runFn func(w *runtime.Warp, lo uint64, n, align int) []byte

// spanner returns how accesses through ad find their bytes once per warp, or nils when they
// must go lane by lane: register addresses in the global space, generic ones (which are global
// whenever the lanes fall in one global allocation), and shared ones.
func (e *emitter) spanner(ad *address) (spanFn, runFn) {
	if ad.base < 0 {
		return nil, nil
	}
	switch e.space() {
	case frontend.SpaceGlobal, frontend.SpaceNone:
		if ad.wide && ad.store {
			return globalStoreSpan, globalStoreRun
		}
		if ad.wide {
			return globalSpan, globalRun
		}
	case frontend.SpaceShared:
		return sharedSpan, sharedRun
	}
	return nil, nil
}

// contiguous reports whether the lanes of a full warp address consecutive es-byte elements,
// lane l at A[0]+es*l: the pattern of a[threadIdx.x]. Race builds always get false: their
// accesses go through sync/atomic one by one.
func contiguous(A *[ws]uint64, m uint32, es uint64) bool {
	if raceEnabled || m != ^uint32(0) {
		return false
	}
	a, diff := A[0], uint64(0)
	for l := range ws {
		diff |= A[l] ^ a
		a += es
	}
	return diff == 0
}

// consecutive is contiguous for the addresses A of a register whose lane step st is known
// where it is: when the register steps by es, lanes 0 and 31 decide, as step.go explains.
func consecutive(w *runtime.Warp, A *[ws]uint64, m uint32, es uint64, st *laneStep) bool {
	if !st.ok || st.stride != es {
		return contiguous(A, m, es)
	}
	return !raceEnabled && m == ^uint32(0) && (w.TidLinear || !st.tid) && A[ws-1]-A[0] == (ws-1)*es
}

// globalRun is the runFn of global memory: the bytes when one allocation holds them.
func globalRun(w *runtime.Warp, lo uint64, n, align int) []byte {
	return globalRunOf(w, false, lo, n, align)
}

// globalStoreRun is globalRun for stores: nil in constant memory.
func globalStoreRun(w *runtime.Warp, lo uint64, n, align int) []byte {
	return globalRunOf(w, true, lo, n, align)
}

// globalRunOf finds the run of n bytes at lo (writable for a store) in the device's range, or
// in host memory mapped far above it.
func globalRunOf(w *runtime.Warp, store bool, lo uint64, n, align int) []byte {
	hi := lo + uint64(n)
	if lo&uint64(align-1) != 0 || hi < lo {
		return nil
	}
	mem, mb := globalSpanIn(w, store, lo, hi)
	if mem == nil {
		if mem, mb = w.FarGlobalSpan(lo, hi); mem == nil {
			return nil
		}
	}
	return mem[lo-mb:][:n]
}

// globalSpanIn is the warp's GlobalSpan, or its GlobalStoreSpan for a store.
func globalSpanIn(w *runtime.Warp, store bool, lo, hi uint64) ([]byte, uint64) {
	if store {
		return w.GlobalStoreSpan(lo, hi)
	}
	return w.GlobalSpan(lo, hi)
}

// sharedRun is the runFn of the CTA's shared memory.
func sharedRun(w *runtime.Warp, lo uint64, n, align int) []byte {
	if s := w.CTA.Shared; lo&uint64(align-1) == 0 && lo < uint64(len(s)) && uint64(len(s))-lo >= uint64(n) {
		return s[lo:][:n]
	}
	return nil
}

// laneRange returns the lowest and highest of the lanes' addresses A[l]+off and their bitwise
// or, which shows any misalignment.
func laneRange(A *[ws]uint64, m uint32, off uint64) (lo, hi, any uint64) {
	lo = ^uint64(0)
	if m == ^uint32(0) {
		for l := range ws {
			a := A[l] + off
			lo, hi, any = min(lo, a), max(hi, a), any|a
		}
		return lo, hi, any
	}
	for ; m != 0; m &= m - 1 {
		a := A[bits.TrailingZeros32(m)&(ws-1)] + off
		lo, hi, any = min(lo, a), max(hi, a), any|a
	}
	return lo, hi, any
}

// globalSpan is the spanFn of global memory: the one allocation that holds every lane's access.
func globalSpan(w *runtime.Warp, A *[ws]uint64, m uint32, off uint64, n int) ([]byte, uint64) {
	return globalSpanOf(w, false, A, m, off, n)
}

// globalStoreSpan is globalSpan for stores: nil in constant memory.
func globalStoreSpan(w *runtime.Warp, A *[ws]uint64, m uint32, off uint64, n int) ([]byte, uint64) {
	return globalSpanOf(w, true, A, m, off, n)
}

// globalSpanOf finds the one allocation that holds every lane's access (a writable one for a
// store), in the device's range or in host memory mapped far above it.
func globalSpanOf(w *runtime.Warp, store bool, A *[ws]uint64, m uint32, off uint64, n int) ([]byte, uint64) {
	lo, hi, any := laneRange(A, m, off)
	if any&uint64(n-1) != 0 || hi+uint64(n) < hi {
		return nil, 0
	}
	if mem, mb := globalSpanIn(w, store, lo, hi+uint64(n)); mem != nil {
		return mem, mb
	}
	return w.FarGlobalSpan(lo, hi+uint64(n))
}

// sharedSpan is the spanFn of the CTA's shared memory.
func sharedSpan(w *runtime.Warp, A *[ws]uint64, m uint32, off uint64, n int) ([]byte, uint64) {
	_, hi, any := laneRange(A, m, off)
	if s := w.CTA.Shared; any&uint64(n-1) == 0 && hi < uint64(len(s)) && uint64(len(s))-hi >= uint64(n) {
		return s, 0
	}
	return nil, 0
}

func (e *emitter) store() runtime.Instr {
	t := e.typ()
	if t == frontend.B128 {
		return e.storeB128()
	}
	if t.Bits() > 64 || t == frontend.Pred {
		return e.unsupported()
	}
	ad := e.storeOperand(e.in.Args[0])
	// A vector element written as _ is not stored.
	srcArg := e.in.Args[1]
	var skip uint32
	if srcArg.Kind == ssa.ArgVector {
		srcArg.Elems = slices.Clone(srcArg.Elems)
		for i, x := range srcArg.Elems {
			if x.Kind == ssa.ArgSink {
				skip |= 1 << i
				srcArg.Elems[i] = ssa.Arg{Kind: ssa.ArgImm}
			}
		}
	}
	src := e.elements(srcArg, t, false)
	if ad == nil || e.bad {
		return nil
	}
	es := t.Bytes()
	n := es * len(src)
	loc := e.loc()
	// writeLane stores lane l's elements into b, the n bytes it writes.
	writeLane := func(w *runtime.Warp, b []byte, l int) {
		for i, s := range src {
			if skip&(1<<i) == 0 {
				runtime.StoreBits(b[i*es:i*es+es], w.R[s*ws+l])
			}
		}
	}
	perLane := func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			writeLane(w, ad.access(w, ad.at(w, u, l), n, l, loc), l)
		}
	}
	span, run := e.spanner(ad)
	if span == nil {
		return perLane
	}
	base, off := ad.base, ad.off
	if len(src) == 1 {
		s := src[0]
		store := func(w *runtime.Warp, m uint32) {
			A := regs(w, base)
			if (es == 4 || es == 8) && consecutive(w, A, m, uint64(es), &ad.step) {
				if b := run(w, A[0]+off, ws*es, es); b != nil {
					storeRun(b, regs(w, s), es)
					return
				}
			}
			mem, mb := span(w, A, m, off, n)
			if mem == nil {
				perLane(w, m)
				return
			}
			S := regs(w, s)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				runtime.StoreBits(mem[A[l]+off-mb:][:es], S[l])
			}
		}
		if fz, ok := e.f.fused[e.in]; ok {
			e.fusedDone = true
			return fusedAccess(fz, off, es, run, func(w *runtime.Warp, b []byte) { storeRun(b, regs(w, s), es) }, store)
		}
		return store
	}
	return func(w *runtime.Warp, m uint32) {
		A := regs(w, base)
		mem, mb := span(w, A, m, off, n)
		if mem == nil {
			perLane(w, m)
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			writeLane(w, mem[A[l]+off-mb:][:n], l)
		}
	}
}

// storeRun writes the 4- or 8-byte values of a full warp to the consecutive elements of b.
func storeRun(b []byte, S *[ws]uint64, es int) {
	if es == 4 {
		c := (*[ws * 4]byte)(b)
		for l := range ws {
			binary.LittleEndian.PutUint32(c[4*l:], uint32(S[l]))
		}
		return
	}
	c := (*[ws * 8]byte)(b)
	for l := range ws {
		binary.LittleEndian.PutUint64(c[8*l:], S[l])
	}
}
