package conformance_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

// Conformance tests of instructions whose vector destination may name the registers of their
// vector source: every source element is read before any destination element is written, as
// on the GPU, so that `mov.v2.u32 {a, b}, {b, a}` swaps. The inputs are split into element
// registers with unpacking movs, permuted by the instruction under test, and packed back; the
// references permute the elements in Go. harness.ConfRun checks partial warps as well as full ones.

// confMovSplit returns the n elements of width bits each of the words of x, first element
// lowest, as mov.b64 {..} unpacks them.
func confMovSplit(x []uint64, width int) []uint64 {
	var out []uint64
	for _, w := range x {
		for i := 0; i < 64; i += width {
			out = append(out, w>>i&confIntMask(width))
		}
	}
	return out
}

// confMovJoin is the inverse of confMovSplit.
func confMovJoin(e []uint64, width int) []uint64 {
	per := 64 / width
	out := make([]uint64, len(e)/per)
	for i, v := range e {
		out[i/per] |= v << (i % per * width)
	}
	return out
}

// confMovStep is one vector mov: the element indices of its destinations and its sources.
type confMovStep struct{ dst, src []int }

// confMovRun returns the elements after each step's simultaneous assignment dst[k] = src[k],
// in which every source is read from the elements as they were before the step.
func confMovRun(e []uint64, steps []confMovStep) []uint64 {
	for _, s := range steps {
		next := append([]uint64(nil), e...)
		for k := range s.dst {
			next[s.dst[k]] = e[s.src[k]]
		}
		e = next
	}
	return e
}

func TestConfMovVectorOverlap(t *testing.T) {
	type form struct {
		body  string
		in    []string
		width int
		steps []confMovStep // the vector movs of body, in order
	}
	forms := []form{
		{`{
			.reg .u32 %x<2>;
			mov.b64 {%x0, %x1}, %a0;
			mov.v2.u32 {%x0, %x1}, {%x1, %x0};
			mov.b64 %d0, {%x0, %x1};
		}`, []string{"u64"}, 32, []confMovStep{{[]int{0, 1}, []int{1, 0}}}},
		{`{
			.reg .u16 %t<4>;
			mov.b64 {%t0, %t1, %t2, %t3}, %a0;
			mov.v4.u16 {%t3, %t0, %t1, %t2}, {%t2, %t3, %t0, %t1};
			mov.b64 %d0, {%t0, %t1, %t2, %t3};
		}`, []string{"u64"}, 16, []confMovStep{{[]int{3, 0, 1, 2}, []int{2, 3, 0, 1}}}},
		{`{
			.reg .b16 %t<4>;
			mov.b64 {%t0, %t1, %t2, %t3}, %a0;
			mov.v2.b16 {%t1, %t2}, {%t2, %t1};
			mov.v4.s16 {%t0, %t1, %t2, %t3}, {%t3, %t2, %t1, %t0};
			mov.b64 %d0, {%t0, %t1, %t2, %t3};
		}`, []string{"u64"}, 16, []confMovStep{{[]int{1, 2}, []int{2, 1}}, {[]int{0, 1, 2, 3}, []int{3, 2, 1, 0}}}},
		{`{
			.reg .b32 %y<4>;
			mov.b64 {%y0, %y1}, %a0;
			mov.b64 {%y2, %y3}, %a1;
			mov.v4.b32 {%y1, %y2, %y3, %y0}, {%y0, %y1, %y2, %y3};
			mov.b64 %d0, {%y0, %y1};
			mov.b64 %d1, {%y2, %y3};
		}`, []string{"u64", "u64"}, 32, []confMovStep{{[]int{1, 2, 3, 0}, []int{0, 1, 2, 3}}}},
		{`{
			.reg .s32 %y<4>;
			mov.b64 {%y0, %y1}, %a0;
			mov.b64 {%y2, %y3}, %a1;
			mov.v4.s32 {%y0, _, %y2, %y3}, {%y2, %y0, %y3, %y0};
			mov.b64 %d0, {%y0, %y1};
			mov.b64 %d1, {%y2, %y3};
		}`, []string{"u64", "u64"}, 32, []confMovStep{{[]int{0, 2, 3}, []int{2, 3, 0}}}},
		{`{
			.reg .f32 %f<4>;
			mov.b64 {%f0, %f1}, %a0;
			mov.b64 {%f2, %f3}, %a1;
			mov.v4.f32 {%f0, %f1, %f2, %f3}, {%f1, %f2, %f3, %f0};
			mov.v2.f32 {%f3, %f2}, {%f2, %f3};
			mov.b64 %d0, {%f0, %f1};
			mov.b64 %d1, {%f2, %f3};
		}`, []string{"u64", "u64"}, 32, []confMovStep{{[]int{0, 1, 2, 3}, []int{1, 2, 3, 0}}, {[]int{3, 2}, []int{2, 3}}}},
		{`{
			.reg .u64 %w<3>;
			mov.b64 %w0, %a0;
			mov.b64 %w1, %a1;
			mov.b64 %w2, %a2;
			mov.v2.u64 {%w0, %w1}, {%w1, %w0};
			mov.v2.b64 {%w1, %w2}, {%w2, %w1};
			mov.v2.s64 {%w2, %w0}, {%w0, %w0};
			mov.b64 %d0, %w0;
			mov.b64 %d1, %w1;
			mov.b64 %d2, %w2;
		}`, []string{"u64", "u64", "u64"}, 64, []confMovStep{{[]int{0, 1}, []int{1, 0}}, {[]int{1, 2}, []int{2, 1}}, {[]int{2, 0}, []int{0, 0}}}},
		{`{
			.reg .f64 %g<2>;
			mov.b64 %g0, %a0;
			mov.b64 %g1, %a1;
			mov.v2.f64 {%g0, %g1}, {%g1, %g0};
			mov.b64 %d0, %g0;
			mov.b64 %d1, %g1;
		}`, []string{"u64", "u64"}, 64, []confMovStep{{[]int{0, 1}, []int{1, 0}}}},
	}
	for _, f := range forms {
		out := make([]string, len(f.in))
		for k := range out {
			out[k] = "u64"
		}
		confIntCheck(t, confIntCase{harness.ConfOp{Body: f.body, In: f.in, Out: out}, func(x []uint64) []uint64 {
			return confMovJoin(confMovRun(confMovSplit(x, f.width), f.steps), f.width)
		}})
	}
}

// TestConfAtomVectorOverlap runs a vector atomic whose destinations are its own operands in
// another order: the operand vector is read whole before the old values land in it. Each row's
// two .f32 memory elements are the row of the second input.
func TestConfAtomVectorOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 7))
	const rows = 4096
	vals, mem := make([]uint64, rows), make([]uint64, rows)
	f := b128F32Values(r, 4*rows)
	for i := range rows {
		vals[i] = uint64(f[4*i]) | uint64(f[4*i+1])<<32
		mem[i] = uint64(f[4*i+2]) | uint64(f[4*i+3])<<32
	}
	outs := harness.ConfRun(t, harness.ConfOp{Body: `{
		.reg .f32 %f<2>;
		mov.b64 {%f0, %f1}, %a0;
		atom.global.add.v2.f32 {%f1, %f0}, [%ptr], {%f0, %f1};
		mov.b64 %d0, {%f0, %f1};
		ld.global.b64 %d1, [%ptr];
	}`, In: []string{"u64", "u64"}, Out: []string{"u64", "u64"}}, vals, mem)
	for i := range rows {
		b0, b1 := uint32(vals[i]), uint32(vals[i]>>32)
		m0, m1 := uint32(mem[i]), uint32(mem[i]>>32)
		wantRegs := uint64(m1) | uint64(m0)<<32 // %f1 gets element 0's old value, %f0 element 1's
		wantMem := uint64(b128AddF32(m0, b0)) | uint64(b128AddF32(m1, b1))<<32
		if outs[0][i] != wantRegs || outs[1][i] != wantMem {
			t.Fatalf("row %d: memory %#x + %#x: registers %#x, memory %#x; want %#x, %#x",
				i, mem[i], vals[i], outs[0][i], outs[1][i], wantRegs, wantMem)
		}
	}
}
