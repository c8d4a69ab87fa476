package semantics_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestCachePolicy runs testdata/ptx/hand/cache_policy.ptx on both engines: each createpolicy
// form gives the policy codegen/layout/cachepolicy.go documents (primary priority in bits 0-1,
// secondary in bits 2-3, bit 4 for a range, a fraction's float32 bits on top), the same in
// every thread whatever its operands; createpolicy.cvt passes the access property through;
// accesses with a policy operand load and store as without; applypriority and discard change
// no memory.
func TestCachePolicy(t *testing.T) {
	const path = "testdata/ptx/hand/cache_policy.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("policies")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		const n = 64
		in := make([]uint32, n)
		for i := range in {
			in[i] = uint32(i*i + 3)
		}
		pin, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		out, err := dev.Malloc(5 * 8 * n)
		require.NoError(t, err)
		cp, err := dev.Malloc(4 * n)
		require.NoError(t, err)
		const prop = uint64(0x1234_5678_9abc_def0)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(n), out, pin, cp, prop))
		one, quarter := uint64(math.Float32bits(1)), uint64(math.Float32bits(0.25))
		want := []uint64{2 | one<<32, 2 | quarter<<32, 1 | one<<32, 2 | 1<<2 | 1<<4, prop}
		got := make([]uint64, 5*n)
		require.NoError(t, runtime.Download(dev, got, out))
		for i := range n {
			require.Equal(t, want, got[5*i:5*i+5], "thread %d's policies", i)
		}
		gotCopy, gotIn := make([]uint32, n), make([]uint32, n)
		require.NoError(t, runtime.Download(dev, gotCopy, cp))
		require.NoError(t, runtime.Download(dev, gotIn, pin))
		for i := range n {
			require.Equal(t, 2*in[i], gotCopy[i], "copy[%d]", i)
		}
		require.Equal(t, in, gotIn, "in after applypriority and discard")
	})
}

// TestCachePolicyForms checks that malformed createpolicy, applypriority and discard are
// errors at their line on both engines.
func TestCachePolicyForms(t *testing.T) {
	for _, c := range []struct{ instr, msg string }{
		{"createpolicy.fractional.L2::evict_last.b64 %rd2, 1.5;", "createpolicy fraction 1.5 outside (0, 1]"},
		{"createpolicy.fractional.L2::evict_last.b64 %rd2, 0.0;", "createpolicy fraction 0 outside (0, 1]"},
		{"createpolicy.range.L2::evict_last.b64 %rd2, [%rd1], 512, 256;", "createpolicy primary size 512 exceeds the total size 256"},
		{"discard.global.L2 [%rd1], 64;", "discard size 64: the only size is 128"},
		{"applypriority.global.L2::evict_normal [%rd1], 256;", "applypriority size 256: the only size is 128"},
	} {
		src := ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
			".reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n" + c.instr + "\nret;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "policy.ptx"})
		require.ErrorContains(t, err, "policy.ptx:8")
		require.ErrorContains(t, err, c.msg)
		ast, err := frontend.Parse("policy.ptx", []byte(src))
		require.NoError(t, err)
		prog, err := ssa.Build(ast)
		require.NoError(t, err)
		_, err = gosrc.Generate(prog, gosrc.Options{})
		require.ErrorContains(t, err, "policy.ptx:8")
		require.ErrorContains(t, err, c.msg)
	}
}
