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

// TestFusedAddresses runs testdata/ptx/semantics/fused.ptx, whose loads and stores the
// closure back end computes from folded adds, against a Go model of the kernel: consecutive
// and strided offsets, a partial last warp (blocks of 100), global and shared memory, 4- and
// 8-byte elements, a guarded access that reuses the contiguity test of the one before it, and
// an add that must not be folded because its offset is rewritten.
func TestFusedAddresses(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fused.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "fused.ptx", "fused")
		const grid, block = 3, 100
		total := grid * block
		for _, stride := range []int{1, 3} {
			for _, workers := range []int{1, 0} {
				t.Run(fmt.Sprintf("stride=%d/workers=%d", stride, workers), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(stride), 7))
					in := make([]uint32, total*stride+1)
					for i := range in {
						in[i] = r.Uint32()
					}
					dev := runtime.NewDevice()
					pin, err := runtime.Upload(dev, in)
					if err != nil {
						t.Fatal(err)
					}
					pout, err := runtime.Upload(dev, make([]uint64, 2*total))
					if err != nil {
						t.Fatal(err)
					}
					cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: workers}
					if err := k.LaunchConfig(context.Background(), dev, cfg, pout, pin, uint32(stride)); err != nil {
						t.Fatal(err)
					}
					got := make([]uint64, 2*total)
					if err := runtime.Download(dev, got, pout); err != nil {
						t.Fatal(err)
					}
					for gid := range total {
						cta, tid := gid/block, gid%block
						want0 := uint64(in[gid*stride])
						next := cta*block + (tid+1)%block
						back := uint64(7)
						if tid < 50 {
							back = want0
						}
						want1 := uint64(in[next*stride]) + uint64(in[gid*stride+1]) + back
						if got[gid] != want0 || got[total+gid] != want1 {
							t.Fatalf("thread %d: out = %#x, %#x; want %#x, %#x", gid, got[gid], got[total+gid], want0, want1)
						}
					}
				})
			}
		}
	})
}
