package semantics_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestTraces runs hand/trace.ptx's bounds tests on both engines against Go, over bounds that
// send whole warps to the body (where the Go engine runs the test's block and the body's as
// one warp pass), none, or split one: n = 0, 1, 31, 32, 33, 100, 255, 256. bound also
// compares i + k with k near 2^31, where the signed value wraps inside a warp, and every
// kernel runs in 16x4 blocks too, whose warps' %tid.x does not count up; shifted computes its
// bound in the test's block from a register. Elements the body
// does not write keep their sentinel. The first warp of a launch on a worker runs the
// ordinary code, which finds the allocations the later warps' passes check against.
func TestTraces(t *testing.T) {
	const path = "testdata/ptx/hand/trace.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		const total = 256
		a := make([]uint32, total)
		for i := range a {
			a[i] = uint32(i*2654435761) >> 7
		}
		pa, err := runtime.Upload(dev, a)
		require.NoError(t, err)
		sentinel := make([]uint32, total)
		for i := range sentinel {
			sentinel[i] = 0xdead0000 + uint32(i)
		}
		run := func(kernel string, block runtime.Dim3, f func(i int) (uint32, bool), args ...any) {
			t.Helper()
			out, err := runtime.Upload(dev, sentinel)
			require.NoError(t, err)
			k, err := mod.Kernel(kernel)
			require.NoError(t, err)
			grid := runtime.D1(total / (block.X * block.Y))
			// One worker: each warp of a CTA then starts from the registers the same warp of the
			// CTA before it left, as a trace must not read.
			require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: grid, Block: block, Workers: 1}, append([]any{out, pa}, args...)...))
			got := make([]uint32, total)
			require.NoError(t, runtime.Download(dev, got, out))
			want := append([]uint32(nil), sentinel...)
			threads := int(block.X * block.Y)
			for g := range total {
				// Thread g of the launch: CTA g/threads, %tid.x = g%threads%ntid.x.
				i := g/threads*int(block.X) + g%threads%int(block.X)
				if v, ok := f(i); ok {
					want[i] = v
				}
			}
			require.Equal(t, want, got, "%s %v %v", kernel, block, args)
		}
		for _, block := range []runtime.Dim3{runtime.D1(64), {X: 16, Y: 4, Z: 1}} {
			for _, n := range []uint32{0, 1, 31, 32, 33, 100, 128, 130, 192, 255, 256} {
				t.Run(fmt.Sprintf("%dx%d/n=%d", block.X, block.Y, n), func(t *testing.T) {
					for _, k := range []uint32{0, 7, 0x7fffffff - 40, 0x7fffffff - 70} {
						run("bound", block, func(i int) (uint32, bool) {
							v := uint32(i) + k
							return 3*a[i] + v, int32(v) < int32(n)
						}, k, n)
					}
					run("taken", block, func(i int) (uint32, bool) { return a[i] ^ uint32(i), uint32(i) < n }, n)
					run("negated", block, func(i int) (uint32, bool) { return a[i] + uint32(i), uint32(i) < n }, n)
					live := func(c *uint32) func(i int) (uint32, bool) {
						return func(i int) (uint32, bool) {
							v, w, p := uint32(0xffffffff), uint32(0), false
							if int32(i) < int32(n) {
								v = 2 * a[i]
								w = a[i] + 5
								if c != nil {
									w = *c
								}
								p = int32(v) > 100
							}
							if p {
								return v + w + 1000, true
							}
							return v + w, true
						}
					}
					run("live", block, live(nil), n)
					c := uint32(77)
					run("liveuni", block, live(&c), n, c)
					run("late", block, func(i int) (uint32, bool) { return a[i] - uint32(i), int32(i) < int32(n) }, n)
					run("shifted", block, func(i int) (uint32, bool) {
						if bound := int32(n) - int32(i/int(block.X)); int32(i) >= bound {
							return uint32(bound), true
						}
						return a[i] + 1, true
					}, n)
				})
			}
		}
	})
}
