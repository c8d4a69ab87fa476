package semantics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestMmaInt runs testdata/ptx/hand/mma_int.ptx's integer mma kernels on both engines against
// a plain matrix product D = A*B + C in int64, clamped to the .s32 range for .satfinite and
// wrapped modulo 2^32 otherwise: random 8-bit elements, and accumulators near the .s32 limits
// so that sums overflow.
func TestMmaInt(t *testing.T) {
	const path = "testdata/ptx/hand/mma_int.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		for _, c := range []struct {
			kernel           string
			k                int
			signedA, signedB bool
			sat              bool
		}{
			{"imma32_sat", 32, true, true, true},
			{"imma32_wrap", 32, false, true, false},
			{"imma16", 16, true, false, false},
		} {
			kern, err := mod.Kernel(c.kernel)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(uint64(c.k), 7))
			for round := range 4 {
				a := make([]byte, 16*c.k)
				b := make([]byte, c.k*8) // column-major: b[j*k+kk] is B[kk][j]
				for i := range a {
					a[i] = byte(rng.Uint32())
				}
				for i := range b {
					b[i] = byte(rng.Uint32())
				}
				cm := make([]int32, 16*8)
				for i := range cm {
					switch round {
					case 0:
						cm[i] = int32(rng.Uint32()) >> 8
					case 1:
						cm[i] = math.MaxInt32 - int32(rng.IntN(20000))
					case 2:
						cm[i] = math.MinInt32 + int32(rng.IntN(20000))
					default:
						cm[i] = int32(rng.Uint32())
					}
				}
				elem := func(x byte, signed bool) int64 {
					if signed {
						return int64(int8(x))
					}
					return int64(x)
				}
				want := make([]int32, 16*8)
				for i := range 16 {
					for j := range 8 {
						s := int64(cm[i*8+j])
						for kk := range c.k {
							s += elem(a[i*c.k+kk], c.signedA) * elem(b[j*c.k+kk], c.signedB)
						}
						if c.sat {
							s = min(max(s, math.MinInt32), math.MaxInt32)
						}
						want[i*8+j] = int32(s)
					}
				}
				dev := runtime.NewDevice()
				pa, err := runtime.Upload(dev, a)
				require.NoError(t, err)
				pb, err := runtime.Upload(dev, b)
				require.NoError(t, err)
				pc, err := runtime.Upload(dev, cm)
				require.NoError(t, err)
				pd, err := dev.Malloc(4 * 16 * 8)
				require.NoError(t, err)
				require.NoError(t, kern.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), pd, pa, pb, pc))
				got := make([]int32, 16*8)
				require.NoError(t, runtime.Download(dev, got, pd))
				require.Equal(t, want, got, "%s round %d", c.kernel, round)
			}
		}
	})
}
