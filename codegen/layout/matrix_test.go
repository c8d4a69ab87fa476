package layout

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// matrixInstr builds a kernel around one instruction and returns it.
func matrixInstr(t *testing.T, instr string) *ssa.Instr {
	src := ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" +
		".reg .b32 %r<9>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<3>;\n.reg .f64 %fd<5>;\n.shared .align 16 .b8 sh[512];\n" + instr + "\nret;\n}\n"
	fm, err := frontend.ParseString("mm.ptx", src)
	require.NoError(t, err, instr)
	prog, err := ssa.Build(fm)
	require.NoError(t, err, instr)
	return prog.Funcs[0].Blocks[0].Instrs[0]
}

// TestMatrixForms classifies ldmatrix and mma forms, malformed ones and forms neither back end
// runs.
func TestMatrixForms(t *testing.T) {
	for _, c := range []struct {
		instr string
		ok    bool
		msg   string
		check func(t *testing.T, f MatrixForm)
	}{
		{instr: "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r1, %r2, %r3, %r4}, [%rd1];", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, MatrixLdmatrix, f.Kind)
			require.Equal(t, 4, f.N)
			require.True(t, f.Trans)
			require.Len(t, f.Dsts, 4)
		}},
		{instr: "ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r1, [sh+16];", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, 1, f.N)
			require.False(t, f.Trans)
		}},
		{instr: "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, MatrixMma, f.Kind)
			require.Equal(t, 16, f.K)
			require.Equal(t, isa.MatBF16, f.AB)
			require.Equal(t, isa.MatF32, f.C)
			require.Equal(t, isa.MatF32, f.D)
		}},
		{instr: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, 8, f.K)
			require.Equal(t, isa.MatTF32, f.AB)
		}},
		{instr: "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f32 {%r1, %r2}, {%r3, %r4}, {%r5}, {%f1, %f2, %f3, %f4};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, isa.MatF16, f.D)
			require.Equal(t, isa.MatF32, f.C)
			require.Len(t, f.A, 2)
			require.Len(t, f.B, 1)
		}},
		{instr: "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2, %r3}, [%rd1];", msg: "ldmatrix: d has 3 registers, want 2"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7};", msg: "mma: c has 1 registers, want 2"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %rd1}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", msg: "mma: a must be 32-bit registers"},
		{instr: "ldmatrix.sync.aligned.m8n8.x4.b16 {%r1, %r2, %r3, %r4}, [%rd1];"},
		{instr: "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%rd1];"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16 {%r1, %r2}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8};"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"},
		{instr: "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"},
		{instr: "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r5, %r6, %r7, %r8};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.True(t, f.Int)
			require.Equal(t, 32, f.K)
			require.True(t, f.SignedA)
			require.False(t, f.SignedB)
			require.True(t, f.Satfinite)
			require.Len(t, f.A, 4)
			require.Len(t, f.B, 2)
			require.Len(t, f.Cs, 4)
		}},
		{instr: "mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, {%r5, %r6, %r7, %r8};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.True(t, f.Int)
			require.Equal(t, 16, f.K)
			require.False(t, f.SignedA || f.SignedB || f.Satfinite)
			require.Len(t, f.A, 2)
			require.Len(t, f.B, 1)
		}},
		{instr: "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, {%r5, %r6};", msg: "mma: c has 2 registers, want 4"},
		{instr: "mma.sync.aligned.m16n8k8.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r1}, {%r5}, {%r5, %r6, %r7, %r8};"},
		{instr: "mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd1, %fd2};", ok: true, check: func(t *testing.T, f MatrixForm) {
			require.Equal(t, 4, f.K)
			require.Equal(t, isa.MatF64, f.AB)
			require.Len(t, f.Dsts, 2)
		}},
		{instr: "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3, %fd4}, {%fd4}, {%fd1, %fd2};", msg: "mma: a has 2 registers, want 1"},
		{instr: "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%r1, %r2}, {%fd3}, {%fd4}, {%fd1, %fd2};", msg: "mma: d must be 64-bit registers"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.rn.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"},
		{instr: "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, {%r5, %r6, %r7, %r8};"},
		{instr: "mma.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"},
		{instr: "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r5}, {%f5, %f6, %f7, %f8};"},
	} {
		f, ok, msg := Matrix(matrixInstr(t, c.instr))
		require.Equal(t, c.ok, ok, c.instr)
		require.Equal(t, c.msg, msg, c.instr)
		if c.check != nil {
			c.check(t, f)
		}
	}
}

// TestWmmaForms classifies wmma forms, malformed ones and forms neither back end runs.
func TestWmmaForms(t *testing.T) {
	for _, c := range []struct {
		instr string
		ok    bool
		msg   string
		check func(t *testing.T, f WmmaForm)
	}{
		{instr: "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, WmmaLoad, f.Kind)
			require.Equal(t, runtime.WmmaA, f.Frag)
			require.Equal(t, frontend.SpaceNone, f.Space)
			require.False(t, f.Col || f.HasStride)
		}},
		{instr: "wmma.load.c.sync.aligned.col.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4}, [sh], 32;", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, runtime.WmmaC, f.Frag)
			require.Equal(t, isa.MatF16, f.Type)
			require.Equal(t, frontend.SpaceShared, f.Space)
			require.True(t, f.Col && f.HasStride)
		}},
		{instr: "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r1;", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, WmmaStore, f.Kind)
			require.Len(t, f.Regs, 8)
			require.True(t, f.HasStride)
		}},
		{instr: "wmma.mma.sync.aligned.col.row.m16n16k16.f16.f32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, WmmaMma, f.Kind)
			require.Equal(t, isa.MatF16, f.DT)
			require.Equal(t, isa.MatF32, f.C)
		}},
		{instr: "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%f1, %f2, %f3, %f4}, [%rd1];", msg: "wmma: d must be a vector of 8 registers"},
		{instr: "wmma.load.b.sync.aligned.row.m16n16k16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1];"},
		{instr: "wmma.load.a.sync.aligned.row.m32n8k16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, runtime.WmmaM32N8, f.Shape)
		}},
		{instr: "wmma.load.b.sync.aligned.row.m8n32k16.bf16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, runtime.WmmaM8N32, f.Shape)
			require.Equal(t, isa.MatBF16, f.Type)
		}},
		{instr: "wmma.load.b.sync.aligned.row.m8n32k16.bf16 {%r1, %r2}, [%rd1];", msg: "wmma: d must be a vector of 8 registers"},
		{instr: "wmma.load.a.sync.aligned.row.m32n8k16.tf32 {%r1, %r2, %r3, %r4}, [%rd1];"},
		{instr: "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32.satfinite {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2}, {%r3, %r4}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.Equal(t, isa.MatS8, f.In)
			require.Equal(t, isa.MatU8, f.InB)
			require.True(t, f.Satfinite)
		}},
		{instr: "wmma.mma.sync.aligned.row.col.m8n32k16.s32.u8.u8.s32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1}, {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", ok: true, check: func(t *testing.T, f WmmaForm) {
			require.False(t, f.Satfinite)
			require.Equal(t, runtime.WmmaM8N32, f.Shape)
		}},
		{instr: "wmma.mma.sync.aligned.row.col.m16n16k16.f32.s8.s8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};"},
		{instr: "wmma.store.d.sync.aligned.row.m16n16k16.s8 [%rd1], {%r1, %r2};"},
		{instr: "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};"},
	} {
		f, ok, msg := Wmma(matrixInstr(t, c.instr))
		require.Equal(t, c.ok, ok, c.instr)
		require.Equal(t, c.msg, msg, c.instr)
		if c.check != nil {
			c.check(t, f)
		}
	}
}
