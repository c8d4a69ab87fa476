package ptx2go_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

// TestUniformOperands runs testdata/ptx/semantics/uniform_ops.ptx, whose comparisons,
// multiplies and adds take one warp-uniform operand, against a Go model, for parameters at and
// around the edges of the signed and unsigned ranges and inputs that straddle them, on blocks
// of 100 (a partial last warp).
func TestUniformOperands(t *testing.T) {
	onEngines(t, filepath.Join(semDir, "uniform_ops.ptx"), func(t *testing.T) {
		_, k := semKernel(t, "uniform_ops.ptx", "uniform_ops")
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
