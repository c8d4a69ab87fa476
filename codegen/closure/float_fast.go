package closure

import (
	"math/bits"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// fastFloat returns lane loops that call the round-to-nearest isa functions directly, with no
// closure between the loop and the operation, for the frequent forms: add, sub, mul, fma and
// mad in f32 (plain or .ftz) and f64. The caller has checked the form; nil means another
// opcode slipped through.
func (e *emitter) fastFloat(t frontend.Type, ftz bool) runtime.Instr {
	op := e.in.Op
	d := e.dst(e.in.Dsts[0])
	src := func(i int) int { return e.src(e.in.Args[i], t) }
	if t == frontend.F64 {
		switch op {
		case frontend.OpAdd:
			return lanes2(d, src(0), src(1), isa.AddF64RN)
		case frontend.OpSub:
			return lanes2(d, src(0), src(1), isa.SubF64RN)
		case frontend.OpMul:
			return lanes2(d, src(0), src(1), isa.MulF64RN)
		case frontend.OpFma, frontend.OpMad:
			return lanes3(d, src(0), src(1), src(2), isa.FmaF64RN)
		}
		return nil
	}
	if ftz {
		z := isa.Ftz32
		switch op {
		case frontend.OpAdd:
			return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return uint64(z(isa.AddF32RN(z(uint32(x)), z(uint32(y))))) })
		case frontend.OpSub:
			return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return uint64(z(isa.SubF32RN(z(uint32(x)), z(uint32(y))))) })
		case frontend.OpMul:
			return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return uint64(z(isa.MulF32RN(z(uint32(x)), z(uint32(y))))) })
		case frontend.OpFma, frontend.OpMad:
			return lanes3(d, src(0), src(1), src(2), func(x, y, w uint64) uint64 {
				return uint64(z(isa.FmaF32RN(z(uint32(x)), z(uint32(y)), z(uint32(w)))))
			})
		}
		return nil
	}
	switch op {
	case frontend.OpAdd:
		return addF32(d, src(0), src(1))
	case frontend.OpSub:
		return lanes2(d, src(0), src(1), func(x, y uint64) uint64 { return uint64(isa.SubF32RN(uint32(x), uint32(y))) })
	case frontend.OpMul:
		return mulF32(d, src(0), src(1))
	case frontend.OpFma, frontend.OpMad:
		return fmaF32(d, src(0), src(1), src(2))
	}
	return nil
}

// addF32, mulF32 and fmaF32 are the round-to-nearest f32 forms that dominate float kernels,
// with the isa function inline in the lane loop.
//
//go:noinline
func addF32(d, a, b int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B := regs(w, d), regs(w, a), regs(w, b)
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = uint64(isa.AddF32RN(uint32(A[l]), uint32(B[l])))
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = uint64(isa.AddF32RN(uint32(A[l]), uint32(B[l])))
		}
	}
}

//go:noinline
func mulF32(d, a, b int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B := regs(w, d), regs(w, a), regs(w, b)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = uint64(isa.MulF32RN(uint32(A[l]), uint32(B[l])))
		}
	}
}

//go:noinline
func fmaF32(d, a, b, c int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = uint64(isa.FmaF32RN(uint32(A[l]), uint32(B[l]), uint32(C[l])))
		}
	}
}
