package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// Per-lane calls that load and store the lane's local memory through a pointer (the
// functions advance, bump and store_each of lane_calls.ptx): the Go source engine runs them
// per lane (codegen/gosrc/lanelocal.go, runtime/lanelocal.go) and gives a call back to the
// SIMT stack, with local memory restored, where an address is not the lane's local memory or
// would fault; the closure engine runs them on the SIMT stack (layout.LaneFuncsLocal).

// stateRef is the output of lane_calls.ptx's state kernel for inputs in (x, o, g per thread)
// on an output buffer that held out (5 words per thread), where no offset o faults.
func stateRef(in, out []uint32) []uint32 {
	want := append([]uint32(nil), out...)
	for t := range len(in) / 3 {
		x, g := in[3*t], in[3*t+2]
		a, b, c := x, x^0x9e3779b9, uint32(0)
		acc := uint32(0)
		for range 4 {
			old := a
			a, b = b, b^old<<3^old>>5
			acc += b + old
		}
		target := &c
		if g != 0 {
			target = &want[5*t+4]
		}
		old := uint32(0)
		for range 3 {
			old += *target
			*target++
		}
		want[5*t], want[5*t+1], want[5*t+2], want[5*t+3] = acc, a, b, c+old
	}
	return want
}

// stateInputs are the inputs of the state kernel for n threads: seed x, pointer offset 0,
// and a global bump target for the threads global picks.
func stateInputs(n int, global func(t int) bool) []uint32 {
	in := make([]uint32, 3*n)
	for t := range n {
		in[3*t] = uint32(t)*0x2545f491 + 17
		if global(t) {
			in[3*t+2] = 1
		}
	}
	return in
}

// TestLaneLocalState runs calls that step a state in the caller's local memory through a
// pointer (ld/st.local) and bump a counter through a generic pointer, on both engines against
// a Go reference: with every pointer local (the calls run per lane on the Go source engine),
// and with some threads' bump pointer global, which the Go source engine's per-lane call
// gives back to the SIMT stack after the lanes before it stored: their stores undone, no
// lane's counter is bumped twice. With statistics (every call on the SIMT stack) both engines
// count the same.
func TestLaneLocalState(t *testing.T) {
	const grid, block = 2, 64
	const n = grid * block
	stats := map[string]*runtime.Stats{}
	harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
		for _, c := range []struct {
			name   string
			global func(t int) bool
		}{
			{"local", func(int) bool { return false }},
			{"some global", func(t int) bool { return t%7 == 3 }},
		} {
			in := stateInputs(n, c.global)
			want := stateRef(in, sentinels(5*n))
			cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
			err, got := laneCallsRun(t, t.Context(), cfg, "state", in, 5*n)
			require.NoError(t, err)
			require.Equal(t, want, got, c.name)
			cfg.Stats, cfg.Workers = &runtime.Stats{}, 1
			err, got = laneCallsRun(t, t.Context(), cfg, "state", in, 5*n)
			require.NoError(t, err)
			require.Equal(t, want, got, c.name+", with statistics")
			stats[t.Name()+"/"+c.name] = cfg.Stats
		}
	})
	for _, c := range []string{"local", "some global"} {
		a, b := stats["TestLaneLocalState/engine=closure/"+c], stats["TestLaneLocalState/engine=go/"+c]
		if a != nil && b != nil {
			require.Equal(t, *a, *b, "statistics of the two engines (%s)", c)
		}
	}
}

// TestLaneLocalFaults points one thread's state pointer out of its local memory, or to a
// misaligned address: both engines report the same fault, of that kind, at advance's load,
// for that thread (the Go source engine's per-lane call gives the call to the SIMT stack,
// which faults), with the same address.
func TestLaneLocalFaults(t *testing.T) {
	const grid, block, bad = 2, 64, 77
	for _, c := range []struct {
		name   string
		offset uint32
		kind   runtime.FaultKind
	}{
		{"out of bounds", 1 << 20, runtime.FaultOutOfBounds},
		{"misaligned", 4, runtime.FaultMisaligned},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := stateInputs(grid*block, func(int) bool { return false })
			in[3*bad+1] = c.offset
			faults := map[string]*runtime.Fault{}
			harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
				cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
				err, _ := laneCallsRun(t, t.Context(), cfg, "state", in, 5*grid*block)
				faults[t.Name()] = harness.CheckFault(t, err, harness.FaultWant{
					Kind: c.kind, Kernel: "state", Func: "advance", Loc: harness.FaultLocIn(t, laneCallsPath, "advance"),
					CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
				})
			})
			var fs []*runtime.Fault
			for _, f := range faults {
				if f != nil {
					fs = append(fs, f)
				}
			}
			if len(fs) == 2 {
				require.Equal(t, fs[0].Error(), fs[1].Error(), "the engines' faults")
			}
		})
	}
}

// fillRef is the output of lane_calls.ptx's fill kernel: w[i%4] = i for i < n, else 0.
func fillRef(in []uint32) []uint32 {
	want := make([]uint32, 4*len(in))
	for t, n := range in {
		for i := uint32(0); i < n; i++ {
			want[4*t+int(i%4)] = i
		}
	}
	return want
}

// TestLaneLocalManyStores runs calls that store their lane's local memory many times: a few
// stores each, more than the first log of saved stores holds for a warp (the Go source
// engine's per-lane call grows it and runs again), and more than it may ever hold in one
// warp (runtime's maxLaneUndo: the call goes to the SIMT stack), on both engines against a Go
// reference.
func TestLaneLocalManyStores(t *testing.T) {
	const grid, block = 2, 64
	for _, stores := range []uint32{3, 100, 3000} {
		in := make([]uint32, grid*block)
		for i := range in {
			in[i] = stores + uint32(i%5)
		}
		want := fillRef(in)
		harness.OnEngines(t, laneCallsPath, func(t *testing.T) {
			cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block)}
			err, got := laneCallsRun(t, t.Context(), cfg, "fill", in, len(want))
			require.NoError(t, err)
			require.Equal(t, want, got, "%d stores a thread", stores)
		})
	}
}
