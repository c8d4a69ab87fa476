package sanitizer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/sanitizer/bugsclang"
	"github.com/ptx2go/ptx2go/internal/e2e/sanitizer/bugsgen"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestMain runs the tests from the repository root, so that PTX paths read as in the reports.
func TestMain(m *testing.M) {
	if err := os.Chdir("../../.."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// The kernels of testdata/sanitizer/bugs.cu, compiled by nvcc and by clang, each run on the
// closure engine (compiled with Options.Check) and on the Go source engine (the checked
// packages make sanitizer-ptx generates). Each bug must be reported as the kind of report the
// tool defines, naming the CUDA source lines of bugs.cu where the bug is (the .loc lines),
// and its corrected twin must report nothing. Both engines must give the same reports.

// engine is one way to get the checked module of a compiler's PTX.
type engine struct {
	name string
	load func(t *testing.T, ptx string) *ptx2go.Module
}

var engines = []engine{
	{"closure", func(t *testing.T, ptx string) *ptx2go.Module {
		src, err := os.ReadFile(ptx)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx2go.Compile(src, ptx2go.Options{File: ptx, Check: true})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}},
	{"go", func(t *testing.T, ptx string) *ptx2go.Module {
		rt := bugsgen.Module
		if strings.Contains(ptx, "clang") {
			rt = bugsclang.Module
		}
		m, err := ptx2go.Load(rt)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}},
}

var compilers = []string{"testdata/sanitizer/bugs.nvcc.ptx", "testdata/sanitizer/bugs.clang.ptx"}

// launch runs kernel with the tools on a fresh device whose checks are on from the start,
// with the arguments setup makes, one or four workers, and returns the reports.
func launch(t *testing.T, m *ptx2go.Module, kernel string, sched runtime.Sched, workers, grid, block int, setup func(d *ptx2go.Device) []any) []ptx2go.CheckReport {
	t.Helper()
	k, err := m.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	d := ptx2go.NewDevice()
	d.EnableChecks(ptx2go.CheckAll)
	args := setup(d)
	cfg := ptx2go.LaunchConfig{Grid: ptx2go.D1(uint32(grid)), Block: ptx2go.D1(uint32(block)), Check: ptx2go.CheckAll, Sched: sched, Workers: workers}
	err = k.LaunchConfig(context.Background(), d, cfg, args...)
	var ce *ptx2go.CheckError
	if errors.As(err, &ce) {
		return ce.Reports
	}
	if err != nil {
		t.Fatalf("%s: %v", kernel, err)
	}
	return nil
}

// buf uploads n zero float32s: memory written by the host, so initialized.
func buf(d *ptx2go.Device, n int) ptx2go.Ptr {
	p, err := ptx2go.Upload(d, make([]float32, n))
	if err != nil {
		panic(err)
	}
	return p
}

// want is a report expected: its kind and the bugs.cu lines of its accesses (prior first for a
// hazard; the one line of the others).
type want struct {
	kind  ptx2go.CheckKind
	lines []int
}

// summary is what the tests compare of a report: kind and source lines.
func summary(r ptx2go.CheckReport) want {
	line := func(src string) int {
		var n int
		if i := strings.LastIndexByte(src, ':'); i >= 0 {
			fmt.Sscan(src[i+1:], &n)
		}
		return n
	}
	w := want{kind: r.Kind}
	if r.Kind.Tool() == ptx2go.CheckRace {
		w.lines = append(w.lines, line(r.Prior.Src))
	}
	return want{kind: w.kind, lines: append(w.lines, line(r.Access.Src))}
}

// bugCase is one kernel, how to run it, and every report it must give (none for a correct one).
type bugCase struct {
	kernel      string
	sched       runtime.Sched
	grid, block int
	setup       func(d *ptx2go.Device) []any
	want        []want
}

func bufs(sizes ...int) func(d *ptx2go.Device) []any {
	return func(d *ptx2go.Device) []any {
		var out []any
		for _, n := range sizes {
			out = append(out, buf(d, n))
		}
		return out
	}
}

// The lines of testdata/sanitizer/bugs.cu.
const (
	lineReduceStore    = 13 // s[t] = in[...]
	lineReduceStep     = 16 // s[t] += s[t + stride]
	lineHist           = 101
	lineStencilStore   = 125
	lineStencilRead    = 130
	lineScaleRead      = 155
	lineSharedUninit   = 164
	lineSyncInIf       = 185 // the __syncthreads() inside the if
	lineShfl           = 207
	lineFlagRead       = 230 // out[0] = value
	lineFlagValue      = 232 // value = 42
	lineShimShflDown   = 33  // testdata/cuda/cuda_shim.h
	lineWarpStep16     = 47
	lineWarpStep8      = 48
	lineWarpStep4      = 49
	lineWarpStep2      = 50
	lineWarpStep1      = 51
	lineWarpStepOut    = 52
	histogramBins      = 16
	histogramDataBytes = 256
)

func cases() []bugCase {
	hist := func(d *ptx2go.Device) []any {
		data := make([]uint8, histogramDataBytes)
		for i := range data {
			data[i] = uint8(i * 7)
		}
		p, _ := ptx2go.Upload(d, data)
		return []any{p, buf(d, histogramBins), int32(histogramDataBytes)}
	}
	warpRAWWAR := func() []want {
		var ws []want
		steps := []int{lineWarpStep16, lineWarpStep8, lineWarpStep4, lineWarpStep2, lineWarpStep1, lineWarpStepOut}
		for i := 0; i+1 < len(steps); i++ {
			ws = append(ws, want{ptx2go.HazardRAW, []int{steps[i], steps[i+1]}}, want{ptx2go.HazardWAR, []int{steps[i+1], steps[i+1]}})
		}
		return ws
	}
	return []bugCase{
		{kernel: "reduce_missing_sync", grid: 2, block: 64, setup: bufs(128, 2), want: []want{
			{ptx2go.Uninitialized, []int{lineReduceStep}},
			{ptx2go.HazardWAR, []int{lineReduceStep, lineReduceStore}},
		}},
		{kernel: "reduce_ok", grid: 2, block: 64, setup: bufs(128, 2)},
		{kernel: "warp_reduce_nosync", block: 64, setup: bufs(64, 1), want: warpRAWWAR()},
		{kernel: "warp_reduce_nosync", sched: runtime.SchedIPDOM, block: 64, setup: bufs(64, 1)},
		{kernel: "warp_reduce_sync", block: 64, setup: bufs(64, 1)},
		{kernel: "warp_reduce_sync", sched: runtime.SchedIPDOM, block: 64, setup: bufs(64, 1)},
		{kernel: "histogram_plain", block: 64, setup: hist, want: []want{
			{ptx2go.HazardWAR, []int{lineHist, lineHist}},
			{ptx2go.HazardWAW, []int{lineHist, lineHist}},
			{ptx2go.HazardRAW, []int{lineHist, lineHist}},
		}},
		{kernel: "histogram_atomic", block: 64, setup: hist},
		{kernel: "stencil_early", grid: 2, block: 64, setup: func(d *ptx2go.Device) []any { return []any{buf(d, 128), buf(d, 128), int32(128)} }, want: []want{
			{ptx2go.HazardRAW, []int{lineStencilStore, lineStencilRead}},
			{ptx2go.Uninitialized, []int{lineStencilRead}},
			{ptx2go.HazardWAR, []int{lineStencilRead, lineStencilStore}},
		}},
		{kernel: "stencil_ok", grid: 2, block: 64, setup: func(d *ptx2go.Device) []any { return []any{buf(d, 128), buf(d, 128), int32(128)} }},
		{kernel: "scale", block: 64, setup: func(d *ptx2go.Device) []any {
			in, _ := d.Malloc(64 * 4) // fresh from Malloc: nothing wrote it
			return []any{in, buf(d, 64), float32(2), int32(64)}
		}, want: []want{{ptx2go.Uninitialized, []int{lineScaleRead}}}},
		{kernel: "scale", block: 64, setup: func(d *ptx2go.Device) []any {
			in, _ := d.Malloc(64 * 4)
			if err := d.Memset(in, 0, 64*4); err != nil {
				panic(err)
			}
			return []any{in, buf(d, 64), float32(2), int32(64)}
		}},
		{kernel: "shared_uninit", block: 64, setup: bufs(64, 64), want: []want{{ptx2go.Uninitialized, []int{lineSharedUninit}}}},
		{kernel: "shared_init", block: 64, setup: bufs(64, 64)},
		{kernel: "sync_in_if", block: 32, setup: bufs(64), want: []want{{ptx2go.SyncDivergent, []int{lineSyncInIf}}}},
		// Under ipdom the lanes after the if wait for the others' reconvergence: a deadlock too.
		{kernel: "sync_in_if", sched: runtime.SchedIPDOM, block: 32, setup: bufs(64), want: []want{{ptx2go.SyncDivergent, []int{lineSyncInIf}}, {ptx2go.SyncDeadlock, []int{lineSyncInIf}}}},
		{kernel: "sync_outside_if", block: 32, setup: bufs(64)},
		{kernel: "sync_outside_if", sched: runtime.SchedIPDOM, block: 32, setup: bufs(64)},
		{kernel: "shfl_bad_mask", block: 32, setup: bufs(32), want: []want{{ptx2go.SyncMask, []int{lineShfl}}}},
		{kernel: "shfl_bad_mask", sched: runtime.SchedIPDOM, block: 32, setup: bufs(32), want: []want{{ptx2go.SyncMask, []int{lineShfl}}}},
		{kernel: "shfl_good_mask", block: 32, setup: bufs(32)},
		{kernel: "shfl_good_mask", sched: runtime.SchedIPDOM, block: 32, setup: bufs(32)},
		// A fence and then a strong store release: the flag hands the value over. Without the
		// fence the value's store and load race.
		{kernel: "flag_nofence", block: 64, setup: bufs(1), want: []want{{ptx2go.HazardRAW, []int{lineFlagValue, lineFlagRead}}}},
		{kernel: "flag_fence", block: 64, setup: bufs(1)},
	}
}

func TestBugs(t *testing.T) {
	for _, ptx := range compilers {
		for _, c := range cases() {
			name := fmt.Sprintf("%s/%s/sched=%s", ptx[strings.LastIndexByte(ptx, '/')+1:], c.kernel, c.sched)
			t.Run(name, func(t *testing.T) {
				var first []ptx2go.CheckReport
				for _, e := range engines {
					for _, workers := range []int{1, 4} {
						m := e.load(t, ptx)
						rs := launch(t, m, c.kernel, c.sched, workers, max(c.grid, 1), c.block, c.setup)
						var got []want
						for _, r := range rs {
							got = append(got, summary(r))
						}
						for _, w := range c.want {
							if strings.Contains(ptx, "clang") && w.kind == ptx2go.SyncMask {
								// clang's PTX 7.5 .loc has no inlined_at: the line is the shuffle's
								// wrapper in testdata/cuda/cuda_shim.h, not its call.
								w.lines = []int{lineShimShflDown}
							}
							if !slices.ContainsFunc(got, func(g want) bool { return g.kind == w.kind && slices.Equal(g.lines, w.lines) }) {
								t.Errorf("engine=%s workers=%d: no %s at bugs.cu lines %v; got %v", e.name, workers, w.kind, w.lines, got)
							}
						}
						if len(c.want) == 0 && len(rs) > 0 {
							t.Errorf("engine=%s workers=%d: the correct kernel reports %v", e.name, workers, got)
						}
						if first == nil {
							first = rs
						} else if !slices.EqualFunc(first, rs, func(a, b ptx2go.CheckReport) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
							t.Errorf("engine=%s workers=%d: reports differ from the first run's:\n%v\n%v", e.name, workers, rs, first)
						}
					}
				}
			})
		}
	}
}
