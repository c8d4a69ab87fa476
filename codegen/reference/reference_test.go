package reference_test

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/codegen/reference"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

func build(t *testing.T, src string) *ssa.Program {
	t.Helper()
	ast, err := frontend.Parse("test.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ssa.Build(ast)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func ptrParam(p runtime.Ptr) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, uint64(p))
	return b
}

// A recursive function (sum of 0..n), an early exit and a barrier after it, and a neighbour's
// shared slot read after the barrier.
const kernelSrc = `
.version 8.0
.target sm_80
.address_size 64
.shared .align 4 .b32 sh[64];

.func (.param .b32 r) sum(.param .b32 n)
{
	.reg .b32 %a<4>;
	.reg .pred %p;
	ld.param.b32 %a0, [n];
	setp.eq.u32 %p, %a0, 0;
	@%p bra BASE;
	sub.u32 %a1, %a0, 1;
	{
		.param .b32 q;
		.param .b32 s;
		st.param.b32 [q], %a1;
		call (s), sum, (q);
		ld.param.b32 %a2, [s];
	}
	add.u32 %a0, %a0, %a2;
BASE:
	st.param.b32 [r], %a0;
	ret;
}

.entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .pred %p;
	mov.u32 %r0, %tid.x;
	ld.param.u64 %rd0, [out];
	mul.wide.u32 %rd1, %r0, 8;
	add.u64 %rd0, %rd0, %rd1;
	{
		.param .b32 q;
		.param .b32 s;
		st.param.b32 [q], %r0;
		call (s), sum, (q);
		ld.param.b32 %r1, [s];
	}
	st.global.u32 [%rd0], %r1;
	shl.b32 %r2, %r0, 2;
	mov.u32 %r6, sh;
	add.u32 %r6, %r6, %r2;
	st.shared.u32 [%r6], %r1;
	setp.eq.u32 %p, %r0, 3;
	@%p exit;
	bar.sync 0;
	add.u32 %r3, %r0, 1;
	and.b32 %r3, %r3, 63;
	shl.b32 %r3, %r3, 2;
	mov.u32 %r5, sh;
	add.u32 %r5, %r5, %r3;
	ld.shared.u32 %r4, [%r5];
	st.global.u32 [%rd0+4], %r4;
	ret;
}
`

func TestKernel(t *testing.T) {
	prog := build(t, kernelSrc)
	dev := runtime.NewDevice()
	const n = 40
	out, err := dev.Malloc(8 * n)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.Memset(out, 0xee, 8*n); err != nil {
		t.Fatal(err)
	}
	if err := reference.Launch(context.Background(), dev, prog, "k", runtime.D1(1), runtime.D1(n), ptrParam(out)); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, 2*n)
	if err := runtime.Download(dev, got, out); err != nil {
		t.Fatal(err)
	}
	sum := func(i int) uint32 { return uint32(i * (i + 1) / 2) }
	for i := range n {
		if got[2*i] != sum(i) {
			t.Errorf("thread %d: sum %d, want %d", i, got[2*i], sum(i))
		}
		want := sum((i + 1) % n)
		if i == 3 {
			want = 0xeeeeeeee // exited before the barrier
		}
		if got[2*i+1] != want {
			t.Errorf("thread %d: neighbour %#x, want %#x", i, got[2*i+1], want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"activemask.b32 %r0;", "reference: unsupported instruction activemask.b32 at test.ptx:"},
		{"L: bra L;", "budget"},
		{"mov.u32 %r0, %tid.x; setp.eq.u32 %p, %r0, 0; @%p bar.sync 0; bar.sync 1;", "barrier deadlock"},
	} {
		src := ".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n.reg .b32 %r<2>;\n.reg .pred %p;\n" + c.body + "\nret;\n}\n"
		prog := build(t, src)
		err := reference.LaunchConfig(context.Background(), runtime.NewDevice(), prog, "k",
			reference.Config{Grid: runtime.D1(1), Block: runtime.D1(4), MaxSteps: 10000}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.body, err, c.want)
		}
	}
}
