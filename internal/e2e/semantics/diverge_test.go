package semantics_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestDivergentPaths runs hand/diverge.ptx on both engines against a Go model of the SIMT
// stack's paths: the lanes that run each iteration of a loop they leave one by one, each
// target of a brx.idx inside such a loop, each depth of a recursion whose base case
// diverges, and both sides of an if/else whose sides loop and call. activemask records the
// lanes of every path, so a path run with the wrong lanes, or lanes that never reconverge,
// shows. Blocks of 64 and 48 threads (a partial second warp), on one worker and on all.
func TestDivergentPaths(t *testing.T) {
	const path = "testdata/ptx/hand/diverge.ptx"
	const words = 16
	const sentinel = 0xdead0000
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		for _, threads := range []int{64, 48} {
			for _, workers := range []int{1, 0} {
				for seed := range uint32(4) {
					t.Run(fmt.Sprintf("threads=%d/workers=%d/seed=%d", threads, workers, seed), func(t *testing.T) {
						in := make([]uint32, threads)
						for i := range in {
							in[i] = (uint32(i)*2654435761 + seed*40503) >> 11
						}
						// launch runs kernel on out (sentinels) and the arrays ins, and returns out and
						// ins as the kernel left them.
						launch := func(kernel string, ins ...[]uint32) ([]uint32, [][]uint32) {
							t.Helper()
							out := make([]uint32, threads*words)
							for i := range out {
								out[i] = sentinel + uint32(i)
							}
							pout, err := runtime.Upload(dev, out)
							require.NoError(t, err)
							args := []any{pout}
							var ptrs []runtime.Ptr
							for _, x := range ins {
								p, err := runtime.Upload(dev, x)
								require.NoError(t, err)
								args = append(args, p)
								ptrs = append(ptrs, p)
							}
							k, err := mod.Kernel(kernel)
							require.NoError(t, err)
							cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(uint32(threads)), Workers: workers}
							require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, args...))
							require.NoError(t, runtime.Download(dev, out, pout))
							after := make([][]uint32, len(ins))
							for i, p := range ptrs {
								after[i] = make([]uint32, len(ins[i]))
								require.NoError(t, runtime.Download(dev, after[i], p))
							}
							return out, after
						}
						fresh := func() []uint32 {
							want := make([]uint32, threads*words)
							for i := range want {
								want[i] = sentinel + uint32(i)
							}
							return want
						}

						// recurse: x in [0, 15].
						xs := make([]uint32, threads)
						for i := range xs {
							xs[i] = in[i] % 16
						}
						out, after := launch("recurse", make([]uint32, threads), xs)
						want := fresh()
						wantRes := make([]uint32, threads)
						forWarps(threads, func(lanes []int) {
							for d := range uint32(16) {
								m := maskOf(lanes, func(l int) bool { return xs[l] > d })
								for _, l := range lanes {
									if xs[l] > d {
										want[l*words+int(d)] = m
										wantRes[l] += m
									}
								}
							}
						})
						require.Equal(t, want, out, "recurse: masks")
						require.Equal(t, wantRes, after[0], "recurse: results")

						// loop: ks in [1, 14].
						ks := make([]uint32, threads)
						for i := range ks {
							ks[i] = in[i]%14 + 1
						}
						out, _ = launch("loop", ks)
						want = fresh()
						forWarps(threads, func(lanes []int) {
							acc := map[int]uint32{}
							for i := range uint32(14) {
								active := maskOf(lanes, func(l int) bool { return ks[l] > i })
								key := func(l int) uint32 { return (ks[l] - i + uint32(l)) % 3 }
								atT2 := maskOf(lanes, func(l int) bool { return ks[l] > i && key(l) == 2 })
								for _, l := range lanes {
									if ks[l] <= i {
										continue
									}
									want[l*words+int(i)] = active
									switch key(l) {
									case 0:
										acc[l]++
									case 1:
										acc[l] *= 3
									case 2:
										acc[l] ^= atT2
									}
								}
							}
							for _, l := range lanes {
								want[l*words+15] = acc[l]
							}
						})
						require.Equal(t, want, out, "loop")

						// ifloop: odd ks loop k%5+1 times, even ones (k/2)%4+1 times, calling depth(i).
						out, _ = launch("ifloop", in)
						want = fresh()
						forWarps(threads, func(lanes []int) {
							all := maskOf(lanes, func(int) bool { return true })
							odd := func(l int) bool { return in[l]%2 == 1 }
							trips := func(l int) uint32 {
								if odd(l) {
									return in[l]%5 + 1
								}
								return in[l]/2%4 + 1
							}
							acc := map[int]uint32{}
							for i := range uint32(5) {
								oddMask := maskOf(lanes, func(l int) bool { return odd(l) && trips(l) > i })
								evenMask := maskOf(lanes, func(l int) bool { return !odd(l) && trips(l) > i })
								for _, l := range lanes {
									if trips(l) <= i {
										continue
									}
									if odd(l) {
										acc[l] += oddMask
										want[l*words+int(i)] = oddMask
										continue
									}
									acc[l] ^= evenMask
									acc[l] += i * evenMask
									for d := range i {
										want[l*words+8+int(d)] = evenMask
									}
								}
							}
							for _, l := range lanes {
								want[l*words+14] = all
								want[l*words+15] = acc[l]
							}
						})
						require.Equal(t, want, out, "ifloop")
					})
				}
			}
		}
	})
}

// forWarps calls f with the threads of each warp of a one-dimensional block of n threads.
func forWarps(n int, f func(lanes []int)) {
	for w := 0; w < n; w += runtime.WarpSize {
		var lanes []int
		for l := w; l < min(w+runtime.WarpSize, n); l++ {
			lanes = append(lanes, l)
		}
		f(lanes)
	}
}

// maskOf is the lane mask of the threads in lanes (one warp's) for which in holds.
func maskOf(lanes []int, in func(l int) bool) uint32 {
	var m uint32
	for _, l := range lanes {
		if in(l) {
			m |= 1 << (l % runtime.WarpSize)
		}
	}
	return m
}
