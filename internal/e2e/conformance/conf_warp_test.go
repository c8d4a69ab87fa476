package conformance_test

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// Warp-level instructions under conformance test. harness.ConfRun puts rows 0..31 of every 32 into the
// lanes of one warp, and with a row count that is a multiple of its block size every lane of
// every warp executes the instruction, so lane-dependent inputs give the whole warp's state.

const confWarpRows = 256 * 64 // 512 full warps

// confWarpRand is the fixed-seed generator of the warp tests.
func confWarpRand() *rand.Rand { return rand.New(rand.NewPCG(7, 0x5eed)) }

// confWarpPartition returns per-lane membermasks for each warp of n rows: the lanes of a warp are
// split into random disjoint groups, and each lane's mask is its group. Every fourth warp uses
// the full mask, and one in eight a contiguous segment split.
func confWarpPartition(r *rand.Rand, n int) []uint64 {
	out := make([]uint64, n)
	for w := 0; w < n/32; w++ {
		var color [32]int
		switch w % 8 {
		case 0, 4:
		case 1:
			size := 1 << r.IntN(6)
			for l := range 32 {
				color[l] = l / size
			}
		default:
			k := 1 + r.IntN(5)
			for l := range 32 {
				color[l] = r.IntN(k)
			}
		}
		var masks [32]uint32
		for l := range 32 {
			for k := range 32 {
				if color[k] == color[l] {
					masks[l] |= 1 << k
				}
			}
		}
		for l := range 32 {
			out[w*32+l] = uint64(masks[l])
		}
	}
	return out
}

// confWarpValues draws n values with many repeats inside a warp (small ranges), extremes, and
// plain random bits.
func confWarpValues(r *rand.Rand, n int, width uint) []uint64 {
	out := make([]uint64, n)
	extremes := []uint64{0, 1, 1 << (width - 1), 1<<(width-1) - 1, 1<<width - 1}
	for w := 0; w < n/32; w++ {
		kind := w % 4
		for l := range 32 {
			var v uint64
			switch kind {
			case 0:
				v = r.Uint64N(3)
			case 1:
				v = extremes[r.IntN(len(extremes))]
			default:
				v = r.Uint64()
			}
			if width < 64 {
				v &= 1<<width - 1
			}
			out[w*32+l] = v
		}
	}
	return out
}

func TestConfWarpShfl(t *testing.T) {
	r := confWarpRand()
	n := confWarpRows
	a := make([]uint64, n)
	b := make([]uint64, n)
	c := make([]uint64, n)
	clamps := []uint64{0x1f, 0x0, 0x1c03, 0x181f, 0x1f00, 0x1e01, 0x1000}
	for i := range n {
		a[i] = uint64(r.Uint32())
		w := i / 32
		switch w % 3 {
		case 0: // warp-uniform offset and clamp, as compilers emit
			b[i] = uint64(w * 7 % 40)
			c[i] = clamps[w%len(clamps)]
		case 1: // per-lane offsets, uniform clamp
			b[i] = r.Uint64N(64)
			c[i] = clamps[(w/3)%len(clamps)]
		default: // per-lane everything, including bits outside the fields
			b[i] = uint64(r.Uint32())
			c[i] = uint64(r.Uint32())
		}
	}
	for _, mode := range []string{"up", "down", "bfly", "idx"} {
		outs := harness.ConfRun(t, harness.ConfOp{WholeWarps: true,
			Body: fmt.Sprintf("shfl.sync.%s.b32 %%d0|%%d1, %%a0, %%a1, %%a2, 0xffffffff;", mode),
			In:   []string{"b32", "b32", "b32"}, Out: []string{"b32", "pred"},
		}, a, b, c)
		for i := range n {
			base, lane := i&^31, i&31
			bval := int(b[i] & 31)
			cval := int(c[i] & 31)
			seg := int(c[i] >> 8 & 31)
			maxLane := lane&seg | cval&^seg
			minLane := lane & seg
			var j int
			var ok bool
			switch mode {
			case "up":
				j = lane - bval
				ok = j >= maxLane
			case "down":
				j = lane + bval
				ok = j <= maxLane
			case "bfly":
				j = lane ^ bval
				ok = j <= maxLane
			case "idx":
				j = minLane | bval&^seg
				ok = j <= maxLane
			}
			if !ok {
				j = lane
			}
			require.Equal(t, a[base+j], outs[0][i], "shfl.%s row %d b=%#x c=%#x", mode, i, b[i], c[i])
			require.Equal(t, uint64(confWarpBool(ok)), outs[1][i], "shfl.%s pred row %d b=%#x c=%#x", mode, i, b[i], c[i])
		}
	}
}

func confWarpBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// confWarpGroups returns, for row i, the rows of its group under per-lane membermask column m.
func confWarpGroup(m []uint64, i int) []int {
	var rows []int
	for g := uint32(m[i]); g != 0; g &= g - 1 {
		rows = append(rows, i&^31+bits.TrailingZeros32(g))
	}
	return rows
}

func TestConfWarpVote(t *testing.T) {
	r := confWarpRand()
	n := confWarpRows
	masks := confWarpPartition(r, n)
	p := make([]uint64, n)
	for i := range n {
		switch (i / 32) % 5 {
		case 0:
			p[i] = 1
		case 1:
			p[i] = 0
		case 2:
			p[i] = confWarpBoolU(r.IntN(32) != 0)
		default:
			p[i] = r.Uint64N(2)
		}
	}
	for _, neg := range []string{"", "!"} {
		for _, mode := range []string{"all", "any", "uni", "ballot"} {
			typ, out := "pred", "pred"
			if mode == "ballot" {
				typ, out = "b32", "b32"
			}
			outs := harness.ConfRun(t, harness.ConfOp{WholeWarps: true,
				Body: fmt.Sprintf("vote.sync.%s.%s %%d0, %s%%a0, %%a1;", mode, typ, neg),
				In:   []string{"pred", "b32"}, Out: []string{out},
			}, p, masks)
			for i := range n {
				var set, all uint32
				for _, k := range confWarpGroup(masks, i) {
					v := p[k] != 0
					if neg != "" {
						v = !v
					}
					if v {
						set |= 1 << (k & 31)
					}
					all |= 1 << (k & 31)
				}
				var want uint64
				switch mode {
				case "all":
					want = confWarpBoolU(set == all)
				case "any":
					want = confWarpBoolU(set != 0)
				case "uni":
					want = confWarpBoolU(set == 0 || set == all)
				default:
					want = uint64(set)
				}
				require.Equal(t, want, outs[0][i], "vote.%s %s row %d mask %#x", mode, neg, i, masks[i])
			}
		}
	}
}

func confWarpBoolU(b bool) uint64 { return uint64(confWarpBool(b)) }

func TestConfWarpMatch(t *testing.T) {
	r := confWarpRand()
	n := confWarpRows
	masks := confWarpPartition(r, n)
	for _, typ := range []string{"b32", "b64"} {
		width := uint(32)
		if typ == "b64" {
			width = 64
		}
		vals := confWarpValues(r, n, width)
		if typ == "b64" {
			// Values equal in their low or high half only must not match.
			for i := 0; i < n; i += 97 {
				vals[i] = vals[i^1] ^ 1<<40
			}
		}
		outs := harness.ConfRun(t, harness.ConfOp{WholeWarps: true,
			Body: fmt.Sprintf("match.any.sync.%s %%d0, %%a0, %%a1;\nmatch.all.sync.%s %%d1|%%d2, %%a0, %%a1;", typ, typ),
			In:   []string{typ, "b32"}, Out: []string{"b32", "b32", "pred"},
		}, vals, masks)
		for i := range n {
			var same, group uint32
			for _, k := range confWarpGroup(masks, i) {
				group |= 1 << (k & 31)
				if vals[k] == vals[i] {
					same |= 1 << (k & 31)
				}
			}
			require.Equal(t, uint64(same), outs[0][i], "match.any.%s row %d", typ, i)
			allSame := same == group
			wantAll := uint64(0)
			if allSame {
				wantAll = uint64(group)
			}
			require.Equal(t, wantAll, outs[1][i], "match.all.%s row %d", typ, i)
			require.Equal(t, confWarpBoolU(allSame), outs[2][i], "match.all.%s pred row %d", typ, i)
		}
	}
}

func TestConfWarpRedux(t *testing.T) {
	r := confWarpRand()
	n := confWarpRows
	masks := confWarpPartition(r, n)
	vals := confWarpValues(r, n, 32)
	forms := []struct {
		op, typ string
		f       func(x, y uint32) uint32
	}{
		{"add", "u32", func(x, y uint32) uint32 { return x + y }},
		{"add", "s32", func(x, y uint32) uint32 { return x + y }},
		{"min", "u32", func(x, y uint32) uint32 { return min(x, y) }},
		{"max", "u32", func(x, y uint32) uint32 { return max(x, y) }},
		{"min", "s32", func(x, y uint32) uint32 { return uint32(min(int32(x), int32(y))) }},
		{"max", "s32", func(x, y uint32) uint32 { return uint32(max(int32(x), int32(y))) }},
		{"and", "b32", func(x, y uint32) uint32 { return x & y }},
		{"or", "b32", func(x, y uint32) uint32 { return x | y }},
		{"xor", "b32", func(x, y uint32) uint32 { return x ^ y }},
	}
	for _, form := range forms {
		outs := harness.ConfRun(t, harness.ConfOp{WholeWarps: true,
			Body: fmt.Sprintf("redux.sync.%s.%s %%d0, %%a0, %%a1;", form.op, form.typ),
			In:   []string{form.typ, "b32"}, Out: []string{form.typ},
		}, vals, masks)
		for i := range n {
			g := confWarpGroup(masks, i)
			acc := uint32(vals[g[0]])
			for _, k := range g[1:] {
				acc = form.f(acc, uint32(vals[k]))
			}
			require.Equal(t, uint64(acc), outs[0][i], "redux.%s.%s row %d", form.op, form.typ, i)
		}
	}
}

func TestConfWarpElectActivemask(t *testing.T) {
	r := confWarpRand()
	n := confWarpRows
	masks := confWarpPartition(r, n)
	outs := harness.ConfRun(t, harness.ConfOp{WholeWarps: true,
		Body: "elect.sync %d0|%d1, %a0;\nelect.sync _|%d2, %a0;\nactivemask.b32 %d3;\nbar.warp.sync %a0;",
		In:   []string{"b32"}, Out: []string{"b32", "pred", "pred", "b32"},
	}, masks)
	for i := range n {
		leader := bits.TrailingZeros32(uint32(masks[i]))
		require.Equal(t, uint64(leader), outs[0][i], "elect row %d mask %#x", i, masks[i])
		require.Equal(t, confWarpBoolU(leader == i&31), outs[1][i], "elect pred row %d", i)
		require.Equal(t, outs[1][i], outs[2][i], "elect _|p row %d", i)
		require.Equal(t, uint64(0xffffffff), outs[3][i], "activemask row %d", i)
	}
}

// confWarpLine is the source line "warp.ptx:N" of the first line of confWarpKernel's module
// for body that contains marker.
func confWarpLine(body, marker string) string {
	for i, line := range strings.Split(confWarpSource(body), "\n") {
		if strings.Contains(line, marker) {
			return fmt.Sprintf("warp.ptx:%d", i+1)
		}
	}
	return "warp.ptx:?"
}

// confWarpSource is the module confWarpKernel runs: a kernel k(.param .u64 out) in which %r0 is
// %tid.x and %rd1 the address of out[%tid.x] (uint32 elements).
func confWarpSource(body string) string {
	return `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [out];
	mov.u32 %r0, %tid.x;
	mul.wide.u32 %rd1, %r0, 4;
	add.u64 %rd1, %rd0, %rd1;
` + body + `
	ret;
}
`
}

// confWarpKernel compiles confWarpSource(body) and launches it on one CTA of block threads; it
// returns the first block uint32 of out and the launch error.
func confWarpKernel(t *testing.T, body string, block int) ([]uint32, error) {
	t.Helper()
	return confWarpKernelSched(t, body, block, runtime.SchedDefault)
}

// confWarpKernelSched is confWarpKernel under the scheduling model sched.
func confWarpKernelSched(t *testing.T, body string, block int, sched runtime.Sched) ([]uint32, error) {
	t.Helper()
	src := confWarpSource(body)
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "warp.ptx"})
	require.NoError(t, err, "compiling:\n%s", src)
	k, err := mod.Kernel("k")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	init := make([]uint32, block)
	for i := range init {
		init[i] = 0xdeadbeef
	}
	out, err := runtime.Upload(dev, init)
	require.NoError(t, err)
	cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(uint32(block)), Sched: sched}
	lerr := k.LaunchConfig(t.Context(), dev, cfg, out)
	got := make([]uint32, block)
	require.NoError(t, runtime.Download(dev, got, out))
	return got, lerr
}

// TestConfWarpDivergent runs warp ops inside divergent code with the membermask of the lanes
// that take the branch, in a partial warp and after some lanes exited.
func TestConfWarpDivergent(t *testing.T) {
	// 48 threads: warp 1 has 16 lanes; lanes 40..47 exit first. The odd lanes of each warp then
	// shuffle among themselves with membermask 0xaaaaaaaa (the lanes of warp 1 that do not exist
	// or exited do not count), and the even lanes vote and reduce among themselves.
	got, err := confWarpKernel(t, `
	setp.ge.u32 %p0, %r0, 40;
	@%p0 exit;
	and.b32 %r1, %r0, 31;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 1;
	@!%p1 bra EVEN;
	shfl.sync.bfly.b32 %r3, %r0, 2, 31, 0xaaaaaaaa;
	bra.uni STORE;
EVEN:
	setp.lt.u32 %p2, %r1, 8;
	vote.sync.ballot.b32 %r4, %p2, 0x55555555;
	redux.sync.add.u32 %r5, %r1, 0x55555555;
	elect.sync %r6|%p3, 0x55555555;
	activemask.b32 %r7;
	shl.b32 %r3, %r6, 24;
	xor.b32 %r3, %r3, %r4;
	add.u32 %r3, %r3, %r5;
	xor.b32 %r3, %r3, %r7;
STORE:
	st.global.u32 [%rd1], %r3;`, 48)
	require.NoError(t, err)
	for tid := range 48 {
		lane := tid & 31
		exists := func(l int) bool { return tid&^31+l < 40 }
		var want uint32
		switch {
		case tid >= 40:
			want = 0xdeadbeef
		case lane&1 == 1:
			src := lane ^ 2
			if !exists(src) {
				src = lane
			}
			want = uint32(tid&^31 + src)
		default:
			var ballot, active, sum uint32
			leader := -1
			for l := 0; l < 32; l += 2 {
				if !exists(l) {
					continue
				}
				active |= 1 << l
				if l < 8 {
					ballot |= 1 << l
				}
				sum += uint32(l)
				if leader < 0 {
					leader = l
				}
			}
			want = (uint32(leader)<<24 ^ ballot) + sum ^ active
		}
		require.Equal(t, want, got[tid], "thread %d", tid)
	}
}

// TestConfWarpGroupsBranch branches on reductions whose membermask differs between the two
// halves of the warp: the results differ per half, so the branch diverges, and the halves
// reconverge after it.
func TestConfWarpGroupsBranch(t *testing.T) {
	got, err := confWarpKernel(t, `
	setp.lt.u32 %p0, %r0, 16;
	selp.b32 %r2, 0x0000ffff, 0xffff0000, %p0;
	redux.sync.add.u32 %r3, %r0, %r2;
	vote.sync.ballot.b32 %r4, %p0, %r2;
	setp.lt.u32 %p1, %r3, 200;
	@%p1 bra LOW;
	setp.ne.u32 %p2, %r4, 0;
	@%p2 bra WRONG;
	add.u32 %r5, %r3, 1000;
	bra.uni STORE;
LOW:
	setp.eq.u32 %p2, %r4, 0;
	@%p2 bra WRONG;
	add.u32 %r5, %r3, 2000;
	bra.uni STORE;
WRONG:
	mov.u32 %r5, 7;
STORE:
	activemask.b32 %r6;
	setp.ne.u32 %p3, %r6, 0xffffffff;
	@%p3 add.u32 %r5, %r5, 100000;
	st.global.u32 [%rd1], %r5;`, 32)
	require.NoError(t, err)
	for tid, v := range got {
		want := uint32(120 + 2000) // 0+1+...+15
		if tid >= 16 {
			want = 376 + 1000 // 16+...+31
		}
		require.Equal(t, want, v, "thread %d", tid)
	}
}

// TestConfWarpGuarded runs guarded warp instructions: a lane whose guard is false still
// arrives at the synchronization (no fault for a full membermask), contributes nothing and
// keeps its destination.
func TestConfWarpGuarded(t *testing.T) {
	got, err := confWarpKernel(t, `
	setp.lt.u32 %p0, %r0, 16;
	mov.u32 %r3, 555;
	mov.u32 %r4, 9;
	mov.u32 %r6, 7;
	@%p0 shfl.sync.idx.b32 %r3, %r0, 3, 31, 0xffffffff;
	@!%p0 vote.sync.ballot.b32 %r4, %p0, 0xffffffff;
	@!%p0 redux.sync.add.u32 %r6, %r0, 0xffffffff;
	@%p0 bar.warp.sync 0xffffffff;
	mul.lo.u32 %r4, %r4, 1000;
	mul.lo.u32 %r6, %r6, 100000;
	add.u32 %r3, %r3, %r4;
	add.u32 %r3, %r3, %r6;
	st.global.u32 [%rd1], %r3;`, 32)
	require.NoError(t, err)
	for tid, v := range got {
		want := uint32(3 + 9*1000 + 7*100000)
		if tid >= 16 {
			want = 555 + 0*1000 + 376*100000
		}
		require.Equal(t, want, v, "thread %d", tid)
	}
}

// TestConfWarpGuardedMembermask runs guarded warp-level instructions whose membermask names
// only the lanes whose guard is true. A lane whose guard is false does not execute the
// instruction: its own membermask (here one that does not name it) is not checked, it keeps
// its destinations, and the result covers exactly the executing lanes the mask names. 48
// threads, of which 40..47 exit first: warp 1 has lanes 0..7.
func TestConfWarpGuardedMembermask(t *testing.T) {
	const prologue = `
	setp.ge.u32 %p7, %r0, 40;
	@%p7 exit;
	and.b32 %r1, %r0, 31;
	setp.ne.u32 %p0, %r1, 0;
	and.b32 %r2, %r1, 1;
	setp.eq.u32 %p1, %r2, 0;
	setp.lt.u32 %p6, %r1, 20;
	selp.b32 %r9, 0x55555555, 0x2, %p1;
	mov.u32 %r3, 0x0badf00d;
	setp.ne.u32 %p2, %r1, %r1;
	setp.ne.u32 %p3, %r1, %r1;
	setp.eq.u32 %p4, %r1, %r1;
`
	const keep = 0x0badf00d
	// p0: guard false in lane 0 only; p1: guard true in the even lanes, whose membermask %r9 is
	// 0x55555555 (the odd lanes hold 0x2); p6: lane < 20.
	cases := []struct {
		name, body string
		want       func(lane int, exists func(int) bool) uint32
	}{
		{"vote all lanes but 0", `
	setp.ne.u32 %p5, %r1, 0;
	@%p0 vote.sync.all.pred %p3, %p5, 0xfffffffe;
	@%p0 vote.sync.any.pred %p4, !%p5, 0xfffffffe;
	@%p0 vote.sync.uni.pred %p2, %p6, 0xfffffffe;
	@%p0 vote.sync.ballot.b32 %r3, %p6, 0xfffffffe;
	selp.u32 %r4, 0x40000000, 0, %p3;
	selp.u32 %r5, 0x80000000, 0, %p4;
	selp.u32 %r6, 0x20000000, 0, %p2;
	or.b32 %r3, %r3, %r4;
	or.b32 %r3, %r3, %r5;
	or.b32 %r3, %r3, %r6;`, func(lane int, exists func(int) bool) uint32 {
			if lane == 0 {
				return keep | 0x80000000 // %p4 keeps its true, %p3 and %p2 their false
			}
			var ballot, all uint32
			for l := 1; l < 32; l++ {
				if exists(l) {
					all |= 1 << l
					if l < 20 {
						ballot |= 1 << l
					}
				}
			}
			r := ballot | 0x40000000 // all: every executing lane has %p5; any of !%p5: none
			if ballot == 0 || ballot == all {
				r |= 0x20000000
			}
			return r
		}},
		{"vote ballot even lanes", `
	@%p1 vote.sync.ballot.b32 %r3, %p6, %r9;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep
			}
			var r uint32
			for l := 0; l < 20; l += 2 {
				if exists(l) {
					r |= 1 << l
				}
			}
			return r
		}},
		{"redux", `
	mul.lo.u32 %r4, %r1, 3;
	@%p1 redux.sync.add.u32 %r3, %r4, %r9;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep
			}
			var sum uint32
			for l := 0; l < 32; l += 2 {
				if exists(l) {
					sum += uint32(3 * l)
				}
			}
			return sum
		}},
		{"shfl bfly", `
	@%p1 shfl.sync.bfly.b32 %r3|%p3, %r1, 2, 31, %r9;
	selp.u32 %r4, 0x100, 0, %p3;
	or.b32 %r3, %r3, %r4;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep
			}
			return uint32(lane^2) | 0x100
		}},
		{"shfl from a guarded-off lane", `
	@%p1 shfl.sync.idx.b32 %r3, %r1, 1, 31, %r9;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep
			}
			return 0 // lane 1 does not execute: an in-range source that does not execute gives 0
		}},
		{"match", `
	shr.u32 %r4, %r1, 2;
	mov.u32 %r5, 0x0badf00d;
	@%p1 match.any.sync.b32 %r3, %r4, %r9;
	@%p1 match.all.sync.b32 %r5|%p3, %r2, %r9;
	selp.u32 %r6, 2, 0, %p3;
	or.b32 %r5, %r5, %r6;
	shl.b32 %r3, %r3, 1;
	xor.b32 %r3, %r3, %r5;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep<<1 ^ keep
			}
			var same, group uint32
			for l := 0; l < 32; l += 2 {
				if exists(l) {
					group |= 1 << l
					if l/4 == lane/4 {
						same |= 1 << l
					}
				}
			}
			return same<<1 ^ (group | 2)
		}},
		{"elect", `
	mov.u32 %r4, 7;
	@%p0 elect.sync %r3|%p3, 0xfffffffe;
	@%p1 elect.sync %r4|%p4, %r9;
	selp.u32 %r5, 0x100, 0, %p3;
	selp.u32 %r6, 0x200, 0, %p4;
	shl.b32 %r4, %r4, 16;
	or.b32 %r3, %r3, %r5;
	or.b32 %r3, %r3, %r6;
	xor.b32 %r3, %r3, %r4;`, func(lane int, exists func(int) bool) uint32 {
			r, p3, r4, p4 := uint32(1), lane == 1, uint32(0), lane == 0 // leaders: lane 1, lane 0
			if lane == 0 {
				r = keep
			}
			if lane&1 == 1 {
				r4, p4 = 7, true // kept
			}
			if p3 {
				r |= 0x100
			}
			if p4 {
				r |= 0x200
			}
			return r ^ r4<<16
		}},
		{"activemask and bar.warp.sync", `
	@%p1 bar.warp.sync %r9;
	@%p0 bar.warp.sync 0xfffffffe;
	@%p1 activemask.b32 %r3;`, func(lane int, exists func(int) bool) uint32 {
			if lane&1 == 1 {
				return keep
			}
			var r uint32
			for l := 0; l < 32; l += 2 {
				if exists(l) {
					r |= 1 << l
				}
			}
			return r
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := confWarpKernel(t, prologue+c.body+"\n\tst.global.u32 [%rd1], %r3;", 48)
			require.NoError(t, err)
			for tid := range 48 {
				want := uint32(0xdeadbeef)
				if tid < 40 {
					want = c.want(tid&31, func(l int) bool { return tid&^31+l < 40 })
				}
				require.Equal(t, want, got[tid], "thread %d: got %#x, want %#x", tid, got[tid], want)
			}
		})
	}
}

// TestConfWarpFaults checks that a membermask naming lanes that are not executing, or not
// naming the executing lane, or differing between lanes that name each other, stops the
// launch with a warp-synchronization fault that says which lanes, where and in which thread,
// under ipdom. The lanes that branch away store at DONE, so they wait there instead of exiting
// (exited lanes may be named); under its the instruction waits for them instead.
func TestConfWarpFaults(t *testing.T) {
	cases := []struct {
		name, body, msg, marker string
		thread                  uint32
	}{
		{"shfl diverged", `
	setp.lt.u32 %p0, %r0, 16;
	@!%p0 bra DONE;
	shfl.sync.idx.b32 %r1, %r0, 0, 31, 0xffffffff;
DONE:
	st.global.u32 [%rd1], %r0;`, "shfl.sync membermask 0xffffffff includes inactive lanes 0xffff0000", "shfl.sync", 0},
		{"vote not self", `
	vote.sync.ballot.b32 %r1, %p0, 0x0000ffff;`, "vote.sync membermask 0x0000ffff does not include the executing lane 16", "vote.sync", 16},
		{"redux mismatched masks", `
	setp.lt.u32 %p0, %r0, 16;
	selp.b32 %r2, 0x0000ffff, 0xffffffff, %p0;
	redux.sync.add.u32 %r1, %r0, %r2;`, "redux.sync membermask 0xffffffff of lane 16 differs from membermask 0x0000ffff of lane 0, which it names", "redux.sync", 16},
		{"bar.warp.sync diverged", `
	setp.lt.u32 %p0, %r0, 3;
	@%p0 bra DONE;
	bar.warp.sync 0xffffffff;
DONE:
	st.global.u32 [%rd1], %r0;`, "bar.warp.sync membermask 0xffffffff includes inactive lanes 0x00000007", "bar.warp", 3},
		{"match diverged", `
	setp.eq.u32 %p0, %r0, 5;
	@%p0 bra DONE;
	match.any.sync.b32 %r1, %r0, 0xffffffff;
DONE:
	st.global.u32 [%rd1], %r0;`, "match.sync membermask 0xffffffff includes inactive lanes 0x00000020", "match.any", 0},
		{"guarded vote not self", `
	and.b32 %r2, %r0, 1;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 vote.sync.ballot.b32 %r1, %p0, 0xaaaaaaaa;`, "vote.sync membermask 0xaaaaaaaa does not include the executing lane 0", "vote.sync", 0},
		{"guarded redux diverged", `
	setp.lt.u32 %p0, %r0, 16;
	@!%p0 bra DONE;
	setp.ne.u32 %p1, %r0, 3;
	@%p1 redux.sync.add.u32 %r1, %r0, 0xffffffff;
DONE:
	st.global.u32 [%rd1], %r0;`, "redux.sync membermask 0xffffffff includes inactive lanes 0xffff0000", "redux.sync", 0},
		{"elect diverged", `
	setp.ne.u32 %p0, %r0, 1;
	@%p0 bra DONE;
	elect.sync %r1|%p1, 0x00000003;
DONE:
	st.global.u32 [%rd1], %r0;`, "elect.sync membermask 0x00000003 includes inactive lanes 0x00000001", "elect.sync", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := confWarpKernelSched(t, c.body, 32, runtime.SchedIPDOM)
			var f *runtime.Fault
			require.True(t, errors.As(err, &f), "want a *runtime.Fault, got %v", err)
			require.Equal(t, runtime.FaultWarpSync, f.Kind, "%v", err)
			require.Equal(t, c.msg, f.Detail)
			require.Equal(t, confWarpLine(c.body, c.marker), f.Loc, "%v", err)
			require.Equal(t, "k", f.Kernel)
			require.Equal(t, runtime.Dim3{X: 0, Y: 0, Z: 0}, f.CTA)
			require.Equal(t, runtime.Dim3{X: c.thread, Y: 0, Z: 0}, f.Thread, "%v", err)
			require.Contains(t, err.Error(), c.msg)
			if !strings.Contains(c.name, "diverged") {
				return
			}
			// Under its the instruction waits for the lanes that diverged; they store their
			// thread index and exit, and then it runs without them.
			got, err := confWarpKernelSched(t, c.body, 32, runtime.SchedITS)
			require.NoError(t, err)
			for tid, v := range got {
				require.Equal(t, uint32(tid), v, "thread %d", tid)
			}
		})
	}
}

// TestConfWarpMisc covers nanosleep, pmevent, brkpt and the clocks.
func TestConfWarpMisc(t *testing.T) {
	got, err := confWarpKernel(t, `
	nanosleep.u32 1000;
	nanosleep.u32 %r0;
	pmevent 3;
	pmevent.mask 0x81;
	mov.u64 %rd2, %clock64;
	mov.u32 %r1, %clock;
	mov.u32 %r2, %clock_hi;
	mov.u64 %rd3, %clock64;
	mov.u64 %rd4, %globaltimer;
	sub.u64 %rd5, %rd3, %rd2;
	setp.ge.s64 %p0, %rd5, 0;
	shr.u64 %rd6, %rd3, 32;
	cvt.u32.u64 %r3, %rd6;
	setp.ge.u32 %p1, %r3, %r2;
	setp.ne.u64 %p2, %rd4, 0;
	and.pred %p0, %p0, %p1;
	and.pred %p0, %p0, %p2;
	selp.u32 %r4, 1, 0, %p0;
	st.global.u32 [%rd1], %r4;`, 32)
	require.NoError(t, err)
	for i, v := range got {
		require.Equal(t, uint32(1), v, "thread %d", i)
	}

	brk := `
	setp.eq.u32 %p0, %r0, 9;
	@%p0 brkpt;`
	_, err = confWarpKernel(t, brk, 32)
	var f *runtime.Fault
	require.True(t, errors.As(err, &f), "want a *runtime.Fault, got %v", err)
	require.Equal(t, runtime.FaultBreakpoint, f.Kind)
	require.Equal(t, runtime.Dim3{X: 9}, f.Thread)
	require.Equal(t, confWarpLine(brk, "brkpt"), f.Loc)

	for _, bad := range []string{"pmevent 16;", "pmevent.mask 0x10000;", "nanosleep.u64 5;", "elect.sync %r1, 0xffffffff;",
		"vote.any.pred %p1, %p0;", "shfl.sync.up.down.b32 %r1, %r0, 1, 31, -1;", "redux.sync.add.b32 %r1, %r0, -1;",
		"redux.sync.and.u32 %r1, %r0, -1;", "match.any.sync.b32 %r1|%p1, %r0, -1;", "vote.sync.any.b32 %r1, %p0, -1;"} {
		src := ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\n" + bad + "\nret;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err, bad)
		require.True(t, strings.Contains(err.Error(), "bad.ptx:8:1:"), "%s: %v", bad, err)
	}
}

// confWarpShflSource is the ISA's shfl source lane j of lane for mode and operands b and c,
// and whether it is in range (the predicate destination).
func confWarpShflSource(mode string, lane int, b, c uint32) (int, bool) {
	bval, cval, seg := int(b&31), int(c&31), int(c>>8&31)
	maxLane := lane&seg | cval&^seg
	minLane := lane & seg
	switch mode {
	case "up":
		return lane - bval, lane-bval >= maxLane
	case "down":
		return lane + bval, lane+bval <= maxLane
	case "bfly":
		return lane ^ bval, lane^bval <= maxLane
	}
	j := minLane | bval&^seg
	return j, j <= maxLane
}

// TestConfWarpLegacy runs testdata/ptx/hand/legacy_warp.ptx (.version 6.0, .target sm_60): vote
// and shfl without .sync, guarded, on two divergent paths, in CTAs of 80 threads (the third
// warp partial). Each instruction covers the executing lanes: those of its path whose guard is
// true. A shfl whose source is out of range yields the lane's own value, one whose in-range
// source lane does not execute yields 0; its predicate says whether the source was in range. It runs on
// the closure engine and on the Go engine (generated/hand_legacy_warp).
func TestConfWarpLegacy(t *testing.T) {
	closure, err := ptx2go.CompileFile("testdata/ptx/hand/legacy_warp.ptx")
	require.NoError(t, err)
	gen, err := ptx2go.Load(harness.GoModule(t, "hand/legacy_warp"))
	require.NoError(t, err)
	for name, mod := range map[string]*ptx2go.Module{"closure": closure, "go": gen} {
		t.Run(name, func(t *testing.T) { confWarpLegacy(t, mod) })
	}
}

// confWarpLegacy is TestConfWarpLegacy on one engine's module.
func confWarpLegacy(t *testing.T, mod *ptx2go.Module) {
	k, err := mod.Kernel("legacy_warp")
	require.NoError(t, err)
	const grid, block = 64, 80
	r := confWarpRand()
	n := grid * block
	in := make([]uint32, 4*n)
	clamps := []uint32{0x1f, 0x0, 0x1c03, 0x181f, 0x1f00, 0x1e01, 0x1000}
	for i := range n {
		w := i / 32 // picks the kind of inputs
		a, b, c := r.Uint32(), uint32(r.IntN(40)), clamps[w%len(clamps)]
		if w%5 == 4 {
			b, c = r.Uint32(), r.Uint32()
		}
		var flags uint32
		switch w % 4 {
		case 0: // whole warp on path A, guard true: the pre-Volta full-warp vote and shfl
			flags = 4 | uint32(r.IntN(2))
		case 1: // path B, a quarter of the guards false
			flags = 2 | uint32(r.IntN(2))
			if r.IntN(4) != 0 {
				flags |= 4
			}
		default:
			flags = uint32(r.IntN(8))
		}
		in[4*i], in[4*i+1], in[4*i+2], in[4*i+3] = a, b, c, flags
	}
	dev := runtime.NewDevice()
	inPtr, err := runtime.Upload(dev, in)
	require.NoError(t, err)
	outPtr, err := runtime.Upload(dev, make([]uint32, 4*n))
	require.NoError(t, err)
	require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(grid), runtime.D1(block), inPtr, outPtr))
	out := make([]uint32, 4*n)
	require.NoError(t, runtime.Download(dev, out, outPtr))

	for i := range n {
		flags := func(k int) uint32 { return in[4*k+3] }
		lane := i % block % 32
		first := i - lane // the warp's thread 0
		exists := func(l int) bool { return (first%block)+l < block }
		got := out[4*i : 4*i+4]
		if flags(i)&4 == 0 {
			require.Equal(t, []uint32{0xdeadbeef, 0xdeadbeef, 0, 0xdeadbeef}, got, "thread %d (guard false)", i)
			continue
		}
		var exec, set uint32
		for l := range 32 {
			if exists(l) && flags(first+l)&6 == flags(i)&6 {
				exec |= 1 << l
				if flags(first+l)&1 != 0 {
					set |= 1 << l
				}
			}
		}
		modes := []string{"up", "bfly"}
		if flags(i)&2 != 0 {
			modes = []string{"down", "idx"}
		}
		var want [4]uint32
		for s, mode := range modes {
			j, ok := confWarpShflSource(mode, lane, in[4*i+1], in[4*i+2])
			switch {
			case !ok || j < 0 || j > 31:
				want[s] = in[4*i]
			case exec&(1<<j) != 0:
				want[s] = in[4*(first+j)]
			}
			if ok {
				want[2] |= 8 << s
			}
		}
		unset := exec &^ set
		if set == exec {
			want[2] |= 1
		}
		if set != 0 {
			want[2] |= 2
		}
		if unset == 0 || unset == exec {
			want[2] |= 4
		}
		want[3] = set
		require.Equal(t, want[:], got, "thread %d (lane %d, flags %d, b %#x, c %#x)", i, lane, flags(i), in[4*i+1], in[4*i+2])
	}
}

// TestConfWarpLegacyTargets checks where vote and shfl without .sync compile: the PTX ISA does
// not support them for .target sm_70 and higher from PTX ISA version 6.4, and a module that
// uses them there gets a positioned error naming the .sync form. The operand count follows the
// form: no membermask without .sync.
func TestConfWarpLegacyTargets(t *testing.T) {
	src := func(version, target, body string) string {
		return ".version " + version + "\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\n" + body + "\nret;\n}\n"
	}
	const legacy = "vote.any.pred %p1, %p0;\nshfl.up.b32 %r1|%p1, %r0, 1, 0;"
	for _, c := range []struct{ version, target string }{
		{"6.0", "sm_60"}, {"6.3", "sm_70"}, {"6.4", "sm_61"}, {"7.0", "sm_50"}, {"5.0", "sm_52"},
		{"8.0", "compute_60"}, {"6.0", "sm_30, texmode_independent"},
	} {
		_, err := ptx2go.Compile([]byte(src(c.version, c.target, legacy)), ptx2go.Options{File: "ok.ptx"})
		require.NoError(t, err, ".version %s, .target %s", c.version, c.target)
	}
	for _, c := range []struct{ version, target, sm string }{
		{"6.4", "sm_70", "70"}, {"8.0", "sm_80", "80"}, {"7.8", "sm_90a", "90"}, {"6.5", "compute_75", "75"},
	} {
		_, err := ptx2go.Compile([]byte(src(c.version, c.target, legacy)), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err)
		for _, want := range []string{
			"bad.ptx:8:1: vote without .sync is not supported for .target sm_70 and higher from PTX ISA version 6.4 (this module: .version " + c.version + ", .target sm_" + c.sm + "); use vote.sync",
			"bad.ptx:9:1: shfl without .sync is not supported for .target sm_70 and higher from PTX ISA version 6.4 (this module: .version " + c.version + ", .target sm_" + c.sm + "); use shfl.sync",
		} {
			require.Contains(t, err.Error(), want)
		}
	}
	for body, want := range map[string]string{
		"shfl.up.b32 %r1, %r0, 1, 0, 0xffffffff;": "bad.ptx:8:1: shfl takes 4 operands, not 5",
		"shfl.sync.up.b32 %r1, %r0, 1, 0;":        "bad.ptx:8:1: shfl.sync takes 5 operands, not 4",
		"vote.ballot.b32 %r1, %p0, 0xffffffff;":   "bad.ptx:8:1: vote takes 2 operands, not 3",
		"vote.sync.all.pred %p1, %p0;":            "bad.ptx:8:1: vote.sync takes 3 operands, not 2",
		"vote.all.b32 %r1, %p0;":                  "bad.ptx:8:1:",
		"vote.ballot.pred %p1, %p0;":              "bad.ptx:8:1:",
		"shfl.up.idx.b32 %r1, %r0, 1, 0;":         "bad.ptx:8:1:",
	} {
		_, err := ptx2go.Compile([]byte(src("6.0", "sm_60", body)), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err, body)
		require.Contains(t, err.Error(), want, body)
	}
}

// TestConfWarpGuardedSync runs testdata/ptx/hand/warp_guarded.ptx (.target sm_90): shfl.sync,
// vote.sync, redux.sync, match.sync, elect.sync, bar.warp.sync and activemask under guards of
// both polarities, with per-lane membermasks in registers (disjoint groups of the lanes of a
// path, the whole warp for lanes whose guard is false, whose masks are not read), on two
// divergent paths and after they reconverge, in CTAs of 80 threads (the third warp partial),
// on the closure engine and on the Go engine (generated/hand_warp_guarded).
func TestConfWarpGuardedSync(t *testing.T) {
	closure, err := ptx2go.CompileFile("testdata/ptx/hand/warp_guarded.ptx")
	require.NoError(t, err)
	gen, err := ptx2go.Load(harness.GoModule(t, "hand/warp_guarded"))
	require.NoError(t, err)
	for name, mod := range map[string]*ptx2go.Module{"closure": closure, "go": gen} {
		t.Run(name, func(t *testing.T) { confWarpGuardedSync(t, mod) })
	}
}

// confWarpGuardedSync is TestConfWarpGuardedSync on one engine's module.
func confWarpGuardedSync(t *testing.T, mod *ptx2go.Module) {
	k, err := mod.Kernel("warp_guarded")
	require.NoError(t, err)
	const grid, block = 48, 80
	r := confWarpRand()
	n := grid * block
	in := make([]uint32, 8*n)
	clamps := []uint32{0x1f, 0x0, 0x1c03, 0x181f, 0x1f00, 0x1e01, 0x1000}
	// Warp w starts at thread first and has lanes lanes (CTAs of 80 threads: 32, 32, 16).
	for first, w := 0, 0; first < n; first, w = first+min(32, block-first%block), w+1 {
		lanes := min(32, block-first%block)
		color := make([]int, lanes)
		for l := range lanes {
			i := first + l
			a, b, c := r.Uint32(), uint32(r.IntN(40)), clamps[w%len(clamps)]
			if w%5 == 4 {
				b, c = r.Uint32(), r.Uint32()
			}
			if w%3 == 1 {
				a = uint32(r.IntN(3)) // repeats for match and vote
			}
			var flags uint32
			switch w % 4 {
			case 0: // one path, every guard true
				flags = 4 | uint32(r.IntN(2))
			case 1: // one path, every guard false
				flags = 2 | uint32(r.IntN(2))
			default:
				flags = uint32(r.IntN(8))
			}
			in[8*i], in[8*i+1], in[8*i+2], in[8*i+3] = a, b, c, flags
			// Groups within a path: the whole path, or up to three random parts of it.
			color[l] = int(flags>>1&1) * 4
			if w%3 != 0 {
				color[l] += r.IntN(3)
			}
		}
		for l := range lanes {
			var group uint32
			for k := range lanes {
				if color[k] == color[l] {
					group |= 1 << k
				}
			}
			i := first + l
			in[8*i+4], in[8*i+5] = group, 0xffffffff
			if in[8*i+3]&4 == 0 {
				in[8*i+4], in[8*i+5] = 0xffffffff, group
			}
		}
	}
	dev := runtime.NewDevice()
	inPtr, err := runtime.Upload(dev, in)
	require.NoError(t, err)
	outPtr, err := runtime.Upload(dev, make([]uint32, 12*n))
	require.NoError(t, err)
	require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(grid), runtime.D1(block), inPtr, outPtr))
	out := make([]uint32, 12*n)
	require.NoError(t, runtime.Download(dev, out, outPtr))

	const poison = 0xdeadbeef
	for i := range n {
		lane := i % block % 32
		first := i - lane
		col := func(l, c int) uint32 { return in[8*(first+l)+c] }
		exists := func(l int) bool { return (first%block)+l < block }
		flags := func(l int) uint32 { return col(l, 3) }
		g := flags(lane)&4 != 0
		path := flags(lane) & 2
		// lanes returns the existing lanes whose guard is pol, on this lane's path only when
		// onPath (before the paths reconverge).
		lanes := func(pol, onPath bool) uint32 {
			var m uint32
			for l := range 32 {
				if exists(l) && (flags(l)&4 != 0) == pol && (!onPath || flags(l)&2 == path) {
					m |= 1 << l
				}
			}
			return m
		}
		fold := func(group uint32, f func(acc uint32, l int) uint32, acc uint32) uint32 {
			for x := group; x != 0; x &= x - 1 {
				acc = f(acc, bits.TrailingZeros32(x))
			}
			return acc
		}
		var want [9]uint32
		for s := range want {
			want[s] = poison
		}
		want[3] = 0
		shfl := func(slot int, mode string, exec uint32, predBit uint32) {
			j, ok := confWarpShflSource(mode, lane, col(lane, 1), col(lane, 2))
			switch {
			case !ok || j < 0 || j > 31:
				want[slot] = col(lane, 0)
			case exec&(1<<j) != 0:
				want[slot] = col(j, 0)
			default:
				want[slot] = 0 // an in-range source lane that does not execute
			}
			if ok {
				want[3] |= predBit
			}
		}
		modes := []string{"down", "idx"}
		if path != 0 {
			modes = []string{"up", "bfly"}
		}
		q := func(l int) bool { return flags(l)&1 != 0 }
		qset := fold(lanes(true, false)|lanes(false, false), func(acc uint32, l int) uint32 {
			if q(l) {
				acc |= 1 << l
			}
			return acc
		}, 0)
		key := func(l int) uint64 { return uint64(col(l, 1)&1)<<32 | uint64(col(l, 0)&3) }
		if g {
			exec := lanes(true, true)
			group := col(lane, 4) & exec
			shfl(0, modes[0], exec, 8)
			if path == 0 {
				want[4] = fold(group, func(acc uint32, l int) uint32 { return uint32(max(int32(acc), int32(col(l, 0)))) }, 0x80000000)
			} else {
				want[4] = fold(group, func(acc uint32, l int) uint32 { return acc ^ col(l, 0) }, 0)
			}
			group = col(lane, 4) & lanes(true, false)
			want[2] = qset & group
			if qset&group == group {
				want[3] |= 1
			}
			if nq := group &^ qset; nq == 0 || nq == group {
				want[3] |= 4
			}
			if fold(group, func(acc uint32, l int) uint32 {
				if key(l)&3 != key(lane)&3 {
					acc = 0
				}
				return acc
			}, 1) == 1 {
				want[6] = group
				want[3] |= 32
			} else {
				want[6] = 0
			}
			want[8] = lanes(true, false)
		} else {
			exec := lanes(false, true)
			group := col(lane, 5) & exec
			shfl(1, modes[1], exec, 16)
			group = col(lane, 5) & lanes(false, false)
			if qset&group != 0 {
				want[3] |= 2
			}
			want[5] = fold(group, func(acc uint32, l int) uint32 {
				if key(l) == key(lane) {
					acc |= 1 << l
				}
				return acc
			}, 0)
			want[7] = uint32(bits.TrailingZeros32(group))
			if int(want[7]) == lane {
				want[3] |= 64
			}
		}
		require.Equal(t, want[:], out[12*i:12*i+9], "thread %d (lane %d, flags %d, mm %#x, mn %#x)", i, lane, flags(lane), col(lane, 4), col(lane, 5))
	}
}
