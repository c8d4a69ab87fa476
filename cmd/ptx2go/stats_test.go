package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// statsPTX has one warp's worth of known statistics with -block 32: lanes 0-9 take THEN (2
// instructions), lanes 10-31 the else side (2 instructions), and every lane runs the 4
// instructions before the branch and the 6 after DONE. It stores through a generic address
// (4 bytes a lane) and loads one 8-byte parameter per lane. The branch's region (4 instructions)
// runs predicated, and the statistics are still those of the branch: 2 reconvergences and a
// SIMT stack 3 deep, as the stack would have had.
const statsPTX = `.version 7.5
.target sm_80
.address_size 64

.visible .entry split(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .u32 %r<4>;
	.reg .u64 %rd<4>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 10;
	ld.param.u64 %rd1, [out];
	@%p1 bra THEN;
	add.u32 %r2, %r1, 100;
	bra DONE;
THEN:
	add.u32 %r2, %r1, 200;
	mul.lo.u32 %r2, %r2, 3;
DONE:
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.u32 [%rd3], %r2;
	atom.global.add.u32 %r3, [%rd1], 1;
	bar.sync 0;
	ret;
}
`

// statsWantSummary is -stats' block for statsPTX: 14 instructions, 4*32 + 2*22 + 2*10 + 6*32 = 384
// lane instructions, efficiency 384 / (32*14).
const statsWantSummary = `statistics of split:
  warp instructions     14
  lane instructions     384
  warp efficiency       85.71%
  branches              2 (1 divergent)
  calls                 0
  reconvergences        2
  predicated regions    1
  max SIMT stack depth  3
  max call depth        0
  barriers              1
  atomics               1 (32 lane operations)
  bytes loaded          256: param 256
  bytes stored          128: global 128 (128 through generic addresses)
`

func TestRunStats(t *testing.T) {
	path := writePTX(t, t.TempDir(), "split.ptx", statsPTX)

	code, stdout, stderr := runCLI("run", "-stats", path, "-block", "32", "-arg", "zeros:128")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Regexp(t, summaryLine("split", "(1,1,1)", "(32,1,1)", 32), stdout)
	require.Equal(t, statsWantSummary, stderr)

	code, _, stderr = runCLI("run", path, "-block", "32", "-arg", "zeros:128", "-stats=lines")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	// The hottest lines: the 10 lines run by all 32 lanes in source order, then the else side
	// (22 lanes) and THEN (10 lanes); 14 lines ran.
	lines := strings.Split(statsPTX, "\n")
	type row struct {
		line  int
		lanes int
	}
	var rows []row
	for _, n := range []int{10, 11, 12, 13, 20, 21, 22, 23, 24, 25} {
		rows = append(rows, row{n, 32})
	}
	rows = append(rows, row{14, 22}, row{15, 22}, row{17, 10}, row{18, 10})
	width := len(fmt.Sprintf("%s:%d", path, 10))
	want := statsWantSummary + "hottest lines (14 of 14 executed):\n" +
		fmt.Sprintf("  %-*s  issued  lane-instrs  efficiency  instruction\n", width, "line")
	for _, r := range rows {
		want += fmt.Sprintf("  %-*s  %6d  %11d  %9.2f%%  %s\n", width, fmt.Sprintf("%s:%d", path, r.line), 1, r.lanes,
			100*float64(r.lanes)/32, strings.TrimSpace(lines[r.line-1]))
	}
	require.Equal(t, want, stderr)

	// Without -stats nothing goes to standard error.
	code, _, stderr = runCLI("run", path, "-block", "32", "-arg", "zeros:128")
	require.Equal(t, 0, code)
	require.Empty(t, stderr)

	code, _, stderr = runCLI("run", path, "-stats=all")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "want -stats or -stats=lines, not -stats=all")
}
