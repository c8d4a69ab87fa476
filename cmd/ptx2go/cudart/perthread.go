package main

// #include "cudart.h"
import "C"

import "unsafe"

// The entry points below are what nvcc's --default-stream per-thread (and
// CUDA_API_PER_THREAD_DEFAULT_STREAM) makes a program call instead of the plain ones: the same
// operations, with stream 0 naming the calling thread's default stream instead of the legacy
// one. The drop-in runs every stream's work in issue order, each operation complete before
// the call returns (synchronize), so no stream waits for another and the per-thread default
// stream behaves as the legacy one does: each entry point is its plain one.

//export cudaEventRecordWithFlags_ptsz
func cudaEventRecordWithFlags_ptsz(e, s unsafe.Pointer, flags C.uint) C.int {
	return cudaEventRecordWithFlags(e, s, flags)
}

//export cudaEventRecord_ptsz
func cudaEventRecord_ptsz(e, s unsafe.Pointer) C.int { return cudaEventRecord(e, s) }

//export cudaFreeAsync_ptsz
func cudaFreeAsync_ptsz(p, stream unsafe.Pointer) C.int { return cudaFreeAsync(p, stream) }

//export cudaGraphLaunch_ptsz
func cudaGraphLaunch_ptsz(exec, s unsafe.Pointer) C.int { return cudaGraphLaunch(exec, s) }

//export cudaGraphUpload_ptsz
func cudaGraphUpload_ptsz(exec, s unsafe.Pointer) C.int { return cudaGraphUpload(exec, s) }

//export cudaLaunchCooperativeKernel_ptsz
func cudaLaunchCooperativeKernel_ptsz(fn unsafe.Pointer, grid, block C.ptx2go_dim3, args unsafe.Pointer, shared C.size_t, stream unsafe.Pointer) C.int {
	return cudaLaunchCooperativeKernel(fn, grid, block, args, shared, stream)
}

//export cudaLaunchHostFunc_ptsz
func cudaLaunchHostFunc_ptsz(s, fn, data unsafe.Pointer) C.int {
	return cudaLaunchHostFunc(s, fn, data)
}

//export cudaLaunchKernel_ptsz
func cudaLaunchKernel_ptsz(fn unsafe.Pointer, grid, block C.ptx2go_dim3, args unsafe.Pointer, shared C.size_t, stream unsafe.Pointer) C.int {
	return cudaLaunchKernel(fn, grid, block, args, shared, stream)
}

//export cudaMallocAsync_ptsz
func cudaMallocAsync_ptsz(p *unsafe.Pointer, size C.size_t, stream unsafe.Pointer) C.int {
	return cudaMallocAsync(p, size, stream)
}

//export cudaMallocFromPoolAsync_ptsz
func cudaMallocFromPoolAsync_ptsz(p *unsafe.Pointer, size C.size_t, pool, stream unsafe.Pointer) C.int {
	return cudaMallocFromPoolAsync(p, size, pool, stream)
}

//export cudaMemPrefetchAsync_ptsz
func cudaMemPrefetchAsync_ptsz(p unsafe.Pointer, n C.size_t, dev C.int, stream unsafe.Pointer) C.int {
	return cudaMemPrefetchAsync(p, n, dev, stream)
}

//export cudaMemcpy2DAsync_ptsz
func cudaMemcpy2DAsync_ptsz(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch C.size_t, width, height C.size_t, kind C.int, stream unsafe.Pointer) C.int {
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream)
}

//export cudaMemcpy2D_ptds
func cudaMemcpy2D_ptds(dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch C.size_t, width, height C.size_t, kind C.int) C.int {
	return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind)
}

//export cudaMemcpy3DAsync_ptsz
func cudaMemcpy3DAsync_ptsz(p *C.struct_cudaMemcpy3DParms, s unsafe.Pointer) C.int {
	return cudaMemcpy3DAsync(p, s)
}

//export cudaMemcpy3D_ptds
func cudaMemcpy3D_ptds(p *C.struct_cudaMemcpy3DParms) C.int { return cudaMemcpy3D(p) }

//export cudaMemcpyAsync_ptsz
func cudaMemcpyAsync_ptsz(dst, src unsafe.Pointer, n C.size_t, kind C.int, stream unsafe.Pointer) C.int {
	return cudaMemcpyAsync(dst, src, n, kind, stream)
}

//export cudaMemcpyFromSymbolAsync_ptsz
func cudaMemcpyFromSymbolAsync_ptsz(dst, symbol unsafe.Pointer, n, offset C.size_t, kind C.int, stream unsafe.Pointer) C.int {
	return cudaMemcpyFromSymbolAsync(dst, symbol, n, offset, kind, stream)
}

//export cudaMemcpyFromSymbol_ptds
func cudaMemcpyFromSymbol_ptds(dst, symbol unsafe.Pointer, n, offset C.size_t, kind C.int) C.int {
	return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind)
}

//export cudaMemcpyToSymbolAsync_ptsz
func cudaMemcpyToSymbolAsync_ptsz(symbol, src unsafe.Pointer, n, offset C.size_t, kind C.int, stream unsafe.Pointer) C.int {
	return cudaMemcpyToSymbolAsync(symbol, src, n, offset, kind, stream)
}

//export cudaMemcpyToSymbol_ptds
func cudaMemcpyToSymbol_ptds(symbol, src unsafe.Pointer, n, offset C.size_t, kind C.int) C.int {
	return cudaMemcpyToSymbol(symbol, src, n, offset, kind)
}

//export cudaMemcpy_ptds
func cudaMemcpy_ptds(dst, src unsafe.Pointer, n C.size_t, kind C.int) C.int {
	return cudaMemcpy(dst, src, n, kind)
}

//export cudaMemset2DAsync_ptsz
func cudaMemset2DAsync_ptsz(p unsafe.Pointer, pitch C.size_t, value C.int, width, height C.size_t, stream unsafe.Pointer) C.int {
	return cudaMemset2DAsync(p, pitch, value, width, height, stream)
}

//export cudaMemset2D_ptds
func cudaMemset2D_ptds(p unsafe.Pointer, pitch C.size_t, value C.int, width, height C.size_t) C.int {
	return cudaMemset2D(p, pitch, value, width, height)
}

//export cudaMemsetAsync_ptsz
func cudaMemsetAsync_ptsz(p unsafe.Pointer, value C.int, n C.size_t, stream unsafe.Pointer) C.int {
	return cudaMemsetAsync(p, value, n, stream)
}

//export cudaMemset_ptds
func cudaMemset_ptds(p unsafe.Pointer, value C.int, n C.size_t) C.int { return cudaMemset(p, value, n) }

//export cudaStreamAddCallback_ptsz
func cudaStreamAddCallback_ptsz(s, fn, data unsafe.Pointer, flags C.uint) C.int {
	return cudaStreamAddCallback(s, fn, data, flags)
}

//export cudaStreamAttachMemAsync_ptsz
func cudaStreamAttachMemAsync_ptsz(stream, p unsafe.Pointer, n C.size_t, flags C.uint) C.int {
	return cudaStreamAttachMemAsync(stream, p, n, flags)
}

//export cudaStreamBeginCapture_ptsz
func cudaStreamBeginCapture_ptsz(s unsafe.Pointer, mode C.int) C.int {
	return cudaStreamBeginCapture(s, mode)
}

//export cudaStreamEndCapture_ptsz
func cudaStreamEndCapture_ptsz(s unsafe.Pointer, g *unsafe.Pointer) C.int {
	return cudaStreamEndCapture(s, g)
}

//export cudaStreamGetCaptureInfo_ptsz
func cudaStreamGetCaptureInfo_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong) C.int {
	return cudaStreamGetCaptureInfo(s, status, id)
}

//export cudaStreamGetCaptureInfo_v2_ptsz
func cudaStreamGetCaptureInfo_v2_ptsz(s unsafe.Pointer, status *C.int, id *C.ulonglong, g *unsafe.Pointer, deps **unsafe.Pointer, n *C.size_t) C.int {
	return cudaStreamGetCaptureInfo_v2(s, status, id, g, deps, n)
}

//export cudaStreamGetFlags_ptsz
func cudaStreamGetFlags_ptsz(s unsafe.Pointer, flags *C.uint) C.int {
	return cudaStreamGetFlags(s, flags)
}

//export cudaStreamGetPriority_ptsz
func cudaStreamGetPriority_ptsz(s unsafe.Pointer, prio *C.int) C.int {
	return cudaStreamGetPriority(s, prio)
}

//export cudaStreamIsCapturing_ptsz
func cudaStreamIsCapturing_ptsz(s unsafe.Pointer, status *C.int) C.int {
	return cudaStreamIsCapturing(s, status)
}

//export cudaStreamQuery_ptsz
func cudaStreamQuery_ptsz(s unsafe.Pointer) C.int { return cudaStreamQuery(s) }

//export cudaStreamSynchronize_ptsz
func cudaStreamSynchronize_ptsz(s unsafe.Pointer) C.int { return cudaStreamSynchronize(s) }

//export cudaStreamWaitEvent_ptsz
func cudaStreamWaitEvent_ptsz(s, e unsafe.Pointer, flags C.uint) C.int {
	return cudaStreamWaitEvent(s, e, flags)
}

// The driver API's per-thread default stream entry points (CUDA_API_PER_THREAD_DEFAULT_STREAM),
// likewise its plain ones.

//export cuEventRecord_ptsz
func cuEventRecord_ptsz(e, s unsafe.Pointer) C.int { return cuEventRecord(e, s) }

//export cuLaunchCooperativeKernel_ptsz
func cuLaunchCooperativeKernel_ptsz(f unsafe.Pointer, gx, gy, gz, bx, by, bz, shared C.uint, s unsafe.Pointer, params *unsafe.Pointer) C.int {
	return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared, s, params)
}

//export cuLaunchKernel_ptsz
func cuLaunchKernel_ptsz(f unsafe.Pointer, gx, gy, gz, bx, by, bz, shared C.uint, s unsafe.Pointer, params, extra *unsafe.Pointer) C.int {
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, s, params, extra)
}

//export cuMemcpyAsync_ptsz
func cuMemcpyAsync_ptsz(dst, src C.ulonglong, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemcpyAsync(dst, src, n, s)
}

//export cuMemcpyDtoDAsync_v2_ptsz
func cuMemcpyDtoDAsync_v2_ptsz(dst, src C.ulonglong, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemcpyDtoDAsync_v2(dst, src, n, s)
}

//export cuMemcpyDtoD_v2_ptds
func cuMemcpyDtoD_v2_ptds(dst, src C.ulonglong, n C.size_t) C.int {
	return cuMemcpyDtoD_v2(dst, src, n)
}

//export cuMemcpyDtoHAsync_v2_ptsz
func cuMemcpyDtoHAsync_v2_ptsz(dst unsafe.Pointer, src C.ulonglong, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemcpyDtoHAsync_v2(dst, src, n, s)
}

//export cuMemcpyDtoH_v2_ptds
func cuMemcpyDtoH_v2_ptds(dst unsafe.Pointer, src C.ulonglong, n C.size_t) C.int {
	return cuMemcpyDtoH_v2(dst, src, n)
}

//export cuMemcpyHtoDAsync_v2_ptsz
func cuMemcpyHtoDAsync_v2_ptsz(dst C.ulonglong, src unsafe.Pointer, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemcpyHtoDAsync_v2(dst, src, n, s)
}

//export cuMemcpyHtoD_v2_ptds
func cuMemcpyHtoD_v2_ptds(dst C.ulonglong, src unsafe.Pointer, n C.size_t) C.int {
	return cuMemcpyHtoD_v2(dst, src, n)
}

//export cuMemcpy_ptds
func cuMemcpy_ptds(dst, src C.ulonglong, n C.size_t) C.int { return cuMemcpy(dst, src, n) }

//export cuMemsetD16Async_ptsz
func cuMemsetD16Async_ptsz(p C.ulonglong, v C.ushort, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD16Async(p, v, n, s)
}

//export cuMemsetD16_v2_ptds
func cuMemsetD16_v2_ptds(p C.ulonglong, v C.ushort, n C.size_t) C.int { return cuMemsetD16_v2(p, v, n) }

//export cuMemsetD32Async_ptsz
func cuMemsetD32Async_ptsz(p C.ulonglong, v C.uint, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD32Async(p, v, n, s)
}

//export cuMemsetD32_v2_ptds
func cuMemsetD32_v2_ptds(p C.ulonglong, v C.uint, n C.size_t) C.int { return cuMemsetD32_v2(p, v, n) }

//export cuMemsetD8Async_ptsz
func cuMemsetD8Async_ptsz(p C.ulonglong, v C.uchar, n C.size_t, s unsafe.Pointer) C.int {
	return cuMemsetD8Async(p, v, n, s)
}

//export cuMemsetD8_v2_ptds
func cuMemsetD8_v2_ptds(p C.ulonglong, v C.uchar, n C.size_t) C.int { return cuMemsetD8_v2(p, v, n) }

//export cuStreamQuery_ptsz
func cuStreamQuery_ptsz(s unsafe.Pointer) C.int { return cuStreamQuery(s) }

//export cuStreamSynchronize_ptsz
func cuStreamSynchronize_ptsz(s unsafe.Pointer) C.int { return cuStreamSynchronize(s) }

//export cuStreamWaitEvent_ptsz
func cuStreamWaitEvent_ptsz(s, e unsafe.Pointer, flags C.uint) C.int {
	return cuStreamWaitEvent(s, e, flags)
}
