package main

// #include <stdlib.h>
// #include "cudart.h"
// int ptx2go_dladdr(void *pc, char **obj, void **obj_base, char **sym, void **sym_addr);
import "C"

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"unsafe"

	"github.com/ptx2go/ptx2go/runtime"
)

// The sanitizer in the drop-in (ptx2go exec -check, issue 33). $PTX2GO_CHECK names the tools
// (racecheck, synccheck, initcheck, leakcheck or all); with any on, modules are compiled with
// the check hooks and every launch runs the kernel tools, initcheck follows which bytes of each
// allocation the program's copies and memsets wrote, and leakcheck lists at exit the device
// allocations the program made and never freed. Reports go to standard error in
// compute-sanitizer's layout as launches find them; at exit the leaks and the "ERROR SUMMARY"
// line follow, and the number of errors is written to $PTX2GO_CHECK_STATUS when it names a
// file, so that ptx2go exec can make the exit status non-zero.

// checks is the drop-in's sanitizer state.
var checks struct {
	tools  runtime.CheckTools
	mu     sync.Mutex
	errors int
	done   bool
}

// initChecks reads $PTX2GO_CHECK when the library is loaded, before the program allocates.
func initChecks(dev *runtime.Device) {
	s := os.Getenv("PTX2GO_CHECK")
	if s == "" {
		return
	}
	t, err := runtime.ParseCheckTools(s)
	if err != nil {
		warnf("PTX2GO_CHECK: %v", err)
		return
	}
	if t == 0 {
		return
	}
	checks.tools = t
	dev.EnableChecks(t)
	writeStderr("========= COMPUTE-SANITIZER (ptx2go: " + t.String() + ")\n")
}

// checking reports whether modules get check hooks.
func checking() bool { return checks.tools != 0 }

// checkedLaunch prints a checked launch's reports and returns the fault that stopped it, if
// one did (err itself when it is no *CheckError).
func checkedLaunch(err error) error {
	ce, ok := errors.AsType[*runtime.CheckError](err)
	if !ok {
		return err
	}
	var b bytes.Buffer
	runtime.WriteCheckReports(&b, ce.Reports)
	writeStderr(b.String())
	checks.mu.Lock()
	checks.errors += len(ce.Reports)
	checks.mu.Unlock()
	return ce.Fault
}

// allocated names the host call that made the device allocation at p, for leakcheck. caller
// is the program's return address when the entry point's C wrapper recovered it, else nil.
func allocated(p runtime.Ptr, call string, caller unsafe.Pointer) {
	if checks.tools&runtime.CheckLeak == 0 {
		return
	}
	origin := call
	if where := symbolize(caller); where != "" {
		origin += " called from " + where
	}
	device().SetAllocOrigin(p, origin)
}

// symbolize names the code address pc: symbol+offset in its object (dladdr), or the object
// and offset when the symbol is not exported, "" for nil.
func symbolize(pc unsafe.Pointer) string {
	if pc == nil {
		return ""
	}
	var obj, sym *C.char
	var objBase, symAddr unsafe.Pointer
	if C.ptx2go_dladdr(pc, &obj, &objBase, &sym, &symAddr) == 0 {
		return fmt.Sprintf("%#x", uintptr(pc))
	}
	file := C.GoString(obj)
	if sym != nil {
		return fmt.Sprintf("%s+%#x (%s)", C.GoString(sym), uintptr(pc)-uintptr(symAddr), file)
	}
	off := uint64(uintptr(pc) - uintptr(objBase))
	if name, at, ok := elfSymbol(file, off, uint64(uintptr(objBase))); ok {
		return fmt.Sprintf("%s+%#x (%s)", name, off-at, file)
	}
	return fmt.Sprintf("%s+%#x", file, off)
}

// elfSymbol finds the function of the object file that holds the code at offset off from its
// load address base, in its symbol table (a program's own functions are not in the dynamic
// symbols dladdr reads): its name and offset. A position-dependent program's symbols are
// absolute addresses.
func elfSymbol(file string, off, base uint64) (string, uint64, bool) {
	f, err := elf.Open(file)
	if err != nil {
		return "", 0, false
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return "", 0, false
	}
	if f.Type == elf.ET_EXEC {
		off += base
	}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value <= off && off < s.Value+max(s.Size, 1) {
			at := s.Value
			if f.Type == elf.ET_EXEC {
				at -= base
			}
			return s.Name, at, true
		}
	}
	return "", 0, false
}

// wroteDevice tells initcheck that the drop-in wrote the n bytes at p itself (a
// device-to-device copy, a driver memset); the caller holds the device (Acquire).
func wroteDevice(dev *runtime.Device, p uint64, n int) {
	if checks.tools&runtime.CheckInit != 0 {
		dev.Wrote(runtime.Ptr(p), n)
	}
}

// checkAtExit prints the leaks and the error summary when the program exits, and writes the
// number of errors to $PTX2GO_CHECK_STATUS.
func checkAtExit() {
	if !checking() {
		return
	}
	checks.mu.Lock()
	if checks.done {
		checks.mu.Unlock()
		return
	}
	checks.done = true
	checks.mu.Unlock()
	leaks := device().LeakReports()
	var b bytes.Buffer
	runtime.WriteCheckReports(&b, leaks)
	if len(leaks) > 0 {
		total := 0
		for _, r := range leaks {
			total += r.Size
		}
		fmt.Fprintf(&b, "========= LEAK SUMMARY: %d bytes leaked in %d allocations\n", total, len(leaks))
	}
	checks.mu.Lock()
	n := checks.errors + len(leaks)
	checks.mu.Unlock()
	runtime.WriteCheckSummary(&b, n)
	writeStderr(b.String())
	if f := os.Getenv("PTX2GO_CHECK_STATUS"); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(n)+"\n"), 0o666); err != nil {
			warnf("PTX2GO_CHECK_STATUS: %v", err)
		}
	}
}

// writeStderr writes s through C's stderr, in order with the program's own output.
func writeStderr(s string) {
	if s == "" {
		return
	}
	b := []byte(s)
	C.ptx2go_write_stderr(unsafe.Pointer(&b[0]), C.size_t(len(b)))
}
