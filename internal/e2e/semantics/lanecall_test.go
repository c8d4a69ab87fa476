package semantics_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// laneCallsPath holds the kernels of the per-lane call tests: on the Go source engine its
// functions steps, next, depth and count run per lane (codegen/gosrc/lanefn.go, and
// runtime.Warp.CallLanes), neighbor (a shuffle) and keep (a store) on the SIMT stack.
const laneCallsPath = "testdata/ptx/hand/lane_calls.ptx"

// laneCallsRun launches kernel name of lane_calls.ptx on grid CTAs of block threads with
// inputs in, and returns the launch's error and its n words of output.
func laneCallsRun(t *testing.T, ctx context.Context, cfg runtime.LaunchConfig, name string, in []uint32, n int) (error, []uint32) {
	t.Helper()
	mod, err := harness.LoadModule(t, laneCallsPath)
	require.NoError(t, err)
	k, err := mod.Kernel(name)
	require.NoError(t, err)
	dev := runtime.NewDevice()
	pin, err := runtime.Upload(dev, in)
	require.NoError(t, err)
	pout := harness.SemFilled(t, dev, n, harness.SemSentinel)
	err = k.LaunchConfig(ctx, dev, cfg, pout, pin)
	return err, harness.SemDownload(t, dev, pout, n)
}

// collatzSteps is the number of Collatz steps from x down to 1.
func collatzSteps(x uint64) uint32 {
	n := uint32(0)
	for x > 1 {
		if x&1 == 0 {
			x >>= 1
		} else {
			x = 3*x + 1
		}
		n++
	}
	return n
}

// TestLaneCallsMixed runs per-lane calls (a loop calling a function, behind a divergent
// branch) next to calls that must stay on the SIMT stack (a shuffle, a store) on both
// engines against a Go reference, and with statistics, which run every call on the SIMT
// stack, the same counts on both engines.
func TestLaneCallsMixed(t *testing.T) {
	const grid, block = 3, 64
	const n = grid * block
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i*97%1000 + 1)
	}
	want := make([]uint32, 3*n)
	steps := make([]uint32, n)
	for i, x := range in {
		if x%3 != 0 {
			steps[i] = collatzSteps(uint64(x))
		}
	}
	for i, x := range in {
		want[3*i], want[3*i+1], want[3*i+2] = steps[i], steps[i^1], steps[i]+x
	}
	stats := map[string]*runtime.Stats{}
	harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
		cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
		err, got := laneCallsRun(t, t.Context(), cfg, "mixed", in, 3*n)
		require.NoError(t, err)
		require.Equal(t, want, got)
		cfg.Stats, cfg.Workers = &runtime.Stats{}, 1
		err, got = laneCallsRun(t, t.Context(), cfg, "mixed", in, 3*n)
		require.NoError(t, err)
		require.Equal(t, want, got)
		stats[t.Name()] = cfg.Stats
	})
	if len(stats) == 2 {
		var s []*runtime.Stats
		for _, v := range stats {
			s = append(s, v)
		}
		require.Equal(t, *s[0], *s[1], "statistics of the two engines")
	}
}

// TestLaneCallsStackOverflow recurses 200 calls deep in every thread but one, which
// recurses 5000 calls deep, past the default call depth: both engines report the stack
// overflow at depth's call for that thread, the per-lane calls of the others having run
// before it (the Go source engine leaves the call to the SIMT stack, which faults).
func TestLaneCallsStackOverflow(t *testing.T) {
	const grid, block, bad = 2, 64, 77
	in := make([]uint32, grid*block)
	for i := range in {
		in[i] = uint32(200 - i%7)
	}
	harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
		cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
		err, got := laneCallsRun(t, t.Context(), cfg, "deep", in, len(in))
		require.NoError(t, err)
		require.Equal(t, in, got)
		deep := append([]uint32(nil), in...)
		deep[bad] = 5000
		err, _ = laneCallsRun(t, t.Context(), cfg, "deep", deep, len(in))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultStackOverflow, Kernel: "deep", Func: "depth", Loc: harness.FaultLocIn(t, laneCallsPath, "depth"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
		})
	})
}

// countRef is count(n) of lane_calls.ptx.
func countRef(n uint32) uint32 {
	h := uint32(7)
	for i := uint32(1); i <= n; i++ {
		h = h*31 + i
	}
	return h
}

// TestLaneCallsLongLoop runs a call whose loop runs longer than a per-lane call may
// (runtime.LaneSteps) in one thread: the Go source engine runs that call on the SIMT stack,
// with the same results. A call that never ends in one thread stops at the launch's deadline
// on both engines, with the same cancellation fault.
func TestLaneCallsLongLoop(t *testing.T) {
	const grid, block, bad = 2, 64, 100
	in := make([]uint32, grid*block)
	for i := range in {
		in[i] = uint32(i % 50)
	}
	in[bad] = runtime.LaneSteps + 1000
	want := make([]uint32, len(in))
	for i, x := range in {
		want[i] = countRef(x)
	}
	faults := map[string]*runtime.Fault{}
	harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
		cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
		err, got := laneCallsRun(t, t.Context(), cfg, "spin", in, len(in))
		require.NoError(t, err)
		require.Equal(t, want, got)
		endless := append([]uint32(nil), in...)
		endless[bad] = 0xffffffff
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		err, _ = laneCallsRun(t, ctx, cfg, "spin", endless, len(in))
		require.Less(t, time.Since(start), 20*time.Second, "the cancelled launch took too long to stop")
		require.ErrorIs(t, err, context.DeadlineExceeded)
		var f *runtime.Fault
		require.True(t, errors.As(err, &f), "%v is not a fault", err)
		require.Equal(t, runtime.FaultCancelled, f.Kind)
		faults[t.Name()] = f
	})
	if len(faults) == 2 {
		var fs []*runtime.Fault
		for _, f := range faults {
			fs = append(fs, f)
		}
		a, b := fs[0], fs[1]
		require.Equal(t, []any{a.Kind, a.Func, a.Loc, a.CTA, a.Thread}, []any{b.Kind, b.Func, b.Loc, b.CTA, b.Thread}, "the engines' faults: %v and %v", a, b)
	}
}
