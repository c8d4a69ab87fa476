package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestCvtaParam runs hand/cvta_param.ptx on both engines: a kernel's by-value struct
// parameter read by a device function through its generic address (cvta.param), isspacep on
// it, cvta.to.param back, and a store through it, which is a read-only fault naming the
// thread and the parameter offset.
func TestCvtaParam(t *testing.T) {
	const path = "testdata/ptx/hand/cvta_param.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		s := [4]uint32{7, 0x100, 0xfffffff0, 0x0a000004}
		k, err := mod.Kernel("read")
		require.NoError(t, err)
		const n = 40
		out, err := dev.Malloc(4 * n)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(2), runtime.D1(n/2), out, s))
		got := make([]uint32, n)
		require.NoError(t, runtime.Download(dev, got, out))
		want := make([]uint32, n)
		for i := range want {
			want[i] = (s[i%(n/2)%4] | 256) + s[3]
		}
		require.Equal(t, want, got)

		k, err = mod.Kernel("write")
		require.NoError(t, err)
		err = k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), struct {
			A, B uint32
			_    [2]uint32
		}{A: 1, B: 2})
		f := harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultReadOnly, Kernel: "write", Loc: harness.FaultLocIn(t, path, "write"),
			Thread: runtime.Dim3{X: 5}, HasAddr: true, Addr: 8, Space: "param",
		})
		require.Contains(t, f.Error(), "kernel parameters are read-only")
	})
}

// TestCvtaParamInFunc checks that cvta.param in a device function, which has no generic
// address to give, is an error at its line on both engines.
func TestCvtaParamInFunc(t *testing.T) {
	src := ".version 7.8\n.target sm_80\n.address_size 64\n.func f(.param .b32 a)\n{\n" +
		".reg .b64 %rd<3>;\nmov.b64 %rd1, a;\ncvta.param.u64 %rd2, %rd1;\nret;\n}\n" +
		".visible .entry k()\n{\n.param .b32 p;\nst.param.b32 [p], 1;\ncall f, (p);\nret;\n}\n"
	const msg = "only a kernel's parameters have generic addresses"
	_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "f.ptx"})
	require.ErrorContains(t, err, "f.ptx:8")
	require.ErrorContains(t, err, msg)
	ast, err := frontend.Parse("f.ptx", []byte(src))
	require.NoError(t, err)
	prog, err := ssa.Build(ast)
	require.NoError(t, err)
	_, err = gosrc.Generate(prog, gosrc.Options{})
	require.ErrorContains(t, err, "f.ptx:8")
	require.ErrorContains(t, err, msg)
}

// TestAggregateArgs checks the Go values an aggregate parameter takes: []byte, or a fixed-size
// array or struct in encoding/binary's layout, of exactly its size.
func TestAggregateArgs(t *testing.T) {
	mod, err := ptx2go.CompileFile("testdata/ptx/hand/cvta_param.ptx")
	require.NoError(t, err)
	k, err := mod.Kernel("read")
	require.NoError(t, err)
	want := []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}
	for _, a := range []any{want[8:], [4]int32{1, 2, 3, -1}} {
		got, err := k.PackArgs(runtime.Ptr(0), a)
		require.NoError(t, err, "%T", a)
		require.Equal(t, want, got, "%T", a)
	}
	got, err := k.PackArgs(runtime.Ptr(0), struct {
		A    uint32
		B, C uint16
		_    uint32
		D    int32
	}{A: 1, B: 2, C: 3, D: -1})
	require.NoError(t, err)
	require.Equal(t, []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, got)
	for _, c := range []struct {
		arg any
		msg string
	}{
		{[3]uint32{}, "an aggregate parameter of 16 bytes, got 12 ([3]uint32)"},
		{"sixteen bytes!!!", "takes []byte or a fixed-size array or struct of numbers, not string"},
		{[]int{1, 2}, "not []int"},
	} {
		_, err := k.PackArgs(runtime.Ptr(0), c.arg)
		require.ErrorContains(t, err, c.msg)
	}
}
