package main

// #include "cudart.h"
import "C"

import (
	"unsafe"
)

// The L2 cache controls and stream attributes, and the device runtime's limits.
//
// The emulated device reports an L2 cache the size of an A100's (40 MiB, of which up to 30 MiB
// may be set aside for persisting accesses, with access-policy windows of up to 128 MiB), so
// that programs that size their persisting window from it (cuda-samples' simpleAttributes)
// run. The CPU's caches are not the device's to steer: cudaLimitPersistingL2CacheSize, an
// access-policy window set on a stream (cudaStreamSetAttribute,
// cudaStreamAttributeAccessPolicyWindow) and cudaCtxResetPersistingL2Cache are checked, kept
// and reported back, and change nothing else. The device runtime's limits
// (cudaLimitDevRuntimeSyncDepth, cudaLimitDevRuntimePendingLaunchCount) are kept and reported
// too: ptx2go reserves nothing for them (runtime/devrt.go).

const (
	l2CacheSize          = 40 << 20  // cudaDevAttrL2CacheSize
	persistingL2Max      = 30 << 20  // cudaDevAttrMaxPersistingL2CacheSize
	accessPolicyMaxBytes = 128 << 20 // cudaDevAttrMaxAccessPolicyWindowSize
)

// The limits kept here (cudaLimit), with their defaults on a GPU.
const (
	limitDevRuntimeSyncDepth      = 3
	limitDevRuntimePendingLaunch  = 4
	limitMaxL2FetchGranularity    = 5
	limitPersistingL2CacheSize    = 6
	defaultDevRuntimeSyncDepth    = 2
	defaultDevRuntimePendingCount = 2048
	defaultL2FetchGranularity     = 64
)

// limits holds the values the program set of the limits kept here; state.mu guards it.
var limits = map[C.int]C.size_t{
	limitDevRuntimeSyncDepth:     defaultDevRuntimeSyncDepth,
	limitDevRuntimePendingLaunch: defaultDevRuntimePendingCount,
	limitMaxL2FetchGranularity:   defaultL2FetchGranularity,
	limitPersistingL2CacheSize:   0,
}

// getLimit reads one of the limits kept here (cudaDeviceGetLimit); false for another limit.
func getLimit(limit C.int, v *C.size_t) bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	x, ok := limits[limit]
	if ok {
		*v = x
	}
	return ok
}

// setLimit sets one of the limits kept here (cudaDeviceSetLimit), checking its range as the
// GPU does: a sync depth of at most runtime.MaxLaunchDepth, an L2 fetch granularity of at most
// 128 bytes, a persisting L2 size of at most persistingL2Max (a larger one is clamped, as the
// driver does).
func setLimit(limit C.int, v C.size_t) cudaError {
	switch limit {
	case limitDevRuntimeSyncDepth:
		if v > 24 {
			return errInvalidValue
		}
	case limitDevRuntimePendingLaunch:
		if v == 0 {
			return errInvalidValue
		}
	case limitMaxL2FetchGranularity:
		if v > 128 {
			return errInvalidValue
		}
	case limitPersistingL2CacheSize:
		v = min(v, persistingL2Max)
	default:
		return errUnsupportedLimit
	}
	state.mu.Lock()
	limits[limit] = v
	state.mu.Unlock()
	return success
}

// The stream attributes (cudaStreamAttrID, CUstreamAttrID: cudaLaunchAttributeID's numbers).
const (
	attrAccessPolicyWindow = 1
	attrSyncPolicy         = 3
	attrPriority           = 8
)

// accessPolicyWindow is cudaAccessPolicyWindow / CUaccessPolicyWindow.
type accessPolicyWindow struct {
	base     uintptr
	numBytes uintptr
	hitRatio float32
	hitProp  int32
	missProp int32
	_        int32
}

// streamAttrs is what cudaStreamSetAttribute set on a stream.
type streamAttrs struct {
	window     accessPolicyWindow
	syncPolicy int32
}

// attrsOf holds the attributes set on each stream, by handle (0: the default stream); state.mu
// guards it.
var attrsOf = map[uintptr]*streamAttrs{}

// knownStream says whether s is a stream handle the program may name: the default stream, the
// per-thread stream, or one it created.
func knownStream(s unsafe.Pointer) bool {
	switch uintptr(s) {
	case 0, 1, 2: // the default stream, cudaStreamLegacy, cudaStreamPerThread
		return true
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.streams[uintptr(s)]
}

// streamSetAttr sets a stream attribute from a cudaStreamAttrValue (CUstreamAttrValue) union.
// Only the member the attribute names is read, since programs built against older headers pass
// a smaller union.
func streamSetAttr(s unsafe.Pointer, attr C.int, v unsafe.Pointer) cudaError {
	if !knownStream(s) {
		return errInvalidResourceHandle
	}
	if v == nil {
		return errInvalidValue
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	a := attrsOf[uintptr(s)]
	if a == nil {
		a = &streamAttrs{syncPolicy: 1}
	}
	switch attr {
	case attrAccessPolicyWindow:
		w := *(*accessPolicyWindow)(v)
		if w.numBytes > accessPolicyMaxBytes || w.hitRatio < 0 || w.hitRatio > 1 || w.hitProp < 0 || w.hitProp > 2 || w.missProp < 0 || w.missProp > 2 {
			return errInvalidValue
		}
		a.window = w
	case attrSyncPolicy:
		p := *(*int32)(v)
		if p < 1 || p > 4 {
			return errInvalidValue
		}
		a.syncPolicy = p
	case attrPriority:
		// Streams have no priorities on the emulated device (cudaDeviceGetStreamPriorityRange
		// gives 0, 0): the one priority there is, accepted and not kept.
	default:
		return errInvalidValue
	}
	attrsOf[uintptr(s)] = a
	return success
}

// streamGetAttr writes a stream attribute's member of a cudaStreamAttrValue union.
func streamGetAttr(s unsafe.Pointer, attr C.int, v unsafe.Pointer) cudaError {
	if !knownStream(s) {
		return errInvalidResourceHandle
	}
	if v == nil {
		return errInvalidValue
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	a := attrsOf[uintptr(s)]
	if a == nil {
		a = &streamAttrs{syncPolicy: 1}
	}
	switch attr {
	case attrAccessPolicyWindow:
		*(*accessPolicyWindow)(v) = a.window
	case attrSyncPolicy:
		*(*int32)(v) = a.syncPolicy
	case attrPriority:
		*(*int32)(v) = 0
	default:
		return errInvalidValue
	}
	return success
}

//export cudaStreamSetAttribute
func cudaStreamSetAttribute(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamSetAttribute", &r)()
	return ret(streamSetAttr(s, attr, v))
}

//export cudaStreamSetAttribute_ptsz
func cudaStreamSetAttribute_ptsz(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamSetAttribute_ptsz", &r)()
	return ret(streamSetAttr(s, attr, v))
}

//export cudaStreamGetAttribute
func cudaStreamGetAttribute(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamGetAttribute", &r)()
	return ret(streamGetAttr(s, attr, v))
}

//export cudaStreamGetAttribute_ptsz
func cudaStreamGetAttribute_ptsz(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamGetAttribute_ptsz", &r)()
	return ret(streamGetAttr(s, attr, v))
}

//export cuStreamSetAttribute
func cuStreamSetAttribute(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cuStreamSetAttribute", &r)()
	return drv(streamSetAttr(s, attr, v))
}

//export cuStreamSetAttribute_ptsz
func cuStreamSetAttribute_ptsz(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cuStreamSetAttribute_ptsz", &r)()
	return drv(streamSetAttr(s, attr, v))
}

//export cuStreamGetAttribute
func cuStreamGetAttribute(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cuStreamGetAttribute", &r)()
	return drv(streamGetAttr(s, attr, v))
}

//export cuStreamGetAttribute_ptsz
func cuStreamGetAttribute_ptsz(s unsafe.Pointer, attr C.int, v unsafe.Pointer) (r C.int) {
	defer guard("cuStreamGetAttribute_ptsz", &r)()
	return drv(streamGetAttr(s, attr, v))
}

// streamCopyAttrs copies the attributes set on src to dst (cudaStreamCopyAttributes).
func streamCopyAttrs(dst, src unsafe.Pointer) cudaError {
	if !knownStream(dst) || !knownStream(src) {
		return errInvalidResourceHandle
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	if a := attrsOf[uintptr(src)]; a != nil {
		c := *a
		attrsOf[uintptr(dst)] = &c
	} else {
		delete(attrsOf, uintptr(dst))
	}
	return success
}

//export cudaStreamCopyAttributes
func cudaStreamCopyAttributes(dst, src unsafe.Pointer) (r C.int) {
	defer guard("cudaStreamCopyAttributes", &r)()
	return ret(streamCopyAttrs(dst, src))
}

//export cuStreamCopyAttributes
func cuStreamCopyAttributes(dst, src unsafe.Pointer) (r C.int) {
	defer guard("cuStreamCopyAttributes", &r)()
	return drv(streamCopyAttrs(dst, src))
}

//export cudaCtxResetPersistingL2Cache
func cudaCtxResetPersistingL2Cache() (r C.int) {
	defer guard("cudaCtxResetPersistingL2Cache", &r)()
	return success
}

//export cuCtxResetPersistingL2Cache
func cuCtxResetPersistingL2Cache() (r C.int) {
	defer guard("cuCtxResetPersistingL2Cache", &r)()
	return success
}
