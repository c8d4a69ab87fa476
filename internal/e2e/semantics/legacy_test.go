package semantics_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	ptx2go "github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/generated/hand_legacy_sm20"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// ftz32 flushes a subnormal .f32 to a zero of its sign, as .ftz and .target sm_1x do.
func ftz32(x float32) float32 {
	if b := math.Float32bits(x); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return x
}

// sameF32 compares two .f32 results bit for bit, any NaN matching any NaN.
func sameF32(a, b uint32) bool {
	fa, fb := math.Float32frombits(a), math.Float32frombits(b)
	return a == b || fa != fa && fb != fb
}

// TestLegacySM10 runs testdata/ptx/hand/legacy_sm10.ptx (.version 1.3, .target sm_10, no
// .address_size) on both engines: a kernel whose parameters are .param variables in its body,
// module-scope registers, 16-bit special-register reads and mul24. Its div/sqrt/rcp.f32
// without modifiers are the ISA 1.0-1.3 .approx.ftz forms and every single-precision
// instruction flushes subnormals (sm_1x), checked on inputs whose results are exact (powers
// of two divisors, perfect squares) against float32 arithmetic on flushed operands.
func TestLegacySM10(t *testing.T) {
	const path = "testdata/ptx/hand/legacy_sm10.ptx"
	pairs := [][2]float32{
		{4, 2}, {2.25, 0.5}, {-9, 4},
		{math.Float32frombits(0x00400000), 1},  // subnormal x
		{1, math.Float32frombits(0x00000010)},  // subnormal y
		{0x1p-100, 0x1p-30},                    // x*y is subnormal
		{math.Float32frombits(0x80000001), -2}, // negative subnormal x
		{1e30, 0x1p-20},
	}
	const n = 5 // threads with gid >= n take mul24 by 3, the others by 1003
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("legacy_sm10")
		require.NoError(t, err)
		params := k.Params()
		require.Len(t, params, 3, "the body's .param declarations are the kernel's parameters")
		require.True(t, params[0].Pointer && params[1].Pointer, "without .address_size a .u64 parameter holds a pointer")

		dev := runtime.NewDevice()
		in := make([]float32, 0, 2*len(pairs))
		for _, p := range pairs {
			in = append(in, p[0], p[1])
		}
		inP, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		outP, err := dev.Malloc(32 * len(pairs))
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(2), runtime.D1(4), inP, outP, uint32(n)))
		out := make([]uint32, 8*len(pairs))
		require.NoError(t, runtime.Download(dev, out, outP))

		for i, p := range pairs {
			x, y := ftz32(p[0]), ftz32(p[1])
			mad := float32(float64(x)*float64(y) + float64(x)) // exact for these inputs
			gt := uint32(0)                                    // set writes 0xffffffff for true, which neg.s32 makes 1
			if x > y {
				gt = 1
			}
			mul := uint32(3)
			if i < n {
				mul = 1003
			}
			want := []uint32{
				math.Float32bits(ftz32(x / y)),
				math.Float32bits(ftz32(float32(math.Sqrt(float64(x))))),
				math.Float32bits(ftz32(1 / y)),
				math.Float32bits(ftz32(x + y)),
				math.Float32bits(ftz32(x * y)),
				math.Float32bits(ftz32(mad)),
				gt,
				uint32(i) * mul,
			}
			for j, w := range want {
				require.True(t, sameF32(w, out[8*i+j]), "pair %d (%g, %g) result %d: got %#08x, want %#08x", i, p[0], p[1], j, out[8*i+j], w)
			}
		}
	})
}

// TestLegacySM20 runs testdata/ptx/hand/legacy_sm20.ptx (.version 2.1, .target sm_20, no
// .address_size, 32-bit pointers) on both engines: a forward declaration without ';', .u32
// pointer parameters, a shared array's address in a .u32 register and a call with old-style
// parameter names, in a per-CTA tree reduction of 3*v+1 checked against a Go sum (the
// performance monitor counters it adds in read as 0).
func TestLegacySM20(t *testing.T) {
	const path = "testdata/ptx/hand/legacy_sm20.ptx"
	const grid, block = 3, 128
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("legacy_sm20")
		require.NoError(t, err)
		dev := runtime.NewDevice()
		in := make([]int32, grid*block)
		for i := range in {
			in[i] = int32(i*7919%2003) - 1000
		}
		inP, err := runtime.Upload(dev, in)
		require.NoError(t, err)
		outP, err := dev.Malloc(4 * grid)
		require.NoError(t, err)
		require.NoError(t, k.Launch(t.Context(), dev, runtime.D1(grid), runtime.D1(block), inP, outP))
		out := make([]int32, grid)
		require.NoError(t, runtime.Download(dev, out, outP))
		for c := range grid {
			var want int32
			for _, v := range in[c*block : (c+1)*block] {
				want += 3*v + 1
			}
			require.Equal(t, want, out[c], "CTA %d", c)
		}
	})
}

// TestLegacyMapF64ToF32 compiles kernels for .target sm_10, map_f64_to_f32: .f64 registers,
// moves, loads and stores are accepted (the storage stays 64 bits), and an instruction that
// would compute in double precision is a positioned error naming the mapping, which ptx2go
// does not implement.
func TestLegacyMapF64ToF32(t *testing.T) {
	src := func(body string) []byte {
		return []byte(".version 1.4\n.target sm_10, map_f64_to_f32\n.reg .f64 %fda<3>;\n.entry k (.param .u64 p)\n{\n" +
			".reg .f64 %fd<3>;\n.reg .u64 %rd1;\nld.param.u64 %rd1, [p];\n" + body + "\nexit;\n}\n")
	}
	_, err := ptx2go.Compile(src("ld.global.f64 %fd1, [%rd1];\nmov.f64 %fd2, %fd1;\nst.global.f64 [%rd1+8], %fd2;"), ptx2go.Options{File: "ok.ptx"})
	require.NoError(t, err)
	for body, op := range map[string]string{
		"add.f64 %fd1, %fd1, %fd2;":    "add",
		"cvt.rn.f64.s64 %fd1, %rd1;":   "cvt",
		"setp.lt.f64 %p1, %fd1, %fd2;": "setp",
	} {
		_, err := ptx2go.Compile(src(".reg .pred %p1;\n"+body), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err, body)
		require.Contains(t, err.Error(), "bad.ptx:10:1: "+op+": .target map_f64_to_f32 runs double-precision instructions in single precision on half of each .f64 register; that mapping is not supported", body)
	}
}

// TestIntegerFloatModifiers checks that an integer instruction with a floating-point modifier
// (gpuocelot's hand-written tests use div.rn.u64) is rejected with its position, as the Go
// source back end rejects it, rather than run with the modifier ignored.
func TestIntegerFloatModifiers(t *testing.T) {
	for _, in := range []string{"div.rn.u64 %rd1, %rd1, %rd2;", "add.ftz.u32 %r1, %r1, %r2;", "mul.lo.rz.s32 %r1, %r1, %r2;"} {
		src := ".version 1.4\n.target sm_13\n.entry k (.param .u64 p)\n{\n.reg .u64 %rd<3>;\n.reg .u32 %r<3>;\n" +
			"ld.param.u64 %rd1, [p];\n" + in + "\nexit;\n}\n"
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "bad.ptx"})
		require.Error(t, err, in)
		op, _, _ := strings.Cut(in, " ")
		require.Contains(t, err.Error(), "bad.ptx:8:1: unsupported instruction "+op, in)
	}
}

// TestLegacyPointerAbove4GiB checks that a device address above 4 GiB passed for a .u32
// pointer parameter (legacy_sm20.ptx has no .address_size and 32-bit pointers) is an error
// rather than a truncated address: through Kernel.Launch on both engines, and through the
// generated package's own launch function.
func TestLegacyPointerAbove4GiB(t *testing.T) {
	const path = "testdata/ptx/hand/legacy_sm20.ptx"
	const high = runtime.Ptr(1 << 33)
	harness.OnEngines(t, path, func(t *testing.T) {
		mod, err := harness.LoadModule(t, path)
		require.NoError(t, err)
		k, err := mod.Kernel("legacy_sm20")
		require.NoError(t, err)
		err = k.Launch(t.Context(), runtime.NewDevice(), runtime.D1(1), runtime.D1(32), high, high)
		require.ErrorContains(t, err, "pointer 0x200000000 does not fit 32 bits")
	})
	cfg := runtime.LaunchConfig{Grid: runtime.D1(1), Block: runtime.D1(32)}
	err := hand_legacy_sm20.LegacySm20(t.Context(), runtime.NewDevice(), cfg, high, high)
	require.ErrorContains(t, err, "legacy_sm20: pointer 0x200000000 does not fit the 32-bit parameter __cudaparm_legacy_sm20_in")
}
