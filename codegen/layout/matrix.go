package layout

import (
	"fmt"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// MatrixKind says which warp-level matrix instruction a MatrixForm is.
type MatrixKind uint8

// The kinds.
const (
	MatrixLdmatrix MatrixKind = iota // ldmatrix.sync.aligned.m8n8
	MatrixMma                        // mma.sync.aligned.m16n8k{8,16}.row.col
)

// MatrixForm is a warp-level matrix instruction as both back ends lower it: ldmatrix through
// runtime.Warp.Ldmatrix and mma through runtime.Warp.Mma, which hold the fragment layouts and
// fault unless the whole warp executes the instruction (.aligned).
type MatrixForm struct {
	Kind MatrixKind
	// Ldmatrix: N is the number of 8x8 matrices (1, 2 or 4), Trans the .trans qualifier,
	// Addr the shared-memory address operand (ArgAddr).
	N     int
	Trans bool
	Addr  ssa.Arg
	// Mma: K is the shape's k (16 or 8), AB the A and B element type, C and D the
	// accumulator types (isa.MatF32 or isa.MatF16).
	K        int
	AB, C, D isa.MatType
	// Dsts are the destination registers (ldmatrix: N; mma: D's), and A, B, Cs mma's source
	// registers, each a .b32 (.f32 for an .f32 accumulator) register value.
	Dsts, A, B, Cs []ssa.Arg
}

var (
	modM8n8    = hintMod(".m8n8")
	modM16n8k8 = hintMod(".m16n8k8")
	modM16n8k6 = hintMod(".m16n8k16")
	modRow     = hintMod(".row")
	modCol     = hintMod(".col")
	modX1      = hintMod(".x1")
	modX2      = hintMod(".x2")
	modX4      = hintMod(".x4")
	modTrans   = hintMod(".trans")
)

// IsMatrix reports whether an instruction is one of the warp-level matrix opcodes (ldmatrix,
// mma, wmma): Matrix classifies the forms supported.
func IsMatrix(in *ssa.Instr) bool {
	return in.Op == frontend.OpLdmatrix || in.Op == frontend.OpMma
}

// Matrix classifies the sm_80 warp-level matrix forms both back ends support,
//
//	ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared{::cta}.b16 d, [a]
//	mma.sync.aligned.m16n8k16.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16} d, a, b, c
//	mma.sync.aligned.m16n8k8.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16} d, a, b, c
//	mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 d, a, b, c
//
// (bf16 inputs only with .f32 C and D). d, a, b and c are vectors of .b32 (for an .f32
// accumulator, .f32) registers of the lengths runtime.MmaFragRegs gives; ldmatrix's d has one
// register per matrix. It reports ok for such a form, a message for a malformed one (a
// vector of the wrong length, an immediate where a register must be), and neither for forms
// no back end supports (other shapes, types or layouts, integer and sub-byte mma, sparse mma,
// stmatrix, movmatrix, wmma).
func Matrix(in *ssa.Instr) (f MatrixForm, ok bool, msg string) {
	var sync, aligned, m8n8, k8, k16, row, col, trans, b16, sharedN int
	n := 0
	var types []frontend.Type
	for _, m := range in.Mods {
		s, isSpace := m.Space()
		t, isType := m.Type()
		switch {
		case m == frontend.ModSync:
			sync++
		case m == frontend.ModAligned:
			aligned++
		case m == modM8n8:
			m8n8++
		case m == modM16n8k8:
			k8++
		case m == modM16n8k6:
			k16++
		case m == modRow:
			row++
		case m == modCol:
			col++
		case m == modTrans:
			trans++
		case m == modX1, m == modX2, m == modX4:
			if n != 0 {
				return f, false, ""
			}
			n = map[frontend.Mod]int{modX1: 1, modX2: 2, modX4: 4}[m]
		case isSpace && s == frontend.SpaceShared && m != modSharedCluster:
			sharedN++
		case isType:
			if t == frontend.B16 {
				b16++
			}
			types = append(types, t)
		default:
			return f, false, ""
		}
	}
	if sync != 1 || aligned != 1 {
		return f, false, ""
	}
	vec := func(a ssa.Arg, want int, what string) ([]ssa.Arg, string) {
		elems := []ssa.Arg{a}
		if a.Kind == ssa.ArgVector {
			elems = a.Elems
		}
		if len(elems) != want {
			return nil, fmt.Sprintf("%s: %s has %d registers, want %d", in.Op, what, len(elems), want)
		}
		for _, e := range elems {
			if e.Kind != ssa.ArgValue || e.Value.Reg.Type == frontend.Pred || e.Value.Reg.Type.Bits() != 32 {
				return nil, fmt.Sprintf("%s: %s must be 32-bit registers", in.Op, what)
			}
		}
		return elems, ""
	}
	switch in.Op {
	case frontend.OpLdmatrix:
		if m8n8 != 1 || n == 0 || trans > 1 || sharedN != 1 || b16 != 1 || len(types) != 1 || k8+k16+row+col != 0 {
			return f, false, ""
		}
		if len(in.Dsts) != 1 || len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgAddr {
			return f, false, ""
		}
		f.Kind, f.N, f.Trans, f.Addr = MatrixLdmatrix, n, trans == 1, in.Args[0]
		if f.Dsts, msg = vec(in.Dsts[0], n, "d"); msg != "" {
			return f, false, msg
		}
		return f, true, ""
	case frontend.OpMma:
		if k8+k16 != 1 || row != 1 || col != 1 || m8n8+trans+sharedN+n != 0 || len(types) != 4 || len(in.Dsts) != 1 || len(in.Args) != 3 {
			return f, false, ""
		}
		f.Kind, f.K = MatrixMma, 16
		if k8 == 1 {
			f.K = 8
		}
		if types[1] != types[2] {
			return f, false, ""
		}
		acc := map[frontend.Type]isa.MatType{frontend.F32: isa.MatF32, frontend.F16: isa.MatF16}
		var okD, okC bool
		f.D, okD = acc[types[0]]
		f.C, okC = acc[types[3]]
		switch types[1] {
		case frontend.F16:
			f.AB = isa.MatF16
		case frontend.BF16:
			f.AB = isa.MatBF16
		case frontend.TF32:
			f.AB = isa.MatTF32
		default:
			return f, false, ""
		}
		if !okD || !okC || f.AB != isa.MatF16 && (f.C != isa.MatF32 || f.D != isa.MatF32) || f.AB == isa.MatTF32 && f.K != 8 {
			return f, false, ""
		}
		na, nb, nd := runtime.MmaFragRegs(f.K, f.AB, f.D)
		_, _, nc := runtime.MmaFragRegs(f.K, f.AB, f.C)
		for _, x := range []struct {
			dst  *[]ssa.Arg
			a    ssa.Arg
			n    int
			what string
		}{{&f.Dsts, in.Dsts[0], nd, "d"}, {&f.A, in.Args[0], na, "a"}, {&f.B, in.Args[1], nb, "b"}, {&f.Cs, in.Args[2], nc, "c"}} {
			if *x.dst, msg = vec(x.a, x.n, x.what); msg != "" {
				return f, false, msg
			}
		}
		return f, true, ""
	}
	return f, false, ""
}
