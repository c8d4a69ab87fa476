package ssa

import (
	"fmt"
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
)

// verify rejects functions that are well formed syntactically but not valid PTX: operands of
// the wrong count or type, modifiers an opcode does not take, a non-.u32 brx.idx index, and
// calls whose arguments or results do not match the callee, the prototype or every listed
// target.
func verify(fn *Function) ErrorList {
	v := &verifier{}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			v.instr(in)
		}
		v.term(fn, &b.Term)
	}
	return v.errs
}

type verifier struct {
	errs ErrorList
}

func (v *verifier) errorf(pos frontend.Pos, format string, args ...any) {
	if len(v.errs) < maxErrors {
		v.errs = append(v.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
}

// addressFirst reports whether some forms of an opcode that has destinations take an address
// as their first operand instead (mbarrier.init, wmma.store, tensormap.replace, ...).
func addressFirst(op frontend.Opcode) bool {
	switch op {
	case frontend.OpMbarrier, frontend.OpTensormap, frontend.OpTcgen05, frontend.OpWmma, frontend.OpWgmma:
		return true
	}
	return false
}

// operandCounts gives the allowed total operand count (destinations included) per opcode.
var operandCounts = map[frontend.Opcode][2]int{
	frontend.OpAdd: {3, 3}, frontend.OpSub: {3, 3}, frontend.OpMul: {3, 3}, frontend.OpDiv: {3, 3},
	frontend.OpRem: {3, 3}, frontend.OpAnd: {3, 3}, frontend.OpOr: {3, 3}, frontend.OpXor: {3, 3},
	frontend.OpShl: {3, 3}, frontend.OpShr: {3, 3}, frontend.OpMin: {3, 3}, frontend.OpMax: {3, 3},
	frontend.OpMul24: {3, 3}, frontend.OpAddc: {3, 3}, frontend.OpSubc: {3, 3}, frontend.OpCopysign: {3, 3},
	frontend.OpMad: {4, 4}, frontend.OpFma: {4, 4}, frontend.OpMad24: {4, 4}, frontend.OpMadc: {4, 4},
	frontend.OpSelp: {4, 4}, frontend.OpBfe: {4, 4}, frontend.OpSlct: {4, 4}, frontend.OpPrmt: {4, 4},
	frontend.OpShf: {4, 4}, frontend.OpSad: {4, 4}, frontend.OpDp4a: {4, 4}, frontend.OpDp2a: {4, 4},
	frontend.OpBfi: {5, 5}, frontend.OpLop3: {5, 6}, frontend.OpSetp: {3, 4}, frontend.OpSet: {3, 4},
	frontend.OpMov: {2, 2}, frontend.OpCvt: {2, 4}, frontend.OpCvta: {2, 2}, frontend.OpAbs: {2, 2},
	frontend.OpNeg: {2, 2}, frontend.OpNot: {2, 2}, frontend.OpCnot: {2, 2}, frontend.OpPopc: {2, 2},
	frontend.OpClz: {2, 2}, frontend.OpBrev: {2, 2}, frontend.OpBfind: {2, 2}, frontend.OpSqrt: {2, 2},
	frontend.OpRsqrt: {2, 2}, frontend.OpRcp: {2, 2}, frontend.OpSin: {2, 2}, frontend.OpCos: {2, 2},
	frontend.OpLg2: {2, 2}, frontend.OpEx2: {2, 2}, frontend.OpTanh: {2, 2}, frontend.OpTestp: {2, 2},
	frontend.OpIsspacep: {2, 2}, frontend.OpLd: {2, 3}, frontend.OpLdu: {2, 2}, frontend.OpSt: {2, 3},
	frontend.OpAtom: {3, 4}, frontend.OpRed: {2, 3}, frontend.OpShfl: {4, 5}, frontend.OpVote: {2, 3},
	frontend.OpActivemask: {1, 1}, frontend.OpMembar: {0, 0}, frontend.OpFence: {0, 2}, frontend.OpBar: {1, 4},
	frontend.OpBarrier: {1, 4},
}

func (v *verifier) instr(in *Instr) {
	n := len(in.Dsts) + len(in.Args)
	if in.Op == frontend.OpBarrier && modsHave(in.Mods, frontend.ModCluster) {
		// barrier.cluster.arrive and barrier.cluster.wait name no barrier and count no threads.
		if n != 0 {
			v.errorf(in.Pos, "barrier.cluster takes no operands, not %d", n)
		}
		return
	}
	if c, ok := operandCounts[in.Op]; ok && (n < c[0] || n > c[1]) {
		want := fmt.Sprint(c[0])
		if c[1] != c[0] {
			want = fmt.Sprintf("%d to %d", c[0], c[1])
		}
		v.errorf(in.Pos, "%s takes %s operands, not %d", in.Op, want, n)
		return
	}
	if in.Op == frontend.OpShfl || in.Op == frontend.OpVote {
		// The .sync forms add a membermask to the pre-Volta ones.
		want, name := operandCounts[in.Op][0], in.Op.String()
		if modsHave(in.Mods, frontend.ModSync) {
			want, name = want+1, name+".sync"
		}
		if n != want {
			v.errorf(in.Pos, "%s takes %d operands, not %d", name, want, n)
			return
		}
	}
	if in.Op == frontend.OpFence && n != fenceOperands(in) {
		v.errorf(in.Pos, "fence takes 2 operands ([addr], size) only as fence.proxy.tensormap::generic.acquire, else none; this one has %d", n)
		return
	}
	if in.Op == frontend.OpFence && n == 2 && (in.Args[0].Kind != ArgAddr || in.Args[1].Kind != ArgImm || in.Args[1].Imm != 128) {
		v.errorf(in.Pos, "fence.proxy.tensormap::generic.acquire takes an address and the size 128: [addr], 128")
		return
	}
	if in.Op == frontend.OpCvt && n > 2 && !modsHave(in.Mods, cvtPackMod) && (n > 3 || !packsPair(in)) {
		v.errorf(in.Pos, "cvt takes 3 operands only to pack a pair (.f16x2, .bf16x2, .e4m3x2, .e5m2x2, .e2m1x2, .e2m3x2, .e3m2x2, .ue8m0x2), 3 or 4 only as cvt.pack")
		return
	}
	if len(in.Dsts) == 0 && len(in.Args) > 0 && in.Args[0].Kind == ArgAddr && hasDestination(in.Op, in.Mods) && !addressFirst(in.Op) {
		v.errorf(in.Pos, "%s writes its first operand, which must be a register, not an address", in.Op)
		return
	}
	v.mods(in)
	if in.Guard != nil && in.Guard.Reg.Type != frontend.Pred {
		v.errorf(in.Pos, "guard %s is a %s register, not .pred", in.Guard.Reg.Name, in.Guard.Reg.Type)
	}
	var dbuf, sbuf [5]frontend.Type
	dsts, srcs, relaxed := operandTypes(in, dbuf[:0], sbuf[:0])
	for i := range in.Dsts {
		if i < len(dsts) {
			v.operandType(in, &in.Dsts[i], dsts[i], relaxed)
		}
	}
	for i := range in.Args {
		if i < len(srcs) {
			v.operandType(in, &in.Args[i], srcs[i], relaxed)
		}
		if in.Args[i].Kind == ArgAddr && in.Args[i].Value != nil {
			if r := in.Args[i].Value.Reg; r.Type.Bits() != 32 && r.Type.Bits() != 64 || r.Type.IsFloat() || r.Type == frontend.Pred {
				v.errorf(in.Args[i].Pos, "address register %s must be a 32- or 64-bit integer register, not %s", r.Name, r.Type)
			}
		}
	}
}

// mods rejects modifiers of a kind the opcode does not take.
func (v *verifier) mods(in *Instr) {
	for _, m := range in.Mods {
		ok := true
		switch m.Kind() {
		case frontend.ModKindRounding:
			ok = takesRounding(in.Op)
		case frontend.ModKindCompare:
			ok = in.Op == frontend.OpSetp || in.Op == frontend.OpSet ||
				(m == frontend.ModHi || m == frontend.ModLo) && takesHiLo(in.Op)
		case frontend.ModKindSpace:
			ok = takesSpace(in.Op)
		case frontend.ModKindVector:
			ok = takesVector(in.Op)
		}
		if m == frontend.ModUni && in.Op != frontend.OpVote { // vote.sync.uni is a vote mode
			ok = false
		}
		if !ok {
			v.errorf(in.Pos, "%s does not take the modifier %s", in.Op, m)
		}
	}
}

// packsPair reports whether in is a cvt to a packed pair type, the only cvt with two sources.
func packsPair(in *Instr) bool {
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			switch t {
			case frontend.F16x2, frontend.BF16x2, frontend.E4M3x2, frontend.E5M2x2, frontend.E2M1x2,
				frontend.E2M3x2, frontend.E3M2x2, frontend.UE8M0x2:
				return true
			}
			return false
		}
	}
	return false
}

func takesRounding(op frontend.Opcode) bool {
	switch op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpMad, frontend.OpFma, frontend.OpDiv,
		frontend.OpSqrt, frontend.OpRcp, frontend.OpCvt,
		frontend.OpMma, frontend.OpWmma: // the .f64 forms' .rn, .rz, .rm, .rp
		return true
	}
	return false
}

func takesHiLo(op frontend.Opcode) bool {
	switch op {
	case frontend.OpMul, frontend.OpMad, frontend.OpMul24, frontend.OpMad24, frontend.OpMadc, frontend.OpDp2a:
		return true
	}
	return false
}

func takesSpace(op frontend.Opcode) bool {
	switch op {
	case frontend.OpLd, frontend.OpLdu, frontend.OpSt, frontend.OpAtom, frontend.OpRed, frontend.OpCvta,
		frontend.OpIsspacep, frontend.OpPrefetch, frontend.OpPrefetchu, frontend.OpCp, frontend.OpMbarrier,
		frontend.OpLdmatrix, frontend.OpStmatrix, frontend.OpMapa, frontend.OpWmma, frontend.OpAlloca,
		frontend.OpApplypriority, frontend.OpDiscard, frontend.OpCreatepolicy, frontend.OpMultimem, frontend.OpFence,
		frontend.OpGetctarank, frontend.OpSuld, frontend.OpSust, frontend.OpSured, frontend.OpTensormap:
		return true
	}
	return false
}

func takesVector(op frontend.Opcode) bool {
	switch op {
	case frontend.OpLd, frontend.OpLdu, frontend.OpSt, frontend.OpAtom, frontend.OpRed, frontend.OpTex,
		frontend.OpTld4, frontend.OpSuld, frontend.OpSust, frontend.OpMultimem, frontend.OpCp, frontend.OpMov:
		return true
	}
	return false
}

// textureOp reports whether op is a texture or surface instruction or istypeof.
func textureOp(op frontend.Opcode) bool {
	switch op {
	case frontend.OpTex, frontend.OpTld4, frontend.OpTxq, frontend.OpSuld, frontend.OpSust, frontend.OpSured,
		frontend.OpSuq, frontend.OpIstypeof:
		return true
	}
	return false
}

// modCacheHint is `.L2::cache_hint`, whose instructions take a 64-bit cache-policy operand last.
var modCacheHint, _ = frontend.LookupMod(".L2::cache_hint")

// operandTypes returns the type each destination and source operand must have (TypeNone: not
// checked) and whether data operands may be wider than the type, as ld, st and cvt allow. The
// lists are appended to dsts and srcs, which callers pass empty with room for five types.
func operandTypes(in *Instr, dsts, srcs []frontend.Type) ([]frontend.Type, []frontend.Type, bool) {
	var first, last frontend.Type
	n := 0
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			if n == 0 {
				first = t
			}
			last = t
			n++
		}
	}
	if n == 0 || textureOp(in.Op) {
		// The texture and surface instructions' operands are checked with their forms
		// (codegen/layout.Texture): their types depend on the geometry.
		return dsts, srcs, false
	}
	t := last
	u32, pred := frontend.U32, frontend.Pred
	if n == 2 && first == frontend.F32 && (last == frontend.F16 || last == frontend.BF16) {
		// Mixed precision: add.f32.f16 d, a, c and fma.rn.f32.f16 d, a, b, c.
		switch in.Op {
		case frontend.OpAdd, frontend.OpSub:
			return append(dsts, first), append(srcs, last, first), false
		case frontend.OpFma:
			return append(dsts, first), append(srcs, last, last, first), false
		}
	}
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpDiv, frontend.OpRem, frontend.OpAnd, frontend.OpOr,
		frontend.OpXor, frontend.OpMin, frontend.OpMax, frontend.OpCopysign, frontend.OpAddc, frontend.OpSubc:
		return append(dsts, t), appendN(srcs, 2, t), false
	case frontend.OpMul, frontend.OpMad:
		if wide(in.Mods) {
			w := doubleWidth(t)
			if in.Op == frontend.OpMad {
				return append(dsts, w), append(srcs, t, t, w), false
			}
			return append(dsts, w), appendN(srcs, 2, t), false
		}
		return append(dsts, t), appendN(srcs, arity(in.Op), t), false
	case frontend.OpFma, frontend.OpNeg, frontend.OpAbs, frontend.OpNot, frontend.OpSqrt, frontend.OpRsqrt,
		frontend.OpRcp, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2, frontend.OpTanh,
		frontend.OpBrev, frontend.OpMov:
		return append(dsts, t), appendN(srcs, arity(in.Op), t), false
	case frontend.OpShl, frontend.OpShr:
		return append(dsts, t), append(srcs, t, u32), false
	case frontend.OpPopc, frontend.OpClz, frontend.OpBfind:
		return append(dsts, u32), append(srcs, t), false
	case frontend.OpSetp:
		return append(dsts, pred, pred), append(srcs, t, t, pred), false
	case frontend.OpSelp:
		return append(dsts, t), append(srcs, t, t, pred), false
	case frontend.OpTestp:
		return append(dsts, pred), append(srcs, t), false
	case frontend.OpCvt:
		switch {
		case modsHave(in.Mods, cvtPackMod):
			// cvt.pack.sat.u16.s32 d, a, b and cvt.pack.sat.u8.s32.b32 d, a, b, c.
			return append(dsts, frontend.B32), append(srcs, frontend.S32, frontend.S32, frontend.B32), false
		case n == 2 && len(in.Args) == 2:
			// cvt.rn.f16x2.f32 d, a, b.
			return append(dsts, first), appendN(srcs, 2, last), false
		case n == 2:
			return append(dsts, first), append(srcs, last), true
		}
	case frontend.OpCvta:
		return append(dsts, t), append(srcs, t), false
	case frontend.OpLd, frontend.OpLdu:
		return append(dsts, t), srcs, true
	case frontend.OpSt:
		return dsts, append(srcs, frontend.TypeNone, t), true
	case frontend.OpAtom:
		if slices.Contains(in.Mods, modCacheHint) {
			// atom.op.L2::cache_hint.type d, [a], b, cache-policy
			return append(dsts, t), append(srcs, frontend.TypeNone, t, frontend.B64), false
		}
		return append(dsts, t), append(srcs, frontend.TypeNone, t, t), false
	case frontend.OpRed:
		return dsts, append(srcs, frontend.TypeNone, t), false
	case frontend.OpBfe:
		return append(dsts, t), append(srcs, t, u32, u32), false
	case frontend.OpBfi:
		return append(dsts, t), append(srcs, t, t, u32, u32), false
	case frontend.OpPrmt, frontend.OpShf:
		return append(dsts, frontend.B32), append(srcs, frontend.B32, frontend.B32, frontend.B32), false
	}
	return dsts, srcs, false
}

// appendN appends n copies of t to ts.
func appendN(ts []frontend.Type, n int, t frontend.Type) []frontend.Type {
	for range n {
		ts = append(ts, t)
	}
	return ts
}

// cvtPackMod is cvt's .pack modifier.
var cvtPackMod, _ = frontend.LookupMod(".pack")

// modMmaAsync is wgmma.mma_async's, the one wgmma form with a destination.
var modMmaAsync, _ = frontend.LookupMod(".mma_async")

// The modifiers of fence.proxy.tensormap::generic, whose .acquire form names the tensor map it
// orders ([addr], 128) and whose .release form takes no operand.
var (
	modTensormapGeneric, _ = frontend.LookupMod(".tensormap::generic")
)

// fenceOperands is the operand count of a fence or membar form: 2 for
// fence.proxy.tensormap::generic.acquire.scope [addr], size, else 0.
func fenceOperands(in *Instr) int {
	if modsHave(in.Mods, modTensormapGeneric) && modsHave(in.Mods, frontend.ModAcquire) {
		return 2
	}
	return 0
}

// modsHave reports whether mods contains m.
func modsHave(mods []frontend.Mod, m frontend.Mod) bool {
	for _, x := range mods {
		if x == m {
			return true
		}
	}
	return false
}

func wide(mods []frontend.Mod) bool {
	for _, m := range mods {
		if m == frontend.ModWide {
			return true
		}
	}
	return false
}

// doubleWidth returns the integer type twice as wide as t, for mul.wide and mad.wide.
func doubleWidth(t frontend.Type) frontend.Type {
	switch t {
	case frontend.U16:
		return frontend.U32
	case frontend.U32:
		return frontend.U64
	case frontend.S16:
		return frontend.S32
	case frontend.S32:
		return frontend.S64
	}
	return frontend.TypeNone
}

// operandType checks a register operand (or each register of a vector or pair) against want.
func (v *verifier) operandType(in *Instr, a *Arg, want frontend.Type, relaxed bool) {
	switch a.Kind {
	case ArgVector, ArgPair:
		if in.Op == frontend.OpMov && a.Kind == ArgVector && want != frontend.TypeNone && !vectorMod(in.Mods) {
			// mov packs or unpacks: `mov.b64 {lo, hi}, %rd1` splits the width among the elements.
			want = bitsType(want.Bits() / len(a.Elems))
		}
		for i := range a.Elems {
			v.operandType(in, &a.Elems[i], want, relaxed)
		}
	case ArgValue:
		r := a.Value.Reg
		if a.Not && r.Type != frontend.Pred {
			v.errorf(a.Pos, "!%s negates a %s register; only predicates can be negated", r.Name, r.Type)
			return
		}
		if !compatible(r.Type, want, relaxed) {
			v.errorf(a.Pos, "register %s has type %s, which %s%s cannot use as %s", r.Name, r.Type, in.Op, modSuffix(in.Mods), want)
		}
	}
}

func modSuffix(mods []frontend.Mod) string {
	s := ""
	for _, m := range mods {
		s += m.String()
	}
	return s
}

// compatible applies PTX's operand type rules: bit-size types match any type of their size,
// signed and unsigned integers of one size are interchangeable, floats match floats of their
// type and bit-size registers, and (relaxed) ld/st/cvt data registers may be wider.
func compatible(reg, want frontend.Type, relaxed bool) bool {
	if want == frontend.TypeNone || reg == want {
		return true
	}
	if reg == frontend.Pred || want == frontend.Pred {
		return false
	}
	rb, wb := reg.Bits(), want.Bits()
	sizeOK := rb == wb || relaxed && rb > wb && !reg.IsFloat()
	switch {
	case want.IsBits():
		return sizeOK
	case want.IsInteger(), want.IsPackedInt():
		return (reg.IsInteger() || reg.IsBits()) && sizeOK
	case want == frontend.F16x2 || want == frontend.BF16x2 || want == frontend.F16 || want == frontend.BF16:
		return reg.IsBits() && sizeOK
	case want.IsFloat():
		return reg.IsBits() && sizeOK
	}
	return false
}

func (v *verifier) term(fn *Function, t *Terminator) {
	switch t.Kind {
	case TermBranch:
		if t.Cond.Reg.Type != frontend.Pred {
			v.errorf(t.Pos, "branch condition %s is a %s register, not .pred", t.Cond.Reg.Name, t.Cond.Reg.Type)
		}
	case TermBrx:
		if ty := t.Index.Reg.Type; ty != frontend.U32 && ty != frontend.B32 {
			v.errorf(t.Pos, "brx.idx index %s must be a .u32 register, not %s", t.Index.Reg.Name, ty)
		}
	case TermCall:
		v.call(fn, t)
	}
}

// call checks a call's arguments and results against every signature it may reach.
func (v *verifier) call(fn *Function, t *Terminator) {
	c := t.Call
	if c.Guard != nil && c.Guard.Reg.Type != frontend.Pred {
		v.errorf(t.Pos, "guard %s is a %s register, not .pred", c.Guard.Reg.Name, c.Guard.Reg.Type)
	}
	if c.Target != nil {
		if bits := c.Target.Reg.Type.Bits(); bits != 32 && bits != 64 {
			v.errorf(t.Pos, "call target %s must be a 32- or 64-bit register holding a function address", c.Target.Reg.Name)
		}
	}
	check := func(what string, sig Signature) bool {
		if msg := matchCall(c, sig); msg != "" {
			v.errorf(t.Pos, "call does not match %s: %s", what, msg)
			return false
		}
		return true
	}
	switch {
	case c.Direct != nil:
		if c.Direct.Kind == frontend.Entry {
			v.errorf(t.Pos, "%s is a kernel (.entry) and cannot be called", c.Direct.Name)
			return
		}
		check("the signature of "+c.Direct.Name, c.Direct.Sig)
	case c.Proto != nil:
		check("prototype "+c.ListName, *c.Proto)
	default:
		for _, f := range c.Targets {
			if !check("the signature of "+f.Name+" in "+c.ListName, f.Sig) {
				return
			}
		}
	}
}

// matchCall compares a call's argument and result shapes with a signature, describing the first
// mismatch, or returns "".
func matchCall(c *Call, sig Signature) string {
	if len(c.Args) != len(sig.Params) {
		return fmt.Sprintf("%d arguments given, %d expected", len(c.Args), len(sig.Params))
	}
	if len(c.Results) != len(sig.Results) {
		return fmt.Sprintf("%d return values given, %d expected", len(c.Results), len(sig.Results))
	}
	for i := range c.Args {
		if msg := matchSlot(&c.Args[i], sig.Params[i], false); msg != "" {
			return fmt.Sprintf("argument %d %s", i+1, msg)
		}
	}
	for i := range c.Results {
		if msg := matchSlot(&c.Results[i], sig.Results[i], true); msg != "" {
			return fmt.Sprintf("return value %d %s", i+1, msg)
		}
	}
	return ""
}

// matchSlot checks one argument, or return value when result is set, against its parameter.
func matchSlot(a *Arg, want ParamType, result bool) string {
	if vec := want.Space == frontend.SpaceReg && want.Vector > 0; vec || a.Kind == ArgVector {
		return matchVector(a, want, result)
	}
	pred := want.Space == frontend.SpaceReg && want.Type == frontend.Pred
	if pred && (a.Kind != ArgValue || a.Value.Reg.Type != frontend.Pred) {
		return "must be a .pred register, as the parameter is .reg .pred"
	}
	var size int64
	switch a.Kind {
	case ArgSym:
		if a.Var == nil || a.Var.Space != frontend.SpaceParam {
			return "must be a .param variable or a register"
		}
		if a.Offset < 0 || a.Offset >= a.Var.Size {
			return fmt.Sprintf("starts at offset %d, outside the %d bytes of %s", a.Offset, a.Var.Size, a.Var.Name)
		}
		size = a.Var.Size - a.Offset
	case ArgValue:
		if a.Not {
			return "cannot be negated"
		}
		if !pred && a.Value.Reg.Type == frontend.Pred {
			return "is a .pred register, the parameter is not .reg .pred"
		}
		size = int64(a.Value.Reg.Type.Bytes())
	case ArgImm, ArgFloat:
		return ""
	default:
		return "must be a .param variable, a register or an immediate"
	}
	if size != want.Size {
		return fmt.Sprintf("has %d bytes, the parameter has %d", size, want.Size)
	}
	return ""
}

// matchVector checks a vector argument or return value against a .reg .v2/.v4 parameter, element
// by element: each element is passed in a register of its own.
func matchVector(a *Arg, want ParamType, result bool) string {
	n := want.Vector
	switch {
	case want.Space != frontend.SpaceReg || n == 0:
		return "is a vector, the parameter is not a .reg vector"
	case a.Kind != ArgVector:
		return fmt.Sprintf("must be a vector of %d registers, as the parameter is .reg .v%d", n, n)
	case len(a.Elems) != n:
		return fmt.Sprintf("has %d elements, the parameter has %d", len(a.Elems), n)
	}
	elem := ParamType{Space: frontend.SpaceReg, Type: want.Type, Size: int64(want.Type.Bytes())}
	for i := range a.Elems {
		e := &a.Elems[i]
		switch {
		case e.Kind == ArgValue:
		case result:
			return fmt.Sprintf("element %d must be a register", i+1)
		case e.Kind != ArgImm && e.Kind != ArgFloat:
			return fmt.Sprintf("element %d must be a register or an immediate", i+1)
		}
		if msg := matchSlot(e, elem, result); msg != "" {
			return fmt.Sprintf("element %d %s", i+1, msg)
		}
	}
	return ""
}

// arity is the number of source operands of the unary and ternary opcodes operandTypes checks
// by shape; 2 for the rest.
func arity(op frontend.Opcode) int {
	switch op {
	case frontend.OpNeg, frontend.OpAbs, frontend.OpNot, frontend.OpSqrt, frontend.OpRsqrt, frontend.OpRcp,
		frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2, frontend.OpTanh, frontend.OpBrev, frontend.OpMov:
		return 1
	case frontend.OpFma, frontend.OpMad:
		return 3
	}
	return 2
}

// bitsType returns the .bN type of n bits, or TypeNone when there is none.
func bitsType(n int) frontend.Type {
	switch n {
	case 8:
		return frontend.B8
	case 16:
		return frontend.B16
	case 32:
		return frontend.B32
	case 64:
		return frontend.B64
	case 128:
		return frontend.B128
	}
	return frontend.TypeNone
}

func vectorMod(mods []frontend.Mod) bool {
	for _, m := range mods {
		if m.Kind() == frontend.ModKindVector {
			return true
		}
	}
	return false
}
