package ssa

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/stretchr/testify/require"
)

// kernel wraps body lines in a module whose kernel body starts at line 9; the declarations
// above it are shared by the cases.
func kernel(lines ...string) string {
	return `.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 rv) f(.param .b32 a) { ret; }
.func g(.param .b64 a) { ret; }
.entry other() { OTHER: ret; }
.entry k(.param .u64 p)
{
` + strings.Join(lines, "\n") + "\n}\n"
}

func TestVerifierErrors(t *testing.T) {
	decls := "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<4>;\n\t.reg .pred %p<3>;\n\t.reg .s64 %s<2>;"
	tests := []struct {
		name      string
		lines     []string
		line, col int32
		msg       string
	}{
		{"undeclared register", []string{"\tadd.s32 %r9, 1, 2;"},
			9, 10, "undeclared register %r9"},
		{"undeclared label", []string{decls, "\tbra NOWHERE;"},
			14, 6, "undefined label NOWHERE"},
		{"label of another function", []string{decls, "\tbra OTHER;"},
			14, 6, "label OTHER is in function other, not k: a branch cannot leave its function"},
		{"incompatible register type", []string{decls, "\tadd.s32 %r1, %f1, 1;"},
			14, 15, "register %f1 has type .f32, which add.s32 cannot use as .s32"},
		{"wrong operand count", []string{decls, "\tadd.s32 %r1, %r2;"},
			14, 2, "add takes 3 operands, not 2"},
		{"address as a destination", []string{decls, "\tmov.b64 [%rd1], 0;"},
			14, 2, "mov writes its first operand, which must be a register, not an address"},
		{"subword selector", []string{decls, "\tvadd.u32.u32.u32 %r1, %r2.b1, %r3;"},
			14, 24, "the subword selector .b1 on %r2 is not supported"},
		{"modifier the opcode does not take", []string{decls, "\tand.rn.b32 %r1, %r2, %r3;"},
			14, 2, "and does not take the modifier .rn"},
		{"uni on an ordinary instruction", []string{decls, "\tadd.uni.s32 %r1, %r2, %r3;"},
			14, 2, "add does not take the modifier .uni"},
		{"cache policy of another type", []string{decls, "\tatom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2, %r3;"},
			14, 55, "register %r3 has type .b32, which atom.global.L2::cache_hint.add.u32 cannot use as .b64"},
		{"guard not a predicate", []string{decls, "\t@%r1 add.s32 %r1, %r2, %r3;"},
			14, 2, "guard %r1 is a .b32 register, not .pred"},
		{"brx index not u32", []string{decls, "ts: .branchtargets L1;", "\tbrx.idx %rd1, ts;", "L1:", "\tret;"},
			15, 2, "brx.idx index %rd1 must be a .u32 register, not .b64"},
		{"branchtargets entry not a label", []string{decls, "ts: .branchtargets L1, L9;", "L1:", "\tret;"},
			14, 24, ".branchtargets entry L9 is not a label of k"},
		{"calltargets entry not a function", []string{decls, "ft: .calltargets f, nosuch;", "\tret;"},
			14, 21, ".calltargets entry nosuch is not a declared function"},
		{"call with too many arguments", []string{decls, "\t{ .param .b32 a; .param .b32 b; .param .b32 r;",
			"\tcall (r), f, (a, b); }"},
			15, 2, "call does not match the signature of f: 2 arguments given, 1 expected"},
		{"call argument size mismatch", []string{decls, "\t{ .param .b64 a; .param .b32 r;", "\tcall (r), f, (a); }"},
			15, 2, "call does not match the signature of f: argument 1 has 8 bytes, the parameter has 4"},
		{"call argument outside its variable", []string{decls, "\t{ .param .b32 a; .param .b32 r;", "\tcall (r), f, (a+12); }"},
			15, 2, "call does not match the signature of f: argument 1 starts at offset 12, outside the 4 bytes of a"},
		{"call argument at an offset", []string{decls, "\t{ .param .b64 a; .param .b32 r;", "\tcall (r), f, (a+2); }"},
			15, 2, "call does not match the signature of f: argument 1 has 6 bytes, the parameter has 4"},
		{"prototype mismatch", []string{decls, "pr: .callprototype _ (.param .b32 _);", "\t{ .param .b64 a;",
			"\tcall %rd1, (a), pr; }"},
			16, 2, "call does not match prototype pr: argument 1 has 8 bytes, the parameter has 4"},
		{"call target list mismatch", []string{decls, "ft: .calltargets f, g;", "\t{ .param .b32 a; .param .b32 r;",
			"\tcall (r), %rd1, (a), ft; }"},
			16, 2, "call does not match the signature of g in ft: 1 return values given, 0 expected"},
		{"indirect call without a target list", []string{decls, "\tcall %rd1, ();"},
			14, 2, "an indirect call needs a .calltargets list, a call table or a .callprototype"},
		{"register redeclared in one scope", []string{"\t.reg .b32 %x;", "\t.reg .b32 %x;"},
			10, 12, "%x is already declared in this scope"},
		{"label used as a value", []string{decls, "L1:", "\tmov.u32 %r1, L1;"},
			15, 15, "label L1 can only be a branch target"},
		{"store to the constant space", []string{decls, "\tst.const.u32 [%rd1], %r1;"},
			14, 2, "st.const: the constant state space is read-only; st may write .global, .shared, .local or generic addresses"},
		{"reduction on the constant space", []string{decls, "\tred.const.add.u32 [%rd1], %r1;"},
			14, 2, "red.const: the constant state space is read-only; red may write .global, .shared, .local or generic addresses"},
		{"setp into a non-predicate", []string{decls, "\tsetp.lt.s32 %r1, %r2, %r3;"},
			14, 14, "register %r1 has type .b32, which setp.lt.s32 cannot use as .pred"},
		{"negated non-predicate", []string{decls, "\tselp.b32 %r1, %r2, %r3, !%r1;"},
			14, 26, "!%r1 negates a .b32 register; only predicates can be negated"},
		{"address register of the wrong type", []string{decls, "\tld.global.u32 %r1, [%f1];"},
			14, 21, "address register %f1 must be a 32- or 64-bit integer register, not .f32"},
		{"calling a kernel", []string{decls, "\tcall other;"},
			14, 2, "other is a kernel (.entry) and cannot be called"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := frontend.ParseString("bad.ptx", kernel(tc.lines...))
			require.NoError(t, err)
			_, err = Build(m)
			require.Error(t, err)
			var list ErrorList
			require.True(t, errors.As(err, &list))
			require.Equal(t, tc.msg, list[0].Msg, "all errors: %v", err)
			require.Equal(t, frontend.Pos{File: "bad.ptx", Line: tc.line, Col: tc.col}, list[0].Pos)
		})
	}
}

// TestVerifierAcceptsWarpAndCacheForms checks forms the verifier must let through: vote's .uni
// mode, and atom's 64-bit cache-policy operand after .L2::cache_hint.
func TestVerifierAcceptsWarpAndCacheForms(t *testing.T) {
	m, err := frontend.ParseString("ok.ptx", kernel(
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<3>;",
		"\tvote.sync.uni.pred %p1, %p2, -1;",
		"\tatom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2, %rd2;",
		"\tret;"))
	require.NoError(t, err)
	_, err = Build(m)
	require.NoError(t, err)
}

// TestVerifierRejectsStoresToConstVariables checks that st, atom and red that name a .const
// variable as their address are positioned errors: kernels may only read constant memory.
func TestVerifierRejectsStoresToConstVariables(t *testing.T) {
	for _, tc := range []struct{ instr, msg string }{
		{"st.u32 [tab], %r1;", "st to .const variable tab: the constant state space is read-only"},
		{"st.global.u32 [tab+4], %r1;", "st to .const variable tab: the constant state space is read-only"},
		{"atom.add.u32 %r2, [tab], %r1;", "atom to .const variable tab: the constant state space is read-only"},
		{"red.global.add.u32 [tab], %r1;", "red to .const variable tab: the constant state space is read-only"},
	} {
		src := ".version 8.0\n.target sm_80\n.address_size 64\n.const .align 4 .u32 tab[4] = {1, 2, 3, 4};\n" +
			".entry k()\n{\n\t.reg .b32 %r<3>;\n\tld.const.u32 %r1, [tab];\n\t" + tc.instr + "\n\tret;\n}\n"
		m, err := frontend.ParseString("const.ptx", src)
		require.NoError(t, err)
		_, err = Build(m)
		var list ErrorList
		require.True(t, errors.As(err, &list), "%s: want an error, got %v", tc.instr, err)
		require.Equal(t, tc.msg, list[0].Msg)
		require.Equal(t, frontend.Pos{File: "const.ptx", Line: 9, Col: 2}, list[0].Pos)
	}
}
