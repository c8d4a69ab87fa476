package runtime

import (
	"math/bits"
	"sync/atomic"
)

// The 128-bit accesses of the .b128 forms, shared by both engines: a .b128 register is two
// consecutive register slots, its low 64 bits first. Every lane's 16 bytes must be 16-byte
// aligned (a misaligned fault otherwise, as for the other sizes).

// LoadLanes128 is ld.b128: for each lane l of m, the 16 bytes at A[l]&amask+off of space sp
// (A nil: off) into D0[l] (low half) and D1[l].
func (w *Warp) LoadLanes128(sp Space, D0, D1, A *[WarpSize]uint64, amask, off uint64, m uint32, loc string) {
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m) & (WarpSize - 1)
		b := w.Bytes(sp, lanesAddr(A, amask, off, l), 16, l, loc)
		D0[l], D1[l] = LoadBits(b[:8]), LoadBits(b[8:16])
	}
}

// StoreLanes128 is st.b128, the converse of LoadLanes128.
func (w *Warp) StoreLanes128(sp Space, A, S0, S1 *[WarpSize]uint64, amask, off uint64, m uint32, loc string) {
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m) & (WarpSize - 1)
		b := w.Bytes(sp, lanesAddr(A, amask, off, l), 16, l, loc)
		StoreBits(b[:8], S0[l])
		StoreBits(b[8:16], S1[l])
	}
}

// AtomLanes128 is atom.cas.b128 (cas) and atom.exch.b128 for each lane l of m in lane order:
// exch stores {B0, B1}, cas stores {C0, C1} when the old value equals {B0, B1}; {D0, D1} gets
// the old value. In global memory (and generic addresses that reach it) each lane holds the
// device's lock for the 16-byte word (Lock128); shared and local memory belong to the CTA's
// goroutine.
func (w *Warp) AtomLanes128(sp Space, cas bool, D0, D1, A, B0, B1, C0, C1 *[WarpSize]uint64, amask, off uint64, m uint32, loc string) {
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m) & (WarpSize - 1)
		addr := lanesAddr(A, amask, off, l)
		mem := w.Bytes(sp, addr, 16, l, loc)
		lo, hi := AtomicU64(mem[:8]), AtomicU64(mem[8:16])
		if sp == SpaceGlobal || sp == SpaceGeneric && IsGlobalGeneric(addr) {
			mu := w.Lock128(addr)
			mu.Lock()
			D0[l], D1[l] = Swap128(lo, hi, cas, B0[l], B1[l], C0[l], C1[l])
			mu.Unlock()
		} else {
			D0[l], D1[l] = Swap128(lo, hi, cas, B0[l], B1[l], C0[l], C1[l])
		}
	}
}

func lanesAddr(A *[WarpSize]uint64, amask, off uint64, l int) uint64 {
	if A == nil {
		return off
	}
	return A[l]&amask + off
}

// Swap128 is the body of atom.cas.b128 (cas) or atom.exch.b128 on the 16 bytes whose halves
// are lo and hi: for exch it stores b; for cas it stores c when the old value equals b. It
// returns the old value. Each half is read and written with sync/atomic, so plain 64-bit
// accesses to it never see it torn; callers on shared words hold the word's lock.
func Swap128(lo, hi *uint64, cas bool, b0, b1, c0, c1 uint64) (old0, old1 uint64) {
	old0, old1 = atomic.LoadUint64(lo), atomic.LoadUint64(hi)
	if cas {
		if old0 != b0 || old1 != b1 {
			return old0, old1
		}
		b0, b1 = c0, c1
	}
	atomic.StoreUint64(lo, b0)
	atomic.StoreUint64(hi, b1)
	return old0, old1
}
