package main

// #include <string.h>
// #include "cudart.h"
import "C"

import (
	goruntime "runtime"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The emulated device as cudaGetDeviceProperties, cudaDeviceGetAttribute and cuDeviceGetAttribute
// describe it: one device of compute capability 8.0 (ptx2go runs PTX up to sm_80's features and
// more) whose limits are ptx2go's (runtime.MaxThreadsPerBlock, MaxSharedBytes, the global
// address window). It runs one kernel at a time and copies synchronously, so it reports no
// concurrent kernels, no copy engines and no overlap. Managed, page-locked and registered host
// memory is mapped at its host address (unified addressing), and cooperative launches run
// every CTA at once with a grid barrier; multi-device cooperative launches and stream
// priorities are not there and report 0.
// Clock rates and cache sizes of a CPU mean nothing to a CUDA program's tuning: the clock rate is
// a nominal 1 GHz, the memory figures 0 but the L2 cache's, an A100's (l2.go), which programs
// size their persisting-access windows from.
// deviceUUID is the device's UUID (cudaDeviceProp.uuid, cuDeviceGetUuid).
var deviceUUID = [16]byte([]byte("ptx2go-emulated!"))

const (
	deviceName        = "ptx2go CPU emulation (sm_80)"
	ccMajor, ccMinor  = 8, 0
	sharedPerBlock    = 48 << 10
	sharedPerSM       = 228 << 10
	constMem          = 64 << 10
	regsPerBlock      = 64 << 10
	threadsPerSM      = 2048
	blocksPerSM       = 32
	clockRateKHz      = 1000000
	textureAlignment  = 512
	texturePitchAlign = 32
	pitchAlignment    = 512
)

// totalMem is the size of the device's global address window.
func totalMem() uint64 { return uint64(runtime.FuncWindow - runtime.GlobalBase) }

// smCount is the number of "multiprocessors": the CPUs the kernels' CTAs run on.
func smCount() int { return goruntime.GOMAXPROCS(0) }

// deviceAttrs maps cudaDeviceAttr (the same numbers as CUdevice_attribute) to the device's values.
// Attributes of texture, surface and other hardware the emulation lacks are 0.
func deviceAttr(a int) (int, bool) {
	switch a {
	case 1: // MaxThreadsPerBlock
		return runtime.MaxThreadsPerBlock, true
	case 2, 3:
		return 1024, true
	case 4:
		return 64, true
	case 5:
		return 1<<31 - 1, true
	case 6, 7:
		return 65535, true
	case 8: // MaxSharedMemoryPerBlock
		return sharedPerBlock, true
	case 9:
		return constMem, true
	case 10:
		return 32, true
	case 11: // MaxPitch
		return 1<<31 - 1, true
	case 12:
		return regsPerBlock, true
	case 13:
		return clockRateKHz, true
	case 14:
		return textureAlignment, true
	case 16:
		return smCount(), true
	case 19, 41, 83, 91: // CanMapHostMemory, UnifiedAddressing, ManagedMemory, CanUseHostPointerForRegisteredMem
		return 1, true
	case 95: // CooperativeLaunch
		return 1, true
	case 39:
		return threadsPerSM, true
	case 51:
		return texturePitchAlign, true
	case 75:
		return ccMajor, true
	case 76:
		return ccMinor, true
	case 79, 80: // Global and local L1 caches: the CPU's
		return 1, true
	case 81:
		return sharedPerSM, true
	case 82:
		return regsPerBlock, true
	case 87: // SingleToDoublePrecisionPerfRatio
		return 2, true
	case 97: // MaxSharedMemoryPerBlockOptin
		return runtime.MaxSharedBytes, true
	case 106:
		return blocksPerSM, true
	case 115: // MemoryPoolsSupported (mempool.go)
		return 1, true
	case 102: // VirtualMemoryManagementSupported (vmm.go)
		return 1, true
	case 38: // L2CacheSize (l2.go)
		return l2CacheSize, true
	case 108: // MaxPersistingL2CacheSize
		return persistingL2Max, true
	case 109: // MaxAccessPolicyWindowSize
		return accessPolicyMaxBytes, true
	case 126: // MemSyncDomainCount: one domain, as before Hopper
		return 1, true
	case 131, 134: // NumaId, HostNumaId: the device is no NUMA node of its own
		return -1, true
	}
	if a >= 1 && a <= 134 { // CUDA 12.4's last attribute
		return 0, true
	}
	return 0, false
}

// fillProps writes the device's cudaDeviceProp (CUDA 11.8 layout).
func fillProps(p *C.struct_cudaDeviceProp) {
	C.memset(unsafe.Pointer(p), 0, C.sizeof_struct_cudaDeviceProp)
	name := unsafe.Slice((*byte)(unsafe.Pointer(&p.name[0])), len(p.name))
	copy(name[:len(name)-1], deviceName)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&p.uuid[0])), 16), deviceUUID[:])
	p.totalGlobalMem = C.size_t(totalMem())
	p.sharedMemPerBlock = sharedPerBlock
	p.regsPerBlock = regsPerBlock
	p.warpSize = 32
	p.memPitch = 1<<31 - 1
	p.maxThreadsPerBlock = runtime.MaxThreadsPerBlock
	p.maxThreadsDim = [3]C.int{1024, 1024, 64}
	p.maxGridSize = [3]C.int{1<<31 - 1, 65535, 65535}
	p.clockRate = clockRateKHz
	p.totalConstMem = constMem
	p.major, p.minor = ccMajor, ccMinor
	p.textureAlignment = textureAlignment
	p.texturePitchAlignment = texturePitchAlign
	p.multiProcessorCount = C.int(smCount())
	p.maxThreadsPerMultiProcessor = threadsPerSM
	p.globalL1CacheSupported = 1
	p.localL1CacheSupported = 1
	p.sharedMemPerMultiprocessor = sharedPerSM
	p.regsPerMultiprocessor = regsPerBlock
	p.singleToDoublePrecisionPerfRatio = 2
	p.sharedMemPerBlockOptin = runtime.MaxSharedBytes
	p.maxBlocksPerMultiProcessor = blocksPerSM
	p.canMapHostMemory, p.unifiedAddressing, p.managedMemory = 1, 1, 1
	p.canUseHostPointerForRegisteredMem = 1
	p.cooperativeLaunch = 1
	p.l2CacheSize, p.persistingL2CacheMaxSize, p.accessPolicyMaxWindowSize = l2CacheSize, persistingL2Max, accessPolicyMaxBytes
}

// occupancy is the number of CTAs of blockSize threads using shared bytes of shared memory that
// fit one multiprocessor of the emulated device (0 if none does).
func occupancy(blockSize, shared int) int {
	if blockSize <= 0 || blockSize > runtime.MaxThreadsPerBlock {
		return 0
	}
	warps := (blockSize + 31) / 32
	n := min(blocksPerSM, threadsPerSM/32/warps)
	if shared > 0 {
		n = min(n, sharedPerSM/shared)
	}
	return n
}
