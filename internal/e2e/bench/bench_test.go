package bench_test

// Benchmarks of ptx2go against hand-written, single-threaded Go versions of the same
// computations. Each ptx2go benchmark first runs the kernel once with statistics and checks its
// result against the Go version (b.Fatal on a mismatch), then times launches:
//
//	BenchmarkVecAdd/workers=1   vs BenchmarkVecAddGo       (c = a + b, 2^22 float32)
//	BenchmarkCollatz/workers=1  vs BenchmarkCollatzGo      (Collatz step counts, 2^18 threads)
//	BenchmarkMatmulTiled/...    vs BenchmarkMatmulTiledGo  (256x256x256 float32, fma order k = 0..K-1)
//
// The workers=1 sub-benchmarks are the ones to compare with the Go versions; workers=default
// (GOMAXPROCS CTAs in parallel) shows the parallel speed-up. The ptx2go benchmarks report
// lane-instrs/op (lane instructions of one launch, from runtime.Stats) and ns/lane-instr.
//
//	go test -run '^$' -bench 'VecAdd|Collatz|Matmul' -benchmem .

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// benchKernel compiles a testdata PTX file and returns one of its kernels.
func benchKernel(tb testing.TB, file, name string) *ptx2go.Kernel {
	tb.Helper()
	mod, err := benchCompile("testdata/ptx/" + file)
	if err != nil {
		tb.Fatalf("compile %s: %v", file, err)
	}
	k, err := mod.Kernel(name)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// benchEngines runs bench for the kernel on each engine, as sub-benchmarks engine=closure
// (compiled from testdata/ptx) and engine=go (the package `make generate` wrote under generated/).
func benchEngines(b *testing.B, file, name string, bench func(b *testing.B, k *ptx2go.Kernel)) {
	b.Run("engine=closure", func(b *testing.B) { bench(b, benchKernel(b, file, name)) })
	b.Run("engine=go", func(b *testing.B) {
		if benchChecked() {
			b.Skip("$PTX2GO_CHECK: the engine=go corpus has no check hooks")
		}
		rt, ok := gocorpus.Lookup(strings.TrimSuffix(file, ".ptx"))
		if !ok {
			b.Skipf("no generated package for %s", file)
		}
		mod, err := ptx2go.Load(rt)
		if err != nil {
			b.Fatal(err)
		}
		k, err := mod.Kernel(name)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, k)
	})
}

// benchLaunch is one kernel launch to benchmark: the check run (with statistics) has already
// been done by the caller, which passes the lane-instruction count it measured.
type benchLaunch struct {
	k     *ptx2go.Kernel
	dev   *runtime.Device
	grid  runtime.Dim3
	block runtime.Dim3
	args  []any
	// dynamicShared is the launch's dynamic shared memory in bytes (extern .shared arrays).
	dynamicShared int
	stats         runtime.Stats // from the check run
	// noPred adds the sub-benchmark workers=1/nopred: one worker, every divergent branch on
	// the SIMT stack (LaunchConfig.NoPredication).
	noPred bool
}

// launch runs the kernel once with the given worker count (and statistics if st is set).
func (l *benchLaunch) launch(workers int, st *runtime.Stats) error {
	return l.launchPred(workers, st, false)
}

// launchPred is launch, with every divergent branch on the SIMT stack if noPred is set.
func (l *benchLaunch) launchPred(workers int, st *runtime.Stats, noPred bool) error {
	return l.k.LaunchConfig(context.Background(), l.dev, runtime.LaunchConfig{
		Grid: l.grid, Block: l.block, DynamicShared: l.dynamicShared, Workers: workers, Stats: st,
		NoPredication: noPred,
	}, l.args...)
}

// check runs the kernel once on one worker, collecting statistics.
func (l *benchLaunch) check(b *testing.B) {
	b.Helper()
	l.stats = runtime.Stats{}
	if err := l.launch(1, &l.stats); err != nil {
		b.Fatalf("launch %s: %v", l.k.Name(), err)
	}
	if l.stats.LaneInstructions == 0 {
		b.Fatalf("launch %s: no lane instructions counted", l.k.Name())
	}
}

// run times launches on workers=1 and workers=default (GOMAXPROCS) in sub-benchmarks.
func (l *benchLaunch) run(b *testing.B) {
	type variant struct {
		name    string
		workers int
		noPred  bool
	}
	variants := []variant{{"workers=1", 1, false}, {"workers=default", 0, false}}
	if l.noPred {
		variants = append(variants, variant{"workers=1/nopred", 1, true})
	}
	for _, w := range variants {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				if err := l.launchPred(w.workers, nil, w.noPred); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b)
			nsPerOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(float64(l.stats.LaneInstructions), "lane-instrs/op")
			b.ReportMetric(float64(l.stats.Instructions), "warp-instrs/op")
			b.ReportMetric(nsPerOp/float64(l.stats.LaneInstructions), "ns/lane-instr")
		})
	}
}

// ---- vecadd ----

const vecAddN = 1 << 22

func benchVecAddInputs() (a, b []float32) {
	r := rand.New(rand.NewPCG(1, 2))
	a, b = make([]float32, vecAddN), make([]float32, vecAddN)
	for i := range a {
		a[i] = r.Float32()*200 - 100
		b[i] = r.Float32()*200 - 100
	}
	return a, b
}

// benchVecAddGo is the hand-written Go version of the vecadd kernel.
func benchVecAddGo(c, a, b []float32) {
	for i := range c {
		c[i] = a[i] + b[i]
	}
}

func BenchmarkVecAdd(b *testing.B) { benchEngines(b, "vecadd.ptx", "vecadd", benchVecAdd) }

func benchVecAdd(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	a, bb := benchVecAddInputs()
	pa, pb := harness.Upload(b, dev, a), harness.Upload(b, dev, bb)
	pc, err := dev.Malloc(4 * vecAddN)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(vecAddN / 256), block: runtime.D1(256),
		args: []any{pc, pa, pb, vecAddN}}
	l.check(b)
	got, want := make([]float32, vecAddN), make([]float32, vecAddN)
	harness.Download(b, dev, got, pc)
	benchVecAddGo(want, a, bb)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			b.Fatalf("vecadd: c[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	l.run(b)
}

func BenchmarkVecAddGo(b *testing.B) {
	a, bb := benchVecAddInputs()
	c := make([]float32, vecAddN)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchVecAddGo(c, a, bb)
	}
	cpu.report(b)
}

// ---- collatz_steps ----

const collatzN = 1 << 18

// benchCollatzStarts are the deterministic start values i+1.
func benchCollatzStarts() []uint32 {
	s := make([]uint32, collatzN)
	for i := range s {
		s[i] = uint32(i + 1)
	}
	return s
}

// benchCollatzGo is the hand-written Go version of collatz_steps: the number of steps (in uint64
// arithmetic, capped at 1000) from start[i] to 1.
func benchCollatzGo(steps []int32, start []uint32) {
	for i, s0 := range start {
		x, s := uint64(s0), int32(0)
		for x != 1 && s < 1000 {
			if x&1 != 0 {
				x = 3*x + 1
			} else {
				x /= 2
			}
			s++
		}
		steps[i] = s
	}
}

func BenchmarkCollatz(b *testing.B) {
	benchEngines(b, "divergent_loop.ptx", "collatz_steps", benchCollatz)
}

func benchCollatz(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	start := benchCollatzStarts()
	pstart := harness.Upload(b, dev, start)
	psteps, err := dev.Malloc(4 * collatzN)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(collatzN / 256), block: runtime.D1(256),
		args: []any{psteps, pstart, collatzN}}
	l.check(b)
	got, want := make([]int32, collatzN), make([]int32, collatzN)
	harness.Download(b, dev, got, psteps)
	benchCollatzGo(want, start)
	for i := range want {
		if got[i] != want[i] {
			b.Fatalf("collatz_steps: steps[%d] (start %d) = %d, want %d", i, start[i], got[i], want[i])
		}
	}
	l.run(b)
}

func BenchmarkCollatzGo(b *testing.B) {
	start := benchCollatzStarts()
	steps := make([]int32, collatzN)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchCollatzGo(steps, start)
	}
	cpu.report(b)
}

// ---- matmul_tiled ----

const matN = 256 // M = N = K

func benchMatmulInputs() (a, b []float32) {
	r := rand.New(rand.NewPCG(3, 4))
	a, b = make([]float32, matN*matN), make([]float32, matN*matN)
	for i := range a {
		a[i] = r.Float32()*2 - 1
		b[i] = r.Float32()*2 - 1
	}
	return a, b
}

// TestBenchFMA32 checks the reference fma against the slow exact one, on a case where rounding
// twice is wrong and on random operands.
func TestBenchFMA32(t *testing.T) {
	// a*b = 2^-24 - 2^-70, c = 1 + 2^-23: the float64 sum is the float32 midpoint
	// 1 + 2^-23 + 2^-24, the exact sum lies just below it, so the answer is 1 + 2^-23;
	// float32(math.FMA) ties to even and gives 1 + 2^-22.
	a := float32(math.Ldexp(1+0x1p-23, -24))
	b := float32(1 - 0x1p-23)
	c := float32(1 + 0x1p-23)
	want := float32(1 + 0x1p-23)
	if got := harness.FMA32(a, b, c); got != want {
		t.Errorf("harness.FMA32 midpoint case = %v, want %v", got, want)
	}
	if got := harness.FMA32Slow(a, b, c); got != want {
		t.Errorf("harness.FMA32Slow midpoint case = %v, want %v", got, want)
	}
	if got := float32(math.FMA(float64(a), float64(b), float64(c))); got == want {
		t.Errorf("the midpoint case does not show double rounding")
	}
	r := rand.New(rand.NewPCG(5, 6))
	f := func() float32 {
		return math.Float32frombits(r.Uint32()&^(0xff<<23) | uint32(r.IntN(60)+97)<<23) // exponents 2^-30 .. 2^29
	}
	for range 1_000_000 {
		a, b, c := f(), f(), f()
		if got, want := harness.FMA32(a, b, c), harness.FMA32Slow(a, b, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("harness.FMA32(%v, %v, %v) = %v, want %v", a, b, c, got, want)
		}
	}
}

// benchMatmulGo is the hand-written Go version of matmul_tiled: C = A*B for n x n row-major
// matrices, each C[r][c] summed from k = 0 upwards with correctly rounded float32 fused
// multiply-adds. The loop order r, k, c keeps B's rows sequential; the summation order of each
// element is unchanged.
func benchMatmulGo(c, a, b []float32, n int) {
	clear(c)
	for r := range n {
		crow := c[r*n : r*n+n]
		for k := range n {
			ark := a[r*n+k]
			brow := b[k*n : k*n+n]
			for j := range crow {
				crow[j] = harness.FMA32(ark, brow[j], crow[j])
			}
		}
	}
}

// benchMatmulGoFMA64 is benchMatmulGo with the common float32(math.FMA(...)) in float64: a
// little faster, but double rounding can make it 1 ulp off the GPU's fma.rn.f32.
func benchMatmulGoFMA64(c, a, b []float32, n int) {
	clear(c)
	for r := range n {
		crow := c[r*n : r*n+n]
		for k := range n {
			ark := float64(a[r*n+k])
			brow := b[k*n : k*n+n]
			for j := range crow {
				crow[j] = float32(math.FMA(ark, float64(brow[j]), float64(crow[j])))
			}
		}
	}
}

func BenchmarkMatmulTiled(b *testing.B) {
	benchEngines(b, "matmul_2d.ptx", "matmul_tiled", benchMatmulTiled)
}

func benchMatmulTiled(b *testing.B, k *ptx2go.Kernel) {
	dev := runtime.NewDevice()
	a, bm := benchMatmulInputs()
	pa, pb := harness.Upload(b, dev, a), harness.Upload(b, dev, bm)
	pc, err := dev.Malloc(4 * matN * matN)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.Dim3{X: matN / 16, Y: matN / 16, Z: 1},
		block: runtime.Dim3{X: 16, Y: 16, Z: 1}, args: []any{pc, pa, pb, matN, matN, matN}}
	l.check(b)
	got, want := make([]float32, matN*matN), make([]float32, matN*matN)
	harness.Download(b, dev, got, pc)
	benchMatmulGo(want, a, bm, matN)
	// Bit-exact: the kernel's fma.rn.f32 and harness.FMA32 are both correctly rounded and the
	// summation order is the same.
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			b.Fatalf("matmul_tiled: C[%d][%d] = %v (%#08x), want %v (%#08x)", i/matN, i%matN,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	rounded := make([]float32, matN*matN)
	benchMatmulGoFMA64(rounded, a, bm, matN)
	diff := 0
	for i := range want {
		if rounded[i] != want[i] {
			diff++
		}
	}
	b.Logf("float32(math.FMA) in float64 would differ from the kernel in %d of %d elements", diff, len(want))
	l.run(b)
}

func BenchmarkMatmulTiledGo(b *testing.B) {
	a, bm := benchMatmulInputs()
	c := make([]float32, matN*matN)
	for _, v := range []struct {
		name string
		mm   func(c, a, b []float32, n int)
	}{
		// The reference: correctly rounded, bit-identical to the kernel.
		{"fma32", benchMatmulGo},
		// float32(math.FMA) in float64: may be 1 ulp off after double rounding.
		{"fma64-rounded", benchMatmulGoFMA64},
	} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				v.mm(c, a, bm, matN)
			}
			cpu.report(b)
		})
	}
}

// ---- allocations per launch ----

// TestLaunchAllocations shows that a launch allocates a fixed amount, independent of the number
// of instructions it executes: one CTA of 256 collatz_steps threads runs about 1 or 1000 loop
// iterations per thread (start 2 or 1 take 1 or 0 steps; start 0 never reaches 1 and stops at the
// cap of 1000), uniformly or divergently (odd and even lanes taking different trip counts), and
// the short and long launch of each pair must allocate the same. (The divergent pair may
// allocate a little more than the uniform one: the warps' SIMT stacks grow once per launch.)
func TestLaunchAllocations(t *testing.T) {
	k := benchKernel(t, "divergent_loop.ptx", "collatz_steps")
	dev := runtime.NewDevice()
	const threads = 256
	psteps, err := dev.Malloc(4 * threads)
	if err != nil {
		t.Fatal(err)
	}
	starts := func(f func(i int) uint32) runtime.Ptr {
		s := make([]uint32, threads)
		for i := range s {
			s[i] = f(i)
		}
		return harness.Upload(t, dev, s)
	}
	// measure returns a launch's allocations and lane instructions.
	measure := func(start runtime.Ptr) (float64, runtime.Stats) {
		cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(threads), Workers: 1}
		launch := func() {
			if err := k.LaunchConfig(context.Background(), dev, cfg, psteps, start, threads); err != nil {
				t.Fatal(err)
			}
		}
		var st runtime.Stats
		cfg.Stats = &st
		launch()
		cfg.Stats = nil
		return testing.AllocsPerRun(50, launch), st
	}
	for _, pair := range []struct {
		name        string
		short, long func(i int) uint32
	}{
		{"uniform", func(int) uint32 { return 2 }, func(int) uint32 { return 0 }},
		{"divergent", func(i int) uint32 { return uint32(1 + i%2) }, func(i int) uint32 { return uint32(i%2) ^ 1 }},
	} {
		aShort, stShort := measure(starts(pair.short))
		aLong, stLong := measure(starts(pair.long))
		t.Logf("%-9s short: %7d warp instrs %8d lane instrs %v allocs/launch", pair.name, stShort.Instructions, stShort.LaneInstructions, aShort)
		t.Logf("%-9s long:  %7d warp instrs %8d lane instrs %v allocs/launch", pair.name, stLong.Instructions, stLong.LaneInstructions, aLong)
		if stLong.Instructions < 100*stShort.Instructions {
			t.Errorf("%s: the long launch runs %d warp instructions, not 100x the short one's %d", pair.name, stLong.Instructions, stShort.Instructions)
		}
		if aShort != aLong {
			t.Errorf("%s: %v allocs/launch for %d warp instructions but %v for %d: allocations grow with executed instructions",
				pair.name, aLong, stLong.Instructions, aShort, stShort.Instructions)
		}
	}
}

// cpuClock measures the CPU time the process spends in a benchmark loop, which a machine
// shared with other work inflates much less than wall-clock ns/op.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{processCPU()} }

// report adds the metric cpu-ns/op: process CPU time (user and system, all threads) per iteration.
func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-c.start)/float64(b.N), "cpu-ns/op")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
