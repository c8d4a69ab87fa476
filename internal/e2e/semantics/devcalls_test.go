package semantics_test

// Device-side library calls (testdata/cuda/device_*.cu): printf, assert, malloc and free. The
// printf references format the same values with Go's fmt, whose verbs agree with C's for the
// flags used here, adjusted only where C's rules differ (inf and nan, a zero with %#x, the
// exponent of %a).

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/testdata/kernelcases"
)

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
	for _, level := range kernelcases.Levels("device_assert") {
		t.Run(level.Name, func(t *testing.T) {
			mod, err := ptx2go.CompileFile(level.Path)
			require.NoError(t, err)
			k, err := mod.Kernel("check_positive")
			require.NoError(t, err)
			dev := runtime.NewDevice()
			var out bytes.Buffer
			dev.SetPrintfOutput(&out)
			v := make([]int32, 200)
			for i := range v {
				v[i] = int32(i + 1)
			}
			v[101], v[103], v[150] = -7, -1, 0 // CTA 1 (threads 64..127), threads 37 and 39 of one warp; and CTA 2
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
			// Threads 37 and 39 fail together: CUDA prints a line for each.
			msg39 := strings.Replace(msg, "thread: [37,0,0]", "thread: [39,0,0]", 1)
			require.Equal(t, []string{msg, msg39}, f.AssertLines)
			require.Equal(t, "thread 101: v = -7\nthread 103: v = -1\n", out.String())
		})
	}
}

// TestDeviceMallocHeap checks the heap's limits: a heap of 4 KiB holds 256 blocks of 16 bytes
// and malloc returns null for the rest; freeing them all makes the space available again; a
// second free of the same block is a fault; the size cannot change once the heap exists.
func TestDeviceMallocHeap(t *testing.T) {
	for _, level := range kernelcases.Levels("device_malloc") {
		t.Run(level.Name, func(t *testing.T) {
			mod, err := ptx2go.CompileFile(level.Path)
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
				kernelcases.RequireDisjointBlocks(t, live, 16)
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

// managedPTX has CUDA __managed__ variables (what nvcc emits for them): kernels add to counter
// and read scale, at addresses host code dereferences.
const managedPTX = `
.version 7.0
.target sm_70
.address_size 64
.global .attribute(.managed) .align 4 .u32 counter;
.global .attribute(.managed) .align 4 .f32 scale = 0f40400000;
.visible .entry bump(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<5>;
	atom.global.add.u32 %r1, [counter], 1;
	ld.global.f32 %f1, [scale];
	cvt.rn.f32.u32 %f2, %r1;
	mul.f32 %f2, %f2, %f1;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.f32 [%rd4], %f2;
	ret;
}
`

// TestManagedGlobals checks that __managed__ variables live at host-visible addresses: the
// host writes and reads them through their device addresses, before and after a launch.
func TestManagedGlobals(t *testing.T) {
	mod, err := ptx2go.Compile([]byte(managedPTX), ptx2go.Options{File: "managed.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("bump")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	pc, err := mod.GlobalAddr(dev, "counter")
	require.NoError(t, err)
	ps, err := mod.GlobalAddr(dev, "scale")
	require.NoError(t, err)
	// at views a variable's bytes, which must lie at its device address in the host's memory.
	at := func(p runtime.Ptr) unsafe.Pointer {
		b := dev.Bytes(uint64(p), 4)
		require.NotNil(t, b)
		require.Equal(t, uintptr(p), uintptr(unsafe.Pointer(&b[0])), "host address of a managed variable")
		return unsafe.Pointer(&b[0])
	}
	counter, scale := (*uint32)(at(pc)), (*float32)(at(ps))
	require.Equal(t, float32(3), *scale)
	*counter, *scale = 5, 0.5
	const n = 3 * 64
	out, err := dev.Malloc(4 * (n + 5))
	require.NoError(t, err)
	require.NoError(t, k.LaunchConfig(t.Context(), dev, runtime.LaunchConfig{Grid: runtime.D1(3), Block: runtime.D1(64)}, out))
	require.Equal(t, uint32(5+n), *counter)
	got := make([]byte, 4*(n+5))
	require.NoError(t, dev.CopyOut(got, out))
	for i := 5; i < n+5; i++ {
		require.Equal(t, float32(i)*0.5, *(*float32)(unsafe.Pointer(&got[4*i])), "out[%d]", i)
	}
}
