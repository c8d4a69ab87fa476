package closure_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/closure"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// laneFallbacks holds the kernels of the per-lane call tests (see its header).
const laneFallbacks = "../../testdata/ptx/lane_fallbacks.ptx"

// TestPerLaneMarks checks which functions of lane_fallbacks.ptx the closure engine runs per
// lane (runtime.Func.PerLane): the lane-independent ones, not the one with a shuffle or the
// one with a store, and no kernel.
func TestPerLaneMarks(t *testing.T) {
	checkPerLane(t, laneFallbacks, "peek", "down", "spin")
}

// checkPerLane requires the functions of the PTX file at path that run per lane to be names.
func checkPerLane(t *testing.T, path string, names ...string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ast, err := frontend.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ssa.Build(ast)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := closure.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range mod.Funcs {
		if got := fn.PerLane != nil; got != slices.Contains(names, fn.Name) {
			t.Errorf("%s: per lane is %v", fn.Name, got)
		}
	}
}

// laneRun is one launch of a kernel of lane_fallbacks.ptx: its error and output words.
type laneRun struct {
	err error
	out []uint32
}

// runLanes launches kernel name on 2 CTAs of 64 threads with inputs in, one worker, and with
// statistics when stats is set: those launches run every call on the SIMT stack, so they
// are what the per-lane calls must match.
func runLanes(t *testing.T, ctx context.Context, name string, in []uint32, depth int, stats bool) laneRun {
	t.Helper()
	mod, err := ptx2go.CompileFile(laneFallbacks)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	dev := runtime.NewDevice()
	pin, err := runtime.Upload(dev, in)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, 2*len(in))
	pout, err := runtime.Upload(dev, out)
	if err != nil {
		t.Fatal(err)
	}
	cfg := runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(uint32(len(in) / 2)), Workers: 1, MaxCallDepth: depth}
	if stats {
		cfg.Stats = &runtime.Stats{}
	}
	r := laneRun{err: k.LaunchConfig(ctx, dev, cfg, pout, pin)}
	if err := runtime.Download(dev, out, pout); err != nil {
		t.Fatal(err)
	}
	r.out = out
	return r
}

// sameFault requires a and b to be the same fault: kind, function, PTX line, CTA and thread.
func sameFault(t *testing.T, a, b error) *runtime.Fault {
	t.Helper()
	var fa, fb *runtime.Fault
	if !errors.As(a, &fa) || !errors.As(b, &fb) {
		t.Fatalf("want two faults, got %v and %v", a, b)
	}
	if fa.Kind != fb.Kind || fa.Func != fb.Func || fa.Loc != fb.Loc || fa.CTA != fb.CTA || fa.Thread != fb.Thread {
		t.Fatalf("per lane: %v\nSIMT stack: %v", fa, fb)
	}
	return fa
}

// TestPerLaneFallbacks checks each case where a per-lane call gives the call back to the SIMT
// stack, against a launch with statistics (all on the stack): a lane that faults (the same
// fault, lane and line), recursion past the call depth (the same stack overflow), and the
// calls that do not qualify (a shuffle, a store), whose results also match Go.
func TestPerLaneFallbacks(t *testing.T) {
	const n = 128
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i * 7 % 13)
	}
	both := func(name string, in []uint32, depth int) (laneRun, laneRun) {
		return runLanes(t, t.Context(), name, in, depth, false), runLanes(t, t.Context(), name, in, depth, true)
	}
	t.Run("fault", func(t *testing.T) {
		lane, stack := both("peeks", in, 0)
		f := sameFault(t, lane.err, stack.err)
		if f.Kind != runtime.FaultOutOfBounds || f.Func != "peek" {
			t.Fatalf("fault %v, want peek's out-of-bounds read", f)
		}
		if !slices.Equal(lane.out, stack.out) {
			t.Fatal("memory differs after the fault")
		}
	})
	t.Run("depth", func(t *testing.T) {
		lane, stack := both("downs", in, 16)
		if lane.err != nil || stack.err != nil {
			t.Fatalf("within the depth: %v, %v", lane.err, stack.err)
		}
		for i, x := range in {
			if lane.out[i] != x || stack.out[i] != x {
				t.Fatalf("down(%d) = %d per lane, %d on the stack", x, lane.out[i], stack.out[i])
			}
		}
		lane, stack = both("downs", in, 9)
		if f := sameFault(t, lane.err, stack.err); f.Kind != runtime.FaultStackOverflow || f.Func != "down" {
			t.Fatalf("fault %v, want down's stack overflow", f)
		}
		if !slices.Equal(lane.out, stack.out) {
			t.Fatal("memory differs after the fault")
		}
	})
	t.Run("not per lane", func(t *testing.T) {
		for _, name := range []string{"swaps", "notes"} {
			lane, stack := both(name, in, 0)
			if lane.err != nil || stack.err != nil {
				t.Fatalf("%s: %v, %v", name, lane.err, stack.err)
			}
			if !slices.Equal(lane.out, stack.out) {
				t.Fatalf("%s: the results differ", name)
			}
			for i, x := range in {
				want := []uint32{x + in[i^1], 0}
				if name == "notes" {
					want = []uint32{5 * x, 5 * x}
				}
				if got := []uint32{lane.out[i], lane.out[n+i]}; got[0] != want[0] || got[1] != want[1] {
					t.Fatalf("%s: thread %d: %v, want %v", name, i, got, want)
				}
			}
		}
	})
}

// TestPerLaneEndless runs spin, per lane where every call returns, and with one lane that
// loops for ever: the per-lane call gives up and the SIMT stack runs it, whose time slices see
// the launch's deadline, so the launch stops with the cancellation fault in spin.
func TestPerLaneEndless(t *testing.T) {
	const n = 128
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i % 3)
	}
	r := runLanes(t, t.Context(), "spins", in, 0, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	for i, x := range in {
		if r.out[i] != x+1 {
			t.Fatalf("spin(%d) = %d", x, r.out[i])
		}
	}
	in[77] = 3
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r = runLanes(t, ctx, "spins", in, 0, false)
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the cancelled launch took %v to stop", d)
	}
	var f *runtime.Fault
	if !errors.As(r.err, &f) || f.Kind != runtime.FaultCancelled || f.Func != "spin" || f.Thread.X != 77-n/2 {
		t.Fatalf("got %v, want the cancellation fault in spin, thread %d of CTA 1", r.err, 77-n/2)
	}
}

// TestPerLaneOps runs mix of lane_ops.ptx, which has a per-lane form, on inputs with the edge
// cases of integer arithmetic (zero divisors, the most negative value, shifts past the width)
// and checks its results bit for bit against a launch with statistics, whose calls run on the
// SIMT stack with the lane loops.
func TestPerLaneOps(t *testing.T) {
	const path = "../../testdata/ptx/lane_ops.ptx"
	checkPerLane(t, path, "mix", "fold")
	mod, err := ptx2go.CompileFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("mixes")
	if err != nil {
		t.Fatal(err)
	}
	edges := []uint32{0, 1, 2, 3, 31, 32, 33, 64, 77, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 12345, 0x8000, 0xffff}
	in := make([]uint32, 256)
	seed := uint32(2463534242)
	for i := range in {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		in[i] = seed
		if i%3 == 0 {
			in[i] = edges[i/3%len(edges)]
		}
	}
	run := func(stats bool) []uint32 {
		dev := runtime.NewDevice()
		pin, err := runtime.Upload(dev, in)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]uint32, 2*len(in))
		pout, err := runtime.Upload(dev, out)
		if err != nil {
			t.Fatal(err)
		}
		cfg := runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(uint32(len(in) / 2)), Workers: 1}
		if stats {
			cfg.Stats = &runtime.Stats{}
		}
		if err := k.LaunchConfig(t.Context(), dev, cfg, pout, pin); err != nil {
			t.Fatal(err)
		}
		if err := runtime.Download(dev, out, pout); err != nil {
			t.Fatal(err)
		}
		return out
	}
	lane, stack := run(false), run(true)
	for i := 0; i < len(in); i++ {
		if lane[2*i] != stack[2*i] || lane[2*i+1] != stack[2*i+1] {
			t.Fatalf("mix(%#x, %#x): per lane %#x%08x, on the stack %#x%08x", in[i], in[i^1], lane[2*i+1], lane[2*i], stack[2*i+1], stack[2*i])
		}
	}
}
