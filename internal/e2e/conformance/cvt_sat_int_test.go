package conformance_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestCvtSatInt runs testdata/ptx/hand/cvt_sat_int.ptx, cvt.sat from .s32, .u32, .s64 and .u64 to
// every integer type, against a model on big integers: the source's value clamped to the
// destination's range, a narrow signed result sign-extended to its 32-bit register.
func TestCvtSatInt(t *testing.T) {
	const path = "testdata/ptx/hand/cvt_sat_int.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("cvt_sat_int")
		require.NoError(t, err)
		const n = 64
		r := rand.New(rand.NewPCG(17, 18))
		in := []uint64{0, 1, 0xff, 0x80, 0x7f, 0xffffffff, 0x80000000, 0x7fffffff, math.MaxUint64, 1 << 63,
			math.MaxInt64, 0xffffffffffffff80, 0xffffffff80000000, 1 << 32, 0xffff, 0x8000, 0xffffffffffff7fff}
		for len(in) < n {
			in = append(in, r.Uint64()>>r.IntN(64))
		}
		dev := runtime.NewDevice()
		out32, err := dev.Malloc(4 * 24 * n)
		require.NoError(t, err)
		out64, err := dev.Malloc(8 * 8 * n)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(n), out32, out64, harness.Upload(t, dev, in)))
		got32 := make([]uint32, 24*n)
		require.NoError(t, runtime.Download(dev, got32, out32))
		got64 := make([]uint64, 8*n)
		require.NoError(t, runtime.Download(dev, got64, out64))
		type intType struct {
			bits   int
			signed bool
		}
		srcs := []intType{{32, true}, {32, false}, {64, true}, {64, false}}
		value := func(x uint64, s intType) *big.Int { // the source operand's value
			x &= math.MaxUint64 >> (64 - s.bits)
			v := new(big.Int).SetUint64(x)
			if s.signed && x>>(s.bits-1) == 1 {
				v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(s.bits)))
			}
			return v
		}
		clamp := func(v *big.Int, d intType) *big.Int {
			lo, hi := big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(d.bits)), big.NewInt(1))
			if d.signed {
				lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(d.bits-1)))
				hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(d.bits-1)), big.NewInt(1))
			}
			switch {
			case v.Cmp(lo) < 0:
				return lo
			case v.Cmp(hi) > 0:
				return hi
			}
			return v
		}
		// bitsOf is v in two's complement, width bits.
		bitsOf := func(v *big.Int, width int) uint64 {
			m := new(big.Int).Lsh(big.NewInt(1), uint(width))
			return new(big.Int).Mod(v, m).Uint64()
		}
		for i, x := range in {
			for s, st := range srcs {
				for d, dt := range []intType{{8, true}, {8, false}, {16, true}, {16, false}, {32, true}, {32, false}} {
					c := clamp(value(x, st), dt)
					want := uint32(bitsOf(c, 32)) // a signed result is sign-extended to the register
					if !dt.signed {
						want = uint32(bitsOf(c, dt.bits))
					}
					if got := got32[24*i+6*s+d]; got != want {
						t.Errorf("cvt.sat.%v.%v of %#x: %#x, want %#x", dt, st, x, got, want)
					}
				}
				for d, dt := range []intType{{64, true}, {64, false}} {
					if got, want := got64[8*i+2*s+d], bitsOf(clamp(value(x, st), dt), 64); got != want {
						t.Errorf("cvt.sat.%v.%v of %#x: %#x, want %#x", dt, st, x, got, want)
					}
				}
			}
		}
	})
}
