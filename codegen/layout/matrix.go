package layout

import (
	"fmt"
	"slices"

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
	// Mma: K is the shape's k (16 or 8, or 4 for the .f64 m8n8k4, whose AB, C and D are
	// isa.MatF64), AB the A and B element type, C and D the accumulator types (isa.MatF32 or
	// isa.MatF16).
	K        int
	AB, C, D isa.MatType
	// Integer mma (Int): .s32 C and D, 8-bit A and B elements, .s8 where SignedA (SignedB)
	// and .u8 otherwise, and Satfinite for .satfinite. AB, C and D are then unused.
	Int, SignedA, SignedB, Satfinite bool
	// Dsts are the destination registers (ldmatrix: N; mma: D's), and A, B, Cs mma's source
	// registers, each a .b32 (.f32 for an .f32 accumulator) register value.
	Dsts, A, B, Cs []ssa.Arg
}

var (
	modM8n8     = knownMod(".m8n8")
	modM16n8k8  = knownMod(".m16n8k8")
	modM16n8k6  = knownMod(".m16n8k16")
	modM16n8k32 = knownMod(".m16n8k32")
	modRow      = knownMod(".row")
	modCol      = knownMod(".col")
	modX1       = knownMod(".x1")
	modX2       = knownMod(".x2")
	modX4       = knownMod(".x4")
	modTrans    = knownMod(".trans")
)

// Matrix classifies the sm_80 warp-level matrix forms both back ends support,
//
//	ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared{::cta}.b16 d, [a]
//	mma.sync.aligned.m16n8k16.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16} d, a, b, c
//	mma.sync.aligned.m16n8k8.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16} d, a, b, c
//	mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 d, a, b, c
//	mma.sync.aligned.m16n8k{16,32}.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32 d, a, b, c
//	mma.sync.aligned.m8n8k4.row.col{.rn}.f64.f64.f64.f64 d, a, b, c
//
// (bf16 inputs only with .f32 C and D). d, a, b and c are vectors of .b32 (for an .f32
// accumulator, .f32) registers of the lengths runtime.MmaFragRegs gives (integer mma: a 2 or 4,
// b 1 or 2, c and d 4; .f64: a and b one .f64 register, c and d two); ldmatrix's d has one
// register per matrix. It reports ok for such a form, a message for a malformed one (a
// vector of the wrong length, an immediate where a register must be), and neither for forms
// no back end supports (other shapes, types or layouts, sub-byte mma, sparse mma,
// stmatrix, movmatrix). Wmma classifies wmma.
func Matrix(in *ssa.Instr) (f MatrixForm, ok bool, msg string) {
	var sync, aligned, m8n8, k4, k8, k16, k32, rn, row, col, trans, b16, sharedN, satfinite int
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
		case m == modM8n8k4:
			k4++
		case m == frontend.ModRn:
			rn++
		case m == modM16n8k8:
			k8++
		case m == modM16n8k6:
			k16++
		case m == modM16n8k32:
			k32++
		case m == frontend.ModSatfinite:
			satfinite++
		case m == modRow:
			row++
		case m == modCol:
			if row == 0 {
				return f, false, "" // mma's layouts are .row.col, in that order
			}
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
	vec := func(a ssa.Arg, want int, what string) ([]ssa.Arg, string) { return regVector(in, a, want, 32, what) }
	switch in.Op {
	case frontend.OpLdmatrix:
		if m8n8 != 1 || n == 0 || trans > 1 || sharedN != 1 || b16 != 1 || len(types) != 1 || k8+k16+k32+row+col+satfinite != 0 {
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
		if k4+k8+k16+k32 != 1 || row != 1 || col != 1 || m8n8+trans+sharedN+n != 0 || len(types) != 4 || len(in.Dsts) != 1 || len(in.Args) != 3 ||
			rn > 1 || rn == 1 && k4 == 0 {
			return f, false, ""
		}
		if k4 == 1 {
			return f64Mma(in, f, types, satfinite)
		}
		if eightBit(types[1]) {
			if k8 == 1 {
				return f, false, ""
			}
			return intMma(in, f, types, k16 == 1, satfinite, vec)
		}
		if k32+satfinite != 0 {
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

// eightBit reports whether t is an integer mma's 8-bit element type.
func eightBit(t frontend.Type) bool { return t == frontend.S8 || t == frontend.U8 }

// intMma classifies mma.sync.aligned.m16n8k{16,32}.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32
// (k16 false: k32) for Matrix, whose modifier checks it has passed, types being its four types
// in order and vec its register-vector check.
func intMma(in *ssa.Instr, f MatrixForm, types []frontend.Type, k16 bool, satfinite int,
	vec func(ssa.Arg, int, string) ([]ssa.Arg, string)) (MatrixForm, bool, string) {
	if types[0] != frontend.S32 || types[3] != frontend.S32 || !eightBit(types[2]) || satfinite > 1 {
		return f, false, ""
	}
	f.Kind, f.Int, f.K = MatrixMma, true, 32
	if k16 {
		f.K = 16
	}
	f.SignedA, f.SignedB, f.Satfinite = types[1] == frontend.S8, types[2] == frontend.S8, satfinite == 1
	var msg string
	for _, x := range []struct {
		dst  *[]ssa.Arg
		a    ssa.Arg
		n    int
		what string
	}{{&f.Dsts, in.Dsts[0], 4, "d"}, {&f.A, in.Args[0], f.K / 8, "a"}, {&f.B, in.Args[1], f.K / 16, "b"}, {&f.Cs, in.Args[2], 4, "c"}} {
		if *x.dst, msg = vec(x.a, x.n, x.what); msg != "" {
			return f, false, msg
		}
	}
	return f, true, ""
}

// f64Mma classifies mma.sync.aligned.m8n8k4.row.col{.rn}.f64.f64.f64.f64 d, a, b, c: a and b
// one .f64 register each, c and d two.
func f64Mma(in *ssa.Instr, f MatrixForm, types []frontend.Type, satfinite int) (MatrixForm, bool, string) {
	if satfinite != 0 || slices.ContainsFunc(types, func(t frontend.Type) bool { return t != frontend.F64 }) {
		return f, false, ""
	}
	f.Kind, f.K, f.AB, f.C, f.D = MatrixMma, 4, isa.MatF64, isa.MatF64, isa.MatF64
	for _, x := range []struct {
		dst  *[]ssa.Arg
		a    ssa.Arg
		n    int
		what string
	}{{&f.Dsts, in.Dsts[0], 2, "d"}, {&f.A, in.Args[0], 1, "a"}, {&f.B, in.Args[1], 1, "b"}, {&f.Cs, in.Args[2], 2, "c"}} {
		var msg string
		if *x.dst, msg = regVector(in, x.a, x.n, 64, x.what); msg != "" {
			return f, false, msg
		}
	}
	return f, true, ""
}

// regVector returns the registers of operand a of a matrix instruction: want registers of
// bits bits, in a vector or (one) alone, or a message naming the operand what.
func regVector(in *ssa.Instr, a ssa.Arg, want, bits int, what string) ([]ssa.Arg, string) {
	elems := []ssa.Arg{a}
	if a.Kind == ssa.ArgVector {
		elems = a.Elems
	}
	if len(elems) != want {
		return nil, fmt.Sprintf("%s: %s has %d registers, want %d", in.Op, what, len(elems), want)
	}
	for _, e := range elems {
		if e.Kind != ssa.ArgValue || e.Value.Reg.Type == frontend.Pred || e.Value.Reg.Type.Bits() != bits {
			return nil, fmt.Sprintf("%s: %s must be %d-bit registers", in.Op, what, bits)
		}
	}
	return elems, ""
}

// WmmaKind says which wmma instruction a WmmaForm is.
type WmmaKind uint8

// The kinds.
const (
	WmmaLoad WmmaKind = iota
	WmmaStore
	WmmaMma
)

// WmmaForm is a wmma instruction as both back ends lower it, to runtime.Warp.WmmaLoad,
// WmmaStore and WmmaMma (runtime/wmma.go documents the fragment layout).
type WmmaForm struct {
	Kind WmmaKind
	// Frag is a load's fragment (runtime.WmmaC for a store); Type its element type
	// (isa.MatF16 or isa.MatF32); Col the .col memory layout; Space the state space
	// (frontend.SpaceNone: generic); Addr the address operand; Stride the stride operand when
	// HasStride (else 16).
	Frag      runtime.WmmaFrag
	Shape     runtime.WmmaShape
	Type      isa.MatType
	Col       bool
	Space     frontend.Space
	Addr      ssa.Arg
	Stride    ssa.Arg
	HasStride bool
	// Regs are a load's destination or a store's source registers; D, A, B and Cs mma's,
	// C and D its accumulator types, In the type of its A and B (isa.MatF16, isa.MatBF16,
	// isa.MatTF32 or isa.MatF64) or of its A (isa.MatS8 or isa.MatU8, the integer forms),
	// InB the type of its B, and Satfinite an integer mma's .satfinite.
	Regs, D, A, B, Cs []ssa.Arg
	C, DT, In, InB    isa.MatType
	Satfinite         bool
}

var (
	modM16n16k16 = knownMod(".m16n16k16")
	modM16n16k8  = knownMod(".m16n16k8")
	modM8n8k4    = knownMod(".m8n8k4")
	modM32n8k16  = knownMod(".m32n8k16")
	modM8n32k16  = knownMod(".m8n32k16")
	modLoad      = knownMod(".load")
	modStore     = knownMod(".store")
	modMmaOp     = knownMod(".mma")
	modFragA     = knownMod(".a")
	modFragB     = knownMod(".b")
	modFragC     = knownMod(".c")
	modFragD     = knownMod(".d")
)

// Wmma classifies the wmma forms both back ends support: .f16, .bf16, .s8 and .u8 inputs of
// the m16n16k16, m32n8k16 and m8n32k16 shapes (the latter two below written as m16n16k16),
// .tf32 inputs of the m16n16k8 shape and .f64 ones of the m8n8k4 shape,
//
//	wmma.load.{a,b}.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.{f16,bf16} r, [p]{, stride}
//	wmma.load.{a,b}.sync.aligned.{row,col}.m16n16k8{.global,.shared{::cta}}.tf32 r, [p]{, stride}
//	wmma.load.c.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.{f16,f32} r, [p]{, stride}
//	wmma.load.c.sync.aligned.{row,col}.m16n16k8{.global,.shared{::cta}}.f32 r, [p]{, stride}
//	wmma.store.d.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.{f16,f32} [p], r{, stride}
//	wmma.store.d.sync.aligned.{row,col}.m16n16k8{.global,.shared{::cta}}.f32 [p], r{, stride}
//	wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k16.{f16,f32}.{f16,f32} d, a, b, c
//	wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k16.f32.bf16.bf16.f32 d, a, b, c
//	wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k8.f32.tf32.tf32.f32 d, a, b, c
//	wmma.{load.{a,b,c},store.d}.sync.aligned.{row,col}.m8n8k4{.global,.shared{::cta}}.f64 ...
//	wmma.mma.sync.aligned.{row,col}.{row,col}.m8n8k4.f64.f64.f64.f64{.rn} d, a, b, c
//	wmma.load.{a,b}.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.{s8,u8} r, [p]{, stride}
//	wmma.{load.c,store.d}.sync.aligned.{row,col}.m16n16k16{.global,.shared{::cta}}.s32 ...
//	wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k16.s32.{s8,u8}.{s8,u8}.s32{.satfinite} d, a, b, c
//
// (no state space: a generic address). r is a vector of .b32 registers (runtime.WmmaRegs:
// 8 for .f16 a and b, 4 for .bf16 and .tf32 ones and for an .f16 accumulator, 8 .f32 ones
// for an .f32 accumulator, 2 for .s8 and .u8 a and b, 8 for an .s32 accumulator; .f64
// registers for .f64: 1 for a and b, 2 for c and d). It reports ok for such a form, a
// message for a malformed one, and neither for a form no back end supports (other shapes
// and types, .satfinite on floating-point types, rounding other than .f64's .rn, sub-byte
// types).
func Wmma(in *ssa.Instr) (f WmmaForm, ok bool, msg string) {
	if in.Op != frontend.OpWmma {
		return f, false, ""
	}
	var sync, aligned, shape, k8, k4, rn, satf, load, store, mma, row, col, fa, fb, fc, fd int
	var types []frontend.Type
	var spaces []frontend.Space
	for _, m := range in.Mods {
		s, isSpace := m.Space()
		t, isType := m.Type()
		switch {
		case m == frontend.ModSync:
			sync++
		case m == frontend.ModAligned:
			aligned++
		case m == modM16n16k16:
			shape++
		case m == modM16n16k8:
			shape++
			k8++
		case m == modM8n8k4:
			shape++
			k4++
		case m == modM32n8k16:
			shape++
			f.Shape = runtime.WmmaM32N8
		case m == modM8n32k16:
			shape++
			f.Shape = runtime.WmmaM8N32
		case m == frontend.ModRn:
			rn++
		case m == frontend.ModSatfinite:
			satf++
		case m == modLoad:
			load++
		case m == modStore:
			store++
		case m == modMmaOp:
			mma++
		case m == modRow:
			row++
		case m == modCol:
			col++
		case m == modFragA:
			fa++
		case m == modFragB:
			fb++
		case m == modFragC:
			fc++
		case m == modFragD:
			fd++
		case isSpace && (s == frontend.SpaceGlobal || s == frontend.SpaceShared) && m != modSharedCluster:
			spaces = append(spaces, s)
		case isType:
			types = append(types, t)
		default:
			return f, false, ""
		}
	}
	if sync != 1 || aligned != 1 || shape != 1 || load+store+mma != 1 {
		return f, false, ""
	}
	acc := map[frontend.Type]isa.MatType{frontend.F32: isa.MatF32, frontend.F16: isa.MatF16, frontend.F64: isa.MatF64, frontend.S32: isa.MatS32}
	inputs := map[frontend.Type]isa.MatType{frontend.F16: isa.MatF16, frontend.BF16: isa.MatBF16, frontend.TF32: isa.MatTF32, frontend.F64: isa.MatF64,
		frontend.S8: isa.MatS8, frontend.U8: isa.MatU8}
	integer := func(t isa.MatType) bool { return t == isa.MatS8 || t == isa.MatU8 }
	if satf > 1 || satf == 1 && mma == 0 {
		return f, false, ""
	}
	// shapeOK: .tf32 inputs go with m16n16k8, .f64 ones with m8n8k4, the others with
	// m16n16k16; .rn only with .f64's mma.
	shapeOK := func(in isa.MatType) bool {
		return (in == isa.MatTF32) == (k8 == 1) && (in == isa.MatF64) == (k4 == 1) && (rn == 0 || in == isa.MatF64 && mma == 1) &&
			(f.Shape == runtime.WmmaSquare || in != isa.MatTF32 && in != isa.MatF64)
	}
	// accShapeOK: an .f64 accumulator goes with m8n8k4, an .f16 one with m16n16k16 and an
	// .f32 one with m16n16k16 or m16n16k8.
	accShapeOK := func(t isa.MatType) bool {
		return rn == 0 && (t == isa.MatF64) == (k4 == 1) && (k8 == 0 || t == isa.MatF32)
	}
	vec := func(a ssa.Arg, t isa.MatType, frag runtime.WmmaFrag, what string) ([]ssa.Arg, string) {
		want, bits := runtime.WmmaRegs(frag, t, f.Shape), 32
		if t == isa.MatF64 {
			bits = 64
		}
		if a.Kind != ssa.ArgVector || len(a.Elems) != want {
			return nil, fmt.Sprintf("wmma: %s must be a vector of %d registers", what, want)
		}
		for _, e := range a.Elems {
			if e.Kind != ssa.ArgValue || e.Value.Reg.Type == frontend.Pred || e.Value.Reg.Type.Bits() != bits {
				return nil, fmt.Sprintf("wmma: %s must be %d-bit registers", what, bits)
			}
		}
		return a.Elems, ""
	}
	if mma == 1 {
		if row+col != 2 || fa+fb+fc+fd != 0 || len(spaces) != 0 || len(types) != 2 && len(types) != 4 || len(in.Dsts) != 1 || len(in.Args) != 3 {
			return f, false, ""
		}
		var okD, okC bool
		f.Kind, f.In = WmmaMma, isa.MatF16
		f.DT, okD = acc[types[0]]
		f.C, okC = acc[types[len(types)-1]]
		f.Satfinite = satf == 1
		if len(types) == 4 && types[0] == frontend.S32 {
			// .s32.{s8,u8}.{s8,u8}.s32{.satfinite}, m16n16k16 only.
			var okA, okB bool
			f.In, okA = inputs[types[1]]
			f.InB, okB = inputs[types[2]]
			if !okA || !okB || !integer(f.In) || !integer(f.InB) || f.C != isa.MatS32 || k8+k4 != 0 || rn != 0 {
				return f, false, ""
			}
		} else if satf != 0 || f.DT == isa.MatS32 || f.C == isa.MatS32 {
			return f, false, ""
		} else if len(types) == 4 {
			// .f32.{bf16,tf32}.{bf16,tf32}.f32 or .f64.f64.f64.f64: the inputs' type between
			// the accumulators'.
			var okIn bool
			f.In, okIn = inputs[types[1]]
			accT := isa.MatF32
			if f.In == isa.MatF64 {
				accT = isa.MatF64
			}
			if !okIn || f.In == isa.MatF16 || integer(f.In) || types[2] != types[1] || f.DT != accT || f.C != accT {
				return f, false, ""
			}
		} else if f.DT == isa.MatF64 || f.C == isa.MatF64 {
			return f, false, ""
		}
		if !integer(f.In) {
			f.InB = f.In
		}
		if !okD || !okC || !shapeOK(f.In) {
			return f, false, ""
		}
		for _, x := range []struct {
			dst  *[]ssa.Arg
			a    ssa.Arg
			t    isa.MatType
			frag runtime.WmmaFrag
			what string
		}{{&f.D, in.Dsts[0], f.DT, runtime.WmmaC, "d"}, {&f.A, in.Args[0], f.In, runtime.WmmaA, "a"},
			{&f.B, in.Args[1], f.InB, runtime.WmmaB, "b"}, {&f.Cs, in.Args[2], f.C, runtime.WmmaC, "c"}} {
			if *x.dst, msg = vec(x.a, x.t, x.frag, x.what); msg != "" {
				return f, false, msg
			}
		}
		return f, true, ""
	}
	if row+col != 1 || len(spaces) > 1 || len(types) != 1 {
		return f, false, ""
	}
	f.Col = col == 1
	if len(spaces) == 1 {
		f.Space = spaces[0]
	}
	t, okT := acc[types[0]]
	if !okT {
		if t, okT = inputs[types[0]]; !okT {
			return f, false, ""
		}
	}
	f.Type = t
	args := in.Args
	if load == 1 {
		switch {
		case fa+fb+fc != 1 || fd != 0:
			return f, false, ""
		case fa == 1:
			f.Frag = runtime.WmmaA
		case fb == 1:
			f.Frag = runtime.WmmaB
		default:
			f.Frag = runtime.WmmaC
		}
		inputFrag := f.Frag != runtime.WmmaC
		_, isInput := inputs[types[0]]
		_, isAcc := acc[types[0]]
		if inputFrag && (!isInput || !shapeOK(t)) || !inputFrag && (!isAcc || !accShapeOK(t)) || len(in.Dsts) != 1 || len(args) < 1 || len(args) > 2 || args[0].Kind != ssa.ArgAddr {
			return f, false, ""
		}
		f.Kind, f.Addr = WmmaLoad, args[0]
		if f.Regs, msg = vec(in.Dsts[0], t, f.Frag, "d"); msg != "" {
			return f, false, msg
		}
		args = args[1:]
	} else {
		if fd != 1 || fa+fb+fc != 0 || t == isa.MatBF16 || t == isa.MatTF32 || integer(t) || !accShapeOK(t) || len(in.Dsts) != 0 || len(args) < 2 || len(args) > 3 || args[0].Kind != ssa.ArgAddr {
			return f, false, ""
		}
		f.Kind, f.Frag, f.Addr = WmmaStore, runtime.WmmaC, args[0]
		if f.Regs, msg = vec(args[1], t, runtime.WmmaC, "r"); msg != "" {
			return f, false, msg
		}
		args = args[2:]
	}
	if len(args) == 1 {
		a := args[0]
		if a.Kind != ssa.ArgImm && (a.Kind != ssa.ArgValue || a.Value.Reg.Type.Bits() != 32 || a.Value.Reg.Type == frontend.Pred) {
			return f, false, "wmma: stride must be a 32-bit register or an immediate"
		}
		f.Stride, f.HasStride = a, true
	}
	return f, true, ""
}
