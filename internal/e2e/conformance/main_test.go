// Package conformance_test checks the integer, bit, memory, atomic and warp-level instruction
// forms against Go references on both engines (harness.ConfRun); the floating-point forms are
// in the float subpackage.
package conformance_test

import (
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
