package kernelcases

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// isaKernelCases are the kernels of the CUDA sources that exercise the wider instruction set
// (directed rounding, approximate math, prmt/sad/mul24/fns, rounding conversions, half
// precision, warp match and reduce). While the back end does not implement every instruction of
// a source, its cases are skipped with the compiler's "unsupported instruction" errors, so they
// start running when the instructions land.
//
// Float results are compared bit for bit with references computed exactly (math/big) and rounded
// once as the instruction's rounding mode says; NaN results are the canonical NaN
// (0x7fffffff, 0x7fffffffffffffff, 0x7fff) unless a case says the ISA leaves the NaN
// unspecified. The .approx instructions are checked against the maximum errors the PTX ISA
// documents for them.
var isaKernelCases = []kernelCase{
	// bf16.cu
	{file: "bf16", kernel: "bf16_ops", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := tabulate(s.n, func(int) uint16 { return f.isaBF16() })
		bs := tabulate(s.n, func(int) uint16 { return f.isaBF16() })
		cs := tabulate(s.n, func(int) uint16 { return f.isaBF16() })
		fs := withSpecials(tabulate(s.n, func(int) float32 { return f.isaF32() }),
			math.MaxFloat32, 0x1.ff8p127, 0x1.01p0, 0x1.03p0, 0x1.008p0, 0x1.018p0, 0x1p-133, 0x1.8p-134)
		out, fout := outputBuf[uint16](f, 6*s.n), outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, fout, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), inputBuf(f, fs), s.n}, check: func(t *testing.T) {
			var want []isaHalf
			for i, a := range as {
				want = append(want, isaBF16Ops(a, bs[i], cs[i], fs[i])...)
			}
			requireISAHalves(t, "out", want, readBuf[uint16](f, out, 6*s.n))
			requireElems(t, "fout", isaBitsF32(tabulate(s.n, func(i int) uint32 { return isaWidenBits(isaBF16, as[i]) })),
				isaBitsF32(isaCanonBits(readBuf[uint32](f, fout, s.n))))
		}}
	}},

	// cvt_round.cu
	{file: "cvt_round", kernel: "f2i_modes", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		xs := withSpecials(tabulate(s.n, func(int) float32 { return float32(f.isaConvertValue(1e10)) }),
			0.5, -0.5, 1.5, -2.5, 2147483520, -2147483904, 4294967040, 4294967296, -1, float32(math.NaN()),
			float32(math.Inf(1)), float32(math.Inf(-1)), 0x1p62, -0x1p63, 0x1p64, negZero32, 1e-45)
		ds := withSpecials(tabulate(s.n, func(int) float64 { return f.isaConvertValue(1e20) }),
			-0.5, 2147483647.5, -2147483648.5, 4294967295.2, -0.9, math.NaN(), math.Inf(1), math.Inf(-1),
			0x1p63, -0x1p63-4096, 0x1p64, 18446744073709549568.5, 1.5, 2.5)
		out := outputBuf[int64](f, 16*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, xs), inputBuf(f, ds), s.n}, check: func(t *testing.T) {
			var want []int64
			for i, x := range xs {
				a, d := float64(x), ds[i]
				want = append(want,
					int64(int32(isaCvtInt(a, math.RoundToEven, math.MinInt32, math.MaxInt32))),
					int64(int32(isaCvtInt(a, math.Trunc, math.MinInt32, math.MaxInt32))),
					int64(int32(isaCvtInt(a, math.Ceil, math.MinInt32, math.MaxInt32))),
					int64(int32(isaCvtInt(a, math.Floor, math.MinInt32, math.MaxInt32))),
					int64(uint32(isaCvtInt(a, math.Trunc, 0, math.MaxUint32))),
					int64(uint32(isaCvtInt(a, math.Ceil, 0, math.MaxUint32))),
					int64(uint32(isaCvtInt(a, math.Floor, 0, math.MaxUint32))),
					isaCvtInt(a, math.RoundToEven, math.MinInt64, math.MaxInt64),
					isaCvtInt(a, math.Trunc, math.MinInt64, math.MaxInt64),
					isaCvtInt(a, math.Ceil, math.MinInt64, math.MaxInt64),
					isaCvtInt(a, math.Floor, math.MinInt64, math.MaxInt64),
					int64(isaCvtUint64(a, math.Floor)),
					int64(int32(isaCvtInt(d, math.RoundToEven, math.MinInt32, math.MaxInt32))),
					int64(uint32(isaCvtInt(d, math.Ceil, 0, math.MaxUint32))),
					isaCvtInt(d, math.Floor, math.MinInt64, math.MaxInt64),
					int64(isaCvtUint64(d, math.Trunc)))
			}
			requireElems(t, "out", want, readBuf[int64](f, out, 16*s.n))
		}}
	}},
	{file: "cvt_round", kernel: "i2f_modes", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		vs := withSpecials(tabulate(s.n, func(int) int64 {
			switch f.rng.IntN(3) {
			case 0:
				return int64(f.rng.Uint64())
			case 1:
				return int64(int32(f.rng.Uint32()))
			}
			return f.rng.Int64N(1<<26) - 1<<25
		}), 0, -1, 1<<24+1, -(1<<24 + 1), math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64,
			1<<53+1, -(1<<53 + 1), 0xffff_ffff)
		// cvt.f32.f64 of a NaN is not pinned down here: no NaNs.
		ds := withSpecials(tabulate(s.n, func(int) float64 {
			if d := f.isaF64(); !math.IsNaN(d) {
				return d
			}
			return 1
		}),
			math.MaxFloat32, math.MaxFloat32*(1+0x1p-30), -math.MaxFloat32*(1+0x1p-30), 0x1p-149, 0x1p-150,
			-0x1p-151, 0x1.000001p-140, math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e-300)
		out := outputBuf[float32](f, 10*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, vs), inputBuf(f, ds), s.n}, check: func(t *testing.T) {
			var want []float32
			for i, v := range vs {
				d := ds[i]
				i32, u32 := new(big.Float).SetInt64(int64(int32(v))), new(big.Float).SetUint64(uint64(uint32(v)))
				i64 := new(big.Float).SetInt64(v)
				ru64 := isaF64.float64(isaF64.round(i64, big.ToPositiveInf))
				rd64 := isaF64.float64(isaF64.round(i64, big.ToNegativeInf))
				want = append(want,
					isaF32.float32(isaF32.round(i32, big.ToPositiveInf)),
					isaF32.float32(isaF32.round(i32, big.ToNegativeInf)),
					isaF32.float32(isaF32.round(u32, big.ToPositiveInf)),
					isaF32.float32(isaF32.round(u32, big.ToNegativeInf)),
					isaF32.float32(isaF32.round(i64, big.ToPositiveInf)),
					isaF32.float32(isaF32.round(i64, big.ToNegativeInf)),
					isaF32.float32(isaF32.round(isaBig(d), big.ToPositiveInf)),
					isaF32.float32(isaF32.round(isaBig(d), big.ToNegativeInf)),
					float32(ru64),
					float32(rd64)-float32(ru64))
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, 10*s.n))
		}}
	}},
	{file: "cvt_round", kernel: "saturate", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// No -0.0: the ISA does not say whether .sat keeps its sign.
		as := withSpecials(f.f32(s.n, -2, 2), 0, 1, 1.0000001, -1e-30, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.5)
		ds := withSpecials(f.f64(s.n, -2, 2), 0, 1, 1+0x1p-40, -1e-300, math.NaN(), math.Inf(1), math.Inf(-1), 0.9999999999)
		out := outputBuf[float32](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, ds), s.n}, check: func(t *testing.T) {
			sat := func(x float64) float64 {
				if math.IsNaN(x) {
					return 0
				}
				return math.Min(math.Max(x, 0), 1)
			}
			var want []float32
			for i, a := range as {
				want = append(want, float32(sat(float64(a))), float32(sat(ds[i])))
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, 2*s.n))
		}}
	}},

	// fminmax.cu
	{file: "fminmax", kernel: "minmax_nan", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		nan := float32(math.NaN())
		as := withSpecials(f.f32(s.n, -2, 2), 0, negZero32, nan, 1, nan, float32(math.Inf(-1)), 0, negZero32)
		bs := withSpecials(f.f32(s.n, -2, 2), negZero32, 0, 3, nan, nan, 1, 0, negZero32)
		out := outputBuf[float32](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), s.n}, check: func(t *testing.T) {
			canon := math.Float32frombits(0x7fffffff)
			pick := func(a, b float32, isMin bool) float32 {
				if a != a || b != b {
					return canon
				}
				if less := a < b || a == b && math.Signbit(float64(a)); less == isMin {
					return a
				}
				return b
			}
			var want []float32
			for i, a := range as {
				want = append(want, pick(a, bs[i], true), pick(a, bs[i], false))
			}
			requireElemsF32(t, "out", want, readBuf[float32](f, out, 2*s.n))
		}}
	}},

	// fapprox.cu
	{file: "fapprox", kernel: "fapprox", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// x in [-2pi, 2pi], where sin.approx and cos.approx have their tightest bound;
		// y away from 0 and from the |y| > 2^126 range where div.approx returns 0.
		xs := withSpecials(f.f32(s.n, -2*math.Pi, 2*math.Pi), 1, 0.5, 2, -1, 0.25, 1e-3, 3)
		ys := tabulate(s.n, func(int) float32 {
			y := float32(math.Exp(f.rng.Float64()*40 - 20))
			if f.rng.IntN(2) == 0 {
				return -y
			}
			return y
		})
		out := outputBuf[float32](f, 6*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, xs), inputBuf(f, ys), s.n}, check: func(t *testing.T) {
			got := readBuf[float32](f, out, 6*s.n)
			var diffs []string
			for i, x32 := range xs {
				x, y := float64(x32), float64(ys[i])
				ax := math.Abs(x)
				for k, c := range []struct {
					name  string
					exact float64
					ok    func(g, exact float64) bool
				}{
					// PTX ISA: sin/cos.approx.f32, maximum absolute error 2^-20.5 in [-2pi, 2pi].
					{"sin.approx", math.Sin(x), isaAbsWithin(math.Exp2(-20.5))},
					{"cos.approx", math.Cos(x), isaAbsWithin(math.Exp2(-20.5))},
					// lg2.approx.f32: maximum absolute error 2^-22 for inputs in (0.5, 2),
					// maximum relative error 2^-22 for other positive finite inputs.
					{"lg2.approx", math.Log2(ax), func(g, e float64) bool {
						if ax > 0.5 && ax < 2 {
							return isaAbsWithin(0x1p-22)(g, e)
						}
						return isaRelWithin(0x1p-22)(g, e)
					}},
					// ex2.approx.f32: at most 2 ulp from the correctly rounded result.
					{"ex2.approx", math.Exp2(x), isaULPWithin(2)},
					// rsqrt.approx.f32: maximum relative error 2^-22.9.
					{"rsqrt.approx", 1 / math.Sqrt(ax), isaRelWithin(math.Exp2(-22.9))},
					// div.approx.f32: at most 2 ulp for |y| in [2^-126, 2^126].
					{"div.approx", x / y, isaULPWithin(2)},
				} {
					g := float64(got[6*i+k])
					if !c.ok(g, c.exact) {
						diffs = append(diffs, fmt.Sprintf("%s(x=%g, y=%g) = %g, want %g", c.name, x, y, g, c.exact))
					}
				}
			}
			failElems(t, "out", len(got), diffs)
		}}
	}},

	// fround.cu
	{file: "fround", kernel: "fround32", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := tabulate(s.n, func(int) float32 { return f.isaF32() })
		bs := tabulate(s.n, func(int) float32 { return f.isaF32() })
		cs := tabulate(s.n, func(int) float32 { return f.isaF32() })
		for i := range s.n {
			switch i % 5 {
			case 1:
				bs[i] = -as[i] // exact cancellation in add
			case 2:
				cs[i] = -as[i] * bs[i] // fma leaves the rounding error of the product
			}
		}
		out := outputBuf[uint32](f, 24*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), s.n}, check: func(t *testing.T) {
			var want []uint32
			for i, a := range as {
				for _, op := range isaRoundOps {
					for _, m := range isaModes {
						want = append(want, isaF32Bits(isaRoundRef(isaF32, op, m, float64(a), float64(bs[i]), float64(cs[i]))))
					}
				}
			}
			requireElems(t, "out", isaBitsF32(want), isaBitsF32(readBuf[uint32](f, out, 24*s.n)))
		}}
	}},
	{file: "fround", kernel: "fround64", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := tabulate(s.n, func(int) float64 { return f.isaF64() })
		bs := tabulate(s.n, func(int) float64 { return f.isaF64() })
		cs := tabulate(s.n, func(int) float64 { return f.isaF64() })
		for i := range s.n {
			switch i % 5 {
			case 1:
				bs[i] = -as[i]
			case 2:
				cs[i] = -as[i] * bs[i]
			}
		}
		out := outputBuf[uint64](f, 24*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), s.n}, check: func(t *testing.T) {
			var want []uint64
			for i, a := range as {
				for _, op := range isaRoundOps {
					for _, m := range isaModes {
						want = append(want, isaF64Bits(isaRoundRef(isaF64, op, m, a, bs[i], cs[i])))
					}
				}
			}
			requireElems(t, "out", isaBitsF64(want), isaBitsF64(readBuf[uint64](f, out, 24*s.n)))
		}}
	}},

	// half.cu
	{file: "half", kernel: "half_ops", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := tabulate(s.n, func(int) uint16 { return f.isaF16() })
		bs := tabulate(s.n, func(int) uint16 { return f.isaF16() })
		cs := tabulate(s.n, func(int) uint16 { return f.isaF16() })
		fs := withSpecials(tabulate(s.n, func(int) float32 { return f.isaF32() }),
			65504, 65520, 65519.996, 0x1p-25, 0x1.000002p-25, 0x1p-24*1.5, -0x1p-14*(1-0x1p-11))
		out, fout := outputBuf[uint16](f, 9*s.n), outputBuf[float32](f, s.n)
		return kernelLaunch{args: []any{out, fout, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), inputBuf(f, fs), s.n}, check: func(t *testing.T) {
			var want []isaHalf
			for i, a := range as {
				want = append(want, isaHalfOps(isaF16, a, bs[i], cs[i], float64(fs[i]))...)
			}
			requireISAHalves(t, "out", want, readBuf[uint16](f, out, 9*s.n))
			requireElems(t, "fout", isaBitsF32(tabulate(s.n, func(i int) uint32 { return isaWidenBits(isaF16, as[i]) })),
				isaBitsF32(isaCanonBits(readBuf[uint32](f, fout, s.n))))
		}}
	}},
	{file: "half", kernel: "pack_half2", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		lo := tabulate(s.n, func(int) float32 { return f.isaF32() })
		hi := tabulate(s.n, func(int) float32 { return f.isaF32() })
		out := outputBuf[uint32](f, 2*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, lo), inputBuf(f, hi), s.n}, check: func(t *testing.T) {
			var want []isaHalf
			var got []uint16
			for i, w := range readBuf[uint32](f, out, 2*s.n) {
				got = append(got, uint16(w), uint16(w>>16))
				ft := isaF16
				if i%2 == 1 {
					ft = isaBF16
				}
				want = append(want, isaNarrow(ft, float64(lo[i/2])), isaNarrow(ft, float64(hi[i/2])))
			}
			requireISAHalves(t, "out halves (lo, hi)", want, got)
		}}
	}},

	// intmisc.cu
	{file: "intmisc", kernel: "int_misc", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), math.MinInt32, -1, 0, math.MaxInt32, math.MinInt32, 5)
		bs := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), math.MaxInt32, math.MinInt32, 0, -1, math.MinInt32, -7)
		cs := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), 0, 31, 32, 33, -1, 37)
		out := outputBuf[int32](f, 8*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), s.n}, check: func(t *testing.T) {
			var want []int32
			for i, a := range as {
				b, c := bs[i], cs[i]
				ua, ub, uc := uint32(a), uint32(b), uint32(c)
				absA := a
				if a < 0 {
					absA = -a // abs(MinInt32) wraps to MinInt32
				}
				funnel := uint64(ub)<<32 | uint64(ua)
				p := int64(a) * int64(b)
				if p < 0 {
					p = -p
				}
				want = append(want,
					int32(int64(a)*int64(b)>>32),
					int32(uint64(ua)*uint64(ub)>>32),
					absA,
					min(a, b),
					int32(max(ua, ub)),
					int32(uint32(funnel>>(uc&31))),
					int32(uint32(funnel<<(uc&31)>>32)),
					int32(p>>32))
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 8*s.n))
		}}
	}},

	// intops.cu
	{file: "intops", kernel: "byte_perm", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		xs := withSpecials(f.u32(s.n), 0x03020100, 0x80ff7f01)
		ys := withSpecials(f.u32(s.n), 0x07060504, 0x00800001)
		sel := withSpecials(f.u32(s.n), 0x3210, 0x89ab, 0x7654, 0xffff_cdef)
		out := outputBuf[uint32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, xs), inputBuf(f, ys), inputBuf(f, sel), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) uint32 {
				src := uint64(ys[i])<<32 | uint64(xs[i])
				var r uint32
				for k := range 4 {
					c := sel[i] >> (4 * k) & 7 // CUDA's __byte_perm ignores the sign-replicate bit
					r |= uint32(src>>(8*c)&0xff) << (8 * k)
				}
				return r
			})
			requireElems(t, "out", want, readBuf[uint32](f, out, s.n))
		}}
	}},
	{file: "intops", kernel: "sad_mul24", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		as := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), math.MinInt32, -1, 0, math.MaxInt32, 0x7fffff, -0x800000, 5)
		bs := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), math.MaxInt32, math.MinInt32, 0, -1, 0x7fffff, 0x1000000, -7)
		cs := withSpecials(f.i32(s.n, math.MinInt32, math.MaxInt32), 0, -1, 7, math.MaxInt32, 1, 2, 3)
		out := outputBuf[int32](f, 4*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, as), inputBuf(f, bs), inputBuf(f, cs), s.n}, check: func(t *testing.T) {
			var want []int32
			for i, a := range as {
				b, c := bs[i], cs[i]
				ua, ub, uc := uint32(a), uint32(b), uint32(c)
				sdiff := ua - ub // |a-b| with a signed comparison, wrapping
				if a < b {
					sdiff = ub - ua
				}
				udiff := ua - ub
				if ua < ub {
					udiff = ub - ua
				}
				s24 := func(x int32) int64 { return int64(x<<8) >> 8 }
				want = append(want, int32(uc+sdiff), int32(uc+udiff), int32(s24(a)*s24(b)),
					int32(uint32(uint64(ua&0xffffff)*uint64(ub&0xffffff))))
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 4*s.n))
		}}
	}},
	{file: "intops", kernel: "find_nth", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		masks := withSpecials(tabulate(s.n, func(int) uint32 { return f.rng.Uint32() & f.rng.Uint32() }), 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0, math.MaxUint32, 1<<31, 1)
		bases := withSpecials(f.u32(s.n), 3, 3, 2, 2, 5, 31, 31, 0)
		offs := withSpecials(f.i32(s.n, -34, 34), 1, -1, 1, -1, 0, 1, -32, 0)
		out := outputBuf[uint32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, masks), inputBuf(f, bases), inputBuf(f, offs), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) uint32 { return refFns(masks[i], bases[i]&31, offs[i]) })
			requireElems(t, "out", want, readBuf[uint32](f, out, s.n))
		}}
	}},

	// warp_sync.cu
	{file: "warp_sync", kernel: "match_ops", maybeUnsupported: true, shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// Each warp has one key, a few distinct keys, or 32 random ones.
		keys := make([]int32, s.n)
		for w := range s.n / 32 {
			distinct := []int32{1, 3, 32}[f.rng.IntN(3)]
			base := int32(f.rng.Uint32())
			for l := range 32 {
				keys[32*w+l] = base + int32(f.rng.IntN(int(distinct)))*0x10001
			}
		}
		anym, allm, allp := outputBuf[uint32](f, s.n), outputBuf[uint32](f, s.n), outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{anym, allm, allp, inputBuf(f, keys)}, check: func(t *testing.T) {
			wantAny, wantAll, wantP := make([]uint32, s.n), make([]uint32, s.n), make([]int32, s.n)
			for i, k := range keys {
				w := i / 32 * 32
				for l := range 32 {
					if keys[w+l] == k {
						wantAny[i] |= 1 << l
					}
				}
				if wantAny[i] == math.MaxUint32 {
					wantAll[i], wantP[i] = math.MaxUint32, 1
				}
			}
			requireElems(t, "match.any", wantAny, readBuf[uint32](f, anym, s.n))
			requireElems(t, "match.all", wantAll, readBuf[uint32](f, allm, s.n))
			requireElems(t, "match.all predicate", wantP, readBuf[int32](f, allp, s.n))
		}}
	}},
	{file: "warp_sync", kernel: "redux_ops", maybeUnsupported: true, shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		for i := range in {
			if f.rng.IntN(3) == 0 {
				in[i] = int32(f.rng.IntN(64) - 32)
			}
		}
		out := outputBuf[uint32](f, 8*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in)}, check: func(t *testing.T) {
			var want []uint32
			for i := range in {
				warp := in[i/32*32 : i/32*32+32]
				add, smin, smax := uint32(0), int32(math.MaxInt32), int32(math.MinInt32)
				umin, umax, and, or, xor := uint32(math.MaxUint32), uint32(0), uint32(math.MaxUint32), uint32(0), uint32(0)
				for _, v := range warp {
					u := uint32(v)
					add += u
					smin, smax, umin, umax = min(smin, v), max(smax, v), min(umin, u), max(umax, u)
					and, or, xor = and&u, or|u, xor^u
				}
				want = append(want, add, uint32(smin), uint32(smax), umin, umax, and, or, xor)
			}
			requireElems(t, "out", want, readBuf[uint32](f, out, 8*s.n))
		}}
	}},

	// warp_width.cu
	{file: "warp_width", kernel: "shfl_width", maybeUnsupported: true, shapes: warpShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, math.MinInt32, math.MaxInt32)
		sel := f.i32(s.n, -40, 40)
		out := outputBuf[int32](f, 4*s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), inputBuf(f, sel)}, check: func(t *testing.T) {
			var want []int32
			for i, v := range in {
				w, l := i/32*32, i%32
				// shfl.sync: maxLane = (l & segmask) | (clamp & ^segmask); lane j is read if
				// j <= maxLane (down, bfly, idx) or j >= maxLane (up), else the lane keeps v.
				read := func(j int, ok bool) int32 {
					if ok {
						return in[w+j]
					}
					return v
				}
				idx := l&^7 | int(sel[i])&7
				want = append(want,
					read(idx, true),
					read(l-3, l-3 >= l&^15),
					read(l+5, l+5 <= l|7),
					read(l^6, l^6 <= l|3))
			}
			requireElems(t, "out", want, readBuf[int32](f, out, 4*s.n))
		}}
	}},
	{file: "warp_width", kernel: "divergent_mask", maybeUnsupported: true, shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		in := f.i32(s.n, -100, 100)
		out := outputBuf[uint32](f, s.n)
		return kernelLaunch{args: []any{out, inputBuf(f, in), s.n}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) uint32 {
				// Warps start at multiples of 32 threads in each block.
				b := int(s.block.X)
				start := i/b*b + i%b/32*32
				var m uint32
				for j := start; j < min(start+32, s.n, i/b*b+b); j++ {
					if (in[j] > 0) == (in[i] > 0) && (in[i] > 0 || in[j]&1 != 0) {
						m |= 1 << (j - start)
					}
				}
				return m
			})
			requireElems(t, "out", want, readBuf[uint32](f, out, s.n))
		}}
	}},
}

// kernelSkipUnsupported skips t if err says that the back end does not implement some of the
// PTX's instructions (and nothing else), so that a case turns on once they land.
func kernelSkipUnsupported(t *testing.T, err error) {
	t.Helper()
	if kernelOnlyUnsupported(err) {
		t.Skipf("the back end does not implement the instructions yet:\n%v", err)
	}
}

// kernelOnlyUnsupported reports whether err is a list of compile errors each of which is an
// "unsupported instruction" or is reported at the position of one (such as "unsupported
// destination operand" for the same instruction).
func kernelOnlyUnsupported(err error) bool {
	if err == nil {
		return false
	}
	lines := strings.Split(err.Error(), "\n")
	unsupported := map[string]bool{}
	for _, line := range lines {
		if pos, _, ok := strings.Cut(line, ": unsupported instruction "); ok {
			unsupported[pos] = true
		}
	}
	for _, line := range lines {
		if pos, _, ok := strings.Cut(line, ": "); !ok || !unsupported[pos] {
			return false
		}
	}
	return len(unsupported) > 0
}

// negZero32 is float32 -0.
var negZero32 = float32(math.Copysign(0, -1))

// isaFormat is a binary floating-point format: the significand's precision in bits (the
// implicit bit included) and the exponents of the smallest and largest normal binades.
type isaFormat struct{ prec, emin, emax int }

var (
	isaF16  = isaFormat{11, -14, 15}
	isaBF16 = isaFormat{8, -126, 127}
	isaF32  = isaFormat{24, -126, 127}
	isaF64  = isaFormat{53, -1022, 1023}
)

// isaExactPrec holds the exact sum of any two products or values of the formats above.
const isaExactPrec = 4096

// isaBig returns the finite or infinite x as a big.Float that holds sums and products exactly.
func isaBig(x float64) *big.Float { return new(big.Float).SetPrec(isaExactPrec).SetFloat64(x) }

// maxFinite is the format's largest finite value.
func (ft isaFormat) maxFinite() *big.Float {
	m := new(big.Float).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(ft.prec)), big.NewInt(1)))
	return m.SetMantExp(m, ft.emax-ft.prec+1)
}

// round rounds x (finite, or zero with its sign) to the format with mode as IEEE 754 does:
// subnormal results keep only the bits above 2^(emin-prec+1), a result that underflows to
// zero keeps x's sign, and overflow gives ±Inf or the largest finite value as the mode says.
func (ft isaFormat) round(x *big.Float, mode big.RoundingMode) *big.Float {
	if x.Sign() == 0 || x.IsInf() {
		return new(big.Float).Set(x)
	}
	neg := x.Signbit()
	q := max(x.MantExp(nil)-1, ft.emin) - (ft.prec - 1) // the exponent of the last kept bit
	t := new(big.Float).SetMantExp(x, -q)
	i, _ := t.Int(nil) // toward zero
	frac := new(big.Float).Sub(t, new(big.Float).SetInt(i))
	var away bool
	switch mode {
	case big.ToNearestEven:
		c := frac.Abs(frac).Cmp(big.NewFloat(0.5))
		away = c > 0 || c == 0 && i.Bit(0) == 1
	case big.AwayFromZero:
		away = frac.Sign() != 0
	case big.ToPositiveInf:
		away = frac.Sign() > 0
	case big.ToNegativeInf:
		away = frac.Sign() < 0
	}
	if away {
		i.Add(i, big.NewInt(int64(x.Sign())))
	}
	r := new(big.Float).SetInt(i)
	r.SetMantExp(r, q)
	if i.Sign() == 0 && neg {
		r.Neg(r)
	}
	if new(big.Float).Abs(r).Cmp(ft.maxFinite()) > 0 {
		if mode == big.ToNearestEven || mode == big.AwayFromZero || mode == big.ToPositiveInf && !neg || mode == big.ToNegativeInf && neg {
			return new(big.Float).SetInf(neg)
		}
		r = ft.maxFinite()
		if neg {
			r.Neg(r)
		}
	}
	return r
}

// float32 returns r, a value of a format no wider than binary32, as a float32.
func (isaFormat) float32(r *big.Float) float32 {
	f, _ := r.Float32()
	return f
}

// float64 returns r, a value of a format no wider than binary64, as a float64.
func (isaFormat) float64(r *big.Float) float64 {
	f, _ := r.Float64()
	return f
}

// isaModes are the four IEEE rounding modes in the order the fround kernels store them:
// .rn, .rz, .rp (CUDA's _ru) and .rm (_rd).
var isaModes = []big.RoundingMode{big.ToNearestEven, big.ToZero, big.ToPositiveInf, big.ToNegativeInf}

// isaRoundOps are the operations of the fround kernels, in their order.
var isaRoundOps = []string{"add", "mul", "fma", "div", "rcp", "sqrt"}

// isaRoundRef computes op (see isaRoundOps) on a, b and c, values of format ft, rounded once to
// ft with mode. NaN operands and invalid operations give NaN, and infinities and division by
// zero follow IEEE 754 (exact results, computed by Go's float64 arithmetic); finite operands
// are computed exactly, or for div, rcp and sqrt to 256 bits, far more than the format needs for
// a quotient or square root that is not exact to round like the exact value.
func isaRoundRef(ft isaFormat, op string, mode big.RoundingMode, a, b, c float64) float64 {
	special := func(vs ...float64) bool {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return true
			}
		}
		return false
	}
	// zeroSum is the zero IEEE 754 gives an exact zero sum x + y: -0 if both addends are -0, +0
	// if both are +0, and otherwise -0 only when rounding down.
	zeroSum := func(xneg, yneg, bothZero bool) float64 {
		neg := mode == big.ToNegativeInf
		if bothZero && xneg == yneg {
			neg = xneg
		}
		if neg {
			return math.Copysign(0, -1)
		}
		return 0
	}
	switch op {
	case "add":
		if special(a, b) {
			return a + b
		}
		s := new(big.Float).SetPrec(isaExactPrec).Add(isaBig(a), isaBig(b))
		if s.Sign() == 0 {
			return zeroSum(math.Signbit(a), math.Signbit(b), a == 0 && b == 0)
		}
		return ft.float64(ft.round(s, mode))
	case "mul":
		if special(a, b) {
			return a * b
		}
		return ft.float64(ft.round(new(big.Float).SetPrec(isaExactPrec).Mul(isaBig(a), isaBig(b)), mode))
	case "fma":
		if special(a, b, c) {
			return math.FMA(a, b, c)
		}
		p := new(big.Float).SetPrec(isaExactPrec).Mul(isaBig(a), isaBig(b))
		s := new(big.Float).SetPrec(isaExactPrec).Add(p, isaBig(c))
		if s.Sign() == 0 {
			return zeroSum(p.Signbit(), math.Signbit(c), p.Sign() == 0 && c == 0)
		}
		return ft.float64(ft.round(s, mode))
	case "div", "rcp":
		if op == "rcp" {
			a, b = 1, a
		}
		if special(a, b) || b == 0 || a == 0 {
			return a / b
		}
		q := new(big.Float).SetPrec(256).Quo(isaBig(a), isaBig(b))
		return ft.float64(ft.round(q, mode))
	case "sqrt":
		if special(a) || a <= 0 {
			return math.Sqrt(a)
		}
		r := new(big.Float).SetPrec(256).Sqrt(isaBig(a))
		// An exact square root is returned whatever the mode (big.Float.Sqrt is accurate to
		// its precision but need not be exact).
		if m := ft.round(r, big.ToNearestEven); new(big.Float).SetPrec(isaExactPrec).Mul(m, m).Cmp(isaBig(a)) == 0 {
			return ft.float64(m)
		}
		return ft.float64(ft.round(r, mode))
	}
	panic("unknown op " + op)
}

// isaF32Bits returns x's bits as a float32, NaNs as the canonical NaN.
func isaF32Bits(x float64) uint32 {
	if math.IsNaN(x) {
		return 0x7fffffff
	}
	return math.Float32bits(float32(x))
}

// isaF64Bits returns x's bits, NaNs as the canonical NaN.
func isaF64Bits(x float64) uint64 {
	if math.IsNaN(x) {
		return 0x7fffffffffffffff
	}
	return math.Float64bits(x)
}

// isaBitsF32 shows float32 bit patterns as floats with their bits.
func isaBitsF32(s []uint32) []floatBits32 {
	return tabulate(len(s), func(i int) floatBits32 { return floatBits32(s[i]) })
}

// isaBitsF64 shows float64 bit patterns as floats with their bits.
func isaBitsF64(s []uint64) []floatBits64 {
	return tabulate(len(s), func(i int) floatBits64 { return floatBits64(s[i]) })
}

// isaCanonBits maps every float32 NaN pattern in s to the canonical NaN, for results whose NaN
// payload the ISA does not specify (conversions from half precision).
func isaCanonBits(s []uint32) []uint32 {
	for i, b := range s {
		if b&0x7fffffff > 0x7f800000 {
			s[i] = 0x7fffffff
		}
	}
	return s
}

// isaF32 returns a float32 from a mix of ordinary values of moderate magnitude, small integers
// (exact sums, products and square roots), values with random bits (every binade, subnormals,
// infinities and NaNs) and the specials.
func (f *kernelFixture) isaF32() float32 {
	specials := []float32{0, negZero32, 1, -1, 2, 0.5, 4, 9, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -0x1p-126,
		0x1.fffffcp-127, 0x1p-100, 0x1p100, 3}
	switch f.rng.IntN(8) {
	case 0:
		return specials[f.rng.IntN(len(specials))]
	case 1, 2:
		return math.Float32frombits(f.rng.Uint32())
	case 3:
		return float32(f.rng.IntN(41) - 20)
	}
	return float32((f.rng.Float64()*2 - 1) * math.Exp2(float64(f.rng.IntN(41)-20)))
}

// isaF64 is isaF32 for float64.
func (f *kernelFixture) isaF64() float64 {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, 4, 9, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -0x1p-1022, 0x1p-1000, 0x1p1000, 3}
	switch f.rng.IntN(8) {
	case 0:
		return specials[f.rng.IntN(len(specials))]
	case 1, 2:
		return math.Float64frombits(f.rng.Uint64())
	case 3:
		return float64(f.rng.IntN(41) - 20)
	}
	return (f.rng.Float64()*2 - 1) * math.Exp2(float64(f.rng.IntN(81)-40))
}

// isaConvertValue returns a value for float-to-integer conversions: halves and near-integers
// (where the rounding modes differ), values up to ±limit, and random bit patterns.
func (f *kernelFixture) isaConvertValue(limit float64) float64 {
	switch f.rng.IntN(4) {
	case 0:
		return float64(f.rng.IntN(201)-100) / 2
	case 1:
		return float64(f.rng.IntN(201)-100) + (f.rng.Float64()-0.5)*1e-3
	case 2:
		return math.Float64frombits(f.rng.Uint64())
	}
	return (f.rng.Float64()*2 - 1) * limit
}

// isaCvtInt converts x to an integer the way cvt.{rni,rzi,rpi,rmi}.sN.fM does: rounded by rnd,
// clamped to [lo, hi], and 0 for NaN.
func isaCvtInt(x float64, rnd func(float64) float64, lo, hi int64) int64 {
	switch r := rnd(x); {
	case math.IsNaN(x):
		return 0
	case r <= float64(lo):
		return lo
	case r >= float64(hi):
		return hi
	default:
		return int64(r)
	}
}

// isaCvtUint64 is isaCvtInt for .u64, whose maximum a float64 cannot compare exactly.
func isaCvtUint64(x float64, rnd func(float64) float64) uint64 {
	switch r := rnd(x); {
	case math.IsNaN(x) || r <= 0:
		return 0
	case r >= 0x1p64:
		return math.MaxUint64
	default:
		return uint64(r)
	}
}

// isaAbsWithin accepts a result within tol of the exact value.
func isaAbsWithin(tol float64) func(g, exact float64) bool {
	return func(g, exact float64) bool { return math.Abs(g-exact) <= tol }
}

// isaRelWithin accepts a result within relative error tol of the exact value.
func isaRelWithin(tol float64) func(g, exact float64) bool {
	return func(g, exact float64) bool { return math.Abs(g-exact) <= tol*math.Abs(exact) }
}

// isaULPWithin accepts a float32 result at most n ulp away from the correctly rounded value of
// exact: within n + 1/2 float32 ulp of exact, the ulp taken in exact's binade (subnormal ulp
// below 2^-126).
func isaULPWithin(n float64) func(g, exact float64) bool {
	return func(g, exact float64) bool {
		_, e := math.Frexp(exact)
		ulp := math.Exp2(float64(max(e-1, -126) - 23))
		return math.Abs(g-exact) <= (n+0.5)*ulp
	}
}

// refFns is fns.b32 as the PTX ISA defines it: the position of the |off|-th set bit of mask,
// searching from bit base (included) upward for off > 0 and downward for off < 0, base itself
// if off is 0 and that bit is set, and 0xffffffff when there is no such bit.
func refFns(mask, base uint32, off int32) uint32 {
	if off == 0 {
		if mask>>base&1 != 0 {
			return base
		}
		return math.MaxUint32
	}
	step, count := 1, int(off)-1
	if off < 0 {
		step, count = -1, -int(off)-1
	}
	for pos := int(base); pos >= 0 && pos < 32; pos += step {
		if mask>>pos&1 != 0 {
			if count == 0 {
				return uint32(pos)
			}
			count--
		}
	}
	return math.MaxUint32
}

// isaHalf is an expected 16-bit result: a bit pattern, or any NaN where the ISA leaves the NaN
// unspecified.
type isaHalf struct {
	bits   uint16
	anyNaN bool
}

func (h isaHalf) String() string {
	if h.anyNaN {
		return "any NaN"
	}
	return fmt.Sprintf("%#04x", h.bits)
}

// isaHalfNaN is the canonical binary16 and bfloat16 NaN.
const isaHalfNaN = 0x7fff

// requireISAHalves requires got[i] to match want[i]: the same bits, or for anyNaN a NaN (a
// magnitude above want's bits, the format's infinity).
func requireISAHalves(t *testing.T, what string, want []isaHalf, got []uint16) {
	t.Helper()
	require.Len(t, got, len(want), what)
	var diffs []string
	for i, w := range want {
		if w.anyNaN && got[i]&0x7fff <= w.bits || !w.anyNaN && got[i] != w.bits {
			diffs = append(diffs, fmt.Sprintf("%s[%d]: want %v, got %#04x", what, i, w, got[i]))
		}
	}
	failElems(t, what, len(want), diffs)
}

// anyNaN returns the expectation "any NaN of format ft" (bits holds the format's infinity, which
// every NaN's magnitude exceeds).
func (ft isaFormat) anyNaN() isaHalf {
	if ft == isaF16 {
		return isaHalf{bits: 0x7c00, anyNaN: true}
	}
	return isaHalf{bits: 0x7f80, anyNaN: true}
}

// decode returns the 16-bit pattern h of format ft (binary16 or bfloat16) as a float64.
func (ft isaFormat) decode(h uint16) float64 {
	if ft == isaBF16 {
		return float64(math.Float32frombits(uint32(h) << 16))
	}
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * m * 0x1p-24
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1024 + m) * math.Exp2(float64(e-25))
}

// encode returns the 16-bit pattern of x, a value of format ft (binary16 or bfloat16) or ±Inf,
// with NaN as the canonical NaN.
func (ft isaFormat) encode(x float64) uint16 {
	if math.IsNaN(x) {
		return isaHalfNaN
	}
	b := math.Float32bits(float32(x))
	if ft == isaBF16 {
		return uint16(b >> 16)
	}
	sign := uint16(b>>16) & 0x8000
	switch a := math.Abs(x); {
	case math.IsInf(x, 0):
		return sign | 0x7c00
	case a < 0x1p-14:
		return sign | uint16(a*0x1p24)
	default:
		return sign | uint16(int(b>>23&0xff)-127+15)<<10 | uint16(b>>13&0x3ff)
	}
}

// isNaN reports whether the 16-bit pattern h of format ft is a NaN.
func (ft isaFormat) isNaN(h uint16) bool { return math.IsNaN(ft.decode(h)) }

// isaRN returns the 16-bit pattern of x (exact, or ±Inf, or NaN) rounded to nearest even in
// format ft, NaN as the canonical NaN.
func isaRN(ft isaFormat, x *big.Float) isaHalf {
	return isaHalf{bits: ft.encode(ft.float64(ft.round(x, big.ToNearestEven)))}
}

// isaNarrow is cvt.rn.{f16,bf16}.f32 of x: rounded to nearest even; a NaN gives some NaN.
func isaNarrow(ft isaFormat, x float64) isaHalf {
	if math.IsNaN(x) {
		return ft.anyNaN()
	}
	return isaRN(ft, isaBig(x))
}

// isaWidenBits is cvt.f32.{f16,bf16} of h: exact, with NaN mapped to the canonical NaN (the
// check canonicalizes the result's NaNs too, as the payload is not specified).
func isaWidenBits(ft isaFormat, h uint16) uint32 {
	return isaF32Bits(ft.decode(h))
}

// isaHalfFMA is fma.rn of the 16-bit values a, b and c of format ft (relu clamps a negative
// result to +0): the exact a*b + c rounded once; NaN operands or an invalid operation give the
// canonical NaN.
func isaHalfFMA(ft isaFormat, a, b, c uint16, relu bool) isaHalf {
	x, y, z := ft.decode(a), ft.decode(b), ft.decode(c)
	var r float64
	if math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) {
		r = math.FMA(x, y, z)
	} else {
		p := new(big.Float).SetPrec(isaExactPrec).Mul(isaBig(x), isaBig(y))
		s := new(big.Float).SetPrec(isaExactPrec).Add(p, isaBig(z))
		if s.Sign() == 0 {
			r = 0
			if p.Signbit() && math.Signbit(z) {
				r = math.Copysign(0, -1)
			}
		} else {
			r = ft.float64(ft.round(s, big.ToNearestEven))
		}
	}
	if relu && r < 0 {
		r = 0
	}
	return isaHalf{bits: ft.encode(r)}
}

// isaHalfMinMax is min.{f16,bf16} (isMin, NaN operands ignored unless both are NaN) or
// max.NaN (any NaN operand gives the canonical NaN); -0 is below +0.
func isaHalfMinMax(ft isaFormat, a, b uint16, isMin, nanProp bool) isaHalf {
	x, y := ft.decode(a), ft.decode(b)
	switch {
	case math.IsNaN(x) && math.IsNaN(y), nanProp && (math.IsNaN(x) || math.IsNaN(y)):
		return isaHalf{bits: isaHalfNaN}
	case math.IsNaN(x):
		return isaHalf{bits: b}
	case math.IsNaN(y):
		return isaHalf{bits: a}
	}
	less := x < y || x == y && math.Signbit(x) && !math.Signbit(y)
	if less == isMin {
		return isaHalf{bits: a}
	}
	return isaHalf{bits: b}
}

// isaHalfOps is half_ops for one element: a + b, a - b, a * b, fma, fma.relu, min, max.NaN,
// -a and cvt.rn.f16.f32 of f, all binary16. Sums and products of two binary16 values are exact
// in float64 and rounded once; neg of a NaN gives some NaN.
func isaHalfOps(ft isaFormat, a, b, c uint16, f float64) []isaHalf {
	x, y := ft.decode(a), ft.decode(b)
	arith := func(r float64) isaHalf {
		if math.IsNaN(r) {
			return isaHalf{bits: isaHalfNaN}
		}
		return isaRN(ft, isaBig(r))
	}
	neg := isaHalf{bits: a ^ 0x8000}
	if ft.isNaN(a) {
		neg = ft.anyNaN()
	}
	return []isaHalf{
		arith(x + y), arith(x - y), arith(x * y),
		isaHalfFMA(ft, a, b, c, false), isaHalfFMA(ft, a, b, c, true),
		isaHalfMinMax(ft, a, b, true, false), isaHalfMinMax(ft, a, b, false, true),
		neg, isaNarrow(ft, f),
	}
}

// isaBF16Ops is bf16_ops for one element: fma, min, abs, neg, cvt.rn.bf16.f32 of f, and a + b
// as clang compiles it for sm_80: a float32 add of the widened values, then cvt.rn.bf16.f32.
// abs and neg of a NaN give some NaN.
func isaBF16Ops(a, b, c uint16, f float32) []isaHalf {
	ft := isaBF16
	abs, neg := isaHalf{bits: a &^ 0x8000}, isaHalf{bits: a ^ 0x8000}
	if ft.isNaN(a) {
		abs, neg = ft.anyNaN(), ft.anyNaN()
	}
	return []isaHalf{
		isaHalfFMA(ft, a, b, c, false), isaHalfMinMax(ft, a, b, true, false), abs, neg,
		isaNarrow(ft, float64(f)), isaNarrow(ft, float64(float32(ft.decode(a))+float32(ft.decode(b)))),
	}
}

// isaF16 returns a binary16 pattern: random bits (every binade, subnormals, infinities, NaNs)
// or a value of moderate magnitude.
func (f *kernelFixture) isaF16() uint16 {
	if f.rng.IntN(3) == 0 {
		return uint16(f.rng.Uint32())
	}
	return uint16(f.rng.IntN(2))<<15 | uint16(10+f.rng.IntN(11))<<10 | uint16(f.rng.IntN(1024))
}

// isaBF16 is isaF16 for bfloat16.
func (f *kernelFixture) isaBF16() uint16 {
	if f.rng.IntN(3) == 0 {
		return uint16(f.rng.Uint32())
	}
	return uint16(f.rng.IntN(2))<<15 | uint16(117+f.rng.IntN(21))<<7 | uint16(f.rng.IntN(128))
}

// TestKernelISAReferences checks the references that the cases above use against independent
// computations, as most of them cannot run on the back end yet: round to nearest even against
// Go's float32 and float64 arithmetic, the directed modes by their defining inequalities
// (checked with exact products for div, rcp and sqrt), and binary16 and bfloat16 rounding
// against a search of all binary16 values and the bit-level bfloat16 rounding.
func TestKernelISAReferences(t *testing.T) {
	f := newKernelFixture(t, 1)
	canon := func(x float64) uint64 { return isaF64Bits(x) }
	for range 5000 {
		a, b, c := f.isaF32(), f.isaF32(), f.isaF32()
		x, y, z := float64(a), float64(b), float64(c)
		rn32 := map[string]float32{"add": float32(a + b), "mul": float32(a * b), "div": float32(a / b),
			"rcp": float32(1 / a), "sqrt": float32(math.Sqrt(x)), "fma": float32(math.FMA(x, y, z))}
		rn64 := map[string]float64{"add": x + y, "mul": x * y, "div": x / y, "rcp": 1 / x, "sqrt": math.Sqrt(x),
			"fma": math.FMA(x, y, z)}
		for _, op := range isaRoundOps {
			// float32(math.FMA(...)) rounds twice; compare fma only where that is exact.
			if op != "fma" || float64(rn32["fma"]) == math.FMA(x, y, z) {
				require.Equal(t, canon(float64(rn32[op])), canon(isaRoundRef(isaF32, op, big.ToNearestEven, x, y, z)), "%s rn f32(%g, %g, %g)", op, a, b, c)
			}
			require.Equal(t, canon(rn64[op]), canon(isaRoundRef(isaF64, op, big.ToNearestEven, x, y, z)), "%s rn f64(%g, %g, %g)", op, x, y, z)
			isaCheckDirected(t, isaF32, op, x, y, z)
		}
		x, y, z = f.isaF64(), f.isaF64(), f.isaF64()
		for _, op := range isaRoundOps {
			isaCheckDirected(t, isaF64, op, x, y, z)
		}
	}
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		mode big.RoundingMode
		a, b float64
		neg  bool
	}{
		{big.ToNegativeInf, 1, -1, true}, {big.ToPositiveInf, 1, -1, false}, {big.ToZero, 1, -1, false},
		{big.ToNegativeInf, 0, 0, false}, {big.ToNegativeInf, 0, negZero, true}, {big.ToNearestEven, negZero, negZero, true},
		{big.ToNearestEven, 0, negZero, false},
	} {
		r := isaRoundRef(isaF32, "add", c.mode, c.a, c.b, 0)
		require.True(t, r == 0 && math.Signbit(r) == c.neg, "%v + %v rounding %v = %v", c.a, c.b, c.mode, r)
	}

	// All finite non-negative binary16 values in increasing order (their patterns increase too).
	var f16s []float64
	for h := uint16(0); h < 0x7c00; h++ {
		f16s = append(f16s, isaF16.decode(h))
	}
	for range 20000 {
		x := f.isaF16ValueNear(f16s)
		want := isaF16SearchRN(f16s, math.Abs(x))
		if math.Signbit(x) {
			want |= 0x8000
		}
		require.Equal(t, isaHalf{bits: want}, isaNarrow(isaF16, x), "binary16 rounding of %g", x)

		g := math.Float32frombits(f.rng.Uint32())
		if g != g {
			continue
		}
		gb := math.Float32bits(g)
		wantBF := uint16((gb + 0x7fff + gb>>16&1) >> 16) // round to nearest even on the bits
		require.Equal(t, isaHalf{bits: wantBF}, isaNarrow(isaBF16, float64(g)), "bfloat16 rounding of %g", g)
	}
}

// isaCheckDirected checks isaRoundRef's four modes for op on x, y, z against each other and the
// exact result: rd <= exact <= ru with ru the next value after rd (or equal, when exact),
// rz the one of them toward zero, and rn one of them.
func isaCheckDirected(t *testing.T, ft isaFormat, op string, x, y, z float64) {
	t.Helper()
	r := map[big.RoundingMode]float64{}
	for _, m := range isaModes {
		r[m] = isaRoundRef(ft, op, m, x, y, z)
	}
	rn, rz, ru, rd := r[big.ToNearestEven], r[big.ToZero], r[big.ToPositiveInf], r[big.ToNegativeInf]
	if math.IsNaN(rn) {
		require.True(t, math.IsNaN(rz) && math.IsNaN(ru) && math.IsNaN(rd), "%s(%g, %g, %g): NaN in some modes only", op, x, y, z)
		return
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) && op != "sqrt" && op != "rcp" || math.IsInf(z, 0) && op == "fma" {
		return // exact infinities and zeros, the same in every mode
	}
	next := func(v float64) float64 {
		if ft == isaF32 {
			return float64(math.Nextafter32(float32(v), float32(math.Inf(1))))
		}
		return math.Nextafter(v, math.Inf(1))
	}
	where := fmt.Sprintf("%s(%g, %g, %g): rn %g rz %g ru %g rd %g", op, x, y, z, rn, rz, ru, rd)
	// cmp compares v with the exact result: the sign of v - exact.
	cmp := func(v float64) int {
		V := isaBig(v)
		switch op {
		case "add":
			return V.Cmp(new(big.Float).SetPrec(isaExactPrec).Add(isaBig(x), isaBig(y)))
		case "mul":
			return V.Cmp(new(big.Float).SetPrec(isaExactPrec).Mul(isaBig(x), isaBig(y)))
		case "fma":
			p := new(big.Float).SetPrec(isaExactPrec).Mul(isaBig(x), isaBig(y))
			return V.Cmp(p.Add(p, isaBig(z)))
		case "sqrt":
			if v < 0 || math.IsInf(v, 0) {
				return V.Sign()
			}
			return new(big.Float).SetPrec(isaExactPrec).Mul(V, V).Cmp(isaBig(x))
		}
		num, den := x, y
		if op == "rcp" {
			num, den = 1, x
		}
		if den == 0 {
			return 0
		}
		if math.IsInf(v, 0) {
			return V.Sign()
		}
		c := new(big.Float).SetPrec(isaExactPrec).Mul(V, isaBig(den)).Cmp(isaBig(num))
		if den < 0 {
			c = -c
		}
		return c
	}
	require.LessOrEqual(t, cmp(rd), 0, where)
	require.GreaterOrEqual(t, cmp(ru), 0, where)
	require.True(t, ru == rd || ru == next(rd), where)
	if cmp(rd) == 0 {
		require.True(t, rn == rd && rz == rd && ru == rd, where)
	}
	require.True(t, rn == rd || rn == ru, where)
	if rd >= 0 && !math.Signbit(rd) {
		require.Equal(t, canonZero(rd), canonZero(rz), where)
	} else {
		require.Equal(t, canonZero(ru), canonZero(rz), where)
	}
}

// canonZero returns v's bits, for comparisons that must tell -0 from +0.
func canonZero(v float64) uint64 { return math.Float64bits(v) }

// isaF16ValueNear returns a float64 near a binary16 value: a random one, a midpoint between two
// neighbours, or a value just beside a midpoint, in the whole binary16 range and a little above.
func (f *kernelFixture) isaF16ValueNear(f16s []float64) float64 {
	i := f.rng.IntN(len(f16s))
	lo, hi := f16s[i], 65536.0
	if i+1 < len(f16s) {
		hi = f16s[i+1]
	}
	x := lo + (hi-lo)*[]float64{0.5, f.rng.Float64(), 0.5 + 1e-9, 0.5 - 1e-9, 0}[f.rng.IntN(5)]
	if f.rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

// isaF16SearchRN rounds x >= 0 to nearest even among the binary16 values f16s (0x7c00, +Inf, past
// the largest finite value's midpoint with 2^16).
func isaF16SearchRN(f16s []float64, x float64) uint16 {
	i := sort.SearchFloat64s(f16s, x) // the first value >= x
	if i == len(f16s) || f16s[i] > x {
		i--
	}
	hi := 65536.0
	if i+1 < len(f16s) {
		hi = f16s[i+1]
	}
	switch d := (x - f16s[i]) - (hi - x); {
	case d < 0, d == 0 && i%2 == 0:
		return uint16(i)
	}
	return uint16(i + 1)
}
