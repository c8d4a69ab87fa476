package bench_test

// More kernels for `make bench`'s table: saxpy, a block reduction and recursive fib, each
// checked against its hand-written Go version before it is timed.

import (
	"math"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// ---- saxpy ----

const saxpyA = float32(1.5)

func BenchmarkSaxpy(b *testing.B) { benchEngines(b, "saxpy_math.ptx", "saxpy", benchSaxpy) }

// benchSaxpyRef is y[i] = fma(a, x[i], y[i]) correctly rounded, as fma.rn.f32: the check.
func benchSaxpyRef(y, x []float32, a float32) {
	for i := range y {
		y[i] = harness.FMA32(a, x[i], y[i])
	}
}

// benchSaxpyGo is saxpy as a Go programmer writes it, the timed baseline: one float64 FMA
// rounded to float32 (which can differ from fma.rn.f32 by double rounding, rarely).
func benchSaxpyGo(y, x []float32, a float32) {
	for i := range y {
		y[i] = float32(math.FMA(float64(a), float64(x[i]), float64(y[i])))
	}
}

func benchSaxpy(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	x, y := benchVecAddInputs()
	px, py := harness.Upload(b, dev, x), harness.Upload(b, dev, y)
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(vecAddN / 256), block: runtime.D1(256),
		args: []any{py, px, saxpyA, vecAddN}}
	l.check(b)
	got, want := make([]float32, vecAddN), append([]float32(nil), y...)
	harness.Download(b, dev, got, py)
	benchSaxpyRef(want, x, saxpyA)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			b.Fatalf("saxpy: y[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	l.run(b)
}

func BenchmarkSaxpyGo(b *testing.B) {
	x, y := benchVecAddInputs()
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchSaxpyGo(y, x, saxpyA)
	}
	cpu.report(b)
}

// ---- reduce_sum ----

func BenchmarkReduce(b *testing.B) { benchEngines(b, "reduce_shared.ptx", "reduce_sum", benchReduce) }

// benchReduceInputs are 2^22 small integers.
func benchReduceInputs() []int32 {
	s := make([]int32, vecAddN)
	for i := range s {
		s[i] = int32(i*7919%2001) - 1000
	}
	return s
}

// benchReduceGo sums each block of 256 elements (wrapping), as reduce_sum does per CTA.
func benchReduceGo(out, in []int32) {
	for blk := range out {
		var s int32
		for _, v := range in[blk*256 : blk*256+256] {
			s += v
		}
		out[blk] = s
	}
}

func benchReduce(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	in := benchReduceInputs()
	pin := harness.Upload(b, dev, in)
	const blocks = vecAddN / 256
	pout, err := dev.Malloc(4 * blocks)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(blocks), block: runtime.D1(256), args: []any{pout, pin, vecAddN}}
	l.check(b)
	got, want := make([]int32, blocks), make([]int32, blocks)
	harness.Download(b, dev, got, pout)
	benchReduceGo(want, in)
	for i := range want {
		if got[i] != want[i] {
			b.Fatalf("reduce_sum: out[%d] = %d, want %d", i, got[i], want[i])
		}
	}
	l.run(b)
}

func BenchmarkReduceGo(b *testing.B) {
	in := benchReduceInputs()
	out := make([]int32, vecAddN/256)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchReduceGo(out, in)
	}
	cpu.report(b)
}

// ---- recursion (fib, tree_depth, gcd) ----

const fibN = 1 << 12

func BenchmarkFib(b *testing.B) { benchEngines(b, "recursion.ptx", "recursion", benchFib) }

// benchFibInputs are n in [0, 18] and a second operand for gcd.
func benchFibInputs() (in []int32, in2 []uint32) {
	in, in2 = make([]int32, fibN), make([]uint32, fibN)
	for i := range in {
		in[i] = int32(i * 37 % 19)
		in2[i] = uint32(i*7 + 3)
	}
	return in, in2
}

func benchFib(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	in, in2 := benchFibInputs()
	pin, pin2 := harness.Upload(b, dev, in), harness.Upload(b, dev, in2)
	var outs [3]runtime.Ptr
	for i := range outs {
		p, err := dev.Malloc(4 * fibN)
		if err != nil {
			b.Fatal(err)
		}
		outs[i] = p
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(fibN / 128), block: runtime.D1(128),
		args: []any{outs[0], outs[1], outs[2], pin, pin2, fibN}}
	l.check(b)
	fibs, depths, gcds := make([]int32, fibN), make([]int32, fibN), make([]uint32, fibN)
	wf, wd, wg := make([]int32, fibN), make([]int32, fibN), make([]uint32, fibN)
	harness.Download(b, dev, fibs, outs[0])
	harness.Download(b, dev, depths, outs[1])
	harness.Download(b, dev, gcds, outs[2])
	harness.FibGo(wf, wd, wg, in, in2)
	for i := range wf {
		if fibs[i] != wf[i] || depths[i] != wd[i] || gcds[i] != wg[i] {
			b.Fatalf("recursion[%d]: (%d, %d, %d), want (%d, %d, %d)", i, fibs[i], depths[i], gcds[i], wf[i], wd[i], wg[i])
		}
	}
	l.run(b)
}

func BenchmarkFibGo(b *testing.B) {
	in, in2 := benchFibInputs()
	fibs, depths, gcds := make([]int32, fibN), make([]int32, fibN), make([]uint32, fibN)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		harness.FibGo(fibs, depths, gcds, in, in2)
	}
	cpu.report(b)
}

// ---- short_ifs ----

// BenchmarkShortIfs times short_ifs.cu (clang -O2), a kernel full of short ifs around memory
// accesses, whose divergent regions run predicated (runtime.Term.Predicated); the
// workers=1/nopred sub-benchmarks run every branch on the SIMT stack instead
// (LaunchConfig.NoPredication), which shows the gain.
func BenchmarkShortIfs(b *testing.B) { benchEngines(b, "short_ifs.ptx", "short_ifs", benchShortIfs) }

const shortIfsLo, shortIfsHi = float32(-50), float32(60)

// benchShortIfsInputs are 2^22 values in [-100, 100), flags in [0, 4) and mark's start.
func benchShortIfsInputs() (in []float32, flags []int32, mark []float32) {
	x, y := benchVecAddInputs()
	flags = make([]int32, len(x))
	for i := range flags {
		flags[i] = int32(math.Float32bits(y[i]) >> 7 & 3)
	}
	return x, flags, y
}

// benchShortIfsGo is short_ifs as a serial loop.
func benchShortIfsGo(out, mark []float32, count []int32, in []float32, flags []int32, lo, hi float32) {
	n := len(in)
	for i, x := range in {
		if x < lo {
			x = lo
			count[0]++
		} else if x > hi {
			x = hi
			count[1]++
		}
		if i+1 < n && in[i+1] > 0 {
			x += in[i+1]
		}
		if x < 0 && i > 0 {
			x = in[i-1]
		}
		if f := flags[i]; f&1 != 0 {
			mark[i] = x
		} else if f&2 != 0 {
			mark[i] = -x
		}
		out[i] = x
	}
}

func benchShortIfs(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	in, flags, mark := benchShortIfsInputs()
	pin, pflags, pmark := harness.Upload(b, dev, in), harness.Upload(b, dev, flags), harness.Upload(b, dev, mark)
	pcount := harness.Upload(b, dev, []int32{0, 0})
	pout, err := dev.Malloc(4 * vecAddN)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(vecAddN / 256), block: runtime.D1(256),
		args: []any{pout, pmark, pcount, pin, pflags, vecAddN, shortIfsLo, shortIfsHi}, noPred: true}
	l.check(b)
	got, gotMark, gotCount := make([]float32, vecAddN), make([]float32, vecAddN), make([]int32, 2)
	harness.Download(b, dev, got, pout)
	harness.Download(b, dev, gotMark, pmark)
	harness.Download(b, dev, gotCount, pcount)
	want, wantMark, wantCount := make([]float32, vecAddN), append([]float32(nil), mark...), make([]int32, 2)
	benchShortIfsGo(want, wantMark, wantCount, in, flags, shortIfsLo, shortIfsHi)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) || math.Float32bits(gotMark[i]) != math.Float32bits(wantMark[i]) {
			b.Fatalf("short_ifs: out[%d], mark[%d] = %v, %v, want %v, %v", i, i, got[i], gotMark[i], want[i], wantMark[i])
		}
	}
	if gotCount[0] != wantCount[0] || gotCount[1] != wantCount[1] {
		b.Fatalf("short_ifs: count = %v, want %v", gotCount, wantCount)
	}
	if l.stats.PredicatedRegions == 0 {
		b.Fatalf("short_ifs: no region ran predicated")
	}
	l.run(b)
}

func BenchmarkShortIfsGo(b *testing.B) {
	in, flags, mark := benchShortIfsInputs()
	out, count := make([]float32, vecAddN), make([]int32, 2)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchShortIfsGo(out, mark, count, in, flags, shortIfsLo, shortIfsHi)
	}
	cpu.report(b)
}
