package runtime

import (
	"syscall"
	"unsafe"
)

// mapAnon maps n zeroed bytes of private anonymous memory, which the kernel backs lazily
// (MAP_NORESERVE: untouched pages cost nothing), at exactly addr when addr is not 0; it
// returns nil when that fails.
func mapAnon(addr uintptr, n int) []byte {
	flags := uintptr(syscall.MAP_PRIVATE | syscall.MAP_ANONYMOUS | syscall.MAP_NORESERVE)
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, uintptr(n), syscall.PROT_READ|syscall.PROT_WRITE, flags, ^uintptr(0), 0)
	if errno != 0 {
		return nil
	}
	m := unsafeSlice(*(**byte)(unsafe.Pointer(&r)), n)
	if addr != 0 && r != addr {
		unmapAnon(m) // the hint was taken: the host placed it elsewhere
		return nil
	}
	return m
}

// adviseHugePages asks the kernel to back a mapping with huge pages where its policy leaves
// that to the program (transparent_hugepage "madvise"): a kernel streaming through arrays of
// megabytes then takes a TLB miss every 2 MiB instead of every 4 KiB.
func adviseHugePages(m []byte) {
	syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), madvHugePage)
}

// madvHugePage is Linux's MADV_HUGEPAGE.
const madvHugePage = 14

// unmapAnon unmaps a mapping mapAnon made.
func unmapAnon(m []byte) {
	syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), 0)
}

func unsafeSlice(p *byte, n int) []byte { return unsafe.Slice(p, n) }
