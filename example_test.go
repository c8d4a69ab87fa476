package ptx2go_test

import (
	"context"
	"fmt"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
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
	dev := runtime.NewDevice()
	x, _ := runtime.Upload(dev, []float32{1, 2, 3, 4, 5})
	y, _ := runtime.Upload(dev, []float32{10, 20, 30, 40, 50})
	// One CTA of 32 threads: lanes 5..31 find i >= n and return.
	if err := k.Launch(context.Background(), dev, runtime.D1(1), runtime.D1(32), float32(2), x, y, uint32(5)); err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float32, 5)
	_ = runtime.Download(dev, out, y)
	fmt.Println(out)
	// Output: [12 24 36 48 60]
}
