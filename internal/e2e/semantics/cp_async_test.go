package semantics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestCpAsync runs testdata/ptx/hand/cp_async.ptx on both engines. copies: every copy form
// (cp.async.ca of 4, 8 and 16 bytes, .cg with src-size 0..16, ignore-src, a guarded copy to a
// variable's address; shared addresses in 32- and 64-bit registers) into shared memory
// filled with a marker, copied out after commit and wait, against the input's bytes with the
// zero fill computed here. arrive: cp.async.mbarrier.arrive leaves the pending count as it
// was, .noinc counts an arrival and completes phases. bad: misuse faults at its line.
func TestCpAsync(t *testing.T) {
	const path = "testdata/ptx/hand/cp_async.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()

		const size = 1680
		in := make([]byte, size)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range in {
			in[i] = byte(1 + rng.IntN(255)) // never zero, so the zero fill shows
		}
		want := make([]byte, size)
		copy(want, in)
		for l := range 32 {
			chunk := want[896+16*l : 896+16*l+16]
			clear(chunk[l%17:]) // src-size l%17
			if l%2 == 1 {
				clear(want[1408+8*l : 1408+8*l+8]) // ignore-src
			}
		}
		src, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		out, err := dev.Malloc(size)
		require.NoError(t, err)
		k, err := mod.Kernel("copies")
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out, src))
		got := make([]byte, size)
		require.NoError(t, runtime.Download(dev, got, out))
		for i := range size {
			require.Equal(t, want[i], got[i], "shared byte %d", i)
		}

		k, err = mod.Kernel("arrive")
		require.NoError(t, err)
		res, err := dev.Malloc(3 * 32 * 4)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), res))
		counts := make([]uint32, 3*32)
		require.NoError(t, runtime.Download(dev, counts, res))
		for l := range uint32(32) {
			require.Equal(t, 32-l, counts[l], "lane %d: pending before its arrival in phase 0", l)
			require.Equal(t, 40-l, counts[32+l], "lane %d: pending before its arrival in phase 2", l)
			require.Equal(t, uint32(1|2), counts[64+l], "lane %d: phases 0 and 1 complete, phase 2 not", l)
		}

		kb, err := mod.Kernel("bad")
		require.NoError(t, err)
		buf, err := dev.Malloc(64)
		require.NoError(t, err)
		for kind, f := range []struct {
			kind   runtime.FaultKind
			marker string
			addr   uint64 // the global address named, if any
		}{
			{runtime.FaultOutOfBounds, "dst_oob", 0},
			{runtime.FaultOutOfBounds, "src_oob", 4096},
			{runtime.FaultMisaligned, "dst_misaligned", 0},
			{runtime.FaultMisaligned, "src_misaligned", uint64(buf) + 4},
			{runtime.FaultIllegal, "src_size", 0},
			{runtime.FaultOutOfBounds, "src_end", uint64(buf) + 64}, // src-size 1 reads past the end
			{runtime.FaultIllegal, "arrive_uninit", 0},
			{runtime.FaultIllegal, "noinc_uninit", 0},
			{runtime.FaultIllegal, "arrive_global", 0},
		} {
			err := kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), uint32(kind), buf)
			w := harness.FaultWant{Kind: f.kind, Kernel: "bad", Loc: harness.FaultLocIn(t, path, f.marker), Thread: runtime.Dim3{X: 5}}
			if f.addr != 0 {
				w.HasAddr, w.Addr, w.Space = true, f.addr, "global"
			}
			harness.CheckFault(t, err, w)
		}
	})
}

// TestCpAsyncSizes checks that both back ends reject a cp-size other than 4, 8 and 16, and
// other than 16 for .cg, at its line.
func TestCpAsyncSizes(t *testing.T) {
	for _, c := range []struct{ instr, msg string }{
		{"cp.async.ca.shared.global [sh], [%rd1], 2;", "cp.async cp-size 2 is not 4, 8 or 16"},
		{"cp.async.ca.shared.global [sh], [%rd1], 32, 4;", "cp.async cp-size 32 is not 4, 8 or 16"},
		{"cp.async.cg.shared.global [sh], [%rd1], 8;", "cp.async.cg cp-size 8 is not 16"},
	} {
		src := ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
			".reg .b64 %rd<2>;\n.shared .align 16 .b8 sh[16];\nld.param.u64 %rd1, [p];\n" + c.instr + "\nret;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "sizes.ptx"})
		require.ErrorContains(t, err, "sizes.ptx:9")
		require.ErrorContains(t, err, c.msg)
		ast, err := frontend.Parse("sizes.ptx", []byte(src))
		require.NoError(t, err)
		prog, err := ssa.Build(ast)
		require.NoError(t, err)
		_, err = gosrc.Generate(prog, gosrc.Options{})
		require.ErrorContains(t, err, "sizes.ptx:9")
		require.ErrorContains(t, err, c.msg)
	}
}
