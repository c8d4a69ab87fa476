package conformance_test

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// 128-bit registers and atomics (.b128: mov pack/unpack, ld/st in every space, atom.cas.b128 and
// atom.exch.b128) and the vector atomics of PTX 8.1 (atom/red .v2/.v4/.v8 on f32, f16, bf16,
// f16x2, bf16x2), run as real PTX through Compile and Launch and checked against plain Go.

// b128Header starts every test module.
const b128Header = ".version 8.4\n.target sm_90\n.address_size 64\n"

// b128File is the file name the test modules are compiled as; faults name it.
const b128File = "b128.ptx"

// b128Kernel compiles src and returns its kernel name.
func b128Kernel(t testing.TB, src, name string) *ptx2go.Kernel {
	t.Helper()
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: b128File})
	require.NoError(t, err, "compiling:\n%s", src)
	k, err := mod.Kernel(name)
	require.NoError(t, err)
	return k
}

// b128Launch runs k on grid x block (1D) CTAs with workers goroutines.
func b128Launch(t testing.TB, k *ptx2go.Kernel, dev *runtime.Device, grid, block uint32, workers int, args ...any) error {
	t.Helper()
	cfg := runtime.LaunchConfig{Grid: runtime.D1(grid), Block: runtime.D1(block), Workers: workers}
	return k.LaunchConfig(context.Background(), dev, cfg, args...)
}

// b128Up uploads s to a new device buffer.
func b128Up[T runtime.Scalar](t testing.TB, dev *runtime.Device, s []T) runtime.Ptr {
	t.Helper()
	p, err := runtime.Upload(dev, s)
	require.NoError(t, err)
	return p
}

// b128Down downloads n elements from p.
func b128Down[T runtime.Scalar](t testing.TB, dev *runtime.Device, p runtime.Ptr, n int) []T {
	t.Helper()
	out := make([]T, n)
	require.NoError(t, runtime.Download(dev, out, p))
	return out
}

// b128Line is the 1-based line of src that contains marker.
func b128Line(t testing.TB, src, marker string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no line contains %q", marker)
	return 0
}

// b128Random returns n random 64-bit words with edge values mixed in.
func b128Random(r *rand.Rand, n int) []uint64 {
	edges := []uint64{0, 1, math.MaxUint64, 1 << 63, math.MaxInt64, 0xffffffff, 1 << 32}
	out := make([]uint64, n)
	for i := range out {
		if r.IntN(8) == 0 {
			out[i] = edges[r.IntN(len(edges))]
		} else {
			out[i] = r.Uint64()
		}
	}
	return out
}

// b128SpacesSrc moves a 128-bit value through every state space: packed from two .b64 loads,
// stored and reloaded in global, shared (register and generic addresses), local (by name and
// generic), passed to and returned from a device function in .param .b128 variables, and read
// from an aligned kernel parameter; unpacked halves (one through _) are stored as .b64.
const b128SpacesSrc = b128Header + `
.func (.param .b128 r) swap(.param .b128 x)
{
	.reg .b64 %a<2>;
	.reg .b128 %v<2>;
	ld.param.b128 %v0, [x];
	mov.b128 {%a0, %a1}, %v0;
	mov.b128 %v1, {%a1, %a0};
	st.param.b128 [r], %v1;
	ret;
}

.visible .entry spaces(.param .u64 in, .param .u64 gout, .param .u64 out, .param .align 16 .b8 kp[16])
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<16>;
	.reg .b128 %q<8>;
	.shared .align 16 .b8 sh[2048];
	.local .align 16 .b8 lv[32];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r3, %r1, %r2, %r0;
	mul.wide.u32 %rd0, %r3, 16;
	mul.wide.u32 %rd1, %r0, 16;
	ld.param.u64 %rd2, [in];
	add.u64 %rd2, %rd2, %rd0;
	ld.global.b64 %rd3, [%rd2];
	ld.global.b64 %rd4, [%rd2+8];
	mov.b128 %q0, {%rd3, %rd4};
	ld.param.u64 %rd5, [gout];
	add.u64 %rd5, %rd5, %rd0;
	st.global.b128 [%rd5], %q0;
	ld.global.b128 %q1, [%rd5];
	mov.u64 %rd6, sh;
	add.u64 %rd6, %rd6, %rd1;
	st.shared.b128 [%rd6], %q1;
	ld.shared.b128 %q2, [%rd6];
	st.local.b128 [lv+16], %q2;
	ld.local.b128 %q3, [lv+16];
	cvta.shared.u64 %rd7, %rd6;
	st.b128 [%rd7], %q3;
	ld.b128 %q4, [%rd7];
	mov.u64 %rd8, lv;
	cvta.local.u64 %rd8, %rd8;
	st.b128 [%rd8], %q4;
	ld.b128 %q5, [%rd8];
	{
		.param .b128 pa;
		.param .b128 pr;
		st.param.b128 [pa], %q5;
		call (pr), swap, (pa);
		ld.param.b128 %q6, [pr];
	}
	ld.param.u64 %rd9, [out];
	mul.wide.u32 %rd10, %r3, 48;
	add.u64 %rd9, %rd9, %rd10;
	st.b128 [%rd9], %q6;
	ld.param.b128 %q7, [kp];
	st.global.b128 [%rd9+16], %q7;
	mov.b128 %q1, %q7;
	mov.b128 {%rd11, _}, %q6;
	mov.b128 {_, %rd12}, %q1;
	st.global.b64 [%rd9+32], %rd11;
	st.global.b64 [%rd9+40], %rd12;
	ret;
}
`

// TestB128MovLdStSpaces checks mov.b128 pack, unpack and copy and ld/st.b128 in the global,
// shared, local, param (kernel and device-function) and generic spaces on random values.
func TestB128MovLdStSpaces(t *testing.T) {
	const grid, block = 96, 128
	n := grid * block
	r := rand.New(rand.NewPCG(128, 1))
	in := b128Random(r, 2*n)
	kp := b128Random(r, 2)
	kpBytes := make([]byte, 16)
	for i := range 16 {
		kpBytes[i] = byte(kp[i/8] >> (8 * (i % 8)))
	}
	dev := runtime.NewDevice()
	k := b128Kernel(t, b128SpacesSrc, "spaces")
	pin, pg, po := b128Up(t, dev, in), b128Up(t, dev, make([]uint64, 2*n)), b128Up(t, dev, make([]uint64, 6*n))
	require.NoError(t, b128Launch(t, k, dev, grid, block, 4, pin, pg, po, kpBytes))
	gout := b128Down[uint64](t, dev, pg, 2*n)
	out := b128Down[uint64](t, dev, po, 6*n)
	require.Equal(t, in, gout, "global round trip")
	for i := range n {
		lo, hi := in[2*i], in[2*i+1]
		want := []uint64{hi, lo, kp[0], kp[1], hi, kp[1]}
		if got := out[6*i : 6*i+6]; !slices.Equal(got, want) {
			t.Fatalf("thread %d: got %#x, want %#x", i, got, want)
		}
	}
}

// b128Counter is a 128-bit unsigned integer as its two 64-bit halves.
type b128Counter struct{ lo, hi uint64 }

// add returns c + d.
func (c b128Counter) add(d uint64) b128Counter {
	lo, carry := bits.Add64(c.lo, d, 0)
	return b128Counter{lo, c.hi + carry}
}

func (c b128Counter) less(d b128Counter) bool { return c.hi < d.hi || c.hi == d.hi && c.lo < d.lo }

// b128CasSrc is a kernel in which every thread increments a 128-bit counter iters times with an
// atom.cas.b128 loop (carrying from the low word into the high one with setp/selp) and records
// the value each successful CAS replaced in olds. space is "global" (atom.global), "generic"
// (no space, a global address) or "shared": then each CTA counts in a shared counter that
// starts at *ctr and writes its final value to ctr[1+ctaid].
func b128CasSrc(space string) string {
	ss, addr := ".global", "%rd0"
	switch space {
	case "generic":
		ss = ""
	case "shared":
		ss, addr = ".shared", "%rd14"
	}
	var b strings.Builder
	b.WriteString(b128Header + `
.visible .entry counter(.param .u64 ctr, .param .u64 olds, .param .u32 iters)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<16>;
	.reg .b128 %q<4>;
	.shared .align 16 .b8 sctr[16];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r3, %r1, %r2, %r0;
	ld.param.u64 %rd0, [ctr];
	ld.param.u32 %r4, [iters];
	mul.wide.u32 %rd1, %r3, %r4;
	shl.b64 %rd1, %rd1, 4;
	ld.param.u64 %rd2, [olds];
	add.u64 %rd2, %rd2, %rd1;
	mov.u64 %rd14, sctr;
	setp.eq.u32 %p3, %r0, 0;
`)
	if space == "shared" {
		b.WriteString(`	@%p3 ld.global.b128 %q3, [%rd0];
	@%p3 st.shared.b128 [sctr], %q3;
	bar.sync 0;
`)
	}
	fmt.Fprintf(&b, `	mov.u32 %%r5, 0;
LOOP:
	ld%[1]s.b128 %%q0, [%[2]s];
RETRY:
	mov.b128 {%%rd4, %%rd5}, %%q0;
	add.u64 %%rd6, %%rd4, 1;
	setp.eq.u64 %%p0, %%rd6, 0;
	selp.u64 %%rd7, 1, 0, %%p0;
	add.u64 %%rd7, %%rd5, %%rd7;
	mov.b128 %%q1, {%%rd6, %%rd7};
	atom%[1]s.cas.b128 %%q2, [%[2]s], %%q0, %%q1;
	mov.b128 {%%rd8, %%rd9}, %%q2;
	xor.b64 %%rd10, %%rd8, %%rd4;
	xor.b64 %%rd11, %%rd9, %%rd5;
	or.b64 %%rd10, %%rd10, %%rd11;
	setp.ne.u64 %%p1, %%rd10, 0;
	mov.b128 %%q0, %%q2;
	@%%p1 bra RETRY;
	st.global.b128 [%%rd2], %%q2;
	add.u64 %%rd2, %%rd2, 16;
	add.u32 %%r5, %%r5, 1;
	setp.lt.u32 %%p2, %%r5, %%r4;
	@%%p2 bra LOOP;
`, ss, addr)
	if space == "shared" {
		b.WriteString(`	bar.sync 0;
	ld.shared.b128 %q3, [sctr];
	mul.wide.u32 %rd12, %r1, 16;
	add.u64 %rd12, %rd12, %rd0;
	@%p3 st.global.b128 [%rd12+16], %q3;
`)
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// b128CheckTickets checks that the olds, in 16-byte records, are exactly start, start+1, ...,
// start+len-1 in some order: every increment replaced a distinct value, none was lost.
func b128CheckTickets(t *testing.T, olds []uint64, start b128Counter) {
	t.Helper()
	got := make([]b128Counter, len(olds)/2)
	for i := range got {
		got[i] = b128Counter{olds[2*i], olds[2*i+1]}
	}
	slices.SortFunc(got, func(x, y b128Counter) int {
		switch {
		case x.less(y):
			return -1
		case y.less(x):
			return 1
		}
		return 0
	})
	for i, c := range got {
		if want := start.add(uint64(i)); c != want {
			t.Fatalf("ticket %d: got %#x, want %#x", i, c, want)
		}
	}
}

// TestB128AtomCasCounter: many CTAs on 8 workers increment one 128-bit counter with CAS loops;
// the counter starts just below a carry into the high word. The total must be exact and every
// increment must have replaced a distinct value. Shared memory: one counter per CTA.
func TestB128AtomCasCounter(t *testing.T) {
	const grid, block, iters = 64, 96, 4
	start := b128Counter{lo: math.MaxUint64 - grid*block*iters/2, hi: 0x1234_5678_9abc_def0}
	for _, space := range []string{"global", "generic", "shared"} {
		t.Run(space, func(t *testing.T) {
			dev := runtime.NewDevice()
			k := b128Kernel(t, b128CasSrc(space), "counter")
			ctr := make([]uint64, 2+2*grid)
			ctr[0], ctr[1] = start.lo, start.hi
			pc := b128Up(t, dev, ctr)
			po := b128Up(t, dev, make([]uint64, 2*grid*block*iters))
			require.NoError(t, b128Launch(t, k, dev, grid, block, 8, pc, po, uint32(iters)))
			got := b128Down[uint64](t, dev, pc, len(ctr))
			olds := b128Down[uint64](t, dev, po, 2*grid*block*iters)
			if space != "shared" {
				want := start.add(grid * block * iters)
				require.Equal(t, want, b128Counter{got[0], got[1]}, "final counter")
				b128CheckTickets(t, olds, start)
				return
			}
			per := 2 * block * iters
			want := start.add(block * iters)
			for c := range grid {
				require.Equal(t, want, b128Counter{got[2+2*c], got[3+2*c]}, "CTA %d's final counter", c)
				b128CheckTickets(t, olds[c*per:(c+1)*per], start)
			}
		})
	}
}

// b128ExchSrc: every thread exchanges its own value {i+1, (i+1)^0x5555...} into one cell and
// records the value it replaced.
const b128ExchSrc = b128Header + `
.visible .entry chain(.param .u64 cell, .param .u64 olds)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<2>;
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r3, %r1, %r2, %r0;
	cvt.u64.u32 %rd0, %r3;
	add.u64 %rd1, %rd0, 1;
	xor.b64 %rd2, %rd1, 0x5555555555555555;
	mov.b128 %q0, {%rd1, %rd2};
	ld.param.u64 %rd3, [cell];
	atom.relaxed.gpu.global.exch.b128 %q1, [%rd3], %q0;
	ld.param.u64 %rd4, [olds];
	shl.b64 %rd5, %rd0, 4;
	add.u64 %rd4, %rd4, %rd5;
	st.global.b128 [%rd4], %q1;
	ret;
}
`

// TestB128AtomExchChain: the values exchanged out of one cell by many CTAs in parallel, plus
// its final value, are the initial value and every thread's value, each exactly once, and
// none is torn.
func TestB128AtomExchChain(t *testing.T) {
	const grid, block = 128, 64
	const n = grid * block
	dev := runtime.NewDevice()
	k := b128Kernel(t, b128ExchSrc, "chain")
	initial := b128Counter{0xdead, 0xbeef}
	pc := b128Up(t, dev, []uint64{initial.lo, initial.hi})
	po := b128Up(t, dev, make([]uint64, 2*n))
	require.NoError(t, b128Launch(t, k, dev, grid, block, 8, pc, po))
	cell := b128Down[uint64](t, dev, pc, 2)
	olds := b128Down[uint64](t, dev, po, 2*n)
	seen := map[b128Counter]int{{cell[0], cell[1]}: 1}
	for i := range n {
		seen[b128Counter{olds[2*i], olds[2*i+1]}]++
	}
	want := map[b128Counter]int{initial: 1}
	for i := range uint64(n) {
		want[b128Counter{i + 1, (i + 1) ^ 0x5555555555555555}] = 1
	}
	require.Equal(t, want, seen)
}

// b128RowsSrc runs atom.op.b128 once per thread on its own 16-byte cell mem[i] with operands
// b[i] (and c[i] for cas), storing the returned value in olds[i]. space: "global", "generic"
// (a global address), "shared" and "generic-shared" (the cell is copied through shared memory).
func b128RowsSrc(op, space string) string {
	ss, addr := ".global", "%rd1"
	switch space {
	case "generic":
		ss = ""
	case "shared":
		ss, addr = ".shared", "%rd6"
	case "generic-shared":
		ss, addr = "", "%rd7"
	}
	operands := "%q0"
	if op == "cas" {
		operands = "%q0, %q1"
	}
	return fmt.Sprintf(b128Header+`
.visible .entry rows(.param .u64 mem, .param .u64 bs, .param .u64 cs, .param .u64 olds)
{
	.reg .b32 %%r<4>;
	.reg .b64 %%rd<10>;
	.reg .b128 %%q<4>;
	.shared .align 16 .b8 sh[4096];
	mov.u32 %%r0, %%tid.x;
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%ntid.x;
	mad.lo.u32 %%r3, %%r1, %%r2, %%r0;
	mul.wide.u32 %%rd0, %%r3, 16;
	ld.param.u64 %%rd1, [mem];
	add.u64 %%rd1, %%rd1, %%rd0;
	ld.param.u64 %%rd2, [bs];
	add.u64 %%rd2, %%rd2, %%rd0;
	ld.param.u64 %%rd3, [cs];
	add.u64 %%rd3, %%rd3, %%rd0;
	ld.param.u64 %%rd4, [olds];
	add.u64 %%rd4, %%rd4, %%rd0;
	mul.wide.u32 %%rd5, %%r0, 16;
	mov.u64 %%rd6, sh;
	add.u64 %%rd6, %%rd6, %%rd5;
	cvta.shared.u64 %%rd7, %%rd6;
	ld.global.b128 %%q2, [%%rd1];
	st.shared.b128 [%%rd6], %%q2;
	ld.global.b128 %%q0, [%%rd2];
	ld.global.b128 %%q1, [%%rd3];
	atom%[1]s.%[2]s.b128 %%q3, [%[3]s], %[4]s;
	st.global.b128 [%%rd4], %%q3;
	ld.shared.b128 %%q2, [%%rd6];
	st.global.b128 [%%rd3], %%q2;
	ret;
}
`, ss, op, addr, operands)
}

// TestB128AtomCasExchRows: atom.cas.b128 and atom.exch.b128 row by row, in every space: cas
// returns the old value and stores c only when the old value equals b in both halves (rows
// differ from b in the low half, the high half, both, or not at all); exch always stores b.
func TestB128AtomCasExchRows(t *testing.T) {
	const grid, block = 40, 256
	const n = grid * block
	r := rand.New(rand.NewPCG(128, 2))
	mem, bs, cs := b128Random(r, 2*n), b128Random(r, 2*n), b128Random(r, 2*n)
	for i := range n {
		switch i % 4 {
		case 0:
			bs[2*i], bs[2*i+1] = mem[2*i], mem[2*i+1]
		case 1:
			bs[2*i], bs[2*i+1] = mem[2*i]^1<<uint(r.IntN(64)), mem[2*i+1]
		case 2:
			bs[2*i], bs[2*i+1] = mem[2*i], mem[2*i+1]^1<<uint(r.IntN(64))
		}
	}
	for _, op := range []string{"cas", "exch"} {
		for _, space := range []string{"global", "generic", "shared", "generic-shared"} {
			t.Run(op+"/"+space, func(t *testing.T) {
				dev := runtime.NewDevice()
				k := b128Kernel(t, b128RowsSrc(op, space), "rows")
				pm, pb, pc, po := b128Up(t, dev, mem), b128Up(t, dev, bs), b128Up(t, dev, cs), b128Up(t, dev, make([]uint64, 2*n))
				require.NoError(t, b128Launch(t, k, dev, grid, block, 4, pm, pb, pc, po))
				gotMem := b128Down[uint64](t, dev, pm, 2*n)
				if strings.HasSuffix(space, "shared") {
					// The cell was updated in shared memory and copied out to cs.
					gotMem = b128Down[uint64](t, dev, pc, 2*n)
				}
				olds := b128Down[uint64](t, dev, po, 2*n)
				for i := range n {
					old := [2]uint64{mem[2*i], mem[2*i+1]}
					b := [2]uint64{bs[2*i], bs[2*i+1]}
					want := b
					if op == "cas" {
						want = old
						if old == b {
							want = [2]uint64{cs[2*i], cs[2*i+1]}
						}
					}
					if got := [2]uint64{olds[2*i], olds[2*i+1]}; got != old {
						t.Fatalf("row %d: returned %#x, want the old value %#x", i, got, old)
					}
					if got := [2]uint64{gotMem[2*i], gotMem[2*i+1]}; got != want {
						t.Fatalf("row %d: memory %#x, want %#x (old %#x, b %#x)", i, got, want, old, b)
					}
				}
			})
		}
	}
}

// b128Vec is one vector atomic form: .op.vN.typ.
type b128Vec struct {
	op, typ string
	n       int
}

func (v b128Vec) String() string { return fmt.Sprintf("%s.v%d.%s", v.op, v.n, v.typ) }

// elemBytes is the size of one vector element; unitBytes that of one scalar float in memory
// (a packed element holds two).
func (v b128Vec) elemBytes() int {
	if v.typ == "f16" || v.typ == "bf16" {
		return 2
	}
	return 4
}

func (v b128Vec) unitBytes() int {
	if v.typ == "f32" {
		return 4
	}
	return 2
}

// units is the number of scalar floats in one vector.
func (v b128Vec) units() int { return v.n * v.elemBytes() / v.unitBytes() }

// format is the (exponent, fraction) bit counts of the vector's scalar floats.
func (v b128Vec) format() (int, int) {
	switch v.typ {
	case "f32":
		return 8, 23
	case "bf16", "bf16x2":
		return 8, 7
	}
	return 5, 10
}

// b128VecForms lists every vector atomic the ISA has (PTX 8.1, sm_90).
func b128VecForms() []b128Vec {
	var out []b128Vec
	for _, n := range []int{2, 4} {
		out = append(out, b128Vec{"add", "f32", n})
	}
	for _, op := range []string{"add", "min", "max"} {
		for _, typ := range []string{"f16", "bf16"} {
			for _, n := range []int{2, 4, 8} {
				out = append(out, b128Vec{op, typ, n})
			}
		}
		for _, typ := range []string{"f16x2", "bf16x2"} {
			for _, n := range []int{2, 4} {
				out = append(out, b128Vec{op, typ, n})
			}
		}
	}
	return out
}

// b128VecSrc is a kernel in which thread i applies the vector atomic to the vector at slot
// ((i >> shift) % k) of mem with its own operand vector vals[i], storing the returned vector
// in olds[i] (atom) or nothing (red). generic drops the .global qualifier.
func b128VecSrc(v b128Vec, red, generic bool) string {
	es := v.elemBytes()
	vb := v.n * es
	var b strings.Builder
	fmt.Fprintf(&b, b128Header+`
.visible .entry vec(.param .u64 mem, .param .u64 vals, .param .u64 olds, .param .u32 shift, .param .u32 k)
{
	.reg .b32 %%r<10>;
	.reg .b64 %%rd<8>;
	.reg .b%[1]d %%e<8>;
	.reg .b%[1]d %%d<8>;
	mov.u32 %%r0, %%tid.x;
	mov.u32 %%r1, %%ctaid.x;
	mov.u32 %%r2, %%ntid.x;
	mad.lo.u32 %%r3, %%r1, %%r2, %%r0;
	ld.param.u32 %%r4, [shift];
	ld.param.u32 %%r5, [k];
	shr.u32 %%r6, %%r3, %%r4;
	rem.u32 %%r7, %%r6, %%r5;
	ld.param.u64 %%rd0, [mem];
	mul.wide.u32 %%rd1, %%r7, %[2]d;
	add.u64 %%rd0, %%rd0, %%rd1;
	mul.wide.u32 %%rd2, %%r3, %[2]d;
	ld.param.u64 %%rd3, [vals];
	add.u64 %%rd3, %%rd3, %%rd2;
	ld.param.u64 %%rd4, [olds];
	add.u64 %%rd4, %%rd4, %%rd2;
`, es*8, vb)
	var es_, ds []string
	for j := range v.n {
		fmt.Fprintf(&b, "\tld.global.b%d %%e%d, [%%rd3+%d];\n", es*8, j, j*es)
		es_ = append(es_, fmt.Sprintf("%%e%d", j))
		ds = append(ds, fmt.Sprintf("%%d%d", j))
	}
	ss := ".global"
	if generic {
		ss = ""
	}
	noftz := ".noftz"
	if v.typ == "f32" {
		noftz = ""
	}
	opc := fmt.Sprintf("%s.%s%s.v%d.%s", ss, v.op, noftz, v.n, v.typ)
	if red {
		fmt.Fprintf(&b, "\tred%s [%%rd0], {%s};\n", opc, strings.Join(es_, ", "))
	} else {
		fmt.Fprintf(&b, "\tatom%s {%s}, [%%rd0], {%s};\n", opc, strings.Join(ds, ", "), strings.Join(es_, ", "))
		for j := range v.n {
			fmt.Fprintf(&b, "\tst.global.b%d [%%rd4+%d], %%d%d;\n", es*8, j*es, j)
		}
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// b128Units packs scalar float bit patterns of ub bytes each into little-endian bytes.
func b128Units(us []uint32, ub int) []byte {
	out := make([]byte, len(us)*ub)
	for i, u := range us {
		for j := range ub {
			out[i*ub+j] = byte(u >> (8 * j))
		}
	}
	return out
}

// b128Unpack is the inverse of b128Units.
func b128Unpack(b []byte, ub int) []uint32 {
	out := make([]uint32, len(b)/ub)
	for i := range out {
		for j := range ub {
			out[i] |= uint32(b[i*ub+j]) << (8 * j)
		}
	}
	return out
}

// b128VecRun runs form v on threads grid*block with the slot mapping (shift, k), memory
// initialized to mem and operands vals (scalar float bit patterns), and returns the final
// memory and the returned olds.
func b128VecRun(t *testing.T, v b128Vec, red, generic bool, grid, block uint32, shift, k int, mem, vals []uint32) (gotMem, olds []uint32) {
	t.Helper()
	ub := v.unitBytes()
	dev := runtime.NewDevice()
	kern := b128Kernel(t, b128VecSrc(v, red, generic), "vec")
	pm, pv := b128Up(t, dev, b128Units(mem, ub)), b128Up(t, dev, b128Units(vals, ub))
	po := b128Up(t, dev, make([]byte, len(vals)*ub))
	require.NoError(t, b128Launch(t, kern, dev, grid, block, 8, pm, pv, po, uint32(shift), uint32(k)), "%s", v)
	return b128Unpack(b128Down[byte](t, dev, pm, len(mem)*ub), ub), b128Unpack(b128Down[byte](t, dev, po, len(vals)*ub), ub)
}

// b128FloatValue decodes a binary float of e exponent and f fraction bits; NaN for a NaN.
func b128FloatValue(x uint32, e, f int) float64 {
	exp := int(x>>f) & (1<<e - 1)
	frac := float64(x & (1<<f - 1))
	bias := 1<<(e-1) - 1
	var v float64
	switch {
	case exp == 1<<e-1 && frac != 0:
		return math.NaN()
	case exp == 1<<e-1:
		v = math.Inf(1)
	case exp == 0:
		v = math.Ldexp(frac, 1-bias-f)
	default:
		v = math.Ldexp(1+frac/float64(uint64(1)<<f), exp-bias)
	}
	if x>>(e+f)&1 != 0 {
		v = -v
	}
	return v
}

// b128FloatOfInt encodes the small integer v exactly in a float of e exponent and f fraction
// bits.
func b128FloatOfInt(v, e, f int) uint32 {
	if v == 0 {
		return 0
	}
	var sign uint32
	if v < 0 {
		sign, v = 1<<(e+f), -v
	}
	m, x := math.Frexp(float64(v)) // v = m * 2^x, m in [0.5, 1)
	exp := x - 1
	frac := (m*2 - 1) * float64(uint64(1)<<f)
	if frac != math.Trunc(frac) {
		panic("not exact")
	}
	return sign | uint32(exp+1<<(e-1)-1)<<f | uint32(frac)
}

// b128Limit is the largest integer magnitude the sums of form v may reach exactly.
func b128Limit(v b128Vec) int {
	switch v.typ {
	case "f32":
		return 1 << 24
	case "f16", "f16x2":
		return 2048
	}
	return 256
}

// TestB128VectorAtomContention: for every vector atomic, many CTAs on 8 workers update the same
// few vectors, two adjacent lanes sharing each. add: every scalar float gets small positive
// integers whose sums stay exact, so the final value is the exact sum; sorted by value, the
// olds the atom returns form the chain of partial sums (each contribution saw exactly the ones
// before it). min/max: random integers of both signs, the final value is the extreme. Every
// form runs as atom.global and as red with a generic address.
func TestB128VectorAtomContention(t *testing.T) {
	const grid, block, shift, k = 32, 64, 1, 32
	const threads = grid * block
	const per = threads / k // contributors per vector
	r := rand.New(rand.NewPCG(128, 3))
	for _, v := range b128VecForms() {
		for _, red := range []bool{false, true} {
			name := "atom/" + v.String()
			if red {
				name = "red-generic/" + v.String()
			}
			t.Run(name, func(t *testing.T) {
				e, f := v.format()
				u := v.units()
				maxV := b128Limit(v) / per
				vals := make([]int, threads*u)
				bitsOf := make([]uint32, threads*u)
				for i := range vals {
					if v.op == "add" {
						vals[i] = 1 + r.IntN(maxV)
					} else {
						vals[i] = r.IntN(2*maxV+1) - maxV
					}
					bitsOf[i] = b128FloatOfInt(vals[i], e, f)
				}
				mem := make([]uint32, k*u)
				gotMem, olds := b128VecRun(t, v, red, red, grid, block, shift, k, mem, bitsOf)
				for s := range k {
					for x := range u {
						var contrib []int // thread ids
						for i := range threads {
							if (i>>shift)%k == s {
								contrib = append(contrib, i)
							}
						}
						want := 0
						for _, i := range contrib {
							c := vals[i*u+x]
							switch v.op {
							case "add":
								want += c
							case "min":
								want = min(want, c)
							case "max":
								want = max(want, c)
							}
						}
						got := gotMem[s*u+x]
						if got != b128FloatOfInt(want, e, f) {
							t.Fatalf("vector %d unit %d: got %#x (%v), want %v", s, x, got, b128FloatValue(got, e, f), want)
						}
						if red || v.op != "add" {
							continue
						}
						slices.SortFunc(contrib, func(a, b int) int {
							return int(b128FloatValue(olds[a*u+x], e, f) - b128FloatValue(olds[b*u+x], e, f))
						})
						sum := 0.0
						for _, i := range contrib {
							if o := b128FloatValue(olds[i*u+x], e, f); o != sum {
								t.Fatalf("vector %d unit %d: thread %d saw %v, want the partial sum %v", s, x, i, o, sum)
							}
							sum += float64(vals[i*u+x])
						}
					}
				}
			})
		}
	}
}

// b128IsNaN reports whether x is a NaN of a float with e exponent and f fraction bits.
func b128IsNaN(x uint32, e, f int) bool {
	return int(x>>f)&(1<<e-1) == 1<<e-1 && x&(1<<f-1) != 0
}

// b128MinMax is min/max.{f16,bf16} as the ISA defines them: a NaN operand yields the other,
// two NaNs the canonical NaN 0x7fff, and -0 is below +0.
func b128MinMax(a, b uint32, isMax bool, e, f int) uint32 {
	an, bn := b128IsNaN(a, e, f), b128IsNaN(b, e, f)
	switch {
	case an && bn:
		return 0x7fff
	case an:
		return b
	case bn:
		return a
	}
	x, y := b128FloatValue(a, e, f), b128FloatValue(b, e, f)
	if x == y {
		signA := a>>(e+f) != 0
		if signA != isMax {
			return a
		}
		return b
	}
	if (x < y) != isMax {
		return a
	}
	return b
}

// b128HalfOperands returns n 16-bit operands: the special values of a half format with e
// exponent bits and random patterns.
func b128HalfOperands(r *rand.Rand, n, e int) []uint32 {
	specials := []uint32{0x0000, 0x8000, 0x0001, 0x8001, 0xffff, 0x7fff}
	if e == 5 {
		specials = append(specials, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x03ff, 0x0400)
	} else {
		specials = append(specials, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0, 0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x007f, 0x0080)
	}
	out := make([]uint32, n)
	for i := range out {
		if r.IntN(4) == 0 {
			out[i] = specials[r.IntN(len(specials))]
		} else {
			out[i] = uint32(r.IntN(1 << 16))
		}
	}
	return out
}

// TestB128VectorAtomMinMaxRows: every min/max vector form, each thread on its own vector, with
// the memory operand running through all 65536 16-bit patterns and the other operand from
// special values and random patterns; checks the returned old value and the stored extreme.
func TestB128VectorAtomMinMaxRows(t *testing.T) {
	r := rand.New(rand.NewPCG(128, 4))
	for _, v := range b128VecForms() {
		if v.op == "add" {
			continue
		}
		t.Run(v.String(), func(t *testing.T) {
			e, f := v.format()
			u := v.units()
			const block = 256
			rows := (1 << 16) / u
			grid := (rows + block - 1) / block
			rows = grid * block
			mem := make([]uint32, rows*u)
			for i := range mem {
				mem[i] = uint32(i) & 0xffff
			}
			vals := b128HalfOperands(r, rows*u, e)
			gotMem, olds := b128VecRun(t, v, false, false, uint32(grid), block, 0, rows, mem, vals)
			for i := range mem {
				want := b128MinMax(mem[i], vals[i], v.op == "max", e, f)
				if olds[i] != mem[i] || gotMem[i] != want {
					t.Fatalf("unit %d: %s(%#04x, %#04x): memory %#04x, returned %#04x; want %#04x, %#04x",
						i, v.op, mem[i], vals[i], gotMem[i], olds[i], want, mem[i])
				}
			}
		})
	}
}

// b128F32Values returns n f32 bit patterns: specials (zeros, subnormals, infinities, NaNs with
// payloads, extremes) and random values of all magnitudes.
func b128F32Values(r *rand.Rand, n int) []uint32 {
	specials := []uint32{0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
		0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000}
	out := make([]uint32, n)
	for i := range out {
		switch r.IntN(4) {
		case 0:
			out[i] = specials[r.IntN(len(specials))]
		case 1:
			out[i] = math.Float32bits(float32(r.IntN(2001) - 1000))
		default:
			out[i] = r.Uint32()
		}
	}
	return out
}

// b128AddF32 is atom.add.f32 on global memory: subnormal inputs and results flushed to
// sign-preserving zero, round to nearest even, a NaN result the canonical NaN.
func b128AddF32(a, b uint32) uint32 {
	ftz := func(x uint32) uint32 {
		if x&0x7f800000 == 0 {
			return x & 0x80000000
		}
		return x
	}
	s := math.Float32frombits(ftz(a)) + math.Float32frombits(ftz(b))
	if s != s {
		return 0x7fffffff
	}
	return ftz(math.Float32bits(s))
}

// TestB128VectorAtomAddF32Rows: atom.global.add.v2/.v4.f32, each thread on its own vector,
// against float32 addition with the flushing of atom.add.f32 on global memory.
func TestB128VectorAtomAddF32Rows(t *testing.T) {
	r := rand.New(rand.NewPCG(128, 5))
	for _, n := range []int{2, 4} {
		v := b128Vec{"add", "f32", n}
		t.Run(v.String(), func(t *testing.T) {
			const grid, block = 48, 256
			rows := grid * block
			mem, vals := b128F32Values(r, rows*n), b128F32Values(r, rows*n)
			gotMem, olds := b128VecRun(t, v, false, true, grid, block, 0, rows, mem, vals)
			for i := range mem {
				want := b128AddF32(mem[i], vals[i])
				if olds[i] != mem[i] || gotMem[i] != want {
					t.Fatalf("unit %d: %#08x + %#08x: memory %#08x, returned %#08x; want %#08x, %#08x",
						i, mem[i], vals[i], gotMem[i], olds[i], want, mem[i])
				}
			}
		})
	}
}

// b128FaultSrc is a kernel whose thread `bad` offsets its global (%rd1) and shared (%rd2)
// addresses by 8, misaligning them for 16-byte accesses, before running instr; %rd3 is every
// thread's own slot of shared memory as a generic address.
func b128FaultSrc(instr string) string {
	return b128Header + `
.visible .entry k(.param .u64 buf, .param .u32 bad)
{
	.reg .pred %p0;
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<2>;
	.reg .f32 %f<4>;
	.reg .b16 %h<8>;
	.shared .align 16 .b8 sh[4096];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r3, %r1, %r2, %r0;
	ld.param.u32 %r4, [bad];
	setp.eq.u32 %p0, %r3, %r4;
	mul.wide.u32 %rd0, %r3, 16;
	ld.param.u64 %rd1, [buf];
	add.u64 %rd1, %rd1, %rd0;
	mul.wide.u32 %rd4, %r0, 16;
	mov.u64 %rd2, sh;
	add.u64 %rd2, %rd2, %rd4;
	cvta.shared.u64 %rd3, %rd2;
	@%p0 add.u64 %rd1, %rd1, 8;
	@%p0 add.u64 %rd2, %rd2, 8;
	mov.b128 %q0, {%rd0, %rd0};
	mov.f32 %f0, 0f3F800000;
	mov.b16 %h0, 0x3c00;
	` + instr + ` // FAULT
	ret;
}
`
}

// TestB128Faults: misaligned 128-bit loads, stores and atomics, and misaligned or non-global
// vector atomics, fault with the kind, the PTX line, the CTA and thread, the address and its
// space; the global bytes the faulting lane addressed are left as they were.
func TestB128Faults(t *testing.T) {
	const grid, block, bad = 2, 64, 101
	cases := []struct {
		instr  string
		kind   runtime.FaultKind
		space  string
		shared bool // the address is the shared one (else the global one)
		first  bool // every thread faults; the first, thread 0 of CTA 0, reports
	}{
		{instr: "ld.global.b128 %q1, [%rd1];", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "st.global.b128 [%rd1], %q0;", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "st.b128 [%rd1], %q0;", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "ld.shared.b128 %q1, [%rd2];", kind: runtime.FaultMisaligned, space: "shared", shared: true},
		{instr: "atom.global.cas.b128 %q1, [%rd1], %q0, %q0;", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "atom.exch.b128 %q1, [%rd1], %q0;", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "atom.shared.exch.b128 %q1, [%rd2], %q0;", kind: runtime.FaultMisaligned, space: "shared", shared: true},
		{instr: "atom.global.add.v4.f32 {%f1, %f2, %f3, %f1}, [%rd1], {%f0, %f0, %f0, %f0};", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "red.global.max.noftz.v8.bf16 [%rd1], {%h0, %h0, %h0, %h0, %h0, %h0, %h0, %h0};", kind: runtime.FaultMisaligned, space: "global"},
		{instr: "red.add.noftz.v2.f16x2 [%rd3], {%r0, %r0};", kind: runtime.FaultOutOfBounds, space: "global", first: true},
	}
	for _, c := range cases {
		t.Run(c.instr, func(t *testing.T) {
			src := b128FaultSrc(c.instr)
			k := b128Kernel(t, src, "k")
			dev := runtime.NewDevice()
			words := make([]uint64, 2*grid*block+2)
			for i := range words {
				words[i] = 0xa5a5a5a5_00000000 | uint64(i)
			}
			buf := b128Up(t, dev, words)
			err := b128Launch(t, k, dev, grid, block, 1, buf, uint32(bad))
			w := harness.FaultWant{
				Kind: c.kind, Kernel: "k", Loc: fmt.Sprintf("%s:%d", b128File, b128Line(t, src, "// FAULT")),
				CTA: runtime.Dim3{X: 1}, Thread: runtime.Dim3{X: bad - block},
				HasAddr: true, Addr: uint64(buf) + 16*bad + 8, Space: c.space,
			}
			switch {
			case c.first:
				w.CTA, w.Thread, w.Addr = runtime.Dim3{}, runtime.Dim3{}, uint64(runtime.SharedWindow)
			case c.shared:
				w.Addr = 16*(bad-block) + 8
			}
			harness.CheckFault(t, err, w)
			got := b128Down[uint64](t, dev, buf, len(words))
			require.Equal(t, words[2*bad+1:2*bad+3], got[2*bad+1:2*bad+3], "the faulting lane's bytes changed")
		})
	}
}

// b128StatsSrc: 128-bit loads and stores in several spaces, a guarded atom.cas.b128 and a
// vector red, for the statistics.
const b128StatsSrc = b128Header + `
.visible .entry stats(.param .u64 buf, .param .align 16 .b8 kp[16])
{
	.reg .pred %p0;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<4>;
	.reg .f32 %f<2>;
	.shared .align 16 .b8 sh[1024];
	mov.u32 %r0, %tid.x;
	setp.lt.u32 %p0, %r0, 5;
	mul.wide.u32 %rd0, %r0, 16;
	ld.param.u64 %rd1, [buf];
	add.u64 %rd1, %rd1, %rd0;
	ld.global.b128 %q0, [%rd1];
	ld.param.b128 %q1, [kp];
	mov.u64 %rd2, sh;
	add.u64 %rd2, %rd2, %rd0;
	st.shared.b128 [%rd2], %q0;
	cvta.shared.u64 %rd3, %rd2;
	ld.b128 %q2, [%rd3];
	mov.b128 %q3, %q2;
	@%p0 atom.global.cas.b128 %q3, [%rd1], %q2, %q1;
	mov.f32 %f0, 0f3F800000;
	red.global.add.v4.f32 [%rd1], {%f0, %f0, %f0, %f0};
	st.b128 [%rd1], %q3;
	ret;
}
`

// TestB128Stats: each lane of a .b128 load or store moves 16 bytes, counted in the space its
// address reaches; 128-bit and vector atomics count one atomic instruction per warp and one
// atomic operation per active lane.
func TestB128Stats(t *testing.T) {
	const ctas, threads, guarded = 3, 40, 5
	dev := runtime.NewDevice()
	k := b128Kernel(t, b128StatsSrc, "stats")
	buf := b128Up(t, dev, make([]uint64, 2*threads))
	var st runtime.Stats
	cfg := runtime.LaunchConfig{Grid: runtime.D1(ctas), Block: runtime.D1(threads), Workers: 3, Stats: &st}
	require.NoError(t, k.LaunchConfig(context.Background(), dev, cfg, buf, make([]byte, 16)))
	lanes := uint64(ctas * threads)
	var loaded, stored [runtime.NumMemSpaces]uint64
	loaded[runtime.MemParam] = (8 + 16) * lanes
	loaded[runtime.MemGlobal] = 16 * lanes
	loaded[runtime.MemShared] = 16 * lanes
	stored[runtime.MemShared] = 16 * lanes
	stored[runtime.MemGlobal] = 16 * lanes
	require.Equal(t, loaded, st.Loaded, "Loaded")
	require.Equal(t, stored, st.Stored, "Stored")
	require.Equal(t, 16*lanes, st.GenericLoaded, "GenericLoaded")
	require.Equal(t, 16*lanes, st.GenericStored, "GenericStored")
	require.Equal(t, uint64(ctas*2*2), st.Atomics, "Atomics: two atomics in each of two warps")
	require.Equal(t, uint64(ctas*(guarded+threads)), st.AtomicLanes, "AtomicLanes")
}

// TestB128Rejected: every other use of .b128 registers or the .b128 type, and the vector atomic
// combinations the ISA does not have, are compile-time errors naming the instruction.
func TestB128Rejected(t *testing.T) {
	cases := []struct{ body, spelling string }{
		{"add.b128 %q0, %q1, %q2;", "add.b128"},
		{"cvt.u64.b128 %rd1, %q0;", "cvt.u64.b128"},
		{"setp.eq.b128 %p1, %q0, %q1;", "setp.eq.b128"},
		{"shfl.sync.idx.b128 %q0, %q1, 0, 31, -1;", "shfl.sync.idx.b128"},
		{"ld.global.v2.b128 {%q0, %q1}, [%rd0];", "ld.global.v2.b128"},
		{"ldu.global.b128 %q0, [%rd0];", "ldu.global.b128"},
		{"ld.global.b64 %q0, [%rd0];", "ld.global.b64"},
		{"st.global.b64 [%rd0], %q0;", "st.global.b64"},
		{"mov.b128 %q0, 5;", "mov.b128"},
		{"mov.b128 {%r1, %r2, %r1, %r2}, %q0;", "mov.b128"},
		{"atom.global.add.b128 %q0, [%rd0], %q1;", "atom.global.add.b128"},
		{"red.global.exch.b128 [%rd0], %q1;", "red.global.exch.b128"},
		{"atom.local.exch.b128 %q0, [%rd0], %q1;", "atom.local.exch.b128"},
		{"atom.global.min.v2.f32 {%f1, %f2}, [%rd0], {%f1, %f2};", "atom.global.min.v2.f32"},
		{"atom.global.add.noftz.v2.f32 {%f1, %f2}, [%rd0], {%f1, %f2};", "atom.global.add.noftz.v2.f32"},
		{"atom.global.add.v8.f32 {%f1, %f2, %f1, %f2, %f1, %f2, %f1, %f2}, [%rd0], {%f1, %f2, %f1, %f2, %f1, %f2, %f1, %f2};", "atom.global.add.v8.f32"},
		{"atom.global.add.v2.f16 {%h1, %h2}, [%rd0], {%h1, %h2};", "atom.global.add.v2.f16"},
		{"atom.global.add.noftz.v8.f16x2 {%r1, %r2, %r1, %r2, %r1, %r2, %r1, %r2}, [%rd0], {%r1, %r2, %r1, %r2, %r1, %r2, %r1, %r2};", "atom.global.add.noftz.v8.f16x2"},
		{"atom.shared.add.v2.f32 {%f1, %f2}, [%rd0], {%f1, %f2};", "atom.shared.add.v2.f32"},
		{"atom.global.add.v2.f64 {%fd1, %fd2}, [%rd0], {%fd1, %fd2};", "atom.global.add.v2.f64"},
		{"atom.global.and.v2.b32 {%r1, %r2}, [%rd0], {%r1, %r2};", "atom.global.and.v2.b32"},
	}
	for _, c := range cases {
		src := b128Header + `
.visible .entry k(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b64 %rd<8>;
	.reg .b128 %q<4>;
	.reg .b32 %r<4>;
	.reg .f32 %f<5>;
	.reg .f64 %fd<5>;
	.reg .b16 %h<5>;
	ld.param.u64 %rd0, [p];
	` + c.body + `
	ret;
}
`
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: b128File})
		want := fmt.Sprintf("%s:%d:2: unsupported instruction %s", b128File, b128Line(t, src, c.body), c.spelling)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want %q", c.body, err, want)
		}
	}
	_, err := ptx2go.Compile([]byte(b128Header+`
.func (.reg .b128 r) f(.reg .b128 x)
{
	mov.b128 r, x;
	ret;
}
`), ptx2go.Options{File: b128File})
	require.ErrorContains(t, err, "unsupported: .b128 register")
}

// TestB128KernelParam: a .param .b128 kernel parameter takes 16 bytes or an integer
// (zero-extended), after a parameter it must be aligned past, and ld.param.b128 reads it.
func TestB128KernelParam(t *testing.T) {
	src := b128Header + `
.visible .entry kp(.param .u32 pad, .param .b128 x, .param .u64 out)
{
	.reg .b64 %rd<2>;
	.reg .b128 %q<1>;
	ld.param.b128 %q0, [x];
	ld.param.u64 %rd0, [out];
	st.global.b128 [%rd0], %q0;
	ret;
}
`
	k := b128Kernel(t, src, "kp")
	dev := runtime.NewDevice()
	out := b128Up(t, dev, make([]uint64, 2))
	raw := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	require.NoError(t, b128Launch(t, k, dev, 1, 1, 1, uint32(7), raw, out))
	require.Equal(t, []uint64{0x0807060504030201, 0x100f0e0d0c0b0a09}, b128Down[uint64](t, dev, out, 2))
	require.NoError(t, b128Launch(t, k, dev, 1, 1, 1, uint32(7), uint64(math.MaxUint64), out))
	require.Equal(t, []uint64{math.MaxUint64, 0}, b128Down[uint64](t, dev, out, 2))
	require.Error(t, b128Launch(t, k, dev, 1, 1, 1, uint32(7), raw[:8], out))
}
