package ptx2go_test

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
			dev.SetPrintfOutput(&out, 0)
			v := make([]int32, 200)
			for i := range v {
				v[i] = int32(i + 1)
			}
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
// reached lane by lane). The host reads the results through its own pointers.
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
