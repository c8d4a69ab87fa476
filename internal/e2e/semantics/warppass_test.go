package semantics_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestWarpPass runs testdata/ptx/hand/warp_pass.ptx on both engines against lockstep references: the
// Go engine runs inplace's and copy's blocks as one pass over a full warp's lanes (with two
// stores of the same bytes in inplace), and must fall back to lockstep order where a lane
// loads what another stores (shift), stores and loads of different sizes overlap (bytes), an
// access is not contiguous (strided, staged's reversed read) or one lane faults (copy past
// the end of its allocation, or misaligned): the fault names the first lane lockstep
// execution reaches, after the earlier warps' stores. The first warp of a launch on a worker
// runs the ordinary code, which finds the allocations the later warps' passes check against.
func TestWarpPass(t *testing.T) {
	const path = "testdata/ptx/hand/warp_pass.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		launch := func(name string, grid, block uint32, args ...any) error {
			k, err := mod.Kernel(name)
			require.NoError(t, err)
			return k.Launch(t.Context(), dev, runtime.D1(grid), runtime.D1(block), args...)
		}
		words := func(n int, f func(i int) uint32) []uint32 {
			s := make([]uint32, n)
			for i := range s {
				s[i] = f(i)
			}
			return s
		}
		upload := func(s []uint32) runtime.Ptr {
			p, err := runtime.Upload(dev, s)
			require.NoError(t, err)
			return p
		}
		download := func(p runtime.Ptr, n int) []uint32 {
			s := make([]uint32, n)
			require.NoError(t, runtime.Download(dev, s, p))
			return s
		}

		// inplace: 4 CTAs of 96 threads over 384 words.
		init := words(384, func(i int) uint32 { return uint32(i*2654435761) >> 3 })
		p := upload(init)
		require.NoError(t, launch("inplace", 4, 96, p))
		want := words(384, func(i int) uint32 { return (3*init[i] + 1) ^ 5 })
		require.Equal(t, want, download(p, 384), "inplace")

		// shift: 4 warps, each over its own 33 words; lockstep loads every word of a warp
		// before any lane stores. The first warp of a launch primes the windows the others'
		// passes check against.
		init = words(4*33, func(i int) uint32 { return uint32(10 * i) })
		p = upload(init)
		require.NoError(t, launch("shift", 1, 128, p))
		want = slices.Clone(init)
		for i := range 128 {
			want[i+i/32+1] = init[i+i/32] + 1
		}
		require.Equal(t, want, download(p, 4*33), "shift")

		// bytes: in each warp's row, all 32 byte stores land before the word loads.
		init = words(4*32, func(i int) uint32 { return 0xa0a0a0a0 + uint32(i) })
		p = upload(init)
		out, err := dev.Malloc(4 * 32 * 4)
		require.NoError(t, err)
		require.NoError(t, launch("bytes", 1, 128, p, out))
		want = words(4*32, func(i int) uint32 {
			if l := i % 32; l < 8 {
				b := uint32(4*l + 1)
				return b | (b+1)<<8 | (b+2)<<16 | (b+3)<<24
			}
			return init[i]
		})
		require.Equal(t, want, download(out, 4*32), "bytes")

		// strided: lane i reads words 2i and i.
		init = words(256, func(i int) uint32 { return uint32(i*i + 7) })
		a := upload(init)
		require.NoError(t, launch("strided", 1, 128, a, out))
		require.Equal(t, words(128, func(i int) uint32 { return init[2*i] + init[i] }), download(out, 128), "strided")

		// staged: through shared memory, reversed after the barrier.
		init = words(64, func(i int) uint32 { return uint32(1000 + 17*i) })
		in := upload(init)
		require.NoError(t, launch("staged", 1, 64, in, out))
		require.Equal(t, words(64, func(i int) uint32 { return 3*init[63-i] + 3*init[i] }), download(out, 64), "staged")

		// carry: the address's carry chain must not touch the CC.CF the block reads first.
		p = upload(make([]uint32, 96))
		require.NoError(t, launch("carry", 1, 96, p))
		require.Equal(t, words(96, func(i int) uint32 { return min(uint32(i%32), 1) }), download(p, 96), "carry")

		// copy: in bounds over 3 CTAs; then 64 threads over 40 words, where thread 40 faults
		// after warp 0 has stored; then CTA 1 of two on one worker misaligned (skew 2), where
		// its thread 0 faults after CTA 0 has copied.
		init = words(192, func(i int) uint32 { return uint32(5*i + 3) })
		a = upload(init)
		out, err = dev.Malloc(192 * 4)
		require.NoError(t, err)
		require.NoError(t, launch("copy", 3, 64, a, out, uint64(0)))
		require.Equal(t, init, download(out, 192), "copy")

		short := upload(init[:40])
		out, err = dev.Malloc(64 * 4)
		require.NoError(t, err)
		err = launch("copy", 1, 64, short, out, uint64(0))
		loc := harness.FaultLocIn(t, path, "load")
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultOutOfBounds, Kernel: "copy", Loc: loc, Thread: runtime.Dim3{X: 40},
			HasAddr: true, Addr: uint64(short) + 160})
		require.Equal(t, init[:32], download(out, 32), "copy: warp 0's stores before the fault")

		out, err = dev.Malloc(192 * 4)
		require.NoError(t, err)
		k, err := mod.Kernel("copy")
		require.NoError(t, err)
		err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(2), Block: runtime.D1(64), Workers: 1}, a, out, uint64(2))
		harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultMisaligned, Kernel: "copy", Loc: loc, CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: 0},
			HasAddr: true, Addr: uint64(a) + 2 + 4*64})
		require.Equal(t, init[:64], download(out, 64), "copy: CTA 0's stores before the fault")

		// wrap_s and wrap_u: 64 threads copy word k + tid, the pointers passed 4k bytes low.
		// With a small k both warps copy; where k + tid wraps at thread 40 (signed for wrap_s,
		// unsigned for wrap_u), the widened index jumps back by 2^32: the pass's check of lanes
		// 0 and 31 must see it, and thread 40 faults after warp 0 has copied.
		init = words(64, func(i int) uint32 { return uint32(7*i + 1) })
		a = upload(init)
		for _, kernel := range []string{"wrap_s", "wrap_u"} {
			out, err = dev.Malloc(64 * 4)
			require.NoError(t, err)
			low := func(p runtime.Ptr, k uint32) runtime.Ptr { return p - runtime.Ptr(4*uint64(k)) }
			require.NoError(t, launch(kernel, 1, 64, low(a, 5), low(out, 5), uint32(5)))
			require.Equal(t, init, download(out, 64), kernel)

			out, err = dev.Malloc(64 * 4)
			require.NoError(t, err)
			k, index := uint32(0x80000000-40), int64(math.MinInt32)
			if kernel == "wrap_u" {
				k, index = uint32(0xffffffff-39), 0
			}
			err = launch(kernel, 1, 64, low(a, k), low(out, k), k)
			harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultOutOfBounds, Kernel: kernel, Loc: harness.FaultLocIn(t, path, kernel+" load"),
				Thread: runtime.Dim3{X: 40}, HasAddr: true, Addr: uint64(low(a, k)) + uint64(4*index)})
			require.Equal(t, init[:32], download(out, 32), kernel+": warp 0's stores before the fault")
		}

		// grid3: blocks of 4x2x4 threads set out[x + y + 9z] = 3*a[x + y + 9z]; the indices
		// of lanes 0 and 31 are 0 and 31, those between are not contiguous. Three CTAs on one
		// worker, so the later ones' passes find the windows the first one's code cached.
		init = words(64, func(i int) uint32 { return uint32(11*i + 2) })
		a = upload(init)
		out, err = dev.Malloc(64 * 4)
		require.NoError(t, err)
		k, err = mod.Kernel("grid3")
		require.NoError(t, err)
		require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.Dim3{X: 4, Y: 2, Z: 4}, Workers: 1},
			a, out, uint32(1), uint32(9)))
		want = make([]uint32, 64)
		for z := range 4 {
			for y := range 2 {
				for x := range 4 {
					i := x + y + 9*z
					want[i] = 3 * init[i]
				}
			}
		}
		require.Equal(t, want, download(out, 64), "grid3")
	})
}
