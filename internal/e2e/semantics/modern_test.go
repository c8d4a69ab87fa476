package semantics_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestSM90Sync runs testdata/ptx/hand/sm90_sync.ptx, whose griddepcontrol, setmaxnreg,
// fence.mbarrier_init and fence.proxy.tensormap::generic forms do nothing observable, around an
// mbarrier-synchronized rotation through shared memory, on both engines against Go.
func TestSM90Sync(t *testing.T) {
	const path = "testdata/ptx/hand/sm90_sync.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
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

// TestClusterLaunch checks on both engines that a kernel requiring clusters of two CTAs
// (.reqnctapercluster 2, 1, 1) is refused at launch, and that one requiring clusters of one
// CTA runs, each CTA a cluster of one.
func TestClusterLaunch(t *testing.T) {
	const path = "testdata/ptx/hand/sm90_sync.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 64)
		require.NoError(t, err)
		pair, err := mod.Kernel("pair")
		require.NoError(t, err)
		err = pair.Launch(t.Context(), dev, runtime.D1(2), runtime.D1(32), out)
		require.ErrorContains(t, err, "launch pair: the kernel requires clusters of 2 CTAs (.reqnctapercluster)")
		one, err := mod.Kernel("one")
		require.NoError(t, err)
		require.NoError(t, one.Launch(t.Context(), dev, runtime.D1(2), runtime.D1(32), out))
		got := make([]uint32, 64)
		require.NoError(t, runtime.Download(dev, got, out))
		for i, v := range got {
			require.Equal(t, uint32(0*1000+1+1*10), v, "out[%d]", i)
		}
	})
}

// requireBothReject compiles src (a module named modern.ptx) with each back end and requires
// an error at line with the message msg from both (or from ssa.Build, which both share).
func requireBothReject(t *testing.T, src string, line, msg string) {
	t.Helper()
	_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "modern.ptx"})
	require.ErrorContains(t, err, "modern.ptx:"+line)
	require.ErrorContains(t, err, msg)
	ast, err := frontend.Parse("modern.ptx", []byte(src))
	require.NoError(t, err)
	prog, err := ssa.Build(ast)
	if err != nil {
		// Rejected when verified, before either back end.
		require.ErrorContains(t, err, "modern.ptx:"+line)
		require.ErrorContains(t, err, msg)
		return
	}
	_, err = gosrc.Generate(prog, gosrc.Options{})
	require.ErrorContains(t, err, "modern.ptx:"+line)
	require.ErrorContains(t, err, msg)
}

// modernKernel wraps body lines into a one-kernel sm_90a module; the first body line is line 8.
func modernKernel(body string) string {
	return ".version 8.3\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
		".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n" + body + "\nret;\n}\n"
}

// TestSM90SyncForms checks that both back ends reject malformed setmaxnreg, griddepcontrol and
// fence.proxy.tensormap::generic forms at their line.
func TestSM90SyncForms(t *testing.T) {
	for _, c := range []struct{ instr, msg string }{
		{"setmaxnreg.inc.sync.aligned.u32 20;", "setmaxnreg register count 20 is not a multiple of 8 from 24 to 256"},
		{"setmaxnreg.dec.sync.aligned.u32 100;", "setmaxnreg register count 100 is not a multiple of 8 from 24 to 256"},
		{"setmaxnreg.inc.u32 64;", "instruction setmaxnreg.inc.u32"},
		{"griddepcontrol.wait.launch_dependents;", "instruction griddepcontrol.wait.launch_dependents"},
		{"fence.proxy.tensormap::generic.acquire.gpu %rd1, 128;", "takes an address and the size 128"},
		{"fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;", "takes an address and the size 128"},
		{"fence.proxy.tensormap::generic.release.gpu [%rd1], 128;", "fence takes 2 operands ([addr], size) only as fence.proxy.tensormap::generic.acquire"},
	} {
		requireBothReject(t, modernKernel(c.instr), "8", c.msg)
	}
}

// TestUnsupportedSM90Errors checks that Hopper and Blackwell instructions ptx2go does not
// implement are reported as unsupported instructions at their line by both back ends, not as
// a missing destination, a wrong operand count or a syntax error.
func TestUnsupportedSM90Errors(t *testing.T) {
	for _, instr := range []string{
		"wgmma.fence.sync.aligned;",
		"wgmma.commit_group.sync.aligned;",
		"wgmma.wait_group.sync.aligned 0;",
		"barrier.cluster.arrive.release.aligned;",
		"barrier.cluster.wait.acquire.aligned;",
		"prefetch.tensormap [%rd1];",
		"cp.async.bulk.prefetch.L2.global [%rd1], 256;",
	} {
		requireBothReject(t, modernKernel(instr), "8:1", "instruction "+strings.Fields(strings.TrimSuffix(instr, ";"))[0])
	}
	// Neither is parsed: tcgen05.alloc's modifier is not in the table, and the bulk tensor
	// copies' [tensor-map, {coordinates}] operands are not parsed.
	for _, c := range []struct{ instr, msg string }{
		{"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;", "unsupported instruction 'tcgen05.alloc.cta_group::1.sync.align...'"},
		{"tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r1], %rd1;", "unsupported instruction 'tensormap.replace.tile.global_address...'"},
		{"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r2];",
			"unsupported instruction 'cp.async.bulk.tensor.2d.shared::clust...'"},
	} {
		_, err := ptx2go.Compile([]byte(modernKernel(c.instr)), ptx2go.Options{File: "modern.ptx"})
		require.ErrorContains(t, err, "modern.ptx:8:1: "+c.msg)
	}
}
