package ssa

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLaunchInvariant checks which instructions LaunchInvariant hoists, by the registers they
// define, against the rules in its doc comment.
func TestLaunchInvariant(t *testing.T) {
	p := buildIR(t, `
.visible .entry k(.param .u64 k_a, .param .u32 k_n, .param .align 4 .b8 k_s[8])
{
	.reg .pred %p<2>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b8 sh[16];
	.local .align 4 .b8 loc[16];
	ld.param.u64 %rd1, [k_a];          // hoisted: a parameter
	cvta.to.global.u64 %rd2, %rd1;     // hoisted: cvta of an invariant
	mov.u32 %r1, %ntid.x;              // hoisted: %ntid
	mov.u32 %r2, %tid.x;               // per thread
	mad.lo.s32 %r3, %r1, 4, %r2;       // depends on %tid
	mul.wide.u32 %rd3, %r1, 8;         // hoisted
	add.s64 %rd4, %rd2, %rd3;          // hoisted: invariant + invariant
	ld.param.u32 %r4, [k_s+4];         // hoisted: inside the aggregate
	ld.param.u32 %r5, [k_n];           // written twice below: not hoisted
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra DONE;
	add.s32 %r5, %r5, 1;
	mov.u32 %r6, %ctaid.x;             // per CTA
	add.s32 %r7, %r4, %r4;             // hoisted although only some lanes get here
	@%p1 mov.u32 %r8, 3;               // guarded
	mov.u32 %r9, %nctaid.y;            // shfl source: not hoisted
	shfl.sync.idx.b32 %r10, %r9, 0, 31, -1;
	add.s32 %r11, %r1, %r1;            // hoisted
	st.global.u32 [%rd4], %r11;
	mov.u64 %rd5, sh;                  // hoisted: a shared variable's address
	mov.u64 %rd6, loc;                 // a local variable: not hoisted
	st.shared.u32 [%rd5], %r11;
	st.local.u32 [%rd6], %r11;
DONE:
	ret;
}
`)
	fn := p.Func("k")
	var got []string
	for _, in := range LaunchInvariant(fn) {
		got = append(got, in.Defs[0].Reg.Name)
	}
	require.Equal(t, []string{"%rd1", "%rd2", "%r1", "%rd3", "%rd4", "%r4", "%r7", "%r11", "%rd5"}, got)
}

// TestLaunchInvariantExclusions covers the registers that must stay per warp: read before
// written on a path (through a phi or straight-line), a parameter read through a register address or beyond the parameter,
// and any function that is not a kernel.
func TestLaunchInvariantExclusions(t *testing.T) {
	p := buildIR(t, `
.func (.reg .u32 r) f(.param .u32 f_x)
{
	ld.param.u32 r, [f_x];
	ret;
}
.visible .entry k(.param .u32 k_n, .param .u64 k_out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra L1;
	mov.u32 %r2, 7;                    // some paths reach the add below without it
L1:
	add.s32 %r3, %r2, 1;
	add.s32 %r6, %r7, 1;               // reads %r7 before its only write
	mov.u32 %r7, 9;
	mov.u64 %rd1, k_n;
	ld.param.u32 %r4, [%rd1];          // address in a register
	ld.param.u32 %r5, [k_n+4];         // beyond k_n
	ld.param.u64 %rd2, [k_out];
	st.global.u32 [%rd2], %r3;
	ret;
}
`)
	require.Nil(t, LaunchInvariant(p.Func("f")))
	var got []string
	for _, in := range LaunchInvariant(p.Func("k")) {
		got = append(got, in.Defs[0].Reg.Name)
	}
	require.Equal(t, []string{"%rd2"}, got)
}
