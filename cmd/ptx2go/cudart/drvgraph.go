package main

// #include "cudart.h"
// #include "drvtypes.h"
import "C"

import (
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The driver API's CUDA graphs, stream capture and host functions (cuGraph*, cuStream*Capture*,
// cuStreamAddCallback, cuLaunchHostFunc): adapters over the runtime API's (graph.go). A
// program built with nvcc's default -cudart static reaches graphs only through them, since
// NVIDIA's runtime turns each cudaGraph* call into its cuGraph* one. The handles are the
// runtime API's (a CUfunction or CUkernel is accepted wherever a host stub is: lookupKernel),
// CUDA_KERNEL_NODE_PARAMS (v1), CUDA_MEMSET_NODE_PARAMS, CUDA_HOST_NODE_PARAMS,
// CUDA_MEM_ALLOC_NODE_PARAMS and CUDA_GRAPH_INSTANTIATE_PARAMS have the layout of their runtime
// counterparts, CUgraphNodeType, CUstreamCaptureStatus and CUgraphExecUpdateResult their
// values; CUDA_KERNEL_NODE_PARAMS_v2 and CUDA_MEMCPY3D are converted.

// kernelNodeV2 gives the runtime's kernel node parameters of a CUDA_KERNEL_NODE_PARAMS_v2:
// its first fields, with kern as the kernel when func is NULL.
func kernelNodeV2(p *C.struct_ptx2go_kernelNodeParamsV2) *C.struct_cudaKernelNodeParams {
	if p == nil {
		return nil
	}
	q := *(*C.struct_cudaKernelNodeParams)(unsafe.Pointer(p))
	if q._func == nil {
		q._func = p.kern
	}
	return &q
}

// kernelNodeV1 gives the runtime's kernel node parameters of a CUDA_KERNEL_NODE_PARAMS (v1),
// which has their layout.
func kernelNodeV1(p unsafe.Pointer) *C.struct_cudaKernelNodeParams {
	return (*C.struct_cudaKernelNodeParams)(p)
}

// Streams: callbacks and host functions (CUstreamCallback has cudaStreamCallback_t's
// arguments: the stream, the status and the user data).

//export cuStreamAddCallback
func cuStreamAddCallback(s, fn, data unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuStreamAddCallback", &r)()
	if fn == nil {
		return errInvalidValue
	}
	return drv(cudaStreamAddCallback(s, fn, data, flags))
}

//export cuStreamAddCallback_ptsz
func cuStreamAddCallback_ptsz(s, fn, data unsafe.Pointer, flags C.uint) C.int {
	return cuStreamAddCallback(s, fn, data, flags)
}

//export cuLaunchHostFunc
func cuLaunchHostFunc(s, fn, data unsafe.Pointer) (r C.int) {
	defer guard("cuLaunchHostFunc", &r)()
	if fn == nil {
		return errInvalidValue
	}
	return drv(cudaLaunchHostFunc(s, fn, data))
}

//export cuLaunchHostFunc_ptsz
func cuLaunchHostFunc_ptsz(s, fn, data unsafe.Pointer) C.int { return cuLaunchHostFunc(s, fn, data) }

// Stream capture.

// cuStreamBeginCapture is CUDA 10.0's, without a mode: CU_STREAM_CAPTURE_MODE_GLOBAL.
//
//export cuStreamBeginCapture
func cuStreamBeginCapture(s unsafe.Pointer) (r C.int) {
	defer guard("cuStreamBeginCapture", &r)()
	return drv(cudaStreamBeginCapture(s, 0))
}

//export cuStreamBeginCapture_ptsz
func cuStreamBeginCapture_ptsz(s unsafe.Pointer) C.int { return cuStreamBeginCapture(s) }

//export cuStreamBeginCapture_v2
func cuStreamBeginCapture_v2(s unsafe.Pointer, mode C.int) (r C.int) {
	defer guard("cuStreamBeginCapture_v2", &r)()
	return drv(cudaStreamBeginCapture(s, mode))
}

//export cuStreamBeginCapture_v2_ptsz
func cuStreamBeginCapture_v2_ptsz(s unsafe.Pointer, mode C.int) C.int {
	return cuStreamBeginCapture_v2(s, mode)
}

//export cuStreamEndCapture
func cuStreamEndCapture(s unsafe.Pointer, g *unsafe.Pointer) (r C.int) {
	defer guard("cuStreamEndCapture", &r)()
	if g == nil {
		return errInvalidValue
	}
	return drv(cudaStreamEndCapture(s, g))
}

//export cuStreamEndCapture_ptsz
func cuStreamEndCapture_ptsz(s unsafe.Pointer, g *unsafe.Pointer) C.int {
	return cuStreamEndCapture(s, g)
}

//export cuStreamIsCapturing
func cuStreamIsCapturing(s unsafe.Pointer, status *C.int) (r C.int) {
	defer guard("cuStreamIsCapturing", &r)()
	if status == nil {
		return errInvalidValue
	}
	return drv(cudaStreamIsCapturing(s, status))
}

//export cuStreamIsCapturing_ptsz
func cuStreamIsCapturing_ptsz(s unsafe.Pointer, status *C.int) C.int {
	return cuStreamIsCapturing(s, status)
}

//export cuStreamGetCaptureInfo
func cuStreamGetCaptureInfo(s unsafe.Pointer, status *C.int, id *C.ulonglong) (r C.int) {
	defer guard("cuStreamGetCaptureInfo", &r)()
	return cuStreamGetCaptureInfo_v2(s, status, id, nil, nil, nil)
}

//export cuStreamGetCaptureInfo_ptsz
func cuStreamGetCaptureInfo_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong) C.int {
	return cuStreamGetCaptureInfo(s, status, id)
}

//export cuStreamGetCaptureInfo_v2
func cuStreamGetCaptureInfo_v2(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cuStreamGetCaptureInfo_v2", &r)()
	if status == nil {
		return errInvalidValue
	}
	return drv(cudaStreamGetCaptureInfo_v2(s, status, id, g, deps, n))
}

//export cuStreamGetCaptureInfo_v2_ptsz
func cuStreamGetCaptureInfo_v2_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, n *C.size_t) C.int {
	return cuStreamGetCaptureInfo_v2(s, status, id, g, deps, n)
}

//export cuStreamGetCaptureInfo_v3
func cuStreamGetCaptureInfo_v3(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, edges *unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cuStreamGetCaptureInfo_v3", &r)()
	if status == nil {
		return errInvalidValue
	}
	return drv(cudaStreamGetCaptureInfo_v3(s, status, id, g, deps, edges, n))
}

//export cuStreamGetCaptureInfo_v3_ptsz
func cuStreamGetCaptureInfo_v3_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, edges *unsafe.Pointer, n *C.size_t) C.int {
	return cuStreamGetCaptureInfo_v3(s, status, id, g, deps, edges, n)
}

//export cuThreadExchangeStreamCaptureMode
func cuThreadExchangeStreamCaptureMode(mode *C.int) (r C.int) {
	defer guard("cuThreadExchangeStreamCaptureMode", &r)()
	if mode == nil {
		return errInvalidValue
	}
	return drv(cudaThreadExchangeStreamCaptureMode(mode))
}

// Graphs.

//export cuGraphCreate
func cuGraphCreate(g *unsafe.Pointer, flags C.uint) (r C.int) {
	defer guard("cuGraphCreate", &r)()
	if g == nil || flags != 0 {
		return errInvalidValue
	}
	return drv(cudaGraphCreate(g, flags))
}

//export cuGraphDestroy
func cuGraphDestroy(g unsafe.Pointer) (r C.int) {
	defer guard("cuGraphDestroy", &r)()
	return drv(cudaGraphDestroy(g))
}

//export cuGraphClone
func cuGraphClone(clone *unsafe.Pointer, g unsafe.Pointer) (r C.int) {
	defer guard("cuGraphClone", &r)()
	if clone == nil {
		return errInvalidValue
	}
	return drv(cudaGraphClone(clone, g))
}

//export cuGraphAddKernelNode
func cuGraphAddKernelNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p unsafe.Pointer) (r C.int) {
	defer guard("cuGraphAddKernelNode", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphAddKernelNode(node, g, deps, n, kernelNodeV1(p)))
}

//export cuGraphAddKernelNode_v2
func cuGraphAddKernelNode_v2(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_ptx2go_kernelNodeParamsV2) (r C.int) {
	defer guard("cuGraphAddKernelNode_v2", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphAddKernelNode(node, g, deps, n, kernelNodeV2(p)))
}

//export cuGraphKernelNodeSetParams
func cuGraphKernelNodeSetParams(node unsafe.Pointer, p unsafe.Pointer) (r C.int) {
	defer guard("cuGraphKernelNodeSetParams", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphKernelNodeSetParams(node, kernelNodeV1(p)))
}

//export cuGraphKernelNodeSetParams_v2
func cuGraphKernelNodeSetParams_v2(node unsafe.Pointer, p *C.struct_ptx2go_kernelNodeParamsV2) (r C.int) {
	defer guard("cuGraphKernelNodeSetParams_v2", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphKernelNodeSetParams(node, kernelNodeV2(p)))
}

//export cuGraphExecKernelNodeSetParams
func cuGraphExecKernelNodeSetParams(exec, node unsafe.Pointer, p unsafe.Pointer) (r C.int) {
	defer guard("cuGraphExecKernelNodeSetParams", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphExecKernelNodeSetParams(exec, node, kernelNodeV1(p)))
}

//export cuGraphExecKernelNodeSetParams_v2
func cuGraphExecKernelNodeSetParams_v2(exec, node unsafe.Pointer, p *C.struct_ptx2go_kernelNodeParamsV2) (r C.int) {
	defer guard("cuGraphExecKernelNodeSetParams_v2", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphExecKernelNodeSetParams(exec, node, kernelNodeV2(p)))
}

// cuGraphAddMemcpyNode adds a 3D copy (CUDA_MEMCPY3D, converted: memcpy3DParams); the context
// is the one context there is.
//
//export cuGraphAddMemcpyNode
func cuGraphAddMemcpyNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_ptx2go_memcpy3D, ctx unsafe.Pointer) (r C.int) {
	defer guard("cuGraphAddMemcpyNode", &r)()
	q, code := memcpy3DParams(p)
	if code != success {
		return code
	}
	return drv(cudaGraphAddMemcpyNode(node, g, deps, n, q))
}

//export cuGraphAddMemsetNode
func cuGraphAddMemsetNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaMemsetParams, ctx unsafe.Pointer) (r C.int) {
	defer guard("cuGraphAddMemsetNode", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphAddMemsetNode(node, g, deps, n, p))
}

//export cuGraphAddHostNode
func cuGraphAddHostNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p *C.struct_cudaHostNodeParams) (r C.int) {
	defer guard("cuGraphAddHostNode", &r)()
	if p == nil {
		return errInvalidValue
	}
	return drv(cudaGraphAddHostNode(node, g, deps, n, p))
}

//export cuGraphAddEmptyNode
func cuGraphAddEmptyNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t) (r C.int) {
	defer guard("cuGraphAddEmptyNode", &r)()
	return drv(cudaGraphAddEmptyNode(node, g, deps, n))
}

//export cuGraphAddChildGraphNode
func cuGraphAddChildGraphNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, child unsafe.Pointer) (r C.int) {
	defer guard("cuGraphAddChildGraphNode", &r)()
	return drv(cudaGraphAddChildGraphNode(node, g, deps, n, child))
}

// cuGraphAddMemAllocNode: CUDA_MEM_ALLOC_NODE_PARAMS has cudaMemAllocNodeParams' layout.
//
//export cuGraphAddMemAllocNode
func cuGraphAddMemAllocNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p unsafe.Pointer) (r C.int) {
	defer guard("cuGraphAddMemAllocNode", &r)()
	return drv(cudaGraphAddMemAllocNode(node, g, deps, n, p))
}

//export cuGraphAddMemFreeNode
func cuGraphAddMemFreeNode(node *unsafe.Pointer, g, deps unsafe.Pointer, n C.size_t, p C.ulonglong) (r C.int) {
	defer guard("cuGraphAddMemFreeNode", &r)()
	return drv(cudaGraphAddMemFreeNode(node, g, deps, n, devPtr(runtime.Ptr(p))))
}

//export cuGraphAddDependencies
func cuGraphAddDependencies(g, from, to unsafe.Pointer, n C.size_t) (r C.int) {
	defer guard("cuGraphAddDependencies", &r)()
	return drv(cudaGraphAddDependencies(g, from, to, n))
}

// cuGraphAddDependencies_v2 (CUDA 12.3) takes the data of each edge: the drop-in's graphs
// have only the default edges (all zero, or no array).
//
//export cuGraphAddDependencies_v2
func cuGraphAddDependencies_v2(g, from, to unsafe.Pointer, edges *C.uchar, n C.size_t) (r C.int) {
	defer guard("cuGraphAddDependencies_v2", &r)()
	if edges != nil {
		for _, b := range unsafe.Slice((*byte)(unsafe.Pointer(edges)), 8*int(n)) { // CUgraphEdgeData: 8 bytes
			if b != 0 {
				return errInvalidValue
			}
		}
	}
	return drv(cudaGraphAddDependencies(g, from, to, n))
}

//export cuGraphGetNodes
func cuGraphGetNodes(g, nodes unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cuGraphGetNodes", &r)()
	if n == nil {
		return errInvalidValue
	}
	return drv(cudaGraphGetNodes(g, nodes, n))
}

//export cuGraphGetRootNodes
func cuGraphGetRootNodes(g, nodes unsafe.Pointer, n *C.size_t) (r C.int) {
	defer guard("cuGraphGetRootNodes", &r)()
	if n == nil {
		return errInvalidValue
	}
	return drv(cudaGraphGetRootNodes(g, nodes, n))
}

//export cuGraphNodeGetType
func cuGraphNodeGetType(node unsafe.Pointer, t *C.int) (r C.int) {
	defer guard("cuGraphNodeGetType", &r)()
	if t == nil {
		return errInvalidValue
	}
	return drv(cudaGraphNodeGetType(node, t))
}

// cuGraphInstantiate is CUDA 10's and cuGraphInstantiate_v2 CUDA 11's, with the same
// arguments (an error node and a log, which instantiation never needs).
//
//export cuGraphInstantiate
func cuGraphInstantiate(exec *unsafe.Pointer, g unsafe.Pointer, errNode *unsafe.Pointer, log *C.char, logSize C.size_t) (r C.int) {
	defer guard("cuGraphInstantiate", &r)()
	return cuGraphInstantiateWithFlags(exec, g, 0)
}

//export cuGraphInstantiate_v2
func cuGraphInstantiate_v2(exec *unsafe.Pointer, g unsafe.Pointer, errNode *unsafe.Pointer, log *C.char, logSize C.size_t) (r C.int) {
	defer guard("cuGraphInstantiate_v2", &r)()
	return cuGraphInstantiateWithFlags(exec, g, 0)
}

//export cuGraphInstantiateWithFlags
func cuGraphInstantiateWithFlags(exec *unsafe.Pointer, g unsafe.Pointer, flags C.ulonglong) (r C.int) {
	defer guard("cuGraphInstantiateWithFlags", &r)()
	if exec == nil {
		return errInvalidValue
	}
	return drv(cudaGraphInstantiateWithFlags(exec, g, flags))
}

// cuGraphInstantiateWithParams: CUDA_GRAPH_INSTANTIATE_PARAMS has the layout of
// cudaGraphInstantiateParams, and CUgraphInstantiateResult the values.
//
//export cuGraphInstantiateWithParams
func cuGraphInstantiateWithParams(exec *unsafe.Pointer, g unsafe.Pointer, p *C.struct_cudaGraphInstantiateParams) (r C.int) {
	defer guard("cuGraphInstantiateWithParams", &r)()
	if exec == nil {
		return errInvalidValue
	}
	return drv(cudaGraphInstantiateWithParams(exec, g, p))
}

//export cuGraphInstantiateWithParams_ptsz
func cuGraphInstantiateWithParams_ptsz(exec *unsafe.Pointer, g unsafe.Pointer, p *C.struct_cudaGraphInstantiateParams) C.int {
	return cuGraphInstantiateWithParams(exec, g, p)
}

//export cuGraphLaunch
func cuGraphLaunch(exec, s unsafe.Pointer) (r C.int) {
	defer guard("cuGraphLaunch", &r)()
	return drv(cudaGraphLaunch(exec, s))
}

//export cuGraphLaunch_ptsz
func cuGraphLaunch_ptsz(exec, s unsafe.Pointer) C.int { return cuGraphLaunch(exec, s) }

//export cuGraphUpload
func cuGraphUpload(exec, s unsafe.Pointer) (r C.int) {
	defer guard("cuGraphUpload", &r)()
	return drv(cudaGraphUpload(exec, s))
}

//export cuGraphUpload_ptsz
func cuGraphUpload_ptsz(exec, s unsafe.Pointer) C.int { return cuGraphUpload(exec, s) }

//export cuGraphExecDestroy
func cuGraphExecDestroy(exec unsafe.Pointer) (r C.int) {
	defer guard("cuGraphExecDestroy", &r)()
	return drv(cudaGraphExecDestroy(exec))
}

// cuGraphExecUpdate is CUDA 11's: the node that failed and a CUgraphExecUpdateResult.
//
//export cuGraphExecUpdate
func cuGraphExecUpdate(exec, g unsafe.Pointer, errNode *unsafe.Pointer, result *C.int) (r C.int) {
	defer guard("cuGraphExecUpdate", &r)()
	if result == nil {
		return errInvalidValue
	}
	return drv(cudaGraphExecUpdate(exec, g, errNode, result))
}

// cuGraphExecUpdate_v2 is CUDA 12's, into a CUgraphExecUpdateResultInfo.
//
//export cuGraphExecUpdate_v2
func cuGraphExecUpdate_v2(exec, g unsafe.Pointer, info *C.struct_cudaGraphExecUpdateResultInfo) (r C.int) {
	defer guard("cuGraphExecUpdate_v2", &r)()
	if info == nil {
		return errInvalidValue
	}
	return drv(ptx2goCuda12GraphExecUpdate(exec, g, info))
}
