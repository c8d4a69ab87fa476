package faults_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// ptxMarkLoc is the file:line of the line of a testdata/ptx file marked // FAULT marker.
func ptxMarkLoc(t *testing.T, file, marker string) string {
	t.Helper()
	path := "testdata/ptx/" + file
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	for i, line := range strings.Split(string(src), "\n") {
		if _, rest, ok := strings.Cut(line, "// FAULT "); ok && strings.TrimSpace(rest) == marker {
			return fmt.Sprintf("%s:%d", path, i+1)
		}
	}
	t.Fatalf("%s: no line marked // FAULT %s", path, marker)
	return ""
}

// TestLaneFaultsGenerated checks the faults of loads and stores that the Go source back end
// runs inside one lane loop (lane_faults.ptx): whichever order it runs lanes in, the fault is
// the one lockstep execution reports first (the first instruction any lane faults at, its
// lowest lane), with the same memory written before it, on both engines.
func TestLaneFaultsGenerated(t *testing.T) {
	gen, err := ptx2go.Load(harness.GoModule(t, "lane_faults"))
	require.NoError(t, err)
	closure, err := ptx2go.CompileFile("testdata/ptx/lane_faults.ptx")
	require.NoError(t, err)
	const file = "lane_faults.ptx"
	for _, c := range []struct {
		name       string
		na, nb, no int // elements of a, b and out (two_loads)
		threads    int
		misalign   bool // pass a+2 as a
		want       string
		lane       int
		at         func(a, b, out runtime.Ptr) uint64
		kind       runtime.FaultKind
	}{
		// Lanes 20.. fault at the load of a, lanes 10.. at the load of b: a comes first.
		{name: "a_before_b", na: 20, nb: 10, no: 32, threads: 32, want: "load a", lane: 20,
			at: func(a, b, out runtime.Ptr) uint64 { return uint64(a) + 80 }, kind: runtime.FaultOutOfBounds},
		{name: "b", na: 32, nb: 10, no: 32, threads: 32, want: "load b", lane: 10,
			at: func(a, b, out runtime.Ptr) uint64 { return uint64(b) + 40 }, kind: runtime.FaultOutOfBounds},
		// A partial warp: lanes 24.. do not exist.
		{name: "partial_warp", na: 22, nb: 3, no: 24, threads: 24, want: "load a", lane: 22,
			at: func(a, b, out runtime.Ptr) uint64 { return uint64(a) + 88 }, kind: runtime.FaultOutOfBounds},
		{name: "misaligned", na: 40, nb: 1, no: 32, threads: 32, misalign: true, want: "load a", lane: 0,
			at: func(a, b, out runtime.Ptr) uint64 { return uint64(a) + 2 }, kind: runtime.FaultMisaligned},
		// The store faults at lane 5 after lanes 0-4 stored.
		{name: "store", na: 32, nb: 32, no: 5, threads: 32, want: "store out", lane: 5,
			at: func(a, b, out runtime.Ptr) uint64 { return uint64(out) + 20 }, kind: runtime.FaultOutOfBounds},
	} {
		t.Run(c.name, func(t *testing.T) {
			var outs [][]uint32
			for _, mod := range []*ptx2go.Module{closure, gen} {
				k, err := mod.Kernel("two_loads")
				require.NoError(t, err)
				dev := runtime.NewDevice()
				av, bv := make([]uint32, c.na), make([]uint32, c.nb)
				for i := range av {
					av[i] = uint32(1000 + i)
				}
				for i := range bv {
					bv[i] = uint32(7 * i)
				}
				a, err := runtime.Upload(dev, av)
				require.NoError(t, err)
				b, err := runtime.Upload(dev, bv)
				require.NoError(t, err)
				out, err := dev.Malloc(4 * c.no)
				require.NoError(t, err)
				pa := a
				if c.misalign {
					pa += 2
				}
				err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(uint32(c.threads)), Workers: 1}, pa, b, out)
				harness.CheckFault(t, err, harness.FaultWant{Kind: c.kind, Kernel: "two_loads", Loc: ptxMarkLoc(t, file, c.want),
					Thread: runtime.Dim3{X: uint32(c.lane)}, HasAddr: true, Addr: c.at(a, b, out), Space: "global"})
				got := make([]uint32, c.no)
				require.NoError(t, runtime.Download(dev, got, out))
				outs = append(outs, got)
			}
			if c.want == "store out" {
				for i := range c.no {
					require.Equal(t, uint32(1000+i+7*i), outs[1][i], "out[%d]", i)
				}
			} else {
				require.Equal(t, make([]uint32, c.no), outs[1], "a lane faulted before any store")
			}
			require.Equal(t, outs[0], outs[1])
		})
	}
	// shared_loads with stride 2: lanes 16.. fault at s[i], lanes ..15 at s[j]: s[i] comes first.
	for _, mod := range []*ptx2go.Module{closure, gen} {
		k, err := mod.Kernel("shared_loads")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 32)
		require.NoError(t, err)
		err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1}, out, uint32(2))
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultOutOfBounds, Kernel: "shared_loads", Loc: ptxMarkLoc(t, file, "load s[i]"),
			Thread: runtime.Dim3{X: 16}, HasAddr: true, Addr: 128, Space: "shared"})
		var f *runtime.Fault
		require.True(t, errors.As(err, &f))
	}
}

// TestLaneRegionsGenerated runs loops that the Go source back end runs lane by lane (a per-lane
// region, codegen/gosrc/region.go) on both engines: lanes whose loop outlasts the region's
// bound finish on the SIMT stack with the right result, and lanes that never leave it end at
// the launch's block budget or its cancellation instead of hanging.
func TestLaneRegionsGenerated(t *testing.T) {
	gen, err := ptx2go.Load(harness.GoModule(t, "lane_faults"))
	require.NoError(t, err)
	closure, err := ptx2go.CompileFile("testdata/ptx/lane_faults.ptx")
	require.NoError(t, err)
	const per = 3000 // lane 31 loops 93000 times, beyond 2^16 blocks
	for _, mod := range []*ptx2go.Module{closure, gen} {
		k, err := mod.Kernel("long_loop")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 32)
		require.NoError(t, err)
		require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1}, out, uint32(per)))
		got := make([]uint32, 32)
		require.NoError(t, runtime.Download(dev, got, out))
		for i, g := range got {
			n := uint64(i * per)
			require.Equal(t, uint32(n*(n+1)/2), g, "out[%d]", i)
		}

		k, err = mod.Kernel("spin")
		require.NoError(t, err)
		err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1, MaxWarpBlocks: 1 << 20}, out, uint32(5))
		var f *runtime.Fault
		require.True(t, errors.As(err, &f), "spin with a block budget: %v", err)
		require.Equal(t, runtime.FaultBudget, f.Kind)
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		err = k.LaunchConfig(ctx, dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32), Workers: 1}, out, uint32(5))
		cancel()
		require.True(t, errors.As(err, &f), "spin with a timeout: %v", err)
		require.Equal(t, runtime.FaultCancelled, f.Kind)
	}
}
