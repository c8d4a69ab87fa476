// Package float_test checks the floating-point instruction forms (f32 and f64, f16 and bf16,
// fp8) against Go references on both engines; the integer, memory and warp-level forms are in
// the parent package, so that each suite stays well under go test's time limit.
package float_test

import (
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
