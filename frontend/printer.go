package frontend

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
)

// Fprint writes m as normalized PTX text. Parsing the output yields an AST equal to m apart
// from positions.
func Fprint(w io.Writer, m *Module) error {
	pr := &printer{w: bufio.NewWriter(w)}
	pr.module(m)
	return pr.w.Flush()
}

// Format returns m as normalized PTX text.
func Format(m *Module) string {
	var b strings.Builder
	_ = Fprint(&b, m)
	return b.String()
}

type printer struct {
	w *bufio.Writer
}

func (pr *printer) s(parts ...string) {
	for _, p := range parts {
		pr.w.WriteString(p)
	}
}

func (pr *printer) indent(depth int) {
	for range depth {
		pr.w.WriteByte('\t')
	}
}

func (pr *printer) module(m *Module) {
	if m.Version.Major != 0 || m.Version.Minor != 0 {
		pr.s(".version ", strconv.Itoa(m.Version.Major), ".", strconv.Itoa(m.Version.Minor), "\n")
	}
	if len(m.Target.Names) > 0 {
		pr.s(".target ", strings.Join(m.Target.Names, ", "), "\n")
	}
	if m.AddressSize != 0 {
		pr.s(".address_size ", strconv.Itoa(m.AddressSize), "\n")
	}
	for _, it := range m.Items {
		pr.s("\n")
		switch it := it.(type) {
		case *Function:
			pr.function(it)
		case *VarDecl:
			pr.varDecl(it)
		default:
			pr.directive(it)
		}
		pr.s("\n")
	}
}

// directive prints the debug and pragma nodes shared by module and statement level.
func (pr *printer) directive(n Node) {
	switch n := n.(type) {
	case *Pragma:
		pr.pragma(n)
	case *FileDirective:
		pr.s(".file ", strconv.Itoa(n.Index), " \"", n.Name, "\"")
		if n.Rest != "" {
			pr.s(" ", n.Rest)
		}
	case *Loc:
		pr.s(".loc ", strconv.Itoa(n.File), " ", strconv.Itoa(n.Line), " ", strconv.Itoa(n.Col))
		if n.Rest != "" {
			pr.s(" ", n.Rest)
		}
	case *Section:
		pr.s(".section ", n.Name, "\n{\n", n.Text, "\n}")
	case *Dwarf:
		pr.s("@@DWARF ", n.Text)
	}
}

func (pr *printer) pragma(p *Pragma) {
	pr.s(".pragma ")
	for i, s := range p.Strings {
		if i > 0 {
			pr.s(", ")
		}
		pr.s("\"", s, "\"")
	}
	pr.s(";")
}

func (pr *printer) function(f *Function) {
	if f.Linkage != LinkNone {
		pr.s(f.Linkage.String(), " ")
	}
	if f.Kind == Entry {
		pr.s(".entry ")
	} else {
		pr.s(".func ")
		if f.Results != nil {
			pr.params(f.Results, false)
			pr.s(" ")
		}
	}
	pr.s(f.Name)
	if f.HasParams {
		pr.params(f.Params, true)
	}
	if f.Noreturn {
		pr.s(" .noreturn")
	}
	for _, d := range f.Directives {
		pr.s("\n", d.Name)
		for i, a := range d.Args {
			if i == 0 {
				pr.s(" ")
			} else {
				pr.s(", ")
			}
			pr.s(strconv.FormatInt(a, 10))
		}
	}
	for _, p := range f.Pragmas {
		pr.s("\n")
		pr.pragma(p)
	}
	if f.Body == nil {
		pr.s(";")
		return
	}
	pr.s("\n")
	pr.block(f.Body, 0)
}

// params prints a parameter list; multiline puts one parameter per line as compilers do.
func (pr *printer) params(ps []*Param, multiline bool) {
	if len(ps) == 0 {
		pr.s("()")
		return
	}
	pr.s("(")
	for i, p := range ps {
		if i > 0 {
			pr.s(",")
			if !multiline {
				pr.s(" ")
			}
		}
		if multiline {
			pr.s("\n\t")
		}
		pr.param(p)
	}
	if multiline {
		pr.s("\n")
	}
	pr.s(")")
}

func (pr *printer) param(p *Param) {
	pr.s(p.Space.String())
	if p.Align != 0 {
		pr.s(" .align ", strconv.Itoa(p.Align))
	}
	if p.Vector != 0 {
		pr.s(" .v", strconv.Itoa(p.Vector))
	}
	pr.s(" ", p.Type.String())
	if p.Ptr {
		pr.s(" .ptr")
		if p.PtrSpace != SpaceNone {
			pr.s(" ", p.PtrSpace.String())
		}
		if p.PtrAlign != 0 {
			pr.s(" .align ", strconv.Itoa(p.PtrAlign))
		}
	}
	pr.s(" ", p.Name)
	pr.dims(p.Dims)
}

func (pr *printer) dims(dims []int) {
	for _, d := range dims {
		if d < 0 {
			pr.s("[]")
		} else {
			pr.s("[", strconv.Itoa(d), "]")
		}
	}
}

func (pr *printer) varDecl(d *VarDecl) {
	if d.Linkage != LinkNone {
		pr.s(d.Linkage.String(), " ")
	}
	pr.s(d.Space.String())
	if len(d.Attrs) > 0 {
		pr.s(" .attribute(", strings.Join(d.Attrs, ", "), ")")
	}
	if d.Align != 0 {
		pr.s(" .align ", strconv.Itoa(d.Align))
	}
	if d.Vector != 0 {
		pr.s(" .v", strconv.Itoa(d.Vector))
	}
	pr.s(" ", d.Type.String())
	if d.Ptr {
		pr.s(" .ptr")
	}
	for i, n := range d.Names {
		if i == 0 {
			pr.s(" ")
		} else {
			pr.s(", ")
		}
		pr.s(n.Name)
		if n.Count != 0 {
			pr.s("<", strconv.Itoa(n.Count), ">")
		}
		pr.dims(n.Dims)
		if n.Init != nil {
			pr.s(" = ")
			pr.init(n.Init)
		}
	}
	pr.s(";")
}

func (pr *printer) init(in Init) {
	switch in := in.(type) {
	case *InitList:
		pr.s("{")
		for i, e := range in.Elems {
			if i > 0 {
				pr.s(", ")
			}
			pr.init(e)
		}
		pr.s("}")
	case *GenericRef:
		pr.s("generic(", in.Name, ")")
		pr.offset(in.Offset)
	default:
		pr.operand(in.(Operand))
	}
}

func (pr *printer) offset(off int64) {
	if off != 0 {
		pr.s("+", strconv.FormatInt(off, 10))
	}
}

// block prints a `{ }` group; statements are indented one level deeper than depth, labels
// are not.
func (pr *printer) block(b *Block, depth int) {
	pr.indent(depth)
	pr.s("{\n")
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *Label:
			pr.indent(depth)
			pr.s(st.Name, ":\n")
			continue
		case *Block:
			pr.block(st, depth+1)
			pr.s("\n")
			continue
		}
		pr.indent(depth + 1)
		pr.stmt(st)
		pr.s("\n")
	}
	pr.indent(depth)
	pr.s("}")
}

func (pr *printer) stmt(st Stmt) {
	switch st := st.(type) {
	case *Instruction:
		pr.instruction(st)
	case *VarDecl:
		pr.varDecl(st)
	case *BranchTargets:
		pr.s(st.Name, ": .branchtargets ")
		pr.idents(st.Labels)
		pr.s(";")
	case *CallTargets:
		pr.s(st.Name, ": .calltargets ")
		pr.idents(st.Funcs)
		pr.s(";")
	case *CallPrototype:
		pr.s(st.Name, ": .callprototype ")
		if st.HasResults {
			pr.params(st.Results, false)
			pr.s(" ")
		}
		pr.s("_")
		if st.HasParams {
			pr.s(" ")
			pr.params(st.Params, false)
		}
		if st.Noreturn {
			pr.s(" .noreturn")
		}
		pr.s(";")
	default:
		pr.directive(st)
	}
}

func (pr *printer) idents(ids []*Ident) {
	for i, id := range ids {
		if i > 0 {
			pr.s(", ")
		}
		pr.s(id.Name)
	}
}

func (pr *printer) instruction(in *Instruction) {
	if g := in.Guard; g != nil {
		pr.s("@")
		if g.Negate {
			pr.s("!")
		}
		pr.s(g.Pred, " ")
	}
	pr.s(in.Op.String())
	for _, m := range in.Mods {
		pr.s(m.String())
	}
	for i, o := range in.Operands {
		if i == 0 {
			pr.s(" ")
		} else {
			pr.s(", ")
		}
		pr.operand(o)
	}
	pr.s(";")
}

func (pr *printer) operand(o Operand) {
	switch o := o.(type) {
	case *Ident:
		pr.s(o.Name)
	case *Sink:
		pr.s("_")
	case *Not:
		pr.s("!", o.X.Name)
	case *PredPair:
		pr.s(o.First.Name, "|", o.Second.Name)
	case *SymRef:
		pr.s(o.Name)
		pr.offset(o.Offset)
	case *IntLit:
		pr.s(formatInt(o))
	case *FloatLit:
		pr.s(formatFloat(o))
	case *Address:
		pr.s("[")
		if o.Base == "" {
			pr.s(strconv.FormatUint(uint64(o.Offset), 10))
		} else {
			pr.s(o.Base)
			pr.offset(o.Offset)
		}
		pr.s("]")
	case *VectorOp:
		pr.s("{")
		pr.operands(o.Elems)
		pr.s("}")
	case *ListOp:
		pr.s("(")
		pr.operands(o.Elems)
		pr.s(")")
	case *ImageOp:
		pr.s("[")
		pr.operands(o.Elems)
		pr.s("]")
	}
}

func (pr *printer) operands(ops []Operand) {
	for i, e := range ops {
		if i > 0 {
			pr.s(", ")
		}
		pr.operand(e)
	}
}

// formatInt spells an integer literal in the base it was written in.
func formatInt(l *IntLit) string {
	v := l.Value
	sign := ""
	if l.Negative {
		v, sign = -v, "-"
	}
	var s string
	switch l.Base {
	case Hex:
		s = "0x" + strings.ToUpper(strconv.FormatUint(v, 16))
	case Octal:
		s = "0" + strconv.FormatUint(v, 8)
	case Binary:
		s = "0b" + strconv.FormatUint(v, 2)
	default:
		s = strconv.FormatUint(v, 10)
	}
	if l.Unsigned {
		s += "U"
	}
	return sign + s
}

// formatFloat spells a floating-point literal in its original form; decimal literals are
// printed with the shortest text that reads back to the same float64.
func formatFloat(f *FloatLit) string {
	switch f.Form {
	case FloatHex32:
		return "0f" + hexDigits(f.Bits, 8)
	case FloatHex64:
		return "0d" + hexDigits(f.Bits, 16)
	}
	v := math.Float64frombits(f.Bits)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "0d" + hexDigits(f.Bits, 16)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func hexDigits(v uint64, n int) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}
