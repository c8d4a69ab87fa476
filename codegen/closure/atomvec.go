package closure

import (
	"math/bits"
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// vectorLen is the element count of the instruction's .v2/.v4/.v8 modifier, 0 without one.
func (e *emitter) vectorLen() int {
	switch {
	case e.has(frontend.ModV2):
		return 2
	case e.has(frontend.ModV4):
		return 4
	case e.has(frontend.ModV8):
		return 8
	}
	return 0
}

// atomVectorOK is the ISA's table of vector atomics (PTX 8.1, sm_90): .f32 takes .add on .v2
// and .v4; .f16 and .bf16 take .add, .min and .max on .v2, .v4 and .v8; .f16x2 and .bf16x2
// take them on .v2 and .v4. The 16-bit forms require .noftz, .f32 does not take it.
func atomVectorOK(op frontend.Mod, t frontend.Type, n int, noftz bool) bool {
	minMaxAdd := op == frontend.ModAdd || op == frontend.ModMin || op == frontend.ModMax
	switch t {
	case frontend.F32:
		return op == frontend.ModAdd && n <= 4 && !noftz
	case frontend.F16, frontend.BF16:
		return minMaxAdd && noftz
	case frontend.F16x2, frontend.BF16x2:
		return minMaxAdd && n <= 4 && noftz
	}
	return false
}

// atomVectorFunc returns the new value of one element of a vector atomic from its old value o
// and operand b. .f32 adds as scalar atom.add.f32 on global memory does (subnormals flushed);
// the 16-bit adds as atom.add.noftz does; min and max follow min/max.f16 and .bf16: a NaN
// operand yields the other one, two NaNs the canonical NaN, and -0 is below +0. The packed
// types apply the operation to each half.
func atomVectorFunc(op frontend.Mod, t frontend.Type) func(o, b, c uint64) uint64 {
	if op == frontend.ModAdd {
		return isa.AtomFunc(atomIsaOp(op, t), t.Bits())
	}
	ops := map[frontend.Type][2]isa.AtomOp{
		frontend.F16: {isa.AtomMinF16, isa.AtomMaxF16}, frontend.BF16: {isa.AtomMinBF16, isa.AtomMaxBF16},
		frontend.F16x2: {isa.AtomMinF16x2, isa.AtomMaxF16x2}, frontend.BF16x2: {isa.AtomMinBF16x2, isa.AtomMaxBF16x2},
	}[t]
	return isa.AtomFunc(ops[btoi(op == frontend.ModMax)], t.Bits())
}

// atomVector lowers the vector atomics and reductions:
//
//	atom{.sem}{.scope}{.global}.add{.L2::cache_hint}.{v2,v4}.f32 d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.global}.{add,min,max}.noftz{.L2::cache_hint}.{v2,v4,v8}.{f16,bf16} d, [a], b{, cache-policy}
//	atom{.sem}{.scope}{.global}.{add,min,max}.noftz{.L2::cache_hint}.{v2,v4}.{f16x2,bf16x2} d, [a], b{, cache-policy}
//
// and the same forms of red without d; d and b are vectors {..} of the qualifier's length. The
// vector must be aligned to its whole size. As the ISA specifies, each element is a separate
// atomic operation (with sync/atomic; a 16-bit element through the 32-bit word holding it),
// not the vector as a whole. The ISA allows vector atomics only on global memory, so a generic
// address must reach global memory: one in the shared or local window is reported as an
// out-of-bounds global access.
func (e *emitter) atomVector(op frontend.Mod, t frontend.Type) runtime.Instr {
	in := e.in
	isRed := in.Op == frontend.OpRed
	n := e.vectorLen()
	if len(e.types()) != 1 || !atomVectorOK(op, t, n, e.has(modNoftz)) {
		return e.unsupported()
	}
	var sems, nScopes, vecs, ops int
	for _, m := range in.Mods {
		_, isType := m.Type()
		sp, isSpace := m.Space()
		switch {
		case m == op:
			ops++
		case m.Kind() == frontend.ModKindVector:
			vecs++
		case isType, m == modNoftz, m == modCacheHint:
		case isSpace:
			if sp != frontend.SpaceGlobal {
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
	if e.has(modCacheHint) {
		want++
	}
	if ops != 1 || vecs != 1 || sems > 1 || nScopes > 1 || len(args) != want || len(in.Dsts) != btoi(!isRed) {
		return e.unsupported()
	}
	isVec := func(a ssa.Arg) bool { return a.Kind == ssa.ArgVector && len(a.Elems) == n }
	if !isVec(args[1]) || !isRed && !isVec(in.Dsts[0]) {
		return e.unsupported()
	}
	if e.has(modCacheHint) {
		e.src(args[len(args)-1], frontend.B64)
	}
	ad := e.storeOperand(args[0])
	if ad == nil {
		return nil
	}
	ad.access = (*runtime.Warp).GlobalStoreBytes
	src := e.elements(args[1], t, false)
	var dst []int
	if !isRed {
		dst = e.elements(in.Dsts[0], t, true)
	}
	if e.bad {
		return nil
	}
	f := atomVectorFunc(op, t)
	es := t.Bytes()
	width := t.Bits()
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			addr := ad.at(w, u, l)
			mem := ad.access(w, addr, n*es, l, loc)
			// The operands are read before any old value is written: d may name them.
			var b [8]uint64
			for i, s := range src {
				b[i] = wrap(w.R[s*ws+l], width)
			}
			for i := range src {
				old := runtime.AtomicRMW(mem[i*es:i*es+es], addr+uint64(i*es), f, b[i], 0)
				if dst != nil {
					w.R[dst[i]*ws+l] = old
				}
			}
		}
	}
}
