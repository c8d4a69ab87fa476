package layout

import (
	"fmt"
	"slices"
	"strconv"
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
// operand counts and shapes; it may reject with a message of its own. Its Operands give the
// type of each operand, against which the operand kinds are checked (immediates, sinks,
// predicates). An instruction is accepted when some row of its opcode matches it. The
// verifier (ssa) has already checked operand counts and register types for the opcodes it
// knows. The rows are in the forms_*.go files, by family; the complex families (warp-level,
// matrix, mbarrier, cp.async, hints) are rows whose Rule is this package's decoder of them.
//
// What the back ends still decide alone is how to lower an accepted form (which runtime/isa
// function, which lane loop), and what depends on more than the instruction: the layout's
// errors (parameters, initializers, calls to functions without a body) and gosrc's kernel
// parameter types.

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
	// Operands are the operands of the row's forms in order, destinations first as in PTX,
	// written with placeholders: %0, %1, %2 one of that type modifier's type, %u32, %b64,
	// %pred, ... one of the type named, %0w one twice as wide as %0, %0v a vector of %0 as
	// long as the .v2/.v4/.v8 modifier says (else one %0), p|q a pair, [a] an address;
	// anything else (an immediate) stands for itself. CheckForm checks the operand kinds
	// against them (operandsOK); forms_test.go writes instructions with them.
	Operands string
	tokens   []string // Operands split at its top-level commas
	// HalfOperands says the row's operands of a 16-bit float type are registers: the ISA
	// defines no immediates of these types.
	HalfOperands bool
	// SinkDst says the row's scalar destination may be the sink _.
	SinkDst bool
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
		r.tokens = splitOperands(r.Operands)
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
		ok, msg := true, ""
		if r.Rule != nil {
			ok, msg = r.Rule(in)
		}
		if ok {
			ok, msg = r.operandsOK(in)
		}
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
// operands are the few forms b128Rule accepts, a source is never the sink _ (but an element
// of st's vector, which is not stored), a special register is one the back ends read, and the
// address of a function or variable one they have.
func checkOperands(in *ssa.Instr) (bool, string) {
	if usesB128(in) {
		if ok, msg := b128Rule(in); !ok {
			return ok, msg
		}
	}
	for i, a := range in.Args {
		if a.Kind == ssa.ArgSink || a.Kind == ssa.ArgVector && slices.ContainsFunc(a.Elems, isSink) && !(in.Op == frontend.OpSt && i == 1) {
			return rejectf("unsupported operand _ (a sink) as a source of %s", Spelling(in))
		}
		for _, x := range append([]ssa.Arg{a}, a.Elems...) {
			switch {
			case x.Kind == ssa.ArgSpecial && !SpecialSupported(x.Name):
				return rejectf("unsupported special register %s", x.Name)
			case x.Kind == ssa.ArgSym && x.Fn != nil && x.Fn.Decl:
				return rejectf("unsupported: address of %s, which has no body in this module", x.Fn.Name)
			case x.Kind == ssa.ArgSym && x.Var != nil:
				switch x.Var.Space {
				case frontend.SpaceGlobal, frontend.SpaceConst, frontend.SpaceShared, frontend.SpaceLocal, frontend.SpaceParam:
				default:
					return rejectf("unsupported: the address of %s variable %s", x.Var.Space, x.Var.Name)
				}
			}
		}
	}
	return true, ""
}

// SpecialSupported reports whether the back ends read the special register name (one the SSA
// builder takes): all but the shared-memory sizes and reservations, the graph handle, and
// %envreg and %pm names beyond %envreg31 and %pm7_64.
func SpecialSupported(name string) bool {
	switch name {
	case "%total_smem_size", "%aggr_smem_size", "%reserved_smem_offset_begin", "%reserved_smem_offset_end",
		"%reserved_smem_offset_cap", "%current_graph_exec":
		return false
	}
	if n, ok := strings.CutPrefix(name, "%envreg"); ok {
		i, err := strconv.Atoi(n)
		return err == nil && i >= 0 && i < 32 && strconv.Itoa(i) == n
	}
	if strings.HasPrefix(name, "%pm") {
		return ssa.PerfMonitorRegister(name)
	}
	return true
}

func isSink(a ssa.Arg) bool { return a.Kind == ssa.ArgSink }

// splitOperands splits an operand list at its top-level commas.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// operandsOK checks the instruction's operands against the row's Operands: a floating-point
// immediate only for a float operand (not of a 16-bit float type) or a 32- or 64-bit one, no immediate of a
// 16-bit float type where HalfOperands says so, a predicate (or an immediate) where the row
// has %pred, and a register as a destination (or, with SinkDst, the sink).
func (r *FormRow) operandsOK(in *ssa.Instr) (bool, string) {
	ts := instrTypes(in)
	n := len(in.Dsts)
	for i, tok := range r.tokens {
		var a ssa.Arg
		switch {
		case i < n:
			a = in.Dsts[i]
		case i-n < len(in.Args):
			a = in.Args[i-n]
		default:
			return true, ""
		}
		if ok, msg := r.operandOK(in, tok, a, i < n, ts); !ok {
			return ok, msg
		}
	}
	return true, ""
}

// operandOK checks one operand against its placeholder.
func (r *FormRow) operandOK(in *ssa.Instr, tok string, a ssa.Arg, dst bool, ts []frontend.Type) (bool, string) {
	if p, q, ok := strings.Cut(tok, "|"); ok || a.Kind == ssa.ArgPair {
		if !ok {
			p, q = tok, tok // setp's p|q for its one predicate
		}
		if a.Kind != ssa.ArgPair || len(a.Elems) != 2 {
			return reject()
		}
		if ok, msg := r.operandOK(in, p, a.Elems[0], dst, ts); !ok {
			return ok, msg
		}
		return r.operandOK(in, q, a.Elems[1], dst, ts)
	}
	t, vector := placeholderType(tok, ts)
	switch {
	case t == frontend.TypeNone:
		return true, ""
	case t == frontend.Pred && dst:
		// setp and testp may drop their result; the other predicate writers may not.
		if a.Kind != ssa.ArgValue && !(a.Kind == ssa.ArgSink && (in.Op == frontend.OpSetp || in.Op == frontend.OpTestp)) {
			return rejectf("unsupported: %s writes to _", Spelling(in))
		}
	case t == frontend.Pred:
		if a.Kind != ssa.ArgValue && a.Kind != ssa.ArgImm {
			return rejectf("operand must be a predicate")
		}
	case a.Kind == ssa.ArgVector:
		et := t
		if !vector {
			// mov packing or unpacking a wide value: the elements divide it.
			et = bitsType(t.Bits() / max(len(a.Elems), 1))
		}
		for _, x := range a.Elems {
			if x.Kind == ssa.ArgSink {
				continue
			}
			if ok, msg := r.valueOK(in, x, et, dst); !ok {
				return ok, msg
			}
		}
	default:
		return r.valueOK(in, a, t, dst)
	}
	return true, ""
}

// valueOK checks a value operand of type t.
func (r *FormRow) valueOK(in *ssa.Instr, a ssa.Arg, t frontend.Type, dst bool) (bool, string) {
	switch {
	case dst && a.Kind == ssa.ArgSink && !r.SinkDst:
		return rejectf("unsupported: %s writes to _", Spelling(in))
	case dst:
		return true, ""
	case r.HalfOperands && isHalf(t) && (a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat):
		return rejectf("immediate operand for a %s instruction", t)
	case a.Kind == ssa.ArgFloat && (isHalf(t) || !t.IsFloat() && t.Bits() != 32 && t.Bits() != 64):
		return rejectf("floating-point immediate for a %s operand", t)
	}
	return true, ""
}

// placeholderType is the type of an operand placeholder of Operands for an instruction with
// types ts (TypeNone for an address, a literal, or one not given), and whether it is a
// vector (%0v).
func placeholderType(tok string, ts []frontend.Type) (frontend.Type, bool) {
	name, ok := strings.CutPrefix(tok, "%")
	if !ok || name == "" {
		return frontend.TypeNone, false
	}
	if c := name[0]; c >= '0' && c <= '9' {
		k := int(c - '0')
		if k >= len(ts) {
			return frontend.TypeNone, false
		}
		switch name[1:] {
		case "w":
			return bitsType(2 * ts[k].Bits()), false
		case "v":
			return ts[k], true
		}
		return ts[k], false
	}
	if t, ok := frontend.LookupType("." + name); ok {
		return t, false
	}
	return frontend.TypeNone, false
}

// bitsType is the .bN type of n bits, TypeNone for another width.
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
