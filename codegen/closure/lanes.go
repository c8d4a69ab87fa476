package closure

import (
	"math/bits"

	"github.com/ptx2go/ptx2go/runtime"
)

// Lane-loop kernels: each runs an operation for every active lane of a warp, reading and
// writing 64-bit register slots. The operation is resolved when the closure is built.
//
// Constructors that return a lane loop are marked //go:noinline: the Go compiler does not
// inline calls inside a closure that was itself copied into a caller by inlining, so an inlined
// constructor would leave regs, first and the isa helpers as real calls in every lane loop.

const ws = runtime.WarpSize

// regs returns the 32 lanes of register slot s.
func regs(w *runtime.Warp, s int) *[ws]uint64 { return (*[ws]uint64)(w.R[s*ws : s*ws+ws]) }

//go:noinline
func lanes1(d, a int, op func(uint64) uint64) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A := regs(w, d), regs(w, a)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = op(A[l])
		}
	}
}

//go:noinline
func lanes2(d, a, b int, op func(x, y uint64) uint64) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B := regs(w, d), regs(w, a), regs(w, b)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = op(A[l], B[l])
		}
	}
}

//go:noinline
func lanes3(d, a, b, c int, op func(x, y, z uint64) uint64) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = op(A[l], B[l], C[l])
		}
	}
}

// broadcast writes v to the lanes of m.
func broadcast(D *[ws]uint64, m uint32, v uint64) {
	if m == ^uint32(0) {
		for l := range D {
			D[l] = v
		}
		return
	}
	for ; m != 0; m &= m - 1 {
		D[bits.TrailingZeros32(m)&(ws-1)] = v
	}
}

// copyLanes is mov between registers.
//
//go:noinline
func copyLanes(d, a int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A := regs(w, d), regs(w, a)
		if m == ^uint32(0) {
			*D = *A
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = A[l]
		}
	}
}

// setLanes writes a predicate from a per-lane condition.
//
//go:noinline
func setLanes(p, a, b int, cond func(x, y uint64) bool) func(w *runtime.Warp, m uint32) uint32 {
	return func(w *runtime.Warp, m uint32) uint32 {
		A, B := regs(w, a), regs(w, b)
		var r uint32
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			if cond(A[l], B[l]) {
				r |= 1 << l
			}
		}
		return r
	}
}

// writePred stores r into predicate p for the lanes in m.
func writePred(w *runtime.Warp, p int, m, r uint32) { w.P[p] = w.P[p]&^m | r&m }

// inline2 builds a two-operand lane loop for one of the frequent integer operations with the
// operation inline; nil when op has no inline form.
func inline2(op string, d, a, b int) runtime.Instr {
	switch op {
	case "mul.wide.s32":
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D[l] = uint64(int64(int32(A[l])) * int64(int32(B[l])))
			}
		}
	case "mul.wide.u32":
		return func(w *runtime.Warp, m uint32) {
			D, A, B := regs(w, d), regs(w, a), regs(w, b)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D[l] = uint64(uint32(A[l])) * uint64(uint32(B[l]))
			}
		}
	}
	return nil
}

// mad32 is mad.lo.{s,u}32 with the operation inline.
//
//go:noinline
func mad32(d, a, b, c int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A, B, C := regs(w, d), regs(w, a), regs(w, b), regs(w, c)
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = uint64(uint32(A[l]*B[l] + C[l]))
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			D[l] = uint64(uint32(A[l]*B[l] + C[l]))
		}
	}
}
