package layout

import (
	"testing"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
	"github.com/stretchr/testify/require"
)

// paramGroupsPTX declares .param variables at the body level and in nested and sibling `{ }`
// groups, the way compilers declare call sequences.
const paramGroupsPTX = `
.version 7.5
.target sm_80
.address_size 64
.func (.param .b32 rv) f(.param .b32 a)
{
	.param .b64 outer1;
	{
		.param .b32 call0_arg;
		.param .b64 call0_ret;
		{
			.param .b8 nested;
		}
	}
	.param .b32 outer2;
	{
		.param .align 16 .b8 call1_arg[20];
	}
	ret;
}
`

func TestParamGroupsShareOffsets(t *testing.T) {
	fm, err := frontend.ParseString("groups.ptx", paramGroupsPTX)
	require.NoError(t, err)
	prog, err := ssa.Build(fm)
	require.NoError(t, err)
	m := New(prog, func(pos frontend.Pos, format string, args ...any) { t.Errorf(format, args...) })
	f := m.Frame(prog.Funcs[0])
	off := map[string]int64{}
	size := map[string]int64{}
	for v, o := range f.Param {
		off[v.Name], size[v.Name] = o, v.Size
	}
	// The body's own variables first, in order and aligned; then each group from their end.
	require.Equal(t, int64(0), off["outer1"])
	require.Equal(t, int64(8), off["outer2"])
	require.Equal(t, int64(12), off["call0_arg"])
	require.Equal(t, int64(16), off["call0_ret"])
	require.Equal(t, int64(24), off["nested"])
	require.Equal(t, int64(16), off["call1_arg"], "a sibling group starts where its outer group's variables end, aligned")
	// Variables that live at once never overlap: a group's own with each other and with
	// those of the groups around it.
	live := [][]string{{"outer1", "outer2", "call0_arg", "call0_ret", "nested"}, {"outer1", "outer2", "call1_arg"}}
	for _, set := range live {
		for i, a := range set {
			for _, b := range set[i+1:] {
				require.True(t, off[a]+size[a] <= off[b] || off[b]+size[b] <= off[a], "%s and %s overlap", a, b)
			}
		}
	}
	// The formal parameter and result come after the widest group; the area is 8-aligned.
	require.GreaterOrEqual(t, off["a"], int64(36))
	require.GreaterOrEqual(t, off["rv"], int64(36))
	require.Equal(t, 0, f.RF.ParamSize%8)
	require.GreaterOrEqual(t, int64(f.RF.ParamSize), max(off["a"], off["rv"])+4)
}
