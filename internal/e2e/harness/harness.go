// Package harness is what the end-to-end test suites under internal/e2e share: every case
// runs on the closure engine (compiled from the PTX), on the Go source engine (the package
// that gencorpus generated from the same PTX, found through gocorpus) and, where a suite
// says so, on the reference interpreter; the same checks against the same Go references run
// on each, so the engines agree bit for bit. It also holds the helpers the suites share:
// kernels of testdata/ptx/semantics, fault expectations, device buffers and Go references.
//
// A suite's TestMain calls Main, so that paths such as "testdata/ptx/vecadd.ptx" (which
// faults and positions name) are relative to the repository root in every suite.
package harness

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
)

// Root is the repository root: three directories above this file.
var Root = func() string {
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		panic("harness: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}()

// Main runs a suite's tests from the repository root.
func Main(m *testing.M) {
	if err := os.Chdir(Root); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
