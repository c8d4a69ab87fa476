package kernelcases

import (
	"math"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

// The cases of nvcc/mma.cu: ldmatrix and mma.sync against Go references written from the PTX
// ISA's fragment layouts and the documented numerics (runtime/isa.MmaDot): exact products, a
// float64 sum from c in k order, one rounding to the destination type per mma.

func init() {
	kernelCases = append(kernelCases, mmaKernelCases...)
}

// mmaShapes launch one warp a block, as nvcc/mma.cu requires.
var mmaShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 32},
	{grid: runtime.D1(3), block: runtime.D1(32), n: 96},
}

// f16Exact returns the .f16 bits of x, which must be 0 or a normal f16 value exactly.
func f16Exact(x float64) uint16 {
	if x == 0 {
		return 0
	}
	b := math.Float32bits(float32(x))
	exp := int(b>>23&0xff) - 127 + 15
	if exp <= 0 || exp >= 31 || b&0x1fff != 0 {
		panic("f16Exact: not an exact normal f16")
	}
	return uint16(b>>31)<<15 | uint16(exp)<<10 | uint16(b>>13&0x3ff)
}

// f16Val decodes a normal (or zero) .f16.
func f16Val(h uint16) float64 {
	if h&0x7fff == 0 {
		return 0
	}
	v := math.Ldexp(1+float64(h&0x3ff)/1024, int(h>>10&0x1f)-15)
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// bf16Val decodes a .bf16: the high half of an f32.
func bf16Val(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

// tf32Val is an f32 as the tensor cores read a .tf32: its low 13 mantissa bits cleared.
func tf32Val(x float32) float64 { return float64(math.Float32frombits(math.Float32bits(x) &^ 0x1fff)) }

// mmaStep is the reference of one 16x8 mma: acc[i*8+j] = float32(acc + sum over k in order
// of a(i, k)*b(k, j)), summed in float64.
func mmaStep(acc []float32, k int, a func(i, k int) float64, b func(k, j int) float64) {
	for i := range 16 {
		for j := range 8 {
			s := float64(acc[i*8+j])
			for kk := range k {
				s += a(i, kk) * b(kk, j)
			}
			acc[i*8+j] = float32(s)
		}
	}
}

// f16s returns n .f16 values lo/scale .. hi/scale (integers over scale, exact in f16).
func (f *kernelFixture) f16s(n int, lo, hi int32, scale float64) []uint16 {
	return tabulate(n, func(int) uint16 { return f16Exact(float64(f.i32(1, lo, hi)[0]) / scale) })
}

var mmaKernelCases = []kernelCase{
	{file: "mma", kernel: "ldsm_copy", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		in := tabulate(256*blocks, func(int) uint16 { return uint16(f.rng.Uint32()) })
		out := outputBuf[uint32](f, 14*32*blocks)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			want := make([]uint32, 0, 14*32*blocks)
			for blk := range blocks {
				tile := in[256*blk:]
				// Matrix i's row r is at lane 8i+r's address: tile row (8i+r)%16, columns
				// from ((8i+r)/16)*8.
				elem := func(i, r, c int) uint32 {
					L := 8*i + r
					return uint32(tile[(L%16)*16+(L/16)*8+c])
				}
				regs := func(n int, trans bool) {
					for i := range n {
						for l := range 32 {
							r, c := l/4, 2*(l%4)
							if trans {
								want = append(want, elem(i, c, r)|elem(i, c+1, r)<<16)
							} else {
								want = append(want, elem(i, r, c)|elem(i, r, c+1)<<16)
							}
						}
					}
				}
				for _, trans := range []bool{false, true} {
					regs(1, trans)
					regs(2, trans)
					regs(4, trans)
				}
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, len(want)))
		}}
	}},
	// Random f16 values (integers over 256) and f32 accumulators: the float64 sums are exact,
	// so the reference is the exact result rounded to f32 after each k-16 step.
	{file: "mma", kernel: "gemm_f16", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		K := 32 * blocks * blocks // 32, and 288 (several 64-wide chunks, one partial)
		a, bt := f.f16s(16*K*blocks, -1024, 1024, 256), f.f16s(8*K*blocks, -1024, 1024, 256)
		c := f.f32(128*blocks, -100, 100)
		d := outputBuf[float32](f, 128*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, bt), inputBuf(f, c), int32(K)}, check: func(t *testing.T) {
			want := make([]float32, 0, 128*blocks)
			for blk := range blocks {
				acc := append([]float32(nil), c[128*blk:128*blk+128]...)
				A, B := a[16*K*blk:], bt[8*K*blk:]
				for k0 := 0; k0 < K; k0 += 16 {
					mmaStep(acc, 16, func(i, k int) float64 { return f16Val(A[i*K+k0+k]) },
						func(k, j int) float64 { return f16Val(B[j*K+k0+k]) })
				}
				want = append(want, acc...)
			}
			requireElemsF32(t, "d", want, readBuf[float32](f, d, len(want)))
		}}
	}},
	// Small integers with an f16 accumulator: every result is an integer below 2048, exact.
	{file: "mma", kernel: "gemm_f16_trans", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		a, b, c := f.f16s(256*blocks, -8, 8, 1), f.f16s(128*blocks, -8, 8, 1), f.f16s(128*blocks, -8, 8, 1)
		d := outputBuf[uint16](f, 128*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c)}, check: func(t *testing.T) {
			want := make([]uint16, 0, 128*blocks)
			for blk := range blocks {
				A, B, C := a[256*blk:], b[128*blk:], c[128*blk:]
				for i := range 16 {
					for j := range 8 {
						s := f16Val(C[i*8+j])
						for k := range 16 {
							s += f16Val(A[i*16+k]) * f16Val(B[k*8+j])
						}
						want = append(want, f16Exact(s))
					}
				}
			}
			requireElems(t, "d", want, readBuf[uint16](f, d, len(want)))
		}}
	}},
	// bf16 values (integers over 16, exact in bf16), k 16 then k 8.
	{file: "mma", kernel: "gemm_bf16", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		bf := func(n int) []uint16 {
			return tabulate(n, func(int) uint16 {
				return uint16(math.Float32bits(float32(f.i32(1, -255, 255)[0])/16) >> 16)
			})
		}
		a, b := bf(16*24*blocks), bf(24*8*blocks)
		c := f.f32(128*blocks, -1000, 1000)
		d := outputBuf[float32](f, 128*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c)}, check: func(t *testing.T) {
			want := make([]float32, 0, 128*blocks)
			for blk := range blocks {
				acc := append([]float32(nil), c[128*blk:128*blk+128]...)
				A, B := a[16*24*blk:], b[24*8*blk:]
				mmaStep(acc, 16, func(i, k int) float64 { return bf16Val(A[i*24+k]) }, func(k, j int) float64 { return bf16Val(B[k*8+j]) })
				mmaStep(acc, 8, func(i, k int) float64 { return bf16Val(A[i*24+16+k]) }, func(k, j int) float64 { return bf16Val(B[(16+k)*8+j]) })
				want = append(want, acc...)
			}
			requireElemsF32(t, "d", want, readBuf[float32](f, d, len(want)))
		}}
	}},
	// Random f32 values read as tf32 (low 13 mantissa bits ignored), then an f16 k-8 step.
	{file: "mma", kernel: "gemm_tf32", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		a, b, c := f.f32(256*blocks, -2, 2), f.f32(128*blocks, -2, 2), f.f32(128*blocks, -10, 10)
		ha, hb := f.f16s(128*blocks, -1024, 1024, 64), f.f16s(64*blocks, -1024, 1024, 64)
		d := outputBuf[float32](f, 128*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c), inputBuf(f, ha), inputBuf(f, hb)}, check: func(t *testing.T) {
			want := make([]float32, 0, 128*blocks)
			for blk := range blocks {
				acc := append([]float32(nil), c[128*blk:128*blk+128]...)
				A, B, HA, HB := a[256*blk:], b[128*blk:], ha[128*blk:], hb[64*blk:]
				for k0 := 0; k0 < 16; k0 += 8 {
					mmaStep(acc, 8, func(i, k int) float64 { return tf32Val(A[i*16+k0+k]) }, func(k, j int) float64 { return tf32Val(B[(k0+k)*8+j]) })
				}
				mmaStep(acc, 8, func(i, k int) float64 { return f16Val(HA[i*8+k]) }, func(k, j int) float64 { return f16Val(HB[k*8+j]) })
				want = append(want, acc...)
			}
			requireElemsF32(t, "d", want, readBuf[float32](f, d, len(want)))
		}}
	}},
	// nvcuda::wmma, f32 accumulator: random f16 values (integers over 256), exact sums,
	// rounded to f32 after each k-16 step.
	{file: "mma", kernel: "wmma_gemm", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		a, b := f.f16s(512*blocks, -1024, 1024, 256), f.f16s(512*blocks, -1024, 1024, 256)
		c := f.f32(256*blocks, -100, 100)
		d := outputBuf[float32](f, 256*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c)}, check: func(t *testing.T) {
			want := make([]float32, 0, 256*blocks)
			for blk := range blocks {
				A, B := a[512*blk:], b[512*blk:] // A[i*32+k] row-major, B[j*32+k] column-major
				for i := range 16 {
					for j := range 16 {
						acc := c[256*blk+i*16+j]
						for k0 := 0; k0 < 32; k0 += 16 {
							s := float64(acc)
							for k := k0; k < k0+16; k++ {
								s += f16Val(A[i*32+k]) * f16Val(B[j*32+k])
							}
							acc = float32(s)
						}
						want = append(want, acc)
					}
				}
			}
			requireElemsF32(t, "d", want, readBuf[float32](f, d, len(want)))
		}}
	}},
	// nvcuda::wmma with an f16 accumulator: small integers, every result exact.
	{file: "mma", kernel: "wmma_half", shapes: mmaShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		blocks := int(s.grid.X)
		a, b, c := f.f16s(256*blocks, -8, 8, 1), f.f16s(256*blocks, -8, 8, 1), f.f16s(256*blocks, -8, 8, 1)
		d := outputBuf[uint16](f, 256*blocks)
		return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c)}, check: func(t *testing.T) {
			want := make([]uint16, 256*blocks)
			for blk := range blocks {
				A, B, C := a[256*blk:], b[256*blk:], c[256*blk:] // A, C, D column-major; B row-major
				for i := range 16 {
					for j := range 16 {
						s := f16Val(C[j*16+i])
						for k := range 16 {
							s += f16Val(A[k*16+i]) * f16Val(B[k*16+j])
						}
						want[256*blk+j*16+i] = f16Exact(s)
					}
				}
			}
			requireElems(t, "d", want, readBuf[uint16](f, d, len(want)))
		}}
	}},
}

// wmmaIntShapes launch one 16x16 tile a warp, a partial block's worth of warps included.
var wmmaIntShapes = []kernelShape{
	{grid: runtime.D1(1), block: runtime.D1(32), n: 1},
	{grid: runtime.D1(2), block: runtime.D1(96), n: 6},
}

// wmmaIntKernelCases are nvcc/wmma_int.cu's kernels: integer wmma on 16x16x16 tiles.
var wmmaIntKernelCases = []kernelCase{
	{file: "wmma_int", kernel: "imma_s8", shapes: wmmaIntShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		return wmmaIntCase(f, s, true)
	}},
	{file: "wmma_int", kernel: "imma_u8", shapes: wmmaIntShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		return wmmaIntCase(f, s, false)
	}},
}

func init() { kernelCases = append(kernelCases, wmmaIntKernelCases...) }

// nearInt32Limits returns n integers, each within spread of math.MaxInt32, math.MinInt32 or
// 0, so that sums added to them saturate or wrap.
func nearInt32Limits(f *kernelFixture, n int, spread int) []int32 {
	return tabulate(n, func(int) int32 {
		d := int32(f.rng.IntN(spread))
		switch f.rng.IntN(3) {
		case 0:
			return math.MaxInt32 - d
		case 1:
			return math.MinInt32 + d
		}
		return d - int32(spread/2)
	})
}

// wmmaIntCase sets up imma_s8 (signed) or imma_u8: s.n tiles of 8-bit A and B and 32-bit C,
// whose elements are small or near the ends of the int32 range, so that imma_s8's saturating
// sums and imma_u8's wrapping ones both happen.
func wmmaIntCase(f *kernelFixture, s kernelShape, signed bool) kernelLaunch {
	n := 256 * s.n
	a, b := make([]uint8, n), make([]uint8, n)
	for i := range n {
		a[i], b[i] = uint8(f.rng.Uint32()), uint8(f.rng.Uint32())
	}
	c := nearInt32Limits(f, n, 300000)
	d := outputBuf[int32](f, n)
	return kernelLaunch{args: []any{d, inputBuf(f, a), inputBuf(f, b), inputBuf(f, c)}, check: func(t *testing.T) {
		elem := func(x uint8) int64 {
			if signed {
				return int64(int8(x))
			}
			return int64(x)
		}
		want := make([]int32, n)
		for w := range s.n {
			o := 256 * w // the tile's first element
			for i := range 16 {
				for j := range 16 {
					// imma_s8: A row-major, B column-major, C row-major, D column-major;
					// imma_u8: A column-major, B row-major, C column-major, D row-major.
					ai, bj, ci, di := func(k int) int { return o + 16*i + k }, func(k int) int { return o + 16*j + k }, o+16*i+j, o+16*j+i
					if !signed {
						ai, bj, ci, di = func(k int) int { return o + 16*k + i }, func(k int) int { return o + 16*k + j }, o+16*j+i, o+16*i+j
					}
					sum := int64(c[ci])
					for k := range 16 {
						sum += elem(a[ai(k)]) * elem(b[bj(k)])
					}
					if signed {
						sum = min(max(sum, math.MinInt32), math.MaxInt32)
						want[di] = int32(2*uint32(int32(sum)) - 1)
					} else {
						want[di] = int32(sum)
					}
				}
			}
		}
		requireElems(t, "d", want, readBuf[int32](f, d, n))
	}}
}

// wmmaShapeCase is one kernel of nvcc/wmma_shapes.cu: D (MxN) = A (MxK) * B (KxN) + C with
// K = 16, each matrix at its index function (element (i, j) of the tile at offset o), and
// its element types: "f16", "bf16", "s8" or "u8" inputs, "f32", "f16" or "s32" C and D.
type wmmaShapeCase struct {
	kernel       string
	m, n         int
	a, b, c, d   func(o, i, j int) int
	in, acc      string
	plusOne, sat bool // h32x8 adds 1 to every element of D; i8x32 saturates
}

func rowMajor(ld int) func(o, i, j int) int { return func(o, i, j int) int { return o + i*ld + j } }
func colMajor(ld int) func(o, i, j int) int { return func(o, i, j int) int { return o + i + j*ld } }

var wmmaShapeCases = []wmmaShapeCase{
	{kernel: "h32x8", m: 32, n: 8, a: rowMajor(16), b: colMajor(16), c: colMajor(32), d: rowMajor(8), in: "f16", acc: "f32", plusOne: true},
	{kernel: "h8x32", m: 8, n: 32, a: colMajor(8), b: rowMajor(32), c: rowMajor(32), d: colMajor(8), in: "f16", acc: "f16"},
	{kernel: "bf32x8", m: 32, n: 8, a: rowMajor(16), b: rowMajor(8), c: rowMajor(8), d: rowMajor(8), in: "bf16", acc: "f32"},
	{kernel: "i8x32", m: 8, n: 32, a: rowMajor(16), b: colMajor(16), c: rowMajor(32), d: rowMajor(32), in: "s8", acc: "s32", sat: true},
	{kernel: "u32x8", m: 32, n: 8, a: colMajor(32), b: rowMajor(16), c: colMajor(32), d: colMajor(32), in: "u8", acc: "s32"},
}

func init() {
	for _, w := range wmmaShapeCases {
		kernelCases = append(kernelCases, kernelCase{file: "wmma_shapes", kernel: w.kernel, shapes: wmmaIntShapes,
			setup: func(f *kernelFixture, s kernelShape) kernelLaunch { return wmmaShapeSetup(f, s, w) }})
	}
}

// wmmaShapeSetup fills s.n tiles (512 elements apart) with small integers, which every
// input type holds exactly and whose sums float32 and .f16 hold exactly (so the reference
// needs no rounding), and for the integer kernels with C near the ends of the int32 range.
func wmmaShapeSetup(f *kernelFixture, s kernelShape, w wmmaShapeCase) kernelLaunch {
	n := 512 * s.n
	a, b := f.i32(n, -8, 8), f.i32(n, -8, 8)
	var c []int32
	switch w.acc {
	case "s32":
		c = nearInt32Limits(f, n, 20000)
	case "f16":
		c = f.i32(n, -500, 500)
	default:
		c = f.i32(n, -1000, 1000)
	}
	if w.in == "u8" {
		a, b = f.i32(n, 0, 255), f.i32(n, 0, 255)
	}
	inputs := func(v []int32) runtime.Ptr {
		switch w.in {
		case "f16":
			return inputBuf(f, tabulate(n, func(i int) uint16 { return f16Exact(float64(v[i])) }))
		case "bf16":
			return inputBuf(f, tabulate(n, func(i int) uint16 { return uint16(math.Float32bits(float32(v[i])) >> 16) }))
		}
		return inputBuf(f, tabulate(n, func(i int) uint8 { return uint8(v[i]) }))
	}
	var pc, pd runtime.Ptr
	switch w.acc {
	case "f16":
		pc, pd = inputBuf(f, tabulate(n, func(i int) uint16 { return f16Exact(float64(c[i])) })), outputBuf[uint16](f, n)
	case "f32":
		pc, pd = inputBuf(f, tabulate(n, func(i int) float32 { return float32(c[i]) })), outputBuf[float32](f, n)
	default:
		pc, pd = inputBuf(f, c), outputBuf[int32](f, n)
	}
	return kernelLaunch{args: []any{pd, inputs(a), inputs(b), pc}, check: func(t *testing.T) {
		// Elements no tile covers keep the poison.
		want := tabulate(n, func(int) uint32 {
			if w.acc == "f16" {
				return uint32(poisonedSlice[uint16](1)[0])
			}
			return poisonedSlice[uint32](1)[0]
		})
		for tile := range s.n {
			o := 512 * tile
			for i := range w.m {
				for j := range w.n {
					sum := int64(c[w.c(o, i, j)])
					for k := range 16 {
						sum += int64(a[w.a(o, i, k)]) * int64(b[w.b(o, k, j)])
					}
					var bits uint32
					switch w.acc {
					case "f16":
						bits = uint32(f16Exact(float64(sum)))
					case "f32":
						if w.plusOne {
							sum++
						}
						bits = math.Float32bits(float32(sum))
					default:
						if w.sat {
							sum = min(max(sum, math.MinInt32), math.MaxInt32)
						}
						bits = uint32(int32(sum))
					}
					want[w.d(o, i, j)] = bits
				}
			}
		}
		var got []uint32
		if w.acc == "f16" {
			for _, h := range readBuf[uint16](f, pd, n) {
				got = append(got, uint32(h))
			}
		} else {
			got = readBuf[uint32](f, pd, n)
		}
		requireElems(t, "d", want, got)
	}}
}
