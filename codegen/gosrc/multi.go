package gosrc

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Lane-local instructions with more than one register result, lowered as codegen/closure
// does: mov unpacking a wide value into element registers ({lo, hi}), mov.v2/.v4 between
// register vectors, mov.b128 (b128.go), and the carry chain (add.cc, sub.cc, addc, subc, mad.cc, madc), whose
// condition-code flag CC.CF lives in one hidden per-lane register slot of the function.

// carryForm reports whether the instruction reads or writes CC.CF.
func carryForm(in *ssa.Instr) bool {
	switch in.Op {
	case frontend.OpAddc, frontend.OpSubc, frontend.OpMadc:
		return true
	case frontend.OpAdd, frontend.OpSub, frontend.OpMad:
		return has(in, frontend.ModCc)
	}
	return false
}

// multiDst reports whether laneMulti lowers the instruction.
func multiDst(in *ssa.Instr) bool {
	return in.Op == frontend.OpMov && (firstDst(in).Kind == ssa.ArgVector || layout.InstrType(in) == frontend.B128) || carryForm(in) ||
		in.Op == frontend.OpLop3 && firstDst(in).Kind == ssa.ArgPair
}

// carrySlot is the register slot holding CC.CF of every lane.
func (f *fnGen) carrySlot() int {
	if f.carry == 0 {
		f.carry = f.Scratch() + 1
	}
	return f.carry - 1
}

// laneMulti returns the statements of one lane of the instruction, which write the register
// file directly, and the slots they write; nil for a destination it cannot write.
func (e *blockEmit) laneMulti(in *ssa.Instr, c ctx) ([]jen.Code, []int) {
	if len(in.Dsts) != 1 {
		return nil, nil
	}
	if carryForm(in) {
		return e.carry(in, c)
	}
	if layout.InstrType(in) == frontend.B128 {
		return e.movB128(in, c)
	}
	if in.Op == frontend.OpLop3 {
		return e.lop3Pair(in, c)
	}
	d, a := in.Dsts[0], in.Args[0]
	t := layout.InstrType(in)
	if t.Bits() == 0 || t.Bits() > 64 || len(in.Args) != 1 {
		return nil, nil
	}
	var code []jen.Code
	var slots []int
	n := e.fresh("m")
	// write stores the value of local x into the element register x.
	write := func(x ssa.Arg, v string) {
		if x.Kind != ssa.ArgValue {
			return
		}
		s := e.f.Regs[x.Value.Reg.ID]
		code = append(code, e.setLaneReg(s, v))
		slots = append(slots, s)
	}
	if a.Kind == ssa.ArgVector {
		// mov.v2/.v4: every source is read before any destination is written.
		if len(a.Elems) != len(d.Elems) || len(d.Elems) > 4 {
			return nil, nil
		}
		for i, x := range a.Elems {
			code = append(code, jen.Id(fmt.Sprintf("%s_%d", n, i)).Op(":=").Add(c.src(in, x, t)))
		}
		for i, x := range d.Elems {
			if x.Kind != ssa.ArgValue {
				code = append(code, jen.Id("_").Op("=").Id(fmt.Sprintf("%s_%d", n, i)))
			}
			write(x, fmt.Sprintf("%s_%d", n, i))
		}
		return code, slots
	}
	// Unpack: mov.b64 {lo, hi}, %rd, first element lowest.
	k := len(d.Elems)
	if k == 0 || t.Bits()%k != 0 {
		return nil, nil
	}
	eb := t.Bits() / k
	code = append(code, jen.Id(n).Op(":=").Add(c.src(in, a, t)))
	for i, x := range d.Elems {
		v := fmt.Sprintf("%s_%d", n, i)
		if x.Kind != ssa.ArgValue {
			continue
		}
		code = append(code, jen.Id(v).Op(":=").Id(n).Op(">>").Lit(i*eb).Op("&").Id(e.imm(uint64(1)<<eb-1)))
		write(x, v)
	}
	return code, slots
}

// carry lowers add.cc, sub.cc, addc, subc, mad.cc and madc on .u32 .s32 .u64 .s64: a
// subtraction is a + ^b + carry-in (1 for sub.cc, CC.CF for subc) and leaves its carry-out,
// NOT borrow, in the flag, as NVIDIA GPUs do.
func (e *blockEmit) carry(in *ssa.Instr, c ctx) ([]jen.Code, []int) {
	t := layout.InstrType(in)
	bits := t.Bits()
	if in.Dsts[0].Kind != ssa.ArgValue {
		return nil, nil
	}
	op := in.Op
	readCF := op == frontend.OpAddc || op == frontend.OpSubc || op == frontend.OpMadc
	writeCF := has(in, frontend.ModCc)
	isMad := op == frontend.OpMad || op == frontend.OpMadc
	hi := has(in, frontend.ModHi)
	n := e.fresh("cc")
	cf := e.f.carrySlot()
	x, y := jen.Id(n+"x"), jen.Id(n+"y")
	code := []jen.Code{jen.List(x, y).Op(":=").List(c.src(in, in.Args[0], t), c.src(in, in.Args[1], t))}
	if isMad {
		var prod jen.Code
		if hi {
			prod = isaFn("MulHi", x, y, jen.Lit(bits), jen.Lit(t.IsSigned()))
		} else {
			prod = jen.Add(x).Op("*").Add(y).Op("&").Add(isaFn("Mask", jen.Lit(bits)))
		}
		code = append(code, jen.List(x, y).Op("=").List(prod, c.src(in, in.Args[2], t)))
	}
	var cin jen.Code = jen.Lit(0)
	switch {
	case readCF:
		cin = jen.Add(e.laneReg(cf)).Op("&").Lit(1)
	case op == frontend.OpSub:
		cin = jen.Lit(1)
	}
	fn := "AddCarry"
	if op == frontend.OpSub || op == frontend.OpSubc {
		fn = "SubCarry"
	}
	r, cout := jen.Id(n+"r"), jen.Id(n+"c")
	d := e.f.Regs[in.Dsts[0].Value.Reg.ID]
	code = append(code, jen.List(r, cout).Op(":=").Add(isaFn(fn, x, y, jen.Uint64().Call(cin), jen.Lit(bits))))
	code = append(code, e.setLaneReg(d, n+"r"))
	slots := []int{d}
	if writeCF {
		code = append(code, e.setLaneReg(cf, n+"c"))
		slots = append(slots, cf)
	} else {
		code = append(code, jen.Id("_").Op("=").Add(cout))
	}
	return code, slots
}

// lop3Pair lowers lop3.{or,and}.b32 d|p, a, b, c, immLut, q: d = lop3(a, b, c) and
// p = (d != 0) BoolOp q, written into the loop's copy of the predicate mask.
func (e *blockEmit) lop3Pair(in *ssa.Instr, c ctx) ([]jen.Code, []int) {
	op := "||"
	if has(in, frontend.ModAnd) {
		op = "&&"
	}
	d := in.Dsts[0]
	lut := in.Args[3]
	n := e.fresh("lp")
	arg := func(i int) jen.Code { return conv("uint32", c.src(in, in.Args[i], frontend.B32)) }
	slot := e.f.Regs[d.Elems[0].Value.Reg.ID]
	p := e.f.Regs[d.Elems[1].Value.Reg.ID]
	s := e.seg
	s.preds[p], s.wpreds[p], s.inPlace[p] = true, true, true
	q := c.pred(in.Args[4])
	code := []jen.Code{jen.Id(n).Op(":=").Add(u64(isaFn("Lop3", arg(0), arg(1), arg(2), jen.Lit(int(lut.Imm)))))}
	cond := jen.Parens(jen.Id(n).Op("!=").Lit(0)).Op(op).Parens(q)
	if e.lane {
		// A per-lane region (region.go) keeps the lane's predicate bit in a bool.
		code = append(code, e.setLaneReg(slot, n), jen.Id(laneBool(p)).Op("=").Add(cond))
	} else {
		code = append(code,
			jen.Id(n+"b").Op(":=").Uint32().Call(jen.Lit(0)),
			jen.If(cond).Block(jen.Id(n+"b").Op("=").Lit(1)),
			e.setLaneReg(slot, n),
			jen.Id(predName(p)).Op("=").Id(predName(p)).Op("&^").Parens(jen.Lit(1).Op("<<").Id("l")).Op("|").Id(n+"b").Op("<<").Id("l"))
	}
	delete(s.plocal, p)
	return code, []int{slot}
}
