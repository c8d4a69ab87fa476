package layout

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestCpAsyncForms classifies one instruction of each form, and forms neither back end runs.
func TestCpAsyncForms(t *testing.T) {
	for _, c := range []struct {
		instr string
		ok    bool
		msg   string
		check func(t *testing.T, f CpAsyncForm)
	}{
		{instr: "cp.async.ca.shared.global [sh], [%rd1], 4;", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.Equal(t, CpAsyncCopy, f.Kind)
			require.Equal(t, 4, f.Size)
			require.False(t, f.HasSrcSize || f.HasIgnore)
		}},
		{instr: "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B [%r1], [%rd1+16], 16, %r2, %rd2;", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.Equal(t, 16, f.Size)
			require.True(t, f.HasSrcSize)
			require.Equal(t, ssa.ArgValue, f.SrcSize.Kind)
			require.Equal(t, int64(16), f.Src.Offset)
		}},
		{instr: "cp.async.ca.shared.global [sh], [%rd1], 8, 3;", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.True(t, f.HasSrcSize)
			require.Equal(t, uint64(3), f.SrcSize.Imm)
		}},
		{instr: "cp.async.ca.shared.global [sh], [%rd1], 8, %p1;", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.True(t, f.HasIgnore)
			require.False(t, f.HasSrcSize)
		}},
		{instr: "cp.async.commit_group;", ok: true, check: func(t *testing.T, f CpAsyncForm) { require.Equal(t, CpAsyncCommit, f.Kind) }},
		{instr: "cp.async.wait_group 2;", ok: true, check: func(t *testing.T, f CpAsyncForm) { require.Equal(t, CpAsyncWait, f.Kind) }},
		{instr: "cp.async.wait_all;", ok: true, check: func(t *testing.T, f CpAsyncForm) { require.Equal(t, CpAsyncWait, f.Kind) }},
		{instr: "cp.async.mbarrier.arrive.noinc.shared.b64 [sh];", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.Equal(t, CpAsyncArrive, f.Kind)
			require.True(t, f.Noinc)
			require.False(t, f.Generic)
		}},
		{instr: "cp.async.mbarrier.arrive.b64 [%rd1];", ok: true, check: func(t *testing.T, f CpAsyncForm) {
			require.False(t, f.Noinc)
			require.True(t, f.Generic)
		}},
		{instr: "cp.async.ca.shared.global [sh], [%rd1], 2;", msg: "cp.async cp-size 2 is not 4, 8 or 16"},
		{instr: "cp.async.cg.shared.global [sh], [%rd1], 4;", msg: "cp.async.cg cp-size 4 is not 16"},
		{instr: "cp.async.ca.shared::cluster.global [sh], [%rd1], 4;"},
		{instr: "cp.async.ca.global.shared [%rd1], [sh], 4;"},
		{instr: "cp.async.ca.shared.global [sh], [%rd1], %r1;"},
		{instr: "cp.async.bulk.commit_group;"},
		{instr: "cp.async.wait_group %r1;"},
		{instr: "cp.async.mbarrier.arrive.shared::cluster.b64 [sh];"},
	} {
		src := ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" +
			".reg .pred %p<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.shared .align 16 .b8 sh[16];\n" + c.instr + "\nret;\n}\n"
		fm, err := frontend.ParseString("cp.ptx", src)
		require.NoError(t, err, c.instr)
		prog, err := ssa.Build(fm)
		require.NoError(t, err, c.instr)
		f, ok, msg := CpAsync(prog.Funcs[0].Blocks[0].Instrs[0])
		require.Equal(t, c.ok, ok, c.instr)
		require.Equal(t, c.msg, msg, c.instr)
		if c.check != nil {
			c.check(t, f)
		}
	}
}
