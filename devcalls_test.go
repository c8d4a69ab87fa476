package ptx2go_test

// Device-side library calls (testdata/cuda/device_*.cu): printf, assert, malloc and free. The
// printf references format the same values with Go's fmt, whose verbs agree with C's for the
// flags used here, adjusted only where C's rules differ (inf and nan, a zero with %#x, the
// exponent of %a).

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
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
				requireDisjointBlocks(t, w, uint64(4*count))
			}
		}}
	}},
	{file: "device_malloc", kernel: "malloc_keep", shapes: boundedShapes, setup: func(f *kernelFixture, s kernelShape) kernelLaunch {
		size := uint64(1 + f.rng.IntN(100))
		ptrs := inputBuf(f, poisonedSlice[uint64](s.n))
		return kernelLaunch{args: []any{ptrs, s.n, size}, check: func(t *testing.T) {
			got := readBuf[uint64](f, ptrs, s.n)
			requireDisjointBlocks(t, got, size)
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
		mod, err := ptx2go.CompileFile(deviceCallPath(f.level, "device_malloc"))
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

// deviceCallPath is the PTX of source file at a kernelLevel.
func deviceCallPath(level, file string) string {
	for _, l := range kernelLevels(file) {
		if l.name == level {
			return l.path
		}
	}
	panic("no level " + level)
}

// requireDisjointBlocks checks that malloc returned 16-byte-aligned, non-null blocks of size
// bytes that do not overlap.
func requireDisjointBlocks(t *testing.T, addrs []uint64, size uint64) {
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

// TestDeviceAssert checks a failing device assert: the launch returns an assert fault naming
// the first failing thread, its CTA, the expression, source file, line and function, with
// CUDA's message; what the kernel printed before is delivered.
func TestDeviceAssert(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "cuda", "device_assert.cu"))
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "assert(v[i] > 0)") {
			line = i + 1
		}
	}
	require.NotZero(t, line)
	for _, level := range kernelLevels("device_assert") {
		t.Run(level.name, func(t *testing.T) {
			mod, err := ptx2go.CompileFile(level.path)
			require.NoError(t, err)
			k, err := mod.Kernel("check_positive")
			require.NoError(t, err)
			dev := runtime.NewDevice()
			var out bytes.Buffer
			dev.SetPrintfOutput(&out)
			v := tabulate(200, func(i int) int32 { return int32(i + 1) })
			v[101], v[150] = -7, 0 // CTA 1 (threads 64..127), thread 37; and CTA 2
			in, err := runtime.Upload(dev, v)
			require.NoError(t, err)
			cfg := runtime.LaunchConfig{Grid: runtime.D1(4), Block: runtime.D1(64), Workers: 1}
			err = k.LaunchConfig(t.Context(), dev, cfg, in, 200)
			var f *runtime.Fault
			require.True(t, errors.As(err, &f), "want a fault, got %v", err)
			require.Equal(t, runtime.FaultAssert, f.Kind)
			require.Equal(t, "check_positive", f.Kernel)
			require.Equal(t, runtime.Dim3{X: 1}, f.CTA)
			require.Equal(t, runtime.Dim3{X: 37}, f.Thread)
			require.Equal(t, &runtime.Assertion{Message: "v[i] > 0", File: "testdata/cuda/device_assert.cu", Line: uint32(line), Function: "void check_positive(const int *, int)"}, f.Assert)
			msg := fmt.Sprintf("testdata/cuda/device_assert.cu:%d: void check_positive(const int *, int): block: [1,0,0], thread: [37,0,0] Assertion `v[i] > 0` failed.", line)
			require.Equal(t, msg, f.CUDAAssertMessage())
			require.Contains(t, f.Error(), msg)
			require.Contains(t, f.Error(), "assertion failed")
			require.Equal(t, "thread 101: v = -7\n", out.String())
		})
	}
}

// TestDeviceMallocHeap checks the heap's limits: a heap of 4 KiB holds 256 blocks of 16 bytes
// and malloc returns null for the rest; freeing them all makes the space available again; a
// second free of the same block is a fault; the size cannot change once the heap exists.
func TestDeviceMallocHeap(t *testing.T) {
	for _, level := range kernelLevels("device_malloc") {
		t.Run(level.name, func(t *testing.T) {
			mod, err := ptx2go.CompileFile(level.path)
			require.NoError(t, err)
			keep, err := mod.Kernel("malloc_keep")
			require.NoError(t, err)
			free, err := mod.Kernel("free_kept")
			require.NoError(t, err)
			dev := runtime.NewDevice()
			require.NoError(t, dev.SetHeapSize(4096))
			const n = 300
			ptrs, err := dev.Malloc(8 * n)
			require.NoError(t, err)
			vals, err := dev.Malloc(4 * n)
			require.NoError(t, err)
			cfg := runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.D1(100), Workers: 1}
			for round := range 2 {
				require.NoError(t, keep.LaunchConfig(t.Context(), dev, cfg, ptrs, n, uint64(16)))
				got := make([]uint64, n)
				require.NoError(t, runtime.Download(dev, got, ptrs))
				var live []uint64
				for i, p := range got {
					if i < 256 {
						live = append(live, p)
					} else {
						require.Zero(t, p, "round %d: thread %d got a block from a full heap", round, i)
					}
				}
				requireDisjointBlocks(t, live, 16)
				require.NoError(t, free.LaunchConfig(t.Context(), dev, cfg, ptrs, vals, n))
			}
			err = free.LaunchConfig(t.Context(), dev, cfg, ptrs, vals, n)
			var f *runtime.Fault
			require.True(t, errors.As(err, &f), "a second free: want a fault, got %v", err)
			require.Equal(t, runtime.FaultIllegal, f.Kind)
			require.Equal(t, runtime.Dim3{}, f.Thread)
			require.Contains(t, f.Error(), "free of an address that malloc did not return")
			require.Error(t, dev.SetHeapSize(1<<20))
		})
	}
}

// TestKernelsOnHostMemory runs kernels whose buffers are host memory at its own address: from
// MallocHost (in the device's address range) and Go memory mapped with MapHost (far above it,
// reached through Device.FarSpan and per lane through Bytes). The host reads the results
// through its own pointers.
func TestKernelsOnHostMemory(t *testing.T) {
	vecadd, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", "vecadd.ptx"))
	require.NoError(t, err)
	add, err := vecadd.Kernel("vecadd")
	require.NoError(t, err)
	atomics, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", "atomics.ptx"))
	require.NoError(t, err)
	hist, err := atomics.Kernel("histogram")
	require.NoError(t, err)
	const n, nbins = 1000, 13
	for _, kind := range []string{"MallocHost", "MapHost"} {
		t.Run(kind, func(t *testing.T) {
			dev := runtime.NewDevice()
			// host returns an n-element float32 buffer visible at the same address on both sides.
			host := func(n int) ([]float32, runtime.Ptr) {
				if kind == "MallocHost" {
					p, err := dev.MallocHost(4 * n)
					require.NoError(t, err)
					b := dev.Bytes(uint64(p), 4*n)
					return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), p
				}
				s := make([]float32, n)
				p, err := dev.MapHost(unsafe.Pointer(&s[0]), 4*n)
				require.NoError(t, err)
				return s, p
			}
			a, pa := host(n)
			b, pb := host(n)
			c, pc := host(n)
			for i := range n {
				a[i], b[i] = float32(i)*0.5, float32(3*i)-7
			}
			cfg := runtime.LaunchConfig{Grid: runtime.D1(4), Block: runtime.D1(256), Workers: 4}
			require.NoError(t, add.LaunchConfig(t.Context(), dev, cfg, pc, pa, pb, n))
			for i := range n {
				require.Equal(t, a[i]+b[i], c[i], "c[%d]", i)
			}
			data, pd := host(n)
			bins, pbins := host(nbins)
			di := unsafe.Slice((*int32)(unsafe.Pointer(&data[0])), n)
			for i := range n {
				di[i] = int32(i*7919 - 3000000)
			}
			require.NoError(t, hist.LaunchConfig(t.Context(), dev, cfg, pbins, pd, n, nbins))
			want := make([]uint32, nbins)
			for _, x := range di {
				want[uint32(x)%nbins]++
			}
			require.Equal(t, want, unsafe.Slice((*uint32)(unsafe.Pointer(&bins[0])), nbins))
			for _, p := range []runtime.Ptr{pa, pb, pc, pd, pbins} {
				require.NoError(t, dev.Free(p))
			}
		})
	}
}

// printf32PTX calls vprintf from a module with .address_size 32, where pointers, and so %s,
// %p and the l modifier, take 4 bytes of the argument buffer.
const printf32PTX = `
.version 7.0
.target sm_70
.address_size 32
.extern .func (.param .b32 func_retval0) vprintf (.param .b32 vprintf_param_0, .param .b32 vprintf_param_1);
.global .align 1 .b8 fmt[22] = {37, 115, 32, 37, 108, 100, 32, 37, 100, 32, 37, 112, 32, 37, 46, 49, 102, 124, 10, 0, 0, 0};
.global .align 1 .b8 str[3] = {104, 105, 0};
.visible .entry k(.param .u32 out)
{
	.local .align 8 .b8 buf[24];
	.reg .b32 %r<10>;
	.reg .f64 %fd1;
	mov.u32 %r1, buf;
	cvta.local.u32 %r2, %r1;
	mov.u32 %r3, str;
	cvta.global.u32 %r3, %r3;
	st.local.u32 [%r1], %r3;
	mov.u32 %r4, -5;
	st.local.u32 [%r1+4], %r4;
	mov.u32 %r5, %tid.x;
	st.local.u32 [%r1+8], %r5;
	st.local.u32 [%r1+12], %r3;
	mov.f64 %fd1, 0d3FF8000000000000;
	st.local.f64 [%r1+16], %fd1;
	mov.u32 %r6, fmt;
	cvta.global.u32 %r6, %r6;
	{
	.param .b32 p0;
	st.param.b32 [p0], %r6;
	.param .b32 p1;
	st.param.b32 [p1], %r2;
	.param .b32 rv;
	call.uni (rv), vprintf, (p0, p1);
	ld.param.b32 %r7, [rv];
	}
	ld.param.u32 %r8, [out];
	mul.lo.u32 %r9, %r5, 4;
	add.u32 %r8, %r8, %r9;
	st.global.u32 [%r8], %r7;
	ret;
}
`

func TestPrintfAddressSize32(t *testing.T) {
	mod, err := ptx2go.Compile([]byte(printf32PTX), ptx2go.Options{File: "printf32.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("k")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	var out bytes.Buffer
	dev.SetPrintfOutput(&out)
	ret, err := dev.Malloc(8)
	require.NoError(t, err)
	require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(2), Workers: 1}, ret))
	str, err := mod.GlobalAddr(dev, "str")
	require.NoError(t, err)
	want := ""
	for tid := range 2 {
		want += fmt.Sprintf("hi -5 %d %#x 1.5|\n", tid, uint64(str))
	}
	require.Equal(t, want, out.String())
	got := make([]int32, 2)
	require.NoError(t, runtime.Download(dev, got, ret))
	require.Equal(t, []int32{5, 5}, got)
}

// TestPrintfBuffer checks where printf output goes and how much of it a launch keeps: the
// device's writer unless LaunchConfig.Printf names another, and whole records up to the
// buffer size, the rest dropped as from CUDA's full printf FIFO.
func TestPrintfBuffer(t *testing.T) {
	mod, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", "device_printf.ptx"))
	require.NoError(t, err)
	k, err := mod.Kernel("printf_none")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	var devOut, launchOut bytes.Buffer
	dev.SetPrintfOutput(&devOut)
	require.NoError(t, dev.SetPrintfBufferSize(100)) // room for 7 of the 13-byte lines
	require.Equal(t, 100, dev.PrintfBufferSize())
	ret, err := dev.Malloc(4 * 32)
	require.NoError(t, err)
	cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32)}
	require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, ret))
	require.Equal(t, strings.Repeat("no arguments\n", 7), devOut.String())
	got := make([]int32, 32)
	require.NoError(t, runtime.Download(dev, got, ret))
	require.Equal(t, make([]int32, 32), got, "printf returns 0 also when its record is dropped")

	cfg.Printf = &launchOut
	require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, ret))
	require.Equal(t, strings.Repeat("no arguments\n", 7), launchOut.String())
	require.Equal(t, strings.Repeat("no arguments\n", 7), devOut.String(), "the device's writer got nothing more")
}

// TestKernelUseAfterFree: a kernel that reads through a pointer freed before the launch faults
// at that address, and the fault says the allocation was freed (its range is in quarantine).
func TestKernelUseAfterFree(t *testing.T) {
	mod, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", "vecadd.ptx"))
	require.NoError(t, err)
	k, err := mod.Kernel("vecadd")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	a, err := runtime.Upload(dev, make([]float32, 64))
	require.NoError(t, err)
	b, err := runtime.Upload(dev, make([]float32, 64))
	require.NoError(t, err)
	c, err := dev.Malloc(4 * 64)
	require.NoError(t, err)
	require.NoError(t, dev.Free(b))
	for range 10 { // later allocations do not take the freed range
		p, err := dev.Malloc(4 * 64)
		require.NoError(t, err)
		require.NotEqual(t, b, p)
	}
	err = k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(64), Workers: 1}, c, a, b, 64)
	var f *runtime.Fault
	require.True(t, errors.As(err, &f), "want a fault, got %v", err)
	require.Equal(t, runtime.FaultOutOfBounds, f.Kind)
	require.Equal(t, uint64(b), f.Addr)
	require.Equal(t, fmt.Sprintf("the allocation at %#x was freed", uint64(b)), f.Detail)
}
