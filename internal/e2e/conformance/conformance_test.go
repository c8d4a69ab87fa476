package conformance_test

import (
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/stretchr/testify/require"
)

// TestConfHarness checks the harness itself on an instruction whose answer is plain Go:
// add.u32 wraps, and setp.lt.s32 with a pred output.
func TestConfHarness(t *testing.T) {
	a := []uint64{0, 1, 0xffffffff, 0x80000000, 12345}
	b := []uint64{0, 2, 1, 0x80000000, 0xffff0000}
	outs := harness.ConfRun(t, harness.ConfOp{
		Body: "add.u32 %d0, %a0, %a1;\nsetp.lt.s32 %d1, %a0, %a1;",
		In:   []string{"u32", "u32"}, Out: []string{"u32", "pred"},
	}, a, b)
	for i := range a {
		x, y := uint32(a[i]), uint32(b[i])
		require.Equal(t, uint64(x+y), outs[0][i], "row %d", i)
		lt := uint64(0)
		if int32(x) < int32(y) {
			lt = 1
		}
		require.Equal(t, lt, outs[1][i], "row %d", i)
	}
}
