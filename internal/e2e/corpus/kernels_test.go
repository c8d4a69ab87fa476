package corpus_test

import (
	"testing"

	"github.com/ptx2go/ptx2go/testdata/kernelcases"
)

// TestKernels runs every kernel case of testdata/kernelcases (each kernel of each CUDA source
// in testdata/cuda, on random inputs against a Go reference) on the closure engine at every
// level the source was compiled at. The tests under generated/ run the same cases on the Go
// source engine.
func TestKernels(t *testing.T) { kernelcases.RunClosure(t) }

// TestKernelsCoverEverySource checks that every kernel of every CUDA source has a case.
func TestKernelsCoverEverySource(t *testing.T) { kernelcases.CheckCoverage(t) }
