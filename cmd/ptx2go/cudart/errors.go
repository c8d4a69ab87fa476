package main

// #include "cudart.h"
import "C"

import (
	"fmt"
	"sync"
)

// cudaError is a cudaError_t. The driver API's CUresult uses the same numbers for the errors
// the drop-in returns (CUDA_ERROR_ILLEGAL_ADDRESS is 700 like cudaErrorIllegalAddress), except
// where driver.go maps them.
type cudaError = C.int

// The CUDA errors the drop-in returns (driver_types.h).
const (
	success                        cudaError = 0
	errInvalidValue                cudaError = 1
	errMemoryAllocation            cudaError = 2
	errInitializationError         cudaError = 3
	errInvalidConfiguration        cudaError = 9
	errInvalidPitchValue           cudaError = 12
	errInvalidSymbol               cudaError = 13
	errInvalidDevicePointer        cudaError = 17
	errInvalidMemcpyDirection      cudaError = 21
	errLaunchMaxDepthExceeded      cudaError = 65
	errInvalidDeviceFunction       cudaError = 98
	errNoDevice                    cudaError = 100
	errInvalidDevice               cudaError = 101
	errInvalidKernelImage          cudaError = 200
	errNoKernelImageForDevice      cudaError = 209
	errUnsupportedLimit            cudaError = 215
	errInvalidPtx                  cudaError = 218
	errInvalidResourceHandle       cudaError = 400
	errSymbolNotFound              cudaError = 500
	errNotReady                    cudaError = 600
	errIllegalAddress              cudaError = 700
	errLaunchOutOfResources        cudaError = 701
	errLaunchTimeout               cudaError = 702
	errAssert                      cudaError = 710
	errHostMemoryAlreadyRegistered cudaError = 712
	errHostMemoryNotRegistered     cudaError = 713
	errHardwareStackError          cudaError = 714
	errIllegalInstruction          cudaError = 715
	errMisalignedAddress           cudaError = 716
	errInvalidPc                   cudaError = 718
	errLaunchFailure               cudaError = 719
	errCooperativeLaunchTooBig     cudaError = 720
	errNotSupported                cudaError = 801
	errStreamCaptureUnsupported    cudaError = 900
	errStreamCaptureUnmatched      cudaError = 903
	errStreamCaptureUnjoined       cudaError = 904
	errGraphExecUpdateFailure      cudaError = 910
	errUnknown                     cudaError = 999
)

// errorNames are the runtime API's names and descriptions of its errors, as
// cudaGetErrorName and cudaGetErrorString return them.
var errorNames = map[cudaError][2]string{
	success:                        {"cudaSuccess", "no error"},
	errInvalidValue:                {"cudaErrorInvalidValue", "invalid argument"},
	errMemoryAllocation:            {"cudaErrorMemoryAllocation", "out of memory"},
	errInitializationError:         {"cudaErrorInitializationError", "initialization error"},
	errInvalidConfiguration:        {"cudaErrorInvalidConfiguration", "invalid configuration argument"},
	errInvalidPitchValue:           {"cudaErrorInvalidPitchValue", "invalid pitch argument"},
	errInvalidSymbol:               {"cudaErrorInvalidSymbol", "invalid device symbol"},
	errInvalidDevicePointer:        {"cudaErrorInvalidDevicePointer", "invalid device pointer"},
	errInvalidMemcpyDirection:      {"cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
	errLaunchMaxDepthExceeded:      {"cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
	errInvalidDeviceFunction:       {"cudaErrorInvalidDeviceFunction", "invalid device function"},
	errNoDevice:                    {"cudaErrorNoDevice", "no CUDA-capable device is detected"},
	errInvalidDevice:               {"cudaErrorInvalidDevice", "invalid device ordinal"},
	errInvalidKernelImage:          {"cudaErrorInvalidKernelImage", "device kernel image is invalid"},
	errNoKernelImageForDevice:      {"cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
	errUnsupportedLimit:            {"cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
	errInvalidPtx:                  {"cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
	errInvalidResourceHandle:       {"cudaErrorInvalidResourceHandle", "invalid resource handle"},
	errSymbolNotFound:              {"cudaErrorSymbolNotFound", "named symbol not found"},
	errNotReady:                    {"cudaErrorNotReady", "device not ready"},
	errIllegalAddress:              {"cudaErrorIllegalAddress", "an illegal memory access was encountered"},
	errLaunchOutOfResources:        {"cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
	errLaunchTimeout:               {"cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
	errAssert:                      {"cudaErrorAssert", "device-side assert triggered"},
	errHostMemoryAlreadyRegistered: {"cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
	errHostMemoryNotRegistered:     {"cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
	errHardwareStackError:          {"cudaErrorHardwareStackError", "an illegal memory access was encountered"},
	errIllegalInstruction:          {"cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
	errMisalignedAddress:           {"cudaErrorMisalignedAddress", "misaligned address"},
	errInvalidPc:                   {"cudaErrorInvalidPc", "invalid program counter"},
	errLaunchFailure:               {"cudaErrorLaunchFailure", "unspecified launch failure"},
	errCooperativeLaunchTooBig:     {"cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
	errNotSupported:                {"cudaErrorNotSupported", "operation not supported"},
	errStreamCaptureUnsupported:    {"cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
	errStreamCaptureUnmatched:      {"cudaErrorStreamCaptureUnmatched", "capture was not initiated in this stream"},
	errStreamCaptureUnjoined:       {"cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
	errGraphExecUpdateFailure:      {"cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
	errUnknown:                     {"cudaErrorUnknown", "unknown error"},
}

// driverNames are the driver API's names of the same errors (cuGetErrorName), where they differ
// in more than the prefix.
var driverNames = map[cudaError]string{
	success:                        "CUDA_SUCCESS",
	errMemoryAllocation:            "CUDA_ERROR_OUT_OF_MEMORY",
	errInitializationError:         "CUDA_ERROR_NOT_INITIALIZED",
	errInvalidKernelImage:          "CUDA_ERROR_INVALID_IMAGE",
	errNoKernelImageForDevice:      "CUDA_ERROR_NO_BINARY_FOR_GPU",
	errInvalidPtx:                  "CUDA_ERROR_INVALID_PTX",
	errUnsupportedLimit:            "CUDA_ERROR_UNSUPPORTED_LIMIT",
	errInvalidResourceHandle:       "CUDA_ERROR_INVALID_HANDLE",
	errSymbolNotFound:              "CUDA_ERROR_NOT_FOUND",
	errIllegalAddress:              "CUDA_ERROR_ILLEGAL_ADDRESS",
	errLaunchFailure:               "CUDA_ERROR_LAUNCH_FAILED",
	errNotSupported:                "CUDA_ERROR_NOT_SUPPORTED",
	errInvalidValue:                "CUDA_ERROR_INVALID_VALUE",
	errNoDevice:                    "CUDA_ERROR_NO_DEVICE",
	errInvalidDevice:               "CUDA_ERROR_INVALID_DEVICE",
	errNotReady:                    "CUDA_ERROR_NOT_READY",
	errMisalignedAddress:           "CUDA_ERROR_MISALIGNED_ADDRESS",
	errHardwareStackError:          "CUDA_ERROR_HARDWARE_STACK_ERROR",
	errIllegalInstruction:          "CUDA_ERROR_ILLEGAL_INSTRUCTION",
	errInvalidPc:                   "CUDA_ERROR_INVALID_PC",
	errAssert:                      "CUDA_ERROR_ASSERT",
	errHostMemoryAlreadyRegistered: "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
	errHostMemoryNotRegistered:     "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
	errUnknown:                     "CUDA_ERROR_UNKNOWN",
	errInvalidContext:              "CUDA_ERROR_INVALID_CONTEXT",
}

// errInvalidContext is CUDA_ERROR_INVALID_CONTEXT (driver API only).
const errInvalidContext cudaError = 201

func errorName(e cudaError) string {
	if n, ok := errorNames[e]; ok {
		return n[0]
	}
	return fmt.Sprintf("cudaError(%d)", int(e))
}

func errorString(e cudaError) string {
	if n, ok := errorNames[e]; ok {
		return n[1]
	}
	return "unrecognized error code"
}

// cStrings caches the C strings handed out for error names, which the program may keep.
var cStrings sync.Map

// cString returns a C copy of s that lives as long as the process.
func cString(s string) *C.char {
	if p, ok := cStrings.Load(s); ok {
		return p.(*C.char)
	}
	p, _ := cStrings.LoadOrStore(s, C.CString(s))
	return p.(*C.char)
}

// ret records e as the calling host thread's last error (cudaGetLastError) when it is one,
// and returns it.
func ret(e cudaError) cudaError {
	if e != success {
		id := C.ptx2go_thread_id()
		state.mu.Lock()
		state.lastErr[id] = e
		state.mu.Unlock()
	}
	return e
}

// ptx2goUnsupportedCall records cudaErrorNotSupported as the calling thread's last error: the
// program called a runtime API function the drop-in does not implement (unimplemented.h).
//
//export ptx2goUnsupportedCall
func ptx2goUnsupportedCall() { ret(errNotSupported) }

// check returns the sticky error, recorded as the last error, or success: the start of every
// call that uses the device.
func check() cudaError {
	return ret(stickyErr())
}
