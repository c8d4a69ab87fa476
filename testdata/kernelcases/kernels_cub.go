package kernelcases

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

// cubCases are the kernels of testdata/cuda/nvcc/cub.cu, checked against plain Go sorts, scans
// and reductions.
var cubCases = []kernelCase{
	{file: "cub", kernel: "block_radix_sort", shapes: cubSortShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Few distinct high bits, so that equal keys test the sort's stability.
		keys := tabulate(s.n, func(int) uint32 { return f.rng.Uint32()&0xf000000f | uint32(f.rng.IntN(4))<<20 })
		k, v := inoutBuf(f, keys), outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{k, v}, check: func(t *testing.T) {
			wantK, wantV := make([]uint32, s.n), make([]int32, s.n)
			for base := 0; base < s.n; base += 512 {
				idx := tabulate(512, func(i int) int32 { return int32(base + i) })
				slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
				for i, j := range idx {
					wantK[base+i], wantV[base+i] = keys[j], j
				}
			}
			requireElems(t, "keys", wantK, readBuf[uint32](f, k, s.n))
			requireElems(t, "vals", wantV, readBuf[int32](f, v, s.n))
		}}
	}},
	{file: "cub", kernel: "block_scan_reduce", shapes: cubBlockShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out, maxes := outputBuf[int32](f, s.n), outputBuf[int32](f, blocks)
		return kernelLaunch{args: []any{out, maxes, inputBuf(f, in)}, check: func(t *testing.T) {
			want, wantMax := make([]int32, s.n), make([]int32, blocks)
			for b := range blocks {
				var sum int32
				for i := b * 256; i < (b+1)*256; i++ {
					want[i] = sum
					sum += in[i]
				}
				wantMax[b] = slices.Max(in[b*256 : (b+1)*256])
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
			requireElems(t, "maxes", wantMax, readBuf[int32](f, maxes, blocks))
		}}
	}},
	{file: "cub", kernel: "warp_reduce_scan", shapes: cubWarpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			got := readBuf[int32](f, out, 2*s.n)
			var sums, scans, wantSums, wantScans []int32
			for w := 0; w < s.n; w += 32 {
				var total, run int32
				for _, x := range in[w : w+32] {
					total += x
				}
				wantSums, sums = append(wantSums, total), append(sums, got[2*w])
				for i, x := range in[w : w+32] {
					run += x
					wantScans, scans = append(wantScans, run), append(scans, got[2*(w+i)+1])
				}
			}
			requireElems(t, "warp sums (first lanes)", wantSums, sums)
			requireElems(t, "warp scans", wantScans, scans)
		}}
	}},
	// CUB instantiates EmptyKernel for its host-side PTX version query: it has no
	// parameters and writes nothing; the launch must succeed.
	{file: "cub", kernel: "_ZN3cub17CUB_101702_800_NS11EmptyKernelIvEEvv", shapes: cubWarpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		return kernelLaunch{check: func(t *testing.T) {}}
	}},
}

var (
	// cubSortShapes are blocks of 128 threads sorting 512 keys each.
	cubSortShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(128), n: 512},
		{grid: runtime.D1(3), block: runtime.D1(128), n: 1536},
	}
	// cubBlockShapes are blocks of 256 threads, one value each.
	cubBlockShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(256), n: 256},
		{grid: runtime.D1(4), block: runtime.D1(256), n: 1024},
	}
	// cubWarpShapes are blocks of up to 4 whole warps.
	cubWarpShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
		{grid: runtime.D1(2), block: runtime.D1(128), n: 256},
		{grid: runtime.D1(3), block: runtime.D1(96), n: 288},
	}
)
