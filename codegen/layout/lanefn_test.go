package layout_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// laneFnPTX has one function of each kind LaneFuncs and LaneFuncsLocal tell apart: a
// recursive one and one calling it (which qualify), ones with a global store, a shuffle, a
// clock read, a .local variable, or a call to such a function (which do not), and ones that
// load and store local memory through a pointer, by ld/st.local or generic ld/st, or call
// such a function (which only LaneFuncsLocal accepts, marked local).
const laneFnPTX = `
.version 7.5
.target sm_80
.address_size 64
.func (.param .b32 r) rec(.param .b32 a)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	ld.param.b32 %r1, [a];
	setp.lt.u32 %p1, %r1, 2;
	@%p1 bra DONE;
	add.s32 %r2, %r1, -1;
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r2;
		call.uni (y), rec, (x);
		ld.param.b32 %r3, [y];
	}
	add.s32 %r1, %r3, %r1;
DONE:
	st.param.b32 [r], %r1;
	ret;
}
.func (.param .b32 r) caller(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), rec, (x);
		ld.param.b32 %r2, [y];
	}
	st.param.b32 [r], %r2;
	ret;
}
.func store(.param .b64 a)
{
	.reg .b64 %rd<2>;
	ld.param.b64 %rd1, [a];
	st.global.b32 [%rd1], 1;
	ret;
}
.func (.param .b32 r) shuffle(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) clock()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, %clock;
	st.param.b32 [r], %r1;
	ret;
}
.func (.param .b32 r) local(.param .b32 a)
{
	.local .align 4 .b8 buf[4];
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	st.local.b32 [buf], %r1;
	ld.local.b32 %r2, [buf];
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) callsShuffle(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	{
		.param .b32 x;
		.param .b32 y;
		st.param.b32 [x], %r1;
		call.uni (y), shuffle, (x);
		ld.param.b32 %r2, [y];
	}
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) viaLocal(.param .b64 a)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.b64 %rd1, [a];
	cvta.to.local.u64 %rd2, %rd1;
	ld.local.v2.u32 {%r1, %r2}, [%rd2];
	st.local.v2.u32 [%rd2], {%r2, %r1};
	st.param.b32 [r], %r1;
	ret;
}
.func viaGeneric(.param .b64 a)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.b64 %rd1, [a];
	ld.u32 %r1, [%rd1];
	st.u32 [%rd1+4], %r1;
	ret;
}
.func (.param .b32 r) callsViaLocal(.param .b64 a)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.b64 %rd1, [a];
	{
		.param .b64 x;
		.param .b32 y;
		st.param.b64 [x], %rd1;
		call.uni (y), viaLocal, (x);
		ld.param.b32 %r1, [y];
	}
	st.param.b32 [r], %r1;
	ret;
}
.visible .entry k()
{
	ret;
}
`

func laneFuncNames(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fm, err := frontend.Parse(name, src)
	require.NoError(t, err)
	prog, err := ssa.Build(fm)
	require.NoError(t, err)
	var names []string
	for _, fn := range prog.Funcs {
		if layout.LaneFuncs(prog)[fn] {
			names = append(names, fn.Name)
		}
	}
	return names
}

func TestLaneFuncs(t *testing.T) {
	require.Equal(t, []string{"rec", "caller"}, laneFuncNames(t, "lanefn.ptx", []byte(laneFnPTX)))
	// clang's recursion kernel: fib, tree_depth and gcd are arithmetic on their parameters.
	src, err := os.ReadFile("../../testdata/ptx/recursion.ptx")
	require.NoError(t, err)
	require.Equal(t, []string{"_Z3fibi", "_Z10tree_depthj", "_Z3gcdjj"}, laneFuncNames(t, "recursion.ptx", src))
}

// TestLaneFuncsLocal checks that LaneFuncsLocal adds to LaneFuncs' functions, marked false,
// the functions that reach local memory through a pointer and their callers, marked true.
func TestLaneFuncsLocal(t *testing.T) {
	fm, err := frontend.Parse("lanefn.ptx", []byte(laneFnPTX))
	require.NoError(t, err)
	prog, err := ssa.Build(fm)
	require.NoError(t, err)
	got := map[string]bool{}
	for fn, local := range layout.LaneFuncsLocal(prog) {
		got[fn.Name] = local
	}
	require.Equal(t, map[string]bool{"rec": false, "caller": false, "viaLocal": true, "viaGeneric": true, "callsViaLocal": true}, got)
}
