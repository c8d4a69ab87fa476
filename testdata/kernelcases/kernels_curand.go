package kernelcases

import (
	"math/bits"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

// curandCases are the kernels of testdata/cuda/nvcc/curand.cu and curand_calls.cu, checked against plain Go
// versions of the XORWOW and Philox4x32-10 generators (Marsaglia's xorwow with cuRAND's
// seeding, and Random123's Philox): offsets by stepping, subsequences by powers of the
// generator's GF(2) transition matrix.
var curandCases = []kernelCase{
	{file: "curand", kernel: "xorwow_offsets", shapes: curandShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.rng.Uint64()
		out := outputBuf[uint32](f, 4*s.n)
		return kernelLaunch{args: []any{out, seed}, check: func(t *testing.T) {
			g := newXorwow(seed)
			seq := tabulate((s.n-1)*37+5, func(int) uint32 { return g.next() })
			want := tabulate(4*s.n, func(i int) uint32 { return seq[i/4*37+1+i%4] })
			requireElems(t, "out", want, readBuf[uint32](f, out, 4*s.n))
		}}
	}},
	{file: "curand", kernel: "xorwow_subsequences", shapes: curandShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.rng.Uint64()
		out := outputBuf[uint32](f, 2*s.n)
		return kernelLaunch{args: []any{out, seed}, check: func(t *testing.T) {
			// powers[k] is the transition matrix raised to 2^(67+k): subsequence t is the
			// product of those of t's set bits applied to the seeded state.
			powers := []gf2Matrix{xorwowMatrix()}
			for range 67 {
				powers[0] = powers[0].mul(powers[0])
			}
			for len(powers) < bits.Len(uint(s.n)) {
				p := powers[len(powers)-1]
				powers = append(powers, p.mul(p))
			}
			want := make([]uint32, 2*s.n)
			for sub := range s.n {
				g := newXorwow(seed)
				for k, p := range powers {
					if sub>>k&1 != 0 {
						g.v = p.apply(g.v)
					}
				}
				want[2*sub], want[2*sub+1] = g.next(), g.next()
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, 2*s.n))
		}}
	}},
	{file: "curand", kernel: "xorwow_uniform", shapes: curandShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.rng.Uint64()
		out := outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, seed}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) float32 {
				g := newXorwow(seed + uint64(i))
				// x * 2^-32 + 2^-33, which nvcc contracts into fma.rn.f32.
				return refFMA32(float32(g.next()), 0x1p-32, 0x1p-33)
			})
			requireElemsF32(t, "out", want, readBuf[float32](f, out, s.n))
		}}
	}},
	{file: "curand", kernel: "philox", shapes: curandShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		seed := f.rng.Uint64()
		out := outputBuf[uint32](f, 8*s.n)
		return kernelLaunch{args: []any{out, seed}, check: func(t *testing.T) {
			want := make([]uint32, 0, 8*s.n)
			for sub := range s.n {
				for k := range 2 {
					r := philox4x32([4]uint32{uint32(k), 0, uint32(sub), 0}, seed)
					want = append(want, r[:]...)
				}
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, 8*s.n))
		}}
	}},
	{file: "curand_calls", kernel: "xorwow_calls", shapes: curandShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Seven values: one pass of nvcc's loop unrolled by four, then three of its remainder loop.
		const perThread = 7
		seed := f.rng.Uint64()
		out := outputBuf[uint32](f, perThread*s.n)
		return kernelLaunch{args: []any{out, seed, int32(perThread)}, check: func(t *testing.T) {
			want := make([]uint32, 0, perThread*s.n)
			for thread := range s.n {
				g := newXorwow(seed + uint64(thread))
				for range perThread {
					want = append(want, g.next())
				}
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, perThread*s.n))
		}}
	}},
}

// curandShapes run one warp, several blocks, and a partial last warp.
var curandShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
	{grid: runtime.D1(3), block: runtime.D1(64), n: 192},
	{grid: runtime.D1(2), block: runtime.D1(50), n: 100},
}

// xorwow is cuRAND's XORWOW state: Marsaglia's xorwow over v and a Weyl sequence d.
type xorwow struct {
	v xorwowBits
	d uint32
}

// xorwowBits is the 160-bit xorwow part of the state (bit j of word i is bit 32i+j).
type xorwowBits [5]uint32

// newXorwow seeds a state as curand_init does before skipping ahead.
func newXorwow(seed uint64) *xorwow {
	t0 := 1099087573 * (uint32(seed) ^ 0xaad26b49)
	t1 := 2591861531 * (uint32(seed>>32) ^ 0xf7dcefdd)
	return &xorwow{v: xorwowBits{123456789 + t0, 362436069 ^ t0, 521288629 + t1, 88675123 ^ t1, 5783321 + t0}, d: 6615241 + t1 + t0}
}

// step advances v by one value of the generator.
func (v *xorwowBits) step() {
	t := v[0] ^ v[0]>>2
	v[0], v[1], v[2], v[3] = v[1], v[2], v[3], v[4]
	v[4] = v[4] ^ v[4]<<4 ^ t ^ t<<1
}

// next returns the generator's next value.
func (g *xorwow) next() uint32 {
	g.v.step()
	g.d += 362437
	return g.v[4] + g.d
}

// gf2Matrix is a linear map of the 160-bit xorwow state over GF(2), by the images of its
// unit vectors.
type gf2Matrix [160]xorwowBits

// xorwowMatrix is one step of the generator (d moves apart: a skip of 2^67 values adds
// 2^67 * 362437 to it, 0 modulo 2^32).
func xorwowMatrix() gf2Matrix {
	var m gf2Matrix
	for j := range m {
		m[j][j/32] = 1 << (j % 32)
		m[j].step()
	}
	return m
}

// apply returns the image of the state v.
func (m *gf2Matrix) apply(v xorwowBits) xorwowBits {
	var r xorwowBits
	for j := range m {
		if v[j/32]>>(j%32)&1 != 0 {
			for i := range r {
				r[i] ^= m[j][i]
			}
		}
	}
	return r
}

// mul returns the map m after n.
func (m gf2Matrix) mul(n gf2Matrix) gf2Matrix {
	var r gf2Matrix
	for j := range n {
		r[j] = m.apply(n[j])
	}
	return r
}

// philox4x32 is Random123's Philox4x32-10 of the counter ctr under the 64-bit key.
func philox4x32(ctr [4]uint32, key uint64) [4]uint32 {
	k0, k1 := uint32(key), uint32(key>>32)
	for round := range 10 {
		hi0, lo0 := bits.Mul32(0xD2511F53, ctr[0])
		hi1, lo1 := bits.Mul32(0xCD9E8D57, ctr[2])
		ctr = [4]uint32{hi1 ^ ctr[1] ^ k0, lo1, hi0 ^ ctr[3] ^ k1, lo0}
		if round < 9 {
			k0 += 0x9E3779B9
			k1 += 0xBB67AE85
		}
	}
	return ctr
}
