package bench_test

import (
	"context"
	goruntime "runtime"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// BenchmarkEmptyLaunch is the fixed cost of a launch: an empty kernel on one thread, from a
// goroutine locked to its thread as a cgo caller's is (ptx2go exec's programs call the drop-in
// from C threads). testdata/cudart/bench.cu measures the same through the CUDA runtime.
func BenchmarkEmptyLaunch(b *testing.B) {
	m, err := ptx2go.Compile([]byte(".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry empty() { ret; }\n"), ptx2go.Options{})
	if err != nil {
		b.Fatal(err)
	}
	k, err := m.Kernel("empty")
	if err != nil {
		b.Fatal(err)
	}
	dev := runtime.NewDevice()
	cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(1)}
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	for b.Loop() {
		if err := k.LaunchConfig(context.Background(), dev, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
