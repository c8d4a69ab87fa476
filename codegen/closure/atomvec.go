package closure

import (
	"math/bits"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
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
// vector must be aligned to its whole size (the table of forms, layout.CheckForms, says which
// types and lengths each operation takes). As the ISA specifies, each element is a separate
// atomic operation (with sync/atomic; a 16-bit element through the 32-bit word holding it),
// not the vector as a whole. The ISA allows vector atomics only on global memory, so a generic
// address must reach global memory: one in the shared or local window is reported as an
// out-of-bounds global access.
func (e *emitter) atomVector(op frontend.Mod, t frontend.Type) runtime.Instr {
	in := e.in
	isRed := in.Op == frontend.OpRed
	n := e.vectorLen()
	args := in.Args
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
