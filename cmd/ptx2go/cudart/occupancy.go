package main

// #include "cudart.h"
// typedef size_t (*ptx2go_b2d)(int);
// static inline size_t ptx2go_call_b2d(void *f, int blockSize) { return ((ptx2go_b2d)f)(blockSize); }
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The driver API's occupancy calculator, on the emulated device's figures (device.go's
// occupancy: 2048 threads and 32 CTAs per multiprocessor, 228 KiB of shared memory).
// cuOccupancyMaxPotentialBlockSize searches the block sizes as CUDA's
// cudaOccupancyMaxPotentialBlockSizeVariableSMem does (cuda_runtime.h): from the largest
// multiple of the warp size the limits allow down to one warp, keeping the first size with the
// most threads resident per multiprocessor.

// driverKernel resolves a CUfunction.
func driverKernel(f unsafe.Pointer) (*kernel, cudaError) {
	k := lookupKernel(f)
	if k == nil {
		return nil, errInvalidResourceHandle
	}
	if code := k.resolve(); code != success {
		return nil, drv(code)
	}
	return k, success
}

//export cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags
func cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n *C.int, f unsafe.Pointer, blockSize C.int, shared C.size_t, flags C.uint) (r C.int) {
	defer guard("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", &r)()
	return cuOccupancyMaxActiveBlocksPerMultiprocessor(n, f, blockSize, shared)
}

// maxPotentialBlockSize is the block size with the most resident threads per multiprocessor
// for kernel k, and the grid that fills the device with it. b2d, when not nil, is the
// program's function giving the dynamic shared memory of a block size; else every size uses
// shared bytes.
func maxPotentialBlockSize(k *kernel, b2d unsafe.Pointer, shared, limit int) (minGrid, block int) {
	maxThreads := runtime.MaxThreadsPerBlock
	if limit > 0 {
		maxThreads = min(maxThreads, limit)
	}
	best, bestBlocks := 0, 0
	for bs := (maxThreads + 31) / 32 * 32; bs > 0; bs -= 32 {
		size := min(bs, maxThreads)
		dyn := shared
		if b2d != nil {
			dyn = int(C.ptx2go_call_b2d(b2d, C.int(size)))
		}
		blocks := occupancy(size, dyn+k.fn.StaticShared)
		if blocks*size > best {
			best, bestBlocks, block = blocks*size, blocks, size
		}
		if best == threadsPerSM {
			break
		}
	}
	return bestBlocks * smCount(), block
}

//export cuOccupancyMaxPotentialBlockSize
func cuOccupancyMaxPotentialBlockSize(minGrid, block *C.int, f unsafe.Pointer, b2d unsafe.Pointer, shared C.size_t, limit C.int) (r C.int) {
	defer guard("cuOccupancyMaxPotentialBlockSize", &r)()
	return cuOccupancyMaxPotentialBlockSizeWithFlags(minGrid, block, f, b2d, shared, limit, 0)
}

//export cuOccupancyMaxPotentialBlockSizeWithFlags
func cuOccupancyMaxPotentialBlockSizeWithFlags(minGrid, block *C.int, f unsafe.Pointer, b2d unsafe.Pointer, shared C.size_t, limit C.int, flags C.uint) (r C.int) {
	defer guard("cuOccupancyMaxPotentialBlockSizeWithFlags", &r)()
	if minGrid == nil || block == nil || limit < 0 {
		return errInvalidValue
	}
	k, code := driverKernel(f)
	if code != success {
		return code
	}
	g, b := maxPotentialBlockSize(k, b2d, int(shared), int(limit))
	*minGrid, *block = C.int(g), C.int(b)
	return success
}

//export cuOccupancyAvailableDynamicSMemPerBlock
func cuOccupancyAvailableDynamicSMemPerBlock(size *C.size_t, f unsafe.Pointer, numBlocks, blockSize C.int) (r C.int) {
	defer guard("cuOccupancyAvailableDynamicSMemPerBlock", &r)()
	return drv(cudaOccupancyAvailableDynamicSMemPerBlock(size, f, numBlocks, blockSize))
}
