package semantics_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestUniformOperands runs testdata/ptx/semantics/uniform_ops.ptx, whose comparisons,
// multiplies and adds take one warp-uniform operand, against a Go model, for parameters at and
// around the edges of the signed and unsigned ranges and inputs that straddle them, on blocks
// of 100 (a partial last warp).
func TestUniformOperands(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "uniform_ops.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "uniform_ops.ptx", "uniform_ops")
		const grid, block = 4, 100
		n := grid * block
		r := rand.New(rand.NewPCG(3, 4))
		for _, kv := range []uint32{0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, r.Uint32()} {
			t.Run(fmt.Sprintf("k=%#x", kv), func(t *testing.T) {
				in := make([]uint32, n)
				for i := range in {
					switch i % 4 {
					case 0:
						in[i] = kv + uint32(i%7) - 3
					case 1:
						in[i] = r.Uint32()
					case 2:
						in[i] = uint32(i)
					default:
						in[i] = kv
					}
				}
				dev := runtime.NewDevice()
				pin, err := runtime.Upload(dev, in)
				if err != nil {
					t.Fatal(err)
				}
				pout, err := runtime.Upload(dev, make([]uint64, 8*n))
				if err != nil {
					t.Fatal(err)
				}
				cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: 1}
				if err := k.LaunchConfig(context.Background(), dev, cfg, pout, pin, kv); err != nil {
					t.Fatal(err)
				}
				got := make([]uint64, 8*n)
				if err := runtime.Download(dev, got, pout); err != nil {
					t.Fatal(err)
				}
				bit := func(c bool, b uint64) uint64 {
					if c {
						return b
					}
					return 0
				}
				for gid := range n {
					x := in[gid]
					xs, ks := int32(x), int32(kv)
					x64, k64 := int64(xs), int64(ks)
					want := [8]uint64{
						bit(xs < ks, 1) | bit(ks < xs, 2) | bit(xs <= ks, 4) | bit(ks <= xs, 8) |
							bit(x < kv, 16) | bit(x >= kv, 32) | bit(x64 < k64, 64) | bit(uint64(k64) >= uint64(x64), 128),
						uint64(x64 * k64),
						uint64(kv) * uint64(x),
						uint64(x64 + k64),
						uint64(k64 + x64),
						uint64(uint32(gid/block*block) + x),
						uint64(gid),
					}
					if gid%block%2 == 1 {
						want[7] = uint64(x64 * k64)
					}
					for j, w := range want {
						if g := got[8*gid+j]; g != w {
							t.Fatalf("thread %d (x=%#x) slot %d = %#x, want %#x", gid, x, j, g, w)
						}
					}
				}
			})
		}
	})
}

// TestCarryUniform runs testdata/ptx/semantics/carry_uniform.ptx, whose addc, subc and madc
// take operands that are the same in every lane but read the carry flag a per-lane add.cc,
// sub.cc or mad.cc set: their results, the selp and the branch computed from them must follow
// each lane's own carry. The uniformity analysis took them as warp-uniform, and the closure
// engine compared lane 0's carry for the whole warp (nvcc's inlined 128-bit division went off
// by up to 2).
func TestCarryUniform(t *testing.T) {
	path := filepath.Join(harness.SemDir, "carry_uniform.ptx")
	harness.OnEngines(t, path, func(t *testing.T) {
		_, k := harness.SemKernel(t, "carry_uniform.ptx", "carry_uniform")
		const n = 100 // a partial last warp
		r := rand.New(rand.NewPCG(5, 6))
		in := make([]uint32, 2*n)
		for i := range in {
			in[i] = r.Uint32()
		}
		in[0], in[1] = 0xffffffff, 1 // a carry in lane 0 only...
		in[2], in[3] = 1, 1          // ...and none in lane 1
		in[4], in[5] = 7, 7          // x == y: no borrow
		dev := runtime.NewDevice()
		pin, err := runtime.Upload(dev, in)
		if err != nil {
			t.Fatal(err)
		}
		out := harness.SemFilled(t, dev, 4*n, harness.SemSentinel)
		if err := k.Launch(context.Background(), dev, runtime.D1(1), runtime.D1(n), out, pin); err != nil {
			t.Fatal(err)
		}
		got := harness.SemDownload(t, dev, out, 4*n)
		for i := range n {
			x, y := uint64(in[2*i]), uint64(in[2*i+1])
			c := uint32((x + y) >> 32)
			sel := uint32(10 + 100)
			if c != 0 {
				sel = 20 + 200
			}
			borrow := uint32(0)
			if x < y {
				borrow = 0xffffffff
			}
			m := uint32((x*y&0xffffffff + x) >> 32)
			want := [4]uint32{sel, c, borrow, m}
			if [4]uint32(got[4*i:4*i+4]) != want {
				t.Errorf("thread %d (x=%#x, y=%#x): %#x, want %#x", i, x, y, got[4*i:4*i+4], want)
			}
		}
	})
}
