package runtime

import (
	"encoding/binary"
	"fmt"
)

// Builtin identifies a device-side library function that ptx2go implements in the runtime:
// CUDA's device runtime declares these with `.extern .func` and no body, and kernels call them
// for printf, assert and malloc.
type Builtin uint8

// The device-side library functions.
const (
	BuiltinNone       Builtin = iota
	BuiltinVprintf            // int vprintf(const char *format, void *args): CUDA's printf
	BuiltinAssertFail         // void __assertfail(message, file, unsigned line, function, size_t charSize): assert
	BuiltinMalloc             // void *malloc(size_t size) on the device heap
	BuiltinFree               // void free(void *ptr) on the device heap
	// The device runtime's functions, for kernels that launch kernels (devrt.go).
	BuiltinGetParameterBufferV2 // void *cudaGetParameterBufferV2(void *func, dim3 grid, dim3 block, unsigned shared)
	BuiltinGetParameterBuffer   // void *cudaGetParameterBuffer(size_t alignment, size_t size)
	BuiltinLaunchDeviceV2       // cudaError_t cudaLaunchDeviceV2(void *buffer, cudaStream_t stream)
	BuiltinLaunchDevice         // cudaError_t cudaLaunchDevice(void *func, void *buffer, dim3 grid, dim3 block, unsigned shared, cudaStream_t stream)
	BuiltinDeviceSynchronize    // cudaError_t cudaDeviceSynchronize(void)
	BuiltinGetLastError         // cudaError_t cudaGetLastError(void)
	BuiltinPeekAtLastError      // cudaError_t cudaPeekAtLastError(void)
	BuiltinStreamCreate         // cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
	BuiltinStreamDestroy        // cudaError_t cudaStreamDestroy(cudaStream_t stream)
	BuiltinEventCreate          // cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
	BuiltinEventRecord          // cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
	BuiltinEventDestroy         // cudaError_t cudaEventDestroy(cudaEvent_t event)
	BuiltinStreamWaitEvent      // cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
	BuiltinGetDevice            // cudaError_t cudaGetDevice(int *device)
	BuiltinCudaMalloc           // cudaError_t cudaMalloc(void **ptr, size_t size), on the device heap
	BuiltinCudaFree             // cudaError_t cudaFree(void *ptr)
)

// builtinSpec is the shape of a library function's calls: its argument and result counts,
// and which arguments are a dim3 (a 12-byte .param aggregate, bit i for argument i).
type builtinSpec struct {
	kind    Builtin
	args    int
	results int
	dims    uint8
}

var builtinSpecs = map[string]builtinSpec{
	"vprintf":      {BuiltinVprintf, 2, 1, 0},
	"__assertfail": {BuiltinAssertFail, 5, 0, 0},
	"malloc":       {BuiltinMalloc, 1, 1, 0},
	"free":         {BuiltinFree, 1, 0, 0},

	"cudaGetParameterBufferV2":                    {BuiltinGetParameterBufferV2, 4, 1, 1<<1 | 1<<2},
	"cudaGetParameterBuffer":                      {BuiltinGetParameterBuffer, 2, 1, 0},
	"cudaLaunchDeviceV2":                          {BuiltinLaunchDeviceV2, 2, 1, 0},
	"cudaLaunchDeviceV2_ptsz":                     {BuiltinLaunchDeviceV2, 2, 1, 0},
	"cudaLaunchDevice":                            {BuiltinLaunchDevice, 6, 1, 1<<2 | 1<<3},
	"cudaLaunchDevice_ptsz":                       {BuiltinLaunchDevice, 6, 1, 1<<2 | 1<<3},
	"cudaDeviceSynchronize":                       {BuiltinDeviceSynchronize, 0, 1, 0},
	"__cudaDeviceSynchronizeDeprecationAvoidance": {BuiltinDeviceSynchronize, 0, 1, 0},
	"cudaGetLastError":                            {BuiltinGetLastError, 0, 1, 0},
	"cudaPeekAtLastError":                         {BuiltinPeekAtLastError, 0, 1, 0},
	"cudaStreamCreateWithFlags":                   {BuiltinStreamCreate, 2, 1, 0},
	"cudaStreamDestroy":                           {BuiltinStreamDestroy, 1, 1, 0},
	"cudaEventCreateWithFlags":                    {BuiltinEventCreate, 2, 1, 0},
	"cudaEventRecord":                             {BuiltinEventRecord, 2, 1, 0},
	"cudaEventRecord_ptsz":                        {BuiltinEventRecord, 2, 1, 0},
	"cudaEventDestroy":                            {BuiltinEventDestroy, 1, 1, 0},
	"cudaStreamWaitEvent":                         {BuiltinStreamWaitEvent, 3, 1, 0},
	"cudaStreamWaitEvent_ptsz":                    {BuiltinStreamWaitEvent, 3, 1, 0},
	"cudaGetDevice":                               {BuiltinGetDevice, 1, 1, 0},
	"cudaMalloc":                                  {BuiltinCudaMalloc, 2, 1, 0},
	"cudaFree":                                    {BuiltinCudaFree, 1, 1, 0},
}

// builtinFuncs are the Funcs call sites name for the library functions, one per name.
var builtinFuncs = func() map[string]*Func {
	m := map[string]*Func{}
	for name, s := range builtinSpecs {
		m[name] = &Func{Name: name, Index: -1, Builtin: s.kind}
	}
	return m
}()

// BuiltinFunc returns the Func a direct call to the device-side library function name (a
// function the module declares without a body) targets, or nil when ptx2go does not provide it.
func BuiltinFunc(name string) *Func { return builtinFuncs[name] }

// CheckBuiltinCall says whether a call to the library function f with these argument and
// result slots can run: the counts must match the function's C prototype, a dim3 argument
// must be a 12-byte .param aggregate and every other value a scalar of at most 8 bytes.
func CheckBuiltinCall(f *Func, args, results []Slot) error {
	s := builtinSpecs[f.Name]
	if len(args) != s.args || len(results) > s.results {
		return fmt.Errorf("call to %s with %d arguments and %d results; it takes %d and returns %d", f.Name, len(args), len(results), s.args, s.results)
	}
	for i, a := range args {
		if s.dims&(1<<i) != 0 && (a.Pred || a.Reg >= 0 || a.Size != 12) {
			return fmt.Errorf("call to %s: argument %d is a dim3, a .param aggregate of 12 bytes", f.Name, i)
		}
	}
	for i, a := range append(append([]Slot(nil), args...), results...) {
		if i < len(args) && s.dims&(1<<i) != 0 {
			continue
		}
		if a.Pred || a.Size < 1 || a.Size > 8 {
			return fmt.Errorf("call to %s: an argument or result of %d bytes, not a scalar", f.Name, a.Size)
		}
	}
	return nil
}

// callBuiltin runs a library function for the lanes in m, in lane order, reading the
// arguments from the caller's slots and writing its result there.
func (w *Warp) callBuiltin(t *Term, f *Func, m uint32) {
	cs := t.Call
	for mm := m; mm != 0; mm &= mm - 1 {
		l := firstLane(mm)
		var r uint64
		switch f.Builtin {
		case BuiltinVprintf:
			r = uint64(uint32(w.vprintf(w.slotValue(cs.Args[0], l), w.slotValue(cs.Args[1], l), cs.Args[0].Size, l, t.Loc)))
		case BuiltinAssertFail:
			w.assertFail(cs, mm, t.Loc)
		case BuiltinMalloc:
			n := w.slotValue(cs.Args[0], l)
			r = w.CTA.L.heap.malloc(n)
			if r != 0 && w.CTA.chk != nil {
				w.CTA.chk.fresh(r, n)
			}
		case BuiltinFree:
			if p := w.slotValue(cs.Args[0], l); p != 0 && !w.CTA.L.heap.free(p) {
				w.addrFault(FaultIllegal, t.Loc, l, "", p, "free of an address that malloc did not return, or freed already")
			}
		default:
			r = w.devrtCall(t, f, l)
		}
		for _, d := range cs.Results {
			w.setSlot(d, l, r)
		}
	}
}

// slotValue reads a lane's scalar argument from a slot of the current frame, zero-extended.
func (w *Warp) slotValue(s Slot, lane int) uint64 {
	n := min(s.Size, 8)
	if s.Reg >= 0 {
		v := w.R[s.Reg*WarpSize+lane]
		if n < 8 {
			v &= 1<<(8*n) - 1
		}
		return v
	}
	var buf [8]byte
	copy(buf[:], w.Param[lane*w.Fn.ParamSize+s.ParamOff:][:n])
	return binary.LittleEndian.Uint64(buf[:])
}

// setSlot writes a lane's scalar result to a slot of the current frame.
func (w *Warp) setSlot(s Slot, lane int, v uint64) {
	n := min(s.Size, 8)
	if n < 8 {
		v &= 1<<(8*n) - 1
	}
	if s.Reg >= 0 {
		w.R[s.Reg*WarpSize+lane] = v
		return
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], v)
	copy(w.Param[lane*w.Fn.ParamSize+s.ParamOff:][:n], buf[:n])
}

// maxCString bounds the strings the library functions read from device memory.
const maxCString = 1 << 20

// cString reads the NUL-terminated string at a generic address for a lane; an access outside
// memory is a fault located at the call.
func (w *Warp) cString(addr uint64, lane int, loc string) []byte {
	var s []byte
	for i := uint64(0); i < maxCString; i++ {
		c := w.GenericBytes(addr+i, 1, lane, loc)[0]
		if c == 0 {
			break
		}
		s = append(s, c)
	}
	return s
}

// Assertion is what a failed device-side assert names: its expression, source file and line
// and the function it is in.
type Assertion struct {
	Message  string
	File     string
	Line     uint32
	Function string
}

// assertFail stops the launch with an assert fault for the first of the lanes m, which call
// __assertfail together, as on a GPU; the fault's AssertLines hold every lane's line, as
// CUDA prints one for each thread.
func (w *Warp) assertFail(cs *CallSite, m uint32, loc string) {
	var first *Fault
	var lines []string
	for ; m != 0; m &= m - 1 {
		lane := firstLane(m)
		f := w.newFault(FaultAssert, loc, lane)
		f.Assert = &Assertion{
			Message:  string(w.cString(w.slotValue(cs.Args[0], lane), lane, loc)),
			File:     string(w.cString(w.slotValue(cs.Args[1], lane), lane, loc)),
			Line:     uint32(w.slotValue(cs.Args[2], lane)),
			Function: string(w.cString(w.slotValue(cs.Args[3], lane), lane, loc)),
		}
		lines = append(lines, f.CUDAAssertMessage())
		if first == nil {
			first = f
		}
	}
	first.Detail, first.AssertLines = lines[0], lines
	panic(first)
}

// CUDAAssertMessage is an assert fault's line as CUDA prints it:
// "file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `message` failed."
// It is empty for other faults.
func (f *Fault) CUDAAssertMessage() string {
	a := f.Assert
	if a == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` failed.",
		a.File, a.Line, a.Function, f.CTA.X, f.CTA.Y, f.CTA.Z, f.Thread.X, f.Thread.Y, f.Thread.Z, a.Message)
}
