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

// Memory-order and cache qualifiers. This machine has no caches, and its memory is
// sequentially consistent for atomics (sync/atomic) and ordered per goroutine otherwise, so
// every qualifier is accepted for what it is and changes nothing; what they constrain is
// checked (one semantics, one scope, the extra operand of .L2::cache_hint).

// memMod looks up a modifier spelling that has no named constant in frontend.
func memMod(name string) frontend.Mod {
	m, ok := frontend.LookupMod(name)
	if !ok {
		panic("closure: frontend does not know the modifier " + name)
	}
	return m
}

var (
	modMmio      = memMod(".mmio")
	modCacheHint = memMod(".L2::cache_hint")
	modNoftz     = memMod(".noftz")

	// Cache operators of ld and st.
	loadCacheOps  = mods(".ca", ".cg", ".cs", ".lu", ".cv")
	storeCacheOps = mods(".wb", ".cg", ".cs", ".wt")
	// Eviction priorities and L2 prefetch sizes.
	evictions = mods(".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first", ".L1::evict_last",
		".L1::no_allocate", ".L2::evict_first", ".L2::evict_last", ".L2::evict_normal", ".L2::evict_unchanged")
	prefetchSizes = mods(".L2::64B", ".L2::128B", ".L2::256B")
	scopes        = []frontend.Mod{frontend.ModCta, frontend.ModCluster, frontend.ModGpu, frontend.ModSys}
)

func mods(names ...string) []frontend.Mod {
	out := make([]frontend.Mod, len(names))
	for i, n := range names {
		out[i] = memMod(n)
	}
	return out
}

// memModsOK checks the modifiers of ld, ldu and st against the ISA's grammar:
//
//	ld{.weak|.volatile|.relaxed.scope|.acquire.scope|.mmio.relaxed.sys}{.ss}{.cop}{.level::eviction_priority}{.L2::cache_hint}{.L2::prefetch_size}{.vec}.type
//	ld.global{.nc}..., ldu{.global}{.vec}.type
//	st{.weak|.volatile|.relaxed.scope|.release.scope|.mmio.relaxed.sys}{.ss}{.cop}{.level::eviction_priority}{.L2::cache_hint}{.vec}.type
//
// .L2::cache_hint takes its cache-policy operand last. Types and vectors are checked by the
// lowering itself.
func (e *emitter) memModsOK() bool {
	in := e.in
	isStore := in.Op == frontend.OpSt
	var sems, nScopes, cops, hints int
	for _, m := range in.Mods {
		_, isType := m.Type()
		_, isSpace := m.Space()
		switch {
		case isType, isSpace, m.Kind() == frontend.ModKindVector:
		case m == frontend.ModWeak, m == frontend.ModVolatile, m == frontend.ModRelaxed:
			sems++
		case m == frontend.ModAcquire && !isStore, m == frontend.ModRelease && isStore:
			sems++
		case m == modMmio:
		case slices.Contains(scopes, m):
			nScopes++
		case !isStore && slices.Contains(loadCacheOps, m), isStore && slices.Contains(storeCacheOps, m):
			cops++
		case slices.Contains(evictions, m), !isStore && slices.Contains(prefetchSizes, m):
		case m == modCacheHint:
			hints++
		case m == frontend.ModNc:
			if in.Op != frontend.OpLd || e.space() != frontend.SpaceGlobal {
				return false
			}
		default:
			return false
		}
	}
	ordered := e.has(frontend.ModRelaxed) || e.has(frontend.ModAcquire) || e.has(frontend.ModRelease)
	switch {
	case sems > 1 || nScopes > 1 || cops > 1 || hints > 1:
		return false
	case ordered != (nScopes == 1):
		return false
	case e.has(modMmio) && !(e.has(frontend.ModRelaxed) && e.has(frontend.ModSys)):
		return false
	case in.Op == frontend.OpLdu && e.space() != frontend.SpaceGlobal && e.space() != frontend.SpaceNone:
		return false
	}
	want := 2 // ld: d, [a]; st: [a], b
	if hints == 1 {
		want++
	}
	if len(in.Dsts)+len(in.Args) != want {
		return false
	}
	if hints == 1 {
		e.src(in.Args[len(in.Args)-1], frontend.B64)
	}
	return true
}

// atomOps are the operations of atom and red.
var atomOps = []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor, frontend.ModCas, frontend.ModExch,
	frontend.ModAdd, frontend.ModInc, frontend.ModDec, frontend.ModMin, frontend.ModMax}

// atomTypeOK is the ISA's table of the types each atom/red operation takes; halves is whether
// the form is one of the .noftz f16/bf16 additions.
func atomTypeOK(op frontend.Mod, t frontend.Type) (ok, halves bool) {
	switch op {
	case frontend.ModAnd, frontend.ModOr, frontend.ModXor:
		return t == frontend.B32 || t == frontend.B64, false
	case frontend.ModCas:
		return t == frontend.B16 || t == frontend.B32 || t == frontend.B64, false
	case frontend.ModExch:
		return t == frontend.B32 || t == frontend.B64, false
	case frontend.ModInc, frontend.ModDec:
		return t == frontend.U32, false
	case frontend.ModMin, frontend.ModMax:
		return t == frontend.U32 || t == frontend.S32 || t == frontend.U64 || t == frontend.S64, false
	}
	switch t {
	case frontend.U32, frontend.S32, frontend.U64, frontend.F32, frontend.F64:
		return true, false
	case frontend.F16, frontend.F16x2, frontend.BF16, frontend.BF16x2:
		return true, true
	}
	return false, false
}

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
	if op == 0 || len(e.types()) != 1 || isRed && (op == frontend.ModCas || op == frontend.ModExch) {
		return e.unsupported()
	}
	ok, halves := atomTypeOK(op, t)
	if !ok || halves != e.has(modNoftz) {
		return e.unsupported()
	}
	var sems, nScopes, ops int
	for _, m := range in.Mods {
		_, isType := m.Type()
		sp, isSpace := m.Space()
		switch {
		case m == op:
			ops++
		case isType, m == modNoftz, m == modCacheHint && op != frontend.ModCas:
		case isSpace:
			if sp != frontend.SpaceGlobal && sp != frontend.SpaceShared {
				return e.unsupported()
			}
		case m == frontend.ModRelaxed, m == frontend.ModRelease:
			sems++
		case (m == frontend.ModAcquire || m == frontend.ModAcqRel) && !isRed:
			sems++
		case slices.Contains(scopes, m):
			nScopes++
		default:
			return e.unsupported()
		}
	}
	args := in.Args
	want := 2 // [a], b
	if op == frontend.ModCas {
		want++
	}
	if e.has(modCacheHint) {
		want++
	}
	if ops > 1 || sems > 1 || nScopes > 1 || len(args) != want || len(in.Dsts) != btoi(!isRed) {
		return e.unsupported()
	}
	if e.has(modCacheHint) {
		e.src(args[len(args)-1], frontend.B64)
	}
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
func (e *emitter) cacheHint() runtime.Instr { return e.noOp(layout.CheckCacheHint(e.in)) }

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
func (e *emitter) prefetch() runtime.Instr {
	if ok, _ := layout.CheckHint(e.in); !ok {
		return e.unsupported()
	}
	return func(*runtime.Warp, uint32) {}
}
