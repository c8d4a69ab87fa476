package runtime

import "fmt"

// Virtual memory management, as CUDA's driver API has it (cuMemAddressReserve, cuMemCreate,
// cuMemMap, cuMemUnmap, cuMemRelease, cuMemAddressFree): a program reserves a range of device
// addresses, creates physical memory, and maps the physical memory into the range, at one
// place or several. Physical memory (PhysMem) is a backing store of whole pages; a mapping is
// an allocation of the device at the chosen address whose backing store is (a part of) it, so
// kernels reach it as any global memory, a mapping of the same memory at two addresses shows
// the same bytes, and an access to a reserved address nothing is mapped at is an out-of-bounds
// fault. A reservation is address space no Malloc takes until FreeAddress returns it.

// vmmState is the device's reservations: the start and size of each.
type vmmState struct {
	reserved map[uint64]uint64
}

// PhysMem is physical device memory that MapAt maps at device addresses (cuMemCreate).
type PhysMem struct {
	mem, mapped []byte
}

// Size is the physical memory's size in bytes.
func (p *PhysMem) Size() int { return len(p.mem) }

// NewPhysMem creates n zeroed bytes of physical memory; n must be a positive multiple of the
// page size (4 KiB).
func (d *Device) NewPhysMem(n int) (*PhysMem, error) {
	if n <= 0 || n%pageSize != 0 {
		return nil, fmt.Errorf("runtime: physical memory of %d bytes: the size must be a positive multiple of %d", n, pageSize)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	mem, mapped := d.deviceBytes(n)
	return &PhysMem{mem: mem, mapped: mapped}, nil
}

// FreePhysMem gives the physical memory back to the host; no mapping of it may remain.
func (d *Device) FreePhysMem(p *PhysMem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p.mapped != nil {
		d.maps.release(p.mapped)
	}
	p.mem, p.mapped = nil, nil
}

// ReserveAddress reserves n bytes of device address space (n a positive multiple of the page
// size) aligned to align (a power of two; 0 for a page), at addr when addr is not 0 and that
// range is free, else where there is room, 32-bit addresses first.
func (d *Device) ReserveAddress(n, align, addr uint64) (Ptr, error) {
	if n == 0 || n%pageSize != 0 {
		return 0, fmt.Errorf("runtime: reserving %d bytes of address space: the size must be a positive multiple of %d", n, pageSize)
	}
	align = max(align, pageSize)
	if align&(align-1) != 0 {
		return 0, fmt.Errorf("runtime: reserving address space aligned to %d: not a power of two", align)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.vmm.reserved == nil {
		d.vmm.reserved = map[uint64]uint64{}
	}
	if addr != 0 && addr%align == 0 && addr+n <= uint64(HighLimit) && d.rangesOf(addr).takeAt(addr, n) {
		d.vmm.reserved[addr] = n
		return Ptr(addr), nil
	}
	for _, f := range []*freeRanges{&d.low, &d.high} {
		p, ok := f.take(n + align - pageSize)
		if !ok {
			continue
		}
		q := (p + align - 1) &^ (align - 1)
		if q > p {
			f.put(p, q-p)
		}
		if end := p + n + align - pageSize; end > q+n {
			f.put(q+n, end-q-n)
		}
		d.vmm.reserved[q] = n
		return Ptr(q), nil
	}
	return 0, fmt.Errorf("runtime: reserving %d bytes of address space: no free range that large", n)
}

// FreeAddress returns the reservation that starts at p to the free address space; nothing may
// be mapped in it.
func (d *Device) FreeAddress(p Ptr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.vmm.reserved[uint64(p)]
	if !ok {
		return fmt.Errorf("runtime: freeing address space at %#x: not the start of a reservation", uint64(p))
	}
	for pg := uint64(p) >> pageShift; pg < (uint64(p)+n)>>pageShift && pg < uint64(len(d.pages)); pg++ {
		if d.pages[pg] != 0 {
			return fmt.Errorf("runtime: freeing address space at %#x: memory is still mapped at %#x", uint64(p), pg<<pageShift)
		}
	}
	delete(d.vmm.reserved, uint64(p))
	d.rangesOf(uint64(p)).put(uint64(p), n)
	return nil
}

// reservation returns the start of the reservation that holds all of [p, p+n).
func (d *Device) reservation(p, n uint64) (uint64, bool) {
	for base, size := range d.vmm.reserved {
		if p >= base && p+n <= base+size {
			return base, true
		}
	}
	return 0, false
}

// MapAt maps n bytes of pm, from offset off, at device address p: the range must lie in one
// reservation with nothing mapped in it, and p, off and n must be multiples of the page size.
func (d *Device) MapAt(p Ptr, pm *PhysMem, off, n uint64) error {
	addr := uint64(p)
	switch {
	case n == 0 || addr%pageSize != 0 || off%pageSize != 0 || n%pageSize != 0:
		return fmt.Errorf("runtime: mapping %d bytes at %#x: the address, offset and size must be multiples of %d", n, addr, pageSize)
	case off+n > uint64(len(pm.mem)):
		return fmt.Errorf("runtime: mapping %d bytes from offset %d of physical memory of %d bytes", n, off, len(pm.mem))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.reservation(addr, n); !ok {
		return fmt.Errorf("runtime: mapping %d bytes at %#x: not inside one reserved range", n, addr)
	}
	for pg := addr >> pageShift; pg < (addr+n)>>pageShift && pg < uint64(len(d.pages)); pg++ {
		if d.pages[pg] != 0 {
			return fmt.Errorf("runtime: mapping %d bytes at %#x: %#x is mapped already", n, addr, pg<<pageShift)
		}
	}
	d.insert(alloc{mem: pm.mem[off : off+n : off+n], base: addr, addr: addr, size: int(n), start: addr, span: n})
	return nil
}

// Unmap ends the mappings in [p, p+n), which must be whole mappings that MapAt made; the
// physical memory keeps its contents.
func (d *Device) Unmap(p Ptr, n uint64) error {
	addr := uint64(p)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.reservation(addr, n); !ok {
		return fmt.Errorf("runtime: unmapping %d bytes at %#x: not inside one reserved range", n, addr)
	}
	var slots []int32
	for pg := addr >> pageShift; pg < (addr+n)>>pageShift && pg < uint64(len(d.pages)); pg++ {
		if idx := d.pages[pg]; idx != 0 && (len(slots) == 0 || slots[len(slots)-1] != idx) {
			a := &d.allocs[idx]
			if a.start < addr || a.start+a.span > addr+n {
				return fmt.Errorf("runtime: unmapping %d bytes at %#x: the mapping at %#x (%d bytes) is not all inside", n, addr, a.start, a.span)
			}
			slots = append(slots, idx)
		}
	}
	for _, idx := range slots {
		a := &d.allocs[idx]
		clear(d.pages[a.start>>pageShift : (a.start+a.span)>>pageShift])
		*a = alloc{}
		d.freeSlots = append(d.freeSlots, idx)
	}
	return nil
}
