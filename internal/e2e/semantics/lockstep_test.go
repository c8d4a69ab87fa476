package semantics_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// lockstepCase is one launch of a kernel of lockstep.ptx: its output buffers (u32, filled
// with the sentinel and passed first), its other arguments, and what it must do.
type lockstepCase struct {
	name, kernel string
	grid, block  uint32
	bufs         []int
	args         []any
	sched        runtime.Sched
	maxBlocks    uint64
	// fault is the kind of fault the launch must end in, 0 for none.
	fault runtime.FaultKind
	// want, where set, computes the buffers' expected contents in plain Go.
	want func(bufs [][]uint32)
}

// lockstepRun is what one launch left: the buffers, the error and the statistics.
type lockstepRun struct {
	bufs  [][]uint32
	err   error
	stats runtime.Stats
}

// run launches c on mod with one worker, collecting statistics when stats is set.
func (c *lockstepCase) run(t *testing.T, mod *ptx2go.Module, stats bool) lockstepRun {
	t.Helper()
	k, err := mod.Kernel(c.kernel)
	if err != nil {
		t.Fatal(err)
	}
	dev := runtime.NewDevice()
	var ptrs []runtime.Ptr
	var args []any
	for _, n := range c.bufs {
		p := harness.SemFilled(t, dev, n, harness.SemSentinel)
		ptrs = append(ptrs, p)
		args = append(args, p)
	}
	var r lockstepRun
	cfg := runtime.LaunchConfig{Grid: runtime.D1(c.grid), Block: runtime.D1(c.block), Workers: 1, Sched: c.sched, MaxWarpBlocks: c.maxBlocks}
	if stats {
		cfg.Stats = &r.stats
	}
	r.err = k.LaunchConfig(context.Background(), dev, cfg, append(args, c.args...)...)
	for i, p := range ptrs {
		r.bufs = append(r.bufs, harness.SemDownload(t, dev, p, c.bufs[i]))
	}
	return r
}

// sentinels returns n sentinel values.
func sentinels(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = harness.SemSentinel
	}
	return s
}

// TestLockstepBarriers runs the kernels of lockstep.ptx on both engines. Without statistics
// CTAs run in lockstep passes where they can (runtime/barrier.go) and fall back to CTA.run's
// general loop where they cannot (a barrier with a thread count, bar.arrive, bar.red, a
// barrier in divergent code, warps at different barriers, lanes that returned early, a time
// slice ending inside a region, a fault), and a CTA whose last warp finishes there or in the
// general loop (tail); with statistics they always run the general loop.
// Each launch must leave the same memory and the same fault (kind, line, CTA, thread and
// detail) on both engines and with and without statistics, the same statistics on both
// engines, and the results plain Go computes.
func TestLockstepBarriers(t *testing.T) {
	closure, err := ptx2go.CompileFile(filepath.Join(harness.SemDir, "lockstep.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	gen, err := ptx2go.Load(harness.GoModule(t, "semantics/lockstep"))
	if err != nil {
		t.Fatal(err)
	}
	tree := func(grid, live int) func([][]uint32) {
		return func(bufs [][]uint32) {
			bufs[0], bufs[1] = sentinels(grid), sentinels(grid*256)
			for c := range grid {
				sum := uint32(0)
				for tid := range live {
					sum += uint32(c*1000 + tid)
					bufs[1][c*256+tid] = uint32(c*1000 + (tid+1)%live)
				}
				bufs[0][c] = sum
			}
		}
	}
	tail := func(live, iters int) func([][]uint32) {
		return func(bufs [][]uint32) {
			bufs[0] = sentinels(128)
			for tid := range live {
				x := uint32(3 * tid)
				for i := 0; tid >= 96 && i < iters; i++ {
					x = x*5 + uint32(i)
				}
				bufs[0][tid] = x
			}
		}
	}
	cases := []lockstepCase{
		{name: "tree/full", kernel: "tree", grid: 3, block: 256, bufs: []int{3, 3 * 256}, args: []any{uint32(256)}, want: tree(3, 256)},
		{name: "tree/exited_warps", kernel: "tree", grid: 3, block: 256, bufs: []int{3, 3 * 256}, args: []any{uint32(64)}, want: tree(3, 64)},
		{name: "tree/exited_warps_and_lanes", kernel: "tree", grid: 3, block: 256, bufs: []int{3, 3 * 256}, args: []any{uint32(100)}, want: tree(3, 100)},
		{name: "tree/one_thread", kernel: "tree", grid: 2, block: 256, bufs: []int{2, 2 * 256}, args: []any{uint32(1)}, want: tree(2, 1)},
		{name: "tree/partial_warp", kernel: "tree", grid: 2, block: 200, bufs: []int{2, 2 * 256}, args: []any{uint32(200)}, want: tree(2, 200)},
		{name: "regbar/register", kernel: "regbar", grid: 2, block: 128, bufs: []int{128}, args: []any{uint32(5), uint32(0)},
			want: func(bufs [][]uint32) {
				for tid := range 128 {
					bufs[0][tid] = uint32(3 * ((tid + 32) % 128))
				}
			}},
		{name: "regbar/two_barriers_deadlock", kernel: "regbar", grid: 2, block: 128, bufs: []int{128}, args: []any{uint32(5), uint32(1)}, fault: runtime.FaultDeadlock},
		{name: "regbar/out_of_range", kernel: "regbar", grid: 2, block: 128, bufs: []int{128}, args: []any{uint32(16), uint32(0)}, fault: runtime.FaultIllegal},
		{name: "partners", kernel: "partners", grid: 2, block: 128, bufs: []int{128},
			want: func(bufs [][]uint32) {
				for tid := range 128 {
					v := uint32(64 * 1000)
					if tid >= 64 {
						v += uint32(tid - 64 + 7)
					}
					bufs[0][tid] = v
				}
			}},
		{name: "divbar/its", kernel: "divbar", grid: 2, block: 64, bufs: []int{64}, sched: runtime.SchedITS},
		{name: "divbar/ipdom", kernel: "divbar", grid: 2, block: 64, bufs: []int{64}, sched: runtime.SchedIPDOM, fault: runtime.FaultDeadlock},
		{name: "slice", kernel: "slice", grid: 2, block: 96, bufs: []int{96}, args: []any{uint32(5000)},
			want: func(bufs [][]uint32) {
				for tid := range 96 {
					x := uint32(tid)
					for i := range uint32(5000) {
						x = x*5 + i
					}
					bufs[0][tid] = x + uint32((tid+1)%96)
				}
			}},
		{name: "slice/budget", kernel: "slice", grid: 2, block: 96, bufs: []int{96}, args: []any{uint32(5000)}, maxBlocks: 3000, fault: runtime.FaultBudget},
		{name: "oob", kernel: "oob", grid: 2, block: 128, bufs: []int{80}, args: []any{uint32(80)}, fault: runtime.FaultOutOfBounds},
		{name: "tail/lockstep", kernel: "tail", grid: 3, block: 128, bufs: []int{128}, args: []any{uint32(128), uint32(7)}, want: tail(128, 7)},
		{name: "tail/lanes_returned", kernel: "tail", grid: 3, block: 128, bufs: []int{128}, args: []any{uint32(100), uint32(7)}, want: tail(100, 7)},
		{name: "tail/warps_returned", kernel: "tail", grid: 3, block: 128, bufs: []int{128}, args: []any{uint32(64), uint32(7)}, want: tail(64, 7)},
		{name: "tail/slice", kernel: "tail", grid: 3, block: 128, bufs: []int{128}, args: []any{uint32(128), uint32(5000)}, want: tail(128, 5000)},
		{name: "tail/budget", kernel: "tail", grid: 3, block: 128, bufs: []int{128}, args: []any{uint32(128), uint32(5000)}, maxBlocks: 3000, fault: runtime.FaultBudget},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var general lockstepRun // the closure engine's, with statistics
			for _, stats := range []bool{true, false} {
				cl, g := c.run(t, closure, stats), c.run(t, gen, stats)
				if stats {
					general = cl
				}
				where := fmt.Sprintf("statistics %v", stats)
				if fmt.Sprint(cl.err) != fmt.Sprint(g.err) {
					t.Fatalf("%s: closure engine: %v; Go source engine: %v", where, cl.err, g.err)
				}
				var f *runtime.Fault
				switch {
				case c.fault == 0 && cl.err != nil:
					t.Fatalf("%s: %v", where, cl.err)
				case c.fault != 0 && (!errors.As(cl.err, &f) || f.Kind != c.fault):
					t.Fatalf("%s: launch returned %v, want a %v fault", where, cl.err, c.fault)
				}
				if fmt.Sprint(cl.err) != fmt.Sprint(general.err) {
					t.Fatalf("%s: %v; with statistics: %v", where, cl.err, general.err)
				}
				for i := range cl.bufs {
					if !slices.Equal(cl.bufs[i], g.bufs[i]) {
						t.Fatalf("%s: buffer %d differs between the engines:\nclosure %v\ngo      %v", where, i, cl.bufs[i], g.bufs[i])
					}
					if !slices.Equal(cl.bufs[i], general.bufs[i]) {
						t.Fatalf("%s: buffer %d differs from the run with statistics:\n%v\n%v", where, i, cl.bufs[i], general.bufs[i])
					}
				}
				if stats && !reflect.DeepEqual(cl.stats, g.stats) {
					t.Fatalf("statistics differ:\nclosure %+v\ngo      %+v", cl.stats, g.stats)
				}
				if c.want != nil {
					want := make([][]uint32, len(c.bufs))
					for i, n := range c.bufs {
						want[i] = make([]uint32, n)
					}
					c.want(want)
					for i := range want {
						if !slices.Equal(cl.bufs[i], want[i]) {
							t.Fatalf("%s: buffer %d = %v, want %v", where, i, cl.bufs[i], want[i])
						}
					}
				}
			}
		})
	}
}
