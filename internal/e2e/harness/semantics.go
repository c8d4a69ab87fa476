package harness

import (
	"path/filepath"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

const (
	SemDir      = "testdata/ptx/semantics"
	SemSentinel = 0xDEADBEEF
)

// SemKernel compiles testdata/ptx/semantics/file (on the engine=go subtest of OnEngines, loads
// its generated package) and returns the module and its kernel name (no kernel when name is
// empty).
func SemKernel(t *testing.T, file, name string) (*ptx2go.Module, *ptx2go.Kernel) {
	t.Helper()
	mod, err := LoadModule(t, filepath.Join(SemDir, file))
	if err != nil {
		t.Fatalf("compile %s: %v", file, err)
	}
	if name == "" {
		return mod, nil
	}
	k, err := mod.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return mod, k
}

// SemFilled allocates n u32 on dev, every one set to v.
func SemFilled(t *testing.T, dev *runtime.Device, n int, v uint32) runtime.Ptr {
	t.Helper()
	host := make([]uint32, n)
	for i := range host {
		host[i] = v
	}
	p, err := runtime.Upload(dev, host)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func SemDownload(t *testing.T, dev *runtime.Device, p runtime.Ptr, n int) []uint32 {
	t.Helper()
	out := make([]uint32, n)
	if err := runtime.Download(dev, out, p); err != nil {
		t.Fatal(err)
	}
	return out
}
