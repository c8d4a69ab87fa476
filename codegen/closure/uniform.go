package closure

import (
	"math/bits"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Lane loops with a warp-uniform operand: a value the SSA uniformity analysis proved equal in
// every active lane (or an immediate, or %ntid, %nctaid or %ctaid), read once per warp from the
// first active lane instead of once per lane. These cover the index arithmetic of nearly every
// kernel: ctaid*ntid + tid, index*elementSize, base + offset and index < n.

// uniformArg reports whether operand i of the instruction is the same in every active lane.
func (e *emitter) uniformArg(i int) bool {
	a := e.in.Args[i]
	switch a.Kind {
	case ssa.ArgImm, ssa.ArgFloat:
		return true
	case ssa.ArgValue:
		return a.Value.Uniform && !a.Not
	case ssa.ArgSpecial:
		base, _, _ := strings.Cut(a.Name, ".")
		return base == "%ntid" || base == "%nctaid" || base == "%ctaid"
	}
	return false
}

// first is the first active lane of a non-empty mask.
func first(m uint32) int { return bits.TrailingZeros32(m) & (ws - 1) }

// mad32Uniform is mad.lo of 32 bits with a and b uniform: the product is made once.
//
//go:noinline
func mad32Uniform(d, a, b, c int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		l0 := first(m)
		p := w.R[a*ws+l0] * w.R[b*ws+l0]
		D, C := regs(w, d), regs(w, c)
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = uint64(uint32(p + C[l]))
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := first(m)
			D[l] = uint64(uint32(p + C[l]))
		}
	}
}

// mulWide32Uniform is mul.wide.{s32,u32} with b uniform.
//
//go:noinline
func mulWide32Uniform(d, a, b int, signed bool) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A := regs(w, d), regs(w, a)
		y := w.R[b*ws+first(m)]
		if signed {
			k := int64(int32(y))
			if m == ^uint32(0) {
				for l := range ws {
					D[l] = uint64(int64(int32(A[l])) * k)
				}
				return
			}
			for ; m != 0; m &= m - 1 {
				l := first(m)
				D[l] = uint64(int64(int32(A[l])) * k)
			}
			return
		}
		k := uint64(uint32(y))
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = uint64(uint32(A[l])) * k
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := first(m)
			D[l] = uint64(uint32(A[l])) * k
		}
	}
}

// add64Uniform is a 64-bit add with b uniform.
//
//go:noinline
func add64Uniform(d, a, b int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		D, A := regs(w, d), regs(w, a)
		y := w.R[b*ws+first(m)]
		if m == ^uint32(0) {
			for l := range ws {
				D[l] = A[l] + y
			}
			return
		}
		for ; m != 0; m &= m - 1 {
			l := first(m)
			D[l] = A[l] + y
		}
	}
}

// uniformOps are the operations whose result uniformLanes computes once per warp where every
// operand is warp-uniform: each lane's result depends on its operands alone.
var uniformOps = map[frontend.Opcode]bool{
	frontend.OpAdd: true, frontend.OpSub: true, frontend.OpMul: true, frontend.OpMad: true,
	frontend.OpShl: true, frontend.OpShr: true, frontend.OpAnd: true, frontend.OpOr: true,
	frontend.OpXor: true, frontend.OpMin: true, frontend.OpMax: true, frontend.OpCvt: true,
}

// uniformResult returns the register slot of the instruction's one result where every lane
// of the warp computes it from the same operands: an operation of uniformOps, without a carry,
// writing one non-predicate register, all of whose operands uniformArg accepts.
func (e *emitter) uniformResult() (int, bool) {
	in := e.in
	if !uniformOps[in.Op] || e.has(frontend.ModCc) || len(in.Dsts) != 1 || len(in.Defs) != 1 || in.Dsts[0].Kind != ssa.ArgValue {
		return 0, false
	}
	if in.Dsts[0].Value.Reg.Type == frontend.Pred || len(in.Args) == 0 {
		return 0, false
	}
	for i := range in.Args {
		if !e.uniformArg(i) {
			return 0, false
		}
	}
	return e.f.Regs[in.Dsts[0].Value.Reg.ID], true
}

// uniformLanes runs code, an instruction whose active lanes compute the same result in
// register d, for the first active lane alone, and copies that lane's result to the others.
//
//go:noinline
func uniformLanes(code runtime.Instr, d int) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		l := first(m)
		code(w, 1<<l)
		broadcast(regs(w, d), m, w.R[d*ws+l])
	}
}
