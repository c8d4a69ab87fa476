package main

// #include <stdlib.h>
// #include <string.h>
// #include "cudart.h"
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/ptx2go/ptx2go/cmd/ptx2go/cudart/fatbin"
	"github.com/ptx2go/ptx2go/frontend"
)

// The driver API's JIT linker: cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete and
// cuLinkDestroy join PTX units at run time, resolving the .extern functions and variables one
// declares with another's definitions (frontend.Link, as for programs built with -rdc). The
// "cubin" cuLinkComplete returns is the joined module's PTX text, which cuModuleLoadData (and
// the other loaders) accept. Inputs may be PTX or a fat binary (its newest PTX); libcudadevrt
// (CU_JIT_INPUT_LIBRARY naming libcudadevrt.a) is accepted and adds nothing, since ptx2go has
// the device runtime built in (runtime/devrt.go); a cubin or object file holds SASS, which
// ptx2go cannot run. The joined module holds the first unit added and every unit it needs,
// transitively, or, when another unit needs more, that unit's; units none of which needs the
// others cannot be joined into one module (CUDA_ERROR_NOT_SUPPORTED). The options the
// program passes are read for the log buffers (the info log says what was joined, the error
// log why linking failed) and the wall time (CU_JIT_WALL_TIME, written through the pointer
// given); the others are accepted and change nothing.

// linkState is a CUlinkState.
type linkState struct {
	units   []frontend.Unit
	opts    jitOptions
	out     unsafe.Pointer // the joined PTX, a C string, freed by cuLinkDestroy
	started time.Time
}

// jitOptions are the CUjit_option values the linker reads: the buffers for the logs and their
// sizes, and where to write the wall time (a float, through the pointer the program passes,
// as cuda-samples' ptxjit expects). The option arrays themselves are not written, since the
// program need not keep them until cuLinkComplete.
type jitOptions struct {
	wallTime          *float32
	infoLog, errorLog unsafe.Pointer
	infoSize, errSize int
}

// The CUjit_option and CUjitInputType values the linker reads.
const (
	jitWallTime      = 2
	jitInfoLog       = 3
	jitInfoLogSize   = 4
	jitErrorLog      = 5
	jitErrorLogSize  = 6
	jitInputCubin    = 0
	jitInputPTX      = 1
	jitInputFatbin   = 2
	jitInputObject   = 3
	jitInputLibrary  = 4
	errJitNotFound   = 301 // CUDA_ERROR_FILE_NOT_FOUND
	errInvalidHandle = 400 // CUDA_ERROR_INVALID_HANDLE
)

// parseJitOptions reads the option arrays of cuLinkCreate.
func parseJitOptions(n C.uint, opts, vals unsafe.Pointer) jitOptions {
	var o jitOptions
	if n == 0 || opts == nil || vals == nil {
		return o
	}
	keys := unsafe.Slice((*C.int)(opts), int(n))
	values := unsafe.Slice((*unsafe.Pointer)(vals), int(n))
	for i, k := range keys {
		switch k {
		case jitWallTime:
			o.wallTime = (*float32)(values[i])
		case jitInfoLog:
			o.infoLog = values[i]
		case jitInfoLogSize:
			o.infoSize = int(uintptr(values[i]))
		case jitErrorLog:
			o.errorLog = values[i]
		case jitErrorLogSize:
			o.errSize = int(uintptr(values[i]))
		}
	}
	return o
}

// writeLog writes msg, NUL-terminated and cut to the buffer's size, into a log buffer.
func writeLog(buf unsafe.Pointer, size int, msg string) {
	if buf == nil || size <= 0 {
		return
	}
	n := min(len(msg), size-1)
	b := unsafe.Slice((*byte)(buf), n+1)
	copy(b, msg[:n])
	b[n] = 0
}

// linkStates holds the live CUlinkStates; state.mu guards it.
var linkStates = map[uintptr]*linkState{}

// lookupLink returns the link state of handle h.
func lookupLink(h unsafe.Pointer) *linkState {
	state.mu.Lock()
	defer state.mu.Unlock()
	return linkStates[uintptr(h)]
}

//export cuLinkCreate_v2
func cuLinkCreate_v2(n C.uint, opts, vals unsafe.Pointer, out *unsafe.Pointer) (r C.int) {
	defer guard("cuLinkCreate_v2", &r)()
	if e := initialized(); e != success {
		return e
	}
	if out == nil {
		return errInvalidValue
	}
	h := handle()
	state.mu.Lock()
	linkStates[uintptr(h)] = &linkState{opts: parseJitOptions(n, opts, vals), started: time.Now()}
	state.mu.Unlock()
	*out = h
	return success
}

//export cuLinkCreate
func cuLinkCreate(n C.uint, opts, vals unsafe.Pointer, out *unsafe.Pointer) (r C.int) {
	defer guard("cuLinkCreate", &r)()
	return cuLinkCreate_v2(n, opts, vals, out)
}

// add adds one input to the link: PTX text, or a fat binary's newest PTX.
func (l *linkState) add(typ C.int, data []byte, name string) C.int {
	fail := func(code C.int, format string, args ...any) C.int {
		msg := fmt.Sprintf(format, args...)
		writeLog(l.opts.errorLog, l.opts.errSize, msg)
		warnOnce(msg)
		return code
	}
	switch typ {
	case jitInputPTX:
		if i := strings.IndexByte(string(data), 0); i >= 0 {
			data = data[:i]
		}
	case jitInputFatbin:
		entries, err := fatbin.Parse(data)
		if err != nil {
			return fail(errInvalidKernelImage, "cuLinkAddData: %s: %v", name, err)
		}
		best, ok := fatbin.NewestPTX(entries)
		if !ok {
			return fail(errNoKernelImageForDevice, "cuLinkAddData: %s carries no PTX, only SASS: ptx2go runs PTX", name)
		}
		data = best.Data
	case jitInputLibrary:
		if strings.HasPrefix(filepath.Base(name), "libcudadevrt") {
			return success // the device runtime is built in
		}
		return fail(errNotSupported, "cuLinkAdd: %s: a library of objects holds SASS, which ptx2go cannot run; link PTX", name)
	case jitInputCubin, jitInputObject:
		return fail(errNoKernelImageForDevice, "cuLinkAdd: %s: a cubin or object holds SASS, which ptx2go cannot run; link PTX (nvcc -ptx)", name)
	default:
		return fail(errNotSupported, "cuLinkAdd: %s: input type %d is not supported; link PTX", name, typ)
	}
	if _, err := frontend.Parse(name, data); err != nil {
		return fail(errInvalidPtx, "%s", firstLines(err.Error(), 10))
	}
	l.units = append(l.units, frontend.Unit{Name: name, Src: append([]byte(nil), data...)})
	return success
}

//export cuLinkAddData_v2
func cuLinkAddData_v2(h unsafe.Pointer, typ C.int, data unsafe.Pointer, size C.size_t, name *C.char, n C.uint, opts, vals unsafe.Pointer) (r C.int) {
	defer guard("cuLinkAddData_v2", &r)()
	l := lookupLink(h)
	if l == nil {
		return errInvalidHandle
	}
	if data == nil || size == 0 {
		return errInvalidValue
	}
	unit := fmt.Sprintf("%s.link%d.ptx", programName(), len(l.units))
	if name != nil && C.strlen(name) > 0 {
		unit = C.GoString(name)
	}
	return l.add(typ, C.GoBytes(data, C.int(size)), unit)
}

//export cuLinkAddData
func cuLinkAddData(h unsafe.Pointer, typ C.int, data unsafe.Pointer, size C.size_t, name *C.char, n C.uint, opts, vals unsafe.Pointer) (r C.int) {
	defer guard("cuLinkAddData", &r)()
	return cuLinkAddData_v2(h, typ, data, size, name, n, opts, vals)
}

//export cuLinkAddFile_v2
func cuLinkAddFile_v2(h unsafe.Pointer, typ C.int, path *C.char, n C.uint, opts, vals unsafe.Pointer) (r C.int) {
	defer guard("cuLinkAddFile_v2", &r)()
	l := lookupLink(h)
	if l == nil {
		return errInvalidHandle
	}
	if path == nil {
		return errInvalidValue
	}
	name := C.GoString(path)
	if typ == jitInputLibrary {
		return l.add(typ, nil, name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		writeLog(l.opts.errorLog, l.opts.errSize, err.Error())
		return errJitNotFound
	}
	return l.add(typ, b, name)
}

//export cuLinkAddFile
func cuLinkAddFile(h unsafe.Pointer, typ C.int, path *C.char, n C.uint, opts, vals unsafe.Pointer) (r C.int) {
	defer guard("cuLinkAddFile", &r)()
	return cuLinkAddFile_v2(h, typ, path, n, opts, vals)
}

// join links the units into one module's PTX: the first unit's closure (frontend.Link), or the
// first closure that holds every unit.
func (l *linkState) join() ([]byte, error) {
	if len(l.units) == 1 {
		return l.units[0].Src, nil
	}
	var firstErr error
	for i := range l.units {
		src, joined, err := frontend.Link(l.units, i)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if len(joined) == len(l.units) {
			return src, nil
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, fmt.Errorf("cuLinkComplete: none of the %d PTX units needs all the others (through .extern declarations), so they do not make one module; ptx2go joins only such units", len(l.units))
}

//export cuLinkComplete
func cuLinkComplete(h unsafe.Pointer, out *unsafe.Pointer, size *C.size_t) (r C.int) {
	defer guard("cuLinkComplete", &r)()
	l := lookupLink(h)
	if l == nil {
		return errInvalidHandle
	}
	if out == nil || size == nil {
		return errInvalidValue
	}
	if len(l.units) == 0 {
		writeLog(l.opts.errorLog, l.opts.errSize, "cuLinkComplete: nothing to link")
		return errInvalidValue
	}
	src, err := l.join()
	if err != nil {
		msg := firstLines(err.Error(), 10)
		writeLog(l.opts.errorLog, l.opts.errSize, msg)
		warnOnce(msg)
		if strings.Contains(msg, "none of the") {
			return errNotSupported
		}
		return errInvalidPtx
	}
	names := make([]string, len(l.units))
	for i, u := range l.units {
		names[i] = u.Name
	}
	writeLog(l.opts.infoLog, l.opts.infoSize, fmt.Sprintf("ptx2go: linked %d PTX unit(s) (%s) into one module of %d bytes of PTX", len(l.units), strings.Join(names, ", "), len(src)))
	if l.opts.wallTime != nil {
		*l.opts.wallTime = float32(time.Since(l.started).Seconds() * 1000)
	}
	if l.out != nil {
		C.free(l.out)
	}
	l.out = C.CBytes(append(src, 0))
	*out = l.out
	*size = C.size_t(len(src) + 1)
	return success
}

//export cuLinkDestroy
func cuLinkDestroy(h unsafe.Pointer) (r C.int) {
	defer guard("cuLinkDestroy", &r)()
	state.mu.Lock()
	l := linkStates[uintptr(h)]
	delete(linkStates, uintptr(h))
	state.mu.Unlock()
	if l == nil {
		return errInvalidHandle
	}
	if l.out != nil {
		C.free(l.out)
	}
	return success
}
