package semantics_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestSteppingValues runs testdata/ptx/semantics/steps.ptx, whose comparisons and shared
// accesses step by 1 (or 4 bytes) from lane to lane, against a Go model: every comparison
// operator, signed and unsigned, 16 and 32 bits, stepping operand first and second; bases
// and bounds near the signed and unsigned wrap-around, so that some warps wrap between lanes
// 0 and 31; full warps, a partial last warp (blocks of 100), and blocks of (8,4) and (8,2,2)
// threads, on which %tid.x does not count up along the warp (the last with a value, and a
// shared address, whose lanes 0 and 31 differ by 31 steps without stepping).
func TestSteppingValues(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "steps.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "steps.ptx", "steps")
		const grid = 3
		for _, block := range []runtime.Dim3{runtime.D1(256), runtime.D1(100), {X: 8, Y: 4, Z: 1}, {X: 8, Y: 2, Z: 2}} {
			for _, base := range []uint32{0, 5, 0x7ffffff0, 0x7fffffe1, 0xfffffff0, 0xffffffe1, 0xfff0} {
				for _, kv := range []uint32{0, 3, 10, 40, 200, 0x7fffffff, 0x80000000, 0xffffffff, base + 17, base + 250} {
					name := fmt.Sprintf("block=%dx%dx%d/base=%#x/k=%#x", block.X, block.Y, block.Z, base, kv)
					t.Run(name, func(t *testing.T) { checkSteps(t, k.LaunchConfig, block, grid, base, kv) })
				}
			}
		}
	})
}

// checkSteps launches steps.ptx's kernel and compares its output with stepsModel.
func checkSteps(t *testing.T, launch func(context.Context, *runtime.Device, runtime.LaunchConfig, ...any) error, block runtime.Dim3, grid int, base, kv uint32) {
	t.Helper()
	nt := int(block.X * block.Y * block.Z)
	total := grid * nt
	dev := runtime.NewDevice()
	pout, err := runtime.Upload(dev, make([]uint32, 3*total))
	if err != nil {
		t.Fatal(err)
	}
	cfg := runtime.LaunchConfig{Grid: runtime.D1(uint32(grid)), Block: block, Workers: 1}
	if err := launch(context.Background(), dev, cfg, pout, base, kv); err != nil {
		t.Fatal(err)
	}
	got := make([]uint32, 3*total)
	if err := runtime.Download(dev, got, pout); err != nil {
		t.Fatal(err)
	}
	for gid := range total {
		tl := gid % nt
		tx, ty, tz := uint32(tl)%block.X, uint32(tl)/block.X%block.Y, uint32(tl)/(block.X*block.Y)
		want := stepsModel(tx, ty, tz, uint32(tl%32), uint32(gid), base, kv)
		if got[gid] != want {
			t.Fatalf("thread %d (tid %d,%d,%d): comparisons %#x, want %#x (differing %#x)", gid, tx, ty, tz, got[gid], want, got[gid]^want)
		}
		next := (tl + 1) % nt
		wantDiff := (uint32(next)%block.X + base) - (tx + base)
		if got[total+gid] != wantDiff {
			t.Fatalf("thread %d: shared difference %#x, want %#x", gid, got[total+gid], wantDiff)
		}
		var wantW uint32 // sh[w], which no thread wrote where w >= nt
		if w := tx + 12*ty + 12*tz; w < uint32(nt) {
			wantW = w%block.X + base
		}
		if got[2*total+gid] != wantW {
			t.Fatalf("thread %d: sh[w] = %#x, want %#x", gid, got[2*total+gid], wantW)
		}
	}
}

// stepsModel is the comparisons word steps.ptx writes for one thread, in plain Go.
func stepsModel(tx, ty, tz, lane, gid, base, kv uint32) uint32 {
	v := tx + base
	vh, kh := uint16(v), uint16(kv)
	kl := kv & 31
	w := tx + 12*ty + 12*tz
	even := tx%2 == 0
	tests := []bool{
		v == kv, v != kv, v < kv, v <= kv, v > kv, v >= kv,
		int32(v) < int32(kv), int32(v) <= int32(kv), int32(v) > int32(kv), int32(v) >= int32(kv),
		kv < v, kv >= v, int32(kv) < int32(v), int32(kv) >= int32(v), kv == v,
		vh < kh, int16(vh) > int16(kh), kh != vh,
		lane < kl, int32(gid) < int32(kv), v >= 0x80000000, w < kl,
		v < kv && even, v > kv, !(v > kv), even && v < kv,
	}
	var r uint32
	for i, c := range tests {
		if c {
			r |= 1 << i
		}
	}
	return r
}
