package kernelcases

import (
	"math"
	"slices"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

// everydayCases are the kernels of testdata/cuda/nvcc/everyday.cu, in the style of
// cuda-samples: scans, a histogram, a transpose, a sorting network, a convolution, a
// cooperative-groups reduction and a float atomicMax.
var everydayCases = []kernelCase{
	{file: "everyday", kernel: "prescan", shapes: prescanShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		n, blocks := 2*int(s.block.X), int(s.grid.X)
		in := f.i32(n*blocks, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, n*blocks)
		return kernelLaunch{args: []any{out, inputBuf(f, in), int32(n)}, shared: 4 * (n + n/32), check: func(t *testing.T) {
			want := make([]int32, n*blocks)
			for b := range blocks {
				var sum int32
				for i := b * n; i < (b+1)*n; i++ {
					want[i] = sum
					sum += in[i]
				}
			}
			requireElems(t, "out", want, readBuf[int32](f, out, n*blocks))
		}}
	}},
	{file: "everyday", kernel: "shfl_scan", shapes: shflScanShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd, blocks := int(s.block.X), int(s.grid.X)
		in := f.i32(bd*blocks, math.MinInt32, math.MaxInt32)
		data, partial := inoutBuf(f, in), outputBuf[int32](f, blocks)
		return kernelLaunch{args: []any{data, partial, int32(32)}, shared: 4 * bd / 32, check: func(t *testing.T) {
			want, totals := make([]int32, bd*blocks), make([]int32, blocks)
			for b := range blocks {
				var sum int32
				for i := b * bd; i < (b+1)*bd; i++ {
					sum += in[i]
					want[i] = sum
				}
				totals[b] = sum
			}
			requireElems(t, "data", want, readBuf[int32](f, data, bd*blocks))
			requireElems(t, "partial", totals, readBuf[int32](f, partial, blocks))
		}}
	}},
	{file: "everyday", kernel: "histogram256", shapes: histogramShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Skewed bytes: a third uniform, the rest in a few bins, so that lanes collide.
		data := tabulate(s.n, func(i int) uint8 {
			if i%3 == 0 {
				return uint8(f.rng.IntN(256))
			}
			return uint8(f.rng.IntN(5) * 51)
		})
		init := tabulate(256, func(int) uint32 { return uint32(f.rng.IntN(1000)) })
		hist := inoutBuf(f, init)
		return kernelLaunch{args: []any{hist, inputBuf(f, data), int32(s.n)}, check: func(t *testing.T) {
			want := slices.Clone(init)
			for _, b := range data {
				want[b]++
			}
			requireElems(t, "hist", want, readBuf[uint32](f, hist, 256))
		}}
	}},
	{file: "everyday", kernel: "transpose", shapes: transposeShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		w, h := s.n, s.m
		in := f.f32(w*h, -1e6, 1e6)
		out := outputBuf[float32](f, w*h)
		return kernelLaunch{args: []any{out, inputBuf(f, in), int32(w), int32(h)}, check: func(t *testing.T) {
			want := make([]float32, w*h)
			for y := range h {
				for x := range w {
					want[x*h+y] = in[y*w+x]
				}
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, w*h))
		}}
	}},
	{file: "everyday", kernel: "bitonic_sort", shapes: bitonicShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Distinct keys, so the sorted order, and with it the values' order, is unique.
		n := 1024 * int(s.grid.X)
		keys := f.rng.Perm(4 * n)[:n]
		sk := tabulate(n, func(i int) uint32 { return uint32(keys[i]) * 977 })
		sv := f.u32(n)
		dir := uint32(f.rng.IntN(2))
		dk, dv := outputBuf[uint32](f, n), outputBuf[uint32](f, n)
		return kernelLaunch{args: []any{dk, dv, inputBuf(f, sk), inputBuf(f, sv), dir}, check: func(t *testing.T) {
			wantK, wantV := make([]uint32, n), make([]uint32, n)
			for b := 0; b < n; b += 1024 {
				idx := tabulate(1024, func(i int) int { return b + i })
				slices.SortFunc(idx, func(x, y int) int {
					if dir == 0 {
						x, y = y, x
					}
					return int(int64(sk[x]) - int64(sk[y]))
				})
				for i, j := range idx {
					wantK[b+i], wantV[b+i] = sk[j], sv[j]
				}
			}
			requireElems(t, "keys", wantK, readBuf[uint32](f, dk, n))
			requireElems(t, "values", wantV, readBuf[uint32](f, dv, n))
		}}
	}},
	{file: "everyday", kernel: "convolution_rows", shapes: convolutionShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		kernel := []float32{0.0625, 0.125, -0.25, 0.5, 0.75, -1.0, 1.5, 2.0, 3.0, -2.0, 1.25, 0.875,
			-0.5, 0.25, 0.375, 0.1875, -0.03125}
		const kr = 8
		w, h := s.n, s.m
		src := f.f32(w*h, -100, 100)
		dst := outputBuf[float32](f, w*h)
		return kernelLaunch{args: []any{dst, inputBuf(f, src), int32(w), int32(h), int32(w)}, check: func(t *testing.T) {
			want := make([]float32, w*h)
			for y := range h {
				for x := range w {
					var sum float32
					for j := -kr; j <= kr; j++ {
						var v float32
						if x+j >= 0 && x+j < w {
							v = src[y*w+x+j]
						}
						sum = refFMA32(kernel[kr-j], v, sum) // nvcc contracts each tap into fma.rn.f32
					}
					want[y*w+x] = sum
				}
			}
			requireElemsF32(t, "dst", want, readBuf[float32](f, dst, w*h))
		}}
	}},
	{file: "everyday", kernel: "cg_reduce", shapes: stridedReduceShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Multiples of 1/8 below 1000: every partial sum is exact in double, so the result
		// does not depend on the order of the tiles' atomics.
		in := tabulate(4*s.n, func(int) float32 { return float32(f.rng.IntN(8000)-4000) / 8 })
		start := float64(f.rng.IntN(100))
		out := inoutBuf(f, []float64{start})
		return kernelLaunch{args: []any{out, inputBuf(f, in), int32(s.n)}, check: func(t *testing.T) {
			want := start
			for _, v := range in {
				want += float64(v)
			}
			requireElemsF64(t, "out", []float64{want}, readBuf[float64](f, out, 1))
		}}
	}},
	{file: "everyday", kernel: "atomic_max_f32", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.f32(s.n, -1e6, 1e6), float32(math.Inf(-1)))
		start := float32(f.rng.IntN(2000) - 1000)
		m := inoutBuf(f, []float32{start})
		return kernelLaunch{args: []any{m, inputBuf(f, in), int32(s.n)}, check: func(t *testing.T) {
			want := start
			for _, v := range in {
				want = max(want, v)
			}
			requireElemsF32(t, "max", []float32{want}, readBuf[float32](f, m, 1))
		}}
	}},
}

var (
	// prescanShapes: block b scans the 2*blockDim.x elements from 2*b*blockDim.x, a power
	// of two.
	prescanShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 64},
		{grid: runtime.D1(3), block: runtime.D1(128), n: 768},
		{grid: runtime.D1(2), block: runtime.D1(512), n: 2048},
	}
	// shflScanShapes have 2, 8 and 16 warps a block.
	shflScanShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(64), n: 64},
		{grid: runtime.D1(3), block: runtime.D1(256), n: 768},
		{grid: runtime.D1(2), block: runtime.D1(512), n: 1024},
	}
	// histogramShapes have at most 6 warps a block, some with a partial last warp, and more
	// bytes than threads and fewer.
	histogramShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 1000},
		{grid: runtime.D1(5), block: runtime.D1(192), n: 20000},
		{grid: runtime.D1(3), block: runtime.D1(100), n: 50},
	}
	// transposeShapes are width x height (n x m) matrices in 32x8 blocks of 32x32 tiles, some
	// of them partial.
	transposeShapes = []kernelShape{
		{grid: runtime.Dim3{X: 1, Y: 1, Z: 1}, block: runtime.Dim3{X: 32, Y: 8, Z: 1}, n: 32, m: 32},
		{grid: runtime.Dim3{X: 4, Y: 3, Z: 1}, block: runtime.Dim3{X: 32, Y: 8, Z: 1}, n: 100, m: 70},
		{grid: runtime.Dim3{X: 1, Y: 2, Z: 1}, block: runtime.Dim3{X: 32, Y: 8, Z: 1}, n: 5, m: 33},
	}
	// bitonicShapes sort 1024 keys in each block of 512 threads.
	bitonicShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(512), n: 1024},
		{grid: runtime.D1(3), block: runtime.D1(512), n: 3072},
	}
	// convolutionShapes are n x m images in 16x4 blocks of 8 tiles of 16 pixels.
	convolutionShapes = []kernelShape{
		{grid: runtime.Dim3{X: 1, Y: 1, Z: 1}, block: runtime.Dim3{X: 16, Y: 4, Z: 1}, n: 128, m: 4},
		{grid: runtime.Dim3{X: 3, Y: 2, Z: 1}, block: runtime.Dim3{X: 16, Y: 4, Z: 1}, n: 384, m: 8},
	}
	// stridedReduceShapes have fewer threads than float4 elements, and more.
	stridedReduceShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 100},
		{grid: runtime.D1(13), block: runtime.D1(128), n: 10000},
		{grid: runtime.D1(4), block: runtime.D1(256), n: 500},
	}
)
