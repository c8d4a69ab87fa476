package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	goruntime "runtime"
	"sync"
	"sync/atomic"
)

// FuncAlign is the spacing of function addresses in FuncWindow: function i of a module is at
// FuncWindow + i*FuncAlign.
const FuncAlign = 16

// FuncAddr is the address a kernel sees for f (`mov.u64 %rd, f;`, call tables).
func FuncAddr(f *Func) Ptr { return FuncWindow + Ptr(f.Index)*FuncAlign }

// Limits of a launch, as on current NVIDIA GPUs.
const (
	MaxThreadsPerBlock = 1024
	MaxSharedBytes     = 227 << 10
	DefaultCallDepth   = 1024
	DefaultLocalBytes  = 16 << 10
	MaxLocalBytes      = 512 << 10 // per thread, as on the GPU
)

// LaunchConfig describes one kernel launch.
type LaunchConfig struct {
	Grid, Block Dim3
	// DynamicShared is the size in bytes of the dynamic shared memory (extern .shared arrays).
	DynamicShared int
	// Workers is how many CTAs run in parallel; 0 means GOMAXPROCS, 1 is deterministic.
	Workers int
	// MaxCallDepth limits nested calls (0: DefaultCallDepth); deeper recursion is a stack overflow fault.
	MaxCallDepth int
	// LocalBytes is the per-thread local memory available to call frames of programs that
	// recurse through a function with a .local area (0: DefaultLocalBytes). Other programs
	// get exactly what they need: recursion among functions without one needs none.
	LocalBytes int
	// Progress, if set, is called from worker goroutines after CTAs finish. It must not
	// allocate or free on the launch's device, which waits for the launch to end.
	Progress func(done, total uint64)
	// Stats, if set, receives the launch's execution counts (added to what it holds).
	Stats *Stats
	// Sched is the scheduling model of the lanes of a warp; the default follows the module's
	// target (SchedITS for sm_70 and newer).
	Sched Sched
	// MaxWarpBlocks, if not 0, is the most basic blocks one warp may run: a deterministic
	// cut-off for runaway kernels (a budget fault), unlike a timeout.
	MaxWarpBlocks uint64
	// Printf, if set, receives the launch's printf output instead of the device's writer
	// (Device.SetPrintfOutput, os.Stdout by default).
	Printf io.Writer
	// Cooperative runs every CTA of the grid at once, each on a goroutine of its own (Workers
	// is ignored), so that CTAs may wait for each other, as a CUDA cooperative launch
	// guarantees (at most MaxCooperativeCTAs CTAs). The launch provides the grid barrier
	// workspace that NVIDIA's driver gives cooperative kernels: 8 bytes of device memory, a
	// 32-bit size (8) and a zeroed 32-bit barrier word, whose address %envreg1 (high half) and
	// %envreg2 (low half) hold; cooperative groups' grid.sync() synchronizes through it. With
	// more CTAs than GOMAXPROCS, a warp found spinning yields its goroutine.
	Cooperative bool
	// Check runs the sanitizer's tools on the launch (check.go): the module must have been
	// compiled with its check hooks (Module.CheckHooks). A launch with findings returns a
	// *CheckError holding them. A launch of a module with hooks and no Check takes the tools
	// from $PTX2GO_CHECK, and then also writes the reports to standard error.
	Check CheckTools
	// NoPredication runs every divergent branch on the SIMT stack, also those whose short
	// region runs predicated by default (Term.Predicated): the results and statistics are
	// the same either way (but for Stats.PredicatedRegions), which the tests compare.
	NoPredication bool
}

// MaxCooperativeCTAs is the most CTAs a cooperative launch may have: each runs on a goroutine
// of its own for the whole launch.
const MaxCooperativeCTAs = 1 << 16

// launch is the shared state of one running launch.
type launch struct {
	Dev           *Device
	Mod           *Module
	Kernel        *Func
	Grid, Block   Dim3
	DynamicShared int
	Params        []byte
	Globals       []Ptr
	maxDepth      int
	localStride   int
	sched         Sched
	maxBlocks     uint64
	noPred        bool
	cancelled     atomic.Bool
	// failed is set when a CTA faulted: the other running CTAs stop at their next check.
	failed atomic.Bool
	ctx    context.Context
	// heap is the device heap, for modules that call malloc or free.
	heap *deviceHeap
	// printf collects the launch's printf output, CTA by CTA, up to printfSize bytes
	// (printfUsed counts the records the CTAs kept); it is written out when the launch ends.
	printfMu   sync.Mutex
	printf     []byte
	printfSize int
	printfUsed atomic.Int64
	// gridWS is the grid barrier workspace of a cooperative launch (0 otherwise).
	gridWS Ptr
	// yieldSpin is set in a cooperative launch with more CTAs than processors: a warp found
	// spinning yields its goroutine, so that the CTAs it waits for run.
	yieldSpin bool
	// chk is the state of a checked launch (check_dev.go), nil otherwise.
	chk *checkLaunch
	// workers and localBytes are LaunchConfig's, for the grids this one launches.
	workers, localBytes int
	// counts collects the statistics of this grid and of the grids it launches (nil unless
	// LaunchConfig.Stats is set); countsMu guards it.
	counts   *counter
	countsMu *sync.Mutex
	// The device runtime (devrt.go): the grid's nesting depth (0 for a host launch), the
	// state it shares with its host launch's other grids, and the child grids its CTAs
	// launched that have not run yet, with the threads' last errors (childMu guards both).
	depth    int
	dr       *devrt
	childMu  sync.Mutex
	children []childGrid
	devErr   map[uint64]uint32
}

// localStride sizes each thread's local memory for kernel k of mod: its .local variables and
// call frames, or localBytes (LaunchConfig.LocalBytes) for a kernel that recurses through a
// function with a .local area.
func localStride(mod *Module, k *Func, localBytes int) (int, error) {
	n := mod.LocalSize + k.StackBytes
	if k.StackBytes < 0 {
		n = localBytes
		if n <= 0 {
			n = DefaultLocalBytes
		}
	}
	if n > MaxLocalBytes {
		return 0, fmt.Errorf("launch %s: a thread needs %d bytes of local memory (its .local variables and call frames), more than the limit of %d", k.Name, n, MaxLocalBytes)
	}
	return n, nil
}

// EnvReg returns the PTX special register %envreg<i> (0-31): in a cooperative launch
// %envreg1 and %envreg2 are the high and low halves of the grid barrier workspace's address
// (LaunchConfig.Cooperative); the others, and all of them in other launches, are 0.
func (w *Warp) EnvReg(i int) uint64 {
	switch ws := uint64(w.CTA.L.gridWS); i {
	case 1:
		return ws >> 32
	case 2:
		return ws & 0xffffffff
	}
	return 0
}

// flushPrintf moves a CTA's printf output to the launch's buffer.
func (l *launch) flushPrintf(c *CTA) {
	if len(c.printf) == 0 {
		return
	}
	l.printfMu.Lock()
	l.printf = append(l.printf, c.printf...)
	l.printfMu.Unlock()
	c.printf = c.printf[:0]
}

// checkCancel turns a cancelled launch into a fault at the warp's current block, located at
// the block's terminator.
func (l *launch) checkCancel(w *Warp, e *simtEntry, loc string) {
	if l.failed.Load() {
		panic(errStopped)
	}
	if !l.cancelled.Load() {
		return
	}
	f := w.newFault(FaultCancelled, loc, firstLane(e.mask))
	f.Err = context.Cause(l.ctx)
	if f.Err == nil {
		f.Err = context.Canceled
	}
	f.Detail = f.Err.Error()
	panic(f)
}

// errStopped stops a CTA because another CTA of its launch faulted; the launch reports that
// fault, not this.
var errStopped = errors.New("stopped: another CTA faulted")

// Validate checks a launch configuration against the kernel and the machine's limits.
func (cfg *LaunchConfig) Validate(mod *Module, k *Func) error {
	g, b := cfg.Grid.norm(), cfg.Block.norm()
	switch {
	case b.X > 1024 || b.Y > 1024 || b.Z > 64:
		return fmt.Errorf("launch %s: block %s exceeds the limits 1024x1024x64", k.Name, b)
	case b.Count() > MaxThreadsPerBlock:
		return fmt.Errorf("launch %s: block %s has %d threads, the limit is %d", k.Name, b, b.Count(), MaxThreadsPerBlock)
	case g.X > 1<<31-1 || g.Y > 65535 || g.Z > 65535:
		return fmt.Errorf("launch %s: grid %s exceeds the limits 2147483647x65535x65535", k.Name, g)
	case cfg.DynamicShared < 0 || mod.SharedSize+cfg.DynamicShared > MaxSharedBytes:
		return fmt.Errorf("launch %s: %d bytes of static and %d of dynamic shared memory exceed the limit of %d", k.Name, mod.SharedSize, cfg.DynamicShared, MaxSharedBytes)
	case !k.Kernel:
		return fmt.Errorf("launch %s: not a kernel (.entry)", k.Name)
	case k.ClusterCTAs > 1:
		return fmt.Errorf("launch %s: the kernel requires clusters of %d CTAs (.reqnctapercluster); clusters of more than one CTA are not supported", k.Name, k.ClusterCTAs)
	}
	return nil
}

// Launch runs kernel k of mod on the device with the packed parameter bytes params (laid out
// as the kernel's .param space). It returns nil, a *Fault, or a configuration error.
func (d *Device) Launch(ctx context.Context, mod *Module, k *Func, cfg LaunchConfig, params []byte) error {
	if err := cfg.Validate(mod, k); err != nil {
		return err
	}
	if len(params) != k.KernelParams {
		return fmt.Errorf("launch %s: %d bytes of parameters, the kernel takes %d", k.Name, len(params), k.KernelParams)
	}
	fromEnv := false
	if mod.CheckHooks && cfg.Check == 0 {
		cfg.Check, fromEnv = envCheck(), true
	}
	if cfg.Check != 0 && !mod.CheckHooks {
		return fmt.Errorf("launch %s: the checks %s need a module compiled with check hooks (ptx2go generate -check, or the closure engine)", k.Name, cfg.Check)
	}
	globals, err := d.loadModule(mod)
	if err != nil {
		return err
	}
	var heap *deviceHeap
	if mod.usesHeap() {
		if err := d.ensureHeap(); err != nil {
			return err
		}
		heap = d.heap
	}
	// The printf output is delivered when the launch ends, also when it faults (the output
	// before an assert is what one wants to see), after the launch lets go of the device.
	out, outSize := d.printfConfig(&cfg)
	var gridWS Ptr
	if cfg.Cooperative {
		if n := cfg.Grid.norm().Count(); n > MaxCooperativeCTAs {
			return fmt.Errorf("launch %s: a cooperative launch of %d CTAs exceeds the limit of %d", k.Name, n, MaxCooperativeCTAs)
		}
		p, err := d.Malloc(8)
		if err != nil {
			return fmt.Errorf("launch %s: the grid barrier workspace: %w", k.Name, err)
		}
		defer d.Free(p) // after the launch lets go of the device (deferred calls run last first)
		if err := d.CopyIn(p, []byte{8, 0, 0, 0, 0, 0, 0, 0}); err != nil {
			return err
		}
		gridWS = p
	}
	var l *launch
	defer func() {
		if l != nil && len(l.printf) > 0 {
			out.Write(l.printf)
		}
	}()
	d.Acquire()
	defer d.Release()
	l = &launch{
		Dev: d, Mod: mod, Kernel: k, Grid: cfg.Grid.norm(), Block: cfg.Block.norm(),
		DynamicShared: cfg.DynamicShared, Params: params, Globals: globals,
		maxDepth: cfg.MaxCallDepth, ctx: ctx, sched: cfg.Sched.resolve(mod),
		maxBlocks: cfg.MaxWarpBlocks, heap: heap, printfSize: outSize, gridWS: gridWS,
		noPred: cfg.NoPredication,
	}
	if l.maxDepth <= 0 {
		l.maxDepth = DefaultCallDepth
	}
	if cfg.Check&^CheckLeak != 0 {
		l.chk = &checkLaunch{tools: cfg.Check, mod: mod, reports: map[string]*CheckReport{}}
	}
	if l.localStride, err = localStride(mod, k, cfg.LocalBytes); err != nil {
		return err
	}
	l.workers, l.localBytes = cfg.Workers, cfg.LocalBytes
	l.dr = &devrt{bufs: map[uint64]paramBuffer{}}
	if cfg.Stats != nil {
		l.counts, l.countsMu = newCounter(mod, 0), new(sync.Mutex)
		defer func() { cfg.Stats.add(mod, l.counts) }()
	}
	err = l.runGrid(cfg.Cooperative, cfg.Progress)
	if l.chk != nil {
		return l.checkResult(err, fromEnv)
	}
	return err
}

// runGrid runs the launch's CTAs on its workers, then the grids they launched from the device
// and did not wait for (devrt.go): a grid is complete when its child grids are. It returns
// nil or the fault of the lowest faulting CTA.
func (l *launch) runGrid(cooperative bool, progress func(done, total uint64)) error {
	workers := l.workers
	if workers <= 0 {
		workers = goruntime.GOMAXPROCS(0)
	}
	if cooperative {
		l.yieldSpin = l.Grid.Count() > uint64(goruntime.GOMAXPROCS(0))
		workers = int(l.Grid.Count())
	}
	total := l.Grid.Count()
	if uint64(workers) > total {
		workers = int(total)
	}
	stop := context.AfterFunc(l.ctx, func() { l.cancelled.Store(true) })
	defer stop()
	if l.ctx.Err() != nil {
		l.cancelled.Store(true)
	}

	var (
		queue    = newCTAQueue(total, workers)
		done     atomic.Uint64 // CTAs finished, counted only for progress
		mu       sync.Mutex
		firstErr error
		firstCTA uint64
		wg       sync.WaitGroup
	)
	// The calling goroutine is one of the workers: a launch of one CTA, or the last worker of
	// any launch, runs without handing the work to another goroutine and back, which costs a
	// cgo caller (ptx2go exec) tens of microseconds, its goroutine being locked to its thread.
	// Each worker makes its own CTA and statistics counter: allocated by its goroutine, they
	// usually come from its processor's own memory spans, not from next to another worker's.
	work := func() {
		c := newCTA(l)
		if l.chk != nil {
			c.chk = newCTACheck(l.chk, c)
		}
		if l.counts != nil {
			c.stats = newCounter(l.Mod, len(c.Warps))
			defer func() {
				l.countsMu.Lock()
				l.counts.merge(c.stats)
				l.countsMu.Unlock()
			}()
		}
		for {
			id, end := queue.take()
			if id == end {
				return
			}
			for ; id < end; id++ {
				if l.failed.Load() {
					return
				}
				err := c.runSafely(id)
				if c.chk != nil {
					c.chk.finish()
				}
				l.flushPrintf(c)
				if err != nil {
					if err == errStopped {
						return
					}
					mu.Lock()
					if firstErr == nil || id < firstCTA {
						firstErr, firstCTA = err, id
					}
					mu.Unlock()
					l.failed.Store(true)
					return
				}
				if progress != nil {
					progress(done.Add(1), total)
				}
			}
		}
	}
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return l.runChildren(allCTAs)
}

// chunksPerWorker is how many chunks each worker's share of the CTAs not yet handed out is cut
// into (ctaQueue): more chunks balance CTAs of uneven cost, and a worker that its processor
// leaves idle for a while, better; fewer touch the queue less often.
const chunksPerWorker = 4

// ctaQueue hands out a launch's CTAs, by linear index, to its workers in chunks of consecutive
// CTAs (guided self-scheduling): a chunk is the CTAs not yet handed out over chunksPerWorker
// times the workers, at least one, so chunks shrink as the grid drains and the last ones are
// single CTAs, which balances the workers' ends as handing out one CTA at a time does. The
// workers write the queue's shared counter fewer than divisor*(2+ln(CTAs/divisor)) times per
// launch instead of once per CTA: 69 times for 16384 CTAs on 2 workers, 1464 on 64. Chunks
// are handed out in increasing order, so one worker runs the CTAs in order, and a launch
// with as many workers as CTAs (a cooperative one) hands out single CTAs.
//
// The queue is one cache line: Go places an object of 64 bytes at a multiple of 64, so the
// counter the workers write shares its line with nothing that other code reads or writes.
type ctaQueue struct {
	next  atomic.Uint64 // the first CTA not handed out yet
	total uint64
	// divisor is chunksPerWorker times the workers: a chunk is the CTAs left over divisor.
	divisor uint64
	_       [cacheLine - 24]byte
}

// cacheLine is the size of a processor cache line, the unit in which cores share memory.
const cacheLine = 64

// newCTAQueue returns the queue of a launch of total CTAs on workers workers.
func newCTAQueue(total uint64, workers int) *ctaQueue {
	return &ctaQueue{total: total, divisor: chunksPerWorker * uint64(max(workers, 1))}
}

// take hands out the next chunk, the CTAs id to end-1; id == end when none are left.
func (q *ctaQueue) take() (id, end uint64) {
	for {
		id = q.next.Load()
		if id >= q.total {
			return id, id
		}
		end = id + max((q.total-id)/q.divisor, 1)
		if q.next.CompareAndSwap(id, end) {
			return id, end
		}
	}
}

// runSafely runs one CTA, turning a fault (or an internal error) into an error.
func (c *CTA) runSafely(id uint64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if r == errStopped {
				err = errStopped
				return
			}
			var f *Fault
			if e, ok := r.(error); ok && errors.As(e, &f) {
				err = f
				return
			}
			err = fmt.Errorf("runtime: internal error in kernel %s, CTA %s: %v", c.L.Kernel.Name, c.ID, r)
		}
	}()
	c.run(id)
	return nil
}

// newFault builds a fault at a lane of the warp.
func (w *Warp) newFault(kind FaultKind, loc string, lane int) *Fault {
	return &Fault{
		Kind: kind, Kernel: w.CTA.L.Kernel.Name, Func: w.Fn.Name, Loc: loc,
		CTA: w.CTA.ID, Thread: w.Thread(lane),
	}
}

// Fault stops the launch with a fault at a lane of the warp.
func (w *Warp) Fault(kind FaultKind, loc string, lane int, detail string) {
	f := w.newFault(kind, loc, lane)
	f.Detail = detail
	panic(f)
}

// addrFault stops the launch with a fault at an address.
func (w *Warp) addrFault(kind FaultKind, loc string, lane int, space string, addr uint64, detail string) {
	f := w.newFault(kind, loc, lane)
	f.HasAddr, f.Addr, f.Space, f.Detail = true, addr, space, detail
	panic(f)
}

func popcount(m uint32) int { return bits.OnesCount32(m) }

// firstSlice is the time slice a warp starts a CTA with, as setSlice(timeSlice) gives a warp
// that has run no blocks yet: CTA.run works it out once for all its warps.
func (l *launch) firstSlice() int {
	if l.maxBlocks > 0 && l.maxBlocks < timeSlice {
		return int(l.maxBlocks)
	}
	return timeSlice
}
