package main

// #include <stdio.h>
// #include "cudart.h"
import "C"

import (
	"sync"
	"unsafe"
)

// Device printf and assert output, as CUDA delivers it: each launch's printf output is kept
// in a buffer (at most cudaLimitPrintfFifoSize bytes a launch) and printed to the program's
// stdout at the next synchronization (cudaDeviceSynchronize, stream and event synchronization,
// a blocking copy, cudaDeviceReset, the end of the program); a failed device assert's line
// goes to stderr then. Both go through C's stdio, so that they interleave with the program's
// own printf as on a GPU.
var pending struct {
	mu      sync.Mutex
	printf  []byte
	asserts []string
}

// addPrintf keeps a launch's printf output until the next synchronization.
func addPrintf(out []byte) {
	if len(out) == 0 {
		return
	}
	pending.mu.Lock()
	pending.printf = append(pending.printf, out...)
	pending.mu.Unlock()
}

// addAssert keeps a failed assert's line until the next synchronization.
func addAssert(line string) {
	pending.mu.Lock()
	pending.asserts = append(pending.asserts, line)
	pending.mu.Unlock()
}

// flushDeviceOutput prints the output kept since the last synchronization.
func flushDeviceOutput() {
	pending.mu.Lock()
	out, asserts := pending.printf, pending.asserts
	pending.printf, pending.asserts = nil, nil
	pending.mu.Unlock()
	if len(out) > 0 {
		C.ptx2go_write_stdout(unsafe.Pointer(&out[0]), C.size_t(len(out)))
	}
	for _, a := range asserts {
		line := []byte(a + "\n")
		C.ptx2go_write_stderr(unsafe.Pointer(&line[0]), C.size_t(len(line)))
	}
}

// synchronize is a synchronization point: it prints the pending device output and returns the
// sticky error, as cudaDeviceSynchronize does.
func synchronize() cudaError {
	flushDeviceOutput()
	return check()
}

// ptx2goAtExit prints the device output still pending when the program exits, and the
// sanitizer's leaks and summary (check.go); calls.c registers it with atexit when the library
// is loaded.
//
//export ptx2goAtExit
func ptx2goAtExit() {
	flushDeviceOutput()
	checkAtExit()
}
