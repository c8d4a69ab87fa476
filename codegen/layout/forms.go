package layout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The table of instruction forms: for each opcode, the rows of types, modifiers and operand
// shapes that the back ends lower. codegen/closure and codegen/gosrc both check every
// instruction against it (CheckForms) before lowering any, so a form one back end accepts
// and the other rejects cannot happen: what the table rejects both report with the same
// error, and what it accepts both lower (forms_test.go compiles every row through both).
//
// A row names the opcodes it covers, the types of the instruction's type modifiers in order,
// and groups of its other modifiers, at most one of each group (exactly one of a group that
// is required). A row's Rule checks what the lists cannot say: combinations of modifiers,
// operand counts and shapes; it may reject with a message of its own. An instruction is
// accepted when some row of its opcode matches it. The verifier (ssa) has already checked
// operand counts and register types for the opcodes it knows. The rows are in the
// forms_*.go files, by family.

// A FormRow is one family of accepted forms of its opcodes.
type FormRow struct {
	Ops []frontend.Opcode
	// Types lists, for each type modifier of the instruction in order, the types it may be;
	// the instruction has exactly len(Types) of them.
	Types [][]frontend.Type
	// Mods are the groups of the other modifiers: each modifier of the instruction is in one
	// group, no group is used twice, and a required group is used.
	Mods []ModGroup
	// Rule, when set, checks the rest. It returns ok, or why not: an empty message makes the
	// instruction an unsupported one, any other is reported as it is.
	Rule func(in *ssa.Instr) (ok bool, msg string)
	// Operands are the operands of a representative instruction of the row, written with the
	// placeholders forms_test.go expands: %0, %1, %2 a register of that type modifier's type,
	// %u32, %b64, %pred, ... one of the type named, %0w one twice as wide as %0, %0v a vector
	// of %0 registers as long as the .v2/.v4/.v8 modifier says, [a] an address; anything
	// else stands for itself.
	Operands string
	// AnyMods says the row leaves its types and modifiers to Rule, as the decoders of the
	// instructions with many modifiers do (DecodeWarp, Matrix, Mbarrier, ...); such a row
	// lists the forms forms_test.go builds in Examples, whole instructions with operands.
	AnyMods  bool
	Examples []string
}

// A ModGroup is a set of modifiers an instruction takes at most one of, or with Need exactly
// one of.
type ModGroup struct {
	Mods []frontend.Mod
	Need bool
}

// opt is a group of optional modifiers, need one of required ones.
func opt(ms ...frontend.Mod) ModGroup  { return ModGroup{Mods: ms} }
func need(ms ...frontend.Mod) ModGroup { return ModGroup{Mods: ms, Need: true} }

// tl is a type list for one type modifier; opl an opcode list.
func tl(t ...frontend.Type) []frontend.Type      { return t }
func opl(o ...frontend.Opcode) []frontend.Opcode { return o }

var (
	// formTable holds the rows by opcode; formRows all of them in the order added.
	formTable = map[frontend.Opcode][]*FormRow{}
	formRows  []*FormRow
)

// addForms registers rows.
func addForms(rows ...*FormRow) {
	for _, r := range rows {
		formRows = append(formRows, r)
		for _, op := range r.Ops {
			formTable[op] = append(formTable[op], r)
		}
	}
}

// FormRows returns the table's rows.
func FormRows() []*FormRow { return slices.Clone(formRows) }

// Unsupported is the error of an instruction no row accepts.
func Unsupported(in *ssa.Instr) *ssa.Error {
	s := Spelling(in)
	return &ssa.Error{Pos: in.Pos, Msg: "unsupported instruction " + s, Unsupported: s}
}

// CheckForm returns nil when the back ends lower in, else the error both report: the message
// of the first row whose types and modifiers match and whose Rule explains the rejection, or
// Unsupported.
func CheckForm(in *ssa.Instr) *ssa.Error {
	if ok, msg := checkOperands(in); !ok {
		if msg != "" {
			return &ssa.Error{Pos: in.Pos, Msg: msg}
		}
		return Unsupported(in)
	}
	var why string
	for _, r := range formTable[in.Op] {
		if !r.Matches(in) {
			continue
		}
		if r.Rule == nil {
			return nil
		}
		ok, msg := r.Rule(in)
		if ok {
			return nil
		}
		if why == "" {
			why = msg
		}
	}
	if why != "" {
		return &ssa.Error{Pos: in.Pos, Msg: why}
	}
	return Unsupported(in)
}

// CheckForms checks every instruction of the functions of p that have a body. It returns the
// errors in source order and the instructions rejected, which the back ends do not lower.
func CheckForms(p *ssa.Program) (ssa.ErrorList, map[*ssa.Instr]bool) {
	var errs ssa.ErrorList
	bad := map[*ssa.Instr]bool{}
	for _, fn := range p.Funcs {
		if fn.Decl {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if err := CheckForm(in); err != nil {
					errs = append(errs, err)
					bad[in] = true
				}
			}
		}
	}
	return errs, bad
}

// Matches reports whether the instruction's types and modifiers fit the row (its Rule aside).
func (r *FormRow) Matches(in *ssa.Instr) bool {
	if r.AnyMods {
		return true
	}
	nt := 0
	var used uint64
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			if nt >= len(r.Types) || !slices.Contains(r.Types[nt], t) {
				return false
			}
			nt++
			continue
		}
		g := slices.IndexFunc(r.Mods, func(g ModGroup) bool { return slices.Contains(g.Mods, m) })
		if g < 0 || used&(1<<g) != 0 {
			return false
		}
		used |= 1 << g
	}
	if nt != len(r.Types) {
		return false
	}
	for i, g := range r.Mods {
		if g.Need && used&(1<<i) == 0 {
			return false
		}
	}
	return true
}

// Spelling is an instruction's opcode with its modifiers, as written.
func Spelling(in *ssa.Instr) string {
	var b strings.Builder
	b.WriteString(in.Op.String())
	for _, m := range in.Mods {
		b.WriteString(m.String())
	}
	return b.String()
}

// hasMod reports whether the instruction carries modifier m.
func hasMod(in *ssa.Instr, m frontend.Mod) bool { return slices.Contains(in.Mods, m) }

// instrTypes lists the instruction's type modifiers in order.
func instrTypes(in *ssa.Instr) []frontend.Type {
	var out []frontend.Type
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			out = append(out, t)
		}
	}
	return out
}

// roundingMod is the instruction's rounding modifier, 0 without one.
func roundingMod(in *ssa.Instr) frontend.Mod {
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindRounding {
			return m
		}
	}
	return 0
}

// compareMod is the comparison modifier of setp and set, 0 without one.
func compareMod(in *ssa.Instr) frontend.Mod {
	for _, m := range in.Mods {
		if m.Kind() == frontend.ModKindCompare {
			return m
		}
	}
	return 0
}

// vecLen is the length the .v2/.v4/.v8 modifier gives, 0 without one.
func vecLen(in *ssa.Instr) int {
	switch {
	case hasMod(in, frontend.ModV2):
		return 2
	case hasMod(in, frontend.ModV4):
		return 4
	case hasMod(in, frontend.ModV8):
		return 8
	}
	return 0
}

// knownMods looks up modifiers by spelling.
func knownMods(names ...string) []frontend.Mod {
	out := make([]frontend.Mod, len(names))
	for i, n := range names {
		out[i] = knownMod(n)
	}
	return out
}

// isPredArg reports whether an operand is a predicate register.
func isPredArg(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred }

// reject is a Rule result for an unsupported form, rejectf one with a message.
func reject() (bool, string) { return false, "" }
func rejectf(format string, args ...any) (bool, string) {
	return false, fmt.Sprintf(format, args...)
}

// nargs is a Rule that wants n source operands.
func nargs(n int) func(*ssa.Instr) (bool, string) {
	return func(in *ssa.Instr) (bool, string) { return len(in.Args) == n, "" }
}

// rules combines rules: each must accept.
func rules(rs ...func(*ssa.Instr) (bool, string)) func(*ssa.Instr) (bool, string) {
	return func(in *ssa.Instr) (bool, string) {
		for _, r := range rs {
			if ok, msg := r(in); !ok {
				return ok, msg
			}
		}
		return true, ""
	}
}

// checkOperands checks what every form shares, before the rows: instructions with .b128
// operands are the few forms b128Rule accepts.
func checkOperands(in *ssa.Instr) (bool, string) {
	if usesB128(in) {
		return b128Rule(in)
	}
	return true, ""
}
