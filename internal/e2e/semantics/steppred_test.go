package semantics_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestStepPredicates runs hand/step_pred.ptx's comparisons of v = tid.x + k with b on both
// engines against Go: with small k (where the Go engine sets the predicates of a full warp
// without a loop), where v wraps inside a warp as a signed (k near 2^31), unsigned (k near
// 2^32) or 16-bit value, which must take the loop, and in 16x4 blocks, whose warps' %tid.x do
// not count up along them. Kernels cmps and cmp3 compare in a block of their own, mixed and
// cmp3m in the loop that computes v.
func TestStepPredicates(t *testing.T) {
	const path = "testdata/ptx/hand/step_pred.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		for _, kernel := range []string{"cmps", "mixed"} {
			stepCompares(t, mod, dev, kernel)
		}

		for _, kernel := range []string{"cmp3", "cmp3m"} {
			k, err := mod.Kernel(kernel)
			require.NoError(t, err)
			out, err := dev.Malloc(4 * 32)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.Dim3{X: 4, Y: 2, Z: 4}, out, uint32(6), uint32(1), uint32(9)))
			got := make([]uint32, 32)
			require.NoError(t, runtime.Download(dev, got, out))
			want := make([]uint32, 32)
			for i := range want {
				if i%4+i/4%2+9*(i/8) < 6 {
					want[i] = 1
				}
			}
			require.Equal(t, want, got, kernel)
		}
	})
}

// stepCompares runs kernel cmps or mixed over the cases of TestStepPredicates.
func stepCompares(t *testing.T, mod *ptx2go.Module, dev *runtime.Device, kernel string) {
	k, err := mod.Kernel(kernel)
	require.NoError(t, err)
	for _, c := range []struct {
		k, b  uint32
		block runtime.Dim3
	}{
		{5, 5 + 37, runtime.D1(64)},
		{5, 3, runtime.D1(64)},
		{0, 100, runtime.D1(64)},
		{0, 0, runtime.D1(64)},
		{7, 7 + 31, runtime.D1(96)},
		{0x80000000 - 40, 0x80000000 - 40 + 45, runtime.D1(64)},
		{0x80000000 - 40, 0x80000000 + 3, runtime.D1(64)},
		{0xffffffff - 39, 0xffffffff - 30, runtime.D1(64)},
		{0xffffffff - 39, 2, runtime.D1(64)},
		{0xfff0, 0x10005, runtime.D1(64)},
		{0x7ff0, 0x8003, runtime.D1(64)},
		{3, 20, runtime.Dim3{X: 16, Y: 4, Z: 1}},
	} {
		n := int(c.block.X * c.block.Y)
		out, err := dev.Malloc(4 * n)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), c.block, out, c.k, c.b))
		got := make([]uint32, n)
		require.NoError(t, runtime.Download(dev, got, out))
		want := make([]uint32, n)
		for i := range want {
			v := uint32(i)%c.block.X + c.k
			sv, sb := int32(v), int32(c.b)
			tests := []bool{sv < sb, sv <= sb, sb > sv, sv >= sb, v == c.b, v != c.b, v < c.b, c.b >= v, v > c.b, v <= c.b, v > 7, int16(v) < int16(c.b)}
			if kernel == "mixed" {
				tests = append(tests, sv > sb, sv < sb)
			}
			for bit, ok := range tests {
				if ok {
					want[i] |= 1 << bit
				}
			}
		}
		require.Equal(t, want, got, "%s: k=%#x b=%#x block %v", kernel, c.k, c.b, c.block)
	}
}
