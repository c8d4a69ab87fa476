package main

// #include "cudart.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// The runtime API entry points CUDA 12 added. Where CUDA 12 kept a name but changed its
// arguments (cudaGraphInstantiate, cudaGraphExecUpdate, cudaGetDriverEntryPoint) the
// libcudart.so.12 that a CUDA 12 program loads defines the symbol itself (sonames/) and calls
// the ptx2goCuda12 functions here; libcudart.so.11.0's programs get CUDA 11's.

// The CUDA versions each soname's runtime reports (cudaRuntimeGetVersion) and asks driver entry
// points for (cudaGetDriverEntryPoint).
const (
	cuda11Version = 11080
	cuda12Version = 12040
)

//export cudaGetDeviceProperties_v2
func cudaGetDeviceProperties_v2(prop *C.struct_cudaDeviceProp12, dev C.int) (r C.int) {
	defer guard("cudaGetDeviceProperties_v2", &r)()
	if prop == nil {
		return ret(errInvalidValue)
	}
	if dev != 0 {
		return ret(errInvalidDevice)
	}
	*prop = C.struct_cudaDeviceProp12{}
	fillProps(&prop.base)
	prop.hostRegisterSupported = 1
	prop.memoryPoolsSupported = 1
	return success
}

//export cudaGetDeviceProperties_v2_ptsz
func cudaGetDeviceProperties_v2_ptsz(prop *C.struct_cudaDeviceProp12, dev C.int) C.int {
	return cudaGetDeviceProperties_v2(prop, dev)
}

// The launch attributes cudaLaunchKernelExC acts on; the others (access policy windows,
// priorities, memory synchronization domains, programmatic serialization) concern a GPU's
// caches and scheduling and have no effect on a CPU, so they are accepted and ignored.
const (
	launchAttrCooperative      = 2
	launchAttrClusterDimension = 4
)

// cudaLaunchKernelExC launches with a configuration and attributes: a cooperative launch, as
// cudaLaunchCooperativeKernel; clusters of more than one CTA are not supported (thread block
// clusters are sm_90).
//
//export cudaLaunchKernelExC
func cudaLaunchKernelExC(config *C.struct_cudaLaunchConfig, fn unsafe.Pointer, args unsafe.Pointer) (r C.int) {
	defer guard("cudaLaunchKernelExC", &r)()
	if config == nil {
		return ret(errInvalidValue)
	}
	cooperative := false
	if config.numAttrs > 0 {
		for _, a := range unsafe.Slice(config.attrs, config.numAttrs) {
			switch a.id {
			case launchAttrCooperative:
				cooperative = *(*C.int)(unsafe.Pointer(&a.val)) != 0
			case launchAttrClusterDimension:
				d := (*[3]C.uint)(unsafe.Pointer(&a.val))
				if d[0]*d[1]*d[2] > 1 {
					warnOnce(fmt.Sprintf("cudaLaunchKernelExC: thread block clusters (%dx%dx%d) are an sm_90 feature the emulated sm_80 device does not have", d[0], d[1], d[2]))
					return ret(errNotSupported)
				}
			}
		}
	}
	if cooperative {
		return cudaLaunchCooperativeKernel(fn, config.gridDim, config.blockDim, args, config.dynamicSmemBytes, config.stream)
	}
	return cudaLaunchKernel(fn, config.gridDim, config.blockDim, args, config.dynamicSmemBytes, config.stream)
}

//export cudaLaunchKernelExC_ptsz
func cudaLaunchKernelExC_ptsz(config *C.struct_cudaLaunchConfig, fn unsafe.Pointer, args unsafe.Pointer) C.int {
	return cudaLaunchKernelExC(config, fn, args)
}

// cudaGraphInstantiateWithParams instantiates like cudaGraphInstantiateWithFlags and reports
// the outcome in the parameters (cudaGraphInstantiateSuccess or cudaGraphInstantiateError).
//
//export cudaGraphInstantiateWithParams
func cudaGraphInstantiateWithParams(exec *unsafe.Pointer, g unsafe.Pointer, p *C.struct_cudaGraphInstantiateParams) (r C.int) {
	defer guard("cudaGraphInstantiateWithParams", &r)()
	if p == nil {
		return ret(errInvalidValue)
	}
	e := cudaGraphInstantiateWithFlags(exec, g, p.flags)
	p.errNode_out = nil
	p.result_out = 0
	if e != success {
		p.result_out = 1
	}
	return e
}

//export cudaGraphInstantiateWithParams_ptsz
func cudaGraphInstantiateWithParams_ptsz(exec *unsafe.Pointer, g unsafe.Pointer, p *C.struct_cudaGraphInstantiateParams) C.int {
	return cudaGraphInstantiateWithParams(exec, g, p)
}

// cudaStreamGetCaptureInfo_v3 is _v2 with the data of each dependency's edge, which is always
// the default (NULL: no edge data) since the drop-in's graphs have plain edges.
//
//export cudaStreamGetCaptureInfo_v3
func cudaStreamGetCaptureInfo_v3(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, edges *unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cudaStreamGetCaptureInfo_v3", &r)()
	if edges != nil {
		*edges = nil
	}
	return cudaStreamGetCaptureInfo_v2(s, status, id, g, deps, n)
}

//export cudaStreamGetCaptureInfo_v3_ptsz
func cudaStreamGetCaptureInfo_v3_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, edges *unsafe.Pointer, n *C.size_t) C.int {
	return cudaStreamGetCaptureInfo_v3(s, status, id, g, deps, edges, n)
}

// cudaGetDriverEntryPoint is CUDA 11's: the driver entry point for CUDA 11.8.
//
//export cudaGetDriverEntryPoint
func cudaGetDriverEntryPoint(symbol *C.char, fp *unsafe.Pointer, flags C.ulonglong) (r C.int) {
	defer guard("cudaGetDriverEntryPoint", &r)()
	return driverEntryPoint(symbol, fp, flags, nil, cuda11Version)
}

//export cudaGetDriverEntryPoint_ptsz
func cudaGetDriverEntryPoint_ptsz(symbol *C.char, fp *unsafe.Pointer, flags C.ulonglong) C.int {
	return cudaGetDriverEntryPoint(symbol, fp, flags)
}

// ptx2goCuda12GetDriverEntryPoint is CUDA 12's cudaGetDriverEntryPoint, with the query's
// status (cudaDriverEntryPointSuccess, SymbolNotFound, VersionNotSufficent: the driver's).
//
//export ptx2goCuda12GetDriverEntryPoint
func ptx2goCuda12GetDriverEntryPoint(symbol *C.char, fp *unsafe.Pointer, flags C.ulonglong, status *C.int) (r C.int) {
	defer guard("cudaGetDriverEntryPoint", &r)()
	return driverEntryPoint(symbol, fp, flags, status, cuda12Version)
}

func driverEntryPoint(symbol *C.char, fp *unsafe.Pointer, flags C.ulonglong, status *C.int, version C.int) C.int {
	if symbol == nil || fp == nil {
		return ret(errInvalidValue)
	}
	var st C.int
	if cuGetProcAddress_v2(symbol, fp, version, flags, &st) != success && st == procFound {
		st = procNotFound
	}
	if status != nil {
		*status = st
	}
	if st != procFound {
		return ret(errSymbolNotFound)
	}
	return success
}

// ptx2goCuda12GraphInstantiate is CUDA 12's cudaGraphInstantiate, which takes flags.
//
//export ptx2goCuda12GraphInstantiate
func ptx2goCuda12GraphInstantiate(exec *unsafe.Pointer, g unsafe.Pointer, flags C.ulonglong) (r C.int) {
	defer guard("cudaGraphInstantiate", &r)()
	return cudaGraphInstantiateWithFlags(exec, g, flags)
}

// ptx2goCuda12GraphExecUpdate is CUDA 12's cudaGraphExecUpdate, which reports into a
// cudaGraphExecUpdateResultInfo.
//
//export ptx2goCuda12GraphExecUpdate
func ptx2goCuda12GraphExecUpdate(exec, g unsafe.Pointer, info *C.struct_cudaGraphExecUpdateResultInfo) (r C.int) {
	defer guard("cudaGraphExecUpdate", &r)()
	if info == nil {
		return ret(errInvalidValue)
	}
	var node unsafe.Pointer
	var result C.int
	e := cudaGraphExecUpdate(exec, g, &node, &result)
	*info = C.struct_cudaGraphExecUpdateResultInfo{result: result, errorNode: node}
	return e
}

// ptx2goCuda12RuntimeVersion is cudaRuntimeGetVersion for CUDA 12 programs.
//
//export ptx2goCuda12RuntimeVersion
func ptx2goCuda12RuntimeVersion(v *C.int) (r C.int) {
	defer guard("cudaRuntimeGetVersion", &r)()
	if v == nil {
		return ret(errInvalidValue)
	}
	*v = cuda12Version
	return success
}

// cudaGetFuncBySymbol gives the driver's handle of a kernel from its host stub: the drop-in's
// handles are interchangeable, so it is the stub itself.
//
//export cudaGetFuncBySymbol
func cudaGetFuncBySymbol(f *unsafe.Pointer, stub unsafe.Pointer) (r C.int) {
	defer guard("cudaGetFuncBySymbol", &r)()
	return kernelHandle(f, stub)
}

// cudaGetKernel gives the cudaKernel_t of a kernel from its host stub, which is the stub.
//
//export cudaGetKernel
func cudaGetKernel(k *unsafe.Pointer, stub unsafe.Pointer) (r C.int) {
	defer guard("cudaGetKernel", &r)()
	return kernelHandle(k, stub)
}

func kernelHandle(out *unsafe.Pointer, stub unsafe.Pointer) C.int {
	if out == nil {
		return ret(errInvalidValue)
	}
	k := lookupKernel(stub)
	if k == nil {
		return ret(errInvalidDeviceFunction)
	}
	if code := k.resolve(); code != success {
		return ret(code)
	}
	*out = stub
	return success
}

// cudaFuncGetName gives a kernel's (mangled) name from its host stub.
//
//export cudaFuncGetName
func cudaFuncGetName(name **C.char, stub unsafe.Pointer) (r C.int) {
	defer guard("cudaFuncGetName", &r)()
	if lookupKernel(stub) == nil {
		return ret(errInvalidDeviceFunction)
	}
	if e := cuFuncGetName(name, stub); e != success {
		return ret(errInvalidValue)
	}
	return success
}
