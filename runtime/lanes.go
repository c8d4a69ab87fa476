package runtime

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Warp-wide memory accessors for generated code (codegen/gosrc). A generated instruction runs
// for all active lanes of a warp; these helpers do the part that needs the runtime's memory
// spaces: one address translation per warp when the lanes' accesses fall in one backing
// store, and the per-lane path, which reports out-of-bounds and misaligned accesses as faults
// naming the lane, otherwise.

// Space is a state space as the lane accessors address it.
type Space uint8

// The state spaces.
const (
	SpaceGlobal      Space = iota // global and const memory
	SpaceShared                   // the CTA's shared memory
	SpaceLocal                    // the lane's local memory
	SpaceGeneric                  // generic addresses: the shared and local windows, else global
	SpaceParam                    // the current frame's per-lane .param area
	SpaceKernelParam              // the launch's kernel parameters
)

// Reg returns the 32 lanes of register slot s of the current frame.
func (w *Warp) Reg(s int) *[WarpSize]uint64 {
	return (*[WarpSize]uint64)(w.R[s*WarpSize : s*WarpSize+WarpSize])
}

// Bytes returns the n bytes lane addresses at addr in space sp, or stops the launch with a
// fault naming loc, the lane and the address.
func (w *Warp) Bytes(sp Space, addr uint64, n, lane int, loc string) []byte {
	return w.bytes(sp, addr, n, lane, loc, false)
}

// StoreBytes is Bytes for a store, atomic or reduction: constant memory is a read-only fault.
func (w *Warp) StoreBytes(sp Space, addr uint64, n, lane int, loc string) []byte {
	return w.bytes(sp, addr, n, lane, loc, true)
}

func (w *Warp) bytes(sp Space, addr uint64, n, lane int, loc string, store bool) []byte {
	switch sp {
	case SpaceGlobal:
		if store {
			return w.GlobalStoreBytes(addr, n, lane, loc)
		}
		return w.GlobalBytes(addr, n, lane, loc)
	case SpaceShared:
		return w.SharedBytes(addr, n, lane, loc)
	case SpaceLocal:
		return w.LocalBytes(addr, n, lane, loc)
	case SpaceParam:
		return w.ParamBytes(int64(addr), n, lane, loc)
	case SpaceKernelParam:
		return w.KernelParamBytes(int64(addr), n, lane, loc)
	}
	if store {
		return w.GenericStoreBytes(addr, n, lane, loc)
	}
	return w.GenericBytes(addr, n, lane, loc)
}

// LoadBits reads 1, 2, 4 or 8 little-endian bytes. Aligned 4- and 8-byte words are read
// atomically (a plain move on amd64), so a word another CTA updates with atomics is never torn.
func LoadBits(b []byte) uint64 {
	switch len(b) {
	case 1:
		if raceEnabled {
			return loadSubword(b)
		}
		return uint64(b[0])
	case 2:
		if raceEnabled {
			return loadSubword(b)
		}
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(atomic.LoadUint32(AtomicU32(b)))
	}
	return atomic.LoadUint64(AtomicU64(b))
}

// StoreBits writes the low len(b) bytes of v, little-endian.
func StoreBits(b []byte, v uint64) {
	switch len(b) {
	case 1, 2:
		if raceEnabled {
			storeSubword(b, v)
			return
		}
		if len(b) == 1 {
			b[0] = byte(v)
		} else {
			binary.LittleEndian.PutUint16(b, uint16(v))
		}
	case 4:
		if raceEnabled {
			atomic.StoreUint32(AtomicU32(b), uint32(v))
			return
		}
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		if raceEnabled {
			atomic.StoreUint64(AtomicU64(b), v)
			return
		}
		binary.LittleEndian.PutUint64(b, v)
	}
}

// subword returns the aligned 4-byte word that holds the 1 or 2 bytes of b and their bit
// offset in it, or nil when a 2-byte access straddles two words.
func subword(b []byte) (*uint32, uint) {
	at := uintptr(unsafe.Pointer(&b[0])) & 3
	if at+uintptr(len(b)) > 4 {
		return nil, 0
	}
	return (*uint32)(unsafe.Add(unsafe.Pointer(&b[0]), -int(at))), uint(at * 8)
}

func loadSubword(b []byte) uint64 {
	w, sh := subword(b)
	if w == nil {
		return uint64(binary.LittleEndian.Uint16(b))
	}
	return uint64(atomic.LoadUint32(w)>>sh) & (1<<(8*len(b)) - 1)
}

func storeSubword(b []byte, v uint64) {
	w, sh := subword(b)
	if w == nil {
		binary.LittleEndian.PutUint16(b, uint16(v))
		return
	}
	mask := uint32(1<<(8*len(b))-1) << sh
	for {
		old := atomic.LoadUint32(w)
		if atomic.CompareAndSwapUint32(w, old, old&^mask|uint32(v)<<sh&mask) {
			return
		}
	}
}

// sext sign-extends the low n bytes of v to width bits (zero above width, as registers hold values).
func sext(v uint64, n, width int) uint64 {
	s := uint64(int64(v<<(64-8*n)) >> (64 - 8*n))
	if width < 64 {
		s &= 1<<width - 1
	}
	return s
}

// LoadUniform reads the n-byte element at addr, the same bytes for every lane (a kernel
// parameter, a .global, .const or .shared variable), once for the warp; faults name the
// first lane of m.
func (w *Warp) LoadUniform(sp Space, addr uint64, n int, m uint32, loc string) uint64 {
	return LoadBits(w.Bytes(sp, addr, n, bits.TrailingZeros32(m)&(WarpSize-1), loc))
}

// LoadLanes reads, for each lane l of m, the n-byte element (n = 1, 2, 4 or 8) at address
// A[l]&amask+off of space sp into D[l], sign-extended to sextWidth bits when sextWidth > 0.
// A nil A means every lane addresses off (a lane-private space: local or a function's .param).
// Lanes reading consecutive elements of one global or shared store are translated once.
func (w *Warp) LoadLanes(sp Space, D, A *[WarpSize]uint64, amask, off uint64, n int, sextWidth int, m uint32, loc string) {
	if A != nil && sextWidth == 0 && (n == 4 || n == 8) {
		if b := w.contiguous(sp, A, amask, off, n, m, false); b != nil {
			if n == 4 {
				c := (*[WarpSize * 4]byte)(b)
				for l := range WarpSize {
					D[l] = uint64(binary.LittleEndian.Uint32(c[4*l:]))
				}
			} else {
				c := (*[WarpSize * 8]byte)(b)
				for l := range WarpSize {
					D[l] = binary.LittleEndian.Uint64(c[8*l:])
				}
			}
			return
		}
		if mem, mb := w.span(sp, A, amask, off, n, m, false); mem != nil {
			at := off - mb
			if n == 4 {
				for mm := m; mm != 0; mm &= mm - 1 {
					l := bits.TrailingZeros32(mm) & (WarpSize - 1)
					D[l] = uint64(atomic.LoadUint32(AtomicU32(mem[A[l]&amask+at:])))
				}
			} else {
				for mm := m; mm != 0; mm &= mm - 1 {
					l := bits.TrailingZeros32(mm) & (WarpSize - 1)
					D[l] = atomic.LoadUint64(AtomicU64(mem[A[l]&amask+at:]))
				}
			}
			return
		}
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		v := LoadBits(w.Bytes(sp, addr, n, l, loc))
		if sextWidth > 0 {
			v = sext(v, n, sextWidth)
		}
		D[l] = v
	}
}

// StoreLanes writes, for each lane l of m, the low n bytes of S[l] to address A[l]&amask+off
// of space sp (A nil: off in every lane's own memory), lanes in increasing order.
func (w *Warp) StoreLanes(sp Space, S, A *[WarpSize]uint64, amask, off uint64, n int, m uint32, loc string) {
	if A != nil {
		if b := w.contiguous(sp, A, amask, off, n, m, true); b != nil && (n == 4 || n == 8) {
			if n == 4 {
				c := (*[WarpSize * 4]byte)(b)
				for l := range WarpSize {
					binary.LittleEndian.PutUint32(c[4*l:], uint32(S[l]))
				}
			} else {
				c := (*[WarpSize * 8]byte)(b)
				for l := range WarpSize {
					binary.LittleEndian.PutUint64(c[8*l:], S[l])
				}
			}
			return
		}
		if mem, mb := w.span(sp, A, amask, off, n, m, true); mem != nil {
			at := off - mb
			for mm := m; mm != 0; mm &= mm - 1 {
				l := bits.TrailingZeros32(mm) & (WarpSize - 1)
				StoreBits(mem[A[l]&amask+at:][:n], S[l])
			}
			return
		}
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		StoreBits(w.StoreBytes(sp, addr, n, l, loc), S[l])
	}
}

// contiguous returns the 32*n bytes a full warp accesses when lane l addresses A[0]&amask+off+n*l
// (the pattern of a[threadIdx.x]) and they are aligned and inside one global allocation or the
// CTA's shared memory (a writable one for a store); else nil. Race builds always get nil: their
// accesses go through sync/atomic one by one.
func (w *Warp) contiguous(sp Space, A *[WarpSize]uint64, amask, off uint64, n int, m uint32, store bool) []byte {
	if raceEnabled || m != ^uint32(0) || sp != SpaceGlobal && sp != SpaceGeneric && sp != SpaceShared {
		return nil
	}
	lo := A[0]&amask + off
	a, diff := lo, uint64(0)
	for l := range WarpSize {
		diff |= (A[l]&amask + off) ^ a
		a += uint64(n)
	}
	size := uint64(WarpSize * n)
	if diff != 0 || lo&uint64(n-1) != 0 || lo+size < lo {
		return nil
	}
	if sp == SpaceShared {
		if s := w.CTA.Shared; lo < uint64(len(s)) && uint64(len(s))-lo >= size {
			return s[lo:][:size]
		}
		return nil
	}
	mem, mb := w.globalSpan(lo, lo+size, store)
	if mem == nil {
		if mem, mb = w.FarGlobalSpan(lo, lo+size); mem == nil {
			return nil
		}
	}
	return mem[lo-mb:][:size]
}

// span returns the backing store holding the n-byte access of every lane of m at
// A[l]&amask+off, and the address of its first byte, when the space allows one translation
// per warp (global, generic addresses in one global allocation, shared) and every access is
// aligned and in bounds (and writable for a store); else nil, and the caller goes lane by lane,
// reporting any fault.
func (w *Warp) span(sp Space, A *[WarpSize]uint64, amask, off uint64, n int, m uint32, store bool) ([]byte, uint64) {
	if sp != SpaceGlobal && sp != SpaceGeneric && sp != SpaceShared {
		return nil, 0
	}
	lo, hi, any := ^uint64(0), uint64(0), uint64(0)
	if m == ^uint32(0) {
		for l := range WarpSize {
			a := A[l]&amask + off
			lo, hi, any = min(lo, a), max(hi, a), any|a
		}
	} else {
		for mm := m; mm != 0; mm &= mm - 1 {
			a := A[bits.TrailingZeros32(mm)&(WarpSize-1)]&amask + off
			lo, hi, any = min(lo, a), max(hi, a), any|a
		}
	}
	if any&uint64(n-1) != 0 || hi+uint64(n) < hi {
		return nil, 0
	}
	if sp == SpaceShared {
		if s := w.CTA.Shared; hi < uint64(len(s)) && uint64(len(s))-hi >= uint64(n) {
			return s, 0
		}
		return nil, 0
	}
	if mem, mb := w.globalSpan(lo, hi+uint64(n), store); mem != nil {
		return mem, mb
	}
	return w.FarGlobalSpan(lo, hi+uint64(n))
}

// globalSpan is the device's Span, or its writable span for a store.
func (w *Warp) globalSpan(lo, hi uint64, store bool) ([]byte, uint64) {
	if store {
		return w.CTA.L.Dev.writableSpan(lo, hi)
	}
	return w.CTA.L.Dev.Span(lo, hi)
}

// Broadcast writes v to the lanes of m of D.
func Broadcast(D *[WarpSize]uint64, m uint32, v uint64) {
	if m == ^uint32(0) {
		for l := range D {
			D[l] = v
		}
		return
	}
	for ; m != 0; m &= m - 1 {
		D[bits.TrailingZeros32(m)&(WarpSize-1)] = v
	}
}

// IsGlobalGeneric reports whether a generic address lies outside the shared, local and kernel
// parameter windows, that is, in global memory.
func IsGlobalGeneric(addr uint64) bool {
	return addr-uint64(SharedWindow) >= WindowSize && addr-uint64(LocalWindow) >= WindowSize && !InParamWindow(addr)
}

// AtomicRMW replaces the 2, 4 or 8 bytes of global memory mem at device address addr by
// f(old, b, c) atomically and returns old. A 16-bit value is updated through the aligned
// 32-bit word that holds it: device allocations are 8-byte aligned on the host as on the
// device, so that word lies inside the same allocation.
func AtomicRMW(mem []byte, addr uint64, f func(o, b, c uint64) uint64, b, c uint64) uint64 {
	switch len(mem) {
	case 2:
		shift := (addr & 2) * 8
		p := (*uint32)(unsafe.Add(unsafe.Pointer(&mem[0]), -int(addr&2)))
		for {
			word := atomic.LoadUint32(p)
			old := uint64(word>>shift) & 0xffff
			nw := word&^(0xffff<<shift) | uint32(f(old, b, c)&0xffff)<<shift
			if atomic.CompareAndSwapUint32(p, word, nw) {
				return old
			}
		}
	case 4:
		p := AtomicU32(mem)
		for {
			old := atomic.LoadUint32(p)
			if atomic.CompareAndSwapUint32(p, old, uint32(f(uint64(old), b, c))) {
				return uint64(old)
			}
		}
	}
	p := AtomicU64(mem)
	for {
		old := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, old, f(old, b, c)) {
			return old
		}
	}
}

// AtomLanes runs an n-byte atom or red (n = 2, 4 or 8) for each lane l of m in increasing
// lane order, as codegen/closure does: the word at A[l]&amask+off of space sp (A nil: off)
// becomes f(old, B[l], C[l]) (operands cut to n bytes) and, when D is not nil, D[l] gets
// old. Global memory, and generic addresses that reach it, is updated with sync/atomic since
// other CTAs run in parallel; shared and local memory belong to the warp's goroutine.
func (w *Warp) AtomLanes(sp Space, f func(o, b, c uint64) uint64, D, A, B, C *[WarpSize]uint64, amask, off uint64, n int, m uint32, loc string) {
	mask := ^uint64(0)
	if n < 8 {
		mask = 1<<(8*n) - 1
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		mem := w.StoreBytes(sp, addr, n, l, loc)
		b, c := B[l]&mask, C[l]&mask
		var old uint64
		if sp == SpaceGlobal || sp == SpaceGeneric && IsGlobalGeneric(addr) {
			old = AtomicRMW(mem, addr, f, b, c)
		} else {
			old = LoadBits(mem)
			StoreBits(mem, f(old, b, c)&mask)
		}
		if D != nil {
			D[l] = old
		}
	}
}

// LoadVector reads, for each lane l of m, a vector of len(D) n-byte elements at
// A[l]&amask+off of space sp (A nil: off), one access of len(D)*n bytes aligned to its size,
// into D[i][l], sign-extended to sextWidth bits when sextWidth > 0; a nil D[i] (an element
// written as _) is not kept.
func (w *Warp) LoadVector(sp Space, D []*[WarpSize]uint64, A *[WarpSize]uint64, amask, off uint64, n, sextWidth int, m uint32, loc string) {
	size := n * len(D)
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		b := w.Bytes(sp, addr, size, l, loc)
		for i, d := range D {
			if d == nil {
				continue
			}
			v := LoadBits(b[i*n : i*n+n])
			if sextWidth > 0 {
				v = sext(v, n, sextWidth)
			}
			d[l] = v
		}
	}
}

// StoreVector writes, for each lane l of m, the low n bytes of S[i][l] as element i of the
// vector at A[l]&amask+off of space sp (A nil: off), one access of len(S)*n bytes aligned to
// its size, lanes in increasing order; a nil S[i] (an element written as _) is not stored.
func (w *Warp) StoreVector(sp Space, S []*[WarpSize]uint64, A *[WarpSize]uint64, amask, off uint64, n int, m uint32, loc string) {
	size := n * len(S)
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		b := w.StoreBytes(sp, addr, size, l, loc)
		for i, s := range S {
			if s != nil {
				StoreBits(b[i*n:i*n+n], s[l])
			}
		}
	}
}

// AtomVectorLanes runs a vector atom or red (.v2/.v4/.v8 of n-byte elements, n = 2, 4) for
// each lane l of m in increasing lane order, as codegen/closure does: the vector at
// A[l]&amask+off (A nil: off) must lie in global memory, aligned to its whole size, and each
// element i is a separate atomic update to f(old, B[i][l]); when D[i] is not nil, D[i][l] gets
// the old value. Every operand is read before any old value is written (D may name them).
func (w *Warp) AtomVectorLanes(f func(o, b, c uint64) uint64, D, B []*[WarpSize]uint64, A *[WarpSize]uint64, amask, off uint64, n int, m uint32, loc string) {
	mask := uint64(1)<<(8*n) - 1
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		mem := w.GlobalBytes(addr, len(B)*n, l, loc)
		var b [8]uint64
		for i, s := range B {
			b[i] = s[l] & mask
		}
		for i := range B {
			old := AtomicRMW(mem[i*n:i*n+n], addr+uint64(i*n), f, b[i], 0)
			if D != nil && D[i] != nil {
				D[i][l] = old
			}
		}
	}
}
