package kernelcases

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// RunClosure runs every kernel of every CUDA source in testdata/cuda, compiled to PTX at -O2
// (testdata/ptx), -O0 (testdata/ptx/O0) and -O2 -ffp-contract=fast (testdata/ptx/fast), on
// random inputs with fixed seeds, and compares its results with a Go reference written from the
// .cu source. The cases of kernels_isa.go are skipped while the back end rejects one of
// their instructions as unsupported.
//
// Integers must match exactly and floats bit for bit, except where a case says otherwise
// (approximate instructions such as ex2.approx). Where clang contracted a*b+c into
// fma.rn.f32/f64 (checked against the PTX), the reference uses a correctly rounded fma.
//
// Every launch shape runs twice, with one worker and with four, on the same inputs; both runs
// must leave the same bytes in every output buffer whose contents do not depend on the order
// in which atomics happen. It then runs once more on the reference interpreter
// (codegen/reference, subtest engine=reference) where that covers the kernel's instructions:
// checked against the Go reference, and byte for byte against the closure engine.
func RunClosure(t *testing.T) {
	for _, c := range slices.Concat(kernelCases, isaKernelCases, everydayCases, curandCases, cubCases) {
		for _, level := range Levels(c.file) {
			t.Run(level.Name+"/"+c.file+"/"+c.kernel, func(t *testing.T) {
				t.Parallel()
				mod, err := compileFile(level.Path)
				if c.maybeUnsupported {
					kernelSkipUnsupported(t, err)
				}
				require.NoError(t, err)
				k, err := mod.Kernel(c.kernel)
				require.NoError(t, err)
				refProg := sync.OnceValues(func() (*ssa.Program, error) { return buildSSA(level.Path) })
				for i, s := range c.shapes {
					seed := kernelSeed(c.file, c.kernel, i)
					t.Run(s.String(), func(t *testing.T) {
						var outs [][][]byte
						for _, workers := range []int{1, 4} {
							t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
								f := newKernelFixture(t, seed)
								f.level = level.Name
								l := c.setup(f, s)
								cfg := runtime.LaunchConfig{Grid: s.grid, Block: s.block, DynamicShared: l.shared, Workers: workers}
								require.NoError(t, k.LaunchConfig(t.Context(), f.dev, cfg, l.args...))
								l.check(t)
								outs = append(outs, f.outputs())
							})
						}
						if len(outs) == 2 {
							require.Equal(t, outs[0], outs[1], "outputs differ between 1 and 4 workers")
						}
						t.Run("engine=reference", func(t *testing.T) {
							if c.waitsInWarp {
								t.Skip("the threads wait for each other within a warp: the reference interpreter does not apply")
							}
							if n := s.grid.Count() * s.block.Count(); n > referenceMaxThreads {
								t.Skipf("%d threads: the reference interpreter runs shapes of at most %d", n, referenceMaxThreads)
							}
							f := newKernelFixture(t, seed)
							f.level = level.Name
							l := c.setup(f, s)
							prog, err := refProg()
							require.NoError(t, err)
							runReference(t, prog, k, f, l, s)
							if len(outs) > 0 {
								require.Equal(t, outs[0], f.outputs(), "outputs differ from the closure engine's")
							}
						})
					})
				}
			})
		}
	}
}

// CheckCoverage checks that kernelCases has exactly one entry for each kernel of
// each CUDA source, at every optimization level it was compiled at, so that a kernel added to
// testdata/cuda cannot go untested.
func CheckCoverage(t *testing.T) {
	sources, err := filepath.Glob(filepath.Join(root, "testdata", "cuda", "*.cu"))
	require.NoError(t, err)
	nvccOnly, err := filepath.Glob(filepath.Join(root, "testdata", "cuda", "nvcc", "*.cu"))
	require.NoError(t, err)
	sources = append(sources, nvccOnly...)
	require.NotEmpty(t, sources)
	tested := map[string][]string{}
	for _, c := range slices.Concat(kernelCases, isaKernelCases, everydayCases, curandCases, cubCases) {
		tested[c.file] = append(tested[c.file], c.kernel)
	}
	for _, src := range sources {
		file := strings.TrimSuffix(filepath.Base(src), ".cu")
		for _, level := range Levels(file) {
			require.ElementsMatch(t, kernelEntries(t, level.Path), tested[file], "kernels of %s", level.Path)
		}
		delete(tested, file)
	}
	require.Empty(t, tested, "cases for sources that do not exist")
}

// kernelEntries lists the kernels of the PTX file at path: those of the compiled module, or,
// where the back end does not implement all its instructions yet, the parsed .entry functions.
func kernelEntries(t *testing.T, path string) []string {
	mod, err := compileFile(path)
	if err == nil {
		return mod.Kernels()
	}
	require.True(t, kernelOnlyUnsupported(err), "compiling %s: %v", path, err)
	src, err := os.ReadFile(filepath.Join(root, path))
	require.NoError(t, err)
	ast, err := frontend.Parse(path, src)
	require.NoError(t, err)
	var entries []string
	for _, it := range ast.Items {
		if fn, ok := it.(*frontend.Function); ok && fn.Kind == frontend.Entry && fn.Body != nil {
			entries = append(entries, fn.Name)
		}
	}
	return entries
}

// kernelCase is one kernel under test, run at every optimization level it was compiled at.
type kernelCase struct {
	file   string // the source's base name: testdata/cuda/FILE.cu, testdata/ptx/FILE.ptx
	kernel string
	// maybeUnsupported marks the kernels of the wider instruction set (kernels_isa.go),
	// skipped while the back end rejects some of their instructions as unsupported.
	maybeUnsupported bool
	// clocked marks kernels whose instruction counts follow the wall clock: their waits back
	// off by %globaltimer (libcu++'s cuda::barrier), so the engines' statistics differ from
	// run to run while their outputs do not.
	clocked bool
	// waitsInWarp marks kernels whose threads wait for each other through memory, not only
	// at barriers (a lane hand-off, a spin on a flag another lane of the warp or tile sets):
	// the reference interpreter, which runs one thread at a time until a barrier, does not
	// apply to them.
	waitsInWarp bool
	shapes      []kernelShape
	// setup uploads random inputs for shape s, allocates the outputs and returns the launch:
	// its arguments and a check that compares the outputs with the Go reference.
	setup func(f *kernelFixture, s kernelShape) kernelLaunch
}

// itsShapes run one warp, several warps of one block, and several blocks (of at least 32
// threads: lane_handoff needs thread 31).
var itsShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
	{grid: runtime.D1(1), block: runtime.D1(128), n: 128},
	{grid: runtime.D1(3), block: runtime.D1(64), n: 192},
}

// cgTileShapes use the 256-thread blocks cg_tiles requires, with more and fewer elements
// than threads.
var cgTileShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(256), n: 256},
	{grid: runtime.D1(3), block: runtime.D1(256), n: 2000},
	{grid: runtime.D1(2), block: runtime.D1(256), n: 100},
}

// partialWarpShapes launch exactly n = grid*block threads in blocks of fewer than 32 threads,
// of a whole number of warps and more, and with a partial last warp.
var partialWarpShapes = []kernelShape{
	{grid: runtime.D1(2), block: runtime.D1(2), n: 4},
	{grid: runtime.D1(3), block: runtime.D1(20), n: 60},
	{grid: runtime.D1(2), block: runtime.D1(64), n: 128},
	{grid: runtime.D1(2), block: runtime.D1(100), n: 200},
	{grid: runtime.D1(1), block: runtime.D1(1024), n: 1024},
}

// mbarrierShapes launch whole-warp blocks, as nvcc/mbarrier.cu requires.
var mbarrierShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
	{grid: runtime.D1(3), block: runtime.D1(64), n: 192},
	{grid: runtime.D1(2), block: runtime.D1(256), n: 512},
	{grid: runtime.D1(1), block: runtime.D1(1024), n: 1024},
}

// cpAsyncShapes launch whole-warp blocks of at most 256 threads, as nvcc/cp_async.cu
// requires.
var cpAsyncShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
	{grid: runtime.D1(3), block: runtime.D1(64), n: 192},
	{grid: runtime.D1(2), block: runtime.D1(256), n: 512},
}

// cgTileReduce sets up cg_tiles' tile_reduce<tile>: per-block sums and per-thread tile sums of
// a grid-stride partition of the input.
func cgTileReduce(f *kernelFixture, s kernelShape, tile int) kernelLaunch {
	threads := int(s.grid.X * s.block.X)
	in := f.i32(s.n, -1<<20, 1<<20)
	out, tiles := outputBuf[int32](f, int(s.grid.X)), outputBuf[int32](f, threads)
	return kernelLaunch{args: []any{out, tiles, inputBuf(f, in), s.n}, check: func(t *testing.T) {
		v := make([]int32, threads)
		for i, x := range in {
			v[i%threads] += x
		}
		wantTiles := make([]int32, threads)
		wantOut := make([]int32, s.grid.X)
		for base := 0; base < threads; base += tile {
			var sum int32
			for _, x := range v[base : base+tile] {
				sum += x
			}
			for g := base; g < base+tile; g++ {
				wantTiles[g] = sum
			}
			wantOut[base/int(s.block.X)] += sum
		}
		requireElems(t, "out", wantOut, readBuf[int32](f, out, int(s.grid.X)))
		requireElems(t, "tiles", wantTiles, readBuf[int32](f, tiles, threads))
	}}
}

// kernelShape is a launch configuration and the problem size it covers.
type kernelShape struct {
	grid, block runtime.Dim3
	n           int // elements (for matrices, the number of columns)
	m, k        int // matrix rows and inner dimension (matmul only)
}

func (s kernelShape) String() string {
	str := fmt.Sprintf("grid%vxblock%v,n=%d", s.grid, s.block, s.n)
	if s.m != 0 {
		str += fmt.Sprintf(",m=%d,k=%d", s.m, s.k)
	}
	return str
}

// kernelLaunch is a prepared launch of a case.
type kernelLaunch struct {
	args   []any
	shared int // dynamic shared memory in bytes
	check  func(t *testing.T)
}

var (
	// boundedShapes suit kernels that check i < n: one full warp, a partial last warp in a
	// partial last block, a single thread, and large blocks with idle threads.
	boundedShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
		{grid: runtime.D1(3), block: runtime.D1(100), n: 250},
		{grid: runtime.D1(1), block: runtime.D1(1), n: 1},
		{grid: runtime.D1(4), block: runtime.D1(256), n: 1000},
		{grid: runtime.D1(2), block: runtime.D1(1024), n: 1500},
	}
	// exactShapes launch exactly n = grid*block threads, some with a partial last warp.
	exactShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
		{grid: runtime.D1(3), block: runtime.D1(100), n: 300},
		{grid: runtime.D1(2), block: runtime.D1(256), n: 512},
		{grid: runtime.D1(1), block: runtime.D1(1024), n: 1024},
	}
	// warpShapes launch exactly n = grid*block threads with blocks of whole warps, as the
	// warp_ops kernels require.
	warpShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
		{grid: runtime.D1(2), block: runtime.D1(64), n: 128},
		{grid: runtime.D1(3), block: runtime.D1(96), n: 288},
		{grid: runtime.D1(2), block: runtime.D1(512), n: 1024},
	}
	// strideShapes have fewer threads than elements, and more.
	strideShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(32), n: 1000},
		{grid: runtime.D1(3), block: runtime.D1(100), n: 1234},
		{grid: runtime.D1(4), block: runtime.D1(256), n: 100},
		{grid: runtime.D1(1), block: runtime.D1(1), n: 7},
	}
	// reduceShapes use the 256-thread blocks reduce_shared requires; the 300-element shape
	// has a block with no elements at all.
	reduceShapes = []kernelShape{
		{grid: runtime.D1(1), block: runtime.D1(256), n: 256},
		{grid: runtime.D1(4), block: runtime.D1(256), n: 1000},
		{grid: runtime.D1(3), block: runtime.D1(256), n: 300},
		{grid: runtime.D1(1), block: runtime.D1(256), n: 1},
	}
	// matmulShapes use 2-D blocks, one of them with a partial last warp (10x10).
	matmulShapes = []kernelShape{
		matmulShape(16, 16, 16, 16, 16),
		matmulShape(37, 29, 45, 10, 10),
		matmulShape(5, 70, 3, 32, 4),
		matmulShape(1, 1, 1, 8, 8),
		matmulShape(20, 33, 17, 16, 16),
	}
	// tiledShapes use the 16x16 blocks matmul_tiled requires.
	tiledShapes = []kernelShape{
		matmulShape(16, 16, 16, 16, 16),
		matmulShape(37, 29, 45, 16, 16),
		matmulShape(5, 70, 3, 16, 16),
		matmulShape(33, 17, 64, 16, 16),
	}
)

// kernelCases lists every kernel of testdata/cuda, grouped by source file.
var kernelCases = []kernelCase{
	// atomics.cu
	{file: "atomics", kernel: "histogram", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const nbins = 13
		data := f.i32(s.n, math.MinInt32, math.MaxInt32)
		bins := inoutBuf(f, make([]uint32, nbins))
		return kernelLaunch{args: []any{bins, inputBuf(f, data), s.n, nbins}, check: func(t *testing.T) {
			want := make([]uint32, nbins)
			for _, d := range data {
				want[uint32(d)%nbins]++
			}
			requireElems(t, "bins", want, readBuf[uint32](f, bins, nbins))
		}}
	}},
	{file: "atomics", kernel: "atomic_sum", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		xi := f.i32(s.n, -1000, 1000)
		// Small integers (and a start of 0.5) keep every partial float sum exact, so the
		// order of the atomic adds does not matter.
		xf := tabulate(s.n, func(i int) float32 { return float32(f.rng.IntN(201) - 100) })
		isum := inoutBuf(f, []int32{12345})
		fsum := inoutBuf(f, []float32{0.5})
		return kernelLaunch{args: []any{isum, fsum, inputBuf(f, xi), inputBuf(f, xf), s.n}, check: func(t *testing.T) {
			wantI, wantF := int32(12345), float32(0.5)
			for i := range s.n {
				wantI += xi[i]
				wantF += xf[i]
			}
			requireElems(t, "isum", []int32{wantI}, readBuf[int32](f, isum, 1))
			requireElemsF32(t, "fsum", []float32{wantF}, readBuf[float32](f, fsum, 1))
		}}
	}},
	{file: "atomics", kernel: "bucket_max", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const nb = 6
		keys := f.i32(s.n, 0, nb-1)
		vals := f.i32(s.n, math.MinInt32, math.MaxInt32)
		mxInit := f.i32(nb, -1<<30, 1<<30)
		mnInit := f.i32(nb, -1<<30, 1<<30)
		mx, mn := inoutBuf(f, mxInit), inoutBuf(f, mnInit)
		return kernelLaunch{args: []any{mx, mn, inputBuf(f, keys), inputBuf(f, vals), s.n}, check: func(t *testing.T) {
			wantMx, wantMn := slices.Clone(mxInit), slices.Clone(mnInit)
			for i, k := range keys {
				wantMx[k] = max(wantMx[k], vals[i])
				wantMn[k] = min(wantMn[k], vals[i])
			}
			requireElems(t, "mx", wantMx, readBuf[int32](f, mx, nb))
			requireElems(t, "mn", wantMn, readBuf[int32](f, mn, nb))
		}}
	}},
	{file: "atomics", kernel: "saturating_add", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const initial = 17
		v := f.i32(s.n, 0, 1000)
		total := 0
		for _, x := range v {
			total += int(x)
		}
		// About half the launches saturate.
		limit := initial + f.rng.IntN(2*total+1)
		counter := inoutBuf(f, []int32{initial})
		return kernelLaunch{args: []any{counter, inputBuf(f, v), s.n, limit}, check: func(t *testing.T) {
			want := int32(min(initial+total, limit))
			requireElems(t, "counter", []int32{want}, readBuf[int32](f, counter, 1))
		}}
	}},
	{file: "atomics", kernel: "compact", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -50, 50)
		// The order of out depends on the order of the atomics: it is checked as a multiset
		// and not compared between worker counts.
		out := inputBuf(f, poisonedSlice[int32](s.n))
		count := inoutBuf(f, []int32{0})
		return kernelLaunch{args: []any{out, count, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			var pos []int32
			for _, x := range in {
				if x > 0 {
					pos = append(pos, x)
				}
			}
			requireElems(t, "count", []int32{int32(len(pos))}, readBuf[int32](f, count, 1))
			got := readBuf[int32](f, out, s.n)
			slices.Sort(pos)
			head := slices.Clone(got[:len(pos)])
			slices.Sort(head)
			requireElems(t, "sorted out[:count]", pos, head)
			requireElems(t, "out[count:] (unwritten)", poisonedSlice[int32](s.n-len(pos)), got[len(pos):])
		}}
	}},
	{file: "atomics", kernel: "exchange", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const initial = -7
		// Which thread gets which previous value depends on the order of the atomics: the
		// results are checked as a permutation and not compared between worker counts.
		slot := inputBuf(f, []int32{initial})
		prev := inputBuf(f, poisonedSlice[int32](s.n))
		return kernelLaunch{args: []any{slot, prev, s.n}, check: func(t *testing.T) {
			got := append(readBuf[int32](f, prev, s.n), readBuf[int32](f, slot, 1)...)
			slices.Sort(got)
			want := append([]int32{initial}, tabulate(s.n, func(i int) int32 { return int32(i + 1) })...)
			requireElems(t, "sorted prev+slot", want, got)
		}}
	}},

	// bitops.cu
	{file: "bitops", kernel: "bitops32", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.u32(s.n), 0, 1, math.MaxUint32, 1<<31, 0x00f0_0000)
		sh := f.u32(s.n)
		out := outputBuf[uint32](f, 12*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), inputBuf(f, sh), s.n}, check: func(t *testing.T) {
			var want []uint32
			for i, x := range in {
				want = append(want, refBitops32(x, sh[i])...)
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, 12*s.n))
		}}
	}},
	{file: "bitops", kernel: "bitops64", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.u64(s.n), 0, 1, math.MaxUint64, 1<<63, 0xff<<20)
		out := outputBuf[uint64](f, 4*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			var want []uint64
			for _, x := range in {
				want = append(want, uint64(bits.OnesCount64(x)), uint64(bits.LeadingZeros64(x)),
					bits.Reverse64(x), bits.RotateLeft64(x, 13))
			}
			requireElems(t, "out", want, readBuf[uint64](f, out, 4*s.n))
		}}
	}},

	// constant_data.cu
	{file: "constant_data", kernel: "poly_eval", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		coeffs := []float32{1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125, 0.015625, -0.0078125}
		xs := f.f32(s.n, -2, 2)
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, xs), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 {
				r := coeffs[7]
				for k := 6; k >= 0; k-- {
					r = refFMA32(r, xs[i], coeffs[k]) // contracted to fma.rn.f32
				}
				return r
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "constant_data", kernel: "lut_lookup", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		lut := []int32{-3, -2, 1, 6, 13, 22, 33, 46, 61, 78, 97, 118, 141, 166, 193, 222}
		const scale, bias = float32(2.5), int32(7)
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 { return lut[in[i]&15]*bias + int32(scale*float32(i)) })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// convert.cu
	{file: "convert", kernel: "to_int", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -3e6, 3e6)
		for i := range in {
			if f.rng.IntN(3) == 0 {
				in[i] = float32(f.rng.IntN(201)-100) + 0.5 // exact halves
			}
		}
		in = withSpecials(in, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, float32(math.Copysign(0, -1)), 1e-30, -7.99,
			2147483520, -2147483520)
		out := outputBuf[int32](f, 5*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			var want []int32
			for _, x := range in {
				d := float64(x)
				want = append(want, int32(x), int32(math.RoundToEven(d)), int32(math.Floor(d)),
					int32(math.Ceil(d)), int32(uint32(math.Abs(d))))
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 5*s.n))
		}}
	}},
	{file: "convert", kernel: "to_float", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := make([]int64, s.n)
		for i := range in {
			switch f.rng.IntN(3) {
			case 0:
				in[i] = int64(f.rng.Uint64())
			case 1:
				in[i] = f.rng.Int64N(1<<34) - 1<<33
			default:
				in[i] = f.rng.Int64N(1<<20) - 1<<19
			}
		}
		in = withSpecials(in, 0, -1, math.MaxInt64, math.MinInt64, 1<<24+1, -(1<<24 + 1),
			math.MaxInt32, math.MaxUint32, 1<<53+1, 0x7fff_ffc0)
		out := outputBuf[float32](f, 5*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			var want []float32
			for _, v := range in {
				want = append(want, float32(int32(v)), float32(uint32(v)), float32(v), float32(uint64(v)),
					refF32RZ(float64(int32(v))))
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, 5*s.n))
		}}
	}},
	{file: "convert", kernel: "f64_roundtrip", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := make([]float64, s.n)
		for i := range in {
			if f.rng.IntN(2) == 0 {
				in[i] = (f.rng.Float64()*2 - 1) * 2e9
			} else {
				in[i] = (f.rng.Float64()*2 - 1) * 7e4
			}
		}
		in = withSpecials(in, 0, -0.5, 1e-40, -3e-39, 32767.9, 32768, -32769.5, 1.0000000596046448)
		out := outputBuf[float64](f, 4*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			var want []float64
			for _, d := range in {
				want = append(want, float64(float32(d)), float64(refF32RZ(d)), float64(int64(d)),
					float64(int16(int32(d))))
			}
			requireElemsF64(t, "out", want, readBuf[float64](f, out, 4*s.n))
		}}
	}},

	// divergent_loop.cu
	{file: "divergent_loop", kernel: "collatz_steps", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		start := withSpecials(tabulate(s.n, func(int) uint32 { return uint32(f.rng.IntN(1_000_000)) }),
			0, 1, 2, 27, 837799, math.MaxUint32)
		steps := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{steps, inputBuf(f, start), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 { return refCollatz(start[i]) })
			requireElems(t, "steps", want, readBuf[int32](f, steps, s.n))
		}}
	}},
	{file: "divergent_loop", kernel: "tid_hash", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.u32(s.n)
		out := outputBuf[uint32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, seed), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) uint32 {
				h := uint32(17)
				for k := range uint32(i)%s.block.X + 1 {
					h = h*31 + (k ^ seed[i])
				}
				return h
			})
			requireElems(t, "out", want, readBuf[uint32](f, out, s.n))
		}}
	}},

	// dynamic_shared.cu
	{file: "dynamic_shared", kernel: "block_reverse", shapes: exactShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -100, 100)
		out := outputBuf[float32](f, s.n)
		b := int(s.block.X)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, shared: 4 * b, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 { return in[i/b*b+b-1-i%b] })
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "dynamic_shared", kernel: "stencil3", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		x := f.f32(s.n, -100, 100)
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, x), s.n}, shared: 4 * (int(s.block.X) + 2), check: func(t *testing.T) {
			at := func(i int) float32 {
				if i < 0 || i >= s.n {
					return 0
				}
				return x[i]
			}
			want := tabulate(s.n, func(i int) float32 { return (at(i-1) + at(i) + at(i+1)) / 3 })
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},

	// barrier_exit.cu
	{file: "barrier_exit", kernel: "early_return_barrier", shapes: exactShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		k := 1 + f.rng.IntN(bd)
		if bd == 256 {
			k = 77
		}
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), k}, check: func(t *testing.T) {
			want := poisonedSlice[int32](s.n)
			for g := range s.n {
				base, t := g-g%bd, g%bd
				if t < k {
					want[g] = in[base+(t+1)%k] + in[base+k-1-t]
				}
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "barrier_exit", kernel: "interleaved_return_barrier", shapes: exactShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := poisonedSlice[int32](s.n)
			for g := range s.n {
				base, t := g-g%bd, g%bd
				if t%3 == 0 {
					continue
				}
				u := t + 3
				if u >= bd {
					u = 1
				}
				want[g] = in[base+u]*3 + in[g]
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "barrier_exit", kernel: "warp_handoff", waitsInWarp: true, shapes: warpShapes[1:], setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				b, t := g/bd, g%bd
				if t < 32 {
					return int32(1000*(b+1)+bd) + int32(t)
				}
				return int32(t)
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// nvcc/mbarrier.cu
	{file: "mbarrier", kernel: "barrier_rounds", clocked: true, shapes: mbarrierShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		bd := int(s.block.X)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			at := func(g, k int) int32 { return in[g-g%bd+(g%bd+k)%bd] }
			want := tabulate(s.n, func(g int) int32 { return at(g, 1) + 2*at(g, 2) + 4*at(g, 3) })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "mbarrier", kernel: "barrier_drop", clocked: true, shapes: mbarrierShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		bd := int(s.block.X)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				base, t := g-g%bd, g%bd
				if t >= bd/2 {
					return in[g]
				}
				w := func(t int) int32 { return in[base+(t+1)%bd] }
				return in[g] + w(t) + 3*w((t+1)%(bd/2))
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "mbarrier", kernel: "barrier_split", clocked: true, shapes: mbarrierShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		bd := int(s.block.X)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				b, t := g/bd, g%bd
				return in[g] ^ 0x55 + in[b*32+t*5%32]*7
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// nvcc/cp_async.cu
	{file: "cp_async", kernel: "pipeline_tiles", shapes: cpAsyncShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd, tiles := int(s.block.X), 2+int(s.grid.X)
		in := f.i32(s.n*tiles, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), int32(tiles)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				b, t := g/bd, g%bd
				acc := int32(0)
				for k := range tiles {
					acc += int32(k+1) * in[(b*tiles+k)*bd+(t+1)%bd]
				}
				return acc
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "cp_async", kernel: "pipeline_wide", shapes: cpAsyncShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		in2, in4 := f.i32(2*s.n, -1<<20, 1<<20), f.i32(4*s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in2), inputBuf(f, in4)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				base, t := g-g%bd, g%bd
				a, b := in2[2*(base+(t+1)%bd):], in4[4*(base+(t+2)%bd):]
				return a[0] - a[1] + b[0] + 2*b[1] + 3*b[2] + 4*b[3]
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	// m leaves the chunk before the block's last two partly filled (3, 1 or 2 of its ints)
	// and the input ends at the last block's m-th int, so reading past src-size faults.
	{file: "cp_async", kernel: "pipeline_zfill", shapes: cpAsyncShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd, grid := int(s.block.X), int(s.grid.X)
		m := 4*bd - 8 - grid
		in := f.i32((grid-1)*4*bd+m, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), int32(m)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				b, c := g/bd, (g%bd+1)%bd
				acc := int32(0)
				for i := range 4 {
					if 4*c+i < m {
						acc += int32(i+1) * in[b*4*bd+4*c+i]
					}
				}
				return acc
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "cp_async", kernel: "barrier_copy", clocked: true, shapes: cpAsyncShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		// Small integers: every sum is exact, whatever the order of the additions.
		in := tabulate(2*4*s.n, func(int) float32 { return float32(f.i32(1, -1000, 1000)[0]) })
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			sum := func(i int) float32 { return in[4*i] + in[4*i+1] + in[4*i+2] + in[4*i+3] }
			want := tabulate(s.n, func(g int) float32 {
				base, t := g-g%bd, g%bd
				return 2*sum(base+(t+1)%bd) + sum(s.n+base+(t+3)%bd)
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},

	{file: "cp_async", kernel: "cg_copy", shapes: cpAsyncShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 { return in[g-g%bd+(g%bd+5)%bd] - in[g] })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// nvcc/grid_constant.cu
	{file: "grid_constant", kernel: "grid_const", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(8*s.n, -10, 10)
		w := [8]float32(f.f32(8, -2, 2))
		n := int32(f.rng.IntN(9))
		c := structBytes(f, struct {
			W [8]float32
			N int32
		}{w, n})
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{c, inputBuf(f, in), out, s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 {
				var d float32
				for k := range int(n) {
					d = refFMA32(w[k], in[8*i+k], d)
				}
				return d
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},

	// nvcc/shfl_partial.cu
	{file: "shfl_partial", kernel: "warp_sum_partial", shapes: partialWarpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		warps := (bd + 31) / 32
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, int(s.grid.X)*warps)
		return kernelLaunch{args: []any{inputBuf(f, in), out}, check: func(t *testing.T) {
			want := make([]int32, int(s.grid.X)*warps)
			for g, x := range in {
				want[g/bd*warps+g%bd/32] += x
			}
			requireElems(t, "out", want, readBuf[int32](f, out, len(want)))
		}}
	}},
	{file: "shfl_partial", kernel: "ballot_sum", shapes: partialWarpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, int(s.grid.X))
		return kernelLaunch{args: []any{inputBuf(f, in), out}, check: func(t *testing.T) {
			want := make([]int32, s.grid.X)
			for g, x := range in {
				want[g/bd] += x
			}
			requireElems(t, "out", want, readBuf[int32](f, out, len(want)))
		}}
	}},

	// nvcc/cg_tiles.cu
	{file: "cg_tiles", kernel: "tile_reduce64", shapes: cgTileShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		return cgTileReduce(f, s, 64)
	}},
	{file: "cg_tiles", kernel: "tile_reduce128", shapes: cgTileShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		return cgTileReduce(f, s, 128)
	}},
	{file: "cg_tiles", kernel: "tile_shuffle", waitsInWarp: true, shapes: cgTileShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		threads := int(s.grid.X * s.block.X)
		in := f.i32(threads, math.MinInt32, math.MaxInt32)
		out, ranks := outputBuf[int32](f, threads), outputBuf[int32](f, threads)
		return kernelLaunch{args: []any{out, ranks, inputBuf(f, in)}, check: func(t *testing.T) {
			wantOut := tabulate(threads, func(g int) int32 { return in[g-g%64+(g%64+1)%64] })
			wantRanks := tabulate(threads, func(g int) int32 { return int32(g%64 | g%256/64<<8 | 64<<16) })
			requireElems(t, "out", wantOut, readBuf[int32](f, out, threads))
			requireElems(t, "ranks", wantRanks, readBuf[int32](f, ranks, threads))
		}}
	}},
	{file: "cg_tiles", kernel: "warp_size", shapes: exactShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		out := outputBuf[int32](f, s.n)
		bd := int(s.block.X)
		return kernelLaunch{args: []any{out}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 { return int32(32*1000 + g%bd%32 + g%bd/32*100) })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// its.cu
	{file: "its", kernel: "spin_lock", shapes: itsShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		lock := inoutBuf(f, []int32{0})
		counter := inoutBuf(f, []int32{7})
		sum := inoutBuf(f, []int32{0})
		return kernelLaunch{args: []any{lock, counter, sum}, check: func(t *testing.T) {
			n := int32(s.grid.X * s.block.X)
			requireElems(t, "lock", []int32{0}, readBuf[int32](f, lock, 1))
			requireElems(t, "counter", []int32{7 + n}, readBuf[int32](f, counter, 1))
			requireElems(t, "sum", []int32{n * (n - 1) / 2}, readBuf[int32](f, sum, 1))
		}}
	}},
	{file: "its", kernel: "lane_handoff", waitsInWarp: true, shapes: itsShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		nb := int(s.grid.X)
		flags := inoutBuf(f, make([]int32, 2*nb))
		out := outputBuf[int32](f, 2*nb)
		return kernelLaunch{args: []any{flags, out}, check: func(t *testing.T) {
			want := make([]int32, 2*nb)
			for b := range nb {
				want[2*b], want[2*b+1] = int32(2*(b+1)), int32(b+1)
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 2*nb))
			flagsWant := make([]int32, 2*nb)
			for b := range nb {
				flagsWant[2*b], flagsWant[2*b+1] = int32(b+1), int32(2*(b+1))
			}
			requireElems(t, "flags", flagsWant, readBuf[int32](f, flags, 2*nb))
		}}
	}},
	{file: "its", kernel: "syncwarp_both_sides", waitsInWarp: true, shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(g int) int32 {
				if g%32 < 16 {
					return in[g^16] + 1000
				}
				return in[g^16] + 2000
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "its", kernel: "store_return_barrier", shapes: exactShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		bd := int(s.block.X)
		in := f.i32(s.n, -1<<20, 1<<20)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := poisonedSlice[int32](s.n)
			for g := range s.n {
				base, t := g-g%bd, g%bd
				switch t % 3 {
				case 1:
					want[g] = int32(-t)
				case 2:
					u := t + 3
					if u >= bd {
						u = 2
					}
					want[g] = in[base+u] + in[g]
				}
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// early_exit.cu
	{file: "early_exit", kernel: "find_first", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const cols, target = 20, 7
		data := tabulate(s.n*cols, func(int) int32 {
			if f.rng.IntN(100) < 3 {
				return -1 - int32(f.rng.IntN(10))
			}
			return int32(f.rng.IntN(40))
		})
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, data), s.n, cols, target}, check: func(t *testing.T) {
			want := tabulate(s.n, func(r int) int32 { return refFindFirst(data[r*cols:(r+1)*cols], target) })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "early_exit", kernel: "classify_sum", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := tabulate(s.n, func(int) int32 {
			switch f.rng.IntN(10) {
			case 0:
				return int32(f.rng.IntN(1000)) - 1000
			case 1:
				return 0
			case 2:
				return 10000 + int32(f.rng.IntN(1<<20))
			case 3, 4:
				return 100 + int32(f.rng.IntN(9900))
			default:
				return 1 + int32(f.rng.IntN(99))
			}
		})
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 {
				var sum int32
				for _, v := range in[i:] {
					c := refClassify(v)
					sum += c
					if c == 3 {
						break
					}
				}
				return sum
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// fp64_math.cu
	{file: "fp64_math", kernel: "dnorm", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		xs, ys := f.f64(s.n, -1e3, 1e3), f.f64(s.n, -1e3, 1e3)
		out := outputBuf[float64](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, xs), inputBuf(f, ys), s.n}, check: func(t *testing.T) {
			var want []float64
			for i, x := range xs {
				y := ys[i]
				// x*x + y*y is contracted to fma.rn.f64(x, x, y*y).
				want = append(want, math.Sqrt(math.FMA(x, x, y*y)), math.Min(x, y)/math.Max(math.Abs(x), 1))
			}
			requireElemsF64(t, "out", want, readBuf[float64](f, out, 2*s.n))
		}}
	}},
	{file: "fp64_math", kernel: "newton_sqrt", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := tabulate(s.n, func(int) float64 { return math.Exp(f.rng.Float64()*20 - 5) })
		iters := f.rng.IntN(10)
		out := outputBuf[float64](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), iters, s.n}, check: func(t *testing.T) {
			// At -O2 clang unrolls the loop and fuses g*0.5 + a/g into an fma, but halving is
			// exact, so the fma rounds the same sum as 0.5*(g + a/g) does.
			want := tabulate(s.n, func(i int) float64 {
				a, g := in[i], in[i]
				for range iters {
					g = 0.5 * (g + a/g)
				}
				return g
			})
			requireElemsF64(t, "out", want, readBuf[float64](f, out, s.n))
		}}
	}},

	// funcptr.cu
	{file: "funcptr", kernel: "funcptr", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		sel := f.i32(s.n, math.MinInt32, math.MaxInt32)
		a, b := f.f32(s.n, -100, 100), f.f32(s.n, -100, 100)
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, sel), inputBuf(f, a), inputBuf(f, b), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 {
				switch x, y := a[i], b[i]; sel[i] & 3 {
				case 0:
					return x + y
				case 1:
					return x - y
				case 2:
					return x * y
				default:
					if x > y {
						return x
					}
					return y
				}
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "funcptr", kernel: "funcptr_tid", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), math.MinInt32, 0, -1, 46341)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 {
				v := in[i]
				for range 2 {
					switch uint32(i) % s.block.X % 3 {
					case 0:
						v = 2 * v
					case 1:
						v = v * v
					default:
						v = -v
					}
				}
				return v
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// grid_stride.cu
	{file: "grid_stride", kernel: "grid_stride_scale", shapes: strideShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -100, 100)
		scale := float32(f.rng.Float64()*4 - 2)
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), scale, s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 { return refFMA32(in[i], scale, float32(i)) }) // contracted
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "grid_stride", kernel: "grid_stride_partial", shapes: strideShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		threads := int(s.grid.X * s.block.X)
		partial := outputBuf[int32](f, threads)
		return kernelLaunch{args: []any{partial, inputBuf(f, in), int64(s.n)}, check: func(t *testing.T) {
			want := make([]int32, threads)
			for i, x := range in {
				want[i%threads] += x
			}
			requireElems(t, "partial", want, readBuf[int32](f, partial, threads))
		}}
	}},

	// int64_math.cu
	{file: "int64_math", kernel: "int64_math", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		pick := func() int64 {
			if f.rng.IntN(2) == 0 {
				return int64(f.rng.Uint64())
			}
			return f.rng.Int64N(2001) - 1000
		}
		as, bs := tabulate(s.n, func(int) int64 { return pick() }), tabulate(s.n, func(int) int64 { return pick() })
		as = withSpecials(as, math.MinInt64, 12345, 0, -5, 5, math.MaxInt64, math.MinInt64, -1)
		bs = withSpecials(bs, -1, 0, 0, 3, -3, 2, 1, math.MinInt64)
		out := outputBuf[int64](f, 10*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), s.n}, check: func(t *testing.T) {
			var want []int64
			for i, a := range as {
				want = append(want, refInt64Math(a, bs[i])...)
			}
			requireElems(t, "out", want, readBuf[int64](f, out, 10*s.n))
		}}
	}},
	{file: "int64_math", kernel: "mix64", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.rng.Uint64()
		out := outputBuf[uint64](f, s.n)
		return kernelLaunch{args: []any{out, seed, s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) uint64 {
				z := seed + uint64(i)*0x9E3779B97F4A7C15
				z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
				z = (z ^ z>>27) * 0x94D049BB133111EB
				return z ^ z>>31
			})
			requireElems(t, "out", want, readBuf[uint64](f, out, s.n))
		}}
	}},

	// local_array.cu
	{file: "local_array", kernel: "sort8", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(8*s.n, math.MinInt32, math.MaxInt32)
		for i := range in {
			if f.rng.IntN(2) == 0 {
				in[i] = int32(f.rng.IntN(7) - 3) // duplicates
			}
		}
		out := outputBuf[int32](f, 8*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := slices.Clone(in)
			for i := range s.n {
				slices.Sort(want[8*i : 8*i+8])
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 8*s.n))
		}}
	}},
	{file: "local_array", kernel: "nibble_hist", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.u32(s.n), 0, math.MaxUint32, 0x12345678)
		out := outputBuf[int32](f, 16*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := make([]int32, 16*s.n)
			for i, v := range in {
				for k := range 8 {
					want[16*i+int(v>>(4*k)&15)]++
				}
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 16*s.n))
		}}
	}},

	// matmul_2d.cu
	{file: "matmul_2d", kernel: "matmul", shapes: matmulShapes, setup: setupMatmul},
	{file: "matmul_2d", kernel: "matmul_tiled", shapes: tiledShapes, setup: setupMatmul},

	// recursion.cu
	{file: "recursion", kernel: "recursion", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// in[i] <= 16 (the source allows 25) keeps the call trees small enough to run quickly under -race.
		in := withSpecials(f.i32(s.n, 0, 16), 0, 1, 2, 16)
		in2 := withSpecials(tabulate(s.n, func(int) uint32 { return uint32(f.rng.IntN(1000)) }), 0, 0, 7, 12)
		fibs, depths, gcds := outputBuf[int32](f, s.n), outputBuf[int32](f, s.n), outputBuf[uint32](f, s.n)
		return kernelLaunch{args: []any{fibs, depths, gcds, inputBuf(f, in), inputBuf(f, in2), s.n}, check: func(t *testing.T) {
			requireElems(t, "fibs", tabulate(s.n, func(i int) int32 { return refFib(in[i]) }), readBuf[int32](f, fibs, s.n))
			requireElems(t, "depths", tabulate(s.n, func(i int) int32 { return refTreeDepth(uint32(in[i])) }), readBuf[int32](f, depths, s.n))
			requireElems(t, "gcds", tabulate(s.n, func(i int) uint32 { return refGCD(uint32(in[i]), in2[i]) }), readBuf[uint32](f, gcds, s.n))
		}}
	}},

	// reduce_shared.cu
	{file: "reduce_shared", kernel: "reduce_sum", shapes: reduceShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		blocks := int(s.grid.X)
		out := outputBuf[int32](f, blocks)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := make([]int32, blocks)
			for i, x := range in {
				want[i/256] += x
			}
			requireElems(t, "out", want, readBuf[int32](f, out, blocks))
		}}
	}},
	{file: "reduce_shared", kernel: "reduce_max", shapes: reduceShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -1e6, 1e6)
		blocks := int(s.grid.X)
		out := outputBuf[float32](f, blocks)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(blocks, func(int) float32 { return float32(math.Inf(-1)) })
			for i, x := range in {
				want[i/256] = max(want[i/256], x)
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, blocks))
		}}
	}},

	// saxpy_math.cu
	{file: "saxpy_math", kernel: "saxpy", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		x, y := f.f32(s.n, -100, 100), f.f32(s.n, -100, 100)
		a := float32(f.rng.Float64()*10 - 5)
		yp := inoutBuf(f, y)
		return kernelLaunch{args: []any{yp, inputBuf(f, x), a, s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 { return refFMA32(a, x[i], y[i]) })
			requireElemsF32(t, "y", want, readBuf[float32](f, yp, s.n))
		}}
	}},
	{file: "saxpy_math", kernel: "float_math", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// |x| <= 3 keeps expf(-x*x) well above the float32 subnormal range.
		xs, ys := f.f32(s.n, -3, 3), f.f32(s.n, -3, 3)
		r := [4]runtime.Ptr{outputBuf[float32](f, s.n), outputBuf[float32](f, s.n), outputBuf[float32](f, s.n), outputBuf[float32](f, s.n)}
		return kernelLaunch{args: []any{r[0], r[1], r[2], r[3], inputBuf(f, xs), inputBuf(f, ys), s.n}, check: func(t *testing.T) {
			want0 := tabulate(s.n, func(i int) float32 { return float32(math.Sqrt(math.Abs(float64(xs[i])))) })
			want1 := tabulate(s.n, func(i int) float32 {
				x, y := xs[i], ys[i]
				return min(x, y) - max(x, y)/refFMA32(y, y, 1) // 1 + y*y is contracted
			})
			// expf(x) is ex2.approx.f32(x*x * -log2(e)), both products rounded to float32.
			// ex2.approx has a maximum relative error of about 2^-22; allow 2^-20.
			log2e := float32(-math.Log2E)
			want2 := tabulate(s.n, func(i int) float64 {
				x := xs[i]
				return math.Exp2(float64(float32(x*x) * log2e))
			})
			want3 := tabulate(s.n, func(i int) float32 { return min(max(refFMA32(xs[i], ys[i], 0.5), -1), 1) })
			requireElemsF32(t, "r0", want0, readBuf[float32](f, r[0], s.n))
			requireElemsF32(t, "r1", want1, readBuf[float32](f, r[1], s.n))
			requireElemsNear(t, "r2", want2, readBuf[float32](f, r[2], s.n), 0x1p-20)
			requireElemsF32(t, "r3", want3, readBuf[float32](f, r[3], s.n))
		}}
	}},

	// short_ifs.cu
	{file: "short_ifs", kernel: "short_ifs", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		const lo, hi = -50, 60
		in := f.f32(s.n, -100, 100)
		flags := f.i32(s.n, 0, 3)
		markInit := f.f32(s.n, -1, 1)
		countInit := []int32{int32(f.rng.IntN(100)), int32(f.rng.IntN(100))}
		out, mark, count := outputBuf[float32](f, s.n), inoutBuf(f, markInit), inoutBuf(f, countInit)
		return kernelLaunch{args: []any{out, mark, count, inputBuf(f, in), inputBuf(f, flags), s.n, float32(lo), float32(hi)}, check: func(t *testing.T) {
			want, wantMark, wantCount := make([]float32, s.n), slices.Clone(markInit), slices.Clone(countInit)
			for i, x := range in {
				if x < lo {
					x = lo
					wantCount[0]++
				} else if x > hi {
					x = hi
					wantCount[1]++
				}
				if i+1 < s.n && in[i+1] > 0 {
					x += in[i+1]
				}
				if x < 0 && i > 0 {
					x = in[i-1]
				}
				switch {
				case flags[i]&1 != 0:
					wantMark[i] = x
				case flags[i]&2 != 0:
					wantMark[i] = -x
				}
				want[i] = x
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
			requireElemsF32(t, "mark", wantMark, readBuf[float32](f, mark, s.n))
			requireElems(t, "count", wantCount, readBuf[int32](f, count, 2))
		}}
	}},

	// struct_byval.cu
	{file: "struct_byval", kernel: "affine", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -100, 100)
		scale, bias := float32(f.rng.Float64()*4-2), float32(f.rng.Float64()*20-10)
		flags := int32(f.rng.IntN(4)) // only bit 0 counts
		p := structBytes(f, struct {
			Scale, Bias float32
			N, Flags    int32
		}{scale, bias, int32(s.n), flags})
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), p}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 {
				y := refFMA32(in[i], scale, bias) // contracted
				if flags&1 != 0 {
					y = max(y, 0)
				}
				return y
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "struct_byval", kernel: "vec_ops", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		v := f.f32(3*s.n, -10, 10)
		dir := [3]float32(f.f32(3, -10, 10))
		dots, crosses := outputBuf[float32](f, s.n), outputBuf[float32](f, 3*s.n)
		return kernelLaunch{args: []any{dots, crosses, inputBuf(f, v), structBytes(f, dir), s.n}, check: func(t *testing.T) {
			var wantDots, wantCrosses []float32
			for i := range s.n {
				d, c := refVec3(v[3*i:3*i+3], dir[:], f.level != "nvcc")
				wantDots = append(wantDots, d)
				wantCrosses = append(wantCrosses, c[:]...)
			}
			requireElemsF32(t, "dots", wantDots, readBuf[float32](f, dots, s.n))
			requireElemsF32(t, "crosses", wantCrosses, readBuf[float32](f, crosses, 3*s.n))
		}}
	}},
	{file: "struct_byval", kernel: "mixed_param", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		// struct Mixed { char tag; double weight; int offset; short step; }: 24 bytes, align 8.
		m := struct {
			Tag    int8
			_      [7]byte
			Weight float64
			Offset int32
			Step   int16
			_      [2]byte
		}{Tag: int8(f.rng.IntN(256) - 128), Weight: f.rng.Float64()*8 - 4,
			Offset: int32(f.rng.Uint32()), Step: int16(f.rng.IntN(1 << 16))}
		out := outputBuf[float64](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), structBytes(f, m), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float64 {
				ints := m.Offset + int32(i)*int32(m.Step) + int32(m.Tag)
				return math.FMA(float64(in[i]), m.Weight, float64(ints)) // contracted
			})
			requireElemsF64(t, "out", want, readBuf[float64](f, out, s.n))
		}}
	}},

	// switch_dense.cu
	{file: "switch_dense", kernel: "switch_dense", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		for i := range in {
			if f.rng.IntN(2) == 0 {
				in[i] = int32(f.rng.IntN(2001) - 1000)
			}
		}
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 { return refSwitchDense(in[i], int32(i)) })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "switch_dense", kernel: "switch_default", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := withSpecials(f.i32(s.n, -3, 12), math.MinInt32, math.MaxInt32, 9, -1)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 {
				if v := in[i]; v >= 0 && v <= 8 {
					return 10 + 11*v
				}
				return -1
			})
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},

	// vecadd.cu
	{file: "vecadd", kernel: "vecadd", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		a, b := f.f32(s.n, -100, 100), f.f32(s.n, -100, 100)
		c := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{c, inputBuf(f, a), inputBuf(f, b), s.n}, check: func(t *testing.T) {
			requireElemsF32(t, "c", tabulate(s.n, func(i int) float32 { return a[i] + b[i] }), readBuf[float32](f, c, s.n))
		}}
	}},

	// vector_types.cu
	{file: "vector_types", kernel: "scale4", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		a, b := f.f32(4*s.n, -100, 100), f.f32(4*s.n, -100, 100)
		scale := float32(f.rng.Float64()*4 - 2)
		out := outputBuf[float32](f, 4*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, a), inputBuf(f, b), scale, s.n}, check: func(t *testing.T) {
			want := tabulate(4*s.n, func(i int) float32 { return refFMA32(a[i], scale, b[i]) }) // contracted
			requireElemsF32(t, "out", want, readBuf[float32](f, out, 4*s.n))
		}}
	}},
	{file: "vector_types", kernel: "swap2", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(2*s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := make([]int32, 0, 2*s.n)
			for i := range s.n {
				x, y := in[2*i], in[2*i+1]
				want = append(want, y, x+y)
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 2*s.n))
		}}
	}},

	// warp_ops.cu
	{file: "warp_ops", kernel: "warp_reduce_sum", shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, s.n/32)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := make([]int32, s.n/32)
			for i, x := range in {
				want[i/32] += x
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n/32))
		}}
	}},
	{file: "warp_ops", kernel: "warp_allreduce_max", shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.f32(s.n, -1e3, 1e3)
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 { return slices.Max(in[i/32*32 : i/32*32+32]) })
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "warp_ops", kernel: "warp_scan", shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := slices.Clone(in)
			for i := range want {
				if i%32 != 0 {
					want[i] += want[i-1]
				}
			}
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "warp_ops", kernel: "warp_broadcast", shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		out := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 { return in[i/32*32+int(in[i]&31)] })
			requireElems(t, "out", want, readBuf[int32](f, out, s.n))
		}}
	}},
	{file: "warp_ops", kernel: "warp_votes", shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Each warp is all positive, all non-positive, or mixed.
		in := make([]int32, s.n)
		for w := range s.n / 32 {
			mode := f.rng.IntN(4)
			for l := range 32 {
				v := int32(f.rng.IntN(1000) + 1)
				if mode == 1 || mode >= 2 && f.rng.IntN(2) == 0 {
					v = -v + 1 // <= 0
				}
				in[32*w+l] = v
			}
		}
		warps := s.n / 32
		ballot := outputBuf[uint32](f, warps)
		anyp, allp, rank := outputBuf[int32](f, s.n), outputBuf[int32](f, s.n), outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{ballot, anyp, allp, rank, inputBuf(f, in)}, check: func(t *testing.T) {
			wantBallot := make([]uint32, warps)
			for i, v := range in {
				if v > 0 {
					wantBallot[i/32] |= 1 << (i % 32)
				}
			}
			b01 := func(b bool) int32 {
				if b {
					return 1
				}
				return 0
			}
			requireElems(t, "ballot", wantBallot, readBuf[uint32](f, ballot, warps))
			requireElems(t, "any", tabulate(s.n, func(i int) int32 { return b01(wantBallot[i/32] != 0) }), readBuf[int32](f, anyp, s.n))
			requireElems(t, "all", tabulate(s.n, func(i int) int32 { return b01(wantBallot[i/32] == math.MaxUint32) }), readBuf[int32](f, allp, s.n))
			requireElems(t, "rank", tabulate(s.n, func(i int) int32 {
				return int32(bits.OnesCount32(wantBallot[i/32] & (1<<(i%32) - 1)))
			}), readBuf[int32](f, rank, s.n))
		}}
	}},
}

// setupMatmul prepares matmul and matmul_tiled, which compute the same product in the same
// order: C[r][c] = sum over k = 0, 1, ... of A[r][k]*B[k][c], each step an fma.rn.f32.
func setupMatmul(f *kernelFixture, s kernelShape) kernelLaunch {
	m, n, k := s.m, s.n, s.k
	a, b := f.f32(m*k, -4, 4), f.f32(k*n, -4, 4)
	c := outputBuf[float32](f, m*n)
	return kernelLaunch{args: []any{c, inputBuf(f, a), inputBuf(f, b), m, n, k}, check: func(t *testing.T) {
		want := tabulate(m*n, func(i int) float32 {
			r, col := i/n, i%n
			var acc float32
			for j := range k {
				acc = refFMA32(a[r*k+j], b[j*n+col], acc)
			}
			return acc
		})
		requireElemsF32(t, "C", want, readBuf[float32](f, c, m*n))
	}}
}

// References for the kernels whose computation does not fit in a line or two.

// refBitops32 is bitops32 for one element: the 12 outputs for x = in[i] and sh = sh[i].
func refBitops32(x, sh uint32) []uint32 {
	s := sh & 31
	ffs := uint32(0)
	if x != 0 {
		ffs = uint32(bits.TrailingZeros32(x)) + 1
	}
	return []uint32{
		uint32(bits.OnesCount32(x)),
		uint32(bits.LeadingZeros32(x)),
		bits.Reverse32(x),
		x << s,
		x >> s,
		uint32(int32(x) >> s),
		bits.RotateLeft32(x, int(s)),
		bits.RotateLeft32(x, -int(s)),
		ffs,
		x & -x,
		uint32(bits.OnesCount32(x) & 1),
		uint32((uint64(sh)<<32 | uint64(x)) << s >> 32),
	}
}

// refCollatz counts the Collatz steps from x to 1 in 64-bit arithmetic, capped at 1000.
func refCollatz(start uint32) int32 {
	x, s := uint64(start), int32(0)
	for x != 1 && s < 1000 {
		if x&1 != 0 {
			x = 3*x + 1
		} else {
			x /= 2
		}
		s++
	}
	return s
}

// refFindFirst is find_first for one row.
func refFindFirst(row []int32, target int32) int32 {
	for c, v := range row {
		if v == target {
			return int32(c)
		}
		if v < 0 {
			return -2 - int32(c)
		}
	}
	return -1
}

// refClassify is early_exit.cu's classify.
func refClassify(x int32) int32 {
	switch {
	case x < 0:
		return -1
	case x == 0:
		return 0
	case x < 100:
		return 1
	case x < 10000:
		return 2
	}
	return 3
}

// refInt64Math is int64_math for one element: the 10 outputs for a and b.
func refInt64Math(a, b int64) []int64 {
	ua, ub := uint64(a), uint64(b)
	s := b & 63
	var quo, rem, uquo, urem int64
	if b != 0 && (a != math.MinInt64 || b != -1) {
		quo, rem = a/b, a%b
	}
	if b != 0 {
		uquo, urem = int64(ua/ub), int64(ua%ub)
	}
	hi, _ := bits.Mul64(ua, ub)
	// The signed high half is the unsigned one less b for a negative a and a for a negative b.
	shi := int64(hi) - a>>63&b - b>>63&a
	return []int64{int64(ua * ub), quo, rem, int64(ua << s), a >> s, int64(ua >> s), uquo, urem, int64(hi), shi}
}

// refFib is the n-th Fibonacci number, for n >= 0.
func refFib(n int32) int32 {
	a, b := int32(0), int32(1)
	for range n {
		a, b = b, a+b
	}
	return a
}

// refTreeDepth is recursion.cu's tree_depth: 0 for x <= 1, else 1 + max(depth(x/2), depth(x/3)).
func refTreeDepth(x uint32) int32 {
	if x <= 1 {
		return 0
	}
	return 1 + max(refTreeDepth(x/2), refTreeDepth(x/3))
}

// refGCD is Euclid's gcd with gcd(a, 0) = a.
func refGCD(a, b uint32) uint32 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// refVec3 returns dot3(v, d) and cross3(v, d) as the compilers compiled them: clang contracts
// every sum of two products into an fma of the first product and the rounded second one; nvcc
// contracts the dot product the same way but computes the cross product's a*b - c*d with two
// rounded products and a subtraction (contractCross false).
func refVec3(v, d []float32, contractCross bool) (float32, [3]float32) {
	dot := refFMA32(v[2], d[2], refFMA32(v[0], d[0], float32(v[1]*d[1])))
	ms := func(a, b, c, e float32) float32 {
		if contractCross {
			return refFMA32(a, b, -float32(c*e))
		}
		return float32(float32(a*b) - float32(c*e))
	}
	cross := [3]float32{
		ms(v[1], d[2], v[2], d[1]),
		ms(v[2], d[0], v[0], d[2]),
		ms(v[0], d[1], v[1], d[0]),
	}
	return dot, cross
}

// refSwitchDense is switch_dense for one element v at global index i.
func refSwitchDense(v, i int32) int32 {
	switch v & 7 {
	case 0:
		return v + i
	case 1:
		return v * 3
	case 2:
		return v ^ 0x55
	case 3:
		return v << 2
	case 4:
		return i - v
	case 5:
		return v / 7
	case 6:
		return v * v
	}
	return ^v
}

// Helpers.

// kernelPoison fills output buffers before a launch, so that an element the kernel should have
// written but did not is caught.
const kernelPoison = 0xA5

// Level is one compiled form of a CUDA source: a name (O2, O0, fast, nvcc) and the PTX file's
// path relative to the repository root.
type Level struct{ Name, Path string }

// Levels lists the PTX files `make ptx` compiles from testdata/cuda/FILE.cu: clang at
// -O2 (testdata/ptx), -O0 (testdata/ptx/O0) and -O2 -ffp-contract=fast (testdata/ptx/fast),
// and nvcc at -O3 (testdata/ptx/nvcc); sources in testdata/cuda/nvcc only with nvcc.
func Levels(file string) []Level {
	nvcc := Level{"nvcc", filepath.Join("testdata", "ptx", "nvcc", file+".ptx")}
	if _, err := os.Stat(filepath.Join(root, "testdata", "cuda", "nvcc", file+".cu")); err == nil {
		return []Level{nvcc}
	}
	return []Level{
		{"O2", filepath.Join("testdata", "ptx", file+".ptx")},
		{"O0", filepath.Join("testdata", "ptx", "O0", file+".ptx")},
		{"fast", filepath.Join("testdata", "ptx", "fast", file+".ptx")},
		nvcc,
	}
}

// kernelSeed is the fixed random seed of one shape of one kernel, the same at every
// optimization level and worker count.
func kernelSeed(file, kernel string, shape int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%d", file, kernel, shape)
	return h.Sum64()
}

// kernelFixture is the device state of one launch: the device, the random source for its inputs,
// and the output buffers compared between worker counts.
type kernelFixture struct {
	t *testing.T
	// level is the Level being run, for references that follow a compiler's choices.
	level string
	dev   *runtime.Device
	rng   *rand.Rand
	outs  []kernelRegion
}

// kernelRegion is a device buffer of n bytes at p.
type kernelRegion struct {
	p runtime.Ptr
	n int
}

// newKernelFixture returns a fixture with a fresh device and a random source seeded with seed.
func newKernelFixture(t *testing.T, seed uint64) *kernelFixture {
	return &kernelFixture{t: t, dev: runtime.NewDevice(), rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// outputs returns the bytes of the fixture's compared output buffers.
func (f *kernelFixture) outputs() [][]byte {
	out := make([][]byte, len(f.outs))
	for i, r := range f.outs {
		out[i] = make([]byte, r.n)
		require.NoError(f.t, f.dev.CopyOut(out[i], r.p))
	}
	return out
}

// inputBuf copies s to a new device buffer that is not compared between worker counts: an
// input, or an output whose contents depend on the order of atomics.
func inputBuf[T runtime.Scalar](f *kernelFixture, s []T) runtime.Ptr {
	p, err := runtime.Upload(f.dev, s)
	require.NoError(f.t, err)
	return p
}

// inoutBuf copies init to a new device buffer that the kernel updates and whose final contents
// must be the same for every worker count.
func inoutBuf[T runtime.Scalar](f *kernelFixture, init []T) runtime.Ptr {
	p := inputBuf(f, init)
	f.outs = append(f.outs, kernelRegion{p, binary.Size(init)})
	return p
}

// outputBuf allocates a poisoned n-element output buffer whose final contents must be the same
// for every worker count.
func outputBuf[T runtime.Scalar](f *kernelFixture, n int) runtime.Ptr {
	return inoutBuf(f, poisonedSlice[T](n))
}

// readBuf copies n elements from the device at p.
func readBuf[T runtime.Scalar](f *kernelFixture, p runtime.Ptr, n int) []T {
	s := make([]T, n)
	require.NoError(f.t, runtime.Download(f.dev, s, p))
	return s
}

// poisonedSlice returns n elements whose bytes are all kernelPoison.
func poisonedSlice[T runtime.Scalar](n int) []T {
	s := make([]T, n)
	b := bytes.Repeat([]byte{kernelPoison}, binary.Size(s))
	if err := binary.Read(bytes.NewReader(b), binary.LittleEndian, s); err != nil {
		panic(err)
	}
	return s
}

// structBytes lays v out as a little-endian C struct for an aggregate .param (blank fields
// are padding).
func structBytes(f *kernelFixture, v any) []byte {
	b, err := binary.Append(nil, binary.LittleEndian, v)
	require.NoError(f.t, err)
	return b
}

// matmulShape is a 2-D launch of bx x by blocks covering an m x n matrix product with inner
// dimension k.
func matmulShape(m, n, k, bx, by int) kernelShape {
	return kernelShape{
		grid:  runtime.Dim3{X: uint32((n + bx - 1) / bx), Y: uint32((m + by - 1) / by), Z: 1},
		block: runtime.Dim3{X: uint32(bx), Y: uint32(by), Z: 1},
		n:     n, m: m, k: k,
	}
}

// tabulate returns fn(0), ..., fn(n-1).
func tabulate[T any](n int, fn func(i int) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = fn(i)
	}
	return s
}

// withSpecials overwrites the first elements of s with specials (as many as fit) and returns s.
func withSpecials[T any](s []T, specials ...T) []T {
	copy(s, specials)
	return s
}

// i32 returns n integers uniform in [lo, hi].
func (f *kernelFixture) i32(n int, lo, hi int32) []int32 {
	return tabulate(n, func(int) int32 { return int32(f.rng.Int64N(int64(hi)-int64(lo)+1) + int64(lo)) })
}

// u32 returns n uniform uint32s.
func (f *kernelFixture) u32(n int) []uint32 {
	return tabulate(n, func(int) uint32 { return f.rng.Uint32() })
}

// u64 returns n uniform uint64s.
func (f *kernelFixture) u64(n int) []uint64 {
	return tabulate(n, func(int) uint64 { return f.rng.Uint64() })
}

// f32 returns n float32s uniform in [lo, hi).
func (f *kernelFixture) f32(n int, lo, hi float64) []float32 {
	return tabulate(n, func(int) float32 { return float32(lo + (hi-lo)*f.rng.Float64()) })
}

// f64 returns n float64s uniform in [lo, hi).
func (f *kernelFixture) f64(n int, lo, hi float64) []float64 {
	return tabulate(n, func(int) float64 { return lo + (hi-lo)*f.rng.Float64() })
}

// refFMA32 returns a*b + c rounded once to float32 (fma.rn.f32), for finite operands and a finite
// result. float32(math.FMA(...)) would round twice, first to float64, which is not always
// the correctly rounded float32; the exact sum in a wide big.Float is.
func refFMA32(a, b, c float32) float32 {
	const prec = 1024 // holds any exact product of two float32s plus a float32
	x := new(big.Float).SetPrec(prec).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	r, _ := x.Float32()
	return r
}

// refF32RZ converts x to float32 rounding toward zero (cvt.rz.f32.f64, and cvt.rz.f32.s32 for
// an int32 x), for x within the float32 range.
func refF32RZ(x float64) float32 {
	r := float32(x)
	if math.Abs(float64(r)) > math.Abs(x) {
		r = math.Nextafter32(r, 0)
	}
	return r
}

// floatBits32 is a float32 compared by its bits and printed with them.
type floatBits32 uint32

func (b floatBits32) String() string {
	return fmt.Sprintf("%g (%#08x)", math.Float32frombits(uint32(b)), uint32(b))
}

// floatBits64 is a float64 compared by its bits and printed with them.
type floatBits64 uint64

func (b floatBits64) String() string {
	return fmt.Sprintf("%g (%#016x)", math.Float64frombits(uint64(b)), uint64(b))
}

// requireElemsF32 requires got to equal want bit for bit.
func requireElemsF32(t *testing.T, what string, want, got []float32) {
	t.Helper()
	conv := func(s []float32) []floatBits32 {
		return tabulate(len(s), func(i int) floatBits32 { return floatBits32(math.Float32bits(s[i])) })
	}
	requireElems(t, what, conv(want), conv(got))
}

// requireElemsF64 requires got to equal want bit for bit.
func requireElemsF64(t *testing.T, what string, want, got []float64) {
	t.Helper()
	conv := func(s []float64) []floatBits64 {
		return tabulate(len(s), func(i int) floatBits64 { return floatBits64(math.Float64bits(s[i])) })
	}
	requireElems(t, what, conv(want), conv(got))
}

// requireElemsNear requires each got[i] to be within relative error rel of want[i].
func requireElemsNear(t *testing.T, what string, want []float64, got []float32, rel float64) {
	t.Helper()
	require.Len(t, got, len(want), what)
	var diffs []string
	for i, w := range want {
		if g := float64(got[i]); !(math.Abs(g-w) <= rel*math.Abs(w)) {
			diffs = append(diffs, fmt.Sprintf("%s[%d]: want %g, got %g (relative error %.3g)", what, i, w, g, math.Abs(g-w)/math.Abs(w)))
		}
	}
	failElems(t, what, len(want), diffs)
}

// requireElems requires got to equal want element by element, reporting the first
// mismatches by index.
func requireElems[T comparable](t *testing.T, what string, want, got []T) {
	t.Helper()
	require.Len(t, got, len(want), what)
	var diffs []string
	for i := range want {
		if want[i] != got[i] {
			diffs = append(diffs, fmt.Sprintf("%s[%d]: want %v, got %v", what, i, want[i], got[i]))
		}
	}
	failElems(t, what, len(want), diffs)
}

// failElems fails t with the first of diffs, if there are any, out of n compared elements.
func failElems(t *testing.T, what string, n int, diffs []string) {
	t.Helper()
	if len(diffs) == 0 {
		return
	}
	shown := diffs[:min(len(diffs), 8)]
	require.Failf(t, what+" differs from the reference", "%d of %d elements differ:\n%s",
		len(diffs), n, strings.Join(shown, "\n"))
}
