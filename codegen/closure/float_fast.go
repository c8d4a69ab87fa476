package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// fastFloat returns the lane loops of the frequent round-to-nearest forms: add, sub, mul, fma
// and mad in f32 (plain or .ftz) and f64, each with its isa function inline in the loop. The
// caller has checked the form; nil means another opcode slipped through.
func (e *emitter) fastFloat(t frontend.Type, ftz bool) runtime.Instr {
	op := e.in.Op
	d := e.dst(e.in.Dsts[0])
	src := func(i int) int { return e.src(e.in.Args[i], t) }
	var f floatOp
	switch op {
	case frontend.OpAdd:
		f = fAddF32
	case frontend.OpSub:
		f = fSubF32
	case frontend.OpMul:
		f = fMulF32
	case frontend.OpFma, frontend.OpMad:
		f = fFmaF32
	default:
		return nil
	}
	switch {
	case t == frontend.F64:
		f += fAddF64 - fAddF32
	case ftz:
		f += fAddF32Ftz - fAddF32
	}
	c := -1
	if f.fused() {
		c = src(2)
	}
	return floatLanes(f, d, src(0), src(1), c)
}

// floatOp is a float operation with a typed lane loop. The first three groups of four are the
// round-to-nearest add, sub, mul, fma, in the same order in each group.
type floatOp uint8

const (
	fAddF32 floatOp = iota
	fSubF32
	fMulF32
	fFmaF32
	fAddF32Ftz
	fSubF32Ftz
	fMulF32Ftz
	fFmaF32Ftz
	fAddF64
	fSubF64
	fMulF64
	fFmaF64
	fMinF32 // min.f32 and max.f32 without .ftz or .NaN
	fMaxF32
)

// fused says the operation has a third operand.
func (f floatOp) fused() bool { return f <= fFmaF64 && f%4 == 3 }

// z32 reads the f32 in a register with a subnormal flushed to zero (.ftz).
func z32(v uint64) uint32 { return isa.Ftz32(uint32(v)) }

// floatLanes returns the lane loop of f: one loop over the whole warp when every lane is
// active, else one over the active lanes. c is the third operand of fma, else ignored.
//
//go:noinline
func floatLanes(f floatOp, d, a, b, c int) runtime.Instr {
	switch f {
	case fAddF32:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.AddF32RN(uint32(A[l]), uint32(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.AddF32RN(uint32(A[l]), uint32(B[l])))
			}
		}
	case fSubF32:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.SubF32RN(uint32(A[l]), uint32(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.SubF32RN(uint32(A[l]), uint32(B[l])))
			}
		}
	case fMulF32:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.MulF32RN(uint32(A[l]), uint32(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.MulF32RN(uint32(A[l]), uint32(B[l])))
			}
		}
	case fFmaF32:
		// FmaF32RN with its common case inline: the float64 fma (an exact product plus c) rounded
		// to float32.
		return func(w *runtime.Warp, m uint32) {
			D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
			if m == ^uint32(0) {
				for l := range ws {
					p, z := float64(f32(A[l]))*float64(f32(B[l])), float64(f32(C[l]))
					if f := p + z; isa.FmaF32Rounded(p, z, f) {
						D[l] = b32(float32(f))
					} else {
						D[l] = uint64(isa.FmaF32RN(uint32(A[l]), uint32(B[l]), uint32(C[l])))
					}
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.FmaF32RN(uint32(A[l]), uint32(B[l]), uint32(C[l])))
			}
		}
	case fAddF32Ftz:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.Ftz32(isa.AddF32RN(z32(A[l]), z32(B[l]))))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.Ftz32(isa.AddF32RN(z32(A[l]), z32(B[l]))))
			}
		}
	case fSubF32Ftz:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.Ftz32(isa.SubF32RN(z32(A[l]), z32(B[l]))))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.Ftz32(isa.SubF32RN(z32(A[l]), z32(B[l]))))
			}
		}
	case fMulF32Ftz:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.Ftz32(isa.MulF32RN(z32(A[l]), z32(B[l]))))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.Ftz32(isa.MulF32RN(z32(A[l]), z32(B[l]))))
			}
		}
	case fFmaF32Ftz:
		return func(w *runtime.Warp, m uint32) {
			D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.Ftz32(isa.FmaF32RN(z32(A[l]), z32(B[l]), z32(C[l]))))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.Ftz32(isa.FmaF32RN(z32(A[l]), z32(B[l]), z32(C[l]))))
			}
		}
	case fAddF64:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = isa.AddF64RN(A[l], B[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = isa.AddF64RN(A[l], B[l])
			}
		}
	case fSubF64:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = isa.SubF64RN(A[l], B[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = isa.SubF64RN(A[l], B[l])
			}
		}
	case fMulF64:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = isa.MulF64RN(A[l], B[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = isa.MulF64RN(A[l], B[l])
			}
		}
	case fFmaF64:
		return func(w *runtime.Warp, m uint32) {
			D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = isa.FmaF64RN(A[l], B[l], C[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = isa.FmaF64RN(A[l], B[l], C[l])
			}
		}
	case fMinF32:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.MinF32(uint32(A[l]), uint32(B[l]), false))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.MinF32(uint32(A[l]), uint32(B[l]), false))
			}
		}
	case fMaxF32:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(isa.MaxF32(uint32(A[l]), uint32(B[l]), false))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(isa.MaxF32(uint32(A[l]), uint32(B[l]), false))
			}
		}
	}
	panic("closure: floatLanes: unknown operation")
}
