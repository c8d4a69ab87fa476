package runtime

import (
	"fmt"
	"slices"
	"sync"
)

// DefaultHeapSize is the size of the device heap that kernels' malloc allocates from, as
// CUDA's default cudaLimitMallocHeapSize.
const DefaultHeapSize = 8 << 20

// heapAlign is the alignment of the blocks malloc returns, as on a GPU.
const heapAlign = 16

// deviceHeap is the device-side malloc heap: one global allocation, made at the first launch
// of a module that calls malloc or free, divided into blocks by a first-fit allocator. All
// CTAs of all launches share it, so it takes a lock.
type deviceHeap struct {
	mu   sync.Mutex
	base uint64
	size uint64
	// avail holds the free blocks in address order, never two adjacent ones.
	avail []heapBlock
	// used maps the address of each allocated block to its size.
	used map[uint64]uint64
}

type heapBlock struct{ addr, size uint64 }

// malloc returns the address of a block of at least n bytes, 16-byte aligned, or 0 when no
// free block is large enough. A zero-byte request still gets a block of its own.
func (h *deviceHeap) malloc(n uint64) uint64 {
	if h == nil || n > h.size {
		return 0
	}
	n = max((n+heapAlign-1)&^(heapAlign-1), heapAlign)
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.avail {
		b := &h.avail[i]
		if b.size < n {
			continue
		}
		p := b.addr
		b.addr += n
		b.size -= n
		if b.size == 0 {
			h.avail = slices.Delete(h.avail, i, i+1)
		}
		h.used[p] = n
		return p
	}
	return 0
}

// free releases the block at p and reports whether p was an allocated block.
func (h *deviceHeap) free(p uint64) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.used[p]
	if !ok {
		return false
	}
	delete(h.used, p)
	i, _ := slices.BinarySearchFunc(h.avail, p, func(b heapBlock, p uint64) int {
		switch {
		case b.addr < p:
			return -1
		case b.addr > p:
			return 1
		}
		return 0
	})
	h.avail = slices.Insert(h.avail, i, heapBlock{p, n})
	if i+1 < len(h.avail) && h.avail[i].addr+h.avail[i].size == h.avail[i+1].addr {
		h.avail[i].size += h.avail[i+1].size
		h.avail = slices.Delete(h.avail, i+1, i+2)
	}
	if i > 0 && h.avail[i-1].addr+h.avail[i-1].size == h.avail[i].addr {
		h.avail[i-1].size += h.avail[i].size
		h.avail = slices.Delete(h.avail, i, i+1)
	}
	return true
}

// SetHeapSize sets the size of the device heap that kernels' malloc allocates from
// (DefaultHeapSize unless set). As with CUDA's cudaLimitMallocHeapSize, it must be set before
// the first launch of a kernel that uses malloc or free on this device.
func (d *Device) SetHeapSize(n int) error {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	if n < 0 {
		return fmt.Errorf("runtime: heap size %d: negative", n)
	}
	if d.heap != nil {
		return fmt.Errorf("runtime: heap size: the device heap was created already (by a launch that uses malloc)")
	}
	d.heapSize = n
	return nil
}

// HeapSize returns the size of the device heap.
func (d *Device) HeapSize() int {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	if d.heapSize == 0 {
		return DefaultHeapSize
	}
	return d.heapSize
}

// ensureHeap creates the device heap if it does not exist yet. It allocates device memory, so
// it runs before a launch holds the allocation table.
func (d *Device) ensureHeap() error {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	if d.heap != nil {
		return nil
	}
	size := d.heapSize
	if size == 0 {
		size = DefaultHeapSize
	}
	p, err := d.Malloc(size)
	if err != nil {
		return fmt.Errorf("runtime: creating the %d-byte device heap: %w", size, err)
	}
	d.untrack(p)
	h := &deviceHeap{base: uint64(p), size: uint64(size), used: map[uint64]uint64{}}
	if size >= heapAlign {
		h.avail = []heapBlock{{uint64(p), uint64(size) &^ (heapAlign - 1)}}
	}
	d.heap = h
	return nil
}

// usesHeap reports whether a function of the module calls malloc or free, or the device
// runtime (whose parameter buffers and cudaMalloc come from the heap).
func (m *Module) usesHeap() bool {
	m.heapOnce.Do(func() {
		for _, f := range m.Funcs {
			for i := range f.Blocks {
				if cs := f.Blocks[i].Term.Call; cs != nil && cs.Direct != nil && cs.Direct.Builtin.usesHeap() {
					m.heapUsed = true
					return
				}
			}
		}
	})
	return m.heapUsed
}
