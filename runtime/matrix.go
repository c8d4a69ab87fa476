package runtime

import (
	"fmt"
	"math"

	"github.com/ptx2go/ptx2go/runtime/isa"
)

// Warp-level matrix instructions of sm_80 (ldmatrix, mma.sync): .aligned and warp-collective.
// Both back ends call these methods with register slots, so the fragment layouts and the
// arithmetic exist once.
//
// .aligned requires every thread of the warp to execute the same instruction, converged. A
// warp that reaches one with fewer than its 32 lanes executing (a partial last warp of a CTA,
// lanes that diverged or exited, or a guard false in some lanes) faults as an illegal
// operation naming the first executing lane; on a GPU the behaviour is undefined. A guard
// false in every lane executes nothing (m == 0).

// alignedWarp faults unless all 32 lanes execute the instruction what.
func (w *Warp) alignedWarp(m uint32, what, loc string) {
	if m != ^uint32(0) {
		w.Fault(FaultIllegal, loc, firstLane(m)&(WarpSize-1), fmt.Sprintf(
			"%s executed by lanes 0x%08x: every lane of the warp must execute it converged (a partial warp or divergent lanes)", what, m))
	}
}

// Ldmatrix runs ldmatrix.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16 {d...}, [a] for the
// lanes m (all of the warp): n (1, 2 or 4) 8x8 matrices of 16-bit elements, matrix i's row r
// being the 16 bytes of shared memory at lane 8i+r's address A[l]&amask+off (A nil: off; the
// other lanes' addresses are not read). Register slot d[i] of lane l gets elements (l/4,
// 2(l%4)) and (l/4, 2(l%4)+1) of matrix i, the first in the low half; with trans, elements
// (2(l%4), l/4) and (2(l%4)+1, l/4). A row address must be 16-byte aligned and inside the
// CTA's shared memory (misaligned and out-of-bounds faults name the lane that gave it).
func (w *Warp) Ldmatrix(d [4]int, n int, trans bool, A *[WarpSize]uint64, amask, off uint64, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "ldmatrix.sync.aligned", loc)
	var e [4][8][8]uint16
	for i := range n {
		for r := range 8 {
			l := 8*i + r
			b := w.SharedBytes(lanesAddr(A, amask, off, l), 16, l, loc)
			for c := range 8 {
				e[i][r][c] = uint16(b[2*c]) | uint16(b[2*c+1])<<8
			}
		}
	}
	for i := range n {
		D := w.Reg(d[i])
		for l := range WarpSize {
			r, c := l/4, 2*(l%4)
			lo, hi := e[i][r][c], e[i][r][c+1]
			if trans {
				lo, hi = e[i][c][r], e[i][c+1][r]
			}
			D[l] = uint64(lo) | uint64(hi)<<16
		}
	}
}

// MmaFragRegs returns how many .b32 registers a lane holds of mma.m16n8k{k}'s A and B
// fragments of element type ab, and of a C or D fragment of type t: A 4 (k 16, or tf32 k 8)
// or 2, B 2 or 1, C and D 4 (.f32) or 2 (.f16).
func MmaFragRegs(k int, ab, t isa.MatType) (na, nb, nc int) {
	na, nb = 4, 2
	if k == 8 && ab != isa.MatTF32 {
		na, nb = 2, 1
	}
	nc = 4
	if t == isa.MatF16 {
		nc = 2
	}
	return
}

// Mma runs mma.sync.aligned.m16n8k{k}.row.col.{dt}.{ab}.{ab}.{ct} d, a, b, c for the lanes m
// (all of the warp): D (16x8) = A (16xk) * B (kx8) + C, k 16 or 8 (tf32: 8), with the
// fragments of the PTX ISA ("Matrix fragments for mma.m16n8k16 / m16n8k8"): with g = lane/4
// and q = lane%4, register j of a lane's .f32 C or D holds element (g + 8(j/2), 2q + j%2),
// and an .f16 C or D register j the pair (g + 8j, 2q) and (g + 8j, 2q + 1); for .f16 and
// .bf16, A register j holds the pair (g + 8(j%2), 2q + 8(j/2)), (.., +1) and B register j
// the pair (2q + 8j, g), (2q + 8j + 1, g); for .tf32, A register j holds (g + 8(j%2),
// q + 4(j/2)) and B register j holds (q + 4j, g). d, a, b and c are the registers' slots
// (MmaFragRegs of them used); all are read before any is written, so d may be c.
//
// Each element is isa.MmaDot (exact products, a float64 sum from c in k order) rounded once
// by isa.MatRound.
func (w *Warp) Mma(k int, ab, ct, dt isa.MatType, d, a, b, c [4]int, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "mma.sync.aligned", loc)
	var A [16][16]float64
	var B [16][8]float64
	var C [16][8]float64
	na, nb, _ := MmaFragRegs(k, ab, ct)
	for l := range WarpSize {
		g, q := l/4, l%4
		for j := range na {
			r := uint32(w.Reg(a[j])[l])
			if ab == isa.MatTF32 {
				A[g+8*(j%2)][q+4*(j/2)] = isa.MatElem(ab, r, 0)
				continue
			}
			for h := range 2 {
				A[g+8*(j%2)][2*q+8*(j/2)+h] = isa.MatElem(ab, r, h)
			}
		}
		for j := range nb {
			r := uint32(w.Reg(b[j])[l])
			if ab == isa.MatTF32 {
				B[q+4*j][g] = isa.MatElem(ab, r, 0)
				continue
			}
			for h := range 2 {
				B[2*q+8*j+h][g] = isa.MatElem(ab, r, h)
			}
		}
		if ct == isa.MatF16 {
			for j := range 2 {
				r := uint32(w.Reg(c[j])[l])
				for h := range 2 {
					C[g+8*j][2*q+h] = isa.MatElem(ct, r, h)
				}
			}
		} else {
			for j := range 4 {
				C[g+8*(j/2)][2*q+j%2] = isa.MatElem(ct, uint32(w.Reg(c[j])[l]), 0)
			}
		}
	}
	var D [16][8]uint32
	var col [16]float64
	for j := range 8 {
		for kk := range k {
			col[kk] = B[kk][j]
		}
		for i := range 16 {
			D[i][j] = isa.MatRound(dt, isa.MmaDot(C[i][j], A[i][:k], col[:k]))
		}
	}
	for l := range WarpSize {
		g, q := l/4, l%4
		if dt == isa.MatF16 {
			for j := range 2 {
				w.Reg(d[j])[l] = uint64(D[g+8*j][2*q]) | uint64(D[g+8*j][2*q+1])<<16
			}
			continue
		}
		for j := range 4 {
			w.Reg(d[j])[l] = uint64(D[g+8*(j/2)][2*q+j%2])
		}
	}
}

// MmaInt runs mma.sync.aligned.m16n8k{k}.row.col{.satfinite}.s32.{at}.{bt}.s32 d, a, b, c for
// the lanes m (all of the warp), k 16 or 32: D (16x8, .s32) = A (16xk) * B (kx8) + C with
// 8-bit elements, .s8 where signedA (signedB) says so and .u8 otherwise, four a .b32 register
// (the lowest byte first). With g = lane/4 and q = lane%4 (the PTX ISA's "Matrix fragments for
// mma.m16n8k16 with integer type" and mma.m16n8k32), byte h of A register j holds element
// (g + 8(j%2), 4q + 16(j/2) + h), byte h of B register j element (4q + 16j + h, g), and C
// and D register j element (g + 8(j/2), 2q + j%2), as for .f32. Each element is
// isa.MmaDotInt (exact; .satfinite clamps to the .s32 range, else it wraps). d, a, b and c are
// the registers' slots (2 or 4 of a, 1 or 2 of b, 4 of c and d); all are read before any is
// written.
func (w *Warp) MmaInt(k int, signedA, signedB, satfinite bool, d, a, b, c [4]int, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "mma.sync.aligned", loc)
	elem := func(r uint64, h int, signed bool) int32 {
		x := uint8(r >> (8 * h))
		if signed {
			return int32(int8(x))
		}
		return int32(x)
	}
	var A [16][32]int32
	var B [32][8]int32
	var C [16][8]int32
	for l := range WarpSize {
		g, q := l/4, l%4
		for j := range k / 8 {
			r := w.Reg(a[j])[l]
			for h := range 4 {
				A[g+8*(j%2)][4*q+16*(j/2)+h] = elem(r, h, signedA)
			}
		}
		for j := range k / 16 {
			r := w.Reg(b[j])[l]
			for h := range 4 {
				B[4*q+16*j+h][g] = elem(r, h, signedB)
			}
		}
		for j := range 4 {
			C[g+8*(j/2)][2*q+j%2] = int32(uint32(w.Reg(c[j])[l]))
		}
	}
	var D [16][8]int32
	var col [32]int32
	for j := range 8 {
		for kk := range k {
			col[kk] = B[kk][j]
		}
		for i := range 16 {
			D[i][j] = isa.MmaDotInt(C[i][j], A[i][:k], col[:k], satfinite)
		}
	}
	for l := range WarpSize {
		g, q := l/4, l%4
		for j := range 4 {
			w.Reg(d[j])[l] = uint64(uint32(D[g+8*(j/2)][2*q+j%2]))
		}
	}
}

// MmaF64 runs mma.sync.aligned.m8n8k4.row.col{.rn}.f64.f64.f64.f64 d, a, b, c for the lanes m
// (all of the warp): D (8x8) = A (8x4) * B (4x8) + C with the PTX ISA's fragment layout (lane
// l, group g = l/4 and q = l%4: a is A's element (g, q), b is B's (q, g), c[i] and d[i] are
// element (g, 2q+i)), each element isa.MmaDotF64: a chain of float64 fused multiply-adds in
// k order, as the .f64 wmma's. Registers d[i] hold .f64 bits; all are read before any is
// written.
func (w *Warp) MmaF64(d [2]int, a, b int, c [2]int, m uint32, loc string) {
	if m == 0 {
		return
	}
	w.alignedWarp(m, "mma.sync.aligned", loc)
	var A [8][4]float64
	var B [4][8]float64
	var C [8][8]float64
	for l := range WarpSize {
		g, q := l/4, l%4
		A[g][q] = math.Float64frombits(w.Reg(a)[l])
		B[q][g] = math.Float64frombits(w.Reg(b)[l])
		for i := range 2 {
			C[g][2*q+i] = math.Float64frombits(w.Reg(c[i])[l])
		}
	}
	var col [4]float64
	var D [8][8]float64
	for j := range 8 {
		for k := range 4 {
			col[k] = B[k][j]
		}
		for i := range 8 {
			D[i][j] = isa.MmaDotF64(C[i][j], A[i][:], col[:])
		}
	}
	for l := range WarpSize {
		g, q := l/4, l%4
		for i := range 2 {
			w.Reg(d[i])[l] = math.Float64bits(D[g][2*q+i])
		}
	}
}
