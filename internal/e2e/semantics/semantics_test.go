package semantics_test

// Control-flow semantics of the SIMT machine, checked against an independent Go model of
// what every lane does. The hand-written kernels in testdata/ptx/semantics store, per
// thread, the values they compute and the result of `activemask` (the mask of lanes
// executing that instruction) at chosen points: inside each side of a divergent branch,
// inside loops and callees, and right after each reconvergence point, where the mask must
// be the warp's full set of live lanes again. Every slot a thread must not write keeps a
// sentinel, so a lane running a path it should not take is caught too.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// semSentinels returns n u32 set to the sentinel: the expected buffer before the model fills in
// the slots each thread writes.
func semSentinels(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = harness.SemSentinel
	}
	return s
}

// semWarpMask is the activemask the model predicts for thread tid of a CTA of ntid threads
// (1D): the lanes of tid's warp whose thread exists and satisfies in.
func semWarpMask(ntid, tid int, in func(u int) bool) uint32 {
	var m uint32
	base := tid / 32 * 32
	for l := range 32 {
		u := base + l
		if u < ntid && (in == nil || in(u)) {
			m |= 1 << l
		}
	}
	return m
}

// semCompare reports every slot of got that differs from want, naming the thread and slot.
func semCompare(t *testing.T, got, want []uint32, stride int, slotNames ...string) {
	t.Helper()
	bad := 0
	for i := range want {
		if got[i] == want[i] {
			continue
		}
		bad++
		if bad > 20 {
			continue
		}
		slot := fmt.Sprint(i % stride)
		if i%stride < len(slotNames) && slotNames[i%stride] != "" {
			slot += " (" + slotNames[i%stride] + ")"
		}
		t.Errorf("thread %d slot %s: got %#x, want %#x", i/stride, slot, got[i], want[i])
	}
	if bad > 20 {
		t.Errorf("... %d mismatches in all", bad)
	}
}

// semLaunch1 runs k on one CTA of ntid threads with a fresh output buffer of ntid*stride u32
// (all sentinels) and returns the buffer's contents.
func semLaunch1(t *testing.T, k *ptx2go.Kernel, ntid, stride int, extra ...any) []uint32 {
	t.Helper()
	dev := runtime.NewDevice()
	out := harness.SemFilled(t, dev, ntid*stride, harness.SemSentinel)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := append([]any{out}, extra...)
	if err := k.Launch(ctx, dev, runtime.D1(1), runtime.D1(uint32(ntid)), args...); err != nil {
		t.Fatalf("launch %s: %v", k.Name(), err)
	}
	return harness.SemDownload(t, dev, out, ntid*stride)
}

func TestSemanticsPredicationVsDivergence(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "predication.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "predication.ptx", "predication")
		for _, ntid := range []int{64, 70} {
			t.Run(fmt.Sprint(ntid), func(t *testing.T) {
				const stride = 8
				got := semLaunch1(t, k, ntid, stride)
				want := semSentinels(ntid * stride)
				p := func(u int) bool { return u%3 == 0 }
				for tid := range ntid {
					o := want[tid*stride:]
					o[0] = uint32(100 + tid)
					if p(tid) {
						o[0] += 1000
					}
					o[1] = semWarpMask(ntid, tid, nil) // predication keeps every lane
					if p(tid) {
						o[2] = semWarpMask(ntid, tid, p)
						o[5] = 1
					} else {
						o[3] = semWarpMask(ntid, tid, func(u int) bool { return !p(u) })
						o[5] = 2
					}
					o[4] = semWarpMask(ntid, tid, nil)
					o[6] = harness.SemSentinel + 1
					o[7] = harness.SemSentinel + 1
				}
				semCompare(t, got, want, stride, "@p add", "mask after @p add", "mask taken", "mask fall-through", "mask at join", "path", "runs after join", "runs of either side")
			})
		}
	})
}

func TestSemanticsNestedDivergence(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "nested.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "nested.ptx", "nested")
		const ntid, stride = 96, 8
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		c1 := func(u int) bool { return u%2 == 1 }
		c2 := func(u int) bool { return (u/2)%3 != 0 }
		c3 := func(u int) bool { return u%5 < 2 }
		for tid := range ntid {
			o := want[tid*stride:]
			a, b, c := c1(tid), c2(tid), c3(tid)
			o[0] = semWarpMask(ntid, tid, func(u int) bool { return c1(u) == a })
			path := uint32(2)
			o[7] = harness.SemSentinel + 1
			if a {
				o[7]++
				path = 1
				o[1] = semWarpMask(ntid, tid, func(u int) bool { return c1(u) && c2(u) == b })
				if b {
					path += 10
					o[2] = semWarpMask(ntid, tid, func(u int) bool { return c1(u) && c2(u) && c3(u) == c })
					if c {
						path += 100
					} else {
						path += 200
					}
					o[3] = semWarpMask(ntid, tid, func(u int) bool { return c1(u) && c2(u) })
					path += 1000
					o[7]++
				} else {
					path += 20
				}
				o[4] = semWarpMask(ntid, tid, c1)
			}
			o[5] = semWarpMask(ntid, tid, nil)
			o[6] = path
		}
		semCompare(t, got, want, stride, "level 1", "level 2", "level 3", "level-3 join", "level-2 join", "level-1 join", "path", "joins passed")
	})
}

func TestSemanticsDivergentWhileLoop(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "loops.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "loops.ptx", "while_loop")
		const ntid, stride = 80, 34
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		for tid := range ntid {
			o := want[tid*stride:]
			lane := tid % 32
			acc := uint32(0)
			for it := range lane {
				o[it] = semWarpMask(ntid, tid, func(u int) bool { return u%32 > it })
				acc = acc*3 + uint32(it) + 1
			}
			o[31] = harness.SemSentinel + 1
			o[32] = semWarpMask(ntid, tid, nil)
			o[33] = acc
		}
		semCompare(t, got, want, stride)
	})
}

func TestSemanticsDivergentDoWhileLoop(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "loops.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "loops.ptx", "dowhile_loop")
		const ntid, stride = 100, 8
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		trip := func(u int) int { return u*7%5 + 1 }
		for tid := range ntid {
			o := want[tid*stride:]
			acc := uint32(0)
			for it := range trip(tid) {
				o[it] = semWarpMask(ntid, tid, func(u int) bool { return trip(u) > it })
				acc += uint32((it + 1) * tid)
			}
			o[5] = harness.SemSentinel + 1
			o[6] = semWarpMask(ntid, tid, nil)
			o[7] = acc
		}
		semCompare(t, got, want, stride)
	})
}

func TestSemanticsDivergentBrxIdx(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "brx.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "brx.ptx", "brx_divergent")
		const ntid, stride = 75, 4
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		for tid := range ntid {
			o := want[tid*stride:]
			tgt := tid % 5
			o[0] = semWarpMask(ntid, tid, func(u int) bool { return u%5 == tgt })
			o[1] = semWarpMask(ntid, tid, nil)
			o[2] = uint32(tgt*1000 + tid)
			o[3] = harness.SemSentinel + 1
		}
		semCompare(t, got, want, stride, "mask at target", "mask at join", "value", "runs after join")
	})
}

func TestSemanticsIndirectCalls(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "indirect.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "indirect.ptx", "indirect")
		const ntid, stride = 64, 10
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		fns := []func(uint32) uint32{
			func(x uint32) uint32 { return x + 1 },
			func(x uint32) uint32 { return x * 3 },
			func(x uint32) uint32 { return x ^ 0x55 },
		}
		sel := []func(u int) int{
			func(u int) int { return u % 3 },       // A: .calltargets
			func(u int) int { return (u / 3) % 3 }, // B: call table
			func(u int) int { return (u / 4) % 3 }, // C: .callprototype
		}
		for tid := range ntid {
			o := want[tid*stride:]
			v := uint32(tid)
			for form, s := range sel {
				f := s(tid)
				o[form*3] = semWarpMask(ntid, tid, func(u int) bool { return s(u) == f })
				v = fns[f](v)
				o[form*3+1] = v
				o[form*3+2] = semWarpMask(ntid, tid, nil)
			}
			o[9] = harness.SemSentinel + 6
		}
		semCompare(t, got, want, stride,
			"A: mask in callee", "A: result", "A: mask after",
			"B: mask in callee", "B: result", "B: mask after",
			"C: mask in callee", "C: result", "C: mask after", "runs next to calls")
	})
}

func TestSemanticsRecursion(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "recursion.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "recursion.ptx", "recursion")
		const ntid, stride = 48, 36
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		n := func(u int) int { return u * 13 % 32 }
		for tid := range ntid {
			o := want[tid*stride:]
			m := n(tid)
			for d := 0; d <= m; d++ {
				o[d] = semWarpMask(ntid, tid, func(u int) bool { return n(u) >= d })
			}
			o[m+1] = semWarpMask(ntid, tid, func(u int) bool { return n(u) == m })
			o[33] = uint32(m * (m + 1) / 2)
			o[34] = semWarpMask(ntid, tid, nil)
			o[35] = harness.SemSentinel + uint32(m) + 3
		}
		semCompare(t, got, want, stride)
	})
}

func TestSemanticsDivergentReturnFromLoop(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "retloop.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "retloop.ptx", "retloop")
		const ntid, stride = 72, 32
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		lim1 := func(u int) int { return u * 5 % 9 }
		lim2 := func(u int) int { return u * 3 % 7 }
		for tid := range ntid {
			o := want[tid*stride:]
			for it := 0; it <= lim1(tid); it++ {
				o[it] = semWarpMask(ntid, tid, func(u int) bool { return lim1(u) >= it })
			}
			o[9] = harness.SemSentinel + uint32(lim1(tid)) + 1
			o[10] = uint32(lim1(tid)*10 + 7)
			o[11] = semWarpMask(ntid, tid, nil)
			o[12] = harness.SemSentinel + 4
			for it := 0; it <= lim2(tid); it++ {
				o[16+it] = semWarpMask(ntid, tid, func(u int) bool { return lim2(u) >= it })
			}
			o[25] = harness.SemSentinel + uint32(lim2(tid)) + 1
			o[26] = uint32(lim2(tid)*10 + 7)
			o[27] = semWarpMask(ntid, tid, nil)
		}
		names := make([]string, stride)
		names[9], names[10], names[11], names[12] = "find iterations", "find result", "mask after find", "runs next to calls"
		names[25], names[26], names[27] = "find2 iterations", "find2 result", "mask after find2"
		semCompare(t, got, want, stride, names...)
	})
}

func TestSemanticsExitInFunctionReleasesBarrier(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "exitbar.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "exitbar.ptx", "exitbar")
		const ntid, stride = 128, 4
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		dies := func(u int) bool { return u%3 == 0 || (u >= 64 && u < 96) }
		for tid := range ntid {
			o := want[tid*stride:]
			if dies(tid) {
				o[2] = 0xD1E
				continue
			}
			o[0] = uint32(127 - tid + 1000)
			o[1] = semWarpMask(ntid, tid, func(u int) bool { return !dies(u) })
			o[3] = harness.SemSentinel + 1
		}
		semCompare(t, got, want, stride, "sh[127-tid] after barrier", "mask after barrier", "exit marker", "runs after barrier")
	})
}

func TestSemanticsPartialWarp(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "partial.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "partial.ptx", "partial")
		const ntid, room, stride = 100, 128, 8
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, room*stride, harness.SemSentinel)
		if err := k.Launch(context.Background(), dev, runtime.D1(1), runtime.D1(ntid), out); err != nil {
			t.Fatal(err)
		}
		got := harness.SemDownload(t, dev, out, room*stride)
		want := semSentinels(room * stride)
		odd := func(u int) bool { return u%2 == 1 }
		for tid := range ntid {
			o := want[tid*stride:]
			o[0] = semWarpMask(ntid, tid, nil)
			if odd(tid) {
				o[2] = semWarpMask(ntid, tid, odd)
			} else {
				o[1] = semWarpMask(ntid, tid, func(u int) bool { return !odd(u) })
			}
			o[3] = semWarpMask(ntid, tid, nil)
			o[4] = harness.SemSentinel + 1
		}
		// The model's masks for warp 3 are 0xF, 0x5 and 0xA; say so explicitly too.
		if w := want[96*stride:]; w[0] != 0xF || w[1] != 0x5 || want[97*stride+2] != 0xA || w[3] != 0xF {
			t.Fatalf("model: warp 3 masks %#x %#x %#x %#x", w[0], w[1], want[97*stride+2], w[3])
		}
		semCompare(t, got, want, stride, "mask at start", "mask even", "mask odd", "mask at join", "runs after join")
	})
}

func TestSemanticsBraUni(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "brauni.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "brauni.ptx", "brauni")
		const grid, ntid, stride = 3, 40, 8
		for _, mode := range []uint32{0, 1} {
			t.Run(fmt.Sprint("mode", mode), func(t *testing.T) {
				dev := runtime.NewDevice()
				out := harness.SemFilled(t, dev, grid*ntid*stride, harness.SemSentinel)
				if err := k.Launch(context.Background(), dev, runtime.D1(grid), runtime.D1(ntid), out, mode); err != nil {
					t.Fatal(err)
				}
				got := harness.SemDownload(t, dev, out, grid*ntid*stride)
				want := semSentinels(grid * ntid * stride)
				for cta := range grid {
					for tid := range ntid {
						o := want[(cta*ntid+tid)*stride:]
						full := semWarpMask(ntid, tid, nil)
						o[0], o[1], o[2] = full, full, full
						path := uint32(1 + cta%2)
						if mode != 0 {
							path += 10
						} else {
							path += 20
						}
						o[3] = path
						o[4] = harness.SemSentinel + 1
					}
				}
				semCompare(t, got, want, stride, "mask ctaid path", "mask mode path", "mask at end", "path")
			})
		}
	})
}

func TestSemanticsGuardedCallAndRet(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "guarded.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "guarded.ptx", "guarded")
		const ntid, stride = 64, 6
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		caller := func(u int) bool { return u%4 != 1 }
		for tid := range ntid {
			o := want[tid*stride:]
			v := uint32(5)
			if caller(tid) {
				o[0] = semWarpMask(ntid, tid, caller)
				v = uint32(tid + 500)
				if tid > 20 {
					o[1] = semWarpMask(ntid, tid, func(u int) bool { return caller(u) && u > 20 })
					v = uint32(tid * 2)
				}
			}
			o[2] = semWarpMask(ntid, tid, nil)
			o[3] = v
			o[5] = harness.SemSentinel + 2
			if tid%5 == 0 {
				o[4] = semWarpMask(ntid, tid, func(u int) bool { return u%5 == 0 })
			}
		}
		semCompare(t, got, want, stride, "mask in g", "mask after @!q ret", "mask after call", "result", "mask after @!e ret")
	})
}

// TestSemanticsPredicateParams passes .reg .pred parameters and return values per lane, in
// direct, divergent, guarded and indirect calls (predparams.ptx).
func TestSemanticsPredicateParams(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "predparams.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "predparams.ptx", "predparams")
		const ntid, stride = 70, 8
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		b := func(p bool) uint32 {
			if p {
				return 1
			}
			return 0
		}
		for tid := range ntid {
			o := want[tid*stride:]
			p1, p2 := tid%3 == 0, tid%5 < 2
			o[0] = b(!p1)
			o[1] = b(p1 != p2)
			v := uint32(tid)
			if p2 {
				v += 1000
			}
			if p1 {
				v++
			}
			o[2] = v
			q := tid%2 == 0
			if tid%4 != 3 {
				q = !p2
			}
			o[3] = b(q)
			q = tid%2 != 0
			if tid%7 < 3 {
				q = p1
			}
			o[4] = b(q)
			if p2 {
				o[5] = b(tid != 0)
			} else {
				o[5] = b(tid%2 == 1)
			}
			if tid%2 == 0 {
				o[6] = b(!p2)
			} else {
				o[6] = b(p2)
			}
			if tid%3 == 1 {
				o[7] = b(p1)
			} else {
				o[7] = b(!p1)
			}
		}
		semCompare(t, got, want, stride, "pnot", "pmix pred", "pmix value", "divergent pnot", "guarded pid", "pearly", ".calltargets", ".callprototype")
	})
}

// TestPredicateParamErrors checks that a call mixing predicates and other values in .reg
// parameters is a clear error at the call's file:line:col: a predicate is a lane mask, not a
// register value of one byte.
func TestPredicateParamErrors(t *testing.T) {
	const head = ".version 8.0\n.target sm_80\n.address_size 64\n" +
		".func (.reg .pred %o) f (.reg .pred %i)\n{\n\tmov.pred %o, %i;\n\tret;\n}\n" +
		".func (.reg .u8 %o) g (.reg .u8 %i)\n{\n\tmov.u8 %o, %i;\n\tret;\n}\n" +
		".visible .entry k()\n{\n\t.reg .pred %p<3>;\n\t.reg .u8 %b<3>;\n\t.reg .u64 %rd<3>;\n" +
		"\tPR: .callprototype (.reg .pred _) _ (.reg .pred _);\n"
	for _, c := range []struct{ name, call, msg string }{
		{"u8 to pred", "call (%p1), f, (%b1);", "call does not match the signature of f: argument 1 must be a .pred register, as the parameter is .reg .pred"},
		{"pred to u8", "call (%b1), g, (%p1);", "call does not match the signature of g: argument 1 is a .pred register, the parameter is not .reg .pred"},
		{"pred result into u8", "call (%b1), f, (%p1);", "call does not match the signature of f: return value 1 must be a .pred register, as the parameter is .reg .pred"},
		{"immediate", "call (%p1), f, (1);", "call does not match the signature of f: argument 1 must be a .pred register, as the parameter is .reg .pred"},
		{"negated", "call (%p1), f, (!%p2);", "call does not match the signature of f: argument 1 cannot be negated"},
		{"prototype", "call (%b1), %rd1, (%b2), PR;", "call does not match prototype PR: argument 1 must be a .pred register, as the parameter is .reg .pred"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + "\t" + c.call + "\n\tret;\n}\n"
			_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "pred.ptx"})
			if err == nil {
				t.Fatal("compiled")
			}
			line := strings.Count(head, "\n") + 1
			if want := fmt.Sprintf("pred.ptx:%d:2: %s", line, c.msg); err.Error() != want {
				t.Fatalf("error %q, want %q", err, want)
			}
		})
	}
	// A prototype with a .reg .pred parameter does not match a function taking a .reg .u8.
	src := head + "\tmov.u64 %rd1, g;\n\tcall (%p1), %rd1, (%p2), PR;\n\tret;\n}\n"
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "pred.ptx"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("k")
	if err != nil {
		t.Fatal(err)
	}
	err = k.Launch(context.Background(), runtime.NewDevice(), runtime.D1(1), runtime.D1(1))
	f, ok := errors.AsType[*runtime.Fault](err)
	if !ok || f.Kind != runtime.FaultCallSignature {
		t.Fatalf("launch: %v, want a call signature fault", err)
	}
}

// TestSemanticsVectorParams passes .v2 and .v4 .reg parameters and return values, as braced
// vectors and as vector registers, in direct, divergent and indirect calls (vecparams.ptx).
func TestSemanticsVectorParams(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "vecparams.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "vecparams.ptx", "vecparams")
		const ntid, stride = 70, 20
		got := semLaunch1(t, k, ntid, stride)
		want := semSentinels(ntid * stride)
		mix2 := func(x, y uint32) (uint32, uint32) { return y + 100, x - y }
		rev2 := func(x, y uint32) (uint32, uint32) { return y, x }
		for tid := range ntid {
			o := want[tid*stride:]
			u := uint32(tid)
			a, b := u*7+3, u^0x55
			o[0], o[1] = mix2(a, b)
			o[2], o[3] = mix2(b, a)
			k := u + 1
			o[4] = a + 2*b + 3*u + 4*9
			o[5], o[6], o[7], o[8] = 9^k, u+k, b*k, a-k
			o[9], o[10] = a, b
			if tid%3 != 0 {
				o[9], o[10] = mix2(b, a)
			}
			if tid%4 == 0 {
				_, o[11] = rev2(u, 5)
			} else {
				_, o[11] = mix2(u, 5)
			}
			o[12], o[13], o[14], o[15] = a, b, u, 9
			if tid%2 == 1 {
				o[16], o[17] = mix2(a, b)
			} else {
				o[16], o[17] = rev2(a, b)
			}
			f := float32(tid)
			o[18] = math.Float32bits(f * 1.25)
			o[19] = math.Float32bits((f + 0.5) + 1.25)
		}
		semCompare(t, got, want, stride, "mix2 x", "mix2 y", "%vb.x", "%vb.y", "dot4 s", "dot4 r.x", "dot4 r.y", "dot4 r.z", "dot4 r.w",
			"divergent x", "divergent y", ".callprototype y", "v.x", "v.y", "v.z", "v.w", ".calltargets x", ".calltargets y", "scale2 x", "scale2 y")
	})
}

// TestVectorParamErrors checks that vector .reg parameters the ISA does not have, and calls
// whose vectors do not match the callee's, are clear errors at their file:line:col; and that an
// indirect call through a prototype with a scalar .b64 parameter faults on a function taking a
// .v2 .u32, which is passed in two registers.
func TestVectorParamErrors(t *testing.T) {
	const head = ".version 8.0\n.target sm_80\n.address_size 64\n" +
		".func (.reg .v2 .u32 o) f (.reg .v2 .u32 i)\n{\n\tmov.v2.u32 o, i;\n\tret;\n}\n" +
		".func (.reg .u32 o) g (.reg .u32 i)\n{\n\tmov.u32 o, i;\n\tret;\n}\n"
	const kernel = ".visible .entry k()\n{\n\t.reg .u32 %r<4>;\n\t.reg .u64 %rd<3>;\n\t.reg .v2 .u32 %v;\n"
	compileErr := func(t *testing.T, src string) string {
		t.Helper()
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "vec.ptx"})
		if err == nil {
			t.Fatal("compiled")
		}
		return err.Error()
	}
	for _, c := range []struct{ name, decl, msg string }{
		{"v8", ".func h (.reg .v8 .u32 a)", "vector registers have at most 4 elements"},
		{"pred", ".func h (.reg .v2 .pred a)", "vector register a cannot be .pred"},
		{"array", ".func h (.reg .u32 a[4])", "register parameter a cannot be an array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.decl + "\n{\n\tret;\n}\n"
			line := strings.Count(head, "\n") + 1
			col := strings.Index(c.decl, ".reg") + 1
			if got, want := compileErr(t, src), fmt.Sprintf("vec.ptx:%d:%d: %s", line, col, c.msg); got != want {
				t.Fatalf("error %q, want %q", got, want)
			}
		})
	}
	for _, c := range []struct{ name, call, at, msg string }{
		{"scalar to vector", "call (%v), f, (%r1);", "call", "call does not match the signature of f: argument 1 must be a vector of 2 registers, as the parameter is .reg .v2"},
		{"vector to scalar", "call (%r1), g, (%v);", "call", "call does not match the signature of g: argument 1 is a vector, the parameter is not a .reg vector"},
		{"length", "call (%v), f, ({%r1, %r2, %r3});", "call", "call does not match the signature of f: argument 1 has 3 elements, the parameter has 2"},
		{"element size", "call (%v), f, ({%r1, %rd1});", "call", "call does not match the signature of f: argument 1 element 2 has 8 bytes, the parameter has 4"},
		{"sink result", "call ({%r1, _}), f, (%v);", "call", "call does not match the signature of f: return value 1 element 2 must be a register"},
		{"immediate result", "call (5), g, (%r1);", "5", "a call's return value must be a register, a vector of registers or a .param variable"},
		{"nested list", "call (%r1), g, ((%r2));", "(%r2)", "expected an element of the argument list, found '('"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + kernel + "\t" + c.call + "\n\tret;\n}\n"
			line := strings.Count(head+kernel, "\n") + 1
			col := strings.Index(c.call, c.at) + 2
			got := compileErr(t, src)
			if want := fmt.Sprintf("vec.ptx:%d:%d: %s", line, col, c.msg); !strings.HasPrefix(got, want) {
				t.Fatalf("error %q, want %q", got, want)
			}
		})
	}
	src := head + kernel + "PR: .callprototype (.reg .b64 _) _ (.reg .b64 _);\n" +
		"\tmov.u64 %rd1, f;\n\tcall (%rd2), %rd1, (%rd1), PR;\n\tret;\n}\n"
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "vec.ptx"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("k")
	if err != nil {
		t.Fatal(err)
	}
	err = k.Launch(context.Background(), runtime.NewDevice(), runtime.D1(1), runtime.D1(1))
	f, ok := errors.AsType[*runtime.Fault](err)
	if !ok || f.Kind != runtime.FaultCallSignature {
		t.Fatalf("launch: %v, want a call signature fault", err)
	}
}

// TestWarpSzConstant runs testdata/ptx/hand/warp_sz.ptx, which uses the PTX ISA's predefined
// constant WARP_SZ as an immediate operand next to user names that only look like it, on two
// CTAs of 48 threads (a partial warp included), against the ISA's value 32.
func TestWarpSzConstant(t *testing.T) {
	harness.OnEngines(t, "testdata/ptx/hand/warp_sz.ptx", func(t *testing.T) {
		mod, err := harness.LoadModule(t, "testdata/ptx/hand/warp_sz.ptx")
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("warp_sz")
		if err != nil {
			t.Fatal(err)
		}
		const grid, ntid, stride, warpSz = 2, 48, 20, 32
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*ntid*stride, harness.SemSentinel)
		if err := k.Launch(context.Background(), dev, runtime.D1(grid), runtime.D1(ntid), out); err != nil {
			t.Fatal(err)
		}
		got := harness.SemDownload(t, dev, out, grid*ntid*stride)
		want := make([]uint32, grid*ntid*stride)
		for u := range uint32(grid * ntid) {
			o := want[u*stride:]
			o[0] = warpSz
			o[1] = u + warpSz
			o[2] = warpSz - u%warpSz
			o[3] = min(u, warpSz)
			o[4] = u / warpSz
			o[5] = u % warpSz
			o[6] = 0 // a 32-bit shift by 32 or more gives 0
			o[7] = uint32(uint64(u+1) << warpSz >> 32)
			o[8], o[9] = 2, 7
			if u%64 < warpSz {
				o[8], o[9] = 1, warpSz
			}
			o[10] = u * warpSz
			o[11] = u*warpSz + 5
			o[12] = u & warpSz
			o[13] = 7 + warpSz
			o[14] = 5 * warpSz
			o[15] = u + 100 - warpSz
			o[16] = warpSz - u%8
			o[17] = u + warpSz
			o[18] = uint32(uint64(u) + warpSz)
			o[19] = warpSz + warpSz
		}
		semCompare(t, got, want, stride)
	})
}

// TestWarpSzErrors checks that WARP_SZ where only a register, variable or plain immediate may
// stand is a clear error at its file:line:col.
func TestWarpSzErrors(t *testing.T) {
	module := func(body string) string {
		return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .u32 %r<4>;\n\t.reg .u64 %rd<2>;\n" + body + "\n\tret;\n}\n"
	}
	for _, c := range []struct {
		name, line, at, msg string
	}{
		{"destination", "\tmov.u32 WARP_SZ, %r1;", "WARP_SZ", "WARP_SZ is a predefined constant, not a register"},
		{"guard", "\t@WARP_SZ add.u32 %r1, %r2, 1;", "@WARP_SZ", "WARP_SZ is a predefined constant, not a register"},
		{"offset", "\tadd.u32 %r1, %r2, WARP_SZ+4;", "WARP_SZ+4", "the predefined constant WARP_SZ cannot take an offset"},
		{"address", "\tld.global.u32 %r1, [WARP_SZ];", "[WARP_SZ]", "WARP_SZ is a predefined constant, not a register or variable"},
		{"misspelled", "\tadd.u32 %r1, %r2, WARP_SIZE;", "WARP_SIZE", "undeclared identifier WARP_SIZE"},
		{"lower case", "\tadd.u32 %r1, %r2, warp_sz;", "warp_sz", "undeclared identifier warp_sz"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := module(c.line)
			_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "wsz.ptx"})
			if err == nil {
				t.Fatal("compiled")
			}
			lines := strings.Split(src, "\n")
			want := fmt.Sprintf("wsz.ptx:8:%d: %s", strings.Index(lines[7], c.at)+1, c.msg)
			if err.Error() != want {
				t.Fatalf("error %q, want %q", err, want)
			}
		})
	}
}

// TestSemanticsFilesDocumented keeps the hand-written modules self-describing: each starts
// with a comment that says what it computes.
func TestSemanticsFilesDocumented(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(harness.SemDir, "*.ptx"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PTX in %s: %v", harness.SemDir, err)
	}
	for _, f := range files {
		src := harness.ReadFile(t, f)
		if !strings.HasPrefix(src, "// Hand-written") {
			t.Errorf("%s does not start with a // Hand-written comment", f)
		}
	}
}
