package semantics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/stretchr/testify/require"
)

// fmaChainPath holds dot4, a chain of dependent f32 operations with loads between them and a
// predicate read at its end: for a full warp the Go source back end runs it as several lane
// loops, passing values between them through arrays (codegen/gosrc/chunks.go).
const fmaChainPath = "testdata/ptx/hand/fma_chain.ptx"

// dot4Go is the Go reference of dot4 for thread i: f32 operations rounded to nearest, the FMAs
// correctly rounded, NaN results canonical.
func dot4Go(a, b []float32, i int) uint32 {
	canon := func(f float32) float32 {
		if f != f {
			return math.Float32frombits(0x7fffffff)
		}
		return f
	}
	fma := func(x, y, z float32) float32 { return canon(harness.FMA32(x, y, z)) }
	r, s := a[4*i:4*i+4], b[4*i:4*i+4]
	x := canon(r[0] * s[0])
	sum := fma(r[3], s[3], fma(r[2], s[2], fma(r[1], s[1], x)))
	if x > 0 {
		return math.Float32bits(canon(canon(sum+x) - r[0]))
	}
	return math.Float32bits(canon(sum - r[0]))
}

// TestFMAChain checks dot4 against the Go reference on full and partial warps, and that a
// fault the lanes would meet in different chunks is the one lockstep execution meets first:
// with a ending 8 bytes into row 40, thread 41's first load faults before thread 40's third
// load, which comes later in the chain (and in a later chunk).
func TestFMAChain(t *testing.T) {
	harness.OnEngines(t, fmaChainPath, func(t *testing.T) {
		mod, err := harness.LoadModule(t, fmaChainPath)
		require.NoError(t, err)
		k, err := mod.Kernel("dot4")
		require.NoError(t, err)
		for _, threads := range []int{64, 45} {
			dev := runtime.NewDevice()
			r := rand.New(rand.NewPCG(7, uint64(threads)))
			a, b := make([]float32, 4*threads), make([]float32, 4*threads)
			for i := range a {
				a[i], b[i] = r.Float32()*4-2, r.Float32()*4-2
			}
			a[4*5] = float32(math.NaN())            // a NaN product: a NaN result, canonical
			a[4*9+1], b[4*9+1] = 0x1p-70, 0x1p-70   // a product in the float32 subnormal range
			a[4*11+2], b[4*11+2] = 0x1p100, 0x1p100 // an infinite sum
			pa, pb := harness.Upload(t, dev, a), harness.Upload(t, dev, b)
			out, err := dev.Malloc(4 * threads)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(threads)), out, pa, pb))
			got := harness.SemDownload(t, dev, out, threads)
			for i := range threads {
				if want := dot4Go(a, b, i); got[i] != want {
					t.Errorf("%d threads: out[%d] = %#08x, want %#08x", threads, i, got[i], want)
				}
			}
		}
		dev := runtime.NewDevice()
		short, err := dev.Malloc(16*40 + 8)
		require.NoError(t, err)
		pb, err := dev.Malloc(16 * 64)
		require.NoError(t, err)
		out, err := dev.Malloc(4 * 64)
		require.NoError(t, err)
		err = k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(64), out, short, pb)
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultOutOfBounds, Kernel: "dot4", Loc: harness.FaultLocIn(t, fmaChainPath, "first_load"),
			Thread: runtime.Dim3{X: 41}, HasAddr: true, Addr: uint64(short) + 16*41})
	})
}

// TestRegionPark runs hand/region_park.ptx's park_loop, whose odd lanes loop n times in a
// divergent branch: with n past 65536 the Go source back end's per-lane region parks each
// lane once or twice and the runtime runs the rest of its loop, which must see the values the
// lane computed in the region (x3 and the loop's state).
func TestRegionPark(t *testing.T) {
	const path = "testdata/ptx/hand/region_park.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("park_loop")
		require.NoError(t, err)
		for _, n := range []uint32{5, 70000, 140000} {
			dev := runtime.NewDevice()
			in := make([]uint32, 32)
			for i := range in {
				in[i] = uint32(i*2654435761) ^ 0x5bd1e995
			}
			out, err := dev.Malloc(4 * 32)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out, harness.Upload(t, dev, in), n))
			got := harness.SemDownload(t, dev, out, 32)
			for i, x := range in {
				want := uint32(7)
				if i%2 == 1 {
					x3, s := 3*x, uint32(0)
					for j := range n {
						s += x3 ^ j
					}
					want = s + x3
				}
				if got[i] != want {
					t.Errorf("n=%d: out[%d] = %#x, want %#x", n, i, got[i], want)
				}
			}
		}
	})
}

// regionMultiGo is the Go reference of hand/region_multi.ptx's region_multi for x = in[i]:
// {a, b, c, d}. A subtraction's carry is the carry-out of a + ^b + 1, as the GPU's.
func regionMultiGo(x uint32, i int) [4]uint32 {
	if x&1 == 0 {
		cf := uint32(0)
		if x >= 0x12345678 {
			cf = 1
		}
		return [4]uint32{x - 0x12345678, 0xffffffff + cf, x, 7}
	}
	var a, b, c, d uint32
	q := x > 0x80000000
	v := uint64(x)
	for k := uint32(0); k <= x>>1&7; k++ {
		v *= 0x9E3779B97F4A7C15
		lo, hi := uint32(v), uint32(v>>32)
		s := uint64(a) + uint64(lo)
		a = uint32(s)
		s = uint64(b) + uint64(hi) + s>>32
		b = uint32(s)
		d += uint32(s >> 32)
		c ^= lo ^ hi // lop3 0x96: a ^ b ^ c
		if c != 0 || q {
			d += 256
		}
	}
	r := (v ^ (uint64(a) | uint64(b)<<32)) + uint64(i)*4
	return [4]uint32{uint32(r), uint32(r >> 32), c, d}
}

// TestRegionMulti runs hand/region_multi.ptx, whose divergent branch starts a per-lane region
// (codegen/gosrc/region.go) holding mov unpacks, mov.b128, carry chains and lop3 with a
// predicate result: the Go source back end wrote their results to the register file's
// arrays, which a region's code does not declare (it keeps a lane's registers in locals), so
// the generated package did not build.
func TestRegionMulti(t *testing.T) {
	const path = "testdata/ptx/hand/region_multi.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("region_multi")
		require.NoError(t, err)
		for _, threads := range []int{64, 45} {
			dev := runtime.NewDevice()
			r := rand.New(rand.NewPCG(11, uint64(threads)))
			in := make([]uint32, threads)
			for i := range in {
				in[i] = r.Uint32()
			}
			in[2] = 0x12345676 // even paths with and without a borrow
			in[4] = 0x12345678
			in[5] = 0x7ffffff1 // q false on odd lanes
			in[7] = 1
			out, err := dev.Malloc(16 * threads)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(threads)), out, harness.Upload(t, dev, in)))
			got := harness.SemDownload(t, dev, out, 4*threads)
			for i, x := range in {
				want := regionMultiGo(x, i)
				if [4]uint32(got[4*i:4*i+4]) != want {
					t.Errorf("%d threads: thread %d (x=%#x): %#x, want %#x", threads, i, x, got[4*i:4*i+4], want)
				}
			}
		}
	})
}

// halfExact is the binary16 encoding of v, a value it represents exactly as a normal number
// or zero.
func halfExact(v float64) uint16 {
	var sign uint16
	if v < 0 {
		sign, v = 0x8000, -v
	}
	if v == 0 {
		return sign
	}
	frac, exp := math.Frexp(v) // v = frac * 2^exp, frac in [0.5, 1)
	return sign | uint16(exp-1+15)<<10 | uint16(frac*2048)&0x3ff
}

// TestHalfChunks runs hand/half_chunks.ptx, __hdiv's sequence (cvt.f32.f16, rcp.approx, mul,
// cvt back) that the Go source back end splits into two chunks for a full warp, on quotients
// that are exact: a = k, b = 2^j - 1, out = k / 2^j. The array carrying the first chunk's
// cvt result had the name cvt's lowering gives its source operand, so the package did not
// build.
func TestHalfChunks(t *testing.T) {
	const path = "testdata/ptx/hand/half_chunks.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("half_div")
		require.NoError(t, err)
		for _, threads := range []int{64, 45} {
			dev := runtime.NewDevice()
			r := rand.New(rand.NewPCG(15, uint64(threads)))
			a, b := make([]uint16, threads), make([]uint16, threads)
			want := make([]uint16, threads)
			for i := range a {
				num, j := r.IntN(2001)-1000, r.IntN(5)
				a[i], b[i] = halfExact(float64(num)), halfExact(float64(int(1)<<j-1))
				want[i] = halfExact(float64(num) / float64(int(1)<<j))
			}
			out, err := dev.Malloc(2 * threads)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(uint32(threads)), out, harness.Upload(t, dev, a), harness.Upload(t, dev, b)))
			got := make([]uint16, threads)
			require.NoError(t, runtime.Download(dev, got, out))
			require.Equal(t, want, got, "%d threads", threads)
		}
	})
}
