package semantics_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/testdata/kernelcases"
)

// TestIPDOMSIMTDeadlock runs testdata/cuda/its.cu's kernels whose lanes wait for each other
// under the pre-Volta model (-sched ipdom): each stops promptly with a SIMT deadlock fault
// that names the warp, the looping lanes' line and where the others wait, from clang's and
// nvcc's PTX, on the closure engine and, for the module `make generate` compiled to Go
// (clang -O2), on the Go engine, which must report the same fault: kind, kernel, function,
// lines, CTA, thread and detail. The spin lock runs in one warp, and for clang -O2 also in
// two CTAs of two warps each taking the one lock. (Under the default, its, TestKernels and
// go test ./generated/its run them to the right results, the spin lock in one and several
// warps and CTAs.)
func TestIPDOMSIMTDeadlock(t *testing.T) {
	for _, level := range kernelcases.Levels("its") {
		t.Run(level.Name, func(t *testing.T) {
			closure, err := ptx2go.CompileFile(level.Path)
			require.NoError(t, err)
			engines := []struct {
				name string
				mod  *ptx2go.Module
			}{{"closure", closure}}
			if level.Name == "O2" {
				gen, err := ptx2go.Load(harness.GoModule(t, "its"))
				require.NoError(t, err)
				engines = append(engines, struct {
					name string
					mod  *ptx2go.Module
				}{"go", gen})
			}
			for _, c := range []struct {
				kernel      string
				grid, block uint32
				args        func(dev *runtime.Device) []any
			}{
				{"spin_lock", 1, 32, func(dev *runtime.Device) []any {
					lock, _ := runtime.Upload(dev, []int32{0})
					counter, _ := runtime.Upload(dev, []int32{0})
					sum, _ := runtime.Upload(dev, []int32{0})
					return []any{lock, counter, sum}
				}},
				{"spin_lock", 2, 64, func(dev *runtime.Device) []any { // several warps and CTAs, one lock
					lock, _ := runtime.Upload(dev, []int32{0})
					counter, _ := runtime.Upload(dev, []int32{0})
					sum, _ := runtime.Upload(dev, []int32{0})
					return []any{lock, counter, sum}
				}},
				{"lane_handoff", 1, 32, func(dev *runtime.Device) []any {
					flags, _ := runtime.Upload(dev, make([]int32, 2))
					out, _ := runtime.Upload(dev, make([]int32, 2))
					return []any{flags, out}
				}},
			} {
				multi := c.grid*c.block > 32
				if multi && level.Name != "O2" {
					continue // once is enough: it takes longer
				}
				t.Run(fmt.Sprintf("%s/grid=%d/block=%d", c.kernel, c.grid, c.block), func(t *testing.T) {
					var faults []*runtime.Fault
					for _, e := range engines {
						t.Run(e.name, func(t *testing.T) {
							k, err := e.mod.Kernel(c.kernel)
							require.NoError(t, err)
							dev := runtime.NewDevice()
							// Promptly, and deterministically so: the deadlock is found before any warp has
							// run 2^21 blocks, else the launch would stop with a budget fault instead.
							// (BenchmarkIPDOMSIMTDeadlock measures the time it takes.)
							cfg := runtime.LaunchConfig{Grid: runtime.D1(c.grid), Block: runtime.D1(c.block), Workers: 1, Sched: runtime.SchedIPDOM, MaxWarpBlocks: 1 << 21}
							err = k.LaunchConfig(t.Context(), dev, cfg, c.args(dev)...)
							var f *runtime.Fault
							require.True(t, errors.As(err, &f), "want a fault, got %v", err)
							require.Equal(t, runtime.FaultSIMTDeadlock, f.Kind, "%v", err)
							require.Equal(t, c.kernel, f.Kernel)
							file := filepath.ToSlash(level.Path)
							require.Regexp(t, `^warp [01]: lanes 0x[0-9a-f]{8} loop at `+file+`:\d+ without progress while lanes 0x[0-9a-f]{8} wait .* `+file+`:\d+; under the pre-Volta`, f.Detail)
							require.Contains(t, f.Loc, file+":")
							faults = append(faults, f)
						})
					}
					require.Len(t, faults, len(engines))
					for _, f := range faults[1:] {
						require.Equal(t, faults[0], f, "the engines report different faults")
					}
				})
			}
		})
	}
}

// TestSchedDefault checks that the scheduling model follows the module's target: its for
// sm_70 and newer, ipdom before, and that an explicit choice overrides it.
func TestSchedDefault(t *testing.T) {
	const body = `
.visible .entry spin(.param .u64 lock)
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [lock];
LOOP:
	atom.global.cas.b32 %r1, [%rd1], 0, 1;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra LOOP;
	atom.global.exch.b32 %r2, [%rd1], 0;
	ret;
}
`
	for _, c := range []struct {
		target string
		sched  runtime.Sched
		fault  bool
	}{
		{".version 7.0\n.target sm_80\n.address_size 64\n", runtime.SchedDefault, false},
		{".version 6.0\n.target sm_70\n.address_size 64\n", runtime.SchedDefault, false},
		{".version 6.0\n.target sm_60\n.address_size 64\n", runtime.SchedDefault, true},
		{".version 6.0\n.target sm_60\n.address_size 64\n", runtime.SchedITS, false},
		{".version 7.0\n.target sm_80\n.address_size 64\n", runtime.SchedIPDOM, true},
	} {
		mod, err := ptx2go.Compile([]byte(c.target+body), ptx2go.Options{File: "spin.ptx"})
		require.NoError(t, err)
		k, err := mod.Kernel("spin")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		lock, err := runtime.Upload(dev, []int32{0})
		require.NoError(t, err)
		err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(64), Sched: c.sched}, lock)
		if c.fault {
			var f *runtime.Fault
			require.True(t, errors.As(err, &f), "%s %v: want a fault, got %v", c.target, c.sched, err)
			require.Equal(t, runtime.FaultSIMTDeadlock, f.Kind)
			require.Equal(t, "spin.ptx:12", f.Loc, "%v", err)
		} else {
			require.NoError(t, err, "%s %v", c.target, c.sched)
		}
	}
}

// TestMaxWarpBlocks checks the deterministic cut-off: an endless loop stops with a budget
// fault at the loop, and a kernel within the budget is unaffected.
func TestMaxWarpBlocks(t *testing.T) {
	const src = `.version 7.0
.target sm_80
.address_size 64
.visible .entry forever(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, 0;
LOOP:
	add.u32 %r2, %r2, 1;
	setp.ne.u32 %p1, %r2, %r1;
	@%p1 bra LOOP;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "forever.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("forever")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	out, err := dev.Malloc(4)
	require.NoError(t, err)
	cfg := runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(64), Workers: 1, MaxWarpBlocks: 10000}
	require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, out, uint32(9000)))
	got := make([]uint32, 1)
	require.NoError(t, runtime.Download(dev, got, out))
	require.Equal(t, uint32(9000), got[0])
	for range 2 {
		err = k.LaunchConfig(t.Context(), dev, cfg, out, uint32(0)) // 0: the loop wraps around 2^32
		var f *runtime.Fault
		require.True(t, errors.As(err, &f), "want a fault, got %v", err)
		require.Equal(t, runtime.FaultBudget, f.Kind)
		require.Equal(t, "forever.ptx:13", f.Loc)
		require.Equal(t, runtime.Dim3{X: 0, Y: 0, Z: 0}, f.CTA)
		require.Contains(t, f.Detail, "warp 0 ran 10000 blocks")
	}
}

// TestITSDivergentBarriers runs bar.sync reached from both sides of a divergent branch, as
// sm_70 and newer allow (the barrier counts threads, not warps): under its each side's lanes
// wait at their own bar.sync while the other side runs to its one, and every thread then
// reads what a thread of the other side stored before the barrier.
func TestITSDivergentBarriers(t *testing.T) {
	const src = `.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.shared .align 4 .b8 s[4096];
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ntid.x;
	mov.u64 %rd2, s;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd4, %rd2, %rd3;
	and.b32 %r3, %r1, 1;
	setp.eq.u32 %p1, %r3, 0;
	@%p1 bra EVEN;
	mul.lo.u32 %r4, %r1, 3;
	st.shared.u32 [%rd4], %r4;
	bar.sync 0;
	sub.u32 %r5, %r1, 1;
	mov.u32 %r6, 100000;
	bra.uni JOIN;
EVEN:
	mul.lo.u32 %r4, %r1, 5;
	st.shared.u32 [%rd4], %r4;
	bar.sync 0;
	add.u32 %r5, %r1, 1;
	rem.u32 %r5, %r5, %r2;
	mov.u32 %r6, 200000;
JOIN:
	mul.wide.u32 %rd3, %r5, 4;
	add.u64 %rd5, %rd2, %rd3;
	ld.shared.u32 %r7, [%rd5];
	add.u32 %r7, %r7, %r6;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd5, %rd1, %rd3;
	st.global.u32 [%rd5], %r7;
	ret;
}
`
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "divbar.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("k")
	require.NoError(t, err)
	for _, block := range []uint32{2, 32, 96, 100} {
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * int(block))
		require.NoError(t, err)
		require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(block)}, out))
		got := make([]uint32, block)
		require.NoError(t, runtime.Download(dev, got, out))
		stored := func(t uint32) uint32 {
			if t%2 == 0 {
				return 5 * t
			}
			return 3 * t
		}
		for tid := range block {
			want := stored(tid-1) + 100000
			if tid%2 == 0 {
				want = stored((tid+1)%block) + 200000
			}
			require.Equal(t, want, got[tid], "block %d, thread %d", block, tid)
		}
		err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(block), Sched: runtime.SchedIPDOM}, out)
		var f *runtime.Fault
		require.True(t, errors.As(err, &f), "ipdom: want a barrier deadlock, got %v", err)
		require.Equal(t, runtime.FaultDeadlock, f.Kind)
	}
}

// BenchmarkIPDOMSIMTDeadlock measures how long the pre-Volta model takes to report the
// one-warp spin lock of testdata/cuda/its.cu as a SIMT deadlock (the issue asks for well under
// a second), on the closure engine.
func BenchmarkIPDOMSIMTDeadlock(b *testing.B) {
	mod, err := ptx2go.CompileFile("testdata/ptx/its.ptx")
	require.NoError(b, err)
	k, err := mod.Kernel("spin_lock")
	require.NoError(b, err)
	dev := runtime.NewDevice()
	cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1, Sched: runtime.SchedIPDOM}
	for b.Loop() {
		lock, _ := runtime.Upload(dev, []int32{0})
		counter, _ := runtime.Upload(dev, []int32{0})
		sum, _ := runtime.Upload(dev, []int32{0})
		var f *runtime.Fault
		if err := k.LaunchConfig(b.Context(), dev, cfg, lock, counter, sum); !errors.As(err, &f) || f.Kind != runtime.FaultSIMTDeadlock {
			b.Fatalf("want a SIMT deadlock, got %v", err)
		}
	}
}

// TestITSRejoin runs hand/its_rejoin.ptx on both engines: lanes 1-31 run ahead of lane 0,
// which spins until lane 1 sets a flag past the reconvergence point, and the whole warp then
// shuffles; the lanes that ran ahead must wait for lane 0 and shuffle with it, not fault.
func TestITSRejoin(t *testing.T) {
	const path = "testdata/ptx/hand/its_rejoin.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("rejoin")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 32)
		require.NoError(t, err)
		flag, err := dev.Malloc(4)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out, flag))
		got := make([]uint32, 32)
		require.NoError(t, runtime.Download(dev, got, out))
		want := make([]uint32, 32)
		for l := range want {
			want[l] = uint32(10*min(l+1, 31) + 1)
		}
		require.Equal(t, want, got)
	})
}
