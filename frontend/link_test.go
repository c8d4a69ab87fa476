package frontend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const linkHeader = ".version %s\n.target sm_80\n.address_size 64\n"

func linkUnit(name, version, body string) Unit {
	return Unit{Name: name, Src: []byte(strings.Replace(linkHeader, "%s", version, 1) + body)}
}

// TestLink joins the unit that declares an .extern function with the one defining it, leaves
// out a unit nothing needs, renames the module-local table both define, keeps the first .weak
// copy of a function under its name, and takes the highest .version.
func TestLink(t *testing.T) {
	units := []Unit{
		linkUnit("main", "7.8", `.extern .func (.param .b32 r) twice(.param .b32 x);
.global .align 4 .u32 tbl[1] = {7}; // tbl: this unit's own
.weak .func (.param .b32 r) id(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x]; st.param.b32 [r], %r1; ret; }
.visible .global .align 8 .u64 fp = twice;
.visible .entry k(.param .u64 out) {
	.reg .b32 %r<4>; .reg .b64 %rd<3>;
	ld.global.u32 %r1, [tbl];
	{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b; call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r2;
	ret;
}
`),
		linkUnit("unused", "8.3", `.visible .func (.param .b32 r) other(.param .b32 x) { ret; }
`),
		linkUnit("lib", "8.0", `.global .align 4 .u32 tbl[1] = {100};
.weak .func (.param .b32 r) id(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x]; st.param.b32 [r], %r1; ret; }
.visible .func (.param .b32 r) twice(.param .b32 x) {
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [x];
	ld.global.u32 %r2, [tbl];
	mad.lo.s32 %r3, %r1, 2, %r2;
	{ .param .b32 a; st.param.b32 [a], %r3; .param .b32 b; call.uni (b), id, (a); ld.param.b32 %r3, [b]; }
	st.param.b32 [r], %r3;
	ret;
}
`),
	}
	src, joined, err := Link(units, 0)
	require.NoError(t, err)
	require.Equal(t, []int{0, 2}, joined)
	text := string(src)
	require.Equal(t, 1, strings.Count(text, ".version"), text)
	require.Contains(t, text, ".version 8.0\n")
	require.NotContains(t, text, "other")
	require.Contains(t, text, ".global .align 4 .u32 tbl$u0[1] = {7}; // tbl: this unit's own")
	require.Contains(t, text, "ld.global.u32 %r1, [tbl$u0];")
	require.Contains(t, text, ".global .align 4 .u32 tbl$u2[1] = {100};")
	require.Contains(t, text, "ld.global.u32 %r2, [tbl$u2];")
	require.Contains(t, text, ".weak .func (.param .b32 r) id(")
	require.Contains(t, text, ".weak .func (.param .b32 r) id$u2(")
	require.Contains(t, text, "call.uni (b), id$u2, (a);")
	m, err := Parse("linked.ptx", src)
	require.NoError(t, err)
	var funcs []string
	for _, it := range m.Items {
		if f, ok := it.(*Function); ok && f.Body != nil {
			funcs = append(funcs, f.Name)
		}
	}
	require.Equal(t, []string{"id", "k", "id$u2", "twice"}, funcs)
}

// TestLinkErrors: two .visible definitions of one name in units the link needs, and a
// variable two units define with linkage, are errors naming both units.
func TestLinkErrors(t *testing.T) {
	user := linkUnit("user", "7.8", ".extern .func f();\n.extern .func g();\n.extern .global .u32 v;\n.visible .entry k() { call.uni f; call.uni g; ret; }\n")
	_, joined, err := Link([]Unit{user, linkUnit("a", "7.8", ".visible .func f() { ret; }\n"), linkUnit("b", "7.8", ".visible .func g() { ret; }\n.visible .global .u32 v;\n")}, 0)
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2}, joined)
	_, _, err = Link([]Unit{user, linkUnit("a", "7.8", ".visible .func f() { ret; }\n"), linkUnit("b", "7.8", ".visible .func g() { ret; }\n.visible .global .u32 v;\n.visible .func f() { ret; }\n")}, 0)
	require.EqualError(t, err, "a and b both define f")
	_, _, err = Link([]Unit{user, linkUnit("a", "7.8", ".visible .func f() { ret; }\n.weak .global .u32 v;\n"), linkUnit("b", "7.8", ".visible .func g() { ret; }\n.visible .global .u32 v;\n")}, 0)
	require.EqualError(t, err, "a and b both define the variable v (.weak and .visible); ptx2go does not merge them")
}
