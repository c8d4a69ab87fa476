package main

// #include "cudart.h"
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The driver API's virtual memory management (runtime/vmm.go): cuMemAddressReserve reserves
// device address space, cuMemCreate makes physical memory, cuMemMap maps it into a reservation
// and cuMemSetAccess makes it accessible; cuMemUnmap, cuMemRelease and cuMemAddressFree undo
// them. The device reports CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED. Memory is
// pinned device memory of the one device, with a granularity of 2 MiB (as on an A100); no
// handle type can be exported (POSIX file descriptors, fabric handles), so requesting one is
// CUDA_ERROR_NOT_SUPPORTED. Kernels may access mapped memory before cuMemSetAccess as well as
// after (the flags are checked and kept for cuMemGetAccess, not enforced).

// vmmGranularity is the size and alignment unit of physical memory and of mappings.
const vmmGranularity = 2 << 20

// cuMemLocation, cuMemAllocationProp and cuMemAccessDesc are CUmemLocation,
// CUmemAllocationProp and CUmemAccessDesc (cuda.h).
type cuMemLocation struct{ typ, id int32 }

type cuMemAllocationProp struct {
	typ         int32 // CU_MEM_ALLOCATION_TYPE_PINNED (1)
	handleTypes int32
	loc         cuMemLocation // CU_MEM_LOCATION_TYPE_DEVICE (1), device 0
	win32       unsafe.Pointer
	flags       [8]byte
}

type cuMemAccessDesc struct {
	loc   cuMemLocation
	flags int32 // CU_MEM_ACCESS_FLAGS_PROT_NONE (0), _READ (1), _READWRITE (3)
}

// physAlloc is a CUmemGenericAllocationHandle's physical memory; refs counts the handle (until
// cuMemRelease) and its mappings, and the memory goes back when none is left.
type physAlloc struct {
	pm   *runtime.PhysMem
	prop cuMemAllocationProp
	refs int
}

// vmmMapping is one cuMemMap: its physical memory and the access flags set on it.
type vmmMapping struct {
	size   uint64
	handle uint64
	access int32
}

// vmm is the state of the virtual memory API; state.mu guards it.
var vmm struct {
	handles  map[uint64]*physAlloc
	next     uint64
	mappings map[uint64]*vmmMapping // by address
	reserved map[uint64]uint64      // reservation sizes, by address
}

// checkProp checks an allocation's properties: pinned memory on device 0, no exported handle.
func checkProp(p *cuMemAllocationProp) cudaError {
	switch {
	case p.typ != 1 || p.loc.typ != 1:
		return errInvalidValue
	case p.loc.id != 0:
		return errInvalidDevice
	case p.handleTypes != 0:
		warnOnce("cuMemCreate: memory with an exportable handle (requestedHandleTypes) is not supported")
		return errNotSupported
	}
	return success
}

//export cuMemGetAllocationGranularity
func cuMemGetAllocationGranularity(g *C.size_t, prop unsafe.Pointer, option C.int) (r C.int) {
	defer guard("cuMemGetAllocationGranularity", &r)()
	if g == nil || prop == nil || option < 0 || option > 1 {
		return errInvalidValue
	}
	if e := checkProp((*cuMemAllocationProp)(prop)); e != success {
		return e
	}
	*g = vmmGranularity
	return success
}

//export cuMemAddressReserve
func cuMemAddressReserve(p *C.ulonglong, size, align C.size_t, addr, flags C.ulonglong) (r C.int) {
	defer guard("cuMemAddressReserve", &r)()
	if e := initialized(); e != success {
		return e
	}
	if p == nil || size == 0 || size%vmmGranularity != 0 || align&(align-1) != 0 {
		return errInvalidValue
	}
	base, err := device().ReserveAddress(uint64(size), max(uint64(align), vmmGranularity), uint64(addr))
	if err != nil {
		warnf("cuMemAddressReserve: %v", err)
		return errMemoryAllocation
	}
	state.mu.Lock()
	if vmm.reserved == nil {
		vmm.reserved = map[uint64]uint64{}
	}
	vmm.reserved[uint64(base)] = uint64(size)
	state.mu.Unlock()
	*p = C.ulonglong(base)
	return success
}

//export cuMemAddressFree
func cuMemAddressFree(p C.ulonglong, size C.size_t) (r C.int) {
	defer guard("cuMemAddressFree", &r)()
	state.mu.Lock()
	n, ok := vmm.reserved[uint64(p)]
	state.mu.Unlock()
	if !ok || n != uint64(size) {
		return errInvalidValue
	}
	if err := device().FreeAddress(runtime.Ptr(p)); err != nil {
		warnf("cuMemAddressFree: %v", err)
		return errInvalidValue
	}
	state.mu.Lock()
	delete(vmm.reserved, uint64(p))
	state.mu.Unlock()
	return success
}

//export cuMemCreate
func cuMemCreate(h *C.ulonglong, size C.size_t, prop unsafe.Pointer, flags C.ulonglong) (r C.int) {
	defer guard("cuMemCreate", &r)()
	if e := initialized(); e != success {
		return e
	}
	if h == nil || prop == nil || flags != 0 || size == 0 || size%vmmGranularity != 0 {
		return errInvalidValue
	}
	pp := *(*cuMemAllocationProp)(prop)
	if e := checkProp(&pp); e != success {
		return e
	}
	if uint64(size) > totalMem()-usedBytes() {
		return errMemoryAllocation
	}
	pm, err := device().NewPhysMem(int(size))
	if err != nil {
		warnf("cuMemCreate: %v", err)
		return errMemoryAllocation
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	if vmm.handles == nil {
		vmm.handles = map[uint64]*physAlloc{}
	}
	vmm.next++
	vmm.handles[vmm.next] = &physAlloc{pm: pm, prop: pp, refs: 1}
	state.used += uint64(size)
	*h = C.ulonglong(vmm.next)
	return success
}

// unref drops a reference to a physical allocation; with the last it forgets the allocation
// and returns its memory, which the caller frees once it let go of state.mu (held here).
func unref(h uint64) *runtime.PhysMem {
	a := vmm.handles[h]
	if a.refs--; a.refs > 0 {
		return nil
	}
	delete(vmm.handles, h)
	state.used -= uint64(a.pm.Size())
	return a.pm
}

// freePhys frees the physical memory unref returned.
func freePhys(pms ...*runtime.PhysMem) {
	for _, pm := range pms {
		if pm != nil {
			device().FreePhysMem(pm)
		}
	}
}

//export cuMemRelease
func cuMemRelease(h C.ulonglong) (r C.int) {
	defer guard("cuMemRelease", &r)()
	state.mu.Lock()
	if vmm.handles[uint64(h)] == nil {
		state.mu.Unlock()
		return errInvalidValue
	}
	pm := unref(uint64(h))
	state.mu.Unlock()
	freePhys(pm)
	return success
}

//export cuMemMap
func cuMemMap(p C.ulonglong, size, off C.size_t, h C.ulonglong, flags C.ulonglong) (r C.int) {
	defer guard("cuMemMap", &r)()
	state.mu.Lock()
	a := vmm.handles[uint64(h)]
	state.mu.Unlock()
	if a == nil || flags != 0 || size == 0 || size%vmmGranularity != 0 || off%vmmGranularity != 0 || p%vmmGranularity != 0 {
		return errInvalidValue
	}
	if err := device().MapAt(runtime.Ptr(p), a.pm, uint64(off), uint64(size)); err != nil {
		warnf("cuMemMap: %v", err)
		return errInvalidValue
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	a.refs++
	if vmm.mappings == nil {
		vmm.mappings = map[uint64]*vmmMapping{}
	}
	vmm.mappings[uint64(p)] = &vmmMapping{size: uint64(size), handle: uint64(h)}
	return success
}

// mappingsIn returns the addresses of the mappings that lie in [p, p+n), and whether they cover
// it whole; state.mu is held.
func mappingsIn(p, n uint64) ([]uint64, bool) {
	var at []uint64
	covered := uint64(0)
	for q, m := range vmm.mappings {
		if q >= p && q+m.size <= p+n {
			at = append(at, q)
			covered += m.size
		}
	}
	return at, covered == n
}

//export cuMemUnmap
func cuMemUnmap(p C.ulonglong, size C.size_t) (r C.int) {
	defer guard("cuMemUnmap", &r)()
	if err := device().Unmap(runtime.Ptr(p), uint64(size)); err != nil {
		warnf("cuMemUnmap: %v", err)
		return errInvalidValue
	}
	state.mu.Lock()
	at, _ := mappingsIn(uint64(p), uint64(size))
	var free []*runtime.PhysMem
	for _, q := range at {
		h := vmm.mappings[q].handle
		delete(vmm.mappings, q)
		free = append(free, unref(h))
	}
	state.mu.Unlock()
	freePhys(free...)
	return success
}

//export cuMemSetAccess
func cuMemSetAccess(p C.ulonglong, size C.size_t, desc unsafe.Pointer, count C.size_t) (r C.int) {
	defer guard("cuMemSetAccess", &r)()
	if desc == nil || count == 0 {
		return errInvalidValue
	}
	var flags int32
	for _, d := range unsafe.Slice((*cuMemAccessDesc)(desc), int(count)) {
		switch {
		case d.loc.typ != 1:
			return errInvalidValue
		case d.loc.id != 0:
			return errInvalidDevice
		case d.flags != 0 && d.flags != 1 && d.flags != 3:
			return errInvalidValue
		}
		flags = d.flags
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	at, whole := mappingsIn(uint64(p), uint64(size))
	if !whole {
		return errInvalidValue
	}
	for _, q := range at {
		vmm.mappings[q].access = flags
	}
	return success
}

//export cuMemGetAccess
func cuMemGetAccess(flags *C.ulonglong, loc unsafe.Pointer, p C.ulonglong) (r C.int) {
	defer guard("cuMemGetAccess", &r)()
	if flags == nil || loc == nil {
		return errInvalidValue
	}
	if l := (*cuMemLocation)(loc); l.typ != 1 || l.id != 0 {
		return errInvalidDevice
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	for q, m := range vmm.mappings {
		if uint64(p) >= q && uint64(p) < q+m.size {
			*flags = C.ulonglong(m.access)
			return success
		}
	}
	return errInvalidValue
}

//export cuMemGetAllocationPropertiesFromHandle
func cuMemGetAllocationPropertiesFromHandle(prop unsafe.Pointer, h C.ulonglong) (r C.int) {
	defer guard("cuMemGetAllocationPropertiesFromHandle", &r)()
	state.mu.Lock()
	defer state.mu.Unlock()
	a := vmm.handles[uint64(h)]
	if a == nil || prop == nil {
		return errInvalidValue
	}
	*(*cuMemAllocationProp)(prop) = a.prop
	return success
}

//export cuMemRetainAllocationHandle
func cuMemRetainAllocationHandle(h *C.ulonglong, addr unsafe.Pointer) (r C.int) {
	defer guard("cuMemRetainAllocationHandle", &r)()
	if h == nil {
		return errInvalidValue
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	m := vmm.mappings[uint64(uintptr(addr))]
	if m == nil {
		return errInvalidValue
	}
	vmm.handles[m.handle].refs++
	*h = C.ulonglong(m.handle)
	return success
}

// mappedPiece is how many of the n bytes at dst and src a copy can move at once: all of them,
// or, where one range starts in a mapping of virtual memory and runs past its end, the bytes
// up to that end. Each mapping is an allocation of its own to the device, so a copy across
// consecutive mappings goes piece by piece.
func mappedPiece(dst, src unsafe.Pointer, n int) int {
	state.mu.Lock()
	defer state.mu.Unlock()
	k := uint64(n)
	for q, m := range vmm.mappings {
		for _, p := range []uint64{uint64(uintptr(dst)), uint64(uintptr(src))} {
			if p >= q && p < q+m.size && p+k > q+m.size {
				k = q + m.size - p
			}
		}
	}
	return int(k)
}
