package closure

import (
	"encoding/binary"

	"github.com/ptx2go/ptx2go/frontend"
)

// The code of a per-lane form. Each SSA block of the function becomes a run of laneOps ended
// by one terminator op, all in one slice, and laneFn.run interprets them with one switch.
// The common scalar instructions have ops of their own (moves, 32-bit and 64-bit adds, 32-bit
// logic and shifts, 32-bit comparisons, 4- and 8-byte .param accesses) that the switch runs
// in place, without the indirect call of a closure; a guard is an op that skips the next.
// The block's last 32-bit comparison into the predicate its branch reads becomes one op with
// the branch where the ops after it let it move there (fuseBranch). Every other instruction
// keeps its closure (laneClosure).

// laneCode is what a laneOp does.
type laneCode uint8

const (
	laneNone        laneCode = iota // no scalar form (only while compiling)
	laneClosure                     // fn(x)
	laneGuard                       // skip the next op unless p[a] != neg
	laneMov                         // r[d] = r[a]
	laneMovImm                      // r[d] = imm
	laneAdd32                       // r[d] = uint32(r[a]) + uint32(r[b])
	laneAdd32Imm                    // r[d] = uint32(r[a]) + uint32(imm)
	laneSub32                       // r[d] = uint32(r[a]) - uint32(r[b])
	laneAnd32                       // r[d] = uint32(r[a]) & uint32(r[b])
	laneAnd32Imm                    // r[d] = uint32(r[a]) & uint32(imm)
	laneOr32                        // r[d] = uint32(r[a]) | uint32(r[b])
	laneOr32Imm                     // r[d] = uint32(r[a]) | uint32(imm)
	laneXor32                       // r[d] = uint32(r[a]) ^ uint32(r[b])
	laneXor32Imm                    // r[d] = uint32(r[a]) ^ uint32(imm)
	laneShl32Imm                    // r[d] = uint32(r[a]) << imm
	laneShr32Imm                    // r[d] = uint32(r[a]) >> imm
	laneAdd64                       // r[d] = r[a] + r[b]
	laneAdd64Imm                    // r[d] = r[a] + imm
	laneSub64                       // r[d] = r[a] - r[b]
	laneLdParam32                   // r[d] = the 4 .param bytes at a
	laneLdParam64                   // r[d] = the 8 .param bytes at a
	laneStParam32                   // the 4 .param bytes at d = uint32(r[a])
	laneStParam64                   // the 8 .param bytes at d = r[a]
	laneSetpLt32                    // p[d] = (uint32(r[a])^k < uint32(r[b])^k) != neg, k = ks<<24
	laneSetpLt32Imm                 // p[d] = (uint32(r[a])^k < uint32(imm)) != neg, imm already flipped by k
	laneSetpLe32                    // as laneSetpLt32 with <=
	laneSetpLe32Imm                 // as laneSetpLt32Imm with <=
	laneSetpEq32                    // p[d] = (uint32(r[a]) == uint32(r[b])) != neg
	laneSetpEq32Imm                 // p[d] = (uint32(r[a]) == uint32(imm)) != neg
	laneBrLt32                      // laneSetpLt32, then on to succ if p[d], else alt (a block's end)
	laneBrLt32Imm                   // laneSetpLt32Imm, then the branch
	laneBrLe32                      // laneSetpLe32, then the branch
	laneBrLe32Imm                   // laneSetpLe32Imm, then the branch
	laneBrEq32                      // laneSetpEq32, then the branch
	laneBrEq32Imm                   // laneSetpEq32Imm, then the branch
	laneJump                        // on to succ (a block's end)
	laneBranch                      // on to succ if p[a], else alt (a block's end)
	laneCall                        // the call of site, then on to succ (a block's end)
	laneRet                         // the form returns (a block's end)
	laneExit                        // the form returns (the function's exit, which is no block)
	laneFault                       // an instruction of the block faults: the stack must run the call
)

// laneOp is one op of a per-lane form: register and predicate slots d, a, b, or .param
// offsets for the .param ops, all below laneSlots, so that the ops index the frame's arrays
// without bounds checks; an immediate (for a call, the index of its site); for the
// comparisons the top byte ks of the sign mask that turns a signed comparison into an
// unsigned one, and neg, which negates the result; for the ends of blocks the indices of the
// ops they go on to.
type laneOp struct {
	code      laneCode
	neg       bool
	d, a, b   uint8
	ks        uint8
	succ, alt int32
	imm       uint64
	fn        laneInstr
}

// laneSlots bounds the registers, predicates and .param bytes of a function with a per-lane
// form: its ops' slots are bytes. A function with more keeps the SIMT stack (setPerLane).
const laneSlots = 256

// laneRegs, lanePreds and laneParams are a frame's registers, predicates and .param area as
// the ops see them: laneSlots of each, the .param area with room for an 8-byte access at
// its last offset.
type (
	laneRegs   = [laneSlots]uint64
	lanePreds  = [laneSlots]bool
	laneParams = [laneSlots + 8]byte
)

// closureOp is the op that runs fn, or laneNone for no fn.
func closureOp(fn laneInstr) laneOp {
	if fn == nil {
		return laneOp{}
	}
	return laneOp{code: laneClosure, fn: fn}
}

// regOp is an op on the registers d, a and b.
func regOp(code laneCode, d, a, b int) laneOp {
	return laneOp{code: code, d: uint8(d), a: uint8(a), b: uint8(b)}
}

// immOp is an op on the registers d and a and the immediate v.
func immOp(code laneCode, d, a int, v uint64) laneOp {
	return laneOp{code: code, d: uint8(d), a: uint8(a), imm: v}
}

// intForm is an integer operation on n-bit operands, the second an immediate where imm is set.
type intForm struct {
	n   int
	op  intOp
	imm bool
}

// intFastCodes are the ops of a 32-bit add, sub, and, or, xor, shl or shr (logical), or a
// 64-bit add or sub; the other forms have none. A subtraction of an immediate adds its
// negation, the same bits modulo the width; the shifts have ops only for an immediate count.
var intFastCodes = map[intForm]laneCode{
	{32, opAdd, false}: laneAdd32, {32, opSub, false}: laneSub32, {32, opAnd, false}: laneAnd32,
	{32, opOr, false}: laneOr32, {32, opXor, false}: laneXor32, {64, opAdd, false}: laneAdd64,
	{64, opSub, false}: laneSub64,
	{32, opAdd, true}:  laneAdd32Imm, {32, opSub, true}: laneAdd32Imm, {32, opAnd, true}: laneAnd32Imm,
	{32, opOr, true}: laneOr32Imm, {32, opXor, true}: laneXor32Imm, {32, opShl, true}: laneShl32Imm,
	{32, opShr, true}: laneShr32Imm, {64, opAdd, true}: laneAdd64Imm, {64, opSub, true}: laneAdd64Imm,
}

// setpFastOp is the op of a setp of 32-bit integer operands a and b (or the immediate v when
// imm is set) into predicate p with comparison cmp; laneNone where the type or comparison has
// none (floating point, other widths). Signed orders compare with the sign bit flipped; gt,
// ge and ne are le, lt and eq negated.
func setpFastOp(t frontend.Type, cmp frontend.Mod, p, a, b int, v uint64, imm bool) laneOp {
	var code laneCode
	var neg bool
	switch cmp {
	case frontend.ModEq, frontend.ModNe:
		code, neg = laneSetpEq32, cmp == frontend.ModNe
	case frontend.ModLt, frontend.ModLo:
		code = laneSetpLt32
	case frontend.ModLe, frontend.ModLs:
		code = laneSetpLe32
	case frontend.ModGt, frontend.ModHi:
		code, neg = laneSetpLe32, true
	case frontend.ModGe, frontend.ModHs:
		code, neg = laneSetpLt32, true
	default:
		return laneOp{}
	}
	signedOrder := cmp == frontend.ModLt || cmp == frontend.ModLe || cmp == frontend.ModGt || cmp == frontend.ModGe
	var ks uint8
	switch {
	case t == frontend.B32 && code == laneSetpEq32, t == frontend.U32:
	case t == frontend.S32 && code == laneSetpEq32:
	case t == frontend.S32 && signedOrder:
		ks = 0x80
	default:
		return laneOp{}
	}
	op := laneOp{code: code, neg: neg, ks: ks, d: uint8(p), a: uint8(a), b: uint8(b)}
	if imm {
		op.code++
		op.imm = uint64(uint32(v) ^ uint32(ks)<<24)
	}
	return op
}

// setpBranch maps each comparison op to the op that also ends the block with its branch.
var setpBranch = map[laneCode]laneCode{
	laneSetpLt32: laneBrLt32, laneSetpLt32Imm: laneBrLt32Imm,
	laneSetpLe32: laneBrLe32, laneSetpLe32Imm: laneBrLe32Imm,
	laneSetpEq32: laneBrEq32, laneSetpEq32Imm: laneBrEq32Imm,
}

// regWritten is the register an op writes (-1 for none), and known whether the op only
// writes that register or .param bytes and reads no predicate: closures, guards and
// comparisons do not.
func (c *laneOp) regWritten() (reg int, known bool) {
	switch c.code {
	case laneClosure, laneGuard:
		return -1, false
	case laneStParam32, laneStParam64:
		return -1, true
	}
	if _, ok := setpBranch[c.code]; ok {
		return -1, false
	}
	return int(c.d), true
}

// readsReg reports whether comparison op c reads register reg.
func (c *laneOp) readsReg(reg int) bool {
	switch c.code {
	case laneSetpLt32Imm, laneSetpLe32Imm, laneSetpEq32Imm:
		return int(c.a) == reg
	}
	return int(c.a) == reg || int(c.b) == reg
}

// fuseBranch ends a block whose code is ops with its branch on predicate p (to succ where p
// holds, else alt). Where the block's last comparison into p has no guard and only ops of a
// known effect after it, none of which writes its operands (and none of which can read p),
// the comparison moves to the end and becomes one op with the branch; otherwise the block
// ends with a plain branch.
func fuseBranch(ops []laneOp, p int, succ, alt int32) []laneOp {
	for i := len(ops) - 1; i >= 0; i-- {
		c := ops[i]
		if code, ok := setpBranch[c.code]; ok && int(c.d) == p {
			if i > 0 && ops[i-1].code == laneGuard {
				break
			}
			for _, later := range ops[i+1:] {
				if w, _ := later.regWritten(); w >= 0 && c.readsReg(w) {
					return append(ops, laneOp{code: laneBranch, a: uint8(p), succ: succ, alt: alt})
				}
			}
			c.code, c.succ, c.alt = code, succ, alt
			return append(append(ops[:i:i], ops[i+1:]...), c)
		}
		if _, known := c.regWritten(); !known {
			break
		}
	}
	return append(ops, laneOp{code: laneBranch, a: uint8(p), succ: succ, alt: alt})
}

// run runs the form in frame x to its ret, and reports whether it got there within the run's
// blocks and call depth, with no fault on the way.
func (lf *laneFn) run(run *laneRun, x *laneFrame) bool {
	code := lf.code
	r, p, param := (*laneRegs)(x.r[:laneSlots]), (*lanePreds)(x.p[:laneSlots]), (*laneParams)(x.param[:len(laneParams{})])
	pc := int32(0)
	for {
		c := &code[pc]
		pc++
		switch c.code {
		case laneClosure:
			c.fn(x)
		case laneGuard:
			if p[c.a] == c.neg {
				pc++
			}
		case laneMov:
			r[c.d] = r[c.a]
		case laneMovImm:
			r[c.d] = c.imm
		case laneAdd32:
			r[c.d] = uint64(uint32(r[c.a]) + uint32(r[c.b]))
		case laneAdd32Imm:
			r[c.d] = uint64(uint32(r[c.a]) + uint32(c.imm))
		case laneSub32:
			r[c.d] = uint64(uint32(r[c.a]) - uint32(r[c.b]))
		case laneAnd32:
			r[c.d] = uint64(uint32(r[c.a]) & uint32(r[c.b]))
		case laneAnd32Imm:
			r[c.d] = uint64(uint32(r[c.a]) & uint32(c.imm))
		case laneOr32:
			r[c.d] = uint64(uint32(r[c.a]) | uint32(r[c.b]))
		case laneOr32Imm:
			r[c.d] = uint64(uint32(r[c.a]) | uint32(c.imm))
		case laneXor32:
			r[c.d] = uint64(uint32(r[c.a]) ^ uint32(r[c.b]))
		case laneXor32Imm:
			r[c.d] = uint64(uint32(r[c.a]) ^ uint32(c.imm))
		case laneShl32Imm:
			r[c.d] = uint64(uint32(r[c.a]) << uint32(c.imm))
		case laneShr32Imm:
			r[c.d] = uint64(uint32(r[c.a]) >> uint32(c.imm))
		case laneAdd64:
			r[c.d] = r[c.a] + r[c.b]
		case laneAdd64Imm:
			r[c.d] = r[c.a] + c.imm
		case laneSub64:
			r[c.d] = r[c.a] - r[c.b]
		case laneLdParam32:
			r[c.d] = uint64(binary.LittleEndian.Uint32(param[c.a:]))
		case laneLdParam64:
			r[c.d] = binary.LittleEndian.Uint64(param[c.a:])
		case laneStParam32:
			binary.LittleEndian.PutUint32(param[c.d:], uint32(r[c.a]))
		case laneStParam64:
			binary.LittleEndian.PutUint64(param[c.d:], r[c.a])
		case laneSetpLt32:
			k := uint32(c.ks) << 24
			p[c.d] = uint32(r[c.a])^k < uint32(r[c.b])^k != c.neg
		case laneSetpLt32Imm:
			k := uint32(c.ks) << 24
			p[c.d] = uint32(r[c.a])^k < uint32(c.imm) != c.neg
		case laneSetpLe32:
			k := uint32(c.ks) << 24
			p[c.d] = uint32(r[c.a])^k <= uint32(r[c.b])^k != c.neg
		case laneSetpLe32Imm:
			k := uint32(c.ks) << 24
			p[c.d] = uint32(r[c.a])^k <= uint32(c.imm) != c.neg
		case laneSetpEq32:
			p[c.d] = uint32(r[c.a]) == uint32(r[c.b]) != c.neg
		case laneSetpEq32Imm:
			p[c.d] = uint32(r[c.a]) == uint32(c.imm) != c.neg
		case laneBrLt32:
			k := uint32(c.ks) << 24
			pc = c.branch(p, uint32(r[c.a])^k < uint32(r[c.b])^k)
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneBrLt32Imm:
			pc = c.branch(p, uint32(r[c.a])^uint32(c.ks)<<24 < uint32(c.imm))
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneBrLe32:
			k := uint32(c.ks) << 24
			pc = c.branch(p, uint32(r[c.a])^k <= uint32(r[c.b])^k)
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneBrLe32Imm:
			pc = c.branch(p, uint32(r[c.a])^uint32(c.ks)<<24 <= uint32(c.imm))
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneBrEq32:
			pc = c.branch(p, uint32(r[c.a]) == uint32(r[c.b]))
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneBrEq32Imm:
			pc = c.branch(p, uint32(r[c.a]) == uint32(c.imm))
			if run.blocks--; run.blocks < 0 {
				return false
			}
		case laneJump:
			if run.blocks--; run.blocks < 0 {
				return false
			}
			pc = c.succ
		case laneBranch:
			if run.blocks--; run.blocks < 0 {
				return false
			}
			if p[c.a] {
				pc = c.succ
			} else {
				pc = c.alt
			}
		case laneCall:
			if run.blocks--; run.blocks < 0 || !lf.sites[c.imm].call(run, x) {
				return false
			}
			pc = c.succ
		case laneRet:
			run.blocks--
			return run.blocks >= 0
		case laneExit:
			return true
		default:
			return false
		}
	}
}

// branch ends a block with fused comparison c whose result, before neg, is holds: it sets
// the predicate and returns the index of the op to go on to.
func (c *laneOp) branch(p *lanePreds, holds bool) int32 {
	holds = holds != c.neg
	p[c.d] = holds
	if holds {
		return c.succ
	}
	return c.alt
}
