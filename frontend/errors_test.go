package frontend

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const header = ".version 8.0\n.target sm_80\n.address_size 64\n"

// body wraps instructions in a kernel whose first body line is line 6 of the file.
func body(lines ...string) string {
	return header + ".visible .entry k()\n{\n" + strings.Join(lines, "\n") + "\n}\n"
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int32
		msg       string
	}{
		{"missing semicolon", body("\tadd.s32 %r1, %r2, %r3", "\tret;"),
			6, 23, "missing ';' after instruction"},
		{"unknown opcode", body("\tfrobnicate.u32 %r1;"),
			6, 2, "unknown instruction 'frobnicate'"},
		{"unknown modifier", body("\tadd.s33 %r1, %r2, %r3;"),
			6, 5, "unknown modifier '.s33' on add"},
		{"bad hex float", body("\tmov.f32 %f1, 0f3F80;"),
			6, 15, "malformed hexadecimal floating-point literal '0f3F80' (want 0f and 8 hex digits, or 0d and 16)"},
		{"bad octal", body("\tmov.u32 %r1, 019;"),
			6, 15, "malformed or out-of-range integer literal '019'"},
		{"integer overflow", body("\tmov.u64 %rd1, 18446744073709551616;"),
			6, 16, "malformed or out-of-range integer literal '18446744073709551616'"},
		{"texture operand of four elements", body("\ttex.1d.v4.f32.s32 {%f1,%f2,%f3,%f4}, [t, s, {%r1}, %r2];"),
			6, 39, "a texture or surface operand takes one to three elements: [tex], [tex, coords] or [tex, sampler, coords]"},
		{"empty surface operand", body("\tsuld.b.1d.v2.b32.trap {%r1,%r2}, [];"),
			6, 35, "a texture or surface operand takes one to three elements: [tex], [tex, coords] or [tex, sampler, coords]"},
		{"constant bank declaration", header + ".const[2] .b32 buf[];\n",
			4, 7, "constant bank 2 (.const[2]) is not supported: banks 1 to 10 held driver-allocated constant buffers before PTX ISA 2.2; only bank 0, plain .const, is"},
		{"constant bank load", body("\tld.const[10].b32 %r1, [buf+4];"),
			6, 10, "constant bank 10 (.const[10]) is not supported: banks 1 to 10 held driver-allocated constant buffers before PTX ISA 2.2; only bank 0, plain .const, is"},
		{"unclosed address", body("\tld.global.u32 %r1, [%rd1+4;"),
			6, 28, "expected ']' to close the address, found ';'"},
		{"unclosed block", header + ".entry k()\n{\n\tret;\n",
			5, 1, "'{' is not closed by a matching '}'"},
		{"unterminated comment", header + "/* no end\n.entry k() { ret; }\n",
			4, 1, "unterminated block comment"},
		{"unterminated string", header + ".pragma \"nounroll;\n",
			4, 9, "unterminated string literal"},
		{"bad character", body("\tmov.u32 %r1, #3;"),
			6, 15, "unexpected character '#'"},
		{"bad address size", ".version 8.0\n.target sm_80\n.address_size 48\n",
			3, 15, "address size must be 32 or 64, not 48"},
		{"alignment not power of two", header + ".global .align 3 .b8 buf[4];\n",
			4, 16, "alignment 3 is not a power of two"},
		{"declaration without type", body("\t.reg %r1;"),
			6, 7, "expected a type in the .reg declaration, found '%r1'"},
		{"two types", header + ".global .u32 .f32 x;\n",
			4, 14, "declaration has two types, .u32 and .f32"},
		{"branchtargets without label", body("\t.branchtargets L1, L2;"),
			6, 2, ".branchtargets must be preceded by a label naming it"},
		{"prototype name not sink", body("p: .callprototype (.param .b32 _) f (.param .b32 _);"),
			6, 35, "expected '_' as the prototype's function name, found 'f'"},
		{"guard without predicate", body("\t@ bra L1;", "L1:", "\tret;"),
			6, 4, "expected a predicate register after '@', found 'bra'"},
		{"lone percent", body("\tmov.u32 % , 1;"),
			6, 10, "'%' must be followed by a register name"},
		{"statement at module level", header + "add.s32 %r1, %r2, %r3;\n",
			4, 1, "expected a directive such as .version, .entry, .func or a variable declaration, found 'add'"},
		{"missing function name", header + ".visible .entry (.param .u32 a) { ret; }\n",
			4, 17, "expected a function name, found '('"},
		{"bad param space", header + ".visible .entry k(.local .u32 a) { ret; }\n",
			4, 19, "expected a parameter starting with .param or .reg, found '.local'"},
		{"noreturn on entry", header + ".entry k() .noreturn { ret; }\n",
			4, 12, ".noreturn applies only to .func"},
		{"common on func", header + ".common .func f() { ret; }\n",
			4, 1, ".common applies only to .global variables"},
		{"register offset", body("\tld.global.u32 %r1, [%rd1+%r2];"),
			6, 27, "expected an integer offset, found '%r2'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseString("bad.ptx", tc.src)
			require.Error(t, err)
			var list ErrorList
			require.True(t, errors.As(err, &list))
			first := list[0]
			require.Equal(t, tc.msg, first.Msg)
			require.Equal(t, Pos{File: "bad.ptx", Line: tc.line, Col: tc.col}, first.Pos, "error: %v", first)
		})
	}
}

func TestErrorFormatShowsLineAndCaret(t *testing.T) {
	_, err := ParseString("k.ptx", body("\tmov.u32\t%r1, #3;"))
	require.EqualError(t, err, "k.ptx:6:15: unexpected character '#'\n\tmov.u32\t%r1, #3;\n\t       \t     ^")
}

func TestErrorsAreCappedAndRecoveryContinues(t *testing.T) {
	var lines []string
	for range 25 {
		lines = append(lines, "\tbogus.u32 %r1;", "\tadd.s32 %r1, %r1, 1;")
	}
	m, err := ParseString("many.ptx", body(lines...))
	var list ErrorList
	require.True(t, errors.As(err, &list))
	require.Len(t, list, MaxErrors)
	for i, e := range list {
		require.Equal(t, int32(6+2*i), e.Pos.Line, "errors are reported in order, one per bad line")
	}
	require.NotNil(t, m)
}

func TestRecoveryKeepsLaterFunctions(t *testing.T) {
	src := header + ".entry a() { bogus; }\n.entry b() { ret; }\n"
	m, err := ParseString("r.ptx", src)
	require.Error(t, err)
	require.Len(t, m.Items, 2)
	require.Equal(t, "b", m.Items[1].(*Function).Name)
}
