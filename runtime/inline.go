package runtime

import (
	"math"
	"sync/atomic"
	"unsafe"
)

// Helpers for memory accesses that generated code (codegen/gosrc) makes inside its lane loops.
// A lane loop runs several instructions for one lane before the next lane; only loads and
// register arithmetic may share a loop (a store ends it), so reordering the lanes' loads is
// invisible. The fast path is inline in the generated code: a bounds and alignment check
// against the CTA's shared memory or a cached global allocation (a Window), then one of the
// LoadN helpers. Anything else goes through TryLoad, which never faults; a lane whose access
// would fault stops, and after the loop LaneFault.Raise reports the fault that lockstep
// execution would have reported first: the lowest instruction, then the lowest lane.

// Window is a generated load or store's cached global allocation: device addresses
// [Base, Base+len(Mem)), starting at Ptr; an access of the instruction's size n at offset o
// fits when o < End (End is len(Mem)-n+1, or 0). The zero Window holds nothing.
type Window struct {
	Mem  []byte
	Ptr  unsafe.Pointer
	Base uint64
	End  uint64
}

// Window returns the CTA worker's window i (i < Module.NumWindows), which stays valid for the launch.
func (w *Warp) Window(i int) *Window { return &w.CTA.wins[i] }

// passGiveUp is the number of warp passes in a row that must find a block's accesses unfit
// before a worker stops trying that block's pass for the rest of the launch.
const passGiveUp = 16

// PassOK reports whether generated code should try warp pass i (i < Module.NumPasses): a
// block run lane by lane for a full warp where a first loop over the lanes shows that no
// lane can tell. A block whose accesses keep failing that check (a shared-memory row that
// every lane of a half-warp reads) would pay for the loop on every run: the worker gives up
// on it after passGiveUp failures in a row. Either way the results are the same.
func (w *Warp) PassOK(i int) bool { return w.CTA.passMisses[i] < passGiveUp }

// PassDone records whether warp pass i ran the block, and returns ok.
func (w *Warp) PassDone(i int, ok bool) bool {
	if ok {
		w.CTA.passMisses[i] = 0
	} else {
		w.CTA.passMisses[i]++
	}
	return ok
}

// setWindow makes the window the allocation holding the n-byte access at addr, and reports
// whether there is one.
func (w *Warp) setWindow(win *Window, addr uint64, n int) bool {
	mem, base := w.CTA.L.Dev.Span(addr, addr+uint64(n))
	if mem == nil {
		return false
	}
	win.Mem, win.Ptr, win.Base, win.End = mem, MemPtr(mem), base, uint64(len(mem))-uint64(n)+1
	return true
}

// AccessEnd is the bound below which an n-byte access at offset o of mem is in bounds: o < AccessEnd(mem, n).
func AccessEnd(mem []byte, n int) uint64 {
	if len(mem) < n {
		return 0
	}
	return uint64(len(mem) - n + 1)
}

// MemPtr is the address of mem's first byte, for the LoadN and StoreN helpers.
func MemPtr(mem []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(mem)) }

// Offset is p advanced by o bytes: lane 0's element of a warp pass's access, in memory
// whose bounds the pass has checked, which the lanes then index from.
func Offset(p unsafe.Pointer, o uint64) unsafe.Pointer { return unsafe.Add(p, o) }

// SharedMem is the CTA's shared memory, which generated code addresses directly.
func (w *Warp) SharedMem() []byte { return w.CTA.Shared }

// Load8, Load16, Load32 and Load64 read the element at offset o from p, the MemPtr of memory
// in which the caller has checked the access to be in bounds and aligned: one move, without
// the slice's bounds check. Under the race detector they read atomically, as LoadBits does;
// otherwise a plain move, which the compiler folds into the lane's addressing (a single
// aligned move is atomic on amd64 and arm64 anyway).
func Load8(p unsafe.Pointer, o uint64) uint64 {
	if raceEnabled {
		return loadSubword(unsafe.Slice((*byte)(unsafe.Add(p, o)), 1))
	}
	return uint64(*(*uint8)(unsafe.Add(p, o)))
}

func Load16(p unsafe.Pointer, o uint64) uint64 {
	if raceEnabled {
		return loadSubword(unsafe.Slice((*byte)(unsafe.Add(p, o)), 2))
	}
	return uint64(*(*uint16)(unsafe.Add(p, o)))
}

func Load32(p unsafe.Pointer, o uint64) uint64 {
	if raceEnabled {
		return uint64(atomic.LoadUint32((*uint32)(unsafe.Add(p, o))))
	}
	return uint64(*(*uint32)(unsafe.Add(p, o)))
}

// LoadF32 is Load32 of an f32 element as a float32: one move into a floating-point register,
// which keeps every bit (NaN payloads included).
func LoadF32(p unsafe.Pointer, o uint64) float32 {
	if raceEnabled {
		return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Add(p, o))))
	}
	return *(*float32)(unsafe.Add(p, o))
}

func Load64(p unsafe.Pointer, o uint64) uint64 {
	if raceEnabled {
		return atomic.LoadUint64((*uint64)(unsafe.Add(p, o)))
	}
	return *(*uint64)(unsafe.Add(p, o))
}

// Store8, Store16, Store32 and Store64 write the low bytes of v at offset o from p, the MemPtr
// of memory in which the caller has checked the access to be in bounds and aligned, as
// StoreBits does.
func Store8(p unsafe.Pointer, o uint64, v uint64) {
	if raceEnabled {
		storeSubword(unsafe.Slice((*byte)(unsafe.Add(p, o)), 1), v)
		return
	}
	*(*uint8)(unsafe.Add(p, o)) = uint8(v)
}

func Store16(p unsafe.Pointer, o uint64, v uint64) {
	if raceEnabled {
		storeSubword(unsafe.Slice((*byte)(unsafe.Add(p, o)), 2), v)
		return
	}
	*(*uint16)(unsafe.Add(p, o)) = uint16(v)
}

func Store32(p unsafe.Pointer, o uint64, v uint64) {
	if raceEnabled {
		atomic.StoreUint32((*uint32)(unsafe.Add(p, o)), uint32(v))
		return
	}
	*(*uint32)(unsafe.Add(p, o)) = uint32(v)
}

func Store64(p unsafe.Pointer, o uint64, v uint64) {
	if raceEnabled {
		atomic.StoreUint64((*uint64)(unsafe.Add(p, o)), v)
		return
	}
	*(*uint64)(unsafe.Add(p, o)) = v
}

// TryLoad reads the n-byte element (n = 1, 2, 4 or 8) that lane reads at addr in space sp,
// or reports false where the access would fault. A global access (also through a generic
// address) makes win the allocation it falls in, so the lane loop's next access there takes
// the fast path; win may be nil.
func (w *Warp) TryLoad(win *Window, sp Space, addr uint64, n, lane int) (uint64, bool) {
	b := w.tryBytes(win, sp, addr, n, lane)
	if b == nil {
		return 0, false
	}
	return LoadBits(b), true
}

// StoreLane writes the low n bytes of v at addr of space sp for lane, or stops the launch
// with the fault naming loc, the lane and the address (constant memory is read-only). A
// global access makes win the allocation it falls in (win may be nil).
func (w *Warp) StoreLane(win *Window, sp Space, addr uint64, n int, v uint64, lane int, loc string) {
	b := w.tryBytes(win, sp, addr, n, lane)
	if b == nil || sp == SpaceGeneric && InParamWindow(addr) {
		w.StoreBytes(sp, addr, n, lane, loc) // reports the fault
		panic("runtime: StoreLane: no fault for a failed access")
	}
	if (sp == SpaceGlobal || sp == SpaceGeneric && IsGlobalGeneric(addr)) && w.CTA.L.Dev.isReadOnly(addr) {
		// Constant memory: the window must not let the next store in.
		if win != nil {
			*win = Window{}
		}
		w.readOnlyFault(addr, lane, loc)
	}
	StoreBits(b, v)
}

// tryBytes is Bytes without the fault: nil where Bytes would stop the launch.
func (w *Warp) tryBytes(win *Window, sp Space, addr uint64, n, lane int) []byte {
	if addr&uint64(n-1) != 0 {
		if sp != SpaceParam && sp != SpaceKernelParam {
			return nil
		}
	}
	switch sp {
	case SpaceGeneric:
		switch {
		case addr-uint64(SharedWindow) < WindowSize:
			return w.tryBytes(nil, SpaceShared, addr-uint64(SharedWindow), n, lane)
		case addr-uint64(LocalWindow) < WindowSize:
			return w.tryBytes(nil, SpaceLocal, addr-uint64(LocalWindow), n, lane)
		case InParamWindow(addr):
			return w.tryBytes(nil, SpaceKernelParam, addr-uint64(ParamWindow), n, lane)
		}
		fallthrough
	case SpaceGlobal:
		b := w.CTA.L.Dev.Bytes(addr, n)
		if b != nil && win != nil {
			w.setWindow(win, addr, n)
		}
		return b
	case SpaceShared:
		s := w.CTA.Shared
		if addr > uint64(len(s)) || uint64(len(s))-addr < uint64(n) {
			return nil
		}
		return s[addr : addr+uint64(n) : addr+uint64(n)]
	case SpaceLocal:
		st := uint64(w.LocalStride)
		if addr > st || st-addr < uint64(n) {
			return nil
		}
		base := uint64(lane)*st + addr
		return w.Local[base : base+uint64(n) : base+uint64(n)]
	case SpaceParam:
		ps := int64(w.Fn.ParamSize)
		off := int64(addr)
		if off < 0 || off+int64(n) > ps {
			return nil
		}
		base := int64(lane)*ps + off
		return w.Param[base : base+int64(n) : base+int64(n)]
	case SpaceKernelParam:
		p := w.CTA.L.Params
		off := int64(addr)
		if off < 0 || off+int64(n) > int64(len(p)) {
			return nil
		}
		return p[off : off+int64(n) : off+int64(n)]
	}
	return nil
}

// LaneFault is the first fault of a generated lane loop's loads, in lockstep order: the
// lowest instruction index, then the lowest lane. The zero value holds none.
type LaneFault struct {
	set   bool
	instr int
	lane  int
	sp    Space
	addr  uint64
	n     int
	loc   string
}

// Note records that lane's access of instruction instr (its index in the loop) would fault.
// Lanes are visited in increasing order, so the first lane noted for an instruction is its lowest.
func (f *LaneFault) Note(instr, lane int, sp Space, addr uint64, n int, loc string) {
	if f.set && f.instr <= instr {
		return
	}
	*f = LaneFault{set: true, instr: instr, lane: lane, sp: sp, addr: addr, n: n, loc: loc}
}

// Raise stops the launch with the noted fault, if any.
func (f *LaneFault) Raise(w *Warp) {
	if f.set {
		f.raise(w)
	}
}

func (f *LaneFault) raise(w *Warp) {
	w.Bytes(f.sp, f.addr, f.n, f.lane, f.loc)
	panic("runtime: LaneFault: no fault for a failed access")
}

// RunDone is what Func.Run returns when the code has set the running SIMT entry itself.
const RunDone = -1

// Split ends a region of a function that generated code ran for each lane of the running
// SIMT entry on its own, after the divergent branch that starts it: register arithmetic and
// branches only, every path leading to the branch's reconvergence point reconv, so the order
// of the lanes cannot be seen. The lanes in parked stopped inside the region (lane l at block
// at[l]) after a bounded number of blocks; the others reached reconv. As after any divergent
// branch, the entry waits at reconv and the parked lanes continue above it, one entry per
// block, so a lane that loops forever is scheduled, checked and cancelled as usual.
func (w *Warp) Split(reconv int32, parked uint32, at *[WarpSize]int32) {
	if parked == 0 {
		w.stack[len(w.stack)-1].pc = reconv
		return
	}
	var groups [WarpSize]target
	ng := 0
	for mm := parked; mm != 0; mm &= mm - 1 {
		l := firstLane(mm)
		g := 0
		for g < ng && groups[g].pc != at[l] {
			g++
		}
		if g == ng {
			groups[g] = target{pc: at[l]}
			ng++
		}
		groups[g].mask |= 1 << l
	}
	w.diverge(reconv, groups[:ng])
}

// LaneEnd is the bound below which an n-byte access at offset o of a lane's area of size
// stride (its .param or .local memory) is in bounds: o < LaneEnd(stride, n).
func LaneEnd(stride, n int) uint64 {
	if stride < n {
		return 0
	}
	return uint64(stride - n + 1)
}

// KernelParams is the launch's kernel parameter buffer, which generated code reads directly;
// it does not change during the launch.
func (w *Warp) KernelParams() []byte { return w.CTA.L.Params }
