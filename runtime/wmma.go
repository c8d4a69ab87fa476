package runtime

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ptx2go/ptx2go/runtime/isa"
)

// WmmaFrag is a wmma fragment: matrix_a, matrix_b or the accumulator (c and d).
type WmmaFrag uint8

// The fragments.
const (
	WmmaA WmmaFrag = iota
	WmmaB
	WmmaC // c, and d of wmma.store.d
)

// WmmaShape is a wmma shape: m16n16k16 (m16n16k8 for .tf32, m8n8k4 for .f64), m32n8k16 or
// m8n32k16.
type WmmaShape uint8

// The shapes.
const (
	WmmaSquare WmmaShape = iota
	WmmaM32N8
	WmmaM8N32
)

// The wmma fragments are opaque in PTX: only wmma.load, wmma.mma and wmma.store read or
// write them, so any layout they agree on is correct. This one holds logical matrix
// elements, whatever the memory layout (.row or .col) they were loaded with. Numbering a
// fragment's elements row-major, lane l's register r, part h (the half of a 16-bit type,
// the byte of an 8-bit one, the low part first) holds element (l*n + r)*p + h modulo the
// fragment's size, n being the lane's registers (WmmaRegs) and p the elements a register
// holds. So:
//
//	a (16x16 .f16, 8 registers):  lane l, register r, half h: element (l%16, 2r+h)
//	c, d .f32 (8 registers):      lane l, register r:         element (l/2, 8(l%2)+r)
//	c, d .f16 (4 registers):      lane l, register r, half h: element (l/2, 8(l%2)+2r+h)
//	a, b .bf16 (4 registers):     lane l, register r, half h: element 8l+2r+h
//	a, b .s8, .u8 (2 registers):  lane l, register r, byte h: element 8l+4r+h
//	.f64 (m8n8k4):                lane l holds element l of a and b, 2l and 2l+1 of c and d
//
// The one exception is b of .f16 m16n16k16, lane l, register r, half h: element (2r+h, l%16).
// Every element is held once, but for .f16 a and b, which have 8 registers whatever their
// size and hold 2 or 4 copies: wmma.mma reads the lowest lane's (lanes 0-15 for m16n16k16).

// WmmaRegs returns how many registers a lane holds of fragment f of type t in shape sh.
func WmmaRegs(f WmmaFrag, t isa.MatType, sh WmmaShape) int {
	switch {
	case t == isa.MatF64:
		if f == WmmaC {
			return 2
		}
		return 1
	case f == WmmaC && t == isa.MatF16:
		return 4
	case f == WmmaC || t == isa.MatF16:
		return 8
	}
	rows, cols := WmmaDims(f, t, sh)
	return rows * cols * wmmaElemSize(t) / (4 * WarpSize)
}

// WmmaDims returns the rows and columns of fragment f's matrix for elements of type t in
// shape sh: a is MxK, b KxN, c and d MxN: M and N 32 and 8 (m32n8k16), 8 and 32 (m8n32k16)
// or 16 (the others), K 8 for .tf32 (m16n16k8) and 16 otherwise; for .f64 (m8n8k4) a is
// 8x4, b 4x8, c and d 8x8.
func WmmaDims(f WmmaFrag, t isa.MatType, sh WmmaShape) (rows, cols int) {
	if sh != WmmaSquare {
		m, n := 32, 8
		if sh == WmmaM8N32 {
			m, n = 8, 32
		}
		switch f {
		case WmmaA:
			return m, 16
		case WmmaB:
			return 16, n
		}
		return m, n
	}
	if t == isa.MatF64 {
		switch f {
		case WmmaA:
			return 8, 4
		case WmmaB:
			return 4, 8
		}
		return 8, 8
	}
	k := 16
	if t == isa.MatTF32 {
		k = 8
	}
	switch f {
	case WmmaA:
		return 16, k
	case WmmaB:
		return k, 16
	}
	return 16, 16
}

// wmmaElemSize is the size in bytes of an element of type t in memory.
func wmmaElemSize(t isa.MatType) int {
	switch t {
	case isa.MatS8, isa.MatU8:
		return 1
	case isa.MatF16, isa.MatBF16:
		return 2
	case isa.MatF64:
		return 8
	}
	return 4
}

// wmmaElem returns the element (row, column) that part h (a half, or an 8-bit type's byte) of
// register r of lane l holds (the layout above).
func wmmaElem(f WmmaFrag, t isa.MatType, sh WmmaShape, l, r, h int) (int, int) {
	if sh == WmmaSquare && f == WmmaB && t == isa.MatF16 {
		return 2*r + h, l % 16
	}
	rows, cols := WmmaDims(f, t, sh)
	per := max(1, 4/wmmaElemSize(t))
	e := ((l*WmmaRegs(f, t, sh)+r)*per + h) % (rows * cols)
	return e / cols, e % cols
}

// wmmaMatrix checks that every lane of the warp executes a wmma.load or wmma.store (m) and
// passes the same address and stride, and returns the byte address of each element (i, j)
// of fragment frag's matrix (WmmaDims) of esize-byte elements at A[l]&amask+off (A nil: off)
// with the stride register slot s (.u32 elements between rows, .row, or columns, col).
func (w *Warp) wmmaMatrix(what string, frag WmmaFrag, t isa.MatType, sh WmmaShape, A *[WarpSize]uint64, amask, off uint64, s int, col bool, esize int, m uint32, loc string) (addr [32][32]uint64) {
	w.alignedWarp(m, what, loc)
	p, S := lanesAddr(A, amask, off, 0), w.Reg(s)
	stride := uint64(uint32(S[0]))
	for l := 1; l < WarpSize; l++ {
		if q := lanesAddr(A, amask, off, l); q != p || uint64(uint32(S[l])) != stride {
			w.Fault(FaultIllegal, loc, l, fmt.Sprintf("%s: lane %d's address %#x and stride %d differ from lane 0's %#x and %d", what, l, q, uint32(S[l]), p, stride))
		}
	}
	// The ISA: each row (or column) must start at a multiple of the fragment's size in bytes,
	// so the matrix's address and its stride in bytes both must be such multiples. The
	// m32n8k16 and m8n32k16 shapes' default strides break that rule for some fragments (an
	// .f16 a of m8n32k16 has 32 bytes, its column-major rows start 16 bytes apart), so there
	// CUDA's rule for wmma::load_matrix_sync holds instead: multiples of 16 bytes.
	regBytes := uint64(4)
	if t == isa.MatF64 {
		regBytes = 8
	}
	size := regBytes * uint64(WmmaRegs(frag, t, sh))
	if sh != WmmaSquare {
		size = 16
	}
	if p%size != 0 || stride*uint64(esize)%size != 0 {
		w.addrFault(FaultMisaligned, loc, firstLane(m), "", p, fmt.Sprintf("%s: rows or columns %d bytes apart must each start at a multiple of %d bytes", what, stride*uint64(esize), size))
	}
	rows, cols := WmmaDims(frag, t, sh)
	for i := range rows {
		for j := range cols {
			k := uint64(i)*stride + uint64(j)
			if col {
				k = uint64(i) + uint64(j)*stride
			}
			addr[i][j] = p + k*uint64(esize)
		}
	}
	return addr
}

// WmmaLoad runs wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.ss}.type d, [p]{, stride} for
// the lanes m (all of the warp): it reads the matrix (WmmaDims) of type t and shape sh in space sp at
// address A[l]&amask+off (A nil: off) with the .u32 stride in register slot s (in elements;
// the same in every lane, as the address) and row-major (col false) or column-major, into
// the registers d of every lane (the fragment layout above). Faults of the reads (bounds,
// alignment to the element size) name lane 0.
func (w *Warp) WmmaLoad(f WmmaFrag, t isa.MatType, sh WmmaShape, col bool, sp Space, d [8]int, A *[WarpSize]uint64, amask, off uint64, s int, m uint32, loc string) {
	if m == 0 {
		return
	}
	esize := wmmaElemSize(t)
	addr := w.wmmaMatrix("wmma.load", f, t, sh, A, amask, off, s, col, esize, m, loc)
	var v [32][32]uint64
	rows, cols := WmmaDims(f, t, sh)
	for i := range rows {
		for j := range cols {
			b := w.Bytes(sp, addr[i][j], esize, 0, loc)
			switch esize {
			case 1:
				v[i][j] = uint64(b[0])
			case 2:
				v[i][j] = uint64(binary.LittleEndian.Uint16(b))
			default:
				v[i][j] = LoadBits(b)
			}
		}
	}
	n := WmmaRegs(f, t, sh)
	for r := range n {
		D := w.Reg(d[r])
		for l := range WarpSize {
			if esize >= 4 {
				i, j := wmmaElem(f, t, sh, l, r, 0)
				D[l] = v[i][j]
				continue
			}
			var x uint64
			for h := range 4 / esize {
				i, j := wmmaElem(f, t, sh, l, r, h)
				x |= v[i][j] << (8 * esize * h)
			}
			D[l] = x
		}
	}
}

// WmmaStore runs wmma.store.d.sync.aligned.{row,col}.shape{.ss}.type [p], r{, stride} for the
// lanes m (all of the warp), the inverse of WmmaLoad for the accumulator: the matrix of type
// t and shape sh that the registers r of the warp hold is written at the address with the
// stride. Every address is checked (bounds, alignment, constant memory) before any is written;
// the elements are then written in row-major order (a stride below 16 overlaps them).
func (w *Warp) WmmaStore(t isa.MatType, sh WmmaShape, col bool, sp Space, r [8]int, A *[WarpSize]uint64, amask, off uint64, s int, m uint32, loc string) {
	if m == 0 {
		return
	}
	esize := wmmaElemSize(t)
	addr := w.wmmaMatrix("wmma.store", WmmaC, t, sh, A, amask, off, s, col, esize, m, loc)
	var v [32][32]uint64
	for k := range WmmaRegs(WmmaC, t, sh) {
		R := w.Reg(r[k])
		for l := range WarpSize {
			switch esize {
			case 4:
				i, j := wmmaElem(WmmaC, t, sh, l, k, 0)
				v[i][j] = uint64(uint32(R[l]))
			case 8:
				i, j := wmmaElem(WmmaC, t, sh, l, k, 0)
				v[i][j] = R[l]
			default:
				for h := range 2 {
					i, j := wmmaElem(WmmaC, t, sh, l, k, h)
					v[i][j] = R[l] >> (16 * h) & 0xffff
				}
			}
		}
	}
	rows, cols := WmmaDims(WmmaC, t, sh)
	for i := range rows {
		for j := range cols {
			w.StoreBytes(sp, addr[i][j], esize, 0, loc)
		}
	}
	for i := range rows {
		for j := range cols {
			StoreBits(w.StoreBytes(sp, addr[i][j], esize, 0, loc), v[i][j])
		}
	}
}

// WmmaMma runs wmma.mma.sync.aligned.{row,col}.{row,col}.{m16n16k16,m32n8k16,m8n32k16}.{dt}.{ct} d, a, b, c (A and
// B of type it .f16) and wmma.mma.sync.aligned.{row,col}.{row,col}.{m16n16k16.f32.bf16.bf16,
// m16n16k8.f32.tf32.tf32}.f32 d, a, b, c (and m8n8k4.f64.f64.f64.f64.rn, wmmaMmaF64) for the
// lanes m (all of the warp) in shape sh: D = A*B + C on A (MxK) and B (KxN) of type it
// (WmmaDims; .bf16 also in the other shapes), each element isa.MmaDot over K rounded once by
// isa.MatRound, as mma.sync (a .tf32 input ignores its low 13 mantissa bits). The fragments
// hold logical elements, so the layouts named here need no work. All registers are read
// before any is written (d may be c).
func (w *Warp) WmmaMma(it, ct, dt isa.MatType, sh WmmaShape, d, a, b, c [8]int, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "wmma.mma.sync.aligned", loc)
	if it == isa.MatF64 {
		w.wmmaMmaF64(d, a, b, c)
		return
	}
	if it == isa.MatS8 || it == isa.MatU8 {
		panic("runtime: WmmaMma on integer fragments: use WmmaMmaInt")
	}
	var A, B, C [32][32]float64
	halves := 2
	if it == isa.MatTF32 {
		halves = 1
	}
	// Lanes from the last: an element that several lanes hold (.f16 a and b) comes from the
	// lowest of them.
	for l := WarpSize - 1; l >= 0; l-- {
		for r := range WmmaRegs(WmmaA, it, sh) {
			ra := uint32(w.Reg(a[r])[l])
			for h := range halves {
				i, j := wmmaElem(WmmaA, it, sh, l, r, h)
				A[i][j] = isa.MatElem(it, ra, h)
			}
		}
		for r := range WmmaRegs(WmmaB, it, sh) {
			rb := uint32(w.Reg(b[r])[l])
			for h := range halves {
				i, j := wmmaElem(WmmaB, it, sh, l, r, h)
				B[i][j] = isa.MatElem(it, rb, h)
			}
		}
	}
	M, k := WmmaDims(WmmaA, it, sh)
	_, N := WmmaDims(WmmaB, it, sh)
	for l := range WarpSize {
		for r := range WmmaRegs(WmmaC, ct, sh) {
			v := uint32(w.Reg(c[r])[l])
			if ct == isa.MatF32 {
				i, j := wmmaElem(WmmaC, ct, sh, l, r, 0)
				C[i][j] = isa.MatElem(ct, v, 0)
				continue
			}
			for h := range 2 {
				i, j := wmmaElem(WmmaC, ct, sh, l, r, h)
				C[i][j] = isa.MatElem(ct, v, h)
			}
		}
	}
	var D [32][32]uint32
	var colB [16]float64
	for j := range N {
		for kk := range k {
			colB[kk] = B[kk][j]
		}
		for i := range M {
			D[i][j] = isa.MatRound(dt, isa.MmaDot(C[i][j], A[i][:k], colB[:k]))
		}
	}
	for l := range WarpSize {
		for r := range WmmaRegs(WmmaC, dt, sh) {
			if dt == isa.MatF32 {
				i, j := wmmaElem(WmmaC, dt, sh, l, r, 0)
				w.Reg(d[r])[l] = uint64(D[i][j])
				continue
			}
			i0, j0 := wmmaElem(WmmaC, dt, sh, l, r, 0)
			i1, j1 := wmmaElem(WmmaC, dt, sh, l, r, 1)
			w.Reg(d[r])[l] = uint64(D[i0][j0]) | uint64(D[i1][j1])<<16
		}
	}
}

// wmmaMmaF64 is WmmaMma for .f64 (m8n8k4.f64.f64.f64.f64.rn): D (8x8) = A (8x4) * B (4x8) + C,
// each element isa.MmaDotF64.
func (w *Warp) wmmaMmaF64(d, a, b, c [8]int) {
	var A [8][4]float64
	var B [4][8]float64
	var C, D [8][8]float64
	for l := range WarpSize {
		i, j := wmmaElem(WmmaA, isa.MatF64, WmmaSquare, l, 0, 0)
		A[i][j] = math.Float64frombits(w.Reg(a[0])[l])
		i, j = wmmaElem(WmmaB, isa.MatF64, WmmaSquare, l, 0, 0)
		B[i][j] = math.Float64frombits(w.Reg(b[0])[l])
		for r := range 2 {
			i, j = wmmaElem(WmmaC, isa.MatF64, WmmaSquare, l, r, 0)
			C[i][j] = math.Float64frombits(w.Reg(c[r])[l])
		}
	}
	var colB [4]float64
	for j := range 8 {
		for k := range 4 {
			colB[k] = B[k][j]
		}
		for i := range 8 {
			D[i][j] = isa.MmaDotF64(C[i][j], A[i][:], colB[:])
		}
	}
	for l := range WarpSize {
		for r := range 2 {
			i, j := wmmaElem(WmmaC, isa.MatF64, WmmaSquare, l, r, 0)
			w.Reg(d[r])[l] = math.Float64bits(D[i][j])
		}
	}
}

// WmmaMmaInt runs wmma.mma.sync.aligned.{row,col}.{row,col}.{m16n16k16,m32n8k16,m8n32k16}.s32.{s8,u8}.{s8,u8}.s32{.satfinite}
// d, a, b, c for the lanes m (all of the warp): D = A*B + C on the integer fragments
// (at and bt are isa.MatS8 or isa.MatU8), each element isa.MmaDotInt (exact; .satfinite
// clamps to the .s32 range, else it wraps). All registers are read before any is written.
func (w *Warp) WmmaMmaInt(at, bt isa.MatType, sh WmmaShape, satfinite bool, d, a, b, c [8]int, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "wmma.mma.sync.aligned", loc)
	elem := func(t isa.MatType, r uint64, h int) int32 {
		x := uint8(r >> (8 * h))
		if t == isa.MatS8 {
			return int32(int8(x))
		}
		return int32(x)
	}
	var A, B, C [32][32]int32
	for l := range WarpSize {
		for r := range WmmaRegs(WmmaA, at, sh) {
			ra := w.Reg(a[r])[l]
			for h := range 4 {
				i, j := wmmaElem(WmmaA, at, sh, l, r, h)
				A[i][j] = elem(at, ra, h)
			}
		}
		for r := range WmmaRegs(WmmaB, bt, sh) {
			rb := w.Reg(b[r])[l]
			for h := range 4 {
				i, j := wmmaElem(WmmaB, bt, sh, l, r, h)
				B[i][j] = elem(bt, rb, h)
			}
		}
		for r := range WmmaRegs(WmmaC, isa.MatS32, sh) {
			i, j := wmmaElem(WmmaC, isa.MatS32, sh, l, r, 0)
			C[i][j] = int32(uint32(w.Reg(c[r])[l]))
		}
	}
	M, _ := WmmaDims(WmmaA, at, sh)
	_, N := WmmaDims(WmmaB, bt, sh)
	var D [32][32]int32
	var colB [16]int32
	for j := range N {
		for k := range 16 {
			colB[k] = B[k][j]
		}
		for i := range M {
			D[i][j] = isa.MmaDotInt(C[i][j], A[i][:16], colB[:], satfinite)
		}
	}
	for l := range WarpSize {
		for r := range WmmaRegs(WmmaC, isa.MatS32, sh) {
			i, j := wmmaElem(WmmaC, isa.MatS32, sh, l, r, 0)
			w.Reg(d[r])[l] = uint64(uint32(D[i][j]))
		}
	}
}
