package semantics_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// mmaElem is an element type of TestMma's fragments.
type mmaElem int

const (
	mmaF16 mmaElem = iota
	mmaBF16
	mmaTF32
	mmaF32
)

// mmaF16Bits returns the .f16 bits of x, which must be 0 or a normal f16 exactly.
func mmaF16Bits(t *testing.T, x float64) uint32 {
	if x == 0 {
		return 0
	}
	b := math.Float32bits(float32(x))
	exp := int(b>>23&0xff) - 127 + 15
	require.True(t, exp > 0 && exp < 31 && b&0x1fff == 0, "%v is not an exact normal f16", x)
	return b>>31<<15 | uint32(exp)<<10 | b>>13&0x3ff
}

// TestMma runs testdata/ptx/hand/mma.ptx on both engines: every mma form on random matrices,
// its fragments packed here with the PTX ISA's layouts ("Matrix fragments for mma.m16n8k16",
// "... m16n8k8"), against D = A*B + C with exact products summed in float64 from c in k order
// and rounded once (tf32 operands with their low 13 mantissa bits ignored); an mma whose d is
// its c; ldmatrix .x1, .x2 and .x4, with and without .trans, with per-lane, 64-bit and
// uniform addresses; wmma's loads, mma and stores (wmma_forms, and wmma_bf16_tf32 for the
// .bf16 and .tf32 inputs, wmma_f64 for .f64); and the faults of a partial
// warp, divergent or exited lanes, a guard false in one lane, bad row addresses, and wmma
// addresses that differ between lanes.
func TestMma(t *testing.T) {
	const path = "testdata/ptx/hand/mma.ptx"
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		dev := runtime.NewDevice()
		rng := rand.New(rand.NewPCG(3, 4))
		for _, c := range []struct {
			kernel     string
			k          int
			ab, cT, dT mmaElem
		}{
			{"k16_f32_f16", 16, mmaF16, mmaF32, mmaF32},
			{"k16_f32_bf16", 16, mmaBF16, mmaF32, mmaF32},
			{"k8_f32_f16", 8, mmaF16, mmaF32, mmaF32},
			{"k8_f32_bf16", 8, mmaBF16, mmaF32, mmaF32},
			{"k8_f32_tf32", 8, mmaTF32, mmaF32, mmaF32},
			{"k16_f16_f16", 16, mmaF16, mmaF16, mmaF16},
			{"k8_f16_f16", 8, mmaF16, mmaF16, mmaF16},
			{"k16_f32_f16_c16", 16, mmaF16, mmaF16, mmaF32},
			{"k16_f16_f16_c32", 16, mmaF16, mmaF32, mmaF16},
			{"acc", 16, mmaF16, mmaF32, mmaF32},
		} {
			// An f16 D gets small integers (every result exact); an f32 D random fractions.
			smallInts := c.dT == mmaF16
			var A [16][16]float64
			var B [16][8]float64
			var C [16][8]float64
			var Abits [16][16]uint32
			var Bbits [16][8]uint32
			var Cbits [16][8]uint32
			elem := func(typ mmaElem) (float64, uint32) {
				switch {
				case typ == mmaTF32:
					b := math.Float32bits(float32(rng.Float64()*4 - 2))
					return float64(math.Float32frombits(b &^ 0x1fff)), b
				case typ == mmaF32:
					f := float32(rng.Float64()*200 - 100)
					return float64(f), math.Float32bits(f)
				case smallInts:
					v := float64(rng.IntN(17) - 8)
					return v, mmaF16Bits(t, v)
				case typ == mmaBF16:
					v := float64(rng.IntN(511)-255) / 16
					return v, math.Float32bits(float32(v)) >> 16
				}
				v := float64(rng.IntN(2049)-1024) / 256
				return v, mmaF16Bits(t, v)
			}
			for i := range 16 {
				for k := range c.k {
					A[i][k], Abits[i][k] = elem(c.ab)
				}
				for j := range 8 {
					if c.cT == mmaF16 || smallInts {
						v := float64(rng.IntN(17) - 8)
						C[i][j], Cbits[i][j] = v, mmaF16Bits(t, v)
						if c.cT == mmaF32 {
							Cbits[i][j] = math.Float32bits(float32(v))
						}
					} else {
						C[i][j], Cbits[i][j] = elem(mmaF32)
					}
				}
			}
			for k := range c.k {
				for j := range 8 {
					B[k][j], Bbits[k][j] = elem(c.ab)
				}
			}
			// Fragments: register j of lane l, g = l/4, q = l%4.
			var in []uint32
			pack := func(lo, hi uint32) uint32 { return lo | hi<<16 }
			na, nb := 4, 2
			if c.k == 8 && c.ab != mmaTF32 {
				na, nb = 2, 1
			}
			for j := range na {
				for l := range 32 {
					g, q := l/4, l%4
					if c.ab == mmaTF32 {
						in = append(in, Abits[g+8*(j%2)][q+4*(j/2)])
					} else {
						r, col := g+8*(j%2), 2*q+8*(j/2)
						in = append(in, pack(Abits[r][col], Abits[r][col+1]))
					}
				}
			}
			for j := range nb {
				for l := range 32 {
					g, q := l/4, l%4
					if c.ab == mmaTF32 {
						in = append(in, Bbits[q+4*j][g])
					} else {
						in = append(in, pack(Bbits[2*q+8*j][g], Bbits[2*q+8*j+1][g]))
					}
				}
			}
			fragC := func(t mmaElem, M *[16][8]uint32) (regs []uint32) {
				if t == mmaF16 {
					for j := range 2 {
						for l := range 32 {
							regs = append(regs, pack(M[l/4+8*j][2*(l%4)], M[l/4+8*j][2*(l%4)+1]))
						}
					}
					return regs
				}
				for j := range 4 {
					for l := range 32 {
						regs = append(regs, M[l/4+8*(j/2)][2*(l%4)+j%2])
					}
				}
				return regs
			}
			in = append(in, fragC(c.cT, &Cbits)...)
			// The reference.
			var D [16][8]uint32
			for i := range 16 {
				for j := range 8 {
					s := C[i][j]
					for k := range c.k {
						s += A[i][k] * B[k][j]
					}
					if c.kernel == "acc" {
						s = float64(float32(s))
						for k := range c.k {
							s += A[i][k] * B[k][j]
						}
					}
					if c.dT == mmaF16 {
						D[i][j] = mmaF16Bits(t, s)
					} else {
						D[i][j] = math.Float32bits(float32(s))
					}
				}
			}
			want := fragC(c.dT, &D)
			src, err := runtime.Upload(dev, in)
			require.NoError(t, err)
			out, err := dev.Malloc(4 * len(want))
			require.NoError(t, err)
			k, err := mod.Kernel(c.kernel)
			require.NoError(t, err)
			require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out, src), c.kernel)
			got := make([]uint32, len(want))
			require.NoError(t, runtime.Download(dev, got, out))
			require.Equal(t, want, got, c.kernel)
		}

		// ldsm: 32 rows of 8 b16; lane l names row (7l+3)%32.
		var rows [32][8]uint32
		var in []uint16
		for r := range 32 {
			for c := range 8 {
				v := uint16(rng.Uint32())
				rows[r][c] = uint32(v)
				in = append(in, v)
			}
		}
		row := func(lane int) *[8]uint32 { return &rows[(7*lane+3)%32] }
		var want []uint32
		ld := func(n int, trans bool, rowOf func(lane int) *[8]uint32) {
			for i := range n {
				for l := range 32 {
					r, c := l/4, 2*(l%4)
					if trans {
						want = append(want, rowOf(8*i + c)[r]|rowOf(8*i + c + 1)[r]<<16)
					} else {
						want = append(want, rowOf(8*i + r)[c]|rowOf(8*i + r)[c+1]<<16)
					}
				}
			}
		}
		ld(4, false, row)
		ld(4, true, row)
		ld(1, true, row)
		ld(2, false, func(int) *[8]uint32 { return &rows[1] })
		src, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		out, err := dev.Malloc(4 * len(want))
		require.NoError(t, err)
		k, err := mod.Kernel("ldsm")
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), out, src))
		got := make([]uint32, len(want))
		require.NoError(t, runtime.Download(dev, got, out))
		require.Equal(t, want, got, "ldsm")

		kb, err := mod.Kernel("bad")
		require.NoError(t, err)
		for kind, f := range []struct {
			kind    runtime.FaultKind
			marker  string
			threads uint32
			thread  uint32
		}{
			{runtime.FaultIllegal, "partial", 48, 32},
			{runtime.FaultIllegal, "diverged", 32, 0},
			{runtime.FaultIllegal, "guarded", 32, 0},
			{runtime.FaultIllegal, "exited", 32, 0},
			{runtime.FaultMisaligned, "misaligned", 32, 3},
			{runtime.FaultOutOfBounds, "oob", 32, 7},
			{runtime.FaultIllegal, "wmma_addr", 32, 9},
			{runtime.FaultIllegal, "wmma_guarded", 32, 0},
		} {
			err := kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(f.threads), uint32(kind))
			harness.CheckFault(t, err, harness.FaultWant{Kind: f.kind, Kernel: "bad", Loc: harness.FaultLocIn(t, path, f.marker), Thread: runtime.Dim3{X: f.thread}})
			if f.kind == runtime.FaultIllegal && f.marker != "wmma_addr" {
				require.ErrorContains(t, err, "every lane of the warp must execute it")
			}
		}
		require.NoError(t, kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), uint32(8)), "guard false in every lane")
		for kind, marker := range map[uint32]string{9: "wmma_align", 10: "wmma_stride"} {
			err := kb.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), kind)
			harness.CheckFault(t, err, harness.FaultWant{Kind: runtime.FaultMisaligned, Kernel: "bad", Loc: harness.FaultLocIn(t, path, marker)})
			require.ErrorContains(t, err, "must each start at a multiple of 32 bytes")
		}

		// wmma_forms: small integers, every result exact.
		var wa, wb [256]uint16
		var wc [256]float32
		var win []byte
		for i := range 256 {
			wa[i] = uint16(mmaF16Bits(t, float64(rng.IntN(9)-4)))
			wb[i] = uint16(mmaF16Bits(t, float64(rng.IntN(9)-4)))
			wc[i] = float32(rng.IntN(9) - 4)
		}
		f16v := func(h uint16) float64 {
			if h&0x7fff == 0 {
				return 0
			}
			v := math.Ldexp(1+float64(h&0x3ff)/1024, int(h>>10&0x1f)-15)
			if h&0x8000 != 0 {
				return -v
			}
			return v
		}
		for _, h := range wa {
			win = append(win, byte(h), byte(h>>8))
		}
		for _, h := range wb {
			win = append(win, byte(h), byte(h>>8))
		}
		for _, x := range wc {
			b := math.Float32bits(x)
			win = append(win, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
		}
		var wantD1 [256]uint32
		var wantD2 [256]uint16
		for i := range 16 {
			for j := range 16 {
				ab := 0.0
				for k := range 16 {
					ab += f16v(wa[i*16+k]) * f16v(wb[k*16+j])
				}
				d1 := float64(wc[i*16+j]) + ab
				wantD1[j*16+i] = math.Float32bits(float32(d1))
				wantD2[i*16+j] = uint16(mmaF16Bits(t, d1+ab))
			}
		}
		wsrc, err := runtime.Upload(dev, win)
		require.NoError(t, err)
		wout, err := dev.Malloc(1536)
		require.NoError(t, err)
		kw, err := mod.Kernel("wmma_forms")
		require.NoError(t, err)
		require.NoError(t, kw.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), wout, wsrc))
		gotW := make([]uint32, 384)
		require.NoError(t, runtime.Download(dev, gotW, wout))
		require.Equal(t, wantD1[:], gotW[:256], "wmma_forms D1")
		for e := range 256 {
			require.Equal(t, wantD2[e], uint16(gotW[256+e/2]>>(16*(e%2))), "wmma_forms D2 element %d", e)
		}

		// wmma_bf16_tf32: small integers as .bf16 (exact), and as .f32 with noise in the low
		// 13 mantissa bits, which the .tf32 mma ignores; every result exact.
		var ba, bb, bc [256]int
		var ta, tb [128]int
		var bin []byte
		put32 := func(b uint32) { bin = append(bin, byte(b), byte(b>>8), byte(b>>16), byte(b>>24)) }
		for i := range 256 {
			ba[i], bb[i], bc[i] = rng.IntN(9)-4, rng.IntN(9)-4, rng.IntN(9)-4
		}
		for i := range 128 {
			ta[i], tb[i] = rng.IntN(9)-4, rng.IntN(9)-4
		}
		for _, v := range ba { // A row-major: (i, k) at i*16+k
			h := math.Float32bits(float32(v)) >> 16
			bin = append(bin, byte(h), byte(h>>8))
		}
		for _, v := range bb { // B column-major: (k, j) at j*16+k
			h := math.Float32bits(float32(v)) >> 16
			bin = append(bin, byte(h), byte(h>>8))
		}
		for _, v := range bc {
			put32(math.Float32bits(float32(v)))
		}
		for _, v := range append(ta[:], tb[:]...) { // At (i, k) at i*8+k; Bt (k, j) at j*8+k
			put32(math.Float32bits(float32(v)) | uint32(rng.IntN(0x2000)))
		}
		var wantB1, wantB2 [256]uint32
		for i := range 16 {
			for j := range 16 {
				d1 := bc[i*16+j]
				for k := range 16 {
					d1 += ba[i*16+k] * bb[j*16+k]
				}
				d2 := d1
				for k := range 8 {
					d2 += ta[i*8+k] * tb[j*8+k]
				}
				wantB1[i*16+j] = math.Float32bits(float32(d1))
				wantB2[j*16+i] = math.Float32bits(float32(d2))
			}
		}
		bsrc, err := runtime.Upload(dev, bin)
		require.NoError(t, err)
		bout, err := dev.Malloc(2048)
		require.NoError(t, err)
		kbt, err := mod.Kernel("wmma_bf16_tf32")
		require.NoError(t, err)
		require.NoError(t, kbt.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), bout, bsrc))
		gotB := make([]uint32, 512)
		require.NoError(t, runtime.Download(dev, gotB, bout))
		require.Equal(t, wantB1[:], gotB[:256], "wmma_bf16_tf32 D1 (.bf16)")
		require.Equal(t, wantB2[:], gotB[256:], "wmma_bf16_tf32 D2 (.tf32)")

		// wmma_f64: fractions with few bits (every product and sum exact in float64).
		var fa, fb [32]float64
		var fc [64]float64
		var fin []float64
		for i := range 32 {
			fa[i], fb[i] = float64(rng.IntN(17)-8)/4, float64(rng.IntN(17)-8)/8
		}
		for i := range 64 {
			fc[i] = float64(rng.IntN(33)-16) / 2
		}
		fin = append(append(append(fin, fa[:]...), fb[:]...), fc[:]...)
		var wantF [64]float64
		for i := range 8 {
			for j := range 8 {
				d := fc[i*8+j]
				for k := range 4 {
					d += fa[i*4+k] * fb[j*4+k] // A (i, k) at i*4+k; B (k, j) at j*4+k
				}
				wantF[j*8+i] = d
			}
		}
		fsrc, err := runtime.Upload(dev, fin)
		require.NoError(t, err)
		fout, err := dev.Malloc(512)
		require.NoError(t, err)
		kf, err := mod.Kernel("wmma_f64")
		require.NoError(t, err)
		require.NoError(t, kf.Launch(t.Context(), dev, runtime.D1(1), runtime.D1(32), fout, fsrc))
		gotF := make([]float64, 64)
		require.NoError(t, runtime.Download(dev, gotF, fout))
		require.Equal(t, wantF[:], gotF, "wmma_f64 D")
	})
}

// TestMmaMalformed checks that both back ends reject fragment vectors of the wrong length
// at their line, and an mma shape they do not support (m8n8k4) as unsupported.
func TestMmaMalformed(t *testing.T) {
	for _, c := range []struct{ instr, msg string }{
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3}, {%r1, %r1, %r1, %r1}, {%r1, %r1}, {%f1, %f2, %f3, %f4};", "mma: d has 3 registers, want 4"},
		{"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r1, %r1, %r1}, {%r1}, {%f1, %f2, %f3, %f4};", "mma: a has 4 registers, want 2"},
		{"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r1];", "ldmatrix: d has 2 registers, want 4"},
		{"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r1}, {%r1, %r1}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"},
		// .f64 wmma takes a rounding modifier: .rz is valid PTX, not supported yet (.rn is).
		{"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%fd1, %fd2}, {%fd1}, {%fd1}, {%fd1, %fd2};", "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz"},
		{"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd1, %fd2}, {%fd1, %fd2}, {%fd1}, {%fd1, %fd2};", "wmma: a must be a vector of 1 registers"},
	} {
		src := ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" +
			".reg .b32 %r<4>;\n.reg .f32 %f<9>;\n.reg .f64 %fd<3>;\n" + c.instr + "\nret;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "mm.ptx"})
		require.ErrorContains(t, err, "mm.ptx:9")
		require.ErrorContains(t, err, c.msg)
		ast, err := frontend.Parse("mm.ptx", []byte(src))
		require.NoError(t, err)
		prog, err := ssa.Build(ast)
		require.NoError(t, err)
		_, err = gosrc.Generate(prog, gosrc.Options{})
		require.ErrorContains(t, err, "mm.ptx:9")
		require.ErrorContains(t, err, c.msg)
	}
}
