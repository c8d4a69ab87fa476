package faults_test

// Runtime faults: one test per fault kind. Each checks that Launch returns a *runtime.Fault
// of the right kind that names the kernel, the exact PTX file:line of the faulting
// instruction (marked `// FAULT name` in testdata/ptx/semantics/fault_*.ptx), the CTA and the
// thread, and the address where there is one; and that device memory the kernel did not
// write is left as it was. Launch configuration errors are plain errors, not faults.

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/stretchr/testify/require"
)

// semCanary allocates a buffer the kernel is never given, filled with a pattern, and
// returns a check that it is unchanged.
func semCanary(t *testing.T, dev *runtime.Device) func() {
	t.Helper()
	pat := make([]uint32, 1024)
	for i := range pat {
		pat[i] = uint32(i)*0x01010101 ^ 0xA5A5A5A5
	}
	p, err := runtime.Upload(dev, pat)
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		got := harness.SemDownload(t, dev, p, len(pat))
		for i := range pat {
			if got[i] != pat[i] {
				t.Errorf("canary buffer changed at word %d: %#x, was %#x", i, got[i], pat[i])
				return
			}
		}
	}
}

// faultLaunch compiles file, launches kernel on grid x block (1D) with one worker, and returns
// the launch's error. It fails the test if the launch takes more than 20 s.
func faultLaunch(t *testing.T, file, kernel string, dev *runtime.Device, grid, block uint32, args ...any) error {
	t.Helper()
	_, k := harness.SemKernel(t, file, kernel)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := k.LaunchConfig(ctx, dev, runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: 1}, args...)
	if ctx.Err() != nil {
		t.Fatalf("launch of %s did not finish in 20 s: %v", kernel, err)
	}
	return err
}

// funcAddr is the device address of function name of file's module.
func funcAddr(t *testing.T, file, name string) uint64 {
	t.Helper()
	mod, _ := harness.SemKernel(t, file, "")
	for _, f := range mod.Runtime().Funcs {
		if f.Name == name {
			return uint64(runtime.FuncAddr(f))
		}
	}
	t.Fatalf("%s has no function %s", file, name)
	return 0
}

func iota32(n int, add uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i) + add
	}
	return s
}

func TestFaultOutOfBoundsLoad(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_oob.ptx"), func(t *testing.T) {
		const grid, block, n = 3, 64, 192
		dev := runtime.NewDevice()
		in, err := runtime.Upload(dev, iota32(n, 7))
		if err != nil {
			t.Fatal(err)
		}
		out := harness.SemFilled(t, dev, n, harness.SemSentinel)
		canary := semCanary(t, dev)
		err = faultLaunch(t, "fault_oob.ptx", "oob_load", dev, grid, block, in, out)
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultOutOfBounds, Kernel: "oob_load", Loc: harness.FaultLoc(t, "fault_oob.ptx", "oob_load"),
			CTA: runtime.Dim3{X: 2, Y: 0, Z: 0}, Thread: runtime.Dim3{X: 63, Y: 0, Z: 0},
			HasAddr: true, Addr: uint64(in) + 4*n, Space: "global",
		})
		canary()
		got := harness.SemDownload(t, dev, out, n)
		for i := range n {
			switch {
			case i < 2*block && got[i] != uint32(i+1+7):
				t.Errorf("out[%d] = %#x, want %#x (CTAs 0 and 1 complete before CTA 2 faults)", i, got[i], i+1+7)
			case i >= n-32 && got[i] != harness.SemSentinel:
				t.Errorf("out[%d] = %#x, want it unwritten: its warp faulted before storing", i, got[i])
			}
		}
	})
}

func TestFaultOutOfBoundsStore(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_oob.ptx"), func(t *testing.T) {
		const grid, block, n = 3, 64, 192
		dev := runtime.NewDevice()
		in, err := runtime.Upload(dev, iota32(n, 7))
		if err != nil {
			t.Fatal(err)
		}
		out := harness.SemFilled(t, dev, n, harness.SemSentinel)
		canary := semCanary(t, dev)
		err = faultLaunch(t, "fault_oob.ptx", "oob_store", dev, grid, block, in, out)
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultOutOfBounds, Kernel: "oob_store", Loc: harness.FaultLoc(t, "fault_oob.ptx", "oob_store"),
			CTA: runtime.Dim3{X: 2}, Thread: runtime.Dim3{X: 63},
			HasAddr: true, Addr: uint64(out) + 4*n, Space: "global",
		})
		canary()
		got := harness.SemDownload(t, dev, out, n)
		if got[0] != harness.SemSentinel {
			t.Errorf("out[0] = %#x, want it unwritten", got[0])
		}
		for i := 1; i <= 2*block; i++ {
			if got[i] != uint32(i-1+7) {
				t.Errorf("out[%d] = %#x, want %#x", i, got[i], i-1+7)
			}
		}
		if in2 := harness.SemDownload(t, dev, in, n); in2[n-1] != n-1+7 {
			t.Errorf("in changed: in[%d] = %#x", n-1, in2[n-1])
		}
	})
}

func TestFaultMisaligned(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_misc.ptx"), func(t *testing.T) {
		const grid, block, n, bad = 2, 64, 128, 101
		dev := runtime.NewDevice()
		in, err := runtime.Upload(dev, iota32(n, 0))
		if err != nil {
			t.Fatal(err)
		}
		out := harness.SemFilled(t, dev, n, harness.SemSentinel)
		canary := semCanary(t, dev)
		err = faultLaunch(t, "fault_misc.ptx", "misaligned", dev, grid, block, in, out, uint32(bad))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultMisaligned, Kernel: "misaligned", Loc: harness.FaultLoc(t, "fault_misc.ptx", "misaligned"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
			HasAddr: true, Addr: uint64(in) + 4*bad + 1, Space: "global",
		})
		canary()
		if got := harness.SemDownload(t, dev, out, n); got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}
	})
}

func TestFaultSharedOutOfBounds(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_misc.ptx"), func(t *testing.T) {
		const grid, block, bad = 2, 64, 114
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_misc.ptx", "shared_oob", dev, grid, block, out, uint32(bad))
		f := harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultOutOfBounds, Kernel: "shared_oob", Loc: harness.FaultLoc(t, "fault_misc.ptx", "shared_oob"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block}, Space: "shared",
		})
		// sh is 64 u32: the store at sh[64] is 256 bytes into shared memory (reported as a
		// shared-space address, or as its generic address).
		if !f.HasAddr || (f.Addr != 256 && f.Addr != uint64(runtime.SharedWindow)+256) {
			t.Errorf("Addr = %#x (HasAddr %v), want shared address 0x100", f.Addr, f.HasAddr)
		}
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if want := uint32(63 - i); got[i] != want {
				t.Errorf("out[%d] = %#x, want %#x (CTA 0 completes)", i, got[i], want)
			}
		}
		for i := block; i < grid*block; i++ {
			if got[i] != harness.SemSentinel {
				t.Errorf("out[%d] = %#x, want it unwritten (CTA 1 faults before its barrier)", i, got[i])
			}
		}
	})
}

func TestFaultBrxIndexOutOfRange(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_misc.ptx"), func(t *testing.T) {
		const grid, block, bad = 2, 64, 77
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_misc.ptx", "brx_range", dev, grid, block, out, uint32(bad))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultBrxRange, Kernel: "brx_range", Loc: harness.FaultLoc(t, "fault_misc.ptx", "brx_range"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
		})
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if got[i] != uint32(i%4) {
				t.Errorf("out[%d] = %#x, want %d", i, got[i], i%4)
			}
		}
		if got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}
	})
}

func TestFaultIllegalCallTarget(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_calls.ptx"), func(t *testing.T) {
		const grid, block, bad = 2, 64, 74
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_calls.ptx", "call_target", dev, grid, block, out, uint32(bad))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultCallTarget, Kernel: "call_target", Loc: harness.FaultLoc(t, "fault_calls.ptx", "call_target"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
			HasAddr: true, Addr: funcAddr(t, "fault_calls.ptx", "f2"),
		})
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if want := uint32(i + 1 + i%2); got[i] != want {
				t.Errorf("out[%d] = %d, want %d", i, got[i], want)
			}
		}
		if got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}
	})
}

func TestFaultCallSignatureMismatch(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_calls.ptx"), func(t *testing.T) {
		const grid, block, bad = 2, 64, 67
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_calls.ptx", "call_signature", dev, grid, block, out, uint32(bad))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultCallSignature, Kernel: "call_signature", Loc: harness.FaultLoc(t, "fault_calls.ptx", "call_signature"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
			HasAddr: true, Addr: funcAddr(t, "fault_calls.ptx", "wide"),
		})
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if got[i] != uint32(i+1) {
				t.Errorf("out[%d] = %d, want %d", i, got[i], i+1)
			}
		}
		if got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}
	})
}

func TestFaultStackOverflow(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_calls.ptx"), func(t *testing.T) {
		const grid, block, bad, depth = 2, 64, 109, 3
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		_, k := harness.SemKernel(t, "fault_calls.ptx", "overflow")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: 1, MaxCallDepth: 8}
		err := k.LaunchConfig(ctx, dev, cfg, out, uint32(bad), uint32(depth))
		if ctx.Err() != nil {
			t.Fatalf("runaway recursion was not stopped by MaxCallDepth: %v", err)
		}
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultStackOverflow, Kernel: "overflow", Func: "rec", Loc: harness.FaultLoc(t, "fault_calls.ptx", "overflow"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
		})
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if got[i] != depth {
				t.Errorf("out[%d] = %d, want %d", i, got[i], depth)
			}
		}
		if got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}

		// MaxCallDepth bounds the number of nested calls: the kernel's call of rec(d) plus the d
		// calls rec makes give d+1 nested calls. With MaxCallDepth 8, d = 7 runs to completion
		// and d = 8 overflows, in every thread (the first, thread 0 of CTA 0, is reported).
		out2 := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		if err := k.LaunchConfig(ctx, dev, cfg, out2, uint32(grid*block), uint32(7)); err != nil {
			t.Fatalf("8 nested calls with MaxCallDepth 8: %v", err)
		}
		for i, v := range harness.SemDownload(t, dev, out2, grid*block) {
			if v != 7 {
				t.Fatalf("out2[%d] = %d, want 7", i, v)
			}
		}
		err = k.LaunchConfig(ctx, dev, cfg, out2, uint32(grid*block), uint32(8))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultStackOverflow, Kernel: "overflow", Func: "rec", Loc: harness.FaultLoc(t, "fault_calls.ptx", "overflow"),
			CTA: runtime.Dim3{}, Thread: runtime.Dim3{},
		})
	})
}

func TestFaultBarrierDeadlock(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_sync.ptx"), func(t *testing.T) {
		const block = 64
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_sync.ptx", "deadlock", dev, 1, block, out)
		if err == nil {
			t.Fatal("launch succeeded; want a deadlock fault")
		}
		var f *runtime.Fault
		if !errors.As(err, &f) {
			t.Fatalf("launch returned %T %v; want a *runtime.Fault", err, err)
		}
		// Either blocked warp may be the one reported: warp 1 at bar.sync 0 or warp 0 at bar.sync 1.
		w := harness.FaultWant{
			Kind: runtime.FaultDeadlock, Kernel: "deadlock", Loc: harness.FaultLoc(t, "fault_sync.ptx", "deadlock bar0"),
			Thread: runtime.Dim3{X: 32},
		}
		if f.Thread.X < 32 {
			w.Loc, w.Thread = harness.FaultLoc(t, "fault_sync.ptx", "deadlock bar1"), runtime.Dim3{X: 0}
		}
		harness.CheckFault(t, err, w)
		canary()
		for i, v := range harness.SemDownload(t, dev, out, block) {
			if v != harness.SemSentinel {
				t.Errorf("out[%d] = %#x, want it unwritten: no thread passes its barrier", i, v)
			}
		}
	})
}

func TestFaultTrap(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_misc.ptx"), func(t *testing.T) {
		const grid, block, bad = 2, 64, 77
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
		canary := semCanary(t, dev)
		err := faultLaunch(t, "fault_misc.ptx", "trap_kernel", dev, grid, block, out, uint32(bad))
		harness.CheckFault(t, err, harness.FaultWant{
			Kind: runtime.FaultTrap, Kernel: "trap_kernel", Loc: harness.FaultLoc(t, "fault_misc.ptx", "trap"),
			CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
		})
		canary()
		got := harness.SemDownload(t, dev, out, grid*block)
		for i := range block {
			if got[i] != uint32(i) {
				t.Errorf("out[%d] = %d, want %d", i, got[i], i)
			}
		}
		if got[bad] != harness.SemSentinel {
			t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
		}
	})
}

func TestFaultCancelled(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_sync.ptx"), func(t *testing.T) {
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, 1, harness.SemSentinel)
		canary := semCanary(t, dev)
		_, k := harness.SemKernel(t, "fault_sync.ptx", "spin")
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		type result struct {
			err error
			d   time.Duration
		}
		done := make(chan result, 1)
		start := time.Now()
		go func() {
			err := k.Launch(ctx, dev, runtime.D1(16), runtime.D1(64), out, uint32(0))
			done <- result{err, time.Since(start)}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("launch of an infinite loop did not return within 10 s of a 50 ms timeout")
		}
		if r.d > 2*time.Second {
			t.Errorf("launch returned %v after start; want promptly after the 50 ms timeout", r.d)
		}
		var f *runtime.Fault
		if !errors.As(r.err, &f) {
			t.Fatalf("launch returned %T %v; want a *runtime.Fault", r.err, r.err)
		}
		t.Logf("fault after %v: %v", r.d, f)
		if f.Kind != runtime.FaultCancelled {
			t.Errorf("Kind = %v, want %v", f.Kind, runtime.FaultCancelled)
		}
		if f.Kernel != "spin" {
			t.Errorf("Kernel = %q, want spin", f.Kernel)
		}
		if !errors.Is(r.err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", r.err)
		}
		if f.CTA.X >= 16 || f.CTA.Y != 0 || f.CTA.Z != 0 || f.Thread.X >= 64 || f.Thread.Y != 0 || f.Thread.Z != 0 {
			t.Errorf("CTA %v thread %v outside the launch", f.CTA, f.Thread)
		}
		canary()
		if v := harness.SemDownload(t, dev, out, 1)[0]; v != harness.SemSentinel {
			t.Errorf("out[0] = %#x, want it unwritten", v)
		}

		// A context cancelled before the launch stops it at once.
		ctx2, cancel2 := context.WithCancel(context.Background())
		cancel2()
		err := k.Launch(ctx2, dev, runtime.D1(1), runtime.D1(32), out, uint32(0))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("launch with a cancelled context: %v, want an error wrapping context.Canceled", err)
		}
	})
}

func TestFaultBadLaunchConfig(t *testing.T) {
	harness.OnEngines(t, filepath.Join(harness.SemDir, "fault_sync.ptx"), func(t *testing.T) {
		_, k := harness.SemKernel(t, "fault_sync.ptx", "config")
		dev := runtime.NewDevice()
		out := harness.SemFilled(t, dev, 2048, harness.SemSentinel)
		ctx := context.Background()
		cases := []struct {
			name  string
			block runtime.Dim3
			args  []any
			want  []string // substrings of the error
		}{
			{"block 1025", runtime.D1(1025), []any{out, uint32(1), int16(2)}, []string{"1025"}},
			{"block 32x32x2", runtime.Dim3{X: 32, Y: 32, Z: 2}, []any{out, uint32(1), int16(2)}, []string{"2048", "1024"}},
			{"too few args", runtime.D1(32), []any{out, uint32(1)}, []string{"config", "3", "2"}},
			{"too many args", runtime.D1(32), []any{out, uint32(1), int16(2), 4}, []string{"config", "3", "4"}},
			{"u32 overflow", runtime.D1(32), []any{out, 1 << 40, int16(2)}, []string{"n", "does not fit", "u32"}},
			{"negative u32", runtime.D1(32), []any{out, -1, int16(2)}, []string{"n", "-1", "u32"}},
			{"s16 overflow", runtime.D1(32), []any{out, uint32(1), 40000}, []string{"s", "40000", "s16"}},
			{"s16 underflow", runtime.D1(32), []any{out, uint32(1), -40000}, []string{"s", "-40000", "s16"}},
			{"float for u32", runtime.D1(32), []any{out, 1.5, int16(2)}, []string{"n"}},
			{"string for pointer", runtime.D1(32), []any{"x", uint32(1), int16(2)}, []string{"out"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				err := k.Launch(ctx, dev, runtime.D1(1), c.block, c.args...)
				if err == nil {
					t.Fatal("launch succeeded; want an error")
				}
				var f *runtime.Fault
				if errors.As(err, &f) {
					t.Errorf("a configuration error came back as a fault: %v", err)
				}
				for _, s := range c.want {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", err, s)
					}
				}
			})
		}
		for i, v := range harness.SemDownload(t, dev, out, 2048) {
			if v != harness.SemSentinel {
				t.Fatalf("out[%d] = %#x after rejected launches, want it unwritten", i, v)
			}
		}
		// The same kernel with a good configuration runs: out[gid] = n + s.
		if err := k.Launch(ctx, dev, runtime.D1(2), runtime.D1(1024), out, uint32(10), -3); err != nil {
			t.Fatalf("good launch: %v", err)
		}
		for i, v := range harness.SemDownload(t, dev, out, 2048) {
			if v != 7 {
				t.Fatalf("out[%d] = %d, want 7", i, v)
			}
		}
	})
}

// TestResourceLimits checks that declarations far beyond what a GPU offers are clear errors,
// not an exhausted host, and that unused declared registers cost no frame memory.
func TestResourceLimits(t *testing.T) {
	module := func(body string) []byte {
		return []byte(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n" + body + "\n}\n")
	}
	t.Run("registers", func(t *testing.T) {
		_, err := ptx2go.Compile(module("\t.reg .b32 %r<100000000>;\n\tret;"), ptx2go.Options{File: "regs.ptx"})
		require.Error(t, err)
		require.Contains(t, err.Error(), "regs.ptx:6:")
		require.Contains(t, err.Error(), "limit of 1048576")
	})
	t.Run("local memory", func(t *testing.T) {
		mod, err := ptx2go.Compile(module("\t.local .align 8 .b8 buf[1048576];\n\tret;"), ptx2go.Options{File: "local.ptx"})
		require.NoError(t, err)
		k, err := mod.Kernel("k")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		err = k.Launch(context.Background(), dev, runtime.D1(1), runtime.D1(32), runtime.Ptr(0))
		require.Error(t, err)
		require.Contains(t, err.Error(), "local memory")
		require.Contains(t, err.Error(), "524288")
	})
	t.Run("unused registers", func(t *testing.T) {
		mod, err := ptx2go.Compile(module(`	.reg .b64 %rd<500000>;
	.reg .u32 %r<500000>;
	ld.param.u64 %rd499999, [out];
	cvta.to.global.u64 %rd499999, %rd499999;
	mov.u32 %r12345, %tid.x;
	mul.wide.u32 %rd7, %r12345, 4;
	add.s64 %rd499999, %rd499999, %rd7;
	st.global.u32 [%rd499999], %r12345;
	ret;`), ptx2go.Options{File: "unused.ptx"})
		require.NoError(t, err)
		fn := mod.Runtime().Funcs[0]
		require.Less(t, fn.NumRegs, 16, "register slots for a kernel that uses 3 of 1000000 declared registers")
		k, err := mod.Kernel("k")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		out, err := dev.Malloc(4 * 64)
		require.NoError(t, err)
		require.NoError(t, k.Launch(context.Background(), dev, runtime.D1(1), runtime.D1(64), out))
		got := make([]uint32, 64)
		require.NoError(t, runtime.Download(dev, got, out))
		for i, v := range got {
			require.Equal(t, uint32(i), v, "out[%d]", i)
		}
	})
}

// TestFaultUseAfterFree launches vecadd on a buffer that was freed: the first access to it is
// an out-of-bounds fault at its address, and the device stays usable for the next launch.
func TestFaultUseAfterFree(t *testing.T) {
	mod, err := ptx2go.CompileFile("testdata/ptx/vecadd.ptx")
	require.NoError(t, err)
	k, err := mod.Kernel("vecadd")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	a, err := runtime.Upload(dev, []float32{1, 2, 3, 4})
	require.NoError(t, err)
	b, err := runtime.Upload(dev, []float32{10, 20, 30, 40})
	require.NoError(t, err)
	c, err := dev.Malloc(16)
	require.NoError(t, err)
	require.NoError(t, dev.Free(b))
	err = k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(4), c, a, b, uint32(4))
	var f *runtime.Fault
	require.True(t, errors.As(err, &f), "want a fault, got %v", err)
	require.Equal(t, runtime.FaultOutOfBounds, f.Kind)
	require.True(t, f.HasAddr)
	require.GreaterOrEqual(t, f.Addr, uint64(b))
	require.Less(t, f.Addr, uint64(b)+16)
	b2, err := runtime.Upload(dev, []float32{10, 20, 30, 40})
	require.NoError(t, err)
	require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(4), c, a, b2, uint32(4)))
	got := make([]float32, 4)
	require.NoError(t, runtime.Download(dev, got, c))
	require.Equal(t, []float32{11, 22, 33, 44}, got)
}

// TestFaultConstStore runs testdata/ptx/hand/const_store.ptx on both engines: a store, atomic
// or reduction that reaches a .const variable through a generic or global address is a
// read-only fault at its line, lane and address, and leaves the table unchanged; loads of it
// still work, and the host may still write it.
func TestFaultConstStore(t *testing.T) {
	const path = "testdata/ptx/hand/const_store.ptx"
	closure, err := ptx2go.CompileFile(path)
	require.NoError(t, err)
	gen, err := ptx2go.Load(harness.GoModule(t, "hand/const_store"))
	require.NoError(t, err)
	want := make([]uint32, 64)
	for i := range 8 {
		want[i] = uint32(i + 1)
	}
	for _, e := range []struct {
		name string
		mod  *ptx2go.Module
	}{{"closure", closure}, {"go", gen}} {
		t.Run(e.name, func(t *testing.T) {
			dev := runtime.NewDevice()
			table, err := e.mod.GlobalAddr(dev, "table")
			require.NoError(t, err)
			read := func() []uint32 {
				k, err := e.mod.Kernel("read_table")
				require.NoError(t, err)
				out, err := dev.Malloc(4 * 64)
				require.NoError(t, err)
				require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(64), out))
				return harness.SemDownload(t, dev, out, 64)
			}
			for _, c := range []struct {
				kernel string
				thread uint32
				addr   uint64
			}{
				{"generic_store", 0, uint64(table)},
				{"global_store", 3, uint64(table) + 20},
				{"atomic_add", 0, uint64(table)},
				{"reduce_max", 0, uint64(table) + 4},
			} {
				k, err := e.mod.Kernel(c.kernel)
				require.NoError(t, err)
				err = k.Launch(t.Context(), dev, runtime.D1(2), runtime.D1(64))
				f := harness.CheckFault(t, err, harness.FaultWant{
					Kind: runtime.FaultReadOnly, Kernel: c.kernel, Loc: harness.FaultLocIn(t, path, c.kernel),
					Thread: runtime.Dim3{X: c.thread}, HasAddr: true, Addr: c.addr, Space: "const",
				})
				require.Contains(t, f.Error(), "store to read-only memory")
				require.Equal(t, want, read(), "%s changed constant memory", c.kernel)
			}
			require.NoError(t, runtime.Write(dev, table, []uint32{9}))
			want := append([]uint32{9}, want[1:]...)
			require.Equal(t, want, read(), "the host writes constant memory")
		})
	}
}

// TestFaultParamBelowArea checks .param accesses at negative offsets that leave the area: a
// device function's store below its frame's .param area and a kernel's load before its
// parameter buffer are out-of-bounds faults of the thread that makes them on both engines,
// and the other threads' results stand. (The Go engine once took a wrapped-around negative
// offset for an aligned one inside the frame and stored before the area unchecked.)
func TestFaultParamBelowArea(t *testing.T) {
	const file = "fault_param.ptx"
	for _, c := range []struct {
		kernel, fn string
		want       func(gid uint32) uint32
	}{
		{"func_below", "g", func(gid uint32) uint32 { return 2 * gid }},
		{"kernel_below", "", func(gid uint32) uint32 { return gid + 5 }},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			harness.OnEngines(t, filepath.Join(harness.SemDir, file), func(t *testing.T) {
				const grid, block, bad = 2, 64, 77
				dev := runtime.NewDevice()
				out := harness.SemFilled(t, dev, grid*block, harness.SemSentinel)
				canary := semCanary(t, dev)
				err := faultLaunch(t, file, c.kernel, dev, grid, block, out, uint32(bad))
				harness.CheckFault(t, err, harness.FaultWant{
					Kind: runtime.FaultOutOfBounds, Kernel: c.kernel, Func: c.fn, Loc: harness.FaultLoc(t, file, c.kernel),
					CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block}, Space: "param",
				})
				canary()
				got := harness.SemDownload(t, dev, out, grid*block)
				for i := range uint32(block) {
					if got[i] != c.want(i) {
						t.Errorf("out[%d] = %d, want %d", i, got[i], c.want(i))
					}
				}
				if got[bad] != harness.SemSentinel {
					t.Errorf("out[%d] = %#x, want it unwritten", bad, got[bad])
				}
			})
		})
	}
}
