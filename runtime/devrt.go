package runtime

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
)

// The device runtime: dynamic parallelism, kernels launching kernels (CUDA's libcudadevrt).
//
// nvcc compiles `child<<<grid, block, shared, stream>>>(args)` in device code to a call of
// cudaGetParameterBufferV2, which returns a buffer for the child's parameters, stores of the
// arguments into it, and cudaLaunchDeviceV2 (older code: cudaGetParameterBuffer and
// cudaLaunchDevice). ptx2go implements them as builtins: the buffer is a block of the device
// heap, and the launch copies the parameters and queues the child grid on its parent grid.
//
// Scheduling. A child grid runs after its parent grid's CTAs have all finished, or earlier
// when a thread of the CTA that launched it calls cudaDeviceSynchronize (deprecated in CUDA
// 11.6, still compiled by CUDA 11.8 for compute capabilities below 9.0), which runs, there and
// then, every grid that CTA launched and that has not run yet. Queued grids run one at a time:
// a parent's grids in the order of the CTAs that launched them (then in launch order), so the
// run is deterministic. A grid is complete only when all its child grids are, and the launch
// returns only then. Running the work of every device stream in order one grid after
// another is one of the executions CUDA's stream semantics allow: grids in the NULL stream of
// a block, or in one stream, run in launch order; grids in different streams (created with
// cudaStreamCreateWithFlags, or cudaStreamFireAndForget) may run concurrently on a GPU and
// here run in launch order too; grids launched into cudaStreamTailLaunch run after all the
// parent's other child grids. Events recorded and waited for on the device order nothing
// more, since the grids already run in issue order.
//
// A kernel that launches a grid from a grid at depth MaxLaunchDepth (the host's launch is at
// depth 0) stops with a FaultLaunchDepth fault at the launch, where CUDA would return
// cudaErrorLaunchMaxDepthExceeded to the thread and drop the grid: a recursion that deep is a
// bug that a silently dropped grid would hide.

// MaxLaunchDepth is how deeply grids launched from the device may nest, as on NVIDIA GPUs:
// a grid at this depth (the host's launch is at 0) may launch no other.
const MaxLaunchDepth = 24

// The device runtime's stream handles that mean something of their own (CUDA 12's
// cudaStreamTailLaunch and cudaStreamFireAndForget); 0 is the launching block's NULL stream.
const (
	streamTailLaunch    = 3
	streamFireAndForget = 4
)

// The cudaError_t values the device runtime's functions return.
const (
	devrtSuccess               = 0
	devrtInvalidValue          = 1
	devrtMemoryAllocation      = 2
	devrtInvalidConfiguration  = 9
	devrtLaunchPendingExceeded = 69
	devrtInvalidResourceHandle = 400
	devrtLaunchOutOfResources  = 701
)

// devrt is the device runtime's state shared by a host launch and every grid launched from
// it: the parameter buffers handed out and not launched yet, and the streams and events.
type devrt struct {
	mu      sync.Mutex
	bufs    map[uint64]paramBuffer
	handles map[uint64]bool // live stream and event handles
	next    uint64          // the last handle handed out
}

// paramBuffer is a parameter buffer that cudaGetParameterBufferV2 (fn set) or
// cudaGetParameterBuffer (fn nil: cudaLaunchDevice names the kernel) returned.
type paramBuffer struct {
	fn          *Func
	grid, block Dim3
	shared      int
	size        int
	block0      uint64 // the heap block that holds it
}

// childGrid is a grid launched from the device, queued on its parent grid.
type childGrid struct {
	fn          *Func
	grid, block Dim3
	shared      int
	params      []byte
	cta         uint64 // the linear index of the CTA that launched it
	tail        bool   // launched into cudaStreamTailLaunch
}

// allCTAs selects the child grids of every CTA (runChildren).
const allCTAs = ^uint64(0)

// devrtCall runs one of the device runtime's functions for a lane and returns its result.
func (w *Warp) devrtCall(t *Term, f *Func, lane int) uint64 {
	cs, l := t.Call, w.CTA.L
	arg := func(i int) uint64 { return w.slotValue(cs.Args[i], lane) }
	switch f.Builtin {
	case BuiltinGetParameterBufferV2:
		fn := w.kernelAt(t, f, arg(0), lane)
		return w.paramBuffer(paramBuffer{fn: fn, grid: w.slotDim3(cs.Args[1], lane), block: w.slotDim3(cs.Args[2], lane), shared: int(uint32(arg(3))), size: fn.KernelParams}, 16, lane)
	case BuiltinGetParameterBuffer:
		align, size := arg(0), arg(1)
		if align == 0 || align&(align-1) != 0 || align > 4096 || size > 1<<20 {
			w.setDevErr(lane, devrtInvalidValue)
			return 0
		}
		return w.paramBuffer(paramBuffer{size: int(size)}, align, lane)
	case BuiltinLaunchDeviceV2:
		pb := w.takeBuffer(t, f, arg(0), lane)
		return w.launchChild(t, pb, arg(0), arg(1), lane)
	case BuiltinLaunchDevice:
		fn := w.kernelAt(t, f, arg(0), lane)
		pb := paramBuffer{}
		if arg(1) != 0 {
			pb = w.takeBuffer(t, f, arg(1), lane)
		}
		pb.fn, pb.grid, pb.block, pb.shared = fn, w.slotDim3(cs.Args[2], lane), w.slotDim3(cs.Args[3], lane), int(uint32(arg(4)))
		return w.launchChild(t, pb, arg(1), arg(5), lane)
	case BuiltinDeviceSynchronize:
		if err := l.runChildren(w.ctaIndex()); err != nil {
			panic(err)
		}
		return devrtSuccess
	case BuiltinGetLastError, BuiltinPeekAtLastError:
		key := w.globalThread(lane)
		l.childMu.Lock()
		defer l.childMu.Unlock()
		e := l.devErr[key]
		if f.Builtin == BuiltinGetLastError {
			delete(l.devErr, key)
		}
		return uint64(e)
	case BuiltinStreamCreate, BuiltinEventCreate:
		h := l.dr.newHandle()
		binary.LittleEndian.PutUint64(w.GenericBytes(arg(0), 8, lane, t.Loc), h)
		return devrtSuccess
	case BuiltinStreamDestroy, BuiltinEventDestroy:
		return w.result(lane, l.dr.dropHandle(arg(0)))
	case BuiltinEventRecord:
		return w.result(lane, l.dr.checkHandles(arg(0), arg(1)))
	case BuiltinStreamWaitEvent:
		return w.result(lane, l.dr.checkHandles(arg(1), arg(0)))
	case BuiltinGetDevice:
		binary.LittleEndian.PutUint32(w.GenericBytes(arg(0), 4, lane, t.Loc), 0)
		return devrtSuccess
	case BuiltinCudaMalloc:
		p := l.heap.malloc(arg(1))
		binary.LittleEndian.PutUint64(w.GenericBytes(arg(0), 8, lane, t.Loc), p)
		if p == 0 {
			return w.result(lane, devrtMemoryAllocation)
		}
		return devrtSuccess
	case BuiltinCudaFree:
		if p := arg(0); p != 0 && !l.heap.free(p) {
			return w.result(lane, devrtInvalidValue)
		}
		return devrtSuccess
	}
	panic(fmt.Sprintf("runtime: builtin %s has no implementation", f.Name))
}

// slotDim3 reads a lane's dim3 argument, a 12-byte .param aggregate (CheckBuiltinCall).
func (w *Warp) slotDim3(s Slot, lane int) Dim3 {
	b := w.Param[lane*w.Fn.ParamSize+s.ParamOff:][:12]
	le := binary.LittleEndian
	return Dim3{le.Uint32(b), le.Uint32(b[4:]), le.Uint32(b[8:])}
}

// kernelAt returns the kernel at a function address, which f's caller passed; any other
// address is a FaultCallTarget fault.
func (w *Warp) kernelAt(t *Term, f *Func, addr uint64, lane int) *Func {
	funcs := w.CTA.L.Mod.Funcs
	off := addr - uint64(FuncWindow)
	if addr >= uint64(FuncWindow) && off%FuncAlign == 0 && off/FuncAlign < uint64(len(funcs)) {
		if fn := funcs[off/FuncAlign]; fn.Kernel {
			return fn
		}
	}
	w.addrFault(FaultCallTarget, t.Loc, lane, "", addr, fmt.Sprintf("%s of an address that is not a kernel's", f.Name))
	return nil
}

// paramBuffer hands out a parameter buffer of pb.size bytes aligned to align from the device
// heap, or returns 0 (cudaErrorLaunchPendingCountExceeded) when the heap is full.
func (w *Warp) paramBuffer(pb paramBuffer, align uint64, lane int) uint64 {
	l := w.CTA.L
	extra := uint64(0)
	if align > heapAlign {
		extra = align - heapAlign
	}
	b := l.heap.malloc(uint64(max(pb.size, 1)) + extra)
	if b == 0 {
		w.setDevErr(lane, devrtLaunchPendingExceeded)
		return 0
	}
	p := (b + align - 1) &^ (align - 1)
	pb.block0 = b
	l.dr.mu.Lock()
	l.dr.bufs[p] = pb
	l.dr.mu.Unlock()
	return p
}

// takeBuffer returns the parameter buffer at p and forgets it; any other address is a
// FaultIllegal fault, since the launch would read parameters from memory nobody prepared.
func (w *Warp) takeBuffer(t *Term, f *Func, p uint64, lane int) paramBuffer {
	dr := w.CTA.L.dr
	dr.mu.Lock()
	pb, ok := dr.bufs[p]
	delete(dr.bufs, p)
	dr.mu.Unlock()
	if !ok {
		w.addrFault(FaultIllegal, t.Loc, lane, "", p, fmt.Sprintf("%s of a parameter buffer that cudaGetParameterBuffer did not return, or that was launched already", f.Name))
	}
	return pb
}

// launchChild queues the grid pb describes, its parameters read from the buffer at p, on the
// launching grid, and returns cudaSuccess or the error CUDA's launch returns.
func (w *Warp) launchChild(t *Term, pb paramBuffer, p, stream uint64, lane int) uint64 {
	l := w.CTA.L
	var params []byte
	if p != 0 {
		params = make([]byte, pb.fn.KernelParams)
		copy(params, w.GenericBytes(p, min(pb.size, len(params)), lane, t.Loc))
		l.heap.free(pb.block0)
	} else if pb.fn.KernelParams > 0 {
		params = make([]byte, pb.fn.KernelParams)
	}
	if l.depth >= MaxLaunchDepth {
		f := w.newFault(FaultLaunchDepth, t.Loc, lane)
		f.Detail = fmt.Sprintf("launch of %s from a grid at nesting depth %d: grids launched from the device nest at most %d deep (on a GPU the launch returns cudaErrorLaunchMaxDepthExceeded)", pb.fn.Name, l.depth, MaxLaunchDepth)
		panic(f)
	}
	if pb.grid.X == 0 || pb.grid.Y == 0 || pb.grid.Z == 0 || pb.block.X == 0 || pb.block.Y == 0 || pb.block.Z == 0 {
		return w.result(lane, devrtInvalidConfiguration)
	}
	cfg := LaunchConfig{Grid: pb.grid, Block: pb.block, DynamicShared: pb.shared}
	if cfg.Validate(l.Mod, pb.fn) != nil {
		return w.result(lane, devrtInvalidConfiguration)
	}
	if _, err := localStride(l.Mod, pb.fn, l.localBytes); err != nil {
		return w.result(lane, devrtLaunchOutOfResources)
	}
	if stream != 0 && stream != streamTailLaunch && stream != streamFireAndForget && l.dr.checkHandles(stream) != devrtSuccess {
		return w.result(lane, devrtInvalidResourceHandle)
	}
	g := childGrid{fn: pb.fn, grid: pb.grid, block: pb.block, shared: pb.shared, params: params, cta: w.ctaIndex(), tail: stream == streamTailLaunch}
	l.childMu.Lock()
	l.children = append(l.children, g)
	l.childMu.Unlock()
	return devrtSuccess
}

// runChildren runs the queued child grids the CTA cta launched (allCTAs: every CTA's, then the
// tail launches), each to completion with its own child grids, and returns the first fault.
func (l *launch) runChildren(cta uint64) error {
	for {
		var run []childGrid
		l.childMu.Lock()
		keep := l.children[:0]
		for _, g := range l.children {
			if (cta == allCTAs || g.cta == cta) && !g.tail {
				run = append(run, g)
			} else {
				keep = append(keep, g)
			}
		}
		l.children = keep
		if len(run) == 0 && cta == allCTAs {
			run, l.children = l.children, nil
		}
		l.childMu.Unlock()
		if len(run) == 0 {
			return nil
		}
		slices.SortStableFunc(run, func(a, b childGrid) int {
			switch {
			case a.cta < b.cta:
				return -1
			case a.cta > b.cta:
				return 1
			}
			return 0
		})
		for _, g := range run {
			if err := l.runChild(g); err != nil {
				return err
			}
		}
		if cta != allCTAs {
			return nil
		}
	}
}

// runChild runs one child grid to completion (with its own children), on the workers of its
// parent's launch, while the parent's launch holds the device.
func (l *launch) runChild(g childGrid) error {
	c := &launch{
		Dev: l.Dev, Mod: l.Mod, Kernel: g.fn, Grid: g.grid.norm(), Block: g.block.norm(),
		DynamicShared: g.shared, Params: g.params, Globals: l.Globals,
		maxDepth: l.maxDepth, ctx: l.ctx, sched: l.sched, maxBlocks: l.maxBlocks,
		heap: l.heap, printfSize: l.printfSize, workers: l.workers, localBytes: l.localBytes,
		counts: l.counts, countsMu: l.countsMu, depth: l.depth + 1, dr: l.dr,
	}
	c.localStride, _ = localStride(l.Mod, g.fn, l.localBytes) // checked by launchChild
	err := c.runGrid(false, nil)
	if len(c.printf) > 0 {
		l.printfMu.Lock()
		l.printf = append(l.printf, c.printf...)
		l.printfMu.Unlock()
	}
	return err
}

// ctaIndex is the linear index of the warp's CTA in its grid.
func (w *Warp) ctaIndex() uint64 {
	g, id := w.CTA.L.Grid, w.CTA.ID
	return uint64(id.X) + uint64(g.X)*(uint64(id.Y)+uint64(g.Y)*uint64(id.Z))
}

// globalThread is a lane's linear index in its grid, which keys its last error.
func (w *Warp) globalThread(lane int) uint64 {
	return w.ctaIndex()*w.CTA.L.Block.Count() + uint64(w.ID*WarpSize+lane)
}

// setDevErr records a device runtime error as the lane's last error (cudaGetLastError).
func (w *Warp) setDevErr(lane int, e uint32) {
	l := w.CTA.L
	l.childMu.Lock()
	if l.devErr == nil {
		l.devErr = map[uint64]uint32{}
	}
	l.devErr[w.globalThread(lane)] = e
	l.childMu.Unlock()
}

// result returns a device runtime function's error code, recording a failure as the lane's
// last error.
func (w *Warp) result(lane int, e uint32) uint64 {
	if e != devrtSuccess {
		w.setDevErr(lane, e)
	}
	return uint64(e)
}

// newHandle hands out a stream or event handle.
func (dr *devrt) newHandle() uint64 {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if dr.handles == nil {
		dr.handles = map[uint64]bool{}
	}
	dr.next += 16
	h := 0x1000 + dr.next
	dr.handles[h] = true
	return h
}

// dropHandle destroys a stream or event handle.
func (dr *devrt) dropHandle(h uint64) uint32 {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if !dr.handles[h] {
		return devrtInvalidResourceHandle
	}
	delete(dr.handles, h)
	return devrtSuccess
}

// checkHandles says whether the event h and the streams (0 meaning the NULL stream) are live
// handles.
func (dr *devrt) checkHandles(h uint64, streams ...uint64) uint32 {
	dr.mu.Lock()
	defer dr.mu.Unlock()
	if !dr.handles[h] {
		return devrtInvalidResourceHandle
	}
	for _, s := range streams {
		if s != 0 && !dr.handles[s] {
			return devrtInvalidResourceHandle
		}
	}
	return devrtSuccess
}

// usesHeap reports whether a call to the builtin b needs the device heap: malloc and free,
// and the device runtime (parameter buffers, cudaMalloc).
func (b Builtin) usesHeap() bool {
	return b == BuiltinMalloc || b == BuiltinFree || b >= BuiltinGetParameterBufferV2
}
