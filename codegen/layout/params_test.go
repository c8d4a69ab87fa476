package layout

import (
	"os"
	"testing"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
	"github.com/stretchr/testify/require"
)

// zeroParamsOf lays out every function with a body of the PTX text and returns ZeroParams
// by function name.
func zeroParamsOf(t *testing.T, name, text string) map[string]bool {
	t.Helper()
	fm, err := frontend.ParseString(name, text)
	require.NoError(t, err)
	prog, err := ssa.Build(fm)
	require.NoError(t, err)
	m := New(prog, func(pos frontend.Pos, format string, args ...any) { t.Errorf(format, args...) })
	got := map[string]bool{}
	for _, fn := range prog.Funcs {
		if !fn.Decl {
			got[fn.Name] = m.Frame(fn).ZeroParams()
		}
	}
	return got
}

const zeroParamsHeader = `
.version 7.5
.target sm_80
.address_size 64
`

// TestZeroParams checks which functions must start with a zeroed .param area: those where a
// path may read a byte before writing it, or that take a variable's address.
func TestZeroParams(t *testing.T) {
	cases := []struct {
		name, body string
		want       bool
	}{
		{"formal read, result written", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [a];
	st.param.b32 [r], %r1;
	ret;
}`, false},
		{"result unwritten on one path", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .pred %p1;
	.reg .b32 %r<2>;
	ld.param.b32 %r1, [a];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L_out;
	st.param.b32 [r], %r1;
$L_out:
	ret;
}`, true},
		{"written on both paths", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .pred %p1;
	.reg .b32 %r<2>;
	.param .b32 t;
	ld.param.b32 %r1, [a];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L_else;
	st.param.b32 [t], %r1;
	bra.uni $L_join;
$L_else:
	st.param.b32 [t], 5;
$L_join:
	ld.param.b32 %r1, [t];
	st.param.b32 [r], %r1;
	ret;
}`, false},
		{"guarded store", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .pred %p1;
	.reg .b32 %r<2>;
	.param .b32 t;
	ld.param.b32 %r1, [a];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 st.param.b32 [t], %r1;
	ld.param.b32 %r1, [t];
	st.param.b32 [r], %r1;
	ret;
}`, true},
		{"vector read past the bytes written", `
.func (.param .b32 r) f()
{
	.reg .b32 %r<3>;
	.param .align 8 .b8 t[8];
	st.param.b32 [t], 1;
	ld.param.v2.b32 {%r1, %r2}, [t];
	st.param.b32 [r], %r2;
	ret;
}`, true},
		{"vector store covers the read", `
.func (.param .b32 r) f()
{
	.reg .b32 %r<3>;
	.param .align 8 .b8 t[8];
	mov.b32 %r1, 1;
	st.param.v2.b32 [t], {%r1, %r1};
	ld.param.b32 %r2, [t+4];
	st.param.b32 [r], %r2;
	ret;
}`, false},
		{"address taken", `
.func (.param .b32 r) f()
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	.param .b32 t;
	st.param.b32 [t], 1;
	mov.u64 %rd1, t;
	ld.param.b32 %r1, [%rd1];
	st.param.b32 [r], %r1;
	ret;
}`, true},
		{"loop reads what the previous iteration wrote", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .pred %p1;
	.reg .b32 %r<3>;
	.param .b32 t;
	ld.param.b32 %r1, [a];
$L_loop:
	ld.param.b32 %r2, [t];
	st.param.b32 [t], %r1;
	sub.s32 %r1, %r1, 1;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L_loop;
	st.param.b32 [r], %r2;
	ret;
}`, true},
		{"loop back to the entry block", `
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .pred %p1;
	.reg .b32 %r<3>;
	.param .b32 t;
$L_top:
	ld.param.b32 %r1, [a];
	st.param.b32 [t], %r1;
	ld.param.b32 %r2, [t];
	setp.gt.s32 %p1, %r2, 100;
	@%p1 bra $L_top;
	st.param.b32 [r], %r2;
	ret;
}`, false},
		{"read below the variable, though the bytes there are written", `
.func (.param .b32 r) f()
{
	.reg .b32 %r1;
	.param .b32 t;
	.param .b32 u;
	st.param.b32 [t], 1;
	st.param.b32 [u], 2;
	ld.param.b32 %r1, [u+-4];
	st.param.b32 [r], %r1;
	ret;
}`, true},
		{"read past the variable, though the bytes there are written", `
.func (.param .b32 r) f()
{
	.reg .b32 %r1;
	.param .b32 t;
	.param .b32 u;
	st.param.b32 [t], 1;
	st.param.b32 [u], 2;
	ld.param.b32 %r1, [t+4];
	st.param.b32 [r], %r1;
	ret;
}`, true},
		{"call reads an argument never stored", `
.func (.param .b32 r) g(.param .b32 a)
{
	.reg .b32 %r1;
	ld.param.b32 %r1, [a];
	st.param.b32 [r], %r1;
	ret;
}
.func (.param .b32 r) f()
{
	.reg .b32 %r1;
	{
		.param .b32 x;
		.param .b32 y;
		call (y), g, (x);
		ld.param.b32 %r1, [y];
	}
	st.param.b32 [r], %r1;
	ret;
}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, zeroParamsOf(t, "f.ptx", zeroParamsHeader+c.body)["f"])
		})
	}
}

// TestZeroParamsCompilerOutput checks real compiler output: clang's recursion and a hand-written
// module whose call sequences share one area need no cleared area, and the functions of
// param_unwritten.ptx, which read bytes they may not have written, do.
func TestZeroParamsCompilerOutput(t *testing.T) {
	for file, want := range map[string]map[string]bool{
		"../../testdata/ptx/recursion.ptx":            {"_Z3fibi": false, "_Z10tree_depthj": false, "_Z3gcdjj": false},
		"../../testdata/ptx/hand/param_groups.ptx":    {"sq": false, "g": false, "k": false},
		"../../testdata/ptx/hand/param_unwritten.ptx": {"h": true, "pick": true, "k": false},
	} {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		got := zeroParamsOf(t, file, string(text))
		for fn, w := range want {
			require.Equal(t, w, got[fn], "%s: %s", file, fn)
		}
	}
}
