package bench_test

// Two of issue 32's rows of `make bench`'s table, real kernels compiled by nvcc: a scan that
// synchronizes its CTA in every step (Scan) and a generator that makes a device-function call
// for every value it writes (Curand), each checked against its hand-written Go version before
// it is timed.

import (
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// ---- prescan ----

// scanBlock is the number of threads of a prescan CTA; each CTA scans 2*scanBlock elements.
const scanBlock = 256

// BenchmarkScan times cuda-samples' work-efficient (Blelloch) prescan of
// testdata/cuda/nvcc/everyday.cu: every CTA scans its 512 elements in shared memory in 19
// bar.sync-separated steps (up the tree, down the tree, and before the result is read).
func BenchmarkScan(b *testing.B) { benchEngines(b, "nvcc/everyday.ptx", "prescan", benchScan) }

// benchScanGo is the exclusive prefix sum (wrapping) of each block of n elements, restarting
// at 0 in each block, as prescan computes per CTA.
func benchScanGo(out, in []int32, n int) {
	for base := 0; base < len(in); base += n {
		var sum int32
		for i := base; i < base+n; i++ {
			out[i] = sum
			sum += in[i]
		}
	}
}

func benchScan(b *testing.B, k *ptx2go.Kernel) {
	const n = 2 * scanBlock
	dev := runtime.NewDevice()
	in := benchReduceInputs()
	pin := harness.Upload(b, dev, in)
	pout, err := dev.Malloc(4 * vecAddN)
	if err != nil {
		b.Fatal(err)
	}
	// The shared array holds n ints and one padding int per 32 (cuda-samples' conflict-free
	// offsets).
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(vecAddN / n), block: runtime.D1(scanBlock),
		args: []any{pout, pin, int32(n)}, dynamicShared: 4 * (n + n/32)}
	l.check(b)
	got, want := make([]int32, vecAddN), make([]int32, vecAddN)
	harness.Download(b, dev, got, pout)
	benchScanGo(want, in, n)
	for i := range want {
		if got[i] != want[i] {
			b.Fatalf("prescan: out[%d] = %d, want %d", i, got[i], want[i])
		}
	}
	// 9 steps up the tree and 9 down for 512 elements, and one before the result is read; the
	// statistics count a barrier per warp.
	if want := uint64(vecAddN / n * (scanBlock / 32) * 19); l.stats.Barriers != want {
		b.Fatalf("prescan: %d warp barriers, want %d (19 per warp)", l.stats.Barriers, want)
	}
	l.run(b)
}

func BenchmarkScanGo(b *testing.B) {
	in := benchReduceInputs()
	out := make([]int32, vecAddN)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchScanGo(out, in, 2*scanBlock)
	}
	cpu.report(b)
}

// ---- xorwow_calls ----

// curandThreads threads each write curandPerThread values.
const (
	curandThreads   = 1 << 14
	curandPerThread = 64
	curandSeed      = uint64(0x2545f4914f6cdd1d)
)

// BenchmarkCurand times xorwow_calls of testdata/cuda/nvcc/curand_calls.cu: every thread
// seeds cuRAND's XORWOW state cheaply (curand_init with no skip ahead) and then calls the
// __noinline__ device function xorwow_next, one .func call with a pointer to the state in
// local memory, for each of its 64 values.
func BenchmarkCurand(b *testing.B) {
	benchEngines(b, "nvcc/curand_calls.ptx", "xorwow_calls", benchCurand)
}

// xorwowState is cuRAND's XORWOW state: Marsaglia's xorwow over v and a Weyl sequence d.
type xorwowState struct {
	v [5]uint32
	d uint32
}

// seedXorwow is curand_init(seed, 0, 0, &state): cuRAND's seeding, with no skip ahead.
func seedXorwow(seed uint64) xorwowState {
	t0 := 1099087573 * (uint32(seed) ^ 0xaad26b49)
	t1 := 2591861531 * (uint32(seed>>32) ^ 0xf7dcefdd)
	return xorwowState{
		v: [5]uint32{123456789 + t0, 362436069 ^ t0, 521288629 + t1, 88675123 ^ t1, 5783321 + t0},
		d: 6615241 + t1 + t0,
	}
}

// next is curand(&state): the generator's next value.
func (s *xorwowState) next() uint32 {
	t := s.v[0] ^ s.v[0]>>2
	s.v[0], s.v[1], s.v[2], s.v[3] = s.v[1], s.v[2], s.v[3], s.v[4]
	s.v[4] = s.v[4] ^ s.v[4]<<4 ^ t ^ t<<1
	s.d += 362437
	return s.v[4] + s.d
}

// benchCurandGo is xorwow_calls as a serial loop: the values of the state seeded with seed+t,
// for each t in turn.
func benchCurandGo(out []uint32, seed uint64, perThread int) {
	for t := range len(out) / perThread {
		s := seedXorwow(seed + uint64(t))
		for i := range perThread {
			out[t*perThread+i] = s.next()
		}
	}
}

func benchCurand(b *testing.B, k *ptx2go.Kernel) {
	const values = curandThreads * curandPerThread
	dev := runtime.NewDevice()
	pout, err := dev.Malloc(4 * values)
	if err != nil {
		b.Fatal(err)
	}
	l := &benchLaunch{k: k, dev: dev, grid: runtime.D1(curandThreads / 256), block: runtime.D1(256),
		args: []any{pout, curandSeed, int32(curandPerThread)}}
	l.check(b)
	got, want := make([]uint32, values), make([]uint32, values)
	harness.Download(b, dev, got, pout)
	benchCurandGo(want, curandSeed, curandPerThread)
	for i := range want {
		if got[i] != want[i] {
			b.Fatalf("xorwow_calls: out[%d] = %#x, want %#x", i, got[i], want[i])
		}
	}
	if l.stats.Calls != values/32 {
		b.Fatalf("xorwow_calls: %d warp calls, want one per warp and value (%d)", l.stats.Calls, values/32)
	}
	l.run(b)
}

func BenchmarkCurandGo(b *testing.B) {
	out := make([]uint32, curandThreads*curandPerThread)
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		benchCurandGo(out, curandSeed, curandPerThread)
	}
	cpu.report(b)
}
