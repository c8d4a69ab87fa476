package layout_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/codegen/closure"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// stackPTX has a chain of calls with .local areas (chain -> mid -> leaf), a recursion
// among functions without one (even <-> odd, calling leaf), and a recursion through a
// function with one (deep).
const stackPTX = `
.version 7.5
.target sm_80
.address_size 64
.func (.param .b32 r) leaf(.param .b32 a)
{
	.local .align 4 .b8 buf[16];
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	st.local.b32 [buf], %r1;
	ld.local.b32 %r2, [buf];
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) mid(.param .b32 a)
{
	.local .align 8 .b8 buf[40];
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	st.local.b32 [buf], %r1;
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), leaf, (x);
		ld.param.b32 %r2, [y];
	}
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) odd(.param .b32 a);
.func (.param .b32 r) even(.param .b32 a)
{
	.reg .b32 %r<4>;
	.reg .pred %p;
	ld.param.b32 %r1, [a];
	setp.eq.s32 %p, %r1, 0;
	@%p bra done;
	sub.s32 %r2, %r1, 1;
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r2;
		call.uni (y), odd, (x);
		ld.param.b32 %r3, [y];
	}
	st.param.b32 [r], %r3;
	ret;
done:
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), leaf, (x);
		ld.param.b32 %r3, [y];
	}
	st.param.b32 [r], %r3;
	ret;
}
.func (.param .b32 r) odd(.param .b32 a)
{
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [a];
	sub.s32 %r2, %r1, 1;
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r2;
		call.uni (y), even, (x);
		ld.param.b32 %r3, [y];
	}
	st.param.b32 [r], %r3;
	ret;
}
.func (.param .b32 r) deep(.param .b32 a)
{
	.local .align 4 .b8 buf[8];
	.reg .b32 %r<4>;
	.reg .pred %p;
	ld.param.b32 %r1, [a];
	st.local.b32 [buf], %r1;
	setp.eq.s32 %p, %r1, 0;
	@%p bra done;
	sub.s32 %r2, %r1, 1;
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r2;
		call.uni (y), deep, (x);
		ld.param.b32 %r3, [y];
	}
	st.param.b32 [r], %r3;
	ret;
done:
	st.param.b32 [r], %r1;
	ret;
}
.visible .entry chain(.param .u32 n)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [n];
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), mid, (x);
		ld.param.b32 %r2, [y];
	}
	ret;
}
.visible .entry parity(.param .u32 n)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [n];
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), even, (x);
		ld.param.b32 %r2, [y];
	}
	ret;
}
`

// TestStackBytes checks each function's local memory need: its own .local area plus its
// deepest callee's; recursion adds nothing where its functions have no .local area, and
// makes the need unbounded (-1) through a function with one.
func TestStackBytes(t *testing.T) {
	fm, err := frontend.ParseString("stack.ptx", stackPTX)
	require.NoError(t, err)
	prog, err := ssa.Build(fm)
	require.NoError(t, err)
	mod, err := closure.Compile(prog)
	require.NoError(t, err)
	need := map[string]int{}
	local := map[string]int{}
	for _, f := range mod.Funcs {
		need[f.Name], local[f.Name] = f.StackBytes, f.LocalSize
	}
	require.Positive(t, local["leaf"])
	require.Positive(t, local["mid"])
	require.Equal(t, local["leaf"], need["leaf"])
	require.Equal(t, local["mid"]+local["leaf"], need["mid"])
	require.Equal(t, need["mid"], need["chain"])
	for _, f := range []string{"even", "odd", "parity"} {
		require.Equal(t, need["leaf"], need[f], f)
	}
	require.Equal(t, -1, need["deep"])
}
