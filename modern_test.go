package ptx2go_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestSM90Sync runs testdata/ptx/hand/sm90_sync.ptx, whose griddepcontrol, setmaxnreg,
// fence.mbarrier_init and fence.proxy.tensormap::generic forms do nothing observable, around an
// mbarrier-synchronized rotation through shared memory, on both engines against Go.
func TestSM90Sync(t *testing.T) {
	const path = "testdata/ptx/hand/sm90_sync.ptx"
	onEngines(t, path, func(t *testing.T) {
		mod, err := loadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("rotate")
		require.NoError(t, err)
		for _, n := range []int{256, 70, 1} {
			in := make([]uint32, n)
			for i := range in {
				in[i] = uint32(i*2654435761) ^ 0x51ed
			}
			dev := runtime.NewDevice()
			pin, err := runtime.Upload(dev, in)
			require.NoError(t, err)
			out, err := dev.Malloc(4 * n)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(n)), out, pin))
			got := make([]uint32, n)
			require.NoError(t, runtime.Download(dev, got, out))
			for i := range in {
				require.Equal(t, in[(i+1)%n]*5+uint32(i), got[i], "%d threads: out[%d]", n, i)
			}
		}
	})
}

// requireBothReject compiles src (a module named modern.ptx) with each back end and requires
// an error at line with the message msg from both.
func requireBothReject(t *testing.T, src string, line, msg string) {
	t.Helper()
	_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "modern.ptx"})
	require.ErrorContains(t, err, "modern.ptx:"+line)
	require.ErrorContains(t, err, msg)
	ast, err := frontend.Parse("modern.ptx", []byte(src))
	require.NoError(t, err)
	prog, err := ssa.Build(ast)
	require.NoError(t, err)
	_, err = gosrc.Generate(prog, gosrc.Options{})
	require.ErrorContains(t, err, "modern.ptx:"+line)
	require.ErrorContains(t, err, msg)
}

// modernKernel wraps body lines into a one-kernel sm_90a module; the first body line is line 7.
func modernKernel(body string) string {
	return ".version 8.3\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
		".reg .b32 %r<4>;\n" + body + "\nret;\n}\n"
}

// TestSM90SyncForms checks that both back ends reject malformed setmaxnreg and griddepcontrol
// forms at their line.
func TestSM90SyncForms(t *testing.T) {
	for _, c := range []struct{ instr, msg string }{
		{"setmaxnreg.inc.sync.aligned.u32 20;", "setmaxnreg register count 20 is not a multiple of 8 from 24 to 256"},
		{"setmaxnreg.dec.sync.aligned.u32 100;", "setmaxnreg register count 100 is not a multiple of 8 from 24 to 256"},
		{"setmaxnreg.inc.u32 64;", "instruction setmaxnreg.inc.u32"},
		{"griddepcontrol.wait.launch_dependents;", "instruction griddepcontrol.wait.launch_dependents"},
	} {
		requireBothReject(t, modernKernel(c.instr), "7", c.msg)
	}
}
