package runtime

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// CpAsync is cp.async.{ca,cg}.shared.global [dst], [src], n{, src-size | ignore-src}: for
// each lane l of m in increasing lane order, the n bytes (4, 8 or 16) of shared memory at
// D[l]&dmask+doff (D nil: doff) get the first src-size bytes at global address
// S[l]&smask+soff (S nil: soff), src-size being Z[l] as a .u32 (Z nil: n), and zeros after
// them; a lane of ignore reads nothing and writes n zeros (ignore-src true).
//
// The copy runs at issue time. PTX only guarantees the data visible after
// cp.async.wait_group, cp.async.wait_all or the completion of an mbarrier phase that a
// cp.async.mbarrier.arrive tracks, so copying at once is one legal execution, and those
// instructions have no data left to move. Both addresses must be aligned to n, the
// destination must lie in the CTA's shared memory and the bytes read in global memory
// (out-of-bounds and misaligned faults, as for ld and st); a src-size above n is undefined in
// PTX and faults as an illegal operation. A lane's faults come before it writes anything.
func (w *Warp) CpAsync(D *[WarpSize]uint64, dmask, doff uint64, S *[WarpSize]uint64, smask, soff uint64, n int, Z *[WarpSize]uint64, ignore, m uint32, loc string) {
	for ; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m) & (WarpSize - 1)
		size := uint64(n)
		if Z != nil {
			if size = uint64(uint32(Z[l])); size > uint64(n) {
				w.Fault(FaultIllegal, loc, l, fmt.Sprintf("cp.async src-size %d larger than cp-size %d", size, n))
			}
		}
		dst := w.SharedBytes(lanesAddr(D, dmask, doff, l), n, l, loc)
		var buf [24]byte // 16 and room for an 8-byte piece at any offset
		if ignore&(1<<l) == 0 {
			src := lanesAddr(S, smask, soff, l)
			if src&uint64(n-1) != 0 {
				w.addrFault(FaultMisaligned, loc, l, "global", src, "")
			}
			// The src-size bytes as aligned pieces of 8, 4, 2 and 1 bytes, so that only the
			// bytes read must lie in global memory.
			for k := uint64(0); k < size; {
				c := uint64(1) << (bits.Len64(min(size-k, 8)) - 1)
				binary.LittleEndian.PutUint64(buf[k:], LoadBits(w.GlobalBytes(src+k, int(c), l, loc)))
				k += c
			}
			clear(buf[size:])
		}
		step := min(n, 8)
		for k := 0; k < n; k += step {
			StoreBits(dst[k:k+step], binary.LittleEndian.Uint64(buf[k:]))
		}
	}
}
