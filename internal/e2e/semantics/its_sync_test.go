package semantics_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/codegen/reference"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// itsSyncPath holds the kernels of TestITSWarpSync.
const itsSyncPath = "testdata/ptx/semantics/its_sync.ptx"

// itsSyncSentinel fills the output buffers, so that the words of threads that exit early stay
// recognisable.
const itsSyncSentinel = 0xdeadbeef

// itsSyncCase is one kernel of its_sync.ptx with its launch and Go reference.
type itsSyncCase struct {
	kernel string
	words  int                  // output words per thread
	want   func(t int) []uint32 // thread t's words, from its CTA's view (t < block)
	// noReference says the reference interpreter does not run the kernel (bar.warp.sync).
	noReference bool
}

// itsSyncBlock is the CTA size of every case: two full warps.
const itsSyncBlock = 64

var itsSyncCases = []itsSyncCase{
	{kernel: "barloop_vote", words: 6, want: func(t int) []uint32 {
		w, lane := t/32, t%32
		var ballot uint32
		for l := range 32 {
			if (32*w+l)%3 == 0 {
				ballot |= 1 << l
			}
		}
		any, all := uint32(0), uint32(1)
		if w == 1 {
			any = 1 // thread 40
		} else {
			all = 0 // thread 7
		}
		val := func(l int) uint32 { return uint32(3*(32*w+l) + 1) }
		return []uint32{ballot, any, all, val(lane ^ 5), val(7 * lane & 31), 3}
	}},
	{kernel: "barloop_syncwarp", words: 1, noReference: true, want: func(t int) []uint32 {
		return []uint32{uint32(3*(t^1) + 1)}
	}},
	{kernel: "barloop_exit", words: 2, want: func(t int) []uint32 {
		w, lane := t/32, t%32
		if lane&3 == 3 {
			return []uint32{itsSyncSentinel, itsSyncSentinel}
		}
		var ballot uint32
		for l := range 32 {
			if l&3 != 3 && (32*w+l)%3 == 0 {
				ballot |= 1 << l
			}
		}
		down := uint32(3*(t+1) + 1)
		if lane&3 == 2 {
			down = 0 // lane+1 exited: in range, not executing
		}
		return []uint32{ballot, down}
	}},
}

// itsSyncConfigs are the launches each case runs: with and without statistics (which turn
// the lockstep passes off) and without predication, one worker and several.
var itsSyncConfigs = []struct {
	name string
	cfg  func() runtime.LaunchConfig
}{
	{"plain", func() runtime.LaunchConfig { return runtime.LaunchConfig{} }},
	{"stats", func() runtime.LaunchConfig { return runtime.LaunchConfig{Workers: 1, Stats: &runtime.Stats{}} }},
	{"nopred", func() runtime.LaunchConfig { return runtime.LaunchConfig{Workers: 1, NoPredication: true} }},
}

// TestITSWarpSync runs testdata/ptx/semantics/its_sync.ptx under independent thread
// scheduling on both engines and the reference interpreter, against Go references: after
// barrier loops whose trip count differs per thread, the lanes of a warp reach vote.sync,
// shfl.sync and bar.warp.sync with the full membermask on different paths, and the
// instruction waits for the lanes on the other paths instead of faulting (FuzzSIMT seed
// 1191). In barloop_exit the last lane a warp waits for exits inside a call, which must
// release the lanes waiting in the caller together, and the exited lane takes no part.
// vote_deadlock's named lanes wait at a barrier for the voting lanes: a deadlock fault, not a
// hang, the same from every engine. The engines' statistics must agree.
func TestITSWarpSync(t *testing.T) {
	const grid = 2
	stats := map[string]*runtime.Stats{} // each kernel's statistics on the first engine
	harness.OnEngines(t, itsSyncPath, func(t *testing.T) {
		mod, err := harness.LoadModule(t, itsSyncPath)
		require.NoError(t, err)
		for _, c := range itsSyncCases {
			for _, lc := range itsSyncConfigs {
				t.Run(c.kernel+"/"+lc.name, func(t *testing.T) {
					k, err := mod.Kernel(c.kernel)
					require.NoError(t, err)
					dev := runtime.NewDevice()
					out := itsSyncOut(t, dev, grid*itsSyncBlock*c.words)
					cfg := lc.cfg()
					cfg.Grid, cfg.Block, cfg.Sched = runtime.D1(grid), runtime.D1(itsSyncBlock), runtime.SchedITS
					require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, out))
					itsSyncCheck(t, c, grid, itsSyncDownload(t, dev, out, grid*itsSyncBlock*c.words))
					if cfg.Stats == nil {
						return
					}
					if first, ok := stats[c.kernel]; ok {
						require.Equal(t, first, cfg.Stats, "the engines' statistics differ")
					} else {
						stats[c.kernel] = cfg.Stats
					}
				})
			}
		}
		t.Run("vote_deadlock", func(t *testing.T) {
			k, err := mod.Kernel("vote_deadlock")
			require.NoError(t, err)
			for _, lc := range itsSyncConfigs {
				dev := runtime.NewDevice()
				out := itsSyncOut(t, dev, 1)
				cfg := lc.cfg()
				cfg.Grid, cfg.Block, cfg.Sched = runtime.D1(1), runtime.D1(32), runtime.SchedITS
				err = k.LaunchConfig(t.Context(), dev, cfg, out)
				f := harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultDeadlock, Kernel: "vote_deadlock",
					Loc: harness.FaultLocIn(t, itsSyncPath, "barrier"), Thread: runtime.Dim3{X: 16}})
				require.Equal(t, "barrier 0 has 16 of 32 threads (waiting warps 0)", f.Detail, lc.name)
			}
		})
	})
	t.Run("reference", func(t *testing.T) {
		prog := itsSyncProgram(t)
		for _, c := range itsSyncCases {
			if c.noReference {
				continue
			}
			dev := runtime.NewDevice()
			out := itsSyncOut(t, dev, grid*itsSyncBlock*c.words)
			require.NoError(t, itsSyncReference(t.Context(), dev, prog, c.kernel, grid, itsSyncBlock, out), c.kernel)
			itsSyncCheck(t, c, grid, itsSyncDownload(t, dev, out, grid*itsSyncBlock*c.words))
		}
		dev := runtime.NewDevice()
		err := itsSyncReference(t.Context(), dev, prog, "vote_deadlock", 1, 32, itsSyncOut(t, dev, 1))
		var re *reference.Error
		require.True(t, errors.As(err, &re), "want the reference's deadlock, got %v", err)
		require.Contains(t, re.Msg, "names lanes that never reach it", "%v", err)
	})
}

// itsSyncCheck compares the output of case c over grid CTAs with its Go reference and names
// the first thread whose words differ.
func itsSyncCheck(t *testing.T, c itsSyncCase, grid int, got []uint32) {
	t.Helper()
	for g := range grid * itsSyncBlock {
		want := c.want(g % itsSyncBlock)
		if have := got[g*c.words : (g+1)*c.words]; !slices.Equal(have, want) {
			t.Fatalf("%s: thread %d of CTA %d wrote %#x, want %#x", c.kernel, g%itsSyncBlock, g/itsSyncBlock, have, want)
		}
	}
}

// itsSyncOut allocates an output buffer of n words filled with the sentinel.
func itsSyncOut(t *testing.T, dev *runtime.Device, n int) runtime.Ptr {
	init := make([]uint32, n)
	for i := range init {
		init[i] = itsSyncSentinel
	}
	p, err := runtime.Upload(dev, init)
	require.NoError(t, err)
	return p
}

// itsSyncDownload reads n words at p.
func itsSyncDownload(t *testing.T, dev *runtime.Device, p runtime.Ptr, n int) []uint32 {
	got := make([]uint32, n)
	require.NoError(t, runtime.Download(dev, got, p))
	return got
}

// itsSyncProgram is its_sync.ptx as the reference interpreter runs it.
func itsSyncProgram(t *testing.T) *ssa.Program {
	ast, err := frontend.Parse(itsSyncPath, []byte(harness.ReadFile(t, itsSyncPath)))
	require.NoError(t, err)
	prog, err := ssa.Build(ast)
	require.NoError(t, err)
	return prog
}

// itsSyncReference runs kernel on the reference interpreter with the one pointer argument out.
func itsSyncReference(ctx context.Context, dev *runtime.Device, prog *ssa.Program, kernel string, grid, block uint32, out runtime.Ptr) error {
	params := make([]byte, 8)
	for i := range 8 {
		params[i] = byte(uint64(out) >> (8 * i))
	}
	if err := reference.Launch(ctx, dev, prog, kernel, runtime.D1(grid), runtime.D1(block), params); err != nil {
		return fmt.Errorf("reference %s: %w", kernel, err)
	}
	return nil
}
