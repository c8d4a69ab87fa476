package ssa

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
)

// The expected IR below was derived by hand from the definitions (dominators, immediate
// post-dominators of the CFG with the virtual exit, Braun SSA with trivial phis removed,
// versions numbered per register in block-ID order, and the uniformity rules of uniform.go's
// doc comment), not copied from the program's output. Conventions used in the derivations:
//   - block IDs: b0 is the entry, then one block per label in source order, then the blocks
//     lowering opens (fall-through of a conditional branch, the two blocks of a guarded
//     ret/exit/brx split, the return point of a call, code after a terminator);
//   - a phi operand counts as used in the phi's block (the join), so a value that flows from a
//     divergent region into a phi at its reconvergence block is "used outside" the region.

const irHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n"

// buildIR parses and lowers a module body written after irHeader.
func buildIR(t *testing.T, body string) *Program {
	t.Helper()
	m, err := frontend.ParseString("ir_test.ptx", irHeader+body)
	require.NoError(t, err)
	p, err := Build(m)
	require.NoError(t, err)
	require.NoError(t, Check(p))
	return p
}

type irCase struct {
	name string
	src  string // the module after irHeader
	fn   string // the function to print; "" prints the whole program
	want string // the expected printed IR (a leading newline is dropped)
}

var irCases = []irCase{
	// Seed 9.7.12.2 (@): if/else by predication alone, no branches: one block. A guarded
	// instruction names the value it keeps when the guard is false ("else"). Guards on the
	// divergent p make %r2#2 and %r2#3 divergent although their operands are uniform; the
	// guard on the uniform q keeps %r3#2 uniform. No reconvergence is needed.
	{
		name: "predication_if_else",
		fn:   "pred",
		src: `
.visible .entry pred()
{
	.reg .pred p, q;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	setp.lt.u32 p, %r1, 16;
	@p add.u32 %r2, %r2, 5;
	@!p add.u32 %r2, %r2, 7;
	mov.u32 %r3, %ctaid.x;
	setp.eq.u32 q, %r3, 0;
	@q add.u32 %r3, %r3, 1;
	ret;
}
`,
		want: `
.entry pred()
b0:  ; preds -, idom -, ipdom exit
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 0  ; uniform
	p#1 = setp.lt.u32 %r1#1, 16  ; divergent
	%r2#2 = @p#1 add.u32 %r2#1, 5 else %r2#1  ; divergent
	%r2#3 = @!p#1 add.u32 %r2#2, 7 else %r2#2  ; divergent
	%r3#1 = mov.u32 %ctaid.x  ; uniform
	q#1 = setp.eq.u32 %r3#1, 0  ; uniform
	%r3#2 = @q#1 add.u32 %r3#1, 1 else %r3#1  ; uniform
	ret
`,
	},
	// Seed 9.7.12.2 (@) verbatim shape: `setp.eq.f32 p,y,0; @!p div ratio,x,y`. Everything
	// is uniform (a kernel parameter and constants) except ratio#1: on lanes where the guard
	// fails it keeps ratio's initial garbage (ratio#undef), and undefined values are divergent.
	{
		name: "seed_predicated_div",
		fn:   "pdiv",
		src: `
.visible .entry pdiv(.param .f32 py)
{
	.reg .pred p;
	.reg .f32 x, y, ratio;
	ld.param.f32 y, [py];
	mov.f32 x, 0f3F800000;
	setp.eq.f32 p, y, 0f00000000;
	@!p div.rn.f32 ratio, x, y;
	ret;
}
`,
		want: `
.entry pdiv(.param .f32 py)
b0:  ; preds -, idom -, ipdom exit
	y#1 = ld.param.f32 [py]  ; uniform
	x#1 = mov.f32 0f3F800000  ; uniform
	p#1 = setp.eq.f32 y#1, 0f00000000  ; uniform
	ratio#1 = @!p#1 div.rn.f32 x#1, y#1 else ratio#undef  ; divergent
	ret
`,
	},
	// Seed 9.7.12.3 (@q bra L23): if/else with `@!p bra ELSE` on a divergent condition. The
	// then-arm is the fall-through block b3, which jumps over ELSE. Lanes reconverge at JOIN,
	// the immediate post-dominator of b0, where a phi merges %r2; the arm values flow into
	// that phi outside the divergent region {b1, b3}, so they are divergent too.
	{
		name: "bra_if_else",
		fn:   "ifelse",
		src: `
.visible .entry ifelse()
{
	.reg .pred p;
	.reg .u32 %r<3>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 p, %r1, 16;
	@!p bra ELSE;
	mov.u32 %r2, 1;
	bra JOIN;
ELSE:
	mov.u32 %r2, 2;
JOIN:
	add.u32 %r2, %r2, %r1;
	ret;
}
`,
		want: `
.entry ifelse()
b0:  ; preds -, idom -, ipdom b2(JOIN)
	%r1#1 = mov.u32 %tid.x  ; divergent
	p#1 = setp.lt.u32 %r1#1, 16  ; divergent
	branch !p#1, b1(ELSE), b3  ; divergent, reconverge b2(JOIN)
b1(ELSE):  ; preds b0, idom b0, ipdom b2(JOIN)
	%r2#1 = mov.u32 2  ; divergent
	jump b2(JOIN)
b2(JOIN):  ; preds b3 b1(ELSE), idom b0, ipdom exit
	%r2#2 = phi [%r2#4, b3], [%r2#1, b1(ELSE)]  ; divergent
	%r2#3 = add.u32 %r2#2, %r1#1  ; divergent
	ret
b3:  ; preds b0, idom b0, ipdom b2(JOIN)
	%r2#4 = mov.u32 1  ; divergent
	jump b2(JOIN)
`,
	},
	// A uniform value computed before a divergent branch and used after the join: %r1#1 (a
	// kernel parameter) is computed once by all lanes before they split, and b0 is not in the
	// region between the branch and its reconvergence block SKIP ({b2}), so no rule makes it
	// divergent; %r3#1 = %r1#1 + 1 is uniform too. Lanes reconverge at SKIP.
	{
		name: "uniform_value_across_divergent_if",
		fn:   "unibefore",
		src: `
.visible .entry unibefore(.param .u32 cnt)
{
	.reg .pred p;
	.reg .u32 %r<4>;
	ld.param.u32 %r1, [cnt];
	mov.u32 %r2, %tid.x;
	setp.lt.u32 p, %r2, %r1;
	@p bra SKIP;
	add.u32 %r2, %r2, 1;
SKIP:
	add.u32 %r3, %r1, 1;
	ret;
}
`,
		want: `
.entry unibefore(.param .u32 cnt)
b0:  ; preds -, idom -, ipdom b1(SKIP)
	%r1#1 = ld.param.u32 [cnt]  ; uniform
	%r2#1 = mov.u32 %tid.x  ; divergent
	p#1 = setp.lt.u32 %r2#1, %r1#1  ; divergent
	branch p#1, b1(SKIP), b2  ; divergent, reconverge b1(SKIP)
b1(SKIP):  ; preds b0 b2, idom b0, ipdom exit
	%r3#1 = add.u32 %r1#1, 1  ; uniform
	ret
b2:  ; preds b0, idom b0, ipdom b1(SKIP)
	%r2#2 = add.u32 %r2#1, 1  ; divergent
	jump b1(SKIP)
`,
	},
	// Seed 9.7.12.4: a guarded `@p brx.idx %r2, ts` over `.branchtargets L1, L2, L1` (a label
	// may repeat; the successors are the distinct targets). The guard splits b0 with a
	// synthetic branch to b4 (holding brx.idx) and the fall-through b5. Both the guard branch
	// and brx.idx are divergent; all lanes reconverge at DONE, where a phi merges the three
	// values of %r3 (from b5, L1, L2 in predecessor order).
	{
		name: "brx_idx_branchtargets",
		fn:   "brx",
		src: `
.visible .entry brx()
{
	.reg .pred p;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	rem.u32 %r2, %r1, 3;
	setp.lt.u32 p, %r1, 24;
ts: .branchtargets L1, L2, L1;
	@p brx.idx %r2, ts;
	mov.u32 %r3, 99;
	bra DONE;
L1:
	mov.u32 %r3, 10;
	bra DONE;
L2:
	mov.u32 %r3, 20;
DONE:
	add.u32 %r3, %r3, 1;
	ret;
}
`,
		want: `
.entry brx()
b0:  ; preds -, idom -, ipdom b3(DONE)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = rem.u32 %r1#1, 3  ; divergent
	p#1 = setp.lt.u32 %r1#1, 24  ; divergent
	branch p#1, b4, b5  ; divergent, reconverge b3(DONE)
b1(L1):  ; preds b4, idom b4, ipdom b3(DONE)
	%r3#1 = mov.u32 10  ; divergent
	jump b3(DONE)
b2(L2):  ; preds b4, idom b4, ipdom b3(DONE)
	%r3#2 = mov.u32 20  ; divergent
	jump b3(DONE)
b3(DONE):  ; preds b5 b1(L1) b2(L2), idom b0, ipdom exit
	%r3#3 = phi [%r3#5, b5], [%r3#1, b1(L1)], [%r3#2, b2(L2)]  ; divergent
	%r3#4 = add.u32 %r3#3, 1  ; divergent
	ret
b4:  ; preds b0, idom b0, ipdom b3(DONE)
	brx.idx %r2#1, ts [b1(L1), b2(L2), b1(L1)]  ; divergent, reconverge b3(DONE)
b5:  ; preds b0, idom b0, ipdom b3(DONE)
	%r3#5 = mov.u32 99  ; divergent
	jump b3(DONE)
`,
	},
	// Seed 9.7.12.5, direct calls: `call.uni (d), f, (a)` and a guarded `@p call f, (a)`. Every
	// call ends its block; the return point starts the next one. The unguarded direct call
	// cannot diverge (no mark); the guarded one on a divergent p diverges and the lanes
	// reconverge at its return point b2. Call results and .func parameters are divergent.
	{
		name: "call_direct",
		src: `
.func (.reg .u32 rv) inc(.reg .u32 a)
{
	add.u32 rv, a, 1;
	ret;
}

.func note(.reg .u32 a)
{
	ret;
}

.visible .entry calldirect()
{
	.reg .pred p;
	.reg .u32 %r<4>;
	mov.u32 %r1, %ctaid.x;
	call.uni (%r2), inc, (%r1);
	mov.u32 %r3, %tid.x;
	setp.lt.u32 p, %r3, 8;
	@p call note, (%r2);
	add.u32 %r3, %r2, %r1;
	ret;
}
`,
		want: `
.func (.reg .u32 rv) inc(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	rv#1 = add.u32 a#1, 1  ; divergent
	ret rv#1

.func note(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	ret

.entry calldirect()
b0:  ; preds -, idom -, ipdom b1
	%r1#1 = mov.u32 %ctaid.x  ; uniform
	call.uni (%r2#1), inc, (%r1#1) -> b1
b1:  ; preds b0, idom b0, ipdom b2
	%r3#1 = mov.u32 %tid.x  ; divergent
	p#1 = setp.lt.u32 %r3#1, 8  ; divergent
	@p#1 call note, (%r2#1) -> b2  ; divergent, reconverge b2
b2:  ; preds b1, idom b1, ipdom exit
	%r3#2 = add.u32 %r2#1, %r1#1  ; divergent
	ret
`,
	},
	// Seed 9.7.12.5 (`@p call (d), h, (a, b)`): a guarded call with a .reg result. Lanes whose
	// guard is false skip the call and keep d's previous value, so the value after the call is
	// %r2#2 on the calling lanes and %r2#1 (5) on the others; like a guarded instruction, the
	// call must name the value it keeps (spelled here as guarded instructions spell it, with
	// "else"). Lanes reconverge at the return point b1.
	{
		name: "guarded_call_result",
		fn:   "gcall",
		src: `
.func (.reg .u32 rv) inc(.reg .u32 a)
{
	add.u32 rv, a, 1;
	ret;
}

.visible .entry gcall()
{
	.reg .pred p;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 5;
	setp.lt.u32 p, %r1, 8;
	@p call (%r2), inc, (%r1);
	add.u32 %r3, %r2, 1;
	ret;
}
`,
		want: `
.entry gcall()
b0:  ; preds -, idom -, ipdom b1
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 5  ; uniform
	p#1 = setp.lt.u32 %r1#1, 8  ; divergent
	@p#1 call (%r2#2), inc, (%r1#1) else %r2#1 -> b1  ; divergent, reconverge b1
b1:  ; preds b0, idom b0, ipdom exit
	%r3#1 = add.u32 %r2#2, 1  ; divergent
	ret
`,
	},
	// Seed 9.7.12.5, indirect call via `.calltargets`: %fp holds f2, or f1 on lanes with the
	// divergent p, so the call target is divergent and the call diverges; the lanes
	// reconverge at the return point b1.
	{
		name: "call_indirect_calltargets",
		fn:   "calltargets",
		src: `
.func (.reg .u32 rv) f1(.reg .u32 a)
{
	add.u32 rv, a, 1;
	ret;
}

.func (.reg .u32 rv) f2(.reg .u32 a)
{
	sub.u32 rv, a, 1;
	ret;
}

.visible .entry calltargets()
{
	.reg .pred p;
	.reg .u32 %r<3>;
	.reg .u64 %fp;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 p, %r1, 16;
	mov.u64 %fp, f2;
	@p mov.u64 %fp, f1;
Ftgt: .calltargets f1, f2;
	call (%r2), %fp, (%r1), Ftgt;
	ret;
}
`,
		want: `
.entry calltargets()
b0:  ; preds -, idom -, ipdom b1
	%r1#1 = mov.u32 %tid.x  ; divergent
	p#1 = setp.lt.u32 %r1#1, 16  ; divergent
	%fp#1 = mov.u64 f2  ; uniform
	%fp#2 = @p#1 mov.u64 f1 else %fp#1  ; divergent
	call (%r2#1), %fp#2, (%r1#1), Ftgt {f1, f2} -> b1  ; divergent, reconverge b1
b1:  ; preds b0, idom b0, ipdom exit
	ret
`,
	},
	// Seed 9.7.12.5, indirect call via a call table: the table is in .const memory and the
	// index comes from %ctaid, so the loaded target is uniform. The call may reach two
	// functions, so it may diverge, but with a uniform target it does not: "; uniform".
	{
		name: "call_indirect_call_table",
		fn:   "calltable",
		src: `
.func (.reg .u32 rv) f1(.reg .u32 a)
{
	add.u32 rv, a, 1;
	ret;
}

.func (.reg .u32 rv) f2(.reg .u32 a)
{
	sub.u32 rv, a, 1;
	ret;
}

.const .u64 tbl[2] = { f1, f2 };

.visible .entry calltable()
{
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	mov.u32 %r1, %ctaid.x;
	and.b32 %r2, %r1, 1;
	mul.wide.u32 %rd1, %r2, 8;
	mov.u64 %rd2, tbl;
	add.u64 %rd2, %rd2, %rd1;
	ld.const.u64 %rd3, [%rd2];
	call (%r3), %rd3, (%r1), tbl;
	ret;
}
`,
		want: `
.entry calltable()
b0:  ; preds -, idom -, ipdom b1
	%r1#1 = mov.u32 %ctaid.x  ; uniform
	%r2#1 = and.b32 %r1#1, 1  ; uniform
	%rd1#1 = mul.wide.u32 %r2#1, 8  ; uniform
	%rd2#1 = mov.u64 tbl  ; uniform
	%rd2#2 = add.u64 %rd2#1, %rd1#1  ; uniform
	%rd3#1 = ld.const.u64 [%rd2#2]  ; uniform
	call (%r3#1), %rd3#1, (%r1#1), tbl {f1, f2} -> b1  ; uniform
b1:  ; preds b0, idom b0, ipdom exit
	ret
`,
	},
	// Seed 9.7.12.5, indirect call via `.callprototype` (the seed's dispatch): the pointer is
	// a .func parameter, hence divergent, and a prototype does not bound the targets, so the
	// call diverges; the lanes reconverge at the return point b1. The .param arguments print
	// by name.
	{
		name: "call_indirect_callprototype",
		fn:   "dispatch",
		src: `
.func dispatch(.reg .u64 %fptr, .reg .u32 idx)
{
	.param .u32 x;
	.param .u32 y;
	st.param.u32 [x], idx;
	st.param.u32 [y], idx;
Fproto: .callprototype _ (.param .u32 _, .param .u32 _);
	call %fptr, (x, y), Fproto;
	ret;
}
`,
		want: `
.func dispatch(.reg .u64 %fptr, .reg .u32 idx)
b0:  ; preds -, idom -, ipdom b1
	st.param.u32 [x], idx#1
	st.param.u32 [y], idx#1
	call %fptr#1, (x, y), Fproto -> b1  ; divergent, reconverge b1
b1:  ; preds b0, idom b0, ipdom exit
	ret
`,
	},
	// Seed 9.7.12.6 (ret): two explicit returns of a .reg result; each ret names the final
	// value of rv on its path. The branch on a parameter diverges and the two sides only meet
	// at the virtual exit. rv#2 = 0 + 7 is uniform: every lane reaching SKIP computes 7.
	{
		name: "ret",
		fn:   "sel",
		src: `
.func (.reg .u32 rv) sel(.reg .u32 a)
{
	.reg .pred p;
	mov.u32 rv, 0;
	setp.eq.u32 p, a, 0;
	@p bra SKIP;
	mov.u32 rv, a;
	ret;
SKIP:
	add.u32 rv, rv, 7;
	ret;
}
`,
		want: `
.func (.reg .u32 rv) sel(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	rv#1 = mov.u32 0  ; uniform
	p#1 = setp.eq.u32 a#1, 0  ; divergent
	branch p#1, b1(SKIP), b2  ; divergent, reconverge exit
b1(SKIP):  ; preds b0, idom b0, ipdom exit
	rv#2 = add.u32 rv#1, 7  ; uniform
	ret rv#2
b2:  ; preds b0, idom b0, ipdom exit
	rv#3 = mov.u32 a#1  ; divergent
	ret rv#3
`,
	},
	// The same function falling off its end after SKIP instead of `ret`: the implicit ret
	// must behave like an explicit one, returning the final value of the .reg result rv.
	{
		name: "implicit_ret_returns_results",
		fn:   "sel",
		src: `
.func (.reg .u32 rv) sel(.reg .u32 a)
{
	.reg .pred p;
	mov.u32 rv, 0;
	setp.eq.u32 p, a, 0;
	@p bra SKIP;
	mov.u32 rv, a;
	ret;
SKIP:
	add.u32 rv, rv, 7;
}
`,
		want: `
.func (.reg .u32 rv) sel(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	rv#1 = mov.u32 0  ; uniform
	p#1 = setp.eq.u32 a#1, 0  ; divergent
	branch p#1, b1(SKIP), b2  ; divergent, reconverge exit
b1(SKIP):  ; preds b0, idom b0, ipdom exit
	rv#2 = add.u32 rv#1, 7  ; uniform
	ret rv#2
b2:  ; preds b0, idom b0, ipdom exit
	rv#3 = mov.u32 a#1  ; divergent
	ret rv#3
`,
	},
	// Seed 9.7.12.6 (@p ret): the guarded ret becomes a synthetic branch from b0 to b1 (the
	// ret) and b2 (the rest). Returning lanes and continuing lanes meet only at the virtual
	// exit. rv#1 reaches the early ret.
	{
		name: "guarded_ret",
		fn:   "gret",
		src: `
.func (.reg .u32 rv) gret(.reg .u32 a)
{
	.reg .pred p;
	mov.u32 rv, 1;
	setp.eq.u32 p, a, 0;
	@p ret;
	add.u32 rv, a, 2;
	ret;
}
`,
		want: `
.func (.reg .u32 rv) gret(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	rv#1 = mov.u32 1  ; uniform
	p#1 = setp.eq.u32 a#1, 0  ; divergent
	branch p#1, b1, b2  ; divergent, reconverge exit
b1:  ; preds b0, idom b0, ipdom exit
	ret rv#1
b2:  ; preds b0, idom b0, ipdom exit
	rv#2 = add.u32 a#1, 2  ; divergent
	ret rv#2
`,
	},
	// Seed 9.7.12.7 (exit): exit in a device function on one side of a divergent branch, ret
	// on the other; both feed the virtual exit, which is where the branch "reconverges".
	{
		name: "exit",
		fn:   "fexit",
		src: `
.func fexit(.reg .u32 a)
{
	.reg .pred p;
	setp.gt.u32 p, a, 9;
	@p bra BAD;
	ret;
BAD:
	exit;
}
`,
		want: `
.func fexit(.reg .u32 a)
b0:  ; preds -, idom -, ipdom exit
	p#1 = setp.gt.u32 a#1, 9  ; divergent
	branch p#1, b1(BAD), b2  ; divergent, reconverge exit
b1(BAD):  ; preds b0, idom b0, ipdom exit
	exit
b2:  ; preds b0, idom b0, ipdom exit
	ret
`,
	},
	// Seed 9.7.12.7 (@p exit): the guarded exit is split like a guarded ret: b1 exits, b2
	// continues; they meet at the virtual exit. The kernel parameter %r1#1 stays uniform.
	{
		name: "guarded_exit",
		fn:   "kpexit",
		src: `
.visible .entry kpexit(.param .u32 n)
{
	.reg .pred p;
	.reg .u32 %r<3>;
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 p, %r2, %r1;
	@p exit;
	add.u32 %r2, %r2, %r1;
	ret;
}
`,
		want: `
.entry kpexit(.param .u32 n)
b0:  ; preds -, idom -, ipdom exit
	%r1#1 = ld.param.u32 [n]  ; uniform
	%r2#1 = mov.u32 %tid.x  ; divergent
	p#1 = setp.ge.u32 %r2#1, %r1#1  ; divergent
	branch p#1, b1, b2  ; divergent, reconverge exit
b1:  ; preds b0, idom b0, ipdom exit
	exit
b2:  ; preds b0, idom b0, ipdom exit
	%r2#2 = add.u32 %r2#1, %r1#1  ; divergent
	ret
`,
	},
	// A while loop with a divergent `continue` (b3 back to HEAD) and a divergent `break` (b4
	// to DONE). Every branch in the loop reconverges at DONE, the loop's only exit, which
	// post-dominates the whole loop; the latch b5 only reaches HEAD. HEAD merges %i and %s
	// from the entry, the continue and the latch; DONE merges %i (the break leaves with the
	// incremented %i#4). The header phis are in the divergent region, so divergent.
	{
		name: "loop_break_continue",
		fn:   "loopbc",
		src: `
.visible .entry loopbc(.param .u32 cnt)
{
	.reg .pred p, q, r;
	.reg .u32 %i, %s, %n, %t;
	ld.param.u32 %n, [cnt];
	mov.u32 %t, %tid.x;
	mov.u32 %i, 0;
	mov.u32 %s, 0;
HEAD:
	setp.ge.u32 p, %i, %n;
	@p bra DONE;
	add.u32 %i, %i, 1;
	setp.eq.u32 q, %i, %t;
	@q bra HEAD;
	setp.gt.u32 r, %i, %t;
	@r bra DONE;
	add.u32 %s, %s, %i;
	bra HEAD;
DONE:
	add.u32 %t, %s, %i;
	ret;
}
`,
		want: `
.entry loopbc(.param .u32 cnt)
b0:  ; preds -, idom -, ipdom b1(HEAD)
	%n#1 = ld.param.u32 [cnt]  ; uniform
	%t#1 = mov.u32 %tid.x  ; divergent
	%i#1 = mov.u32 0  ; uniform
	%s#1 = mov.u32 0  ; uniform
	jump b1(HEAD)
b1(HEAD):  ; preds b0 b3 b5, idom b0, ipdom b2(DONE)
	%i#2 = phi [%i#1, b0], [%i#4, b3], [%i#4, b5]  ; divergent
	%s#2 = phi [%s#1, b0], [%s#2, b3], [%s#3, b5]  ; divergent
	p#1 = setp.ge.u32 %i#2, %n#1  ; divergent
	branch p#1, b2(DONE), b3  ; divergent, reconverge b2(DONE)
b2(DONE):  ; preds b1(HEAD) b4, idom b1(HEAD), ipdom exit
	%i#3 = phi [%i#2, b1(HEAD)], [%i#4, b4]  ; divergent
	%t#2 = add.u32 %s#2, %i#3  ; divergent
	ret
b3:  ; preds b1(HEAD), idom b1(HEAD), ipdom b2(DONE)
	%i#4 = add.u32 %i#2, 1  ; divergent
	q#1 = setp.eq.u32 %i#4, %t#1  ; divergent
	branch q#1, b1(HEAD), b4  ; divergent, reconverge b2(DONE)
b4:  ; preds b3, idom b3, ipdom b2(DONE)
	r#1 = setp.gt.u32 %i#4, %t#1  ; divergent
	branch r#1, b2(DONE), b5  ; divergent, reconverge b2(DONE)
b5:  ; preds b4, idom b4, ipdom b1(HEAD)
	%s#3 = add.u32 %s#2, %i#4  ; divergent
	jump b1(HEAD)
`,
	},
	// A loop with an early `@p ret` inside it: the guarded ret splits LOOP into b2 (ret) and
	// b3 (the rest, ending in the back edge). Lanes leaving through the early ret and lanes
	// leaving the loop normally (b4) only meet at the virtual exit, so both divergent
	// branches reconverge at exit. rv#4 = 99 is uniform: it is computed after the loop.
	{
		name: "loop_early_ret",
		fn:   "find",
		src: `
.func (.reg .u32 rv) find(.reg .u32 a)
{
	.reg .pred p, q;
	mov.u32 rv, 0;
LOOP:
	setp.eq.u32 p, rv, a;
	@p ret;
	add.u32 rv, rv, 1;
	setp.lt.u32 q, rv, 32;
	@q bra LOOP;
	mov.u32 rv, 99;
	ret;
}
`,
		want: `
.func (.reg .u32 rv) find(.reg .u32 a)
b0:  ; preds -, idom -, ipdom b1(LOOP)
	rv#1 = mov.u32 0  ; uniform
	jump b1(LOOP)
b1(LOOP):  ; preds b0 b3, idom b0, ipdom exit
	rv#2 = phi [rv#1, b0], [rv#3, b3]  ; divergent
	p#1 = setp.eq.u32 rv#2, a#1  ; divergent
	branch p#1, b2, b3  ; divergent, reconverge exit
b2:  ; preds b1(LOOP), idom b1(LOOP), ipdom exit
	ret rv#2
b3:  ; preds b1(LOOP), idom b1(LOOP), ipdom exit
	rv#3 = add.u32 rv#2, 1  ; divergent
	q#1 = setp.lt.u32 rv#3, 32  ; divergent
	branch q#1, b1(LOOP), b4  ; divergent, reconverge exit
b4:  ; preds b3, idom b3, ipdom exit
	rv#4 = mov.u32 99  ; uniform
	ret rv#4
`,
	},
	// Temporal divergence: a loop whose exit branch is divergent. %r4#1 = %ctaid.x + 7 has
	// uniform operands but is defined in the loop and used after it, so it is divergent by the
	// "defined in the region and used outside it" rule. Lanes reconverge at b2, the exit.
	{
		name: "loop_divergent_exit",
		fn:   "tdiv",
		src: `
.visible .entry tdiv()
{
	.reg .pred p;
	.reg .u32 %r<5>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, 0;
LOOP:
	add.u32 %r3, %r3, 1;
	add.u32 %r4, %r2, 7;
	setp.lt.u32 p, %r3, %r1;
	@p bra LOOP;
	add.u32 %r4, %r4, %r3;
	ret;
}
`,
		want: `
.entry tdiv()
b0:  ; preds -, idom -, ipdom b1(LOOP)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 %ctaid.x  ; uniform
	%r3#1 = mov.u32 0  ; uniform
	jump b1(LOOP)
b1(LOOP):  ; preds b0 b1(LOOP), idom b0, ipdom b2
	%r3#2 = phi [%r3#1, b0], [%r3#3, b1(LOOP)]  ; divergent
	%r3#3 = add.u32 %r3#2, 1  ; divergent
	%r4#1 = add.u32 %r2#1, 7  ; divergent
	p#1 = setp.lt.u32 %r3#3, %r1#1  ; divergent
	branch p#1, b1(LOOP), b2  ; divergent, reconverge b2
b2:  ; preds b1(LOOP), idom b1(LOOP), ipdom exit
	%r4#2 = add.u32 %r4#1, %r3#3  ; divergent
	ret
`,
	},
	// Nested divergence, an if inside an if: the inner branch (b3) reconverges at INNER_END,
	// the outer one (b0) at OUTER_END; each join has its own phi for %r2.
	{
		name: "nested_if",
		fn:   "nested",
		src: `
.visible .entry nested()
{
	.reg .pred p, q;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %r1;
	setp.lt.u32 p, %r1, 16;
	@!p bra OUTER_END;
	setp.lt.u32 q, %r1, 8;
	@!q bra INNER_END;
	add.u32 %r2, %r2, 2;
INNER_END:
	add.u32 %r2, %r2, 1;
OUTER_END:
	add.u32 %r3, %r2, %r1;
	ret;
}
`,
		want: `
.entry nested()
b0:  ; preds -, idom -, ipdom b2(OUTER_END)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 %r1#1  ; divergent
	p#1 = setp.lt.u32 %r1#1, 16  ; divergent
	branch !p#1, b2(OUTER_END), b3  ; divergent, reconverge b2(OUTER_END)
b1(INNER_END):  ; preds b3 b4, idom b3, ipdom b2(OUTER_END)
	%r2#2 = phi [%r2#1, b3], [%r2#5, b4]  ; divergent
	%r2#3 = add.u32 %r2#2, 1  ; divergent
	jump b2(OUTER_END)
b2(OUTER_END):  ; preds b0 b1(INNER_END), idom b0, ipdom exit
	%r2#4 = phi [%r2#1, b0], [%r2#3, b1(INNER_END)]  ; divergent
	%r3#1 = add.u32 %r2#4, %r1#1  ; divergent
	ret
b3:  ; preds b0, idom b0, ipdom b1(INNER_END)
	q#1 = setp.lt.u32 %r1#1, 8  ; divergent
	branch !q#1, b1(INNER_END), b4  ; divergent, reconverge b1(INNER_END)
b4:  ; preds b3, idom b3, ipdom b1(INNER_END)
	%r2#5 = add.u32 %r2#1, 2  ; divergent
	jump b1(INNER_END)
`,
	},
	// An irreducible CFG: the cycle {A, B} is entered at A (through the empty fall-through
	// block b3) and at B (directly from b0). Neither A nor B dominates the other: both have
	// idom b0. Lanes split at b0 reconverge at B; lanes leaving the cycle reconverge at b4.
	// Both cycle entries need a phi for %r2.
	{
		name: "irreducible",
		fn:   "irred",
		src: `
.visible .entry irred()
{
	.reg .pred p, q;
	.reg .u32 %r<3>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %r1;
	setp.lt.u32 p, %r1, 16;
	@p bra B;
A:
	add.u32 %r2, %r2, 1;
B:
	add.u32 %r2, %r2, 2;
	setp.lt.u32 q, %r2, 100;
	@q bra A;
	ret;
}
`,
		want: `
.entry irred()
b0:  ; preds -, idom -, ipdom b2(B)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 %r1#1  ; divergent
	p#1 = setp.lt.u32 %r1#1, 16  ; divergent
	branch p#1, b2(B), b3  ; divergent, reconverge b2(B)
b1(A):  ; preds b3 b2(B), idom b0, ipdom b2(B)
	%r2#2 = phi [%r2#1, b3], [%r2#5, b2(B)]  ; divergent
	%r2#3 = add.u32 %r2#2, 1  ; divergent
	jump b2(B)
b2(B):  ; preds b0 b1(A), idom b0, ipdom b4
	%r2#4 = phi [%r2#1, b0], [%r2#3, b1(A)]  ; divergent
	%r2#5 = add.u32 %r2#4, 2  ; divergent
	q#1 = setp.lt.u32 %r2#5, 100  ; divergent
	branch q#1, b1(A), b4  ; divergent, reconverge b4
b3:  ; preds b0, idom b0, ipdom b1(A)
	jump b1(A)
b4:  ; preds b2(B), idom b2(B), ipdom exit
	ret
`,
	},
	// An infinite loop: nothing reaches the exit (it has no predecessors). The latest block
	// in reverse postorder (b0, LOOP, b3, SKIP) is the latch SKIP, which gets the virtual exit
	// edge, so ipdom(SKIP) = exit and the divergent if inside the loop reconverges at SKIP.
	{
		name: "infinite_loop",
		fn:   "spin",
		src: `
.visible .entry spin()
{
	.reg .pred p;
	.reg .u32 %r<3>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
LOOP:
	add.u32 %r2, %r2, 1;
	setp.lt.u32 p, %r2, %r1;
	@p bra SKIP;
	add.u32 %r2, %r2, 2;
SKIP:
	bra LOOP;
}
`,
		want: `
.entry spin()
b0:  ; preds -, idom -, ipdom b1(LOOP)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 0  ; uniform
	jump b1(LOOP)
b1(LOOP):  ; preds b0 b2(SKIP), idom b0, ipdom b2(SKIP)
	%r2#2 = phi [%r2#1, b0], [%r2#4, b2(SKIP)]  ; divergent
	%r2#3 = add.u32 %r2#2, 1  ; divergent
	p#1 = setp.lt.u32 %r2#3, %r1#1  ; divergent
	branch p#1, b2(SKIP), b3  ; divergent, reconverge b2(SKIP)
b2(SKIP):  ; preds b1(LOOP) b3, idom b1(LOOP), ipdom exit
	%r2#4 = phi [%r2#3, b1(LOOP)], [%r2#5, b3]  ; divergent
	jump b1(LOOP)
b3:  ; preds b1(LOOP), idom b1(LOOP), ipdom b2(SKIP)
	%r2#5 = add.u32 %r2#3, 2  ; divergent
	jump b2(SKIP)
`,
	},
	// Nested loops with no exit at all: the latest block in reverse postorder (b0, OUTER,
	// INNER, b3) is the outer latch b3, which gets the virtual exit edge. The inner loop's
	// divergent exit branch then reconverges at b3, and INNER post-dominates OUTER.
	{
		name: "infinite_loop_nested",
		fn:   "spin2",
		src: `
.visible .entry spin2()
{
	.reg .pred p;
	.reg .u32 %r<3>;
	mov.u32 %r1, %tid.x;
OUTER:
	mov.u32 %r2, 0;
INNER:
	add.u32 %r2, %r2, 1;
	setp.lt.u32 p, %r2, %r1;
	@p bra INNER;
	bra OUTER;
}
`,
		want: `
.entry spin2()
b0:  ; preds -, idom -, ipdom b1(OUTER)
	%r1#1 = mov.u32 %tid.x  ; divergent
	jump b1(OUTER)
b1(OUTER):  ; preds b0 b3, idom b0, ipdom b2(INNER)
	%r2#1 = mov.u32 0  ; uniform
	jump b2(INNER)
b2(INNER):  ; preds b1(OUTER) b2(INNER), idom b1(OUTER), ipdom b3
	%r2#2 = phi [%r2#1, b1(OUTER)], [%r2#3, b2(INNER)]  ; divergent
	%r2#3 = add.u32 %r2#2, 1  ; divergent
	p#1 = setp.lt.u32 %r2#3, %r1#1  ; divergent
	branch p#1, b2(INNER), b3  ; divergent, reconverge b3
b3:  ; preds b2(INNER), idom b2(INNER), ipdom exit
	jump b1(OUTER)
`,
	},
	// A switch as clang lowers it: a chain of setp.eq / `@%p bra` / `bra.uni`. b0 and b5 test
	// the cases; b6 is the fall-through holding only `bra.uni` to the default. Every case and
	// the default end at $L__BB0_5, where all lanes reconverge and a phi merges %r3.
	{
		name: "switch_compare_chain",
		fn:   "sw",
		src: `
.visible .entry sw()
{
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;
	setp.eq.s32 %p1, %r2, 0;
	@%p1 bra $L__BB0_3;
// %bb.1:
	setp.eq.s32 %p2, %r2, 1;
	@%p2 bra $L__BB0_4;
	bra.uni $L__BB0_2;
$L__BB0_3:
	mov.b32 %r3, 10;
	bra.uni $L__BB0_5;
$L__BB0_4:
	mov.b32 %r3, 20;
	bra.uni $L__BB0_5;
$L__BB0_2:
	mov.b32 %r3, -1;
$L__BB0_5:
	add.s32 %r3, %r3, %r1;
	ret;
}
`,
		want: `
.entry sw()
b0:  ; preds -, idom -, ipdom b4($L__BB0_5)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = and.b32 %r1#1, 3  ; divergent
	%p1#1 = setp.eq.s32 %r2#1, 0  ; divergent
	branch %p1#1, b1($L__BB0_3), b5  ; divergent, reconverge b4($L__BB0_5)
b1($L__BB0_3):  ; preds b0, idom b0, ipdom b4($L__BB0_5)
	%r3#1 = mov.b32 10  ; divergent
	jump.uni b4($L__BB0_5)
b2($L__BB0_4):  ; preds b5, idom b5, ipdom b4($L__BB0_5)
	%r3#2 = mov.b32 20  ; divergent
	jump.uni b4($L__BB0_5)
b3($L__BB0_2):  ; preds b6, idom b6, ipdom b4($L__BB0_5)
	%r3#3 = mov.b32 -1  ; divergent
	jump b4($L__BB0_5)
b4($L__BB0_5):  ; preds b1($L__BB0_3) b2($L__BB0_4) b3($L__BB0_2), idom b0, ipdom exit
	%r3#4 = phi [%r3#1, b1($L__BB0_3)], [%r3#2, b2($L__BB0_4)], [%r3#3, b3($L__BB0_2)]  ; divergent
	%r3#5 = add.s32 %r3#4, %r1#1  ; divergent
	ret
b5:  ; preds b0, idom b0, ipdom b4($L__BB0_5)
	%p2#1 = setp.eq.s32 %r2#1, 1  ; divergent
	branch %p2#1, b2($L__BB0_4), b6  ; divergent, reconverge b4($L__BB0_5)
b6:  ; preds b5, idom b5, ipdom b3($L__BB0_2)
	jump.uni b3($L__BB0_2)
`,
	},
	// Seed 9.7.12.3 (bra.uni): non-divergent branches. `@p bra` on a uniform p and `@q bra.uni`
	// (the programmer's promise, even though q is computed from %tid) are printed "; uniform":
	// no reconvergence is needed, and the phis at their joins stay uniform. `bra.uni END` is an
	// unconditional jump over dead code; the dead block b6 has no dominator but
	// post-dominates into END.
	{
		name: "bra_uni",
		fn:   "brauni",
		src: `
.visible .entry brauni(.param .u32 cnt)
{
	.reg .pred p, q;
	.reg .u32 %r<4>;
	ld.param.u32 %r1, [cnt];
	setp.eq.u32 p, %r1, 0;
	@p bra SKIP;
	add.u32 %r1, %r1, 5;
SKIP:
	mov.u32 %r2, %tid.x;
	setp.lt.u32 q, %r2, 4;
	@q bra.uni OUT;
	add.u32 %r1, %r1, 1;
OUT:
	add.u32 %r3, %r1, 2;
	bra.uni END;
	mov.u32 %r3, 0;
END:
	ret;
}
`,
		want: `
.entry brauni(.param .u32 cnt)
b0:  ; preds -, idom -, ipdom b1(SKIP)
	%r1#1 = ld.param.u32 [cnt]  ; uniform
	p#1 = setp.eq.u32 %r1#1, 0  ; uniform
	branch p#1, b1(SKIP), b4  ; uniform
b1(SKIP):  ; preds b0 b4, idom b0, ipdom b2(OUT)
	%r1#2 = phi [%r1#1, b0], [%r1#4, b4]  ; uniform
	%r2#1 = mov.u32 %tid.x  ; divergent
	q#1 = setp.lt.u32 %r2#1, 4  ; divergent
	branch.uni q#1, b2(OUT), b5  ; uniform
b2(OUT):  ; preds b1(SKIP) b5, idom b1(SKIP), ipdom b3(END)
	%r1#3 = phi [%r1#2, b1(SKIP)], [%r1#5, b5]  ; uniform
	%r3#1 = add.u32 %r1#3, 2  ; uniform
	jump.uni b3(END)
b3(END):  ; preds b2(OUT) b6, idom b2(OUT), ipdom exit
	ret
b4:  ; preds b0, idom b0, ipdom b1(SKIP)
	%r1#4 = add.u32 %r1#1, 5  ; uniform
	jump b1(SKIP)
b5:  ; preds b1(SKIP), idom b1(SKIP), ipdom b2(OUT)
	%r1#5 = add.u32 %r1#2, 1  ; uniform
	jump b2(OUT)
b6:  ; preds -, idom -, ipdom b3(END)
	%r3#2 = mov.u32 0  ; uniform
	jump b3(END)
`,
	},
	// A loop whose body is a chain of single-predecessor blocks (each call ends one), with %r2
	// set before the loop and read after it but not inside: the body passes it on unchanged,
	// so the loop head needs no phi for it and the read after the loop is %r2#1, not a
	// phi with an undefined operand (which made the register look read before written).
	{
		name: "loop_body_split_by_calls",
		fn:   "calls",
		src: `
.func f()
{
	ret;
}
.visible .entry calls()
{
	.reg .pred p;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 7;
LOOP:
	call f, ();
	call f, ();
	sub.u32 %r1, %r1, 1;
	setp.ne.u32 p, %r1, 0;
	@p bra LOOP;
	add.u32 %r3, %r2, %r1;
	ret;
}
`,
		want: `
.entry calls()
b0:  ; preds -, idom -, ipdom b1(LOOP)
	%r1#1 = mov.u32 %tid.x  ; divergent
	%r2#1 = mov.u32 7  ; uniform
	jump b1(LOOP)
b1(LOOP):  ; preds b0 b3, idom b0, ipdom b2
	%r1#2 = phi [%r1#1, b0], [%r1#3, b3]  ; divergent
	call f, () -> b2
b2:  ; preds b1(LOOP), idom b1(LOOP), ipdom b3
	call f, () -> b3
b3:  ; preds b2, idom b2, ipdom b4
	%r1#3 = sub.u32 %r1#2, 1  ; divergent
	p#1 = setp.ne.u32 %r1#3, 0  ; divergent
	branch p#1, b1(LOOP), b4  ; divergent, reconverge b4
b4:  ; preds b3, idom b3, ipdom exit
	%r3#1 = add.u32 %r2#1, %r1#3  ; divergent
	ret
`,
	},
	// Seed 9.7.12.1 ({}): a group declaring its own %r1 shadows the outer %r1. They are
	// distinct registers, each with its own versions, so both first definitions print as
	// %r1#1 (TestIRScopedShadowing checks which one each use reads). The kernel falls off its
	// end: an implicit ret.
	{
		name: "scoped_shadowing",
		fn:   "scopes",
		src: `
.visible .entry scopes()
{
	.reg .b32 %r1, %r2;
	mov.b32 %r1, 1;
	{
		.reg .b32 %r1;
		mov.b32 %r1, 2;
		add.s32 %r2, %r1, 3;
	}
	add.s32 %r1, %r1, %r2;
}
`,
		want: `
.entry scopes()
b0:  ; preds -, idom -, ipdom exit
	%r1#1 = mov.b32 1  ; uniform
	%r1#1 = mov.b32 2  ; uniform
	%r2#1 = add.s32 %r1#1, 3  ; uniform
	%r1#2 = add.s32 %r1#1, %r2#1  ; uniform
	ret
`,
	},
}

func TestIRPrinted(t *testing.T) {
	for _, c := range irCases {
		t.Run(c.name, func(t *testing.T) {
			p := buildIR(t, c.src)
			var got string
			if c.fn == "" {
				got = p.String()
			} else {
				fn := p.Func(c.fn)
				require.NotNil(t, fn, "function %s", c.fn)
				got = fn.String()
			}
			require.Equal(t, strings.TrimPrefix(c.want, "\n"), got)
		})
	}
}

// TestIRScopedShadowing checks what the printed form of scoped_shadowing cannot show: the
// shadowing %r1 is a register of its own, the group reads the inner one and the code after
// the group reads the outer one.
func TestIRScopedShadowing(t *testing.T) {
	var src string
	for _, c := range irCases {
		if c.name == "scoped_shadowing" {
			src = c.src
		}
	}
	fn := buildIR(t, src).Func("scopes")
	require.NotNil(t, fn)
	var r1s []*Reg
	for _, r := range fn.Regs {
		if r.Name == "%r1" {
			r1s = append(r1s, r)
		}
	}
	require.Len(t, r1s, 2)
	require.NotSame(t, r1s[0], r1s[1])

	ins := fn.Blocks[0].Instrs
	require.Len(t, ins, 4)
	outer, inner := ins[0].Defs[0], ins[1].Defs[0]
	require.NotEqual(t, outer.Reg, inner.Reg)
	require.Same(t, inner, ins[2].Args[0].Value, "the group's add reads the inner %r1")
	require.Same(t, outer, ins[3].Args[0].Value, "the add after the group reads the outer %r1")
	require.Equal(t, outer.Reg, ins[3].Defs[0].Reg, "the add after the group writes the outer %r1")
}

// TestGuardedCallKeptValue checks what guarded_call_result does not show: the value a guarded
// call keeps is a use at the call, so a value defined in a loop that lanes leave in different
// iterations and kept by a call after the loop is divergent; and Check insists on one kept value
// per def of a guarded call.
func TestGuardedCallKeptValue(t *testing.T) {
	fn := buildIR(t, `
.func (.reg .u32 rv) inc(.reg .u32 a)
{
	add.u32 rv, a, 1;
	ret;
}

.visible .entry keep()
{
	.reg .pred p, q;
	.reg .u32 %r<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, 0;
L:
	add.u32 %r3, %r3, 1;
	mov.u32 %r2, 7;
	setp.lt.u32 p, %r3, %r1;
	@p bra L;
	setp.eq.u32 q, %r3, 0;
	@q call (%r2), inc, (%r3);
	ret;
}
`).Func("keep")
	require.NotNil(t, fn)
	var call *Call
	for _, b := range fn.Blocks {
		if b.Term.Kind == TermCall {
			call = b.Term.Call
		}
	}
	require.NotNil(t, call)
	require.Len(t, call.Prev, 1)
	kept := call.Prev[0]
	require.Equal(t, DefInstr, kept.Kind)
	require.Equal(t, "%r2", kept.Reg.Name)
	require.False(t, kept.Uniform, "the loop's %%r2 is used after the divergent loop exit")

	prog := &Program{Funcs: []*Function{fn}}
	call.Prev = nil
	require.ErrorContains(t, Check(prog), "guarded, with 0 previous values for 1 defs")
	call.Prev = []*Value{call.Defs[0]}
	require.ErrorContains(t, Check(prog), "uses %r2#2 before its definition dominates the use")
	call.Prev = []*Value{kept}
	require.NoError(t, Check(prog))
}

// TestUnreachableSelfLoop builds a loop whose header's only predecessor is itself: the code
// before it branches around it, so no path from the entry reaches it. Reading a register there
// must end instead of following the single predecessor around forever.
func TestUnreachableSelfLoop(t *testing.T) {
	p := buildIR(t, `.visible .entry k(.param .u64 p)
{
	.reg .pred %p<3>;
	.reg .u32 %r<10>;
	bra END;
HEAD:
	add.u32 %r7, %r7, %r8;
	add.u32 %r8, %r8, 1;
	setp.lt.u32 %p2, %r8, %r6;
	@%p2 bra HEAD;
END:
	add.u32 %r1, %r1, %r7;
	ret;
}`)
	fn := p.Func("k")
	var head *Block
	for _, b := range fn.Blocks {
		if len(b.Preds) == 1 && b.Preds[0] == b {
			head = b
		}
	}
	require.NotNil(t, head, "a block whose only predecessor is itself")
	require.NotNil(t, head.Instrs[0].Args[0].Value, "%r7 read in the unreachable loop")
}
