package frontend

// Node is any AST node; every node knows its source position.
type Node interface {
	Position() Pos
}

// Module is one parsed PTX file.
type Module struct {
	Pos
	Version     Version
	Target      Target
	AddressSize int // 32 or 64; 0 when the module has no .address_size directive
	Items       []Item
}

// Version is the `.version major.minor` directive.
type Version struct {
	Pos
	Major, Minor int
}

// Target is the `.target` directive: an architecture (`sm_80`, `sm_90a`, `compute_70`) and options
// such as `texmode_independent` or `debug`, in source order.
type Target struct {
	Pos
	Names []string
}

// Item is a module-level element: *Function, *VarDecl, *Pragma, *FileDirective, *Section,
// *Loc or *Dwarf.
type Item interface {
	Node
	item()
}

// Stmt is an element of a function body or instruction group: *Block, *Label, *Instruction,
// *VarDecl, *BranchTargets, *CallTargets, *CallPrototype, *Pragma, *Loc or *Dwarf.
type Stmt interface {
	Node
	stmt()
}

// FuncKind distinguishes kernels from device functions.
type FuncKind uint8

// The function kinds.
const (
	Entry FuncKind = iota // .entry: a kernel
	Func                  // .func: a device function
)

// Function is a `.entry` or `.func`, a declaration when Body is nil.
//
//	.visible .func (.param .b32 rv) name (.param .b32 a) .noreturn { ... }
type Function struct {
	Pos
	Linkage    Linkage
	Kind       FuncKind
	Name       string
	Results    []*Param // return parameters (.func only)
	HasParams  bool     // whether a parameter list was written, possibly empty: `f()` versus `f`
	Params     []*Param
	Noreturn   bool
	Directives []*PerfDirective
	Pragmas    []*Pragma // `.pragma` directives between the header and the body
	Body       *Block    // nil for a declaration (prototype) ending in ';'
}

// Param is one formal parameter or return parameter.
//
//	.param .u64 .ptr .global .align 16 p
//	.param .align 8 .b8 s[24]
//	.reg .b32 x
type Param struct {
	Pos
	Space    Space // SpaceParam or SpaceReg
	Align    int   // 0 when absent
	Vector   int   // 0, 2, 4 or 8
	Type     Type
	Ptr      bool  // the .ptr attribute
	PtrSpace Space // with Ptr: the pointed-to space, or SpaceNone for generic
	PtrAlign int   // with Ptr: the pointed-to alignment, 0 when absent
	Name     string
	Dims     []int // array dimensions; -1 for an unsized dimension
}

// PerfDirective is a performance-tuning directive after a function's parameters:
// `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnreg`, `.maxclusterrank`,
// `.reqnctapercluster` or `.explicitcluster`.
type PerfDirective struct {
	Pos
	Name string // with its leading dot
	Args []int64
}

// Block is a `{ }` group of statements; it opens a scope.
type Block struct {
	Pos
	Stmts []Stmt
	End   Pos // position of the closing brace
}

// Label is `name:` before a statement.
type Label struct {
	Pos
	Name string
}

// VarDecl declares variables (in any state space) or registers.
//
//	.visible .global .align 4 .b8 tbl[16] = {1, 2, 3, 4};
//	.reg .b32 %r<100>;
type VarDecl struct {
	Pos
	Linkage Linkage
	Space   Space
	Attrs   []string // `.attribute(.managed)` arguments, in order
	Align   int      // 0 when absent
	Vector  int      // 0, 2, 4 or 8
	Type    Type
	Ptr     bool // `.ptr` on a local .param declaration
	Names   []*Declarator
}

// Declarator is one declared name with its repetition count, array dimensions and initializer.
type Declarator struct {
	Pos
	Name  string
	Count int   // N in `%r<N>`; 0 when not parameterized
	Dims  []int // -1 for an unsized `[]` dimension
	Init  Init  // nil when absent
}

// Init is an initializer: *InitList, *IntLit, *FloatLit, *SymRef or *GenericRef.
type Init interface {
	Node
	initializer()
}

// InitList is a braced initializer `{a, b, {c, d}}`.
type InitList struct {
	Pos
	Elems []Init
}

// SymRef names a variable or function in an initializer, with an optional byte offset:
// `foo`, `arr+8`.
type SymRef struct {
	Pos
	Name   string
	Offset int64
}

// GenericRef is `generic(var)` with an optional byte offset: the variable's generic address.
type GenericRef struct {
	Pos
	Name   string
	Offset int64
}

// BranchTargets is `name: .branchtargets L1, L2, ...;`.
type BranchTargets struct {
	Pos
	Name   string
	Labels []*Ident
}

// CallTargets is `name: .calltargets f, g, ...;`.
type CallTargets struct {
	Pos
	Name  string
	Funcs []*Ident
}

// CallPrototype is `name: .callprototype (.param .b32 _) _ (.param .b32 _);`.
type CallPrototype struct {
	Pos
	Name       string
	HasResults bool // whether a return parameter list was written
	Results    []*Param
	HasParams  bool // whether a parameter list was written
	Params     []*Param
	Noreturn   bool
}

// Pragma is `.pragma "s1", "s2";` at module, function or statement level.
type Pragma struct {
	Pos
	Strings []string
}

// FileDirective is the debug directive `.file N "name"` with any trailing fields kept raw.
type FileDirective struct {
	Pos
	Index int
	Name  string
	Rest  string // e.g. `, 1589423456, 1024`, verbatim; empty when absent
}

// Loc is the debug directive `.loc file line column`, with trailing fields (`function_name`,
// `inlined_at`) kept raw.
type Loc struct {
	Pos
	File, Line, Col int
	Rest            string
}

// Section is a `.section name { ... }` debug section; its contents are kept verbatim.
type Section struct {
	Pos
	Name string
	Text string // between the braces, with surrounding white space trimmed
}

// Dwarf is an old-style `@@DWARF ...` debug line, kept verbatim.
type Dwarf struct {
	Pos
	Text string // after `@@DWARF`, trimmed
}

// Guard is an instruction's guard predicate `@p` or `@!p`.
type Guard struct {
	Pos
	Negate bool
	Pred   string
}

// Instruction is one PTX instruction: optional guard, opcode, modifiers and operands.
//
//	@!p ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1+16];
type Instruction struct {
	Pos
	Guard    *Guard // nil when unguarded
	Op       Opcode
	Mods     []Mod
	Operands []Operand
}

// Has reports whether the instruction carries modifier m.
func (in *Instruction) Has(m Mod) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// Types returns the instruction's type modifiers in source order (`cvt.f32.s32` gives F32, S32).
func (in *Instruction) Types() []Type {
	var ts []Type
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// Space returns the instruction's state-space modifier, or SpaceNone.
func (in *Instruction) Space() Space {
	for _, m := range in.Mods {
		if s, ok := m.Space(); ok {
			return s
		}
	}
	return SpaceNone
}

// Operand is an instruction operand: *Ident, *Sink, *Not, *IntLit, *FloatLit, *Address,
// *VectorOp, *ListOp, *PredPair, *SymRef or *ImageOp.
type Operand interface {
	Node
	operand()
}

// Ident names a register, variable, label or function; which one is resolved later. A
// component suffix stays part of the name (`%tid.x`, `%v1.y`).
type Ident struct {
	Pos
	Name string
}

// Sink is the `_` operand.
type Sink struct {
	Pos
}

// Not is a negated predicate operand `!p`.
type Not struct {
	Pos
	X *Ident
}

// IntBase records how an integer literal was written, so the printer can keep it.
type IntBase uint8

// The integer literal bases.
const (
	Decimal IntBase = iota
	Hex
	Octal
	Binary
)

// IntLit is an integer literal. Value holds the two's-complement bits of the literal's value
// (negative literals included); Unsigned records a `U` suffix.
type IntLit struct {
	Pos
	Value    uint64
	Negative bool // written with a leading '-'
	Unsigned bool
	Base     IntBase
}

// FloatForm records how a floating-point literal was written.
type FloatForm uint8

// The floating-point literal forms.
const (
	FloatDecimal FloatForm = iota // 1.5, 1e-3
	FloatHex32                    // 0f3F800000: exact single-precision bits
	FloatHex64                    // 0d3FF0000000000000: exact double-precision bits
)

// FloatLit is a floating-point literal. Bits holds the exact IEEE bits: float32 bits for
// FloatHex32, float64 bits otherwise (NaN payloads are kept).
type FloatLit struct {
	Pos
	Form FloatForm
	Bits uint64
}

// Address is a memory operand `[base]`, `[base+off]` or `[imm]`. Base is a register or a
// variable name, empty for an absolute immediate address.
type Address struct {
	Pos
	Base   string
	Offset int64
}

// VectorOp is a braced vector operand `{%r1, %r2, _, %r4}`.
type VectorOp struct {
	Pos
	Elems []Operand
}

// ImageOp is the bracketed operand of the texture and surface instructions: `[tex, {x, y}]`,
// `[tex, sampler, {x, y}]`, `[surf, {x, y}]` or `[tex]` (txq, suq). Its elements are the
// texture, sampler or surface (a .texref/.surfref variable or a .u64 register holding an
// object handle) and the coordinate vector; the instruction's opcode says which is which.
type ImageOp struct {
	Pos
	Elems []Operand
}

// ListOp is a parenthesized operand list of a call: `(a, b)`, possibly empty.
type ListOp struct {
	Pos
	Elems []Operand
}

// PredPair is the two-destination result `p|q` of setp and friends.
type PredPair struct {
	Pos
	First, Second *Ident
}

func (*Function) item()      {}
func (*VarDecl) item()       {}
func (*Pragma) item()        {}
func (*FileDirective) item() {}
func (*Section) item()       {}
func (*Loc) item()           {}
func (*Dwarf) item()         {}

func (*Block) stmt()         {}
func (*Label) stmt()         {}
func (*Instruction) stmt()   {}
func (*VarDecl) stmt()       {}
func (*BranchTargets) stmt() {}
func (*CallTargets) stmt()   {}
func (*CallPrototype) stmt() {}
func (*Pragma) stmt()        {}
func (*Loc) stmt()           {}
func (*Dwarf) stmt()         {}

func (*InitList) initializer()   {}
func (*IntLit) initializer()     {}
func (*FloatLit) initializer()   {}
func (*SymRef) initializer()     {}
func (*GenericRef) initializer() {}

func (*Ident) operand()    {}
func (*Sink) operand()     {}
func (*Not) operand()      {}
func (*IntLit) operand()   {}
func (*FloatLit) operand() {}
func (*Address) operand()  {}
func (*VectorOp) operand() {}
func (*ListOp) operand()   {}
func (*PredPair) operand() {}
func (*SymRef) operand()   {}
func (*ImageOp) operand()  {}
