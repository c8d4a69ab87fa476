package runtime

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// TestCTAQueueChunks takes every chunk of launches of several sizes from one worker: the
// chunks cover the CTAs in order, each is the CTAs left over chunksPerWorker times the
// workers (at least one), so they shrink to single CTAs at the end, and there are far fewer
// of them than CTAs.
func TestCTAQueueChunks(t *testing.T) {
	for _, c := range []struct {
		total   uint64
		workers int
	}{
		{1, 1},
		{7, 1},
		{7, 2},
		{32, 2},
		{1024, 2},
		{16384, 2},
		{16384, 64},
		{100, 100}, // a cooperative launch: one worker per CTA
	} {
		q := newCTAQueue(c.total, c.workers)
		divisor := uint64(chunksPerWorker * c.workers)
		// Chunks shrink by a factor 1-1/divisor down to divisor CTAs left, and the last 2*divisor
		// CTAs go one by one.
		maxChunks := min(int(float64(divisor)*(2+math.Log(max(float64(c.total)/float64(divisor), 1)))), int(c.total))
		var next uint64
		prev := c.total + 1
		chunks := 0
		for {
			id, end := q.take()
			if id == end {
				break
			}
			chunks++
			size := end - id
			if id != next {
				t.Fatalf("%d CTAs on %d workers: chunk %d starts at CTA %d, want %d", c.total, c.workers, chunks, id, next)
			}
			if want := max((c.total-id)/divisor, 1); size != want {
				t.Fatalf("%d CTAs on %d workers: chunk at CTA %d has %d CTAs, want %d", c.total, c.workers, id, size, want)
			}
			if size > prev {
				t.Fatalf("%d CTAs on %d workers: chunk at CTA %d grew from %d to %d", c.total, c.workers, id, prev, size)
			}
			next, prev = end, size
		}
		if next != c.total || prev != 1 {
			t.Errorf("%d CTAs on %d workers: handed out %d CTAs, the last chunk of %d; want all, the last alone", c.total, c.workers, next, prev)
		}
		if chunks > maxChunks {
			t.Errorf("%d CTAs on %d workers: %d chunks, want at most %d", c.total, c.workers, chunks, maxChunks)
		}
		if id, end := q.take(); id != end {
			t.Errorf("%d CTAs on %d workers: the drained queue handed out CTAs %d to %d", c.total, c.workers, id, end)
		}
	}
}

// TestCTAQueueConcurrent takes chunks from many goroutines at once: every CTA is handed out
// exactly once.
func TestCTAQueueConcurrent(t *testing.T) {
	const total, workers = 100000, 8
	q := newCTAQueue(total, workers)
	taken := make([]atomic.Int32, total)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				id, end := q.take()
				if id == end {
					return
				}
				for ; id < end; id++ {
					taken[id].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for id := range taken {
		if n := taken[id].Load(); n != 1 {
			t.Fatalf("CTA %d handed out %d times", id, n)
		}
	}
}

// heapQueues keeps the queues TestCTAQueueCacheLine makes on the heap, as runGrid's are.
var heapQueues []*ctaQueue

// TestCTAQueueCacheLine checks that a queue on the heap fills exactly one cache line, so that
// the counter the workers write shares its line with nothing else.
func TestCTAQueueCacheLine(t *testing.T) {
	if n := unsafe.Sizeof(ctaQueue{}); n != cacheLine {
		t.Fatalf("a ctaQueue has %d bytes, want %d", n, cacheLine)
	}
	for range 100 {
		heapQueues = append(heapQueues, newCTAQueue(1, 1))
	}
	for _, q := range heapQueues {
		if a := uintptr(unsafe.Pointer(q)); a%cacheLine != 0 {
			t.Fatalf("a ctaQueue at %#x is not aligned to a cache line", a)
		}
	}
	heapQueues = nil
}

// probe is a kernel built by hand, without the front end, which tells the test what its CTAs
// do. Each CTA is one warp; its start (block 0) counts the CTA as started, in order, and faults
// in the CTAs fault names; then block 1 loops, one block at a time, while spin holds for the
// warp, and the CTA ends.
type probe struct {
	fault func(cta uint64) bool
	spin  func(w *Warp) bool

	started []atomic.Int32
	mu      sync.Mutex
	order   []uint64 // the CTAs in the order they started
	faulted []uint64 // the CTAs that faulted
}

// probeLoc is the PTX location of the probe's fault.
const probeLoc = "probe.ptx:2"

func newProbe(ctas int, fault func(cta uint64) bool, spin func(w *Warp) bool) *probe {
	return &probe{fault: fault, spin: spin, started: make([]atomic.Int32, ctas)}
}

// launch runs the probe on a grid of len(p.started) CTAs of 32 threads.
func (p *probe) launch(ctx context.Context, cfg LaunchConfig) error {
	start := func(w *Warp, active uint32) {
		id := uint64(w.CTA.ID.X)
		p.started[id].Add(1)
		p.mu.Lock()
		p.order = append(p.order, id)
		if p.fault(id) {
			p.faulted = append(p.faulted, id)
		}
		p.mu.Unlock()
		if p.fault(id) {
			w.Fault(FaultTrap, probeLoc, firstLane(active), "the probe's fault")
		}
	}
	loop := func(w *Warp, active uint32) {
		w.P[0] = 0
		if p.spin(w) {
			w.P[0] = active
		}
	}
	k := &Func{
		Name: "probe", Kernel: true, NumPreds: 1, Exit: 2, Loc: "probe.ptx:1",
		Blocks: []Block{
			{Code: []Instr{start}, PTXInstrs: 2, Term: Term{Kind: TermJump, Loc: probeLoc, Succ: 1}},
			{Code: []Instr{loop}, PTXInstrs: 2, Term: Term{Kind: TermBranch, Loc: "probe.ptx:3", Succ: 1, Alt: 2, Uniform: true, Reconv: 2}},
			{Term: Term{Kind: TermNone, Reconv: -1}},
		},
	}
	mod := &Module{Name: "probe", Funcs: []*Func{k}, SM: 80}
	cfg.Grid, cfg.Block = D1(uint32(len(p.started))), D1(WarpSize)
	return NewDevice().Launch(ctx, mod, k, cfg, nil)
}

// never is a fault predicate, noSpin and spinForever spin predicates.
func never(uint64) bool      { return false }
func noSpin(*Warp) bool      { return false }
func spinForever(*Warp) bool { return true }

// workerCounts are the worker counts the launch tests run with: one, two and more than
// GOMAXPROCS on this machine, each with chunks of several CTAs on grids of 1000.
var workerCounts = []int{1, 2, 3, 8}

// TestLaunchEveryCTAOnce: every CTA runs exactly once whatever the worker count, in order on
// one worker, and Stats counts the same.
func TestLaunchEveryCTAOnce(t *testing.T) {
	const ctas = 1000
	var want Stats
	for _, workers := range workerCounts {
		p := newProbe(ctas, never, noSpin)
		var st Stats
		if err := p.launch(t.Context(), LaunchConfig{Workers: workers, Stats: &st}); err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		for id := range p.started {
			if n := p.started[id].Load(); n != 1 {
				t.Fatalf("%d workers: CTA %d started %d times", workers, id, n)
			}
		}
		if workers == 1 {
			if !slices.IsSorted(p.order) {
				t.Errorf("one worker ran the CTAs out of order: %v", p.order)
			}
			want = st
		}
		if st.Instructions != want.Instructions || st.Instructions != 4*ctas {
			t.Errorf("%d workers: %d warp instructions, one worker %d, want %d", workers, st.Instructions, want.Instructions, 4*ctas)
		}
	}
}

// probeFault returns err as a *Fault, failing the test if it is not one of kind at CTA id.
func probeFault(t *testing.T, err error, kind FaultKind, id uint64) *Fault {
	t.Helper()
	f, ok := errors.AsType[*Fault](err)
	if !ok {
		t.Fatalf("launch returned %v, want a %s fault", err, kind)
	}
	if f.Kind != kind || f.CTA != (Dim3{X: uint32(id)}) || f.Loc != probeLoc && kind == FaultTrap {
		t.Fatalf("fault %s at %s in CTA %s, want %s in CTA %d", f.Kind, f.Loc, f.CTA, kind, id)
	}
	return f
}

// TestLaunchFaultOneWorker: on one worker, the first faulting CTA ends the launch: the CTAs
// before it ran, none after it started, and Progress saw each CTA that finished.
func TestLaunchFaultOneWorker(t *testing.T) {
	const ctas = 1000
	p := newProbe(ctas, func(id uint64) bool { return id == 300 || id == 700 }, noSpin)
	var reports []uint64
	err := p.launch(t.Context(), LaunchConfig{Workers: 1, Progress: func(done, total uint64) {
		if total != ctas {
			t.Errorf("Progress(%d, %d): want total %d", done, total, ctas)
		}
		reports = append(reports, done)
	}})
	probeFault(t, err, FaultTrap, 300)
	if want := seq(0, 301); !slices.Equal(p.order, want) {
		t.Errorf("CTAs started: %v, want 0 to 300", p.order)
	}
	if want := seq(1, 301); !slices.Equal(reports, want) {
		t.Errorf("Progress reported %v, want 1 to 300", reports)
	}
}

// seq returns the numbers from to end-1.
func seq(from, end uint64) []uint64 {
	var s []uint64
	for i := from; i < end; i++ {
		s = append(s, i)
	}
	return s
}

// TestLaunchFaultLowestCTA: with several workers, whichever CTAs fault before the others stop,
// the launch returns the fault of the lowest of them, and every fault stops the launch: no CTA
// starts after the one that faulted first.
func TestLaunchFaultLowestCTA(t *testing.T) {
	const ctas = 1000
	for _, workers := range workerCounts {
		p := newProbe(ctas, func(id uint64) bool { return id%97 == 96 }, noSpin)
		err := p.launch(t.Context(), LaunchConfig{Workers: workers})
		probeFault(t, err, FaultTrap, slices.Min(p.faulted))
		if n := len(p.order); n >= ctas {
			t.Errorf("%d workers: all %d CTAs started despite the faults", workers, n)
		}
		for id := range p.started {
			if n := p.started[id].Load(); n > 1 {
				t.Fatalf("%d workers: CTA %d started %d times", workers, id, n)
			}
		}
	}
}

// TestLaunchFaultStops: a fault stops the CTAs running on other workers at the end of their
// time slice, and their workers start none of the CTAs left in their chunks. On 2 workers,
// which take chunks of 8 CTAs at first, CTA 9 faults while CTA 0 spins; CTA 0 spins forever,
// or, in the second launch, until the launch has failed, and then ends or is stopped.
func TestLaunchFaultStops(t *testing.T) {
	const ctas = 64
	for _, untilFailed := range []bool{false, true} {
		p := newProbe(ctas, func(id uint64) bool { return id == 9 }, func(w *Warp) bool {
			return w.CTA.ID.X == 0 && !(untilFailed && w.CTA.L.failed.Load())
		})
		err := p.launch(t.Context(), LaunchConfig{Workers: 2})
		probeFault(t, err, FaultTrap, 9)
		for id := uint64(1); id < 8; id++ {
			if p.started[id].Load() != 0 {
				t.Errorf("CTA 0 spinning until the launch failed: %v: CTA %d, after it in its worker's chunk, started", untilFailed, id)
			}
		}
	}
}

// TestLaunchProgress: Progress hears of every CTA once, with the count of CTAs finished, on
// any number of workers; on one, in order.
func TestLaunchProgress(t *testing.T) {
	const ctas = 1000
	for _, workers := range workerCounts {
		p := newProbe(ctas, never, noSpin)
		var mu sync.Mutex
		var reports []uint64
		err := p.launch(t.Context(), LaunchConfig{Workers: workers, Progress: func(done, total uint64) {
			mu.Lock()
			reports = append(reports, done)
			mu.Unlock()
		}})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if workers == 1 && !slices.IsSorted(reports) {
			t.Errorf("one worker reported progress out of order: %v", reports)
		}
		slices.Sort(reports)
		if want := seq(1, ctas+1); !slices.Equal(reports, want) {
			t.Errorf("%d workers: Progress reported %d times, not each of 1 to %d once", workers, len(reports), ctas)
		}
	}
}

// TestLaunchCancel: cancelling the context of a launch whose CTAs spin forever ends it with a
// cancellation fault of a CTA that started, on any number of workers; a launch whose context
// is cancelled before it starts faults in its first CTA and runs no other.
func TestLaunchCancel(t *testing.T) {
	const ctas = 1000
	for _, workers := range workerCounts {
		ctx, cancel := context.WithCancel(t.Context())
		p := newProbe(ctas, never, func(*Warp) bool {
			cancel()
			return true
		})
		err := p.launch(ctx, LaunchConfig{Workers: workers})
		f, ok := errors.AsType[*Fault](err)
		if !ok || f.Kind != FaultCancelled || !errors.Is(f.Err, context.Canceled) {
			t.Fatalf("%d workers: launch returned %v, want a cancellation fault", workers, err)
		}
		if id := uint64(f.CTA.X); p.started[id].Load() != 1 {
			t.Errorf("%d workers: the cancellation fault names CTA %d, which did not start", workers, id)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	p := newProbe(ctas, never, spinForever)
	probeFault(t, p.launch(ctx, LaunchConfig{Workers: 1}), FaultCancelled, 0)
	if !slices.Equal(p.order, []uint64{0}) {
		t.Errorf("CTAs started after the cancellation: %v", p.order)
	}
}

// BenchmarkLaunchEmptyCTAs launches 20000 CTAs of one warp whose kernel is one empty
// instruction: what a launch costs per CTA (ns/CTA), the hand-out to the workers included, on
// one worker and on all (Workers at its default), whose ratio is the worker scaling of the
// smallest CTAs.
func BenchmarkLaunchEmptyCTAs(b *testing.B) {
	const ctas = 20000
	k := &Func{
		Name: "empty", Kernel: true, Exit: 1, Loc: "empty.ptx:1",
		Blocks: []Block{
			{Code: []Instr{func(*Warp, uint32) {}}, PTXInstrs: 1, Term: Term{Kind: TermJump, Loc: "empty.ptx:2", Succ: 1}},
			{Term: Term{Kind: TermNone, Reconv: -1}},
		},
	}
	mod := &Module{Name: "empty", Funcs: []*Func{k}, SM: 80}
	dev := NewDevice()
	for _, workers := range []int{1, 0} {
		name := "workers=1"
		if workers == 0 {
			name = "workers=default"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := dev.Launch(b.Context(), mod, k, LaunchConfig{Grid: D1(ctas), Block: D1(WarpSize), Workers: workers}, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/ctas, "ns/CTA")
		})
	}
}
