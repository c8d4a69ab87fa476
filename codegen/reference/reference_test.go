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
		{"mov.u32 %r0, %tid.x; setp.eq.u32 %p, %r0, 0; @%p bar.sync 0; vote.sync.ballot.b32 %r1, %p, 0xf;", "names lanes that never reach it"},
		{"vote.sync.ballot.b32 %r1, %p, 0xe;", "does not include the executing lane 0"},
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

// Warp-level instructions in a function called from a divergent branch: the lanes whose
// %laneid is odd call it with their ballot as the membermask; it shuffles each lane's value
// from the lane 2 above (down 2: lanes 31 and 29, out of range, keep their own; in a partial
// warp, a source lane that does not exist reads 0), counts the lanes with a value above 10
// and asks whether all of them are.
const warpSrc = `
.version 8.0
.target sm_80
.address_size 64

.func (.param .b32 r) f(.param .b32 v, .param .b32 m)
{
	.reg .b32 %a<6>;
	.reg .pred %p<3>;
	ld.param.b32 %a0, [v];
	ld.param.b32 %a1, [m];
	shfl.sync.down.b32 %a2|%p0, %a0, 2, 31, %a1;
	setp.gt.u32 %p1, %a0, 10;
	vote.sync.ballot.b32 %a3, %p1, %a1;
	popc.b32 %a3, %a3;
	vote.sync.all.pred %p2, %p1, %a1;
	selp.b32 %a4, 1000, 0, %p2;
	selp.b32 %a5, 100000, 0, %p0;
	mad.lo.u32 %a2, %a3, 65536, %a2;
	add.u32 %a2, %a2, %a4;
	add.u32 %a2, %a2, %a5;
	st.param.b32 [r], %a2;
	ret;
}

.entry k(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	.reg .pred %p;
	mov.u32 %r0, %tid.x;
	ld.param.u64 %rd0, [out];
	mul.wide.u32 %rd1, %r0, 4;
	add.u64 %rd0, %rd0, %rd1;
	and.b32 %r1, %r0, 1;
	setp.eq.u32 %p, %r1, 1;
	vote.sync.ballot.b32 %r2, %p, 0xffffffff;
	mov.u32 %r3, 0;
	@!%p bra DONE;
	{
		.param .b32 a;
		.param .b32 b;
		.param .b32 q;
		st.param.b32 [a], %r0;
		st.param.b32 [b], %r2;
		call (q), f, (a, b);
		ld.param.b32 %r3, [q];
	}
DONE:
	st.global.u32 [%rd0], %r3;
	ret;
}
`

func TestWarpLevel(t *testing.T) {
	prog := build(t, warpSrc)
	dev := runtime.NewDevice()
	const n = 40 // a full warp and a partial one
	out, err := dev.Malloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	if err := reference.Launch(context.Background(), dev, prog, "k", runtime.D1(1), runtime.D1(n), ptrParam(out)); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, n)
	if err := runtime.Download(dev, got, out); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if i%2 == 0 {
			if got[i] != 0 {
				t.Errorf("thread %d did not call: %d, want 0", i, got[i])
			}
			continue
		}
		base, lanes := i/32*32, min(n-i/32*32, 32)
		lane := i % 32
		src, valid := uint32(i), uint32(0) // out of range: the lane's own value
		if lane+2 <= 31 {
			valid = 100000
			src = 0 // a lane of the warp that does not exist
			if lane+2 < lanes {
				src = uint32(i + 2)
			}
		}
		above, all := uint32(0), uint32(1000)
		for l := 1; l < lanes; l += 2 {
			if base+l > 10 {
				above++
			} else {
				all = 0
			}
		}
		if want := above*65536 + src + all + valid; got[i] != want {
			t.Errorf("thread %d: %d, want %d", i, got[i], want)
		}
	}
}
