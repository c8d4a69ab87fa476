package ssa

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
)

// manyNames declares x0 ... x19 one by one, enough for a scope to index its names.
var manyNames = func() string {
	var names []string
	for i := range 20 {
		names = append(names, fmt.Sprintf("x%d", i))
	}
	return strings.Join(names, ", ")
}()

// TestScopeRanges checks name resolution around parameterized register declarations, which
// scopes keep as ranges: the names they declare, shadowing, and the repeats they must report
// like any other declaration.
func TestScopeRanges(t *testing.T) {
	build := func(body string) (*Program, error) {
		m, err := frontend.ParseString("scope_test.ptx", irHeader+".visible .entry k()\n{\n"+body+"\n}\n")
		require.NoError(t, err)
		return Build(m)
	}
	errorsOf := func(body string) []string {
		_, err := build(body)
		require.Error(t, err)
		var msgs []string
		for _, e := range err.(ErrorList) {
			msgs = append(msgs, e.Msg)
		}
		return msgs
	}
	tests := []struct {
		name string
		body string
		errs []string // nil: builds
	}{
		{"first and last", ".reg .b32 %r<10>;\nmov.b32 %r0, 1;\nmov.b32 %r9, %r0;\nret;", nil},
		{"past the end", ".reg .b32 %r<10>;\nmov.b32 %r10, 1;\nret;", []string{"undeclared register %r10"}},
		{"leading zero", ".reg .b32 %r<10>;\nmov.b32 %r01, 1;\nret;", []string{"undeclared register %r01"}},
		{"prefix alone", ".reg .b32 %r<10>;\nmov.b32 %r, 1;\nret;", []string{"undeclared register %r"}},
		{"longer prefix", ".reg .b32 %r<10>;\n.reg .b64 %rd<3>;\nmov.b64 %rd2, 1;\nmov.b32 %r2, 1;\nret;", nil},
		{"name after range", ".reg .b32 %r<10>;\n.reg .b32 %r3;\nret;", []string{"%r3 is already declared in this scope"}},
		{"range after name", ".reg .b32 %r3;\n.reg .b32 %r<5>;\nret;", []string{"%r3 is already declared in this scope"}},
		{"range after range", ".reg .b32 %r<12>;\n.reg .b32 %r1<3>;\nret;",
			[]string{"%r10 is already declared in this scope", "%r11 is already declared in this scope"}},
		{"disjoint ranges of one stem", ".reg .b32 %r<10>;\n.reg .b32 %r1<3>;\nmov.b32 %r12, 1;\nmov.b32 %r10, %r12;\nret;", nil},
		{"range after variable", ".local .b32 %r2;\n.reg .b32 %r<3>;\nret;", []string{"%r2 is already declared in this scope"}},
		{"many names", ".reg .b32 " + manyNames + ";\nmov.b32 x19, 1;\nmov.b32 x0, x19;\nret;", nil},
		{"range after many names", ".reg .b32 " + manyNames + ";\n.reg .b32 x1<2>;\n.reg .b32 x<2>;\nret;",
			[]string{"x10 is already declared in this scope", "x11 is already declared in this scope",
				"x0 is already declared in this scope", "x1 is already declared in this scope"}},
		{"name after many names", ".reg .b32 " + manyNames + ";\n.reg .b32 x7;\nret;", []string{"x7 is already declared in this scope"}},
		{"shadowing", ".reg .b32 %r<3>;\n{\n.reg .b64 %r<2>;\nmov.b64 %r1, 1;\n}\nmov.b32 %r2, 1;\nret;", nil},
		{"outer range past inner one", ".reg .b32 %r<3>;\n{\n.reg .b64 %r<2>;\nmov.b32 %r2, 1;\n}\nret;", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.errs == nil {
				_, err := build(tt.body)
				require.NoError(t, err)
				return
			}
			require.Equal(t, tt.errs, errorsOf(tt.body))
		})
	}

	// The inner %r1 is the 64-bit one; %r2 after the group reads the outer range.
	p, err := build(".reg .b32 %r<3>;\n{\n.reg .b64 %r<2>;\nmov.b64 %r1, 1;\n}\nmov.b32 %r2, 1;\nret;")
	require.NoError(t, err)
	ins := p.Func("k").Blocks[0].Instrs
	require.Equal(t, frontend.B64, ins[0].Defs[0].Reg.Type)
	require.Equal(t, frontend.B32, ins[1].Defs[0].Reg.Type)
	var names []string
	for _, r := range p.Func("k").Regs {
		names = append(names, r.Name)
	}
	// Registers of a range are made when first used: the inner %r1, then the outer %r2.
	require.Equal(t, "%r1 %r2", strings.Join(names, " "))
}
