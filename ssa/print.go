package ssa

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// String prints every function of the program.
func (p *Program) String() string {
	var b strings.Builder
	for i, fn := range p.Funcs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fn.String())
	}
	return b.String()
}

// String prints a function's IR: blocks with their predecessors, dominators and post-dominators,
// phis, instructions with uniformity marks, and terminators with their reconvergence blocks.
func (fn *Function) String() string {
	var b strings.Builder
	Fprint(&b, fn)
	return b.String()
}

// Fprint writes fn's IR to w.
//
//	.entry k(.param .u64 k_param_0)
//	b0:  ; preds -, idom -, ipdom b2
//		%p1#1 = setp.ge.s32 %r1#1, 10  ; divergent
//		branch %p1#1, b2, b1  ; divergent, reconverge b2
func Fprint(w io.Writer, fn *Function) {
	pr := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	kind := ".func"
	if fn.Kind == frontend.Entry {
		kind = ".entry"
	}
	pr("%s ", kind)
	if len(fn.Results) > 0 {
		pr("(%s) ", paramList(fn.Results))
	}
	pr("%s(%s)", fn.Name, paramList(fn.Params))
	if fn.Decl {
		pr(";\n")
		return
	}
	pr("\n")
	for _, bl := range fn.Blocks {
		pr("%s:  ; preds %s, idom %s, ipdom %s\n", blockName(bl), blockList(bl.Preds), blockRef(bl.Idom), blockRef(bl.Ipdom))
		for _, phi := range bl.Phis {
			args := make([]string, len(phi.Args))
			for i, a := range phi.Args {
				args[i] = "[" + valueName(a) + ", " + blockName(bl.Preds[i]) + "]"
			}
			pr("\t%s = phi %s  ; %s\n", valueName(phi.Dst), strings.Join(args, ", "), uniformityMark(phi.Dst.Uniform))
		}
		for _, in := range bl.Instrs {
			pr("\t%s\n", instrString(in))
		}
		pr("\t%s\n", termString(bl))
	}
}

func paramList(ps []*Param) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if p.Var == nil {
			vec := ""
			if len(p.Regs) > 1 {
				vec = ".v" + strconv.Itoa(len(p.Regs)) + " "
			}
			out[i] = ".reg " + vec + p.Regs[0].Type.String() + " " + p.Name
		} else {
			v := p.Var
			out[i] = ".param " + v.Type.String() + " " + v.Name
			for _, d := range v.Dims {
				out[i] += "[" + strconv.Itoa(d) + "]"
			}
		}
	}
	return strings.Join(out, ", ")
}

func blockName(b *Block) string {
	if b.Term.Kind == TermNone && b == b.Func.Exit {
		return "exit"
	}
	if b.Label != "" {
		return "b" + strconv.Itoa(b.ID) + "(" + b.Label + ")"
	}
	return "b" + strconv.Itoa(b.ID)
}

func blockRef(b *Block) string {
	if b == nil {
		return "-"
	}
	return blockName(b)
}

func blockList(bs []*Block) string {
	if len(bs) == 0 {
		return "-"
	}
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = blockName(b)
	}
	return strings.Join(out, " ")
}

func uniformityMark(u bool) string {
	if u {
		return "uniform"
	}
	return "divergent"
}

// valueName spells a value as register#version; undefined values are register#undef.
func valueName(v *Value) string {
	if v == nil {
		return "<nil>"
	}
	if v.Kind == DefUndef {
		return v.Reg.Name + "#undef"
	}
	return v.Reg.Name + "#" + strconv.Itoa(v.Version)
}

func modString(mods []frontend.Mod) string {
	var b strings.Builder
	for _, m := range mods {
		b.WriteString(m.String())
	}
	return b.String()
}

func instrString(in *Instr) string {
	var b strings.Builder
	if len(in.Dsts) > 0 {
		b.WriteString(argList(in.Dsts))
		b.WriteString(" = ")
	}
	b.WriteString(guardString(in.Guard, in.GuardNeg))
	b.WriteString(in.Op.String())
	b.WriteString(modString(in.Mods))
	if len(in.Args) > 0 {
		b.WriteString(" ")
		b.WriteString(argList(in.Args))
	}
	b.WriteString(elseString(in.Prev))
	if len(in.Defs) > 0 {
		uniform := true
		for _, d := range in.Defs {
			uniform = uniform && d.Uniform
		}
		b.WriteString("  ; " + uniformityMark(uniform))
	}
	return b.String()
}

// elseString spells the values a guarded instruction or call keeps when its guard is false.
func elseString(prev []*Value) string {
	if len(prev) == 0 {
		return ""
	}
	names := make([]string, len(prev))
	for i, v := range prev {
		names[i] = valueName(v)
	}
	return " else " + strings.Join(names, ", ")
}

func guardString(g *Value, neg bool) string {
	if g == nil {
		return ""
	}
	if neg {
		return "@!" + valueName(g) + " "
	}
	return "@" + valueName(g) + " "
}

func argList(args []Arg) string {
	out := make([]string, len(args))
	for i := range args {
		out[i] = argString(&args[i])
	}
	return strings.Join(out, ", ")
}

func argString(a *Arg) string {
	switch a.Kind {
	case ArgValue:
		if a.Not {
			return "!" + valueName(a.Value)
		}
		return valueName(a.Value)
	case ArgImm:
		return strconv.FormatInt(int64(a.Imm), 10)
	case ArgFloat:
		if a.Form == frontend.FloatHex32 {
			return fmt.Sprintf("0f%08X", a.Imm)
		}
		return fmt.Sprintf("0d%016X", math.Float64bits(math.Float64frombits(a.Imm)))
	case ArgSpecial:
		return a.Name
	case ArgSym:
		return symName(a) + offsetString(a.Offset)
	case ArgAddr:
		switch {
		case a.Value != nil:
			return "[" + valueName(a.Value) + offsetString(a.Offset) + "]"
		case a.Var != nil:
			return "[" + a.Var.Name + offsetString(a.Offset) + "]"
		}
		return "[" + strconv.FormatInt(a.Offset, 10) + "]"
	case ArgVector:
		return "{" + argList(a.Elems) + "}"
	case ArgPair:
		return argString(&a.Elems[0]) + "|" + argString(&a.Elems[1])
	case ArgImage:
		return "[" + argList(a.Elems) + "]"
	}
	return "_"
}

func symName(a *Arg) string {
	if a.Fn != nil {
		return a.Fn.Name
	}
	return a.Var.Name
}

func offsetString(off int64) string {
	if off == 0 {
		return ""
	}
	return "+" + strconv.FormatInt(off, 10)
}

func termString(bl *Block) string {
	t := &bl.Term
	var s string
	uni := ""
	if t.Uni {
		uni = ".uni"
	}
	switch t.Kind {
	case TermJump:
		s = "jump" + uni + " " + blockName(bl.Succs[0])
	case TermBranch:
		cond := valueName(t.Cond)
		if t.Negate {
			cond = "!" + cond
		}
		succ := bl.Succs
		s = "branch" + uni + " " + cond + ", " + blockName(succ[0]) + ", " + blockName(succ[1])
	case TermBrx:
		names := make([]string, len(t.Table))
		for i, b := range t.Table {
			names[i] = blockName(b)
		}
		s = "brx.idx" + uni + " " + valueName(t.Index) + ", " + t.TableName + " [" + strings.Join(names, ", ") + "]"
	case TermCall:
		s = callString(t) + " -> " + blockName(bl.Succs[0])
	case TermRet:
		s = "ret" + uni
		if len(t.RetVals) > 0 {
			vals := make([]string, len(t.RetVals))
			for i, v := range t.RetVals {
				vals[i] = valueName(v)
			}
			s += " " + strings.Join(vals, ", ")
		}
	case TermExit:
		s = "exit"
	case TermTrap:
		s = "trap"
	default:
		s = "none"
	}
	switch {
	case t.Divergent:
		s += "  ; divergent, reconverge " + blockRef(t.Reconv)
	case mayDiverge(t):
		s += "  ; uniform"
	}
	return s
}

func callString(t *Terminator) string {
	c := t.Call
	var b strings.Builder
	b.WriteString(guardString(c.Guard, c.GuardNeg))
	b.WriteString("call")
	if t.Uni {
		b.WriteString(".uni")
	}
	b.WriteString(" ")
	if len(c.Results) > 0 {
		b.WriteString("(" + argList(c.Results) + "), ")
	}
	if c.Direct != nil {
		b.WriteString(c.Direct.Name)
	} else {
		b.WriteString(valueName(c.Target))
	}
	b.WriteString(", (" + argList(c.Args) + ")")
	if c.ListName != "" {
		b.WriteString(", " + c.ListName)
		if c.Targets != nil {
			names := make([]string, len(c.Targets))
			for i, f := range c.Targets {
				names[i] = f.Name
			}
			b.WriteString(" {" + strings.Join(names, ", ") + "}")
		}
	}
	b.WriteString(elseString(c.Prev))
	return b.String()
}
