package ptx2go_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestIPDOMSIMTDeadlock runs testdata/cuda/its.cu's kernels whose lanes wait for each other
// under the pre-Volta model (-sched ipdom): each stops promptly with a SIMT deadlock fault
// that names the warp, the looping lanes' line and where the others wait, from clang's and
// nvcc's PTX. (Under the default, its, TestKernels runs them to the right results.)
func TestIPDOMSIMTDeadlock(t *testing.T) {
	for _, level := range kernelLevels("its") {
		t.Run(level.name, func(t *testing.T) {
			mod, err := ptx2go.CompileFile(level.path)
			require.NoError(t, err)
			dev := runtime.NewDevice()
			for _, c := range []struct {
				kernel string
				args   func() []any
			}{
				{"spin_lock", func() []any {
					lock, _ := runtime.Upload(dev, []int32{0})
					counter, _ := runtime.Upload(dev, []int32{0})
					sum, _ := runtime.Upload(dev, []int32{0})
					return []any{lock, counter, sum}
				}},
				{"lane_handoff", func() []any {
					flags, _ := runtime.Upload(dev, make([]int32, 2))
					out, _ := runtime.Upload(dev, make([]int32, 2))
					return []any{flags, out}
				}},
			} {
				t.Run(c.kernel, func(t *testing.T) {
					k, err := mod.Kernel(c.kernel)
					require.NoError(t, err)
					cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1, Sched: runtime.SchedIPDOM}
					start := time.Now()
					err = k.LaunchConfig(t.Context(), dev, cfg, c.args()...)
					require.Less(t, time.Since(start), time.Second)
					var f *runtime.Fault
					require.True(t, errors.As(err, &f), "want a fault, got %v", err)
					require.Equal(t, runtime.FaultSIMTDeadlock, f.Kind, "%v", err)
					require.Equal(t, c.kernel, f.Kernel)
					file := filepath.ToSlash(level.path)
					require.Regexp(t, `^warp 0: lanes 0x[0-9a-f]{8} loop at `+file+`:\d+ without progress while lanes 0x[0-9a-f]{8} wait .* `+file+`:\d+; under the pre-Volta`, f.Detail)
					require.Contains(t, f.Loc, file+":")
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
