package ssa

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// Error is a lowering or verification error at a PTX source position.
type Error struct {
	Pos frontend.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList collects the errors of one module, in source order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// maxErrors caps the errors reported per module.
const maxErrors = 10

// Build lowers a parsed module into SSA form, computes dominators, post-dominators and
// reconvergence points, runs the uniformity analysis, and verifies the result.
func Build(m *frontend.Module) (*Program, error) {
	b := &builder{prog: &Program{File: m.Pos.File, AddressSize: m.AddressSize, funcByName: map[string]*Function{}},
		globals: map[string]*Variable{}, labelOwner: map[string]string{}}
	b.declareModule(m)
	for _, it := range m.Items {
		if f, ok := it.(*frontend.Function); ok && f.Body != nil {
			b.lowerFunction(f)
		}
	}
	if len(b.errs) > 0 {
		return b.prog, b.errs
	}
	for _, fn := range b.prog.Funcs {
		if !fn.Decl {
			buildSSA(fn)
			computeDominance(fn)
		}
	}
	analyzeUniformity(b.prog)
	b.prog.calls = buildCallGraph(b.prog)
	if errs := verify(b.prog); len(errs) > 0 {
		return b.prog, errs
	}
	return b.prog, nil
}

type builder struct {
	prog    *Program
	globals map[string]*Variable
	errs    ErrorList
	fn      *Function
	scopes  []map[string]any // *Reg or *Variable, innermost last
	labels  map[string]*Block
	cur     *Block
	// labelOwner maps every label of the module to the function defining it.
	labelOwner map[string]string
	// instrs, values and args hand out memory in chunks, so lowering costs a few large
	// allocations rather than one per instruction and operand.
	instrs []Instr
	values []Value
	args   []Arg
}

func (b *builder) newInstr() *Instr {
	if len(b.instrs) == 0 {
		b.instrs = make([]Instr, 256)
	}
	in := &b.instrs[0]
	b.instrs = b.instrs[1:]
	return in
}

func (b *builder) newValue() *Value {
	if len(b.values) == 0 {
		b.values = make([]Value, 256)
	}
	v := &b.values[0]
	b.values = b.values[1:]
	return v
}

// argSlice returns an empty slice with room for n operands, its capacity clipped to n.
func (b *builder) argSlice(n int) []Arg {
	if n > 64 {
		return make([]Arg, 0, n)
	}
	if len(b.args) < n {
		b.args = make([]Arg, 512)
	}
	s := b.args[:0:n]
	b.args = b.args[n:]
	return s
}

func (b *builder) errorf(pos frontend.Pos, format string, args ...any) {
	if len(b.errs) < maxErrors {
		b.errs = append(b.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
}

// declareModule records module variables and every function signature, so bodies may refer to
// functions defined later.
func (b *builder) declareModule(m *frontend.Module) {
	for _, it := range m.Items {
		switch it := it.(type) {
		case *frontend.VarDecl:
			for _, v := range b.variables(it, nil) {
				if prev, dup := b.globals[v.Name]; dup && !(prev.Linkage == frontend.LinkExtern || v.Linkage == frontend.LinkExtern) {
					b.errorf(v.Pos, "%s is already declared at %s", v.Name, prev.Pos)
					continue
				}
				b.globals[v.Name] = v
				b.prog.Globals = append(b.prog.Globals, v)
			}
		case *frontend.Function:
			b.declareFunction(it)
			if it.Body != nil {
				collectLabelOwners(it.Body, it.Name, b.labelOwner)
			}
		}
	}
}

// collectLabelOwners records which function defines each label, to explain branches to labels
// of other functions.
func collectLabelOwners(blk *frontend.Block, fn string, owner map[string]string) {
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *frontend.Label:
			if _, ok := owner[st.Name]; !ok {
				owner[st.Name] = fn
			}
		case *frontend.Block:
			collectLabelOwners(st, fn, owner)
		}
	}
}

func (b *builder) declareFunction(f *frontend.Function) {
	fn := &Function{Name: f.Name, Pos: f.Pos, Kind: f.Kind, Linkage: f.Linkage, Noreturn: f.Noreturn, Decl: f.Body == nil}
	fn.Params = b.params(fn, f.Params)
	fn.Results = b.params(fn, f.Results)
	fn.Sig = Signature{Params: paramTypes(f.Params), Results: paramTypes(f.Results)}
	if prev := b.prog.funcByName[f.Name]; prev != nil {
		if !sameSignature(prev.Sig, fn.Sig) || prev.Kind != fn.Kind {
			b.errorf(f.Pos, "%s redeclared with a different signature (first declared at %s)", f.Name, prev.Pos)
			return
		}
		if !prev.Decl && !fn.Decl {
			b.errorf(f.Pos, "%s is defined twice (first at %s)", f.Name, prev.Pos)
			return
		}
		if prev.Decl && !fn.Decl {
			*prev = *fn // the definition replaces the forward declaration, keeping its identity
		}
		return
	}
	b.prog.funcByName[f.Name] = fn
	b.prog.Funcs = append(b.prog.Funcs, fn)
}

func (b *builder) params(fn *Function, ps []*frontend.Param) []*Param {
	out := make([]*Param, len(ps))
	for i, p := range ps {
		if p.Space == frontend.SpaceReg {
			out[i] = &Param{Reg: &Reg{Name: p.Name, Type: p.Type, Vector: p.Vector, Pos: p.Pos}}
			continue
		}
		out[i] = &Param{Var: &Variable{Name: p.Name, Pos: p.Pos, Space: frontend.SpaceParam, Type: p.Type,
			Vector: p.Vector, Align: p.Align, Dims: p.Dims, Size: varSize(p.Type, p.Vector, p.Dims), Func: fn}}
	}
	return out
}

func paramTypes(ps []*frontend.Param) []ParamType {
	out := make([]ParamType, len(ps))
	for i, p := range ps {
		out[i] = ParamType{Space: p.Space, Type: p.Type, Vector: p.Vector, Size: varSize(p.Type, p.Vector, p.Dims)}
	}
	return out
}

// sameSignature compares signatures the way PTX matches calls: by parameter sizes and kinds.
func sameSignature(a, b Signature) bool {
	return sameParamTypes(a.Params, b.Params) && sameParamTypes(a.Results, b.Results)
}

func sameParamTypes(a, b []ParamType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Space != b[i].Space || a[i].Size != b[i].Size {
			return false
		}
	}
	return true
}

func varSize(t frontend.Type, vec int, dims []int) int64 {
	n := int64(t.Bytes())
	if vec > 0 {
		n *= int64(vec)
	}
	for _, d := range dims {
		if d < 0 {
			return 0
		}
		n *= int64(d)
	}
	return n
}

// variables lowers a non-register declaration; fn is nil at module scope.
// Parameterized names (`%P<2>`) declare %P0 and %P1.
func (b *builder) variables(d *frontend.VarDecl, fn *Function) []*Variable {
	out := make([]*Variable, 0, len(d.Names))
	for _, n := range d.Names {
		for _, name := range expandNames(n) {
			out = append(out, &Variable{Name: name, Pos: n.Pos, Space: d.Space, Linkage: d.Linkage, Type: d.Type,
				Vector: d.Vector, Align: d.Align, Dims: n.Dims, Size: varSize(d.Type, d.Vector, n.Dims), Init: n.Init, Func: fn})
		}
	}
	return out
}

// expandNames lists the names a declarator declares: itself, or name0..nameN-1 for `name<N>`.
func expandNames(n *frontend.Declarator) []string {
	if n.Count == 0 {
		return []string{n.Name}
	}
	names := make([]string, n.Count)
	for i := range names {
		names[i] = n.Name + strconv.Itoa(i)
	}
	return names
}

// ---- function bodies ----

func (b *builder) lowerFunction(f *frontend.Function) {
	fn := b.prog.funcByName[f.Name]
	if fn == nil || fn.Pos != f.Pos {
		return // a duplicate definition, already reported
	}
	b.fn = fn
	fn.BranchTables = map[string][]*Block{}
	fn.CallLists = map[string][]*Function{}
	fn.Prototypes = map[string]*Signature{}
	b.labels = map[string]*Block{}
	b.scopes = []map[string]any{{}}
	for _, p := range append(append([]*Param(nil), fn.Params...), fn.Results...) {
		if p.Reg != nil {
			b.addReg(p.Reg)
			b.scopes[0][p.Reg.Name] = p.Reg
		} else {
			b.scopes[0][p.Var.Name] = p.Var
		}
	}
	entry := b.newBlock(f.Body.Pos)
	b.collectLabels(f.Body)
	b.cur = entry
	b.lowerBlock(f.Body)
	if b.cur != nil && !b.terminated(b.cur) {
		t := Terminator{Kind: TermRet, Pos: f.Body.End}
		for _, p := range fn.Results {
			if p.Reg != nil {
				t.RetVals = append(t.RetVals, use(p.Reg))
			}
		}
		b.setTerm(b.cur, t)
	}
	fn.Exit = &Block{ID: len(fn.Blocks), Func: fn, Term: Terminator{Kind: TermNone}, Pos: f.Body.End}
	for _, bl := range fn.Blocks {
		switch bl.Term.Kind {
		case TermRet, TermExit, TermTrap:
			bl.Succs = []*Block{fn.Exit}
			fn.Exit.Preds = append(fn.Exit.Preds, bl)
		}
	}
}

func (b *builder) newBlock(pos frontend.Pos) *Block {
	bl := &Block{ID: len(b.fn.Blocks), Pos: pos, Func: b.fn, Term: Terminator{Kind: TermNone}}
	b.fn.Blocks = append(b.fn.Blocks, bl)
	return bl
}

func (b *builder) terminated(bl *Block) bool { return bl.Term.Kind != TermNone }

// collectLabels creates one block per label of the function (labels are function-wide).
func (b *builder) collectLabels(blk *frontend.Block) {
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *frontend.Label:
			if prev, dup := b.labels[st.Name]; dup {
				b.errorf(st.Pos, "label %s is already defined at %s", st.Name, prev.Pos)
				continue
			}
			bl := b.newBlock(st.Pos)
			bl.Label = st.Name
			b.labels[st.Name] = bl
		case *frontend.Block:
			b.collectLabels(st)
		}
	}
}

func (b *builder) addReg(r *Reg) {
	r.ID = len(b.fn.Regs)
	b.fn.Regs = append(b.fn.Regs, r)
}

// lowerBlock lowers a `{ }` group in a scope of its own.
func (b *builder) lowerBlock(blk *frontend.Block) {
	b.scopes = append(b.scopes, map[string]any{})
	defer func() { b.scopes = b.scopes[:len(b.scopes)-1] }()
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *frontend.Block:
			b.lowerBlock(st)
		case *frontend.Label:
			bl := b.labels[st.Name]
			if bl == nil || bl.Pos != st.Pos {
				continue
			}
			if b.cur != nil && !b.terminated(b.cur) {
				b.jump(b.cur, bl, st.Pos)
			}
			b.cur = bl
		case *frontend.VarDecl:
			b.declare(st)
		case *frontend.BranchTargets:
			b.branchTargets(st)
		case *frontend.CallTargets:
			b.callTargets(st)
		case *frontend.CallPrototype:
			if _, dup := b.fn.Prototypes[st.Name]; dup {
				b.errorf(st.Pos, "prototype %s is already defined", st.Name)
			}
			b.fn.Prototypes[st.Name] = &Signature{Params: paramTypes(st.Params), Results: paramTypes(st.Results)}
		case *frontend.Instruction:
			b.instruction(st)
		}
	}
}

func (b *builder) scope() map[string]any { return b.scopes[len(b.scopes)-1] }

func (b *builder) declare(d *frontend.VarDecl) {
	if d.Space != frontend.SpaceReg {
		for _, v := range b.variables(d, b.fn) {
			b.define(v.Name, v, v.Pos)
			b.fn.Vars = append(b.fn.Vars, v)
		}
		return
	}
	for _, n := range d.Names {
		if len(n.Dims) > 0 || n.Init != nil {
			b.errorf(n.Pos, "register %s cannot have array dimensions or an initializer", n.Name)
			continue
		}
		for _, name := range expandNames(n) {
			if d.Vector == 0 {
				r := &Reg{Name: name, Type: d.Type, Pos: n.Pos}
				b.addReg(r)
				b.define(name, r, n.Pos)
				continue
			}
			b.define(name, b.vectorReg(name, d, n.Pos), n.Pos)
		}
	}
}

// vectorComponents are the element selectors of vector registers, in both spellings.
var vectorComponents = [2][4]string{{"x", "y", "z", "w"}, {"r", "g", "b", "a"}}

// vectorReg declares a .v2/.v4 register as one scalar register per element, reachable as
// `%v.x` or `%v.r`; the whole vector reads and writes as `{%v.x, %v.y, ...}`.
func (b *builder) vectorReg(name string, d *frontend.VarDecl, pos frontend.Pos) *vecReg {
	if d.Vector > 4 {
		b.errorf(pos, "vector registers have at most 4 elements")
	}
	v := &vecReg{}
	for i := range min(d.Vector, 4) {
		r := &Reg{Name: name + "." + vectorComponents[0][i], Type: d.Type, Pos: pos}
		b.addReg(r)
		v.elems = append(v.elems, r)
		for _, spelling := range vectorComponents {
			b.define(name+"."+spelling[i], r, pos)
		}
	}
	return v
}

// vecReg is a vector register, lowered to its element registers.
type vecReg struct {
	elems []*Reg
}

func (b *builder) define(name string, ent any, pos frontend.Pos) {
	sc := b.scope()
	if _, dup := sc[name]; dup {
		b.errorf(pos, "%s is already declared in this scope", name)
		return
	}
	sc[name] = ent
}

// lookup resolves a name through the scopes, then module variables and functions.
func (b *builder) lookup(name string) any {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if e, ok := b.scopes[i][name]; ok {
			return e
		}
	}
	if v, ok := b.globals[name]; ok {
		return v
	}
	if f, ok := b.prog.funcByName[name]; ok {
		return f
	}
	return nil
}

func (b *builder) branchTargets(st *frontend.BranchTargets) {
	var table []*Block
	for _, l := range st.Labels {
		bl := b.labels[l.Name]
		if bl == nil {
			b.errorf(l.Pos, ".branchtargets entry %s is not a label of %s", l.Name, b.fn.Name)
			continue
		}
		table = append(table, bl)
	}
	if _, dup := b.fn.BranchTables[st.Name]; dup {
		b.errorf(st.Pos, "target list %s is already defined", st.Name)
	}
	b.fn.BranchTables[st.Name] = table
}

func (b *builder) callTargets(st *frontend.CallTargets) {
	var list []*Function
	for _, id := range st.Funcs {
		f := b.prog.funcByName[id.Name]
		if f == nil {
			b.errorf(id.Pos, ".calltargets entry %s is not a declared function", id.Name)
			continue
		}
		list = append(list, f)
	}
	if _, dup := b.fn.CallLists[st.Name]; dup {
		b.errorf(st.Pos, "target list %s is already defined", st.Name)
	}
	b.fn.CallLists[st.Name] = list
}

// block returns the block receiving code, opening an unreachable one after a terminator.
func (b *builder) block(pos frontend.Pos) *Block {
	if b.cur == nil || b.terminated(b.cur) {
		b.cur = b.newBlock(pos)
	}
	return b.cur
}

func (b *builder) setTerm(bl *Block, t Terminator) { bl.Term = t }

func (b *builder) jump(from, to *Block, pos frontend.Pos) {
	from.Term = Terminator{Kind: TermJump, Pos: pos}
	link(from, to)
}

func link(from, to *Block) {
	from.Succs = append(from.Succs, to)
	to.Preds = append(to.Preds, from)
}

// guard lowers an instruction's guard predicate.
func (b *builder) guard(in *frontend.Instruction) (*Value, bool) {
	if in.Guard == nil {
		return nil, false
	}
	r := b.regNamed(in.Guard.Pred, in.Guard.Pos, "guard predicate")
	if r == nil {
		return nil, false
	}
	return use(r), in.Guard.Negate
}

// use returns r's placeholder for a read; SSA construction replaces each read with the value
// reaching it. One placeholder per register serves all its reads.
func use(r *Reg) *Value {
	if r.placeholder == nil {
		r.placeholder = &Value{Reg: r, Version: -1}
	}
	return r.placeholder
}

func (b *builder) regNamed(name string, pos frontend.Pos, what string) *Reg {
	switch e := b.lookup(name).(type) {
	case *Reg:
		return e
	case nil:
		b.errorf(pos, "undeclared register %s", name)
	default:
		b.errorf(pos, "%s %s is not a register", what, name)
	}
	return nil
}

// guardedSplit ends the current block with a branch on the guard to a new block, returning that
// block; lanes whose guard fails continue in a fresh fall-through block.
func (b *builder) guardedSplit(in *frontend.Instruction, g *Value, neg bool) *Block {
	from := b.block(in.Pos)
	taken := b.newBlock(in.Pos)
	fall := b.newBlock(in.Pos)
	from.Term = Terminator{Kind: TermBranch, Pos: in.Pos, Cond: g, Negate: neg, Synthetic: true}
	link(from, taken)
	link(from, fall)
	b.cur = fall
	return taken
}

func (b *builder) instruction(in *frontend.Instruction) {
	g, neg := b.guard(in)
	uni := in.Has(frontend.ModUni)
	switch in.Op {
	case frontend.OpBra:
		b.branch(in, g, neg, uni)
		return
	case frontend.OpBrx:
		b.brx(in, g, neg, uni)
		return
	case frontend.OpCall:
		b.call(in, g, neg, uni)
		return
	case frontend.OpRet, frontend.OpExit, frontend.OpTrap:
		kind := TermRet
		if in.Op == frontend.OpExit {
			kind = TermExit
		} else if in.Op == frontend.OpTrap {
			kind = TermTrap
		}
		if len(in.Operands) > 0 {
			b.errorf(in.Pos, "%s takes no operands", in.Op)
		}
		bl := b.block(in.Pos)
		if g != nil {
			bl = b.guardedSplit(in, g, neg)
		}
		t := Terminator{Kind: kind, Pos: in.Pos, Uni: uni}
		if kind == TermRet {
			for _, p := range b.fn.Results {
				if p.Reg != nil {
					t.RetVals = append(t.RetVals, use(p.Reg))
				}
			}
		}
		bl.Term = t
		if g == nil {
			b.cur = nil
		}
		return
	}
	bl := b.block(in.Pos)
	ins := b.newInstr()
	*ins = Instr{Op: in.Op, Mods: in.Mods, Pos: in.Pos, Block: bl, Guard: g, GuardNeg: neg}
	ops := in.Operands
	if len(ops) > 0 && hasDestination(in.Op) {
		if _, isAddr := ops[0].(*frontend.Address); !isAddr {
			ins.Dsts = append(ins.Dsts, b.dst(ins, ops[0]))
			ops = ops[1:]
		}
	}
	ins.Args = b.argSlice(len(ops))
	for _, o := range ops {
		ins.Args = append(ins.Args, b.src(o))
	}
	if g != nil {
		for _, d := range ins.Defs {
			ins.Prev = append(ins.Prev, use(d.Reg))
		}
	}
	bl.Instrs = append(bl.Instrs, ins)
}

// hasDestination reports whether the opcode's first operand is written rather than read.
func hasDestination(op frontend.Opcode) bool {
	switch op {
	case frontend.OpSt, frontend.OpRed, frontend.OpBar, frontend.OpBarrier, frontend.OpMembar, frontend.OpFence,
		frontend.OpPrefetch, frontend.OpPrefetchu, frontend.OpApplypriority, frontend.OpDiscard, frontend.OpNanosleep,
		frontend.OpPmevent, frontend.OpBrkpt, frontend.OpSured, frontend.OpSust, frontend.OpCp, frontend.OpStackrestore,
		frontend.OpGriddepcontrol, frontend.OpSetmaxnreg, frontend.OpStmatrix, frontend.OpMultimem:
		return false
	}
	return true
}

// dst lowers a destination operand, creating one definition per written register.
func (b *builder) dst(ins *Instr, o frontend.Operand) Arg {
	def := func(id *frontend.Ident) Arg {
		r := b.regNamed(id.Name, id.Pos, "destination")
		if r == nil {
			return Arg{Kind: ArgSink, Pos: id.Pos}
		}
		v := b.newValue()
		*v = Value{Reg: r, Kind: DefInstr, Instr: ins}
		ins.Defs = append(ins.Defs, v)
		return Arg{Kind: ArgValue, Value: v, Pos: id.Pos}
	}
	switch o := o.(type) {
	case *frontend.Ident:
		if v, ok := b.lookup(o.Name).(*vecReg); ok {
			a := Arg{Kind: ArgVector, Pos: o.Pos}
			for _, r := range v.elems {
				d := &Value{Reg: r, Kind: DefInstr, Instr: ins}
				ins.Defs = append(ins.Defs, d)
				a.Elems = append(a.Elems, Arg{Kind: ArgValue, Value: d, Pos: o.Pos})
			}
			return a
		}
		return def(o)
	case *frontend.Sink:
		return Arg{Kind: ArgSink, Pos: o.Pos}
	case *frontend.PredPair:
		return Arg{Kind: ArgPair, Pos: o.Pos, Elems: []Arg{def(o.First), def(o.Second)}}
	case *frontend.VectorOp:
		a := Arg{Kind: ArgVector, Pos: o.Pos}
		for _, e := range o.Elems {
			switch e := e.(type) {
			case *frontend.Ident:
				a.Elems = append(a.Elems, def(e))
			case *frontend.Sink:
				a.Elems = append(a.Elems, Arg{Kind: ArgSink, Pos: e.Pos})
			default:
				b.errorf(e.Position(), "a destination vector may hold only registers and _")
			}
		}
		return a
	}
	b.errorf(o.Position(), "destination must be a register")
	return Arg{Kind: ArgSink, Pos: o.Position()}
}

// specialRegs lists the special registers; those taking .x/.y/.z components are marked true.
var specialRegs = map[string]bool{
	"%tid": true, "%ntid": true, "%ctaid": true, "%nctaid": true, "%clusterid": true, "%nclusterid": true,
	"%cluster_ctaid": true, "%cluster_nctaid": true,
	"%laneid": false, "%warpid": false, "%nwarpid": false, "%smid": false, "%nsmid": false, "%gridid": false,
	"%lanemask_eq": false, "%lanemask_le": false, "%lanemask_lt": false, "%lanemask_ge": false, "%lanemask_gt": false,
	"%clock": false, "%clock_hi": false, "%clock64": false, "%globaltimer": false, "%globaltimer_lo": false,
	"%globaltimer_hi": false, "%dynamic_smem_size": false, "%total_smem_size": false, "%aggr_smem_size": false,
	"%reserved_smem_offset_begin": false, "%reserved_smem_offset_end": false, "%reserved_smem_offset_cap": false,
	"%is_explicit_cluster": false, "%cluster_ctarank": false, "%cluster_nctarank": false, "%current_graph_exec": false,
}

// SpecialRegister reports whether name (with any .x/.y/.z component) is a PTX special register.
func SpecialRegister(name string) bool {
	base, comp, hasComp := strings.Cut(name, ".")
	takesComp, ok := specialRegs[base]
	if !ok {
		return strings.HasPrefix(base, "%envreg") || strings.HasPrefix(base, "%pm")
	}
	if hasComp {
		return takesComp && (comp == "x" || comp == "y" || comp == "z")
	}
	return true
}

// src lowers a source operand.
func (b *builder) src(o frontend.Operand) Arg {
	switch o := o.(type) {
	case *frontend.Ident:
		return b.ident(o.Name, o.Pos, 0)
	case *frontend.SymRef:
		return b.ident(o.Name, o.Pos, o.Offset)
	case *frontend.Not:
		r := b.regNamed(o.X.Name, o.X.Pos, "negated operand")
		if r == nil {
			return Arg{Kind: ArgSink, Pos: o.Pos}
		}
		return Arg{Kind: ArgValue, Value: use(r), Not: true, Pos: o.Pos}
	case *frontend.IntLit:
		return Arg{Kind: ArgImm, Imm: o.Value, Pos: o.Pos}
	case *frontend.FloatLit:
		return Arg{Kind: ArgFloat, Imm: o.Bits, Form: o.Form, Pos: o.Pos}
	case *frontend.Sink:
		return Arg{Kind: ArgSink, Pos: o.Pos}
	case *frontend.Address:
		a := Arg{Kind: ArgAddr, Offset: o.Offset, Pos: o.Pos}
		if o.Base == "" {
			return a
		}
		switch e := b.lookup(o.Base).(type) {
		case *Reg:
			a.Value = use(e)
		case *Variable:
			a.Var = e
		case nil:
			b.errorf(o.Pos, "undeclared register or variable %s", o.Base)
		default:
			b.errorf(o.Pos, "%s cannot be used as an address", o.Base)
		}
		return a
	case *frontend.VectorOp:
		a := Arg{Kind: ArgVector, Pos: o.Pos}
		for _, e := range o.Elems {
			a.Elems = append(a.Elems, b.src(e))
		}
		return a
	case *frontend.PredPair:
		b.errorf(o.Pos, "a predicate pair p|q can only be a destination")
	case *frontend.ListOp:
		b.errorf(o.Pos, "a parenthesized operand list is only valid in call")
	}
	return Arg{Kind: ArgSink, Pos: o.Position()}
}

// ident lowers a name used as a source: a register, variable, function or special register.
func (b *builder) ident(name string, pos frontend.Pos, off int64) Arg {
	switch e := b.lookup(name).(type) {
	case *Reg:
		if off != 0 {
			b.errorf(pos, "register %s cannot take an offset", name)
		}
		return Arg{Kind: ArgValue, Value: use(e), Pos: pos}
	case *Variable:
		return Arg{Kind: ArgSym, Var: e, Offset: off, Pos: pos}
	case *Function:
		return Arg{Kind: ArgSym, Fn: e, Offset: off, Pos: pos}
	case *vecReg:
		a := Arg{Kind: ArgVector, Pos: pos}
		for _, r := range e.elems {
			a.Elems = append(a.Elems, Arg{Kind: ArgValue, Value: use(r), Pos: pos})
		}
		return a
	}
	if SpecialRegister(name) {
		return Arg{Kind: ArgSpecial, Name: name, Pos: pos}
	}
	if _, isLabel := b.labels[name]; isLabel {
		b.errorf(pos, "label %s can only be a branch target", name)
	} else {
		b.errorf(pos, "undeclared identifier %s", name)
	}
	return Arg{Kind: ArgSink, Pos: pos}
}

func (b *builder) branch(in *frontend.Instruction, g *Value, neg, uni bool) {
	if len(in.Operands) != 1 {
		b.errorf(in.Pos, "bra takes one label operand, not %d", len(in.Operands))
		return
	}
	id, ok := in.Operands[0].(*frontend.Ident)
	target := (*Block)(nil)
	if ok {
		target = b.labels[id.Name]
	}
	if target == nil {
		if owner, isLabel := b.labelOwner[nameOf(id)]; isLabel {
			b.errorf(in.Operands[0].Position(), "label %s is in function %s, not %s: a branch cannot leave its function", id.Name, owner, b.fn.Name)
		} else if ok && b.prog.funcByName[id.Name] == nil && b.lookup(id.Name) == nil {
			b.errorf(in.Operands[0].Position(), "undefined label %s", id.Name)
		} else {
			b.errorf(in.Operands[0].Position(), "branch target must be a label of %s", b.fn.Name)
		}
		return
	}
	from := b.block(in.Pos)
	if g == nil {
		from.Term = Terminator{Kind: TermJump, Pos: in.Pos, Uni: uni}
		link(from, target)
		b.cur = nil
		return
	}
	fall := b.newBlock(in.Pos)
	from.Term = Terminator{Kind: TermBranch, Pos: in.Pos, Uni: uni, Cond: g, Negate: neg}
	link(from, target)
	link(from, fall)
	b.cur = fall
}

func (b *builder) brx(in *frontend.Instruction, g *Value, neg, uni bool) {
	if len(in.Operands) != 2 {
		b.errorf(in.Pos, "brx.idx takes an index and a .branchtargets list, not %d operands", len(in.Operands))
		return
	}
	idx := b.src(in.Operands[0])
	if idx.Kind != ArgValue || idx.Not {
		b.errorf(in.Operands[0].Position(), "brx.idx index must be a register")
		return
	}
	id, ok := in.Operands[1].(*frontend.Ident)
	table, known := b.fn.BranchTables[nameOf(id)]
	if !ok || !known {
		b.errorf(in.Operands[1].Position(), "brx.idx needs a .branchtargets list declared earlier in %s", b.fn.Name)
		return
	}
	bl := b.block(in.Pos)
	if g != nil {
		bl = b.guardedSplit(in, g, neg)
	}
	bl.Term = Terminator{Kind: TermBrx, Pos: in.Pos, Uni: uni, Index: idx.Value, Table: table, TableName: id.Name}
	seen := map[*Block]bool{}
	for _, t := range table {
		if !seen[t] {
			seen[t] = true
			link(bl, t)
		}
	}
	if g == nil {
		b.cur = nil
	}
}

func nameOf(id *frontend.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

// call lowers `call{.uni} (results), target, (args), list-or-prototype;`.
func (b *builder) call(in *frontend.Instruction, g *Value, neg, uni bool) {
	ops := in.Operands
	c := &Call{Guard: g, GuardNeg: neg}
	var ins Instr // collects .reg result definitions
	if len(ops) > 0 {
		if l, ok := ops[0].(*frontend.ListOp); ok {
			for _, e := range l.Elems {
				c.Results = append(c.Results, b.callResult(&ins, e))
			}
			ops = ops[1:]
		}
	}
	if len(ops) == 0 {
		b.errorf(in.Pos, "call needs a target")
		return
	}
	switch t := b.src(ops[0]); {
	case t.Kind == ArgSym && t.Fn != nil && t.Offset == 0:
		c.Direct = t.Fn
	case t.Kind == ArgValue && !t.Not:
		c.Target = t.Value
	case t.Kind == ArgSink:
		return // already reported
	default:
		b.errorf(ops[0].Position(), "call target must be a function name or a register holding a function address")
		return
	}
	ops = ops[1:]
	if len(ops) > 0 {
		if l, ok := ops[0].(*frontend.ListOp); ok {
			for _, e := range l.Elems {
				c.Args = append(c.Args, b.src(e))
			}
			ops = ops[1:]
		}
	}
	if c.Target != nil {
		if len(ops) != 1 {
			b.errorf(in.Pos, "an indirect call needs a .calltargets list, a call table or a .callprototype")
			return
		}
		id, _ := ops[0].(*frontend.Ident)
		name := nameOf(id)
		switch {
		case b.fn.CallLists[name] != nil:
			c.Targets, c.ListName = b.fn.CallLists[name], name
		case b.fn.Prototypes[name] != nil:
			c.Proto, c.ListName = b.fn.Prototypes[name], name
		default:
			v, _ := b.lookup(name).(*Variable)
			if v == nil {
				b.errorf(ops[0].Position(), "%s is not a .calltargets list, call table or .callprototype of %s", name, b.fn.Name)
				return
			}
			c.Table, c.ListName = v, name
			c.Targets = b.tableFunctions(v, ops[0].Position())
		}
	} else if len(ops) != 0 {
		b.errorf(ops[0].Position(), "a direct call takes no target list")
		return
	}
	from := b.block(in.Pos)
	for _, d := range ins.Defs {
		d.Kind, d.Instr = DefCall, nil
	}
	from.Term = Terminator{Kind: TermCall, Pos: in.Pos, Uni: uni, Call: c}
	cont := b.newBlock(in.Pos)
	link(from, cont)
	b.cur = cont
	c.Defs = ins.Defs
}

func (b *builder) callResult(ins *Instr, o frontend.Operand) Arg {
	if id, ok := o.(*frontend.Ident); ok {
		if _, isReg := b.lookup(id.Name).(*Reg); isReg {
			return b.dst(ins, id)
		}
	}
	return b.src(o)
}

// tableFunctions returns the functions a call table's initializer lists.
func (b *builder) tableFunctions(v *Variable, pos frontend.Pos) []*Function {
	list, ok := v.Init.(*frontend.InitList)
	if !ok {
		b.errorf(pos, "call table %s must be initialized with a list of functions", v.Name)
		return nil
	}
	var fns []*Function
	for _, e := range list.Elems {
		s, ok := e.(*frontend.SymRef)
		f := (*Function)(nil)
		if ok {
			f = b.prog.funcByName[s.Name]
		}
		if f == nil {
			b.errorf(e.Position(), "call table %s may hold only function names", v.Name)
			return nil
		}
		fns = append(fns, f)
	}
	return fns
}
