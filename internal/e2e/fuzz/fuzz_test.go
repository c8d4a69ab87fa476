package fuzz_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// FuzzCompileLaunch checks that no input makes Compile or Launch panic or hang. A module that
// compiles has each kernel launched on two CTAs of 48 threads (a partial warp included), with
// a zero-filled 4 KiB buffer for every pointer parameter and small numbers for the others,
// under a deadline. Any error is an acceptable answer; a panic, or a launch that ignores its
// deadline, is a failure.
//
//	go test -run '^$' -fuzz=FuzzCompileLaunch -fuzztime=5m .
func FuzzCompileLaunch(f *testing.F) {
	for _, dir := range []string{"testdata/ptx", "testdata/ptx/semantics", "testdata/ptx/hand"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			if len(src) <= 16<<10 {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		mod, err := ptx2go.Compile(src, ptx2go.Options{File: "fuzz.ptx"})
		if err != nil {
			return
		}
		for i, name := range mod.Kernels() {
			if i == 4 {
				break // keeps one input's run short, so the fuzzer's hang detection does not fire
			}
			k, err := mod.Kernel(name)
			if err != nil {
				t.Fatalf("Kernels lists %q but Kernel fails: %v", name, err)
			}
			dev := runtime.NewDevice()
			dev.SetPrintfOutput(io.Discard) // kernels with printf run on arbitrary arguments
			var args []any
			for _, p := range k.Params() {
				switch {
				case p.Array:
					args = append(args, make([]byte, p.Size))
				case p.Pointer:
					ptr, err := dev.Malloc(4 << 10)
					if err != nil {
						t.Fatal(err)
					}
					args = append(args, ptr)
				case p.Type == "f16" || p.Type == "bf16" || p.Type == "f32" || p.Type == "f64":
					args = append(args, 1.5)
				default:
					args = append(args, 17)
				}
			}
			const deadline = 200 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			start := time.Now()
			err = k.Launch(ctx, dev, runtime.D1(2), runtime.D1(48), args...)
			cancel()
			if took := time.Since(start); took > 10*deadline {
				t.Fatalf("launch of %s took %v with a deadline of %v (error: %v)", name, took, deadline, err)
			}
			var fault *runtime.Fault
			if err != nil && !errors.As(err, &fault) && errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("launch of %s: a missed deadline is not reported as a fault: %v", name, err)
			}
		}
	})
}
