package layout

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Type lists.
var (
	// intTypes are the integer and bit-size types of at most 64 bits, which the integer
	// arithmetic and logic instructions take.
	intTypes = tl(frontend.B8, frontend.B16, frontend.B32, frontend.B64, frontend.U8, frontend.U16, frontend.U32, frontend.U64, frontend.S8, frontend.S16, frontend.S32, frontend.S64)
	// int16up are the integer types of 16 bits or more.
	int16up = tl(frontend.U16, frontend.U32, frontend.U64, frontend.S16, frontend.S32, frontend.S64)
	// int3264 are the 32- and 64-bit integer types.
	int3264 = tl(frontend.U32, frontend.S32, frontend.U64, frontend.S64)
	// bits3264 are the 32- and 64-bit integer and bit-size types.
	bits3264 = tl(frontend.B32, frontend.B64, frontend.U32, frontend.S32, frontend.U64, frontend.S64)
	// us32 are .u32 and .s32.
	us32 = tl(frontend.U32, frontend.S32)
	// packedInts are the packed integer types.
	packedInts = tl(frontend.U16x2, frontend.S16x2, frontend.U8x4, frontend.S8x4)
	// halfTypes are the 16-bit float types, scalar and packed.
	halfTypes = tl(frontend.F16, frontend.F16x2, frontend.BF16, frontend.BF16x2)
	// f32f64 are .f32 and .f64.
	f32f64 = tl(frontend.F32, frontend.F64)
)

// Modifier groups the integer forms share.
var (
	prmtModeMods = knownMods(".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16")
)

func init() {
	addForms(
		// Integer arithmetic and logic on n-bit values.
		&FormRow{
			Ops:      opl(frontend.OpAdd, frontend.OpSub, frontend.OpDiv, frontend.OpRem, frontend.OpMin, frontend.OpMax, frontend.OpAnd, frontend.OpOr, frontend.OpXor),
			Types:    [][]frontend.Type{intTypes},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpAbs, frontend.OpNeg, frontend.OpNot, frontend.OpCnot, frontend.OpPopc, frontend.OpClz, frontend.OpBrev),
			Types:    [][]frontend.Type{intTypes},
			Operands: "%0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpShl, frontend.OpShr),
			Types:    [][]frontend.Type{intTypes},
			Operands: "%0, %0, %u32",
		},
		&FormRow{
			Ops:      opl(frontend.OpAnd, frontend.OpOr, frontend.OpXor),
			Types:    [][]frontend.Type{{frontend.Pred}},
			Operands: "%pred, %pred, %pred",
		},
		&FormRow{Ops: opl(frontend.OpNot), Types: [][]frontend.Type{{frontend.Pred}}, Operands: "%pred, %pred"},
		// add.sat.s32, sub.sat.s32.
		&FormRow{
			Ops:      opl(frontend.OpAdd, frontend.OpSub),
			Types:    [][]frontend.Type{{frontend.S32}},
			Mods:     []ModGroup{need(frontend.ModSat)},
			Operands: "%0, %0, %0",
		},
		// The carry chain: add.cc, sub.cc, addc{.cc}, subc{.cc}.
		&FormRow{
			Ops:      opl(frontend.OpAdd, frontend.OpSub),
			Types:    [][]frontend.Type{int3264},
			Mods:     []ModGroup{need(frontend.ModCc)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpAddc, frontend.OpSubc),
			Types:    [][]frontend.Type{int3264},
			Mods:     []ModGroup{opt(frontend.ModCc)},
			Operands: "%0, %0, %0",
		},
		// mul{.lo,.hi}, mul.wide on 16- and 32-bit integers.
		&FormRow{
			Ops:      opl(frontend.OpMul),
			Types:    [][]frontend.Type{intTypes},
			Mods:     []ModGroup{opt(frontend.ModLo, frontend.ModHi)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMul),
			Types:    [][]frontend.Type{tl(frontend.U16, frontend.S16, frontend.U32, frontend.S32)},
			Mods:     []ModGroup{need(frontend.ModWide)},
			Operands: "%0w, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMad),
			Types:    [][]frontend.Type{intTypes},
			Mods:     []ModGroup{opt(frontend.ModLo, frontend.ModHi)},
			Operands: "%0, %0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMad),
			Types:    [][]frontend.Type{tl(frontend.U16, frontend.S16, frontend.U32, frontend.S32)},
			Mods:     []ModGroup{need(frontend.ModWide)},
			Operands: "%0w, %0, %0, %0w",
		},
		// mad.hi.sat.s32.
		&FormRow{
			Ops:      opl(frontend.OpMad),
			Types:    [][]frontend.Type{{frontend.S32}},
			Mods:     []ModGroup{need(frontend.ModHi), need(frontend.ModSat)},
			Operands: "%0, %0, %0, %0",
		},
		// mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc}.
		&FormRow{
			Ops:      opl(frontend.OpMad),
			Types:    [][]frontend.Type{int3264},
			Mods:     []ModGroup{need(frontend.ModLo, frontend.ModHi), need(frontend.ModCc)},
			Operands: "%0, %0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMadc),
			Types:    [][]frontend.Type{int3264},
			Mods:     []ModGroup{need(frontend.ModLo, frontend.ModHi), opt(frontend.ModCc)},
			Operands: "%0, %0, %0, %0",
		},
		// mul24.{lo,hi}, mad24.{lo,hi} and mad24.hi.sat.s32.
		&FormRow{
			Ops:      opl(frontend.OpMul24),
			Types:    [][]frontend.Type{us32},
			Mods:     []ModGroup{need(frontend.ModLo, frontend.ModHi)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMad24),
			Types:    [][]frontend.Type{us32},
			Mods:     []ModGroup{need(frontend.ModLo, frontend.ModHi)},
			Operands: "%0, %0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMad24),
			Types:    [][]frontend.Type{{frontend.S32}},
			Mods:     []ModGroup{need(frontend.ModHi), need(frontend.ModSat)},
			Operands: "%0, %0, %0, %0",
		},
		// min.relu.s32, max.relu.s32.
		&FormRow{
			Ops:      opl(frontend.OpMin, frontend.OpMax),
			Types:    [][]frontend.Type{{frontend.S32}},
			Mods:     []ModGroup{need(frontend.ModRelu)},
			Operands: "%0, %0, %0",
		},
		// The packed integer forms: add.{u16x2,s16x2}, min/max{.relu} on the packed types
		// (.relu on the signed ones).
		&FormRow{
			Ops:      opl(frontend.OpAdd),
			Types:    [][]frontend.Type{{frontend.U16x2, frontend.S16x2}},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMin, frontend.OpMax),
			Types:    [][]frontend.Type{packedInts},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpMin, frontend.OpMax),
			Types:    [][]frontend.Type{{frontend.S16x2, frontend.S8x4}},
			Mods:     []ModGroup{need(frontend.ModRelu)},
			Operands: "%0, %0, %0",
		},
		// Bit fields and the other integer instructions.
		&FormRow{Ops: opl(frontend.OpBfe), Types: [][]frontend.Type{bits3264}, Operands: "%0, %0, %u32, %u32"},
		&FormRow{Ops: opl(frontend.OpBfi), Types: [][]frontend.Type{bits3264}, Operands: "%0, %0, %0, %u32, %u32"},
		&FormRow{
			Ops:      opl(frontend.OpBfind),
			Types:    [][]frontend.Type{int3264},
			Mods:     []ModGroup{opt(frontend.ModShiftamt)},
			Operands: "%u32, %0",
		},
		&FormRow{Ops: opl(frontend.OpSad), Types: [][]frontend.Type{int16up}, Operands: "%0, %0, %0, %0"},
		&FormRow{Ops: opl(frontend.OpFns), Types: [][]frontend.Type{{frontend.B32}}, Operands: "%0, %0, %0, %0"},
		&FormRow{
			Ops:      opl(frontend.OpSzext),
			Types:    [][]frontend.Type{us32},
			Mods:     []ModGroup{need(frontend.ModClamp, frontend.ModWrap)},
			Operands: "%0, %0, %u32",
		},
		&FormRow{
			Ops:      opl(frontend.OpBmsk),
			Types:    [][]frontend.Type{{frontend.B32}},
			Mods:     []ModGroup{need(frontend.ModClamp, frontend.ModWrap)},
			Operands: "%0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpDp4a),
			Types:    [][]frontend.Type{us32, us32},
			Operands: "%b32, %b32, %b32, %b32",
		},
		&FormRow{
			Ops:      opl(frontend.OpDp2a),
			Types:    [][]frontend.Type{us32, us32},
			Mods:     []ModGroup{need(frontend.ModLo, frontend.ModHi)},
			Operands: "%b32, %b32, %b32, %b32",
		},
		&FormRow{
			Ops:      opl(frontend.OpPrmt),
			Types:    [][]frontend.Type{{frontend.B32}},
			Mods:     []ModGroup{opt(prmtModeMods...)},
			Operands: "%0, %0, %0, %0",
		},
		&FormRow{
			Ops:      opl(frontend.OpShf),
			Types:    [][]frontend.Type{{frontend.B32}},
			Mods:     []ModGroup{need(frontend.ModL, frontend.ModR), need(frontend.ModClamp, frontend.ModWrap)},
			Operands: "%0, %0, %0, %u32",
		},
		// lop3.b32 d, a, b, c, immLut and lop3.{or,and}.b32 d|p, a, b, c, immLut, q.
		&FormRow{
			Ops:      opl(frontend.OpLop3),
			Types:    [][]frontend.Type{{frontend.B32}},
			Rule:     lop3Rule(false),
			Operands: "%0, %0, %0, %0, 0x96",
		},
		&FormRow{
			Ops:      opl(frontend.OpLop3),
			Types:    [][]frontend.Type{{frontend.B32}},
			Mods:     []ModGroup{need(frontend.ModOr, frontend.ModAnd)},
			Rule:     lop3Rule(true),
			Operands: "%0|%pred, %0, %0, %0, 0x96, %pred",
		},
		// The scalar video instructions on whole words: vop.dtype.atype.btype{.sat} d, a, b and
		// vop.dtype.atype.btype{.sat}.op2 d, a, b, c.
		&FormRow{
			Ops:      opl(frontend.OpVadd, frontend.OpVsub, frontend.OpVabsdiff, frontend.OpVmin, frontend.OpVmax),
			Types:    [][]frontend.Type{us32, us32, us32},
			Mods:     []ModGroup{opt(frontend.ModSat)},
			Rule:     nargs(2),
			Operands: "%0, %1, %2",
		},
		&FormRow{
			Ops:      opl(frontend.OpVadd, frontend.OpVsub, frontend.OpVabsdiff, frontend.OpVmin, frontend.OpVmax),
			Types:    [][]frontend.Type{us32, us32, us32},
			Mods:     []ModGroup{opt(frontend.ModSat), need(frontend.ModAdd, frontend.ModMin, frontend.ModMax)},
			Rule:     nargs(3),
			Operands: "%0, %1, %2, %0",
		},
		// slct.dtype.s32 and slct{.ftz}.dtype.f32: d = c >= 0 ? a : b.
		&FormRow{
			Ops:      opl(frontend.OpSlct),
			Types:    [][]frontend.Type{slctTypes, {frontend.S32}},
			Operands: "%0, %0, %0, %1",
		},
		&FormRow{
			Ops:      opl(frontend.OpSlct),
			Types:    [][]frontend.Type{slctTypes, {frontend.F32}},
			Mods:     []ModGroup{opt(frontend.ModFtz)},
			Operands: "%0, %0, %0, %1",
		},
	)
}

// slctTypes are slct's destination types.
var slctTypes = tl(frontend.B16, frontend.B32, frontend.B64, frontend.U16, frontend.U32, frontend.U64, frontend.S16, frontend.S32, frontend.S64, frontend.F32, frontend.F64)

// lop3Rule checks lop3's operands: an immediate lookup table, and a d|p destination with a
// source predicate exactly for the .or and .and forms.
func lop3Rule(pair bool) func(in *ssa.Instr) (bool, string) {
	return func(in *ssa.Instr) (bool, string) {
		want := 4
		if pair {
			want = 5
		}
		if len(in.Args) != want {
			return rejectf("%s takes %d source operands", Spelling(in), want)
		}
		if lut := in.Args[3]; lut.Kind != ssa.ArgImm || lut.Imm > 0xff {
			return rejectf("lop3 immLut must be an integer constant from 0 to 255")
		}
		d := in.Dsts[0]
		switch {
		case pair && d.Kind != ssa.ArgPair:
			return rejectf("lop3.BoolOp needs a d|p destination")
		case !pair && d.Kind == ssa.ArgPair:
			return rejectf("lop3 with a d|p destination needs .or or .and")
		case pair && (d.Elems[0].Kind != ssa.ArgValue || isPredArg(d.Elems[0]) || !isPredArg(d.Elems[1])):
			return reject()
		}
		return true, ""
	}
}
