package closure

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// atomOps are the operations of atom and red.
var atomOps = []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor, frontend.ModCas, frontend.ModExch,
	frontend.ModAdd, frontend.ModInc, frontend.ModDec, frontend.ModMin, frontend.ModMax}

// atomIsaOp maps an operation on type t to runtime/isa's, by operation, signedness and
// float format of the type.
func atomIsaOp(op frontend.Mod, t frontend.Type) isa.AtomOp {
	switch op {
	case frontend.ModAnd:
		return isa.AtomAnd
	case frontend.ModOr:
		return isa.AtomOr
	case frontend.ModXor:
		return isa.AtomXor
	case frontend.ModExch:
		return isa.AtomExch
	case frontend.ModCas:
		return isa.AtomCas
	case frontend.ModInc:
		return isa.AtomInc
	case frontend.ModDec:
		return isa.AtomDec
	case frontend.ModMin, frontend.ModMax:
		switch {
		case op == frontend.ModMin && t.IsSigned():
			return isa.AtomMinS
		case op == frontend.ModMin:
			return isa.AtomMinU
		case t.IsSigned():
			return isa.AtomMaxS
		}
		return isa.AtomMaxU
	}
	switch t {
	case frontend.F32:
		return isa.AtomAddF32
	case frontend.F64:
		return isa.AtomAddF64
	case frontend.F16:
		return isa.AtomAddF16
	case frontend.BF16:
		return isa.AtomAddBF16
	case frontend.F16x2:
		return isa.AtomAddF16x2
	case frontend.BF16x2:
		return isa.AtomAddBF16x2
	}
	return isa.AtomAdd
}

// atom lowers atom and red:
//
//	atom{.sem}{.scope}{.space}.op{.L2::cache_hint}.type d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.space}.cas.type d, [a], b, c
//	atom{.sem}{.scope}{.space}.add.noftz{.L2::cache_hint}.{f16,f16x2,bf16,bf16x2} d, [a], b{, cache-policy}
//	red{.sem}{.scope}{.space}.op{.L2::cache_hint}.type [a], b{, cache-policy}
//
// The lanes of a warp update memory one after another in lane order. Global memory (and
// generic addresses that reach it) is updated with sync/atomic, since other CTAs run in
// parallel: 16-bit forms use a compare-and-swap loop on the aligned 32-bit word holding them.
// Shared and local memory belong to one goroutine and are updated in place.
func (e *emitter) atom() runtime.Instr {
	in := e.in
	isRed := in.Op == frontend.OpRed
	op := e.oneOf(atomOps...)
	t := e.typ()
	switch {
	case t == frontend.B128 && !isRed && op != 0:
		return e.atomB128(op)
	case e.vectorLen() > 0 && op != 0:
		return e.atomVector(op, t)
	}
	args := in.Args
	ad := e.storeOperand(args[0])
	if ad == nil {
		return nil
	}
	es := t.Bytes()
	width := t.Bits()
	f := isa.AtomFunc(atomIsaOp(op, t), t.Bits())
	b := e.src(args[1], t)
	c := b
	if op == frontend.ModCas {
		c = e.src(args[2], t)
	}
	d := -1
	if !isRed {
		d = e.dst(in.Dsts[0])
	}
	if e.bad {
		return nil
	}
	sp := e.space()
	loc := e.loc()
	// The commonest atomics on global memory have a single sync/atomic operation.
	fast := sp == frontend.SpaceGlobal && op == frontend.ModAdd && (t == frontend.U32 || t == frontend.S32 || t == frontend.U64)
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		B, C := regs(w, b), regs(w, c)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			addr := ad.at(w, u, l)
			mem := ad.access(w, addr, es, l, loc)
			bv, cv := wrap(B[l], width), wrap(C[l], width)
			var old uint64
			switch {
			case fast && es == 4:
				old = uint64(atomic.AddUint32(runtime.AtomicU32(mem), uint32(bv)) - uint32(bv))
			case fast:
				old = atomic.AddUint64(runtime.AtomicU64(mem), bv) - bv
			case sp == frontend.SpaceGlobal || sp == frontend.SpaceNone && runtime.IsGlobalGeneric(addr):
				old = runtime.AtomicRMW(mem, addr, f, bv, cv)
			default:
				old = runtime.LoadBits(mem)
				runtime.StoreBits(mem, wrap(f(old, bv, cv), width))
			}
			if d >= 0 {
				w.R[d*ws+l] = old
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isspacep.space p, a tests whether generic address a lies in a state space: the shared,
// local and kernel parameter windows, a .const variable, or else global memory.
func (e *emitter) isspacep() runtime.Instr {
	in := e.in
	if len(in.Mods) != 1 || len(in.Args) != 1 {
		return e.unsupported()
	}
	sp, _ := in.Mods[0].Space()
	p := e.predDst(in.Dsts[0])
	a := e.src(in.Args[0], frontend.U64)
	var consts [][2]int // global index, size
	for v, g := range e.f.c.Globals {
		if v.Space == frontend.SpaceConst {
			consts = append(consts, [2]int{g, int(v.Size)})
		}
	}
	slices.SortFunc(consts, func(x, y [2]int) int { return x[0] - y[0] })
	isConst := func(w *runtime.Warp, addr uint64) bool {
		for _, c := range consts {
			if base := w.GlobalVar(c[0]); addr-base < uint64(c[1]) {
				return true
			}
		}
		return false
	}
	var test func(w *runtime.Warp, addr uint64) bool
	switch sp {
	case frontend.SpaceShared:
		test = func(_ *runtime.Warp, addr uint64) bool { return addr-uint64(runtime.SharedWindow) < runtime.WindowSize }
	case frontend.SpaceLocal:
		test = func(_ *runtime.Warp, addr uint64) bool { return addr-uint64(runtime.LocalWindow) < runtime.WindowSize }
	case frontend.SpaceConst:
		test = isConst
	case frontend.SpaceGlobal:
		test = func(w *runtime.Warp, addr uint64) bool {
			return runtime.IsGlobalGeneric(addr) && addr-uint64(runtime.FuncWindow) >= runtime.WindowSize && !isConst(w, addr)
		}
	case frontend.SpaceParam:
		test = func(_ *runtime.Warp, addr uint64) bool { return runtime.InParamWindow(addr) }
	default:
		return e.unsupported()
	}
	wide := in.Args[0].Kind != ssa.ArgValue || in.Args[0].Value.Reg.Type.Bits() == 64
	return func(w *runtime.Warp, m uint32) {
		A := regs(w, a)
		var r uint32
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			addr := A[l]
			if !wide {
				addr = uint64(uint32(addr))
			}
			if test(w, addr) {
				r |= 1 << l
			}
		}
		writePred(w, p, m, r)
	}
}

// cacheHint lowers applypriority and discard (layout.CheckCacheHint): the L2 cache is not
// modelled, and memory a discard leaves as it was is one of the values the ISA allows.
func (e *emitter) cacheHint() runtime.Instr { return e.noOp() }

// createPolicy lowers createpolicy (layout.CachePolicy): the policy, or the access property
// createpolicy.cvt converts.
func (e *emitter) createPolicy() runtime.Instr {
	policy, copy, ok, msg := layout.CachePolicy(e.in)
	switch {
	case msg != "":
		return e.errorf("%s", msg)
	case !ok:
		return e.unsupported()
	}
	a := 0
	if copy {
		a = e.src(e.in.Args[0], frontend.B64)
	} else {
		a = e.f.ConstSlot(policy)
	}
	return lanes1(e.dst(e.in.Dsts[0]), a, func(x uint64) uint64 { return x })
}

// prefetch and prefetchu only warm caches, and a prefetch of an invalid address is not a
// fault on a GPU, so they do nothing (layout.CheckHint checks their forms).
func (e *emitter) prefetch() runtime.Instr { return e.noOp() }
