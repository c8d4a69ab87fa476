package runtime

import (
	"bytes"
	"testing"
)

// TestVirtualMemory reserves address space, maps two pieces of physical memory into it (one of
// them twice), and checks that the mappings show the physical memory's bytes, that unmapped
// addresses of the reservation are no memory, that Malloc never lands in a reservation, and
// that a reservation with mappings left cannot be freed.
func TestVirtualMemory(t *testing.T) {
	d := NewDevice()
	const page = 2 << 20
	base, err := d.ReserveAddress(4*page, page, 0)
	if err != nil {
		t.Fatal(err)
	}
	if base%page != 0 {
		t.Fatalf("reservation at %#x, not aligned to %#x", base, page)
	}
	a, err := d.NewPhysMem(page)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.NewPhysMem(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		at Ptr
		pm *PhysMem
	}{{base, a}, {base + page, b}, {base + 3*page, a}} {
		if err := d.MapAt(m.at, m.pm, 0, page); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.MapAt(base, b, 0, page); err == nil {
		t.Error("mapping over a mapping succeeded")
	}
	data := bytes.Repeat([]byte{1, 2, 3, 4, 5}, page/4)[:page+8]
	if err := d.CopyIn(base+page-4, data[:8]); err == nil {
		t.Error("a copy across two mappings succeeded; mappings are separate allocations")
	}
	if err := d.CopyIn(base+100, data[:200]); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 200)
	if err := d.CopyOut(got, base+3*page+100); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data[:200]) {
		t.Error("the second mapping of a physical memory does not show what the first wrote")
	}
	d.Acquire()
	hole := d.Bytes(uint64(base+2*page), 4)
	d.Release()
	if hole != nil {
		t.Error("an address of the reservation where nothing is mapped is memory")
	}
	for range 4 {
		p, err := d.Malloc(page)
		if err != nil {
			t.Fatal(err)
		}
		if p+page > base && p < base+4*page {
			t.Fatalf("Malloc returned %#x inside the reservation at %#x", p, base)
		}
	}
	if err := d.FreeAddress(base); err == nil {
		t.Error("freeing a reservation with mappings succeeded")
	}
	if err := d.Unmap(base, 4*page); err != nil {
		t.Fatal(err)
	}
	if err := d.MapAt(base+page, a, 0, page); err != nil {
		t.Fatal(err)
	}
	if err := d.CopyOut(got, base+page+100); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data[:200]) {
		t.Error("physical memory lost its bytes when it was unmapped and mapped again")
	}
	if err := d.Unmap(base+page, page); err != nil {
		t.Fatal(err)
	}
	if err := d.FreeAddress(base); err != nil {
		t.Fatal(err)
	}
	d.FreePhysMem(a)
	d.FreePhysMem(b)
}
