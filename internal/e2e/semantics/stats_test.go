package semantics_test

// Execution statistics (runtime.Stats) of the hand-written kernels in
// testdata/ptx/semantics/stats.ptx, each computed here by hand from the kernel's structure:
// which lanes run which instructions, how the SIMT stack grows and shrinks, and what every
// memory instruction moves.

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

const statsFile = "stats.ptx"

// statsLaunch runs kernel name of stats.ptx with statistics and returns them with the
// contents of the first (output) buffer, which has outWords u32.
func statsLaunch(t *testing.T, name string, grid, block uint32, outWords int, extra ...any) (runtime.Stats, []uint32) {
	t.Helper()
	_, k := harness.SemKernel(t, statsFile, name)
	dev := runtime.NewDevice()
	out := harness.SemFilled(t, dev, outWords, 0)
	var st runtime.Stats
	cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Stats: &st}
	if err := k.LaunchConfig(context.Background(), dev, cfg, append([]any{out}, extra...)...); err != nil {
		t.Fatal(err)
	}
	return st, harness.SemDownload(t, dev, out, outWords)
}

// statsLineOf returns the number of the one line of stats.ptx that contains marker.
func statsLineOf(t *testing.T, marker string) int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(harness.SemDir, statsFile))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, marker) {
			if line != 0 {
				t.Fatalf("marker %q is on lines %d and %d", marker, line, i+1)
			}
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("no line has marker %q", marker)
	}
	return line
}

// statsLineWant is the expected profile of the line carrying a marker.
type statsLineWant struct {
	marker        string
	issued, lanes uint64
}

// statsCheckLines checks that the marked lines have the expected profile and, when all is set,
// that no other line ran.
func statsCheckLines(t *testing.T, st *runtime.Stats, want []statsLineWant, all bool) {
	t.Helper()
	got := map[int]runtime.LineStats{}
	for _, l := range st.Lines {
		if filepath.Base(l.File) != statsFile {
			t.Errorf("line %s:%d is not in %s", l.File, l.Line, statsFile)
		}
		got[l.Line] = l
	}
	for _, w := range want {
		n := statsLineOf(t, w.marker)
		l, ok := got[n]
		switch {
		case !ok:
			t.Errorf("line %d (%s) did not run", n, w.marker)
		case l.Instructions != w.issued || l.LaneInstructions != w.lanes:
			t.Errorf("line %d (%s): %d issued, %d lane instructions; want %d, %d", n, w.marker, l.Instructions, l.LaneInstructions, w.issued, w.lanes)
		}
		delete(got, n)
	}
	if all && len(got) > 0 {
		t.Errorf("%d more lines ran: %v", len(got), got)
	}
	for i := 1; i < len(st.Lines); i++ {
		if st.Lines[i-1].Line >= st.Lines[i].Line {
			t.Errorf("Lines not sorted: %d before %d", st.Lines[i-1].Line, st.Lines[i].Line)
		}
	}
}

// statsTotals checks that Instructions and LaneInstructions are the sums of the lines'.
func statsTotals(t *testing.T, st *runtime.Stats) {
	t.Helper()
	var n, lanes uint64
	for _, l := range st.Lines {
		n += l.Instructions
		lanes += l.LaneInstructions
	}
	if n != st.Instructions || lanes != st.LaneInstructions {
		t.Errorf("lines add up to %d issued, %d lane instructions; totals are %d, %d", n, lanes, st.Instructions, st.LaneInstructions)
	}
}

// statsEqual compares the scalar counts of got with want (Lines are checked separately).
func statsEqual(t *testing.T, got, want runtime.Stats) {
	t.Helper()
	got.Lines, want.Lines = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stats:\n got  %+v\n want %+v", got, want)
	}
}

// TestStatsBranch: one warp of 32. Five instructions run on every lane up to `@%p1 bra THEN`
// (the branch on tid >= 1000 before it is taken by no lane, so it is executed but does not
// diverge); lanes 0-9 take THEN (2 instructions), lanes 10-31 the else side (add and `bra DONE`,
// 2 instructions); DONE and SKIP run 6 instructions on all 32 lanes again.
func TestStatsBranch(t *testing.T) {
	st, out := statsLaunch(t, "branch", 1, 32, 32)
	for tid, v := range out {
		want := uint32(tid + 100)
		if tid < 10 {
			want = uint32(tid+200) * 3
		}
		if v != want {
			t.Fatalf("out[%d] = %d, want %d", tid, v, want)
		}
	}
	const then, other = 10, 22
	issued := uint64(5 + 2 + 2 + 6)
	lanes := uint64(5*32 + 2*then + 2*other + 6*32)
	statsEqual(t, st, runtime.Stats{
		Instructions: issued, LaneInstructions: lanes,
		// `@%p2 bra SKIP`, `@%p1 bra THEN` and `bra DONE`; only the second splits the warp.
		Branches: 3, DivergentBranches: 1,
		// The split pushes one entry per side on top of the warp's entry, which waits at DONE;
		// both side entries are popped when they reach DONE. The sides (4 instructions) are
		// short: they run predicated (PredicatedRegions), and the counts are the stack's.
		Reconvergences: 2, MaxStackDepth: 3, PredicatedRegions: 1,
		Loaded: statsSpaces(runtime.MemParam, 8*32),
		Stored: statsSpaces(runtime.MemGlobal, 4*32),
	})
	if e := st.Efficiency(); e != float64(lanes)/float64(32*issued) {
		t.Errorf("efficiency %v, want %d/%d", e, lanes, 32*issued)
	}
	var want []statsLineWant
	for _, m := range []string{"@b1", "@b2", "@b3", "@b4", "@b5", "@d1", "@d2", "@d3", "@d4", "@d5", "@d6"} {
		want = append(want, statsLineWant{m, 1, 32})
	}
	want = append(want, statsLineWant{"@then1", 1, then}, statsLineWant{"@then2", 1, then},
		statsLineWant{"@else1", 1, other}, statsLineWant{"@else2", 1, other})
	statsCheckLines(t, &st, want, true)
	statsTotals(t, &st)
	l := st.Lines[statsLineIndex(st.Lines, statsLineOf(t, "@then1"))]
	if e := l.Efficiency(); e != float64(then)/32 {
		t.Errorf("THEN line efficiency %v, want 10/32", e)
	}
}

// statsLineIndex is the index of line n in lines, or -1.
func statsLineIndex(lines []runtime.LineStats, n int) int {
	for i, l := range lines {
		if l.Line == n {
			return i
		}
	}
	return -1
}

// statsSpaces is a per-space byte array with the given space and count pairs.
func statsSpaces(pairs ...any) [runtime.NumMemSpaces]uint64 {
	var a [runtime.NumMemSpaces]uint64
	for i := 0; i < len(pairs); i += 2 {
		a[pairs[i].(runtime.MemSpace)] += uint64(pairs[i+1].(int))
	}
	return a
}

// TestStatsLoop: a CTA of 40 threads, so warp 0 is full and warp 1 has 8 lanes. Lane t runs
// the 3-instruction loop body (t & 3) + 1 times. In iteration k of a warp, the lanes whose trip
// count is at least k are active; the loop's `@%p1 bra LOOP` diverges when some but not all of
// them go on. The first divergence leaves the warp's entry waiting after the loop and pushes
// one entry for the looping lanes, which later iterations replace; it is popped when its last
// lanes leave the loop.
func TestStatsLoop(t *testing.T) {
	const threads = 40
	st, out := statsLaunch(t, "loop", 1, threads, threads)
	for tid, v := range out {
		if v != uint32(tid&3+1) {
			t.Fatalf("out[%d] = %d, want %d", tid, v, tid&3+1)
		}
	}
	want := runtime.Stats{MaxStackDepth: 1}
	var bodyIssued, bodyLanes uint64
	for warp := range (threads + 31) / 32 {
		var trips []int
		for tid := warp * 32; tid < min(threads, warp*32+32); tid++ {
			trips = append(trips, tid&3+1)
		}
		n := uint64(len(trips))
		// 4 instructions before the loop and 6 after it run on every lane of the warp.
		want.Instructions += 4 + 6
		want.LaneInstructions += 10 * n
		diverged := false
		for k := 1; ; k++ {
			active, goOn := 0, 0
			for _, c := range trips {
				if c >= k {
					active++
				}
				if c > k {
					goOn++
				}
			}
			if active == 0 {
				break
			}
			bodyIssued += 3
			bodyLanes += 3 * uint64(active)
			want.Branches++
			if goOn > 0 && goOn < active {
				want.DivergentBranches++
				diverged = true
			}
		}
		if diverged {
			want.Reconvergences++
			want.MaxStackDepth = 2
		}
		want.Loaded[runtime.MemParam] += 8 * n
		want.Stored[runtime.MemGlobal] += 4 * n
	}
	want.Instructions += bodyIssued
	want.LaneInstructions += bodyLanes
	// Both warps: 4 iterations, the first 3 divergent (32, 24, 16, 8 and 8, 6, 4, 2 lanes).
	if want.Branches != 8 || want.DivergentBranches != 6 || bodyLanes != 3*(80+20) {
		t.Fatalf("model: %d branches, %d divergent, %d body lanes", want.Branches, want.DivergentBranches, bodyLanes)
	}
	statsEqual(t, st, want)
	var lines []statsLineWant
	for _, m := range []string{"@l1", "@l2", "@l3", "@l4", "@e1", "@e2", "@e3", "@e4", "@e5", "@e6"} {
		lines = append(lines, statsLineWant{m, 2, threads})
	}
	for _, m := range []string{"@body1", "@body2", "@body3"} {
		lines = append(lines, statsLineWant{m, bodyIssued / 3, bodyLanes / 3})
	}
	statsCheckLines(t, &st, lines, true)
	statsTotals(t, &st)
}

// TestStatsBrx: one warp of 32 jumps by tid % 3 through brx.idx to T0 (lanes 0, 3, ..., 30:
// 11 lanes), T1 (11 lanes) or T2 (10 lanes). One entry per target is pushed above the warp's
// entry waiting at END, and each is popped at END. The `bra.uni END` of T0 and T1 are
// branches too.
func TestStatsBrx(t *testing.T) {
	st, out := statsLaunch(t, "brx", 1, 32, 32)
	for tid, v := range out {
		if v != uint32(10*(tid%3+1)) {
			t.Fatalf("out[%d] = %d", tid, v)
		}
	}
	statsEqual(t, st, runtime.Stats{
		Instructions:     3 + 2 + 2 + 1 + 6,
		LaneInstructions: 3*32 + 2*11 + 2*11 + 1*10 + 6*32,
		Branches:         3, DivergentBranches: 1,
		Reconvergences: 3, MaxStackDepth: 4,
		Loaded: statsSpaces(runtime.MemParam, 8*32),
		Stored: statsSpaces(runtime.MemGlobal, 4*32),
	})
	want := []statsLineWant{{"@t0a", 1, 11}, {"@t0b", 1, 11}, {"@t1a", 1, 11}, {"@t1b", 1, 11}, {"@t2a", 1, 10}}
	for _, m := range []string{"@x1", "@x2", "@x3", "@y1", "@y2", "@y3", "@y4", "@y5", "@y6"} {
		want = append(want, statsLineWant{m, 1, 32})
	}
	statsCheckLines(t, &st, want, true)
	statsTotals(t, &st)
}

// TestStatsMemory: 3 CTAs of 40 threads (a full warp and one of 8 lanes) run the
// straight-line kernel mem on several workers: 37 instructions, two of them barriers, every
// one issued by both warps with all their lanes. p = tid < 5 holds for 5 lanes of warp 0 and
// none of warp 1; the per-lane bytes of each memory instruction are in its comment. It runs on
// the closure engine only: generated code does not record memory, atomic and per-line
// statistics yet.
func TestStatsMemory(t *testing.T) {
	const ctas, threads, instrs = 3, 40, 37
	const guarded = 5 // lanes with tid < 5
	dev := runtime.NewDevice()
	_, k := harness.SemKernel(t, statsFile, "mem")
	gout := harness.SemFilled(t, dev, threads, 0)
	gcount := harness.SemFilled(t, dev, 1, 0)
	var st runtime.Stats
	cfg := runtime.LaunchConfig{Grid: runtime.D1(ctas), Block: runtime.D1(threads), Workers: 3, Stats: &st}
	if err := k.LaunchConfig(context.Background(), dev, cfg, gout, gcount); err != nil {
		t.Fatal(err)
	}
	if c := harness.SemDownload(t, dev, gcount, 1)[0]; c != 2*ctas*threads {
		t.Fatalf("counter %d, want %d", c, 2*ctas*threads)
	}
	per := func(n int) uint64 { return uint64(ctas * n) }
	all, rest := threads, threads-guarded
	want := runtime.Stats{
		Instructions:     per(instrs * 2),
		LaneInstructions: per(instrs * threads),
		MaxStackDepth:    1,
		Barriers:         per(2 * 2),
		Atomics:          per(3 * 2),
		AtomicLanes:      per(guarded + all + all),
	}
	// Loads: ld.param x2, ld.const, ld.global, @!p ld.global.u16, ld.shared.v2, ld.local, and the
	// generic loads: of shared, of global, of shared by name, and shared-or-global by p.
	want.Loaded[runtime.MemParam] = per(2 * 8 * all)
	want.Loaded[runtime.MemConst] = per(4 * all)
	want.Loaded[runtime.MemGlobal] = per(4*all + 2*rest + 4*all + 4*rest)
	want.Loaded[runtime.MemShared] = per(8*all + 4*all + 4*all + 4*guarded)
	want.Loaded[runtime.MemLocal] = per(4 * all)
	want.GenericLoaded = per(4 * all * 4)
	// Stores: st.global, @p st.global.u8, st.shared, st.local.u64, and the generic store of local.
	want.Stored[runtime.MemGlobal] = per(4*all + 1*guarded)
	want.Stored[runtime.MemShared] = per(4 * all)
	want.Stored[runtime.MemLocal] = per(8*all + 4*all)
	want.GenericStored = per(4 * all)
	statsEqual(t, st, want)
	if len(st.Lines) != instrs {
		t.Errorf("%d lines ran, want %d", len(st.Lines), instrs)
	}
	for _, l := range st.Lines {
		if l.Instructions != per(2) || l.LaneInstructions != per(threads) {
			t.Errorf("line %d: %d issued, %d lane instructions; want %d, %d", l.Line, l.Instructions, l.LaneInstructions, per(2), per(threads))
		}
	}
	statsTotals(t, &st)
}

// TestStatsCalls: one warp of 32. The kernel (25 instructions, all on 32 lanes) makes three
// calls, each issued once:
//   - f1 -> f2 -> f3 with every lane: 7 + 7 + 4 instructions, call depth 3;
//   - `@%p1 call g` where p1 = tid < 12: the call block runs again for the 12 callers, which is
//     not a new issue; g runs 4 instructions on 12 lanes up to `@%q ret` (q = x > 7), which
//     splits them: 4 lanes return (an entry with no instruction left) and 8 run 3 more; both
//     entries are popped at g's exit, and the callers' entry after the call. While the split
//     runs the stack holds the warp's entry, the callers' entry, g's base entry and the two
//     sides: depth 5;
//   - an indirect call to h0 (16 even lanes) or h1 (16 odd lanes), 4 instructions each; one
//     entry per callee, each popped after the call.
func TestStatsCalls(t *testing.T) {
	st, out := statsLaunch(t, "calls", 1, 32, 3*32)
	for tid := range 32 {
		g := uint32(0)
		switch {
		case tid <= 7:
			g = uint32(tid + 100)
		case tid < 12:
			g = uint32(tid)
		}
		h := uint32(tid + 10)
		if tid%2 == 1 {
			h = uint32(tid * 3)
		}
		if got := out[3*tid : 3*tid+3]; got[0] != uint32(tid+6) || got[1] != g || got[2] != h {
			t.Fatalf("thread %d: %v, want [%d %d %d]", tid, got, tid+6, g, h)
		}
	}
	const callers, rest, half = 12, 8, 16 // rest: the callers that do not return early
	want := runtime.Stats{
		Instructions:     25 + 7 + 7 + 4 + 4 + 3 + 4 + 4,
		LaneInstructions: 25*32 + 7*32 + 7*32 + 4*32 + 4*callers + 3*rest + 4*half + 4*half,
		Calls:            3 + 1 + 1,
		Reconvergences:   1 + 2 + 2,
		MaxStackDepth:    5,
		MaxCallDepth:     3,
	}
	// ld.param: the kernel's out (8 bytes), b1, @p1 b2 (callers only), b3; x and b in f1 and
	// f2; x in f3, g, h0 and h1.
	want.Loaded[runtime.MemParam] = 8*32 + 4*32 + 4*callers + 4*32 + 2*(4*32+4*32) + 4*32 + 4*callers + 4*half + 4*half
	// st.param: a1, a2, a3; a and r in f1 and f2; r in f3, in g (twice for the 8 that stay), h0, h1.
	want.Stored[runtime.MemParam] = 3*4*32 + 2*(2*4*32) + 4*32 + 4*callers + 4*rest + 4*half + 4*half
	want.Stored[runtime.MemGlobal] = 3 * 4 * 32
	statsEqual(t, st, want)
	// Every line that ran was issued once.
	if len(st.Lines) != int(want.Instructions) {
		t.Errorf("%d lines ran, want %d", len(st.Lines), want.Instructions)
	}
	statsCheckLines(t, &st, []statsLineWant{
		{"@call1", 1, 32}, {"@call2", 1, 32}, {"@ldb2", 1, 32}, {"@call3", 1, 32},
		{"@g1", 1, callers}, {"@g2", 1, callers}, {"@g3", 1, callers}, {"@g4", 1, callers},
		{"@g5", 1, rest}, {"@g6", 1, rest}, {"@g7", 1, rest},
	}, false)
	statsTotals(t, &st)
}

// TestStatsAccumulate: a Stats given to two launches holds the sum of their counts, the
// larger of their maxima, and the lines of both.
func TestStatsAccumulate(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, statsFile), func(t *testing.T) {
		one, _ := statsLaunch(t, "branch", 1, 32, 32)
		_, k := harness.SemKernel(t, statsFile, "branch")
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, 64, 0)
		var st runtime.Stats
		for range 2 {
			cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Stats: &st}
			if err := k.LaunchConfig(context.Background(), dev, cfg, out); err != nil {
				t.Fatal(err)
			}
		}
		if st.Instructions != 2*one.Instructions || st.LaneInstructions != 2*one.LaneInstructions ||
			st.DivergentBranches != 2*one.DivergentBranches || st.MaxStackDepth != one.MaxStackDepth {
			t.Errorf("two launches: %+v; one: %+v", st, one)
		}
		if len(st.Lines) != len(one.Lines) {
			t.Fatalf("%d lines, want %d", len(st.Lines), len(one.Lines))
		}
		for i, l := range st.Lines {
			if o := one.Lines[i]; l.Line != o.Line || l.Instructions != 2*o.Instructions || l.LaneInstructions != 2*o.LaneInstructions {
				t.Errorf("line %d: %+v, one launch %+v", l.Line, l, o)
			}
		}
	})
}
