package semantics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestMmaF64 runs hand/mma_f64.ptx's mma.sync.aligned.m8n8k4.f64 on both engines against Go
// written from the PTX ISA's fragment layout (lane l, g = l/4, q = l%4: a = A[g][q],
// b = B[q][g], c[i] and d[i] = C[g][2q+i], D[g][2q+i]) and the documented numerics (each
// element a chain of float64 fused multiply-adds from c in k order).
func TestMmaF64(t *testing.T) {
	const path = "testdata/ptx/hand/mma_f64.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("dmma")
		require.NoError(t, err)
		const warps = 3
		r := rand.New(rand.NewPCG(7, 8))
		rnd := func(n int) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-20)
			}
			return s
		}
		a, b, c := rnd(32*warps), rnd(32*warps), rnd(64*warps)
		dev := runtime.NewDevice()
		pa, pb, pc := harness.Upload(t, dev, a), harness.Upload(t, dev, b), harness.Upload(t, dev, c)
		pd, err := dev.Malloc(8 * 64 * warps)
		require.NoError(t, err)
		pe, err := dev.Malloc(8 * 64 * warps)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(warps), runtime.D1(32), pa, pb, pc, pd, pe))
		gotD, gotE := make([]float64, 64*warps), make([]float64, 64*warps)
		require.NoError(t, runtime.Download(dev, gotD, pd))
		require.NoError(t, runtime.Download(dev, gotE, pe))
		wantD, wantE := make([]float64, 64*warps), make([]float64, 64*warps)
		for w := range warps {
			var A [8][4]float64
			var B [4][8]float64
			var C [8][8]float64
			for l := range 32 {
				g, q := l/4, l%4
				A[g][q], B[q][g] = a[32*w+l], b[32*w+l]
				C[g][2*q], C[g][2*q+1] = c[64*w+2*l], c[64*w+2*l+1]
			}
			mma := func(C [8][8]float64) (D [8][8]float64) {
				for i := range 8 {
					for j := range 8 {
						s := C[i][j]
						for kk := range 4 {
							s = math.FMA(A[i][kk], B[kk][j], s)
						}
						D[i][j] = s
					}
				}
				return D
			}
			D := mma(C)
			E := mma(D)
			for l := range 32 {
				g, q := l/4, l%4
				for i := range 2 {
					wantD[64*w+2*l+i], wantE[64*w+2*l+i] = D[g][2*q+i], E[g][2*q+i]
				}
			}
		}
		require.Equal(t, wantD, gotD)
		require.Equal(t, wantE, gotE)
	})
}
