package semantics_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/recursion"
	"github.com/ptx2go/ptx2go/generated/reduce_shared"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestCallBudgetBothEngines checks that the Go source back end's calls run from its block chain
// (runtime.Warp.CallInline) count basic blocks exactly as the runtime's loop does: with a
// warp's block budget (MaxWarpBlocks) cut anywhere in a recursive kernel, both engines stop
// with the same fault (kind, PTX line, CTA, thread) and the same memory written, and with
// enough budget both give the recursion's results.
func TestCallBudgetBothEngines(t *testing.T) {
	gen, err := ptx2go.Load(recursion.Module)
	require.NoError(t, err)
	closure, err := ptx2go.CompileFile("testdata/ptx/recursion.ptx")
	require.NoError(t, err)
	const n = 64
	in, in2 := make([]int32, n), make([]uint32, n)
	for i := range in {
		in[i] = int32(i * 5 % 13)
		in2[i] = uint32(3*i + 1)
	}
	wf, wd, wg := make([]int32, n), make([]int32, n), make([]uint32, n)
	harness.FibGo(wf, wd, wg, in, in2)
	type result struct {
		err                string
		fibs, depths, gcds []uint32
	}
	run := func(mod *ptx2go.Module, limit uint64) result {
		k, err := mod.Kernel("recursion")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		pin, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		pin2, err := runtime.Upload(dev, in2)
		require.NoError(t, err)
		var outs [3]runtime.Ptr
		for i := range outs {
			outs[i], err = dev.Malloc(4 * n)
			require.NoError(t, err)
		}
		var r result
		cfg := runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(n / 2), Workers: 1, MaxWarpBlocks: limit}
		if err := k.LaunchConfig(context.Background(), dev, cfg, outs[0], outs[1], outs[2], pin, pin2, int32(n)); err != nil {
			r.err = err.Error()
		}
		for i, dst := range []*[]uint32{&r.fibs, &r.depths, &r.gcds} {
			*dst = make([]uint32, n)
			require.NoError(t, runtime.Download(dev, *dst, outs[i]))
		}
		return r
	}
	for _, limit := range []uint64{1, 2, 3, 5, 8, 13, 40, 100, 333, 1000, 5000, 0} {
		c, g := run(closure, limit), run(gen, limit)
		require.Equal(t, c, g, "MaxWarpBlocks %d: the engines differ", limit)
		if limit == 0 {
			require.Empty(t, g.err)
			for i := range wf {
				require.Equal(t, []uint32{uint32(wf[i]), uint32(wd[i]), wg[i]}, []uint32{g.fibs[i], g.depths[i], g.gcds[i]}, "thread %d", i)
			}
		} else if limit < 100 {
			require.Contains(t, g.err, "block budget exhausted", "MaxWarpBlocks %d", limit)
		}
	}
}

// TestDeepRecursionBothEngines runs recursion far deeper than the calls the Go source back end
// nests on the Go stack (runtime.Warp.CallInline stops at a fixed depth and leaves deeper calls
// to the runtime's loop): rec(n) = 1 + rec(n-1) to depth 300 gives 300 in every thread, and a
// call depth limit below it is the same stack overflow fault on both engines.
func TestDeepRecursionBothEngines(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_calls.ptx"), func(t *testing.T) {
		const grid, block, depth = 2, 64, 300
		dev := runtime.NewDevice()
		_, k := harness.SemKernel(t, "fault_calls.ptx", "overflow")
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: 1, MaxCallDepth: depth + 1}
		require.NoError(t, k.LaunchConfig(context.Background(), dev, cfg, out, uint32(grid*block), uint32(depth)))
		for i, v := range harness.SemDownload(t, dev, out, grid*block) {
			require.Equal(t, uint32(depth), v, "out[%d]", i)
		}
		cfg.MaxCallDepth = depth
		err := k.LaunchConfig(context.Background(), dev, cfg, out, uint32(grid*block), uint32(depth))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultStackOverflow, Kernel: "overflow", Func: "rec", Loc: harness.FaultLoc(t, "fault_calls.ptx", "overflow"),
			CTA: runtime.Dim3{}, Thread: runtime.Dim3{},
		})
	})
}

// TestParamGroups runs testdata/ptx/hand/param_groups.ptx on both engines: call sequences in
// sibling and nested `{ }` groups share their function's .param area, while .param variables
// of the body and of an outer group keep their values across the calls inside them, on full
// warps and on the half that takes a branch.
func TestParamGroups(t *testing.T) {
	const path = "testdata/ptx/hand/param_groups.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("k")
		require.NoError(t, err)
		const n = 64
		in := make([]int32, n)
		for i := range in {
			in[i] = int32(i*7%23) - 11
		}
		dev := runtime.NewDevice()
		pin, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		pout, err := dev.Malloc(4 * n)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(n), pout, pin))
		got := make([]int32, n)
		require.NoError(t, runtime.Download(dev, got, pout))
		sq := func(x int32) int32 { return x*x + 1 }
		for i, a := range in {
			want := 3*sq(a) + sq(a+7) + 1000*a
			if a&1 != 0 {
				want += sq(a-1) + 100*a
			}
			require.Equal(t, want, got[i], "a = %d", a)
		}
	})
}

// TestParamReadBeforeWrite runs testdata/ptx/hand/param_unwritten.ptx on both engines: bytes
// of a function's .param area that a thread reads before writing them (a store only some
// lanes make, half of a vector, a result written on one path) read zero in every call, though
// the loop's earlier calls of the same function wrote them in the frame the runtime reuses.
func TestParamReadBeforeWrite(t *testing.T) {
	const path = "testdata/ptx/hand/param_unwritten.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("k")
		require.NoError(t, err)
		h := func(flag bool, x int32) int32 {
			if flag {
				return 4*x + 1
			}
			return 1
		}
		pick := func(x int32) int32 {
			if x&1 != 0 {
				return 5 * x
			}
			return 0
		}
		for _, n := range []uint32{64, 45} {
			dev := runtime.NewDevice()
			pout, err := runtime.Upload(dev, make([]int32, n))
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(n), pout))
			got := make([]int32, n)
			require.NoError(t, runtime.Download(dev, got, pout))
			for i := range int32(n) {
				var want int32
				for j := range int32(6) {
					want += h((i+j)%3 == 0, 10*i+j)*(j+1) + pick(i+j)
				}
				require.Equal(t, want, got[i], "%d threads, thread %d", n, i)
			}
		}
	})
}

// TestBarrierBudgetBothEngines checks that the Go source back end's straight runs to barriers
// (runtime.Warp.runStraight) and its if-then sides run from the block chain (ifthen.go) count
// basic blocks exactly as the runtime's loop does: reduce_sum's rounds of bar.sync with
// divergent if-thens between them, cut by a warp's block budget anywhere, stop with the same
// fault and the same memory written on both engines, and with enough budget give the sums.
func TestBarrierBudgetBothEngines(t *testing.T) {
	gen, err := ptx2go.Load(reduce_shared.Module)
	require.NoError(t, err)
	closure, err := ptx2go.CompileFile("testdata/ptx/reduce_shared.ptx")
	require.NoError(t, err)
	const blocks, n = 3, 700
	in := make([]int32, blocks*256)
	for i := range in {
		in[i] = int32(i*7919%2001) - 1000
	}
	type result struct {
		err string
		out []int32
	}
	run := func(mod *ptx2go.Module, limit uint64) result {
		k, err := mod.Kernel("reduce_sum")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		pin, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		pout, err := runtime.Upload(dev, make([]int32, blocks))
		require.NoError(t, err)
		var r result
		cfg := runtime.LaunchConfig{Grid: runtime.D1(blocks), Block: runtime.D1(256), Workers: 1, MaxWarpBlocks: limit}
		if err := k.LaunchConfig(context.Background(), dev, cfg, pout, pin, int32(n)); err != nil {
			r.err = err.Error()
		}
		r.out = make([]int32, blocks)
		require.NoError(t, runtime.Download(dev, r.out, pout))
		return r
	}
	for limit := range uint64(41) { // every cut within a warp's 30-odd blocks, and none (0)
		c, g := run(closure, limit), run(gen, limit)
		require.Equal(t, c, g, "MaxWarpBlocks %d: the engines differ", limit)
		if limit == 0 {
			require.Empty(t, g.err)
			for b := range blocks {
				var want int32
				for i := b * 256; i < b*256+256 && i < n; i++ {
					want += in[i]
				}
				require.Equal(t, want, g.out[b], "block %d", b)
			}
		} else if limit < 10 {
			require.Contains(t, g.err, "block budget exhausted", "MaxWarpBlocks %d", limit)
		}
	}
}
