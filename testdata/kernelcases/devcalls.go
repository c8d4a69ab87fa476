package kernelcases

// Device-side library calls (testdata/cuda/device_*.cu): printf, assert, malloc and free. The
// printf references format the same values with Go's fmt, whose verbs agree with C's for the
// flags used here, adjusted only where C's rules differ (inf and nan, a zero with %#x, the
// exponent of %a).

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/runtime"
)

func init() {
	kernelCases = append(kernelCases, deviceCallCases...)
}

// printfCapture sends the fixture device's printf output to a buffer.
func printfCapture(f *kernelFixture) *bytes.Buffer {
	var buf bytes.Buffer
	f.dev.SetPrintfOutput(&buf)
	return &buf
}

// requireCTAChunks checks that out is the concatenation of chunks (each CTA's output, in the
// order its warps printed) in some order: CTAs run in parallel, each prints as a whole.
func requireCTAChunks(t *testing.T, chunks []string, out string) {
	t.Helper()
	used := make([]bool, len(chunks))
	rest := out
	for n := 0; n < len(chunks); n++ {
		found := false
		for i, c := range chunks {
			if !used[i] && strings.HasPrefix(rest, c) {
				used[i], found = true, true
				rest = rest[len(c):]
				break
			}
		}
		if !found {
			break
		}
	}
	if rest != "" {
		require.Equal(t, strings.Join(chunks, ""), out, "printf output is not the CTAs' outputs in some order")
	}
}

// perWarpLines builds each CTA's expected output: for every warp, each statement's line for
// every thread i < n of the warp, in lane order.
func perWarpLines(s kernelShape, stmts int, line func(i, cta, tid, stmt int) string) []string {
	block := int(s.block.X)
	var chunks []string
	for cta := range int(s.grid.X) {
		var b strings.Builder
		for w := 0; w < block; w += 32 {
			for st := range stmts {
				for tid := w; tid < min(w+32, block); tid++ {
					if i := cta*block + tid; i < s.n {
						b.WriteString(line(i, cta, tid, st))
					}
				}
			}
		}
		chunks = append(chunks, b.String())
	}
	return chunks
}

// cHexX is C's %#x / %#X: like Go's, but 0 prints without the prefix.
func cHexX(v uint64, upper bool) string {
	switch {
	case v == 0:
		return "0"
	case upper:
		return fmt.Sprintf("%#X", v)
	}
	return fmt.Sprintf("%#x", v)
}

// cFloat formats v with a C conversion whose Go spelling is goVerb; infinities and NaNs print
// as C prints them (inf, nan; upper-case for E G; a + or the width applies; no 0 padding).
func cFloat(goVerb string, v float64) string {
	if !math.IsInf(v, 0) && !math.IsNaN(v) {
		s := fmt.Sprintf(goVerb, v)
		if strings.HasSuffix(goVerb, "x") || strings.HasSuffix(goVerb, "X") {
			// C writes the binary exponent without leading zeros: 0x1.8p+1, not 0x1.8p+01.
			i := strings.LastIndexAny(s, "pP")
			exp := strings.TrimLeft(s[i+2:], "0")
			if exp == "" {
				exp = "0"
			}
			s = s[:i+2] + exp
		}
		return s
	}
	word := "inf"
	if math.IsNaN(v) {
		word = "nan"
	}
	last := goVerb[len(goVerb)-1]
	if last >= 'A' && last <= 'Z' {
		word = strings.ToUpper(word)
	}
	sign := ""
	switch {
	case math.Signbit(v):
		sign = "-"
	case strings.Contains(goVerb, "+"):
		sign = "+"
	}
	width := 0
	fmt.Sscanf(strings.TrimLeft(goVerb, "%-+#0 "), "%d", &width)
	if strings.Contains(goVerb, "-") {
		return fmt.Sprintf("%-*s", width, sign+word)
	}
	return fmt.Sprintf("%*s", width, sign+word)
}

// printfDoubles are the edge values printf_floats prints before its random ones.
var printfDoubles = []float64{0, math.Copysign(0, -1), 1, -1.5, 3.14159265358979, 0.5, 2.5, 1e-5, 0.0001234, 123456789.0,
	-987654.321, 1e300, -2.5e-300, math.Inf(1), math.Inf(-1), math.NaN(), 1234567, 100, 999999.5, 0.000099999}

var deviceCallCases = []kernelCase{
	// device_printf.cu
	{file: "device_printf", kernel: "printf_ints", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		iv := f.i32(s.n, math.MinInt32, math.MaxInt32)
		uv := f.u32(s.n)
		lv := tabulate(s.n, func(i int) int64 { return int64(f.rng.Uint64()) })
		for i, x := range []int32{0, -1, 42, -42, 7, 1000000, math.MinInt32, 127, 128, -129} {
			if i < s.n {
				iv[i] = x
			}
		}
		for i, x := range []uint32{0, 1, 0xff, 0xffffffff, 8, 0x10000} {
			if i < s.n {
				uv[i] = x
			}
		}
		for i, x := range []int64{0, -1, math.MinInt64, math.MaxInt64, 1} {
			if i < s.n {
				lv[i] = x
			}
		}
		out := printfCapture(f)
		ret := outputBuf[int32](f, 4*s.n)
		return kernelLaunch{args: []any{inputBuf(f, iv), inputBuf(f, uv), inputBuf(f, lv), ret, s.n}, check: func(t *testing.T) {
			chunks := perWarpLines(s, 4, func(i, cta, tid, st int) string {
				v, u, l := iv[i], uv[i], lv[i]
				switch st {
				case 0:
					return fmt.Sprintf("[%d,%d] d=%d|%5d|%-5d|%05d|%+d|% d|%.3d|%d\n", cta, tid, v, v, v, v, v, v, v, v)
				case 1:
					return fmt.Sprintf("u=%d x=%x X=%s o=%#o c=%c hhd=%d hu=%d %%\n", u, u, cHexX(uint64(u), true), u, 'A'+i%26, int8(v), uint16(u))
				case 2:
					p := "(nil)"
					if l != 0 {
						p = fmt.Sprintf("%#x", uint64(l))
					}
					return fmt.Sprintf("lld=%d llx=%s ld=%d lu=%d zu=%d p=%s\n", l, cHexX(uint64(l), false), l, uint64(l), u, p)
				}
				yn := 'n'
				if i%2 == 1 {
					yn = 'y'
				}
				return fmt.Sprintf("s=%s|%.3s|%8s|%-8s|%c\n", "hello", "hello", "hi", "hi", yn)
			})
			requireCTAChunks(t, chunks, out.String())
			want := tabulate(4*s.n, func(i int) int32 { return []int32{10, 7, 6, 5}[i%4] })
			requireElems(t, "ret", want, readBuf[int32](f, ret, 4*s.n))
		}}
	}},
	{file: "device_printf", kernel: "printf_floats", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		dv := f.f64(s.n, -1e6, 1e6)
		fv := f.f32(s.n, -1000, 1000)
		copy(dv, printfDoubles)
		for i, x := range []float32{0, -0.5, 1.25, float32(math.Inf(1)), 3.25e38, 1e-30} {
			if i < s.n {
				fv[i] = x
			}
		}
		out := printfCapture(f)
		ret := outputBuf[int32](f, 2*s.n)
		return kernelLaunch{args: []any{inputBuf(f, dv), inputBuf(f, fv), ret, s.n}, check: func(t *testing.T) {
			chunks := perWarpLines(s, 2, func(i, cta, tid, st int) string {
				d, x := dv[i], float64(fv[i])
				if st == 0 {
					return fmt.Sprintf("f=%s|%s|%s|%s|%s|%s e=%s|%s g=%s|%s|%s|%s\n",
						cFloat("%f", d), cFloat("%.2f", d), cFloat("%10.3f", d), cFloat("%-10.1f", d), cFloat("%+.0f", d), cFloat("%#.0f", d),
						cFloat("%e", d), cFloat("%.3E", d), cFloat("%.6g", d), cFloat("%.3g", d), cFloat("%#.6g", d), cFloat("%.6G", d))
				}
				return fmt.Sprintf("float=%s %s %s %s %s %s\n", cFloat("%f", x), cFloat("%e", x), cFloat("%.6g", x), cFloat("%x", d), cFloat("%X", d), cFloat("%08.3f", x))
			})
			requireCTAChunks(t, chunks, out.String())
			want := tabulate(2*s.n, func(i int) int32 { return []int32{12, 6}[i%2] })
			requireElems(t, "ret", want, readBuf[int32](f, ret, 2*s.n))
		}}
	}},
	{file: "device_printf", kernel: "printf_none", shapes: exactShapes[:2], setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		out := printfCapture(f)
		ret := outputBuf[int32](f, int(s.block.X))
		return kernelLaunch{args: []any{ret}, check: func(t *testing.T) {
			require.Equal(t, strings.Repeat("no arguments\n", s.n), out.String())
			requireElems(t, "ret", make([]int32, s.block.X), readBuf[int32](f, ret, int(s.block.X)))
		}}
	}},
	// device_assert.cu: every value positive, so no thread fails the assert or prints.
	{file: "device_assert", kernel: "check_positive", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		out := printfCapture(f)
		return kernelLaunch{args: []any{inputBuf(f, f.i32(s.n, 1, math.MaxInt32)), s.n}, check: func(t *testing.T) {
			require.Empty(t, out.String())
		}}
	}},
	// device_malloc.cu
	{file: "device_malloc", kernel: "malloc_sum", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		count := 1 + f.rng.IntN(20)
		// The addresses depend on the order in which CTAs allocate: not compared between
		// worker counts.
		addrs := inputBuf(f, poisonedSlice[uint64](s.n))
		sums := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{addrs, sums, s.n, count}, check: func(t *testing.T) {
			want := tabulate(s.n, func(i int) int32 { return int32(i*count*(count-1)/2 + count) })
			requireElems(t, "sums", want, readBuf[int32](f, sums, s.n))
			got := readBuf[uint64](f, addrs, s.n)
			// The lanes of a warp hold their blocks at the same time: they are disjoint.
			warps := map[[2]int][]uint64{}
			for i, a := range got {
				cta, tid := i/int(s.block.X), i%int(s.block.X)
				warps[[2]int{cta, tid / 32}] = append(warps[[2]int{cta, tid / 32}], a)
			}
			for _, w := range warps {
				RequireDisjointBlocks(t, w, uint64(4*count))
			}
		}}
	}},
	{file: "device_malloc", kernel: "malloc_keep", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		size := uint64(1 + f.rng.IntN(100))
		ptrs := inputBuf(f, poisonedSlice[uint64](s.n))
		return kernelLaunch{args: []any{ptrs, s.n, size}, check: func(t *testing.T) {
			got := readBuf[uint64](f, ptrs, s.n)
			RequireDisjointBlocks(t, got, size)
			// The blocks are device memory: the host reads what each thread stored.
			for i, p := range got {
				var v [1]int32
				require.NoError(t, runtime.Download(f.dev, v[:], runtime.Ptr(p)))
				require.Equal(t, int32(i), v[0], "block of thread %d", i)
			}
		}}
	}},
	{file: "device_malloc", kernel: "free_kept", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		// malloc_keep makes the blocks in a launch of its own first.
		mod, err := compileFile(deviceCallPath(f.level, "device_malloc"))
		require.NoError(f.t, err)
		keep, err := mod.Kernel("malloc_keep")
		require.NoError(f.t, err)
		ptrs := inputBuf(f, poisonedSlice[uint64](s.n))
		require.NoError(f.t, keep.Launch(f.t.Context(), f.dev, s.grid, s.block, ptrs, s.n, uint64(4)))
		vals := outputBuf[int32](f, s.n)
		return kernelLaunch{args: []any{ptrs, vals, s.n}, check: func(t *testing.T) {
			requireElems(t, "vals", tabulate(s.n, func(i int) int32 { return int32(i) }), readBuf[int32](f, vals, s.n))
		}}
	}},
}

// deviceCallPath is the PTX of source file at a Level.
func deviceCallPath(level, file string) string {
	for _, l := range Levels(file) {
		if l.Name == level {
			return l.Path
		}
	}
	panic("no level " + level)
}

// RequireDisjointBlocks checks that malloc returned 16-byte-aligned, non-null blocks of size
// bytes that do not overlap.
func RequireDisjointBlocks(t *testing.T, addrs []uint64, size uint64) {
	t.Helper()
	seen := map[uint64]bool{}
	for i, a := range addrs {
		require.NotZero(t, a, "malloc %d returned null", i)
		require.Zero(t, a%16, "malloc %d returned %#x, not 16-byte aligned", i, a)
		seen[a] = true
	}
	require.Len(t, seen, len(addrs), "malloc returned an address twice")
	for i, a := range addrs {
		for j, b := range addrs {
			if i != j && a < b+size && b < a+size {
				t.Fatalf("blocks %d at %#x and %d at %#x of %d bytes overlap", i, a, j, b, size)
			}
		}
	}
}
