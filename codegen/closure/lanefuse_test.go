package closure_test

import (
	"math"
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

// fusedForm is a comparison of branches in lane_fused.ptx: a holds (signed or not) against b
// or imm, and neg where the branch is taken when it does not hold.
type fusedForm struct {
	cmp    string
	signed bool
	reg    bool
	imm    uint32
	neg    bool
}

// fusedForms are branches' comparisons, in the order of their bits.
var fusedForms = []fusedForm{
	{"lt", true, true, 0, false}, {"le", true, true, 0, false}, {"gt", true, true, 0, true}, {"ge", true, true, 0, false},
	{"lt", false, true, 0, false}, {"le", false, true, 0, true}, {"gt", false, true, 0, false}, {"ge", false, true, 0, false},
	{"lt", false, true, 0, false}, {"le", false, true, 0, false}, {"gt", false, true, 0, true}, {"ge", false, true, 0, false},
	{"eq", true, true, 0, false}, {"ne", false, true, 0, false}, {"eq", false, true, 0, true},
	{"lt", true, false, 0xfffffffb, false}, {"le", true, false, 0, true}, {"gt", true, false, 100, false}, {"ge", true, false, 0x80000000, false},
	{"lt", false, false, 0x80000000, false}, {"le", false, false, 7, false}, {"gt", false, false, 0xfffffffe, true}, {"ge", false, false, 1, false},
	{"eq", false, false, 0, false}, {"ne", true, false, 0xffffffff, false}, {"gt", false, false, 33, false}, {"le", false, false, 0xffffffff, false},
}

// holds is the comparison of x and y.
func (f fusedForm) holds(x, y uint32) bool {
	lt, le := x < y, x <= y
	if f.signed {
		lt, le = int32(x) < int32(y), int32(x) <= int32(y)
	}
	switch f.cmp {
	case "lt":
		return lt
	case "le":
		return le
	case "gt":
		return !le
	case "ge":
		return !lt
	case "eq":
		return x == y
	}
	return x != y
}

// branchesGo is branches(a, b) of lane_fused.ptx.
func branchesGo(a, b uint32) uint64 {
	var lo, hi uint32
	for i, f := range fusedForms {
		y := f.imm
		if f.reg {
			y = b
		}
		if f.holds(a, y) == f.neg {
			lo |= 1 << i
		}
	}
	bit := func(c bool, v uint32) uint32 {
		if c {
			return v
		}
		return 0
	}
	p2, p3, p4 := int32(a) < int32(b), a >= 1000, a != b
	hi |= bit(!p2, 1) | bit(p2, 2) | bit(!p3, 4) | bit(p3, 8) | bit(p4, 16)
	r5, r6, r9 := a+3, b^0x55, a*b
	hi |= bit(int32(r5) > int32(r6), 32) | bit(r6 <= 77, 64) | bit(r9 == 0, 128) | bit(r9 != 0, 256)
	r11 := a >> 27
	hi |= r11 << 9
	hi += r11 * (r11 + 1) / 2 << 16
	hi |= bit(b >= 5, 0x200000) | bit(a == b, 0x400000) | bit(math.Float32frombits(a) == math.Float32frombits(b), 0x800000)
	p1 := b == 0x55
	if a == b {
		p1 = int32(a) < 1000
	}
	hi |= bit(!p1, 0x1000000)
	return uint64(hi)<<32 | uint64(lo)
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
	edges := []uint32{0, 1, 2, 7, 8, 33, 34, 77, 100, 101, 999, 1000, 0x7fffffff, 0x80000000, 0x80000001,
		0xfffffffb, 0xfffffffa, 0xfffffffe, 0xffffffff, 0x55, 0x52, 0xf8000000}
	const n = 256
	in := make([]uint32, n)
	seed := uint32(88172645)
	for i := range in {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		in[i] = seed
		if i%4 != 3 {
			in[i] = edges[(i/4*3+i%4)%len(edges)]
		}
	}
	// Floats that are equal with different bits, and a NaN that is not equal to itself.
	in[0], in[1], in[2], in[3] = 0, 0x80000000, 0x7fc00000, 0x7fc00000
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
		want := branchesGo(a, b)
		for _, got := range [][]uint32{lane, stack} {
			if v := uint64(got[2*i+1])<<32 | uint64(got[2*i]); v != want {
				t.Fatalf("branches(%#x, %#x) = %#x, want %#x (bits that differ %#x)", a, b, v, want, v^want)
			}
		}
		if w := a + 299*300/2 - 1; lane[2*n+i] != w || stack[2*n+i] != w {
			t.Fatalf("wide(%#x) = %#x per lane, %#x on the stack, want %#x", a, lane[2*n+i], stack[2*n+i], w)
		}
	}
}
