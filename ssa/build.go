package ssa

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// Error is a lowering or verification error at a PTX source position. The SSA builder and
// verifier, codegen/forms and both back ends report errors of this type, so callers format
// them from their fields.
type Error struct {
	Pos frontend.Pos
	Msg string
	// Unsupported is set for an instruction form the back ends do not lower: its spelling,
	// the opcode with its modifiers as written (Msg says "unsupported instruction" and it).
	Unsupported string
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
	b := &builder{prog: &Program{File: m.Pos.File, AddressSize: m.AddressSize, SM: targetSM(m.Target), funcByName: map[string]*Function{}},
		globals: map[string]*Variable{}, module: m, legacyWarp: legacyWarpOK(m), mapF64: slices.Contains(m.Target.Names, "map_f64_to_f32")}
	b.declareModule(m)
	b.prog.SrcLines = sourceLines(m)
	// Each function passes through every stage while its IR is still in the cache. Once
	// lowering has reported an error, later functions are only lowered, and only the lowering
	// errors are returned.
	verifyErrs := map[*Function]ErrorList{}
	for _, it := range m.Items {
		f, ok := it.(*frontend.Function)
		if !ok || f.Body == nil {
			continue
		}
		fn := b.lowerFunction(f)
		if fn == nil || len(b.errs) > 0 {
			continue
		}
		buildSSA(fn, &b.mem)
		computeDominance(fn)
		uniformity(fn)
		if errs := verify(fn); len(errs) > 0 {
			verifyErrs[fn] = errs
		}
	}
	if len(b.errs) > 0 {
		return b.prog, b.errs
	}
	b.prog.calls = buildCallGraph(b.prog)
	var errs ErrorList
	for _, fn := range b.prog.Funcs {
		errs = append(errs, verifyErrs[fn]...)
	}
	if len(errs) > 0 {
		return b.prog, errs[:min(len(errs), maxErrors)]
	}
	return b.prog, nil
}

type builder struct {
	prog    *Program
	globals map[string]*Variable
	errs    ErrorList
	fn      *Function
	scopes  []scope // innermost last
	// group is the `{ }` group being lowered (an index into fn.Groups), -1 outside the body.
	group int
	// declared counts the registers the function declares (MaxRegisters).
	declared int
	labels   map[string]*Block
	cur      *Block
	module   *frontend.Module // searched for the owner of a label of another function
	// bodyParams are the .param declarations in kernel bodies that declare the kernel's
	// parameters (bodyKernelParams); lowering the body skips them.
	bodyParams map[*frontend.VarDecl]bool
	// moduleRegs are the module-scope .reg declarations (PTX ISA 1.x compilers declared
	// scratch registers such as %rv<5> there). Registers are per thread, so each function
	// gets its own copy of them, in a scope outside its parameters: nothing flows between
	// functions through them (compilers passed arguments and results in parameters).
	moduleRegs []*frontend.VarDecl
	// mapF64 is set when the .target has map_f64_to_f32 (see mapsF64).
	mapF64 bool
	// legacyWarp says the module may use vote and shfl without .sync (legacyWarpOK).
	legacyWarp bool
	// defs collects the definitions of the destination being lowered.
	defs []*Value
	mem  memory
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
			if it.Space == frontend.SpaceReg {
				b.moduleRegs = append(b.moduleRegs, it)
				continue
			}
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
		}
	}
}

// labelOwner returns the first function of the module that defines the label name, to explain a
// branch to a label of another function.
func (b *builder) labelOwner(name string) (string, bool) {
	for _, it := range b.module.Items {
		if f, ok := it.(*frontend.Function); ok && f.Body != nil && hasLabel(f.Body, name) {
			return f.Name, true
		}
	}
	return "", false
}

// hasLabel reports whether a group or a group inside it defines the label name.
func hasLabel(blk *frontend.Block, name string) bool {
	for _, st := range blk.Stmts {
		switch st := st.(type) {
		case *frontend.Label:
			if st.Name == name {
				return true
			}
		case *frontend.Block:
			if hasLabel(st, name) {
				return true
			}
		}
	}
	return false
}

func (b *builder) declareFunction(f *frontend.Function) {
	fn := &Function{Name: f.Name, Pos: f.Pos, Kind: f.Kind, Linkage: f.Linkage, Noreturn: f.Noreturn, Decl: f.Body == nil}
	params := f.Params
	if inBody := b.bodyKernelParams(f); inBody != nil {
		params = inBody
	}
	fn.Params = b.params(fn, params)
	fn.Results = b.params(fn, f.Results)
	fn.Sig = Signature{Params: paramTypes(params), Results: paramTypes(f.Results)}
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

// bodyKernelParams returns the parameters of a PTX ISA 1.x kernel written without a
// parameter list, nil for any other function. Before ISA 2.0 a kernel could declare its
// parameters as .param variables at the top of its body (`.entry k { .param .u64 a; ... }`,
// as nvcc 2.x emitted); they are the kernel's parameters in declaration order, not local
// .param variables, and are recorded in b.bodyParams.
func (b *builder) bodyKernelParams(f *frontend.Function) []*frontend.Param {
	if f.Kind != frontend.Entry || f.HasParams || f.Body == nil || b.module.Version.Major != 1 {
		return nil
	}
	var ps []*frontend.Param
	for _, st := range f.Body.Stmts {
		d, ok := st.(*frontend.VarDecl)
		if !ok || d.Space != frontend.SpaceParam {
			continue
		}
		for _, n := range d.Names {
			if n.Count > 0 || n.Init != nil {
				b.errorf(n.Pos, "kernel parameter %s cannot be a register range or have an initializer", n.Name)
				continue
			}
			ps = append(ps, &frontend.Param{Pos: n.Pos, Space: frontend.SpaceParam, Align: d.Align, Vector: d.Vector,
				Type: d.Type, Name: n.Name, Dims: n.Dims})
		}
		if b.bodyParams == nil {
			b.bodyParams = map[*frontend.VarDecl]bool{}
		}
		b.bodyParams[d] = true
	}
	return ps
}

func (b *builder) params(fn *Function, ps []*frontend.Param) []*Param {
	out := make([]*Param, len(ps))
	params := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = &params[i]
		params[i].Name = p.Name
		if p.Space == frontend.SpaceReg {
			if len(p.Dims) > 0 {
				b.errorf(p.Pos, "register parameter %s cannot be an array", p.Name)
			}
			if p.Vector == 0 {
				r := &b.newRegs(1)[0]
				*r = Reg{Name: p.Name, Type: p.Type, Pos: p.Pos}
				params[i].Regs = []*Reg{r}
			} else {
				params[i].Regs = b.vectorElems(p.Name, p.Type, p.Vector, p.Pos)
			}
			continue
		}
		v := b.mem.vars.alloc()
		*v = Variable{Name: p.Name, Pos: p.Pos, Space: frontend.SpaceParam, Type: p.Type, Vector: p.Vector,
			Align: p.Align, Dims: p.Dims, Size: varSize(p.Type, p.Vector, p.Dims), Func: fn, Group: -1}
		params[i].Var = v
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

// sameSignature compares signatures the way PTX matches calls: by parameter shapes.
func sameSignature(a, b Signature) bool {
	return sameParamTypes(a.Params, b.Params) && sameParamTypes(a.Results, b.Results)
}

func sameParamTypes(a, b []ParamType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Shape() != b[i].Shape() {
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
		expandNames(n, func(name string) {
			v := b.mem.vars.alloc()
			*v = Variable{Name: name, Pos: n.Pos, Space: d.Space, Linkage: d.Linkage, Type: d.Type, Vector: d.Vector,
				Align: d.Align, Dims: n.Dims, Size: varSize(d.Type, d.Vector, n.Dims), Init: n.Init, Func: fn,
				Managed: slices.Contains(d.Attrs, ".managed"), Group: -1}
			out = append(out, v)
		})
	}
	return out
}

// expandNames calls f on each name a declarator declares: itself, or name0..nameN-1 for
// `name<N>`. The N names share one string, so a declaration of N registers costs one allocation.
func expandNames(n *frontend.Declarator, f func(name string)) {
	if n.Count == 0 {
		f(n.Name)
		return
	}
	var num [20]byte
	var all strings.Builder
	all.Grow(n.Count * (len(n.Name) + len(strconv.AppendInt(num[:0], int64(n.Count-1), 10))))
	for i := range n.Count {
		all.WriteString(n.Name)
		all.Write(strconv.AppendInt(num[:0], int64(i), 10))
	}
	names := all.String()
	for i := range n.Count {
		size := len(n.Name) + len(strconv.AppendInt(num[:0], int64(i), 10))
		f(names[:size])
		names = names[size:]
	}
}

// ---- function bodies ----

// lowerFunction lowers a function definition, returning nil for a duplicate definition.
func (b *builder) lowerFunction(f *frontend.Function) *Function {
	fn := b.prog.funcByName[f.Name]
	if fn == nil || fn.Pos != f.Pos {
		return nil // a duplicate definition, already reported
	}
	b.fn = fn
	b.declared = 0
	fn.ClusterCTAs = clusterCTAs(f)
	fn.BranchTables = map[string][]*Block{}
	fn.CallLists = map[string][]*Function{}
	fn.Prototypes = map[string]*Signature{}
	b.labels = map[string]*Block{}
	b.scopes = b.scopes[:0]
	b.group = -1
	if len(b.moduleRegs) > 0 {
		b.pushScope()
		for _, d := range b.moduleRegs {
			b.declare(d)
		}
	}
	params := b.pushScope()
	for _, p := range slices.Concat(fn.Params, fn.Results) {
		switch {
		case p.Var != nil:
			params.enter(p.Name, p.Var)
		case len(p.Regs) == 1:
			b.addReg(p.Regs[0])
			params.enter(p.Name, p.Regs[0])
		default:
			params.enter(p.Name, &vecReg{elems: p.Regs})
			for i, r := range p.Regs {
				b.addReg(r)
				for _, spelling := range vectorComponents {
					params.enter(p.Name+"."+spelling[i], r)
				}
			}
		}
	}
	entry := b.newBlock(f.Body.Pos)
	b.collectLabels(f.Body)
	b.cur = entry
	b.lowerBlock(f.Body)
	if b.cur != nil && !b.terminated(b.cur) {
		b.setTerm(b.cur, Terminator{Kind: TermRet, Pos: f.Body.End, RetVals: b.retVals()})
	}
	fn.Exit = b.mem.blocks.alloc()
	*fn.Exit = Block{ID: len(fn.Blocks), Func: fn, Term: Terminator{Kind: TermNone}, Pos: f.Body.End}
	for _, bl := range fn.Blocks {
		switch bl.Term.Kind {
		case TermRet, TermExit, TermTrap:
			b.link(bl, fn.Exit)
		}
	}
	return fn
}

// retVals reads the registers of the function's .reg return parameters, for a ret.
// clusterCTAs returns the number of CTAs per cluster a kernel's `.reqnctapercluster` requires,
// or 0 without one.
func clusterCTAs(f *frontend.Function) int {
	for _, d := range f.Directives {
		if d.Name == ".reqnctapercluster" {
			n := int64(1)
			for _, a := range d.Args {
				n *= a
			}
			return int(n)
		}
	}
	return 0
}

func (b *builder) retVals() []*Value {
	var vals []*Value
	for _, p := range b.fn.Results {
		for _, r := range p.Regs {
			vals = append(vals, b.use(r))
		}
	}
	return vals
}

func (b *builder) newBlock(pos frontend.Pos) *Block {
	bl := b.mem.blocks.alloc()
	*bl = Block{ID: len(b.fn.Blocks), Pos: pos, Func: b.fn, Term: Terminator{Kind: TermNone}}
	b.fn.Blocks = b.mem.blockL.append(b.fn.Blocks, bl)
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

// newRegs returns n zeroed registers.
func (b *builder) newRegs(n int) []Reg { return b.mem.regs.slice(n)[:n] }

func (b *builder) addReg(r *Reg) {
	r.ID = len(b.fn.Regs)
	b.fn.Regs = b.mem.regL.append(b.fn.Regs, r)
}

// lowerBlock lowers a `{ }` group in a scope of its own.
func (b *builder) lowerBlock(blk *frontend.Block) {
	b.pushScope()
	outer := b.group
	b.group = len(b.fn.Groups)
	b.fn.Groups = append(b.fn.Groups, outer)
	defer func() {
		b.scopes = b.scopes[:len(b.scopes)-1]
		b.group = outer
	}()
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
			if !b.bodyParams[st] {
				b.declare(st)
			}
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

// pushScope opens an empty innermost scope, reusing the memory of one closed before.
func (b *builder) pushScope() *scope {
	n := len(b.scopes)
	if n < cap(b.scopes) {
		b.scopes = b.scopes[:n+1]
		old := &b.scopes[n]
		*old = scope{entries: old.entries[:0], ranges: old.ranges[:0]}
	} else {
		b.scopes = append(b.scopes, scope{})
	}
	return &b.scopes[n]
}

// scope returns the innermost scope.
func (b *builder) scope() *scope { return &b.scopes[len(b.scopes)-1] }

// MaxRegisters is the most registers one function may declare. Compilers declare a few
// thousand at most; the limit keeps a declaration such as `.reg .b32 %r<1000000000>` from
// exhausting memory.
const MaxRegisters = 1 << 20

func (b *builder) declare(d *frontend.VarDecl) {
	if d.Space != frontend.SpaceReg {
		for _, v := range b.variables(d, b.fn) {
			b.define(v.Name, v, v.Pos)
			v.Group = b.group
			b.fn.Vars = append(b.fn.Vars, v)
		}
		return
	}
	for _, n := range d.Names {
		if len(n.Dims) > 0 || n.Init != nil {
			b.errorf(n.Pos, "register %s cannot have array dimensions or an initializer", n.Name)
			continue
		}
		count := max(n.Count, 1) * max(d.Vector, 1)
		if b.declared+count > MaxRegisters {
			b.errorf(n.Pos, "declaring %d more registers would take function %s past the limit of %d", count, b.fn.Name, MaxRegisters)
			continue
		}
		b.declared += count
		// Scalar registers `name<N>` that cannot repeat a name of the scope form a range.
		if d.Vector == 0 && n.Count > 0 && !b.scope().mayRepeat(n.Name) {
			b.scope().ranges = append(b.scope().ranges, regRange{prefix: n.Name, count: n.Count, typ: d.Type, pos: n.Pos, add: b.addReg})
			continue
		}
		expandNames(n, func(name string) {
			if d.Vector == 0 {
				r := &b.newRegs(1)[0]
				*r = Reg{Name: name, Type: d.Type, Pos: n.Pos}
				b.addReg(r)
				b.define(name, r, n.Pos)
				return
			}
			b.define(name, b.vectorReg(name, d, n.Pos), n.Pos)
		})
	}
}

// vectorComponents are the element selectors of vector registers, in both spellings.
var vectorComponents = [2][4]string{{"x", "y", "z", "w"}, {"r", "g", "b", "a"}}

// vectorReg declares a .v2/.v4 register as one scalar register per element, reachable as
// `%v.x` or `%v.r`; the whole vector reads and writes as `{%v.x, %v.y, ...}`.
func (b *builder) vectorReg(name string, d *frontend.VarDecl, pos frontend.Pos) *vecReg {
	v := &vecReg{elems: b.vectorElems(name, d.Type, d.Vector, pos)}
	for i, r := range v.elems {
		b.addReg(r)
		for _, spelling := range vectorComponents {
			b.define(name+"."+spelling[i], r, pos)
		}
	}
	return v
}

// vectorElems makes the element registers name.x, name.y, ... of a vector register or
// parameter of n elements of type t, reporting vectors the ISA does not have.
func (b *builder) vectorElems(name string, t frontend.Type, n int, pos frontend.Pos) []*Reg {
	if n > 4 {
		b.errorf(pos, "vector registers have at most 4 elements")
		n = 4
	}
	if t == frontend.Pred {
		b.errorf(pos, "vector register %s cannot be .pred", name)
	}
	regs := b.newRegs(n)
	elems := make([]*Reg, n)
	for i := range regs {
		regs[i] = Reg{Name: name + "." + vectorComponents[0][i], Type: t, Pos: pos}
		elems[i] = &regs[i]
	}
	return elems
}

// vecReg is a vector register, lowered to its element registers.
type vecReg struct {
	elems []*Reg
}

func (b *builder) define(name string, ent any, pos frontend.Pos) {
	if !b.scope().define(name, ent) {
		b.errorf(pos, "%s is already declared in this scope", name)
	}
}

// lookup resolves a name through the scopes, then module variables and functions.
func (b *builder) lookup(name string) any {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if e := b.scopes[i].lookup(name); e != nil {
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
	b.link(from, to)
}

// link adds the edge from -> to.
func (b *builder) link(from, to *Block) {
	from.Succs = b.mem.blockL.append(from.Succs, to)
	to.Preds = b.mem.blockL.append(to.Preds, from)
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
	return b.use(r), in.Guard.Negate
}

// use returns r's placeholder for a read; SSA construction replaces each read with the value
// reaching it. One placeholder per register serves all its reads.
func (b *builder) use(r *Reg) *Value {
	if r.placeholder == nil {
		r.placeholder = b.mem.values.alloc()
		*r.placeholder = Value{Reg: r, Version: -1}
	}
	return r.placeholder
}

func (b *builder) regNamed(name string, pos frontend.Pos, what string) *Reg {
	switch e := b.lookup(name).(type) {
	case *Reg:
		return e
	case nil:
		if _, isConst := predefinedConstants[name]; isConst {
			b.errorf(pos, "%s is a predefined constant, not a register", name)
		} else if !b.subwordSelector(name, pos) {
			b.errorf(pos, "undeclared register %s", name)
		}
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
	b.link(from, taken)
	b.link(from, fall)
	b.cur = fall
	return taken
}

func (b *builder) instruction(in *frontend.Instruction) {
	g, neg := b.guard(in)
	switch in.Op {
	case frontend.OpBra:
		b.branch(in, g, neg, in.Has(frontend.ModUni))
		return
	case frontend.OpBrx:
		b.brx(in, g, neg, in.Has(frontend.ModUni))
		return
	case frontend.OpCall:
		b.call(in, g, neg, in.Has(frontend.ModUni))
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
		t := Terminator{Kind: kind, Pos: in.Pos, Uni: in.Has(frontend.ModUni)}
		if kind == TermRet {
			t.RetVals = b.retVals()
		}
		bl.Term = t
		if g == nil {
			b.cur = nil
		}
		return
	}
	if (in.Op == frontend.OpVote || in.Op == frontend.OpShfl) && !in.Has(frontend.ModSync) && !b.legacyWarp {
		b.errorf(in.Pos, "%s without .sync is not supported for .target sm_70 and higher from PTX ISA version 6.4 (this module: .version %d.%d, .target sm_%d); use %s.sync",
			in.Op, b.module.Version.Major, b.module.Version.Minor, targetSM(b.module.Target), in.Op)
	}
	if b.mapF64 && mapsF64(in) {
		b.errorf(in.Pos, "%s: .target map_f64_to_f32 runs double-precision instructions in single precision on half of each .f64 register; that mapping is not supported", in.Op)
	}
	bl := b.block(in.Pos)
	ins := b.mem.instrs.alloc()
	*ins = Instr{Op: in.Op, Mods: legacyFloatMods(b.module, b.prog.SM, in), Pos: in.Pos, Block: bl, Guard: g, GuardNeg: neg}
	ops := in.Operands
	if len(ops) > 0 && hasDestination(in.Op, in.Mods) {
		if _, isAddr := ops[0].(*frontend.Address); !isAddr {
			b.defs = b.defs[:0]
			ins.Dsts = append(b.mem.args.slice(1), b.dst(ins, ops[0]))
			ins.Defs = b.mem.vals.copy(b.defs)
			ops = ops[1:]
		}
	}
	ins.Args = b.mem.args.slice(len(ops))
	for _, o := range ops {
		ins.Args = append(ins.Args, b.src(o))
	}
	b.checkConstWrite(ins)
	if g != nil {
		ins.Prev = b.prev(ins.Defs)
	}
	bl.Instrs = b.mem.instrL.append(bl.Instrs, ins)
}

// checkConstWrite rejects an instruction that writes the constant state space, which kernels
// may only read: st, atom and red with .const, or naming a .const variable as the address.
// (A generic address that reaches constant memory at run time faults instead.)
func (b *builder) checkConstWrite(in *Instr) {
	if in.Op != frontend.OpSt && in.Op != frontend.OpAtom && in.Op != frontend.OpRed {
		return
	}
	if in.Space() == frontend.SpaceConst {
		b.errorf(in.Pos, "%s.const: the constant state space is read-only; %s may write .global, .shared, .local or generic addresses", in.Op, in.Op)
		return
	}
	if len(in.Args) > 0 && in.Args[0].Kind == ArgAddr && in.Args[0].Var != nil && in.Args[0].Var.Space == frontend.SpaceConst {
		b.errorf(in.Pos, "%s to .const variable %s: the constant state space is read-only", in.Op, in.Args[0].Var.Name)
	}
}

// prev returns, for a guarded instruction or call, the values its defs keep when the guard is
// false: the values their registers hold before it.
func (b *builder) prev(defs []*Value) []*Value {
	prev := b.mem.vals.slice(len(defs))
	for _, d := range defs {
		prev = append(prev, b.use(d.Reg))
	}
	return prev
}

// hasDestination reports whether the first operand of an instruction with opcode op and
// modifiers mods is written rather than read.
func hasDestination(op frontend.Opcode, mods []frontend.Mod) bool {
	if op == frontend.OpWgmma && !modsHave(mods, modMmaAsync) {
		// wgmma.fence, wgmma.commit_group and wgmma.wait_group N write nothing.
		return false
	}
	switch op {
	case frontend.OpSt, frontend.OpRed, frontend.OpBar, frontend.OpBarrier, frontend.OpMembar, frontend.OpFence,
		frontend.OpPrefetch, frontend.OpPrefetchu, frontend.OpApplypriority, frontend.OpDiscard, frontend.OpNanosleep,
		frontend.OpPmevent, frontend.OpBrkpt, frontend.OpSured, frontend.OpSust, frontend.OpCp, frontend.OpStackrestore,
		frontend.OpGriddepcontrol, frontend.OpSetmaxnreg, frontend.OpStmatrix, frontend.OpMultimem:
		return false
	}
	return true
}

// dst lowers a destination operand of ins, or of a call when ins is nil, creating one definition
// per written register and appending it to b.defs.
func (b *builder) dst(ins *Instr, o frontend.Operand) Arg {
	newDef := func(r *Reg, pos frontend.Pos) Arg {
		v := b.mem.values.alloc()
		*v = Value{Reg: r, Kind: DefInstr, Instr: ins}
		if ins == nil {
			v.Kind = DefCall
		}
		b.defs = append(b.defs, v)
		return Arg{Kind: ArgValue, Value: v, Pos: pos}
	}
	def := func(id *frontend.Ident) Arg {
		if id.Name == "_" {
			return Arg{Kind: ArgSink, Pos: id.Pos}
		}
		r := b.regNamed(id.Name, id.Pos, "destination")
		if r == nil {
			return Arg{Kind: ArgSink, Pos: id.Pos}
		}
		return newDef(r, id.Pos)
	}
	switch o := o.(type) {
	case *frontend.Ident:
		switch e := b.lookup(o.Name).(type) {
		case *Reg:
			return newDef(e, o.Pos)
		case *vecReg:
			a := Arg{Kind: ArgVector, Pos: o.Pos, Elems: b.mem.args.slice(len(e.elems))}
			for _, r := range e.elems {
				a.Elems = append(a.Elems, newDef(r, o.Pos))
			}
			return a
		}
		return def(o) // reports what the name is instead
	case *frontend.Sink:
		return Arg{Kind: ArgSink, Pos: o.Pos}
	case *frontend.PredPair:
		return Arg{Kind: ArgPair, Pos: o.Pos, Elems: append(b.mem.args.slice(2), def(o.First), def(o.Second))}
	case *frontend.VectorOp:
		a := Arg{Kind: ArgVector, Pos: o.Pos, Elems: b.mem.args.slice(len(o.Elems))}
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

// predefinedConstants are the constants among the PTX ISA's predefined identifiers (the others
// are special registers): WARP_SZ, the number of threads in a warp, which nvcc writes for
// warpSize. Each may stand wherever an immediate operand may; a declared name hides it, as it
// hides a special register.
var predefinedConstants = map[string]uint64{"WARP_SZ": 32}

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

// PerfMonitorRegister reports whether name is one of the performance monitor counters
// %pm0 ... %pm7 (32-bit) or %pm0_64 ... %pm7_64 (64-bit). The PTX ISA leaves their contents
// undefined; both back ends read them as 0.
func PerfMonitorRegister(name string) bool {
	n, ok := strings.CutPrefix(name, "%pm")
	if !ok {
		return false
	}
	n = strings.TrimSuffix(n, "_64")
	return len(n) == 1 && n[0] >= '0' && n[0] <= '7'
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
		return Arg{Kind: ArgValue, Value: b.use(r), Not: true, Pos: o.Pos}
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
			a.Value = b.use(e)
		case *Variable:
			a.Var = e
		case nil:
			if _, isConst := predefinedConstants[o.Base]; isConst {
				b.errorf(o.Pos, "%s is a predefined constant, not a register or variable", o.Base)
			} else {
				b.errorf(o.Pos, "undeclared register or variable %s", o.Base)
			}
		default:
			b.errorf(o.Pos, "%s cannot be used as an address", o.Base)
		}
		return a
	case *frontend.VectorOp:
		a := Arg{Kind: ArgVector, Pos: o.Pos, Elems: b.mem.args.slice(len(o.Elems))}
		for _, e := range o.Elems {
			a.Elems = append(a.Elems, b.src(e))
		}
		return a
	case *frontend.ImageOp:
		a := Arg{Kind: ArgImage, Pos: o.Pos, Elems: b.mem.args.slice(len(o.Elems))}
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
		return Arg{Kind: ArgValue, Value: b.use(e), Pos: pos}
	case *Variable:
		return Arg{Kind: ArgSym, Var: e, Offset: off, Pos: pos}
	case *Function:
		return Arg{Kind: ArgSym, Fn: e, Offset: off, Pos: pos}
	case *vecReg:
		a := Arg{Kind: ArgVector, Pos: pos, Elems: b.mem.args.slice(len(e.elems))}
		for _, r := range e.elems {
			a.Elems = append(a.Elems, Arg{Kind: ArgValue, Value: b.use(r), Pos: pos})
		}
		return a
	}
	if v, ok := predefinedConstants[name]; ok {
		if off != 0 {
			b.errorf(pos, "the predefined constant %s cannot take an offset", name)
		}
		return Arg{Kind: ArgImm, Imm: v, Pos: pos}
	}
	if SpecialRegister(name) {
		return Arg{Kind: ArgSpecial, Name: name, Pos: pos}
	}
	if _, isLabel := b.labels[name]; isLabel {
		b.errorf(pos, "label %s can only be a branch target", name)
	} else if !b.subwordSelector(name, pos) {
		b.errorf(pos, "undeclared identifier %s", name)
	}
	return Arg{Kind: ArgSink, Pos: pos}
}

// subwordSelector reports, as an unsupported form, a register operand with a byte or
// half-word selector (%r.b0 ... %r.b3, %r.h0, %r.h1, which only the video instructions take),
// and says whether name was one.
func (b *builder) subwordSelector(name string, pos frontend.Pos) bool {
	base, sel, ok := strings.Cut(name, ".")
	if !ok || !slices.Contains([]string{"b0", "b1", "b2", "b3", "h0", "h1"}, sel) {
		return false
	}
	if _, isReg := b.lookup(base).(*Reg); !isReg {
		return false
	}
	b.errorf(pos, "the subword selector .%s on %s is not supported", sel, base)
	return true
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
		if len(b.errs) >= maxErrors {
			return // not reported anyway; spare the search for the label's owner
		}
		if owner, isLabel := b.labelOwner(nameOf(id)); isLabel {
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
		b.link(from, target)
		b.cur = nil
		return
	}
	fall := b.newBlock(in.Pos)
	from.Term = Terminator{Kind: TermBranch, Pos: in.Pos, Uni: uni, Cond: g, Negate: neg}
	b.link(from, target)
	b.link(from, fall)
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
			b.link(bl, t)
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
	if len(ops) > 0 {
		if l, ok := ops[0].(*frontend.ListOp); ok {
			b.defs = b.defs[:0]
			for _, e := range l.Elems {
				c.Results = append(c.Results, b.callResult(e))
			}
			c.Defs = b.mem.vals.copy(b.defs)
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
	from.Term = Terminator{Kind: TermCall, Pos: in.Pos, Uni: uni, Call: c}
	cont := b.newBlock(in.Pos)
	b.link(from, cont)
	b.cur = cont
	if g != nil {
		c.Prev = b.prev(c.Defs)
	}
}

// callResult lowers one operand of a call's result list: a register, a vector register or a
// braced vector of registers is defined by the call, its definitions appended to b.defs; a
// .param variable receives the value.
func (b *builder) callResult(o frontend.Operand) Arg {
	switch o := o.(type) {
	case *frontend.VectorOp:
		return b.dst(nil, o)
	case *frontend.Ident:
		switch b.lookup(o.Name).(type) {
		case *Reg, *vecReg:
			return b.dst(nil, o)
		}
	}
	a := b.src(o)
	if a.Kind != ArgSym && a.Kind != ArgSink {
		b.errorf(o.Position(), "a call's return value must be a register, a vector of registers or a .param variable")
	}
	return a
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
