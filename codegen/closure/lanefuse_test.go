package closure_test

import (
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestPerLaneRecursion runs the recursion kernel (fib, tree_depth and gcd, recursive device
// functions that run per lane, through the ops of lanefuse.go) without statistics, so that
// every call runs per lane, and checks each thread's results against the Go version.
func TestPerLaneRecursion(t *testing.T) {
	const path = "../../testdata/ptx/recursion.ptx"
	checkPerLane(t, path, "_Z3fibi", "_Z10tree_depthj", "_Z3gcdjj")
	mod, err := ptx2go.CompileFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("recursion")
	if err != nil {
		t.Fatal(err)
	}
	const n = 256
	in, in2 := make([]int32, n), make([]uint32, n)
	for i := range in {
		in[i] = int32(i * 37 % 17)
		in2[i] = uint32(i*7 + 3)
	}
	in[5], in[6] = 0, 1
	dev := runtime.NewDevice()
	pin, pin2 := upload(t, dev, in), upload(t, dev, in2)
	var outs [3]runtime.Ptr
	for i := range outs {
		outs[i] = upload(t, dev, make([]uint32, n))
	}
	cfg := runtime.LaunchConfig{Grid: runtime.D1(n / 128), Block: runtime.D1(128), Workers: 1}
	if err := k.LaunchConfig(t.Context(), dev, cfg, outs[0], outs[1], outs[2], pin, pin2, int32(n)); err != nil {
		t.Fatal(err)
	}
	fibs, depths, gcds := make([]int32, n), make([]int32, n), make([]uint32, n)
	for i, dst := range []any{fibs, depths, gcds} {
		var err error
		switch d := dst.(type) {
		case []int32:
			err = runtime.Download(dev, d, outs[i])
		case []uint32:
			err = runtime.Download(dev, d, outs[i])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wf, wd, wg := make([]int32, n), make([]int32, n), make([]uint32, n)
	harness.FibGo(wf, wd, wg, in, in2)
	for i := range in {
		if fibs[i] != wf[i] || depths[i] != wd[i] || gcds[i] != wg[i] {
			t.Fatalf("thread %d: (%d, %d, %d), want (%d, %d, %d)", i, fibs[i], depths[i], gcds[i], wf[i], wd[i], wg[i])
		}
	}
}

// upload copies data to a new buffer on dev.
func upload[T runtime.Scalar](t *testing.T, dev *runtime.Device, data []T) runtime.Ptr {
	t.Helper()
	p, err := runtime.Upload(dev, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPerLaneFused runs fuseds of lane_fused.ptx, whose branches runs per lane with every
// comparison op fused with its branch and some kept apart, on edge values, and checks each
// thread's results against the Go reference and a launch with statistics (the SIMT stack);
// wide, with more registers than a per-lane form holds, keeps the stack.
func TestPerLaneFused(t *testing.T) {
	const path = "../../testdata/ptx/lane_fused.ptx"
	checkPerLane(t, path, "branches")
	mod, err := ptx2go.CompileFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("fuseds")
	if err != nil {
		t.Fatal(err)
	}
	const n = 256
	in := harness.LaneFusedInputs(n)
	run := func(stats bool) []uint32 {
		dev := runtime.NewDevice()
		pin, pout := upload(t, dev, in), upload(t, dev, make([]uint32, 3*n))
		cfg := runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(n / 2), Workers: 1}
		if stats {
			cfg.Stats = &runtime.Stats{}
		}
		if err := k.LaunchConfig(t.Context(), dev, cfg, pout, pin, uint32(n)); err != nil {
			t.Fatal(err)
		}
		out := make([]uint32, 3*n)
		if err := runtime.Download(dev, out, pout); err != nil {
			t.Fatal(err)
		}
		return out
	}
	lane, stack := run(false), run(true)
	for i, a := range in {
		b := in[i^1]
		want := harness.LaneBranchesGo(a, b)
		for _, got := range [][]uint32{lane, stack} {
			if v := uint64(got[2*i+1])<<32 | uint64(got[2*i]); v != want {
				t.Fatalf("branches(%#x, %#x) = %#x, want %#x (bits that differ %#x)", a, b, v, want, v^want)
			}
		}
		if w := harness.LaneWideGo(a); lane[2*n+i] != w || stack[2*n+i] != w {
			t.Fatalf("wide(%#x) = %#x per lane, %#x on the stack, want %#x", a, lane[2*n+i], stack[2*n+i], w)
		}
	}
}
