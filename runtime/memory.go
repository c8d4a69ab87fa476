package runtime

import (
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Ptr is a device address. It is 64 bits wide; programs with .address_size 32 see its low 32
// bits, and the device hands out addresses below 4 GiB until that range is full.
type Ptr uint64

// The device address map. Global allocations live in [GlobalBase, FuncWindow) first; the
// windows above give function addresses and the generic addresses of shared and local memory
// their own ranges, so that a generic address says which state space it belongs to. Above
// 4 GiB, [HighBase, HighLimit) holds the allocations that no longer fit below FuncWindow and
// host-visible memory (MallocHost), whose device address is its host address.
const (
	GlobalBase   Ptr = 0x0001_0000 // first global allocation address; lower addresses are never valid (the null page)
	FuncWindow   Ptr = 0xD000_0000 // function addresses
	SharedWindow Ptr = 0xE000_0000 // generic addresses of the CTA's shared memory
	LocalWindow  Ptr = 0xF000_0000 // generic addresses of the thread's local memory
	WindowSize       = 0x1000_0000 // the size of each window

	// ParamWindow holds the generic addresses of the launch's kernel parameters (cvta.param),
	// in the upper half of the function window, which function addresses never reach.
	ParamWindow     Ptr = FuncWindow + WindowSize/2
	ParamWindowSize     = WindowSize / 2

	HighBase  Ptr = 0x1_0000_0000  // 4 GiB: the device's address range above the 32-bit one
	HighLimit Ptr = 0x40_0000_0000 // 256 GiB: the end of the device's own address ranges
)

// Global memory is managed in pages: every allocation starts on a page boundary and owns the
// pages it covers, so a page-table index finds the allocation of any address.
const (
	pageShift = 12
	pageSize  = 1 << pageShift
)

// Freed address ranges are reused, but not at once: they wait in a quarantine, oldest first,
// until it holds more than quarantineBytes of address space or quarantineCount ranges (or an
// allocation finds no free range otherwise), so an access through a recently freed pointer is
// still an out-of-bounds fault that names the freed allocation.
const (
	quarantineBytes = 8 << 30
	quarantineCount = 4096
)

// Scalar is an element type the typed copy helpers accept.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Device is a simulated GPU's global memory. Allocations take the lowest free page-aligned
// range, below 4 GiB while there is room, then above; freed ranges are reused after a
// quarantine (see quarantineBytes). Large allocations are backed lazily by the host's virtual
// memory, so a device may hold more address space than the host has memory as long as the
// kernels touch little of it. Host memory can be made visible to kernels at its own address
// (MapHost, MallocHost), so that host code may dereference device pointers into it.
//
// Device memory is little-endian, as on a GPU; the typed helpers and the atomics use the host's
// byte order, so ptx2go needs a little-endian host (amd64, arm64, riscv64, ...).
//
// Every method may be called from several goroutines at once, also while kernels run on the
// device: launches, Size, Memset and the copies hold the device's allocation table stable (a
// read lock), and Malloc and Free wait until none of them runs. Bytes and Span are for code
// that holds it already: a running kernel, or a caller between Acquire and Release.
type Device struct {
	// mu guards the tables below: Malloc, Free and the mappings write them, everything else
	// reads.
	mu sync.RWMutex
	// pages maps each page of [0, HighLimit) below the high-water mark to its allocation's
	// slot in allocs; 0 means unmapped. A freed allocation's pages keep its slot until its
	// range leaves the quarantine.
	pages []int32
	// allocs holds the allocations, live or in quarantine; allocs[0] is an empty sentinel that
	// unmapped pages resolve to. Slots of ranges that left the quarantine are reused.
	allocs    []alloc
	freeSlots []int32
	// low and high are the free ranges of [GlobalBase, FuncWindow) and [HighBase, HighLimit).
	low, high freeRanges
	// quarantine holds the slots of freed allocations whose ranges are not free yet, oldest
	// first; quarantined is the address space they hold.
	quarantine  []int32
	quarantined uint64
	// far maps host memory outside [0, HighLimit) (MapHost): each 2 MiB chunk of the address
	// space to the slots of the mappings that overlap it.
	far map[uint64][]int32
	// maps holds the host mappings the device made itself, unmapped when the device is
	// garbage collected if nobody freed them.
	maps *hostMaps
	// wide serializes the 128-bit atomics on this device's memory (see Lock128).
	wide wideLocks
	// readOnly counts the read-only allocations ever made, so that kernel stores on a device
	// without constant memory skip the check.
	readOnly atomic.Int32

	// images holds the texture and surface objects (texture.go).
	images imageTable

	// vmm holds the address ranges reserved for virtual memory management (vmm.go).
	vmm vmmState

	// cfgMu guards the device heap and the printf settings.
	cfgMu      sync.Mutex
	heap       *deviceHeap
	heapSize   int
	printfOut  io.Writer
	printfSize int

	// chk is the checks' host-side state (EnableChecks), nil unless a check is on.
	chk *devCheck
}

// allocKind says what backs an allocation and who owns it.
type allocKind uint8

const (
	allocDevice allocKind = iota // device memory
	allocHost                    // host memory the device allocated (MallocHost): device address = host address
	allocMapped                  // host memory the caller owns, mapped at its address (MapHost)
)

// alloc is one global allocation. A freed allocation keeps its base and size for error
// messages but drops its backing store.
type alloc struct {
	mem  []byte // the backing store, 8-byte aligned; nil once freed
	base uint64 // the address of mem[0]
	// addr and size are the allocation as its owner sees it: the address Malloc, MallocHost
	// or MapHost returned (base, except for a host mapping that does not start on a page
	// inside the device's range, whose whole pages mem holds) and the size asked for.
	addr uint64
	size int
	// start and span are the address space it owns: its whole pages, or exactly its bytes
	// for a host mapping above HighLimit.
	start, span uint64
	freed       bool
	kind        allocKind
	// readOnly marks constant memory (a module's .const variables), which kernels may not
	// write.
	readOnly bool
	// mapped is the host mapping backing mem, released when the allocation is freed; nil
	// for Go memory and for memory the caller owns.
	mapped []byte
}

// farChunkShift sets the granularity of the table of far host mappings.
const farChunkShift = 21

// NewDevice returns a device with no allocations.
func NewDevice() *Device {
	d := &Device{
		pages:  make([]int32, GlobalBase>>pageShift),
		allocs: make([]alloc, 1),
		low:    freeRanges{{uint64(GlobalBase), uint64(FuncWindow)}},
		high:   freeRanges{{uint64(HighBase), uint64(HighLimit)}},
		maps:   &hostMaps{m: map[*byte]int{}},
	}
	goruntime.AddCleanup(d, func(m *hostMaps) { m.releaseAll() }, d.maps)
	return d
}

// Malloc allocates n zeroed bytes and returns their address, which is page-aligned (so aligned
// for any access). A zero-byte allocation still gets an address of its own. Addresses below
// 4 GiB come first, so that kernels with .address_size 32 can use them.
func (d *Device) Malloc(n int) (Ptr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n < 0 {
		return 0, fmt.Errorf("runtime: malloc of %d bytes: negative size", n)
	}
	span := pagesOf(n) << pageShift
	p, ok := d.place(span, false)
	if !ok {
		return 0, fmt.Errorf("runtime: malloc of %d bytes: out of device memory (%d bytes left)", n, max(d.low.largest(), d.high.largest()))
	}
	mem, mapped := d.deviceBytes(n)
	d.insert(alloc{mem: mem, mapped: mapped, base: p, addr: p, size: n, start: p, span: span})
	d.chk.malloc(Ptr(p), n)
	return Ptr(p), nil
}

// place finds span bytes of free address space: below FuncWindow first unless highOnly (the
// quarantined ranges there leave the quarantine early, oldest first, to keep allocations
// within 32 bits), then above 4 GiB, releasing the other quarantined ranges when nothing else
// fits.
func (d *Device) place(span uint64, highOnly bool) (uint64, bool) {
	for {
		if !highOnly {
			if p, ok := d.low.take(span); ok {
				return p, true
			}
			if i := d.oldestLow(); i >= 0 {
				d.release(i)
				continue
			}
		}
		if p, ok := d.high.take(span); ok {
			return p, true
		}
		if len(d.quarantine) == 0 {
			return 0, false
		}
		d.release(0)
	}
}

// oldestLow is the index in the quarantine of the oldest range below FuncWindow, or -1.
func (d *Device) oldestLow() int {
	for i, idx := range d.quarantine {
		if d.allocs[idx].start < uint64(FuncWindow) {
			return i
		}
	}
	return -1
}

// insert records a new allocation in a slot and maps its pages.
func (d *Device) insert(a alloc) int32 {
	var idx int32
	if k := len(d.freeSlots); k > 0 {
		idx = d.freeSlots[k-1]
		d.freeSlots = d.freeSlots[:k-1]
		d.allocs[idx] = a
	} else {
		idx = int32(len(d.allocs))
		d.allocs = append(d.allocs, a)
	}
	if a.start >= uint64(HighLimit) {
		for c := a.start >> farChunkShift; c <= (a.start+a.span-1)>>farChunkShift; c++ {
			d.far[c] = append(d.far[c], idx)
		}
		return idx
	}
	first, last := a.start>>pageShift, (a.start+a.span)>>pageShift
	if uint64(len(d.pages)) < last {
		d.pages = append(d.pages, make([]int32, last-uint64(len(d.pages)))...)
	}
	for pg := first; pg < last; pg++ {
		d.pages[pg] = idx
	}
	return idx
}

// Free releases the allocation that starts at p: device memory and MallocHost memory go back
// to the host, a MapHost mapping ends (the caller's memory stays as it is). The address range
// is reused after a quarantine.
func (d *Device) Free(p Ptr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	idx := d.liveSlot(p)
	if idx == 0 {
		if f := d.find(p); f != nil && f.freed && f.addr == uint64(p) {
			return fmt.Errorf("runtime: free of %#x: double free", uint64(p))
		}
		return fmt.Errorf("runtime: free of %#x: not the start of a live allocation", uint64(p))
	}
	a := &d.allocs[idx]
	d.chk.free(p)
	if a.mapped != nil {
		d.maps.release(a.mapped)
	}
	*a = alloc{base: a.base, addr: a.addr, size: a.size, start: a.start, span: a.span, kind: a.kind, freed: true}
	if a.start >= uint64(HighLimit) {
		d.unmapFar(idx) // far host ranges belong to the host: nothing to reuse or quarantine
		return nil
	}
	d.quarantine = append(d.quarantine, idx)
	d.quarantined += a.span
	for d.quarantined > quarantineBytes || len(d.quarantine) > quarantineCount {
		d.release(0)
	}
	return nil
}

// release ends the quarantine of the i-th oldest freed range: its pages are unmapped, its slot
// and its address range are free again.
func (d *Device) release(i int) {
	idx := d.quarantine[i]
	d.quarantine = append(d.quarantine[:i], d.quarantine[i+1:]...)
	a := &d.allocs[idx]
	d.quarantined -= a.span
	clear(d.pages[a.start>>pageShift : (a.start+a.span)>>pageShift])
	d.rangesOf(a.start).put(a.start, a.span)
	*a = alloc{}
	d.freeSlots = append(d.freeSlots, idx)
}

// rangesOf returns the free-range list that address p belongs to.
func (d *Device) rangesOf(p uint64) *freeRanges {
	if p < uint64(FuncWindow) {
		return &d.low
	}
	return &d.high
}

// unmapFar removes a far mapping's slot from the chunks it covers and frees the slot.
func (d *Device) unmapFar(idx int32) {
	a := &d.allocs[idx]
	for c := a.start >> farChunkShift; c <= (a.start+a.span-1)>>farChunkShift; c++ {
		s := d.far[c]
		for i, x := range s {
			if x == idx {
				s = append(s[:i], s[i+1:]...)
				break
			}
		}
		if len(s) == 0 {
			delete(d.far, c)
		} else {
			d.far[c] = s
		}
	}
	*a = alloc{}
	d.freeSlots = append(d.freeSlots, idx)
}

// MapHost makes the n bytes of host memory at p visible to kernels at device address p, so
// that the same pointer works on the host and on the device. The caller owns the memory and
// keeps it alive, unmoved and accessible (C or mmap'd memory, or Go memory it keeps
// referenced) until it calls Free(p), which ends the mapping and leaves the memory alone. The
// range must not overlap the null page, the device's windows or another mapping or
// allocation.
func (d *Device) MapHost(p unsafe.Pointer, n int) (Ptr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n <= 0 {
		return 0, fmt.Errorf("runtime: map host of %d bytes at %#x: the size must be positive", n, uintptr(p))
	}
	addr, err := d.addHost(p, n, n, nil, allocMapped)
	if err != nil {
		return 0, fmt.Errorf("runtime: map host of %d bytes at %#x: %v", n, uintptr(p), err)
	}
	return addr, nil
}

// addHost maps the n bytes of host memory at p at their own address, as an allocation of size
// bytes (n, or 0 for an empty MallocHost), backed by mapping when the device made it.
func (d *Device) addHost(p unsafe.Pointer, n, size int, mapping []byte, kind allocKind) (Ptr, error) {
	base := uint64(uintptr(p))
	if base+uint64(n) < base {
		return 0, fmt.Errorf("it wraps around the address space")
	}
	if err := d.reserveHost(base, uint64(n)); err != nil {
		return 0, err
	}
	a := alloc{mem: unsafe.Slice((*byte)(p), size), mapped: mapping, base: base, addr: base, size: size, start: base, span: uint64(n), kind: kind}
	if base < uint64(HighLimit) {
		// In the page table an allocation owns whole pages and its backing store starts on
		// the first one: the bytes before the mapping in its first page are reachable too.
		a.start = base &^ (pageSize - 1)
		a.span = (base+uint64(n)+pageSize-1)&^(pageSize-1) - a.start
		a.base = a.start
		a.mem = unsafe.Slice((*byte)(unsafe.Add(p, -int(base-a.start))), int(a.span))[:int(base-a.start)+size]
	}
	d.insert(a)
	return Ptr(base), nil
}

// reserveHost checks that host range [base, base+n) may be mapped at its own address and,
// inside the device's own address ranges, takes its pages from the free ranges.
func (d *Device) reserveHost(base, n uint64) error {
	end := base + n
	switch {
	case base < uint64(GlobalBase):
		return fmt.Errorf("it overlaps the null page")
	case base < uint64(HighBase) && end > uint64(FuncWindow):
		return fmt.Errorf("it overlaps the function, shared and local windows at %#x..%#x", uint64(FuncWindow), uint64(HighBase))
	case end > uint64(HighLimit):
		if base < uint64(HighLimit) {
			return fmt.Errorf("it straddles the end of the device's address range at %#x", uint64(HighLimit))
		}
		if d.far == nil {
			d.far = map[uint64][]int32{}
		}
		for c := base >> farChunkShift; c <= (end-1)>>farChunkShift; c++ {
			for _, idx := range d.far[c] {
				if a := &d.allocs[idx]; base < a.start+a.span && a.start < end {
					return fmt.Errorf("it overlaps the mapping at %#x", a.addr)
				}
			}
		}
		return nil
	}
	lo, hi := base&^(pageSize-1), (end+pageSize-1)&^(pageSize-1)
	if !d.rangesOf(lo).takeAt(lo, hi-lo) {
		return fmt.Errorf("its pages overlap device allocations (or freed ones in quarantine)")
	}
	return nil
}

// MallocHost allocates n zeroed bytes of host memory that kernels reach at its host address:
// the returned Ptr, converted to a pointer, may be dereferenced by host code (including C code
// of a program that links ptx2go), as CUDA's managed and mapped host memory. Free releases it.
// Where the host allows, it lies in the device's address range above 4 GiB, where kernels
// reach it as fast as device memory.
func (d *Device) MallocHost(n int) (Ptr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n < 0 {
		return 0, fmt.Errorf("runtime: malloc host of %d bytes: negative size", n)
	}
	span := pagesOf(n) << pageShift
	if p, ok := d.place(span, true); ok {
		if m := d.maps.mapAt(uintptr(p), int(span)); m != nil {
			d.insert(alloc{mem: m[:n:n], mapped: m, base: p, addr: p, size: n, start: p, span: span, kind: allocHost})
			return Ptr(p), nil
		}
		d.high.put(p, span)
	}
	// Elsewhere in the host's address space, usually above HighLimit (see FarSpan).
	m := d.maps.mapAnywhere(int(span))
	mem := m
	if m == nil {
		mem = alignedBytes(int(span)) // Go memory, which never moves; the allocation keeps it alive
	}
	p, err := d.addHost(unsafe.Pointer(&mem[0]), max(n, 1), n, m, allocHost)
	if err != nil {
		d.maps.release(m)
		return 0, fmt.Errorf("runtime: malloc host of %d bytes: the host memory at %#x cannot be mapped: %v", n, uintptr(unsafe.Pointer(&mem[0])), err)
	}
	return p, nil
}

// alignedBytes returns n zero bytes backed by whole 8-byte words, so that atomics on naturally
// aligned addresses are aligned on the host too, and the aligned word that holds any byte
// (which race builds access atomically for 1- and 2-byte loads and stores) is in the store.
func alignedBytes(n int) []byte {
	words := make([]uint64, max(1, (n+7)/8))
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
}

// lazyBytes is the size from which device memory comes straight from the host's virtual
// memory, which provides zero pages on first touch and takes them back on Free.
const lazyBytes = 1 << 20

// hugeBytes is the size from which device allocations ask for huge pages: two of them, so
// that at least one whole huge page lies inside.
const hugeBytes = 4 << 20

// deviceBytes returns the backing store of an n-byte device allocation, and the host mapping
// that holds it when it has one of its own.
func (d *Device) deviceBytes(n int) (mem, mapped []byte) {
	if n >= lazyBytes {
		if m := d.maps.mapAnywhere((n + pageSize - 1) &^ (pageSize - 1)); m != nil {
			if n >= hugeBytes {
				adviseHugePages(m)
			}
			return m[:n:n], m
		}
	}
	return alignedBytes(n), nil
}

// pagesOf is the number of pages an allocation of n bytes owns: at least one, so that even an
// empty allocation has an address of its own.
func pagesOf(n int) uint64 {
	return (uint64(max(n, 1)) + pageSize - 1) >> pageShift
}

// Size returns the size of the live allocation that starts at p.
func (d *Device) Size(p Ptr) (int, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if idx := d.liveSlot(p); idx != 0 {
		return d.allocs[idx].size, true
	}
	return 0, false
}

// Memset sets the n bytes at p to b.
func (d *Device) Memset(p Ptr, b byte, n int) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	mem, err := d.span("memset", p, n)
	if err != nil {
		return err
	}
	d.chk.wroteHost(d, p, n)
	for i := range mem {
		mem[i] = b
	}
	return nil
}

// CopyIn copies src from the host to the device at dst.
func (d *Device) CopyIn(dst Ptr, src []byte) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	mem, err := d.span("copy in", dst, len(src))
	if err != nil {
		return err
	}
	d.chk.wroteHost(d, dst, len(src))
	copy(mem, src)
	return nil
}

// CopyOut copies len(dst) bytes from the device at src to the host.
func (d *Device) CopyOut(dst []byte, src Ptr) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	mem, err := d.span("copy out", src, len(dst))
	if err != nil {
		return err
	}
	copy(dst, mem)
	return nil
}

// Upload allocates a buffer holding s and returns its address.
func Upload[T Scalar](d *Device, s []T) (Ptr, error) {
	b := asBytes(s)
	p, err := d.Malloc(len(b))
	if err != nil {
		return 0, err
	}
	return p, d.CopyIn(p, b)
}

// Download copies len(dst) elements from the device at p to dst.
func Download[T Scalar](d *Device, dst []T, p Ptr) error {
	return d.CopyOut(asBytes(dst), p)
}

// Write copies s into existing device memory at p.
func Write[T Scalar](d *Device, p Ptr, s []T) error {
	return d.CopyIn(p, asBytes(s))
}

// asBytes views the elements of s as bytes in the host's byte order.
func asBytes[T Scalar](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// Bytes returns the n bytes at addr as a slice of the allocation's backing store (length and
// capacity n), or nil when [addr, addr+n) is not entirely inside one live allocation.
func (d *Device) Bytes(addr uint64, n int) []byte {
	if b := d.NearBytes(addr, n); b != nil || addr < uint64(HighLimit) {
		return b
	}
	return d.farBytes(addr, n)
}

// NearBytes is Bytes for the device's own address range, [0, HighLimit), where every
// allocation but far host mappings lives; it returns nil for the others. Every global load and
// store of a running kernel goes through it, so it is O(1): one page-table index and a bounds
// check, with no allocation and no locks, and small enough to be inlined.
func (d *Device) NearBytes(addr uint64, n int) []byte {
	pg := addr >> pageShift
	if pg >= uint64(len(d.pages)) {
		return nil
	}
	a := &d.allocs[d.pages[pg]]
	off := addr - a.base
	// Unmapped pages resolve to the empty sentinel, whose nil backing store is returned for
	// a zero-length access at address 0 and fails the bounds check otherwise.
	if off > uint64(len(a.mem)) || uint64(n) > uint64(len(a.mem))-off {
		return nil
	}
	end := off + uint64(n)
	return a.mem[off:end:end]
}

// farBytes is Bytes for host memory mapped above HighLimit: a lookup in the chunk table.
func (d *Device) farBytes(addr uint64, n int) []byte {
	for _, idx := range d.far[addr>>farChunkShift] {
		a := &d.allocs[idx]
		off := addr - a.base
		if off <= uint64(len(a.mem)) && uint64(n) <= uint64(len(a.mem))-off {
			end := off + uint64(n)
			return a.mem[off:end:end]
		}
	}
	return nil
}

// Acquire holds the device's allocation table stable until Release, as a running kernel does:
// Bytes and Span may be used in between, and Malloc and Free wait.
func (d *Device) Acquire() { d.mu.RLock() }

// Release ends an Acquire.
func (d *Device) Release() { d.mu.RUnlock() }

// Span returns the backing store of the live allocation that holds all of [lo, hi), and the
// allocation's base address; nil when no one live allocation in the device's own address
// range (see NearBytes) holds the whole range. A warp uses it to translate the addresses of
// all its lanes with one lookup; when it fails, FarSpan, then lane by lane through Bytes.
func (d *Device) Span(lo, hi uint64) ([]byte, uint64) {
	pg := lo >> pageShift
	if pg >= uint64(len(d.pages)) || hi < lo {
		return nil, 0
	}
	a := &d.allocs[d.pages[pg]]
	if hi-a.base > uint64(len(a.mem)) {
		return nil, 0
	}
	return a.mem, a.base
}

// protect makes the allocation at p read-only for kernels (constant memory); host copies
// still write it.
func (d *Device) protect(p Ptr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if slot := d.liveSlot(p); slot != 0 {
		d.allocs[slot].readOnly = true
		d.readOnly.Add(1)
	}
}

// isReadOnly reports whether addr lies in constant memory, which kernels may only read.
func (d *Device) isReadOnly(addr uint64) bool {
	if d.readOnly.Load() == 0 {
		return false
	}
	pg := addr >> pageShift
	return pg < uint64(len(d.pages)) && d.allocs[d.pages[pg]].readOnly
}

// writableSpan is Span for stores: nil for constant memory, so that the store goes lane by
// lane and faults.
func (d *Device) writableSpan(lo, hi uint64) ([]byte, uint64) {
	mem, base := d.Span(lo, hi)
	if mem != nil && d.isReadOnly(lo) {
		return nil, 0
	}
	return mem, base
}

// FarSpan is Span for host memory mapped above HighLimit (MapHost), which Span leaves out to
// stay small: a warp whose Span fails tries it before it goes lane by lane.
func (d *Device) FarSpan(lo, hi uint64) ([]byte, uint64) {
	if lo < uint64(HighLimit) || hi < lo {
		return nil, 0
	}
	for _, idx := range d.far[lo>>farChunkShift] {
		if a := &d.allocs[idx]; lo >= a.base && hi-a.base <= uint64(len(a.mem)) {
			return a.mem, a.base
		}
	}
	return nil, 0
}

// AtomicU32 returns a pointer to the first 4 bytes of b, a slice from Bytes, for use with
// sync/atomic. The caller guarantees that the device address is 4-byte aligned.
func AtomicU32(b []byte) *uint32 {
	return (*uint32)(unsafe.Pointer((*[4]byte)(b)))
}

// AtomicU64 returns a pointer to the first 8 bytes of b, a slice from Bytes, for use with
// sync/atomic. The caller guarantees that the device address is 8-byte aligned.
func AtomicU64(b []byte) *uint64 {
	return (*uint64)(unsafe.Pointer((*[8]byte)(b)))
}

// span returns the n bytes at p for a host operation, or an error that says why they are not
// accessible. A zero-length span must still lie within (or at the end of) a live allocation.
func (d *Device) span(op string, p Ptr, n int) ([]byte, error) {
	if mem := d.Bytes(uint64(p), n); mem != nil {
		return mem, nil
	}
	why := "negative size"
	if n >= 0 {
		why = d.whatIsAt(p)
	}
	return nil, fmt.Errorf("runtime: %s of %d bytes at %#x: %s", op, n, uint64(p), why)
}

// whatIsAt says why an access at p that found no live allocation failed: p is in a freed
// allocation (still in quarantine), at or past the end of one in its pages, or elsewhere.
func (d *Device) whatIsAt(p Ptr) string {
	a := d.find(p)
	switch {
	case a == nil || uint64(p)-a.addr > uint64(a.size):
		return "not inside a live allocation"
	case a.freed:
		return fmt.Sprintf("the allocation at %#x was freed", a.addr)
	}
	return fmt.Sprintf("past the end of the %d-byte allocation at %#x", a.size, a.addr)
}

// liveSlot returns the slot of the live allocation that starts exactly at p, or 0.
func (d *Device) liveSlot(p Ptr) int32 {
	idx := d.slotAt(uint64(p))
	if a := &d.allocs[idx]; idx != 0 && !a.freed && a.addr == uint64(p) {
		return idx
	}
	return 0
}

// slotAt returns the slot of the allocation, live or freed, whose address space holds p, or 0.
func (d *Device) slotAt(p uint64) int32 {
	if pg := p >> pageShift; pg < uint64(len(d.pages)) {
		return d.pages[pg]
	}
	for _, idx := range d.far[p>>farChunkShift] {
		if a := &d.allocs[idx]; p-a.start < a.span {
			return idx
		}
	}
	return 0
}

// find returns the allocation, live or freed, that holds p or ends at p, or nil. It serves
// error messages.
func (d *Device) find(p Ptr) *alloc {
	idx := d.slotAt(uint64(p))
	if idx == 0 && p > 0 {
		idx = d.slotAt(uint64(p) - 1)
	}
	if idx == 0 {
		return nil
	}
	return &d.allocs[idx]
}
