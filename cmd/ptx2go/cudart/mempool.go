package main

/*
#include "cudart.h"
*/
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// Memory pools (cudaMallocAsync's cudaMemPool family). Every stream is synchronous and the
// device allocator frees at once, so a pool holds no memory of its own: it counts the bytes
// allocated from it and still in use, and keeps its attributes. Its reserved memory is the
// memory in use, trimming has nothing to release, and the release threshold and reuse
// policies are kept as set but change nothing.
type memPool struct {
	used, usedHigh, reservedHigh uint64
	threshold                    uint64
	reuse                        [3]C.int // cudaMemPoolReuse{FollowEventDependencies, AllowOpportunistic, AllowInternalDependencies}
}

// The cudaMemPoolAttr values (driver_types.h).
const (
	poolReuseFollowEventDependencies   = 1
	poolReuseAllowOpportunistic        = 2
	poolReuseAllowInternalDependencies = 3
	poolReleaseThreshold               = 4
	poolReservedMemCurrent             = 5
	poolReservedMemHigh                = 6
	poolUsedMemCurrent                 = 7
	poolUsedMemHigh                    = 8
)

// pools are the memory pools by handle, the device's default one first made on use; current
// is the pool cudaMallocAsync allocates from; poolOf says which pool each of its allocations
// came from. Guarded by state.mu.
var pools struct {
	byHandle     map[uintptr]*memPool
	def, current unsafe.Pointer
	poolOf       map[runtime.Ptr]*memPool
	// graphOwned are the allocations of graph memory nodes, which every launch of their
	// graph uses: freeing one only ends its use until the next launch.
	graphOwned map[runtime.Ptr]bool
}

// defaultPool returns the device's default pool's handle, making it on first use; state.mu
// is held.
func defaultPool() unsafe.Pointer {
	if pools.def == nil {
		pools.byHandle, pools.poolOf, pools.graphOwned = map[uintptr]*memPool{}, map[runtime.Ptr]*memPool{}, map[runtime.Ptr]bool{}
		pools.def = handle()
		pools.byHandle[uintptr(pools.def)] = &memPool{reuse: [3]C.int{1, 1, 1}}
		pools.current = pools.def
	}
	return pools.def
}

// lookupPool returns the pool of a handle, or nil; state.mu is held.
func lookupPool(h unsafe.Pointer) *memPool {
	defaultPool()
	return pools.byHandle[uintptr(h)]
}

// poolMalloc allocates size bytes from the pool with handle h (nil: the current pool).
func poolMalloc(p *unsafe.Pointer, size C.size_t, h unsafe.Pointer) C.int {
	if e := check(); e != success {
		return e
	}
	state.mu.Lock()
	if h == nil {
		defaultPool()
		h = pools.current
	}
	mp := lookupPool(h)
	state.mu.Unlock()
	if p == nil || mp == nil {
		return ret(errInvalidValue)
	}
	d, err := devMalloc(int(size), "cudaMallocAsync", nil)
	if err != nil {
		return ret(errMemoryAllocation)
	}
	state.mu.Lock()
	mp.used += uint64(size)
	mp.usedHigh = max(mp.usedHigh, mp.used)
	mp.reservedHigh = max(mp.reservedHigh, mp.used)
	pools.poolOf[d] = mp
	state.mu.Unlock()
	*p = devPtr(d)
	return success
}

// poolForget takes a freed allocation off its pool's count.
func poolForget(d runtime.Ptr, size int) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if mp := pools.poolOf[d]; mp != nil {
		mp.used -= uint64(size)
		delete(pools.poolOf, d)
	}
}

//export cudaDeviceGetDefaultMemPool
func cudaDeviceGetDefaultMemPool(pool *unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cudaDeviceGetDefaultMemPool", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	if pool == nil {
		return ret(errInvalidValue)
	}
	state.mu.Lock()
	*pool = defaultPool()
	state.mu.Unlock()
	return success
}

//export cudaDeviceGetMemPool
func cudaDeviceGetMemPool(pool *unsafe.Pointer, dev C.int) (r C.int) {
	defer guard("cudaDeviceGetMemPool", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	if pool == nil {
		return ret(errInvalidValue)
	}
	state.mu.Lock()
	defaultPool()
	*pool = pools.current
	state.mu.Unlock()
	return success
}

//export cudaDeviceSetMemPool
func cudaDeviceSetMemPool(dev C.int, pool unsafe.Pointer) (r C.int) {
	defer guard("cudaDeviceSetMemPool", &r)()
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	return underLock(func() cudaError {
		if lookupPool(pool) == nil {
			return errInvalidValue
		}
		pools.current = pool
		return success
	})
}

//export cudaMemPoolCreate
func cudaMemPoolCreate(pool *unsafe.Pointer, props unsafe.Pointer) (r C.int) {
	defer guard("cudaMemPoolCreate", &r)()
	if pool == nil || props == nil {
		return ret(errInvalidValue)
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	defaultPool()
	h := handle()
	pools.byHandle[uintptr(h)] = &memPool{reuse: [3]C.int{1, 1, 1}}
	*pool = h
	return success
}

//export cudaMemPoolDestroy
func cudaMemPoolDestroy(pool unsafe.Pointer) (r C.int) {
	defer guard("cudaMemPoolDestroy", &r)()
	return underLock(func() cudaError {
		if lookupPool(pool) == nil || pool == pools.def {
			return errInvalidValue
		}
		delete(pools.byHandle, uintptr(pool))
		if pools.current == pool {
			pools.current = pools.def
		}
		return success
	})
}

// underLock runs f with state.mu held and returns its result as the call's (ret, which
// takes state.mu itself).
func underLock(f func() cudaError) cudaError {
	state.mu.Lock()
	e := f()
	state.mu.Unlock()
	return ret(e)
}

// poolAttribute runs f on the pool of a handle, under state.mu, for cudaMemPoolSet- and
// GetAttribute.
func poolAttribute(pool, value unsafe.Pointer, f func(mp *memPool) cudaError) cudaError {
	return underLock(func() cudaError {
		mp := lookupPool(pool)
		if mp == nil || value == nil {
			return errInvalidValue
		}
		return f(mp)
	})
}

//export cudaMemPoolSetAttribute
func cudaMemPoolSetAttribute(pool unsafe.Pointer, attr C.int, value unsafe.Pointer) (r C.int) {
	defer guard("cudaMemPoolSetAttribute", &r)()
	return poolAttribute(pool, value, func(mp *memPool) cudaError {
		switch attr {
		case poolReuseFollowEventDependencies, poolReuseAllowOpportunistic, poolReuseAllowInternalDependencies:
			mp.reuse[attr-1] = *(*C.int)(value)
		case poolReleaseThreshold:
			mp.threshold = *(*uint64)(value)
		case poolReservedMemHigh, poolUsedMemHigh: // only a reset to 0 is allowed
			if *(*uint64)(value) != 0 {
				return errInvalidValue
			}
			if attr == poolUsedMemHigh {
				mp.usedHigh = mp.used
			} else {
				mp.reservedHigh = mp.used
			}
		default:
			return errInvalidValue
		}
		return success
	})
}

//export cudaMemPoolGetAttribute
func cudaMemPoolGetAttribute(pool unsafe.Pointer, attr C.int, value unsafe.Pointer) (r C.int) {
	defer guard("cudaMemPoolGetAttribute", &r)()
	return poolAttribute(pool, value, func(mp *memPool) cudaError {
		switch attr {
		case poolReuseFollowEventDependencies, poolReuseAllowOpportunistic, poolReuseAllowInternalDependencies:
			*(*C.int)(value) = mp.reuse[attr-1]
		case poolReleaseThreshold:
			*(*uint64)(value) = mp.threshold
		case poolReservedMemCurrent, poolUsedMemCurrent:
			*(*uint64)(value) = mp.used
		case poolReservedMemHigh:
			*(*uint64)(value) = mp.reservedHigh
		case poolUsedMemHigh:
			*(*uint64)(value) = mp.usedHigh
		default:
			return errInvalidValue
		}
		return success
	})
}

// cudaMemPoolTrimTo releases a pool's unused memory down to minBytes: it holds none.
//
//export cudaMemPoolTrimTo
func cudaMemPoolTrimTo(pool unsafe.Pointer, minBytes C.size_t) (r C.int) {
	defer guard("cudaMemPoolTrimTo", &r)()
	return underLock(func() cudaError {
		if lookupPool(pool) == nil {
			return errInvalidValue
		}
		return success
	})
}

// cudaMallocFromPoolAsync allocates from a pool in stream order, which is now.
//
//export cudaMallocFromPoolAsync
func cudaMallocFromPoolAsync(p *unsafe.Pointer, size C.size_t, pool, stream unsafe.Pointer) (r C.int) {
	defer guard("cudaMallocFromPoolAsync", &r)()
	if !validStream(stream) {
		return ret(errInvalidResourceHandle)
	}
	if pool == nil {
		return ret(errInvalidValue)
	}
	return poolMalloc(p, size, pool)
}

// The offsets of bytesize and dptr in struct cudaMemAllocNodeParams (driver_types.h, CUDA
// 11.8: after a cudaMemPoolProps of 88 bytes, a pointer and a size_t).
const (
	allocNodeByteSize = 104
	allocNodeDptr     = 112
)

// cudaGraphAddMemAllocNode adds a node that allocates nodeParams->bytesize bytes for the
// graph's launches. Every stream being synchronous, the memory is allocated now, from the
// device's current pool, at the address it returns in nodeParams->dptr, and stays so for
// every launch of the graph.
//
//export cudaGraphAddMemAllocNode
func cudaGraphAddMemAllocNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, params unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphAddMemAllocNode", &r)()
	if params == nil {
		return ret(errInvalidValue)
	}
	var p unsafe.Pointer
	if e := poolMalloc(&p, *(*C.size_t)(unsafe.Add(params, allocNodeByteSize)), nil); e != success {
		return e
	}
	*(*unsafe.Pointer)(unsafe.Add(params, allocNodeDptr)) = p
	state.mu.Lock()
	pools.graphOwned[runtime.Ptr(uintptr(p))] = true
	state.mu.Unlock()
	return ret(addNode(node, g, deps, n, emptyOp{}))
}

// cudaGraphAddMemFreeNode adds a node that frees a graph allocation for the rest of a launch:
// the memory stays allocated for the graph's next launches, as a captured cudaFreeAsync's,
// and as it does when cudaFree or cudaFreeAsync frees it outside the graph (graphAllocation).
//
//export cudaGraphAddMemFreeNode
func cudaGraphAddMemFreeNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, dptr unsafe.Pointer) (r C.int) {
	defer guard("cudaGraphAddMemFreeNode", &r)()
	if dptr == nil {
		return ret(errInvalidValue)
	}
	return ret(addNode(node, g, deps, n, emptyOp{}))
}

// graphAllocation reports whether p is the memory of a graph's allocation node, which freeing
// leaves in place for the graph's next launch.
func graphAllocation(p runtime.Ptr) bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	return pools.graphOwned[p]
}
