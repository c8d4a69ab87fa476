package closure

import (
	"encoding/binary"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Address fusion. Compilers address a[i] as `add.s64 %rd3, %base, %off; ld.global [%rd3]`
// with %base a launch-invariant pointer (hoisted into the prologue, so the same in every lane)
// and %off the per-thread byte offset. When %rd3 has no other use, the load or store computes
// the address itself: a full warp whose offsets are consecutive elements is one copy with no
// per-lane address at all; any other warp writes %rd3 for its lanes, as the add would have,
// and takes the ordinary path.

// fusedAddr is an add folded into the memory instruction that uses its result.
type fusedAddr struct {
	sum, base, index int // register slots: the add's destination and its operands
	// flag is a hidden slot that says whether the index register holds consecutive elements:
	// the first fused access of a block through an index value, when unguarded, writes it
	// (setFlag) and the later ones with the same index value and element size read it.
	flag    int
	setFlag bool
	// step is how the index register's value changes from lane to lane, where known (step.go).
	step laneStep
}

// fuseAddresses finds the adds to fold: for each global or shared scalar 4- or 8-byte ld/st
// whose address register is the 64-bit add of a launch-invariant value and another register,
// defined earlier in the same block by an unguarded add whose result nothing else reads, and
// whose operand is not written in between.
func (f *fnCompiler) fuseAddresses() {
	f.fused = map[*ssa.Instr]fusedAddr{}
	f.folded = map[*ssa.Instr]bool{}
	uses := make([]int, len(f.Fn.Values))
	ssa.ForEachUse(f.Fn, func(_ *ssa.Block, v *ssa.Value) { uses[v.ID]++ })
	type indexUse struct {
		index *ssa.Value
		size  int
	}
	for _, b := range f.Fn.Blocks {
		flags := map[indexUse]int{}
		for i, in := range b.Instrs {
			sum, size := fusibleAddress(in)
			if sum == nil || uses[sum.ID] != 1 || sum.Kind != ssa.DefInstr || sum.Instr.Block != b {
				continue
			}
			add := sum.Instr
			if add.Op != frontend.OpAdd || add.Guard != nil || !plainAdd64(add) {
				continue
			}
			x, y := add.Args[0], add.Args[1]
			if x.Kind != ssa.ArgValue || y.Kind != ssa.ArgValue {
				continue
			}
			if !f.invariant(x.Value) {
				x, y = y, x
			}
			if !f.invariant(x.Value) || y.Value.Reg.Type.Bits() != 64 || writtenBetween(b, add, i, y.Value.Reg) {
				continue
			}
			fz := fusedAddr{sum: f.Regs[sum.Reg.ID], base: f.Regs[x.Value.Reg.ID], index: f.Regs[y.Value.Reg.ID], flag: -1, step: f.step(y.Value)}
			key := indexUse{y.Value, size}
			if slot, ok := flags[key]; ok {
				fz.flag = slot
			} else if in.Guard == nil {
				fz.flag, fz.setFlag = f.Scratch(), true
				flags[key] = fz.flag
			}
			f.fused[in] = fz
			f.folded[add] = true
		}
	}
}

// plainAdd64 reports whether add is add.s64, add.u64 or add.b64 with no other modifier.
func plainAdd64(add *ssa.Instr) bool {
	if len(add.Mods) != 1 {
		return false
	}
	t, ok := add.Mods[0].Type()
	return ok && t.Bits() == 64 && !t.IsFloat()
}

// fusibleAddress returns the address value and element size of a ld or st the fused paths
// handle, or nil.
func fusibleAddress(in *ssa.Instr) (*ssa.Value, int) {
	if in.Op != frontend.OpLd && in.Op != frontend.OpSt {
		return nil, 0
	}
	switch in.Space() {
	case frontend.SpaceGlobal, frontend.SpaceShared:
	default:
		return nil, 0
	}
	data := in.Args[len(in.Args)-1]
	if in.Op == frontend.OpLd {
		data = in.Dsts[0]
	}
	t := (&emitter{in: in}).typ()
	if data.Kind == ssa.ArgVector || t.Bits() != 32 && t.Bits() != 64 || in.Op == frontend.OpLd && t.IsSigned() {
		return nil, 0
	}
	a := in.Args[0]
	if a.Kind != ssa.ArgAddr || a.Value == nil || a.Value.Reg.Type.Bits() != 64 {
		return nil, 0
	}
	return a.Value, t.Bytes()
}

// invariant reports whether v is computed by the prologue: the same in every lane.
func (f *fnCompiler) invariant(v *ssa.Value) bool {
	if v.Kind != ssa.DefInstr {
		return false
	}
	_, ok := f.hoisted[v.Instr]
	return ok
}

// writtenBetween reports whether an instruction of b after def and before index i writes r.
func writtenBetween(b *ssa.Block, def *ssa.Instr, i int, r *ssa.Reg) bool {
	after := false
	for _, in := range b.Instrs[:i] {
		if after {
			for _, d := range in.Defs {
				if d.Reg == r {
					return true
				}
			}
		}
		after = after || in == def
	}
	return false
}

// contiguousIndex is consecutive for the index register of a fused access, computed once per
// block and index value (see fusedAddr.flag). The flag says so only where the first access
// ran for a full warp, as a later one needs too.
func contiguousIndex(w *runtime.Warp, fz *fusedAddr, I *[ws]uint64, m uint32, es int) bool {
	switch {
	case fz.flag < 0:
		return consecutive(w, I, m, uint64(es), &fz.step)
	case fz.setFlag:
		c := consecutive(w, I, m, uint64(es), &fz.step)
		w.R[fz.flag*ws] = 0
		if c {
			w.R[fz.flag*ws] = 1
		}
		return c
	}
	return m == ^uint32(0) && w.R[fz.flag*ws] != 0
}

// fusedAccess runs a scalar ld or st of es bytes through a fused address: move copies a full
// warp's consecutive elements to or from b, and normal is the ordinary path, taken once the
// address register is written.
//
//go:noinline
func fusedAccess(fz fusedAddr, off uint64, es int, run runFn, move func(w *runtime.Warp, b []byte), normal runtime.Instr) runtime.Instr {
	return func(w *runtime.Warp, m uint32) {
		I := regs(w, fz.index)
		if contiguousIndex(w, &fz, I, m, es) {
			if b := run(w, w.R[fz.base*ws]+I[0]+off, ws*es, es); b != nil {
				move(w, b)
				return
			}
		}
		materialize(w, fz, m)
		normal(w, m)
	}
}

// materialize writes the folded add's result for the lanes in m.
func materialize(w *runtime.Warp, fz fusedAddr, m uint32) {
	S, B, I := regs(w, fz.sum), regs(w, fz.base), regs(w, fz.index)
	if m == ^uint32(0) {
		for l := range ws {
			S[l] = B[l] + I[l]
		}
		return
	}
	for ; m != 0; m &= m - 1 {
		l := first(m)
		S[l] = B[l] + I[l]
	}
}

// loadRun reads the 4- or 8-byte values of a full warp from the consecutive elements of b.
func loadRun(D *[ws]uint64, b []byte, es int) {
	if es == 4 {
		c := (*[ws * 4]byte)(b)
		for l := range ws {
			D[l] = uint64(binary.LittleEndian.Uint32(c[4*l:]))
		}
		return
	}
	c := (*[ws * 8]byte)(b)
	for l := range ws {
		D[l] = binary.LittleEndian.Uint64(c[8*l:])
	}
}
