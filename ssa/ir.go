// Package ssa lowers the PTX AST into a typed, verified SSA program whose control-flow graph
// carries explicit reconvergence points: every potentially divergent terminator names the
// immediate post-dominator of its block, where the lanes that split there meet again.
//
// Lowering resolves `{ }` scopes to unique registers, labels to blocks and target lists to blocks,
// functions and signatures. Guarded `ret`, `exit` and `trap` are split into an explicit
// conditional branch to a block holding the unguarded terminator; a guarded `call` also ends
// its block and keeps its guard, so the lanes whose guard is false skip the call. Every call ends
// its block, so the return point of a call is always the start of a block.
package ssa

import (
	"strconv"

	"github.com/ptx2go/ptx2go/frontend"
)

// Program is a lowered PTX module.
type Program struct {
	File string
	// AddressSize is the module's .address_size, 0 when it has none.
	AddressSize int
	// SM is the architecture number of the module's .target (80 for sm_80 or compute_80,
	// 90 for sm_90a), 0 when it names none.
	SM         int
	Funcs      []*Function
	Globals    []*Variable // module-scope variables in declaration order
	funcByName map[string]*Function
	calls      *CallGraph

	// SrcLines maps a PTX line to the CUDA source file:line of the `.loc` directive before its
	// instruction, for the lines that have one (sourceLines).
	SrcLines map[int]string
}

// CanHoldAddress reports whether a scalar of type t can hold a device address: an integer
// or bit-size type as wide as the module's .address_size. A module without the directive
// (PTX before ISA 2.3, where the address size was ptxas's -m32/-m64 choice, not part of the
// text) may use 32- or 64-bit addresses, so both widths can.
func (p *Program) CanHoldAddress(t frontend.Type) bool {
	if t.IsFloat() || !(t.IsInteger() || t.IsBits()) {
		return false
	}
	if p.AddressSize == 0 {
		return t.Bits() == 32 || t.Bits() == 64
	}
	return t.Bits() == p.AddressSize
}

// Func returns the function or kernel named name, or nil.
func (p *Program) Func(name string) *Function { return p.funcByName[name] }

// Signature is a function's parameter and result shape, used to check calls and prototypes.
type Signature struct {
	Results []ParamType
	Params  []ParamType
}

// ParamType is one parameter slot of a signature.
type ParamType struct {
	Space  frontend.Space // SpaceParam or SpaceReg
	Type   frontend.Type
	Vector int
	Size   int64 // total bytes, arrays included
}

// Shape is the canonical form of what a parameter's arguments must match, as calls and
// prototypes compare it: its state space and size and, for a .reg parameter, whether it is a
// predicate (a lane mask, not a register value) and its vector length (each element is passed
// in a register of its own).
func (p ParamType) Shape() string {
	s := p.Space.String() + " " + strconv.FormatInt(p.Size, 10)
	if p.Space == frontend.SpaceReg && p.Type == frontend.Pred {
		s += " pred"
	}
	if p.Space == frontend.SpaceReg && p.Vector > 0 {
		s += " v" + strconv.Itoa(p.Vector)
	}
	return s
}

// Variable is a named piece of memory: a module or function-scope variable in any state space
// other than .reg, or a `.param` parameter of a function.
type Variable struct {
	Name    string
	Pos     frontend.Pos
	Space   frontend.Space
	Linkage frontend.Linkage
	Type    frontend.Type
	Vector  int
	Align   int
	Dims    []int
	Size    int64 // bytes; 0 for an unsized extern array
	Init    frontend.Init
	Func    *Function // the function whose scope declares it; nil at module scope
	// Group is the `{ }` group of Func that declares it (an index into Func.Groups); -1 for a
	// parameter or a module variable.
	Group int
	// Managed marks a CUDA __managed__ variable (`.attribute(.managed)`), which host code
	// reaches at its device address.
	Managed bool
}

// FuncKind distinguishes kernels from device functions.
type FuncKind = frontend.FuncKind

// Function is a lowered `.entry` or `.func`.
type Function struct {
	Name     string
	Pos      frontend.Pos
	Kind     FuncKind
	Linkage  frontend.Linkage
	Sig      Signature
	Noreturn bool
	// ClusterCTAs is the number of CTAs per cluster the kernel's .reqnctapercluster requires,
	// 0 without one.
	ClusterCTAs int
	Params      []*Param
	Results     []*Param
	Decl        bool     // a declaration with no body
	Blocks      []*Block // Blocks[i].ID == i; Blocks[0] is the entry
	Exit        *Block   // the virtual exit: every ret, exit and trap feeds it; it holds no code
	Regs        []*Reg
	Vars        []*Variable // function-scope variables (local, shared, param, ...)
	// Groups are the body's `{ }` groups in source order, each by the index of the group
	// around it (-1 for the body itself). A variable lives only inside its group, so the
	// variables of two groups neither of which holds the other never live at once.
	Groups []int
	Values []*Value // every SSA value, Values[i].ID == i
	// LabelTables are the .branchtargets lists; CallTables the .calltargets lists;
	// Prototypes the .callprototype signatures; each by directive name.
	BranchTables map[string][]*Block
	CallLists    map[string][]*Function
	Prototypes   map[string]*Signature
}

// Param is a formal parameter or return parameter: a `.param` variable or `.reg` registers.
type Param struct {
	Name string    // the source name
	Var  *Variable // for .param
	// Regs are a .reg parameter's registers: one, or one per element of a .v2/.v4 vector,
	// which the body reads and writes as name.x ... or as the vector operand name.
	Regs []*Reg
}

// Reg is one PTX register after scope resolution. Registers that shadow one another are
// distinct Regs with the same source name.
type Reg struct {
	Name string // the source name, e.g. %r1
	ID   int
	Type frontend.Type
	Pos  frontend.Pos
	// placeholder stands for every read of the register until SSA construction resolves it.
	placeholder *Value
}

// DefKind says where a Value comes from.
type DefKind uint8

// The kinds of value definitions.
const (
	DefUndef DefKind = iota // read before any write on some path: the register's initial garbage
	DefParam                // a .reg parameter's incoming value
	DefInstr                // written by an instruction
	DefPhi                  // merged at a join
	DefCall                 // a .reg return value written by a call
)

// Value is one SSA value: one version of one register.
type Value struct {
	ID      int
	Reg     *Reg
	Version int // 1 for the first version of Reg, ...; 0 for undef
	Kind    DefKind
	Uniform bool   // the same in every active lane of a warp
	Instr   *Instr // for DefInstr
	Phi     *Phi   // for DefPhi
}

// Phi merges one value per predecessor at the start of a block.
type Phi struct {
	Dst   *Value
	Args  []*Value // Args[i] flows in from Block.Preds[i]
	Block *Block
}

// Block is a basic block. Control leaves it through its terminator.
type Block struct {
	ID     int
	Label  string // the PTX label that starts it, if any
	Pos    frontend.Pos
	Func   *Function
	Phis   []*Phi
	Instrs []*Instr
	Term   Terminator
	Preds  []*Block
	Succs  []*Block
	Idom   *Block // immediate dominator; nil for the entry and unreachable blocks
	Ipdom  *Block // immediate post-dominator; Func.Exit for blocks that only reach the exit
}

// TermKind is the kind of a block terminator.
type TermKind uint8

// The terminators.
const (
	TermJump   TermKind = iota // unconditional (also fall-through): Succs[0]
	TermBranch                 // `@p bra`: Succs[0] when the condition holds, Succs[1] otherwise
	TermBrx                    // `brx.idx`: Succs are the distinct targets; Table is the list
	TermCall                   // a call; Succs[0] is the return point
	TermRet                    // `ret`: to Func.Exit
	TermExit                   // `exit`: ends the thread
	TermTrap                   // `trap`: aborts the kernel
	TermNone                   // the virtual exit
)

// Terminator ends a block.
type Terminator struct {
	Kind   TermKind
	Uni    bool // written with .uni
	Negate bool // TermBranch taken when Cond is false (`@!p bra`)
	// Synthetic marks the branches lowering adds for guarded ret/exit/trap.
	Synthetic bool
	// Divergent says the lanes may split here; Reconv is then where they meet again: the
	// immediate post-dominator of the block.
	Divergent bool
	Reconv    *Block
	Pos       frontend.Pos
	Cond      *Value // TermBranch condition
	// Index and Table are brx.idx's index and ordered target list (labels may repeat).
	Index     *Value
	Table     []*Block
	TableName string
	Call      *Call
	RetVals   []*Value // TermRet: the final values of the registers of .reg return parameters
}

// Call is the call terminator's payload.
type Call struct {
	Direct   *Function // direct call target
	Target   *Value    // indirect call: the register holding the function address
	Targets  []*Function
	ListName string     // the .calltargets directive or call table naming Targets
	Table    *Variable  // call table variable, for `call ..., tbl`
	Proto    *Signature // .callprototype signature
	Guard    *Value
	GuardNeg bool
	Results  []Arg
	Args     []Arg
	Defs     []*Value // the .reg return values the call writes
	Prev     []*Value // for a guarded call, the value each def keeps on the lanes that skip the call
}

// Instr is a non-terminator instruction.
type Instr struct {
	Op       frontend.Opcode
	GuardNeg bool // the guard is negated (`@!p`)
	Mods     []frontend.Mod
	Pos      frontend.Pos
	Block    *Block
	Guard    *Value   // nil when unguarded
	Dsts     []Arg    // destination shapes: value, vector of values or sinks, or predicate pair
	Args     []Arg    // source operands
	Defs     []*Value // the values defined, in Dsts order
	Prev     []*Value // for a guarded instruction, the value each def replaces when the guard is false
}

// ArgKind is the kind of an instruction operand.
type ArgKind uint8

// The operand kinds.
const (
	ArgValue   ArgKind = iota // an SSA value (Value), possibly negated (Not)
	ArgImm                    // an integer immediate (Imm holds the bits)
	ArgFloat                  // a floating-point immediate (Imm holds the bits, Form its kind)
	ArgSpecial                // a special register such as %tid.x (Name)
	ArgSym                    // the address of a variable or function (Var or Fn) plus Offset
	ArgAddr                   // a memory operand [Value+Offset], [Var+Offset] or [Offset]
	ArgVector                 // {a, b, ...}
	ArgPair                   // p|q
	ArgSink                   // _
	ArgImage                  // a texture or surface instruction's [tex, {coords}] (Elems: texture or surface, sampler, coordinates)
)

// Arg is one operand.
type Arg struct {
	Kind   ArgKind
	Not    bool // Value is negated
	Form   frontend.FloatForm
	Value  *Value
	Imm    uint64
	Name   string // special register name
	Var    *Variable
	Fn     *Function
	Offset int64
	Elems  []Arg
	Pos    frontend.Pos
}
