package closure

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// Typed lane loops for the frequent integer operations. The general lane loops (lanes1,
// lanes2) call their operation through a function value once per lane; these run the
// operation inline in a loop over Go's n-bit unsigned type U. A register holds an n-bit
// integer zero-extended, and U's arithmetic wraps exactly as PTX's does. Go's shifts already
// give 0 (or the sign fill) for amounts of the width or more, as PTX's clamped shifts do.

// unsigned is the Go type of an n-bit PTX integer as a register holds it.
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// intOp is an integer operation with a typed lane loop.
type intOp uint8

const (
	opAdd intOp = iota
	opSub
	opMulLo
	opAnd
	opOr
	opXor
	opNot
	opNeg
	opShl
	opShr  // logical
	opSar  // arithmetic: the operand is an n-bit signed integer
	opMin  // unsigned
	opMax  // unsigned
	opMinS // signed
	opMaxS // signed
)

// typedInt returns the lane loop of op on n-bit operands (b is ignored by the unary not and
// neg), or nil for a width other than 8, 16, 32 or 64.
func typedInt(op intOp, n, d, a, b int) runtime.Instr {
	switch n {
	case 8:
		return intLanes[uint8](op, d, a, b)
	case 16:
		return intLanes[uint16](op, d, a, b)
	case 32:
		return intLanes[uint32](op, d, a, b)
	case 64:
		return intLanes[uint64](op, d, a, b)
	}
	return nil
}

// intLanes returns the lane loop of op over U: one loop over the whole warp when every lane is
// active, else one over the active lanes.
//
//go:noinline
func intLanes[U unsigned](op intOp, d, a, b int) runtime.Instr {
	sh := 64 - 8*unsafe.Sizeof(U(0)) // puts an n-bit value in the top bits, for signed operations
	switch op {
	case opAdd:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) + U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) + U(B[l]))
			}
		}
	case opSub:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) - U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) - U(B[l]))
			}
		}
	case opMulLo:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) * U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) * U(B[l]))
			}
		}
	case opAnd:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) & U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) & U(B[l]))
			}
		}
	case opOr:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) | U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) | U(B[l]))
			}
		}
	case opXor:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) ^ U(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) ^ U(B[l]))
			}
		}
	case opNot:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(^U(A[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(^U(A[l]))
			}
		}
	case opNeg:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(-U(A[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(-U(A[l]))
			}
		}
	case opShl:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) << uint32(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) << uint32(B[l]))
			}
		}
	case opShr:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(A[l]) >> uint32(B[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(A[l]) >> uint32(B[l]))
			}
		}
	case opSar:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(U(int64(A[l]<<sh) >> sh >> uint32(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(U(int64(A[l]<<sh) >> sh >> uint32(B[l])))
			}
		}
	case opMin:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(min(U(A[l]), U(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(min(U(A[l]), U(B[l])))
			}
		}
	case opMax:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(max(U(A[l]), U(B[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(max(U(A[l]), U(B[l])))
			}
		}
	case opMinS:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(min(int64(A[l]<<sh), int64(B[l]<<sh))) >> sh
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(min(int64(A[l]<<sh), int64(B[l]<<sh))) >> sh
			}
		}
	case opMaxS:
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(max(int64(A[l]<<sh), int64(B[l]<<sh))) >> sh
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(max(int64(A[l]<<sh), int64(B[l]<<sh))) >> sh
			}
		}
	}
	panic("closure: intLanes: unknown operation")
}

// typedConvert is cvt between integer types without .sat when the result needs no sign
// extension beyond its own width: the source read as its Go type, converted to the
// destination's n-bit unsigned type. It returns nil for other forms.
func typedConvert(dt, st frontend.Type, regBits, d, a int) runtime.Instr {
	if dt.IsSigned() && regBits > dt.Bits() {
		return nil
	}
	signed := st.IsSigned()
	switch st.Bits() {
	case 8:
		if signed {
			return convertTo[int8](dt.Bits(), d, a)
		}
		return convertTo[uint8](dt.Bits(), d, a)
	case 16:
		if signed {
			return convertTo[int16](dt.Bits(), d, a)
		}
		return convertTo[uint16](dt.Bits(), d, a)
	case 32:
		if signed {
			return convertTo[int32](dt.Bits(), d, a)
		}
		return convertTo[uint32](dt.Bits(), d, a)
	case 64:
		if signed {
			return convertTo[int64](dt.Bits(), d, a)
		}
		return convertTo[uint64](dt.Bits(), d, a)
	}
	return nil
}

// convertTo picks the destination type of a conversion from source type K.
func convertTo[K integer](dn, d, a int) runtime.Instr {
	switch dn {
	case 8:
		return convertLanes[K, uint8](d, a)
	case 16:
		return convertLanes[K, uint16](d, a)
	case 32:
		return convertLanes[K, uint32](d, a)
	case 64:
		return convertLanes[K, uint64](d, a)
	}
	return nil
}

// convertLanes is the lane loop of an integer conversion from K to U.
//
//go:noinline
func convertLanes[K integer, U unsigned](d, a int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A := regs(w, d), regs(w, a)
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = uint64(U(K(A[l])))
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := first(m)
			D[l] = uint64(U(K(A[l])))
		}
	}
}
