package semantics_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// gridSyncPTX waits for every CTA of the grid at a one-shot barrier on the word after the
// grid barrier workspace's size, whose address %envreg1:%envreg2 hold (as cooperative
// groups' grid.sync() does), then reads what the next CTA wrote before it, plus the
// workspace's size word.
const gridSyncPTX = `
.version 7.0
.target sm_70
.address_size 64
.visible .entry gridsync(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .pred %p<3>;
	mov.u32 %r1, %envreg1;
	mov.u32 %r2, %envreg2;
	cvt.u64.u32 %rd1, %r1;
	shl.b64 %rd1, %rd1, 32;
	cvt.u64.u32 %rd2, %r2;
	or.b64 %rd3, %rd1, %rd2;
	add.s64 %rd4, %rd3, 4;
	ld.param.u64 %rd5, [out];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %nctaid.x;
	mov.u32 %r5, %tid.x;
	setp.ne.u32 %p1, %r5, 0;
	@%p1 bra WAIT;
	mul.wide.u32 %rd6, %r3, 4;
	add.s64 %rd7, %rd5, %rd6;
	add.u32 %r6, %r3, 1;
	st.global.u32 [%rd7], %r6;
	membar.gl;
	atom.global.add.u32 %r7, [%rd4], 1;
SPIN:
	ld.volatile.global.u32 %r8, [%rd4];
	setp.lt.u32 %p2, %r8, %r4;
	@%p2 bra SPIN;
WAIT:
	bar.sync 0;
	add.u32 %r9, %r3, 1;
	rem.u32 %r9, %r9, %r4;
	mul.wide.u32 %rd6, %r9, 4;
	add.s64 %rd7, %rd5, %rd6;
	ld.global.u32 %r10, [%rd7];
	ld.global.u32 %r11, [%rd3];
	add.u32 %r10, %r10, %r11;
	mov.u32 %r6, %ntid.x;
	mad.lo.u32 %r9, %r3, %r6, %r5;
	add.u32 %r9, %r9, %r4;
	mul.wide.u32 %rd6, %r9, 4;
	add.s64 %rd7, %rd5, %rd6;
	st.global.u32 [%rd7], %r10;
	ret;
}
`

// TestCooperativeLaunch checks that a cooperative launch runs all CTAs at once, more of them
// than the workers a plain launch gets, with a zeroed grid barrier workspace at
// %envreg1:%envreg2: each CTA sees the value the next one stored before the barrier.
func TestCooperativeLaunch(t *testing.T) {
	mod, err := ptx2go.Compile([]byte(gridSyncPTX), ptx2go.Options{File: "gridsync.ptx"})
	require.NoError(t, err)
	k, err := mod.Kernel("gridsync")
	require.NoError(t, err)
	dev := runtime.NewDevice()
	const ctas, threads = 40, 64
	n := ctas + ctas*threads
	out, err := dev.Malloc(4 * n)
	require.NoError(t, err)
	for range 3 { // each launch gets a fresh workspace
		require.NoError(t, dev.Memset(out, 0, 4*n))
		cfg := runtime.LaunchConfig{Grid: runtime.D1(ctas), Block: runtime.D1(threads), Workers: 1, Cooperative: true}
		require.NoError(t, k.LaunchConfig(t.Context(), dev, cfg, out))
		got := make([]byte, 4*n)
		require.NoError(t, dev.CopyOut(got, out))
		for c := range ctas {
			require.Equal(t, uint32(c+1), binary.LittleEndian.Uint32(got[4*c:]), "out[%d]", c)
			want := uint32((c+1)%ctas+1) + 8
			for th := range threads {
				i := ctas + c*threads + th
				require.Equal(t, want, binary.LittleEndian.Uint32(got[4*i:]), "CTA %d thread %d", c, th)
			}
		}
	}
}
