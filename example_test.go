package ptx2go_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ptx2go/ptx2go"
)

// saxpyPTX computes y[i] = a*x[i] + y[i] for i < n.
const saxpyPTX = `
.version 7.5
.target sm_80
.address_size 64

.visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .pred %p;
	.reg .f32 %f<4>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<6>;

	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	ld.param.u32 %r1, [n];
	setp.ge.u32 %p, %r4, %r1;
	@%p bra done;
	ld.param.f32 %f1, [a];
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	mul.wide.u32 %rd3, %r4, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.f32 %f2, [%rd4];
	ld.global.f32 %f3, [%rd5];
	fma.rn.f32 %f3, %f1, %f2, %f3;
	st.global.f32 [%rd5], %f3;
done:
	ret;
}
`

// Compile a module, copy inputs to a device, launch a kernel and read the result back.
func Example() {
	mod, err := ptx2go.Compile([]byte(saxpyPTX), ptx2go.Options{File: "saxpy.ptx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := mod.Kernel("saxpy")
	if err != nil {
		fmt.Println(err)
		return
	}
	dev := ptx2go.NewDevice()
	x, _ := ptx2go.Upload(dev, []float32{1, 2, 3, 4, 5})
	y, _ := ptx2go.Upload(dev, []float32{10, 20, 30, 40, 50})
	// One CTA of 32 threads: lanes 5..31 find i >= n and return.
	if err := k.Launch(context.Background(), dev, ptx2go.D1(1), ptx2go.D1(32), float32(2), x, y, uint32(5)); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 5)
	_ = ptx2go.Download(dev, out, y)
	fmt.Println(out)
	// Output: [12 24 36 48 60]
}

// A kernel that fails returns a *ptx2go.Fault naming what went wrong and where: here saxpy is
// told there are 32 elements, but its buffers hold 5 floats, so thread 5 reads past the end
// of x.
func ExampleFault() {
	mod, err := ptx2go.Compile([]byte(saxpyPTX), ptx2go.Options{File: "saxpy.ptx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := mod.Kernel("saxpy")
	dev := ptx2go.NewDevice()
	x, _ := ptx2go.Upload(dev, []float32{1, 2, 3, 4, 5})
	y, _ := ptx2go.Upload(dev, []float32{10, 20, 30, 40, 50})
	err = k.Launch(context.Background(), dev, ptx2go.D1(1), ptx2go.D1(32), float32(2), x, y, uint32(32))
	if f, ok := errors.AsType[*ptx2go.Fault](err); ok {
		fmt.Println(f.Kind == ptx2go.FaultOutOfBounds, f.Loc, f.Thread)
		fmt.Println(err)
	}
	// Output:
	// true saxpy.ptx:26 (5,0,0)
	// saxpy.ptx:26: out-of-bounds access at global address 0x10014: past the end of the 20-byte allocation at 0x10000 (kernel saxpy, CTA (0,0,0), thread (5,0,0))
}

// Setting LaunchConfig.Stats collects the launch's execution counts: warp instructions, how
// many of their lanes were active, branches and how many diverged, bytes per state space. The
// second warp has 8 of its 32 threads below n, so its branch diverges.
func ExampleStats() {
	mod, err := ptx2go.Compile([]byte(saxpyPTX), ptx2go.Options{File: "saxpy.ptx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := mod.Kernel("saxpy")
	dev := ptx2go.NewDevice()
	x, _ := ptx2go.Upload(dev, make([]float32, 40))
	y, _ := ptx2go.Upload(dev, make([]float32, 40))
	var stats ptx2go.Stats
	cfg := ptx2go.LaunchConfig{Grid: ptx2go.D1(2), Block: ptx2go.D1(32), Stats: &stats}
	if err := k.LaunchConfig(context.Background(), dev, cfg, float32(2), x, y, uint32(40)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("warp instructions:", stats.Instructions)
	fmt.Println("lane instructions:", stats.LaneInstructions)
	fmt.Printf("warp efficiency: %.1f%%\n", 100*stats.Efficiency())
	fmt.Println("branches:", stats.Branches, "divergent:", stats.DivergentBranches)
	fmt.Println("global bytes loaded:", stats.Loaded[ptx2go.MemGlobal], "stored:", stats.Stored[ptx2go.MemGlobal])
	// Output:
	// warp instructions: 37
	// lane instructions: 912
	// warp efficiency: 77.0%
	// branches: 2 divergent: 1
	// global bytes loaded: 320 stored: 160
}

// helloPTX prints each thread's index with CUDA's device printf (vprintf).
const helloPTX = `
.version 7.5
.target sm_80
.address_size 64

.extern .func (.param .b32 func_retval0) vprintf (.param .b64 format, .param .b64 args);

// "thread %d\n"
.global .align 1 .b8 msg[11] = {116, 104, 114, 101, 97, 100, 32, 37, 100, 10, 0};

.visible .entry hello()
{
	.local .align 4 .b8 args[4];
	.reg .b32 %r<2>;
	.reg .b64 %rd<5>;

	mov.u32 %r1, %tid.x;
	st.local.u32 [args], %r1;
	mov.u64 %rd1, msg;
	cvta.global.u64 %rd2, %rd1;
	mov.u64 %rd3, args;
	cvta.local.u64 %rd4, %rd3;
	{
	.param .b64 p0;
	st.param.b64 [p0], %rd2;
	.param .b64 p1;
	st.param.b64 [p1], %rd4;
	.param .b32 rv;
	call.uni (rv), vprintf, (p0, p1);
	}
	ret;
}
`

// What kernels print goes to the device's printf writer (os.Stdout unless
// Device.SetPrintfOutput changes it), or to LaunchConfig.Printf for one launch, when the
// launch ends.
func ExampleLaunchConfig_printf() {
	mod, err := ptx2go.Compile([]byte(helloPTX), ptx2go.Options{File: "hello.ptx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := mod.Kernel("hello")
	var out strings.Builder
	cfg := ptx2go.LaunchConfig{Grid: ptx2go.D1(1), Block: ptx2go.D1(3), Printf: &out}
	if err := k.LaunchConfig(context.Background(), ptx2go.NewDevice(), cfg); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(out.String())
	// Output:
	// thread 0
	// thread 1
	// thread 2
}
