package closure

import (
	"math"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// Typed lane loops for the frequent conversions between floats and integers, where Go's own
// conversion is PTX's: integer to float rounds to nearest even (as .rn asks), float to integer
// truncates (as .rzi asks, with NaN and out-of-range values handled first), and f32 and f64
// widen exactly and narrow to nearest even (with NaN made canonical).

// floatCvt is a conversion with a typed lane loop.
type floatCvt uint8

const (
	cvtF32S32 floatCvt = iota // cvt.rn.f32.s32
	cvtF32U32
	cvtF32S64
	cvtF64S32
	cvtF64U32
	cvtF64S64
	cvtF64F32 // cvt.f64.f32
	cvtF32F64 // cvt.rn.f32.f64
	cvtS32F32 // cvt.rzi.s32.f32
	cvtS32F64
	cvtU32F32
	cvtU32F64
)

// typedFloatConvert returns the lane loop of cvt.dt.st with rounding modifier rnd when it is
// one of the typed conversions and takes no .sat or .ftz, else nil. regBits is the width of
// the destination register.
func typedFloatConvert(dt, st frontend.Type, rnd frontend.Mod, sat, ftz bool, regBits, d, a int) runtime.Instr {
	if sat || ftz || regBits != dt.Bits() {
		return nil
	}
	rn := rnd == frontend.ModRn
	type pair struct{ dt, st frontend.Type }
	var c floatCvt
	switch p := (pair{dt, st}); {
	case rn && p == pair{frontend.F32, frontend.S32}:
		c = cvtF32S32
	case rn && p == pair{frontend.F32, frontend.U32}:
		c = cvtF32U32
	case rn && p == pair{frontend.F32, frontend.S64}:
		c = cvtF32S64
	case rn && p == pair{frontend.F64, frontend.S32}:
		c = cvtF64S32
	case rn && p == pair{frontend.F64, frontend.U32}:
		c = cvtF64U32
	case rn && p == pair{frontend.F64, frontend.S64}:
		c = cvtF64S64
	case rnd == 0 && p == pair{frontend.F64, frontend.F32}:
		c = cvtF64F32
	case rn && p == pair{frontend.F32, frontend.F64}:
		c = cvtF32F64
	case rnd == frontend.ModRzi && p == pair{frontend.S32, frontend.F32}:
		c = cvtS32F32
	case rnd == frontend.ModRzi && p == pair{frontend.S32, frontend.F64}:
		c = cvtS32F64
	case rnd == frontend.ModRzi && p == pair{frontend.U32, frontend.F32}:
		c = cvtU32F32
	case rnd == frontend.ModRzi && p == pair{frontend.U32, frontend.F64}:
		c = cvtU32F64
	default:
		return nil
	}
	return floatConvertLanes(c, d, a)
}

// widenF32 is cvt.f64.f32: exact, with a NaN made canonical.
func widenF32(v uint64) uint64 {
	if f := float64(f32(v)); f == f {
		return b64(f)
	}
	return isa.NaN64
}

// narrowF64 is cvt.rn.f32.f64: rounded to nearest even, with a NaN made canonical.
func narrowF64(v uint64) uint64 {
	if f := float32(f64(v)); f == f {
		return b32(f)
	}
	return uint64(isa.NaN32)
}

// truncS32 is cvt.rzi.s32 of f: toward zero, saturated, NaN to 0; zero-extended.
func truncS32(f float64) uint64 {
	switch {
	case f != f:
		return 0
	case f <= math.MinInt32:
		return 1 << 31
	case f >= 1<<31:
		return math.MaxInt32
	}
	return uint64(uint32(int32(f)))
}

// truncU32 is cvt.rzi.u32 of f: toward zero, saturated, NaN to 0.
func truncU32(f float64) uint64 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 1<<32:
		return math.MaxUint32
	}
	return uint64(uint32(f))
}

// floatConvertLanes returns the lane loop of c: one loop over the whole warp when every lane
// is active, else one over the active lanes.
//
//go:noinline
func floatConvertLanes(c floatCvt, d, a int) runtime.Instr {
	switch c {
	case cvtF32S32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b32(float32(int32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b32(float32(int32(A[l])))
			}
		}
	case cvtF32U32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b32(float32(uint32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b32(float32(uint32(A[l])))
			}
		}
	case cvtF32S64:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b32(float32(int64(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b32(float32(int64(A[l])))
			}
		}
	case cvtF64S32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b64(float64(int32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b64(float64(int32(A[l])))
			}
		}
	case cvtF64U32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b64(float64(uint32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b64(float64(uint32(A[l])))
			}
		}
	case cvtF64S64:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = b64(float64(int64(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = b64(float64(int64(A[l])))
			}
		}
	case cvtF64F32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = widenF32(A[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = widenF32(A[l])
			}
		}
	case cvtF32F64:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = narrowF64(A[l])
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = narrowF64(A[l])
			}
		}
	case cvtS32F32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = truncS32(float64(f32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = truncS32(float64(f32(A[l])))
			}
		}
	case cvtS32F64:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = truncS32(f64(A[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = truncS32(f64(A[l]))
			}
		}
	case cvtU32F32:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = truncU32(float64(f32(A[l])))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = truncU32(float64(f32(A[l])))
			}
		}
	case cvtU32F64:
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, a)
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = truncU32(f64(A[l]))
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = truncU32(f64(A[l]))
			}
		}
	}
	panic("closure: floatConvertLanes: unknown conversion")
}
