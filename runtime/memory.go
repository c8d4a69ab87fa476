package runtime

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"unsafe"
)

// Ptr is a device address. It is 64 bits wide; programs with .address_size 32 see its low 32
// bits, and every address the device hands out fits in 32 bits.
type Ptr uint64

// The device address map. Global allocations live in [GlobalBase, FuncWindow); the windows
// above give function addresses and the generic addresses of shared and local memory their own
// ranges, so that a generic address says which state space it belongs to.
const (
	GlobalBase   Ptr = 0x0001_0000 // first global allocation address; lower addresses are never valid (the null page)
	FuncWindow   Ptr = 0xD000_0000 // function addresses
	SharedWindow Ptr = 0xE000_0000 // generic addresses of the CTA's shared memory
	LocalWindow  Ptr = 0xF000_0000 // generic addresses of the thread's local memory
	WindowSize       = 0x1000_0000 // the size of each window
)

// Global memory is managed in pages: every allocation starts on a page boundary and owns the
// pages it covers, so a page-table index finds the allocation of any address.
const (
	pageShift = 12
	pageSize  = 1 << pageShift
)

// Scalar is an element type the typed copy helpers accept.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Device is a simulated GPU's global memory. Allocations are placed at increasing addresses and
// their addresses are never reused, so any access through a freed pointer is detected.
//
// Device memory is little-endian, as on a GPU; the typed helpers and the atomics use the host's
// byte order, so ptx2go needs a little-endian host (amd64, arm64, riscv64, ...).
//
// Every method may be called from several goroutines at once, also while kernels run on the
// device: launches, Size, Memset and the copies hold the device's allocation table stable (a
// read lock), and Malloc and Free wait until none of them runs. Bytes and Span are for code
// that holds it already: a running kernel, or a caller between Acquire and Release.
type Device struct {
	// mu guards pages, allocs and next: Malloc and Free write them, everything else reads.
	mu sync.RWMutex
	// pages maps each page below the high-water mark to its allocation's index in allocs;
	// 0 means unmapped.
	pages []int32
	// allocs holds every allocation ever made, in address order; allocs[0] is an empty
	// sentinel that unmapped pages resolve to.
	allocs []alloc
	next   Ptr // the address of the next allocation, page-aligned
	// wide serializes the 128-bit atomics on this device's memory (see Lock128).
	wide wideLocks

	// cfgMu guards the device heap and the printf settings.
	cfgMu      sync.Mutex
	heap       *deviceHeap
	heapSize   int
	printfOut  io.Writer
	printfSize int
}

// alloc is one global allocation. A freed allocation keeps its base and size for error
// messages but drops its backing store.
type alloc struct {
	mem   []byte // the backing store, 8-byte aligned; nil once freed
	base  uint64
	size  int
	freed bool
}

// NewDevice returns a device with no allocations.
func NewDevice() *Device {
	return &Device{
		pages:  make([]int32, GlobalBase>>pageShift),
		allocs: make([]alloc, 1),
		next:   GlobalBase,
	}
}

// Malloc allocates n zeroed bytes and returns their address, which is page-aligned (so aligned
// for any access). A zero-byte allocation still gets an address of its own.
func (d *Device) Malloc(n int) (Ptr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n < 0 {
		return 0, fmt.Errorf("runtime: malloc of %d bytes: negative size", n)
	}
	span := pagesOf(n) << pageShift
	if span > uint64(FuncWindow-d.next) {
		return 0, fmt.Errorf("runtime: malloc of %d bytes: out of device memory (%d bytes left)", n, uint64(FuncWindow-d.next))
	}
	mem := alignedBytes(n)
	p := d.next
	idx := int32(len(d.allocs))
	d.allocs = append(d.allocs, alloc{mem: mem, base: uint64(p), size: n})
	for range span >> pageShift {
		d.pages = append(d.pages, idx)
	}
	d.next += Ptr(span)
	return p, nil
}

// Free releases the allocation that starts at p. Its pages stay unmapped for good.
func (d *Device) Free(p Ptr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := d.live(p)
	if a == nil {
		if f := d.find(p); f != nil && f.freed && f.base == uint64(p) {
			return fmt.Errorf("runtime: free of %#x: double free", uint64(p))
		}
		return fmt.Errorf("runtime: free of %#x: not the start of a live allocation", uint64(p))
	}
	first := uint64(p) >> pageShift
	clear(d.pages[first : first+pagesOf(a.size)])
	*a = alloc{base: a.base, size: a.size, freed: true}
	return nil
}

// alignedBytes returns n zero bytes backed by whole 8-byte words, so that atomics on naturally
// aligned addresses are aligned on the host too, and the aligned word that holds any byte
// (which race builds access atomically for 1- and 2-byte loads and stores) is in the store.
func alignedBytes(n int) []byte {
	words := make([]uint64, max(1, (n+7)/8))
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
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
	if a := d.live(p); a != nil {
		return a.size, true
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
// capacity n), or nil when [addr, addr+n) is not entirely inside one live allocation. Every
// global load and store of a running kernel goes through it, so it is O(1): one page-table
// index and a bounds check, with no allocation and no locks.
func (d *Device) Bytes(addr uint64, n int) []byte {
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

// Acquire holds the device's allocation table stable until Release, as a running kernel does:
// Bytes and Span may be used in between, and Malloc and Free wait.
func (d *Device) Acquire() { d.mu.RLock() }

// Release ends an Acquire.
func (d *Device) Release() { d.mu.RUnlock() }

// Span returns the backing store of the live allocation that holds all of [lo, hi), and the
// allocation's base address; nil when no one live allocation holds the whole range. A warp
// uses it to translate the addresses of all its lanes with one lookup.
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
	var why string
	a := d.find(p)
	switch {
	case n < 0:
		why = "negative size"
	case a == nil || uint64(p)-a.base > uint64(a.size):
		why = "not inside a live allocation"
	case a.freed:
		why = fmt.Sprintf("the allocation at %#x was freed", a.base)
	default:
		why = fmt.Sprintf("past the end of the %d-byte allocation at %#x", a.size, a.base)
	}
	return nil, fmt.Errorf("runtime: %s of %d bytes at %#x: %s", op, n, uint64(p), why)
}

// live returns the live allocation that starts exactly at p, or nil.
func (d *Device) live(p Ptr) *alloc {
	pg := uint64(p) >> pageShift
	if pg >= uint64(len(d.pages)) || d.pages[pg] == 0 {
		return nil
	}
	if a := &d.allocs[d.pages[pg]]; a.base == uint64(p) {
		return a
	}
	return nil
}

// find returns the allocation, live or freed, with the highest base at or below p, or nil.
// It serves error messages only, so it may search.
func (d *Device) find(p Ptr) *alloc {
	i := sort.Search(len(d.allocs), func(i int) bool { return d.allocs[i].base > uint64(p) }) - 1
	if i < 1 {
		return nil
	}
	return &d.allocs[i]
}
