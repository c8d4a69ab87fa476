package corpus_test

// Runs the device functions GCC's nvptx back end compiled from testdata/gcc/funcs.c
// (testdata/ptx/gcc/funcs.ptx) and compares each with a Go version of the C source. GCC's PTX
// differs from clang's in style: %value_out/%in_ar parameters, .reg declarations between
// instructions, compare-and-branch trees for switches, a %frame local array, a const table of
// function addresses called indirectly, and fma contraction of a*b+c. The test appends to the
// module one kernel per function that calls it for every row of its inputs.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/stretchr/testify/require"
)

// gccFunc is a function of funcs.ptx, its parameter and result types as GCC declares them,
// its inputs (raw bits, one column per parameter) and a Go reference.
type gccFunc struct {
	name string
	args []string
	ret  string
	in   func(r *rand.Rand, dev *runtime.Device, n int) [][]uint64
	ref  func(dev *runtime.Device, x []uint64) uint64
	// stack says the function keeps a frame on GCC's soft stack: each warp row (%tid.y) has
	// a stack pointer in __nvptx_stacks, which GCC's kernel entry code sets up. Its caller
	// runs one thread per row, with 256 bytes of stack each.
	stack bool
}

// gccStackBytes is the soft-stack space the caller gives each thread.
const gccStackBytes = 256

// gccCaller returns a kernel call_NAME(out, in0, ..., n) whose thread i calls NAME on row i of
// the inputs (8-byte slots) and stores the result in slot i of out.
func gccCaller(f gccFunc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n.visible .entry call_%s(.param .u64 out", f.name)
	for k := range f.args {
		fmt.Fprintf(&b, ", .param .u64 in%d", k)
	}
	b.WriteString(", .param .u32 n, .param .u64 stacks)\n{\n\t.reg .pred %done;\n\t.reg .u32 %i, %n, %c, %t;\n\t.reg .u64 %off, %ptr, %sp;\n")
	for k, t := range f.args {
		fmt.Fprintf(&b, "\t.reg .%s %%x%d;\n", t, k)
	}
	fmt.Fprintf(&b, "\t.reg .%s %%y;\n", f.ret)
	if f.stack {
		// Thread i = ctaid.x*ntid.y + tid.y owns stacks[i*256, (i+1)*256); its row's
		// __nvptx_stacks slot holds the top, as GCC's entry code would set it.
		b.WriteString("\tmov.u32 %c, %ctaid.x;\n\tmov.u32 %t, %ntid.y;\n\tmov.u32 %i, %tid.y;\n\tmad.lo.u32 %i, %c, %t, %i;\n")
		fmt.Fprintf(&b, "\tadd.u32 %%c, %%i, 1;\n\tmul.wide.u32 %%sp, %%c, %d;\n\tld.param.u64 %%ptr, [stacks];\n\tadd.u64 %%sp, %%sp, %%ptr;\n", gccStackBytes)
		b.WriteString("\tmov.u32 %c, %tid.y;\n\tmul.wide.u32 %off, %c, 8;\n\tmov.u64 %ptr, __nvptx_stacks;\n\tadd.u64 %ptr, %ptr, %off;\n\tst.shared.u64 [%ptr], %sp;\n")
	} else {
		b.WriteString("\tmov.u32 %c, %ctaid.x;\n\tmov.u32 %t, %ntid.x;\n\tmov.u32 %i, %tid.x;\n\tmad.lo.u32 %i, %c, %t, %i;\n")
	}
	b.WriteString("\tld.param.u32 %n, [n];\n\tsetp.ge.u32 %done, %i, %n;\n\t@%done bra DONE;\n\tmul.wide.u32 %off, %i, 8;\n")
	for k, t := range f.args {
		fmt.Fprintf(&b, "\tld.param.u64 %%ptr, [in%d];\n\tadd.u64 %%ptr, %%ptr, %%off;\n\tld.global.%s %%x%d, [%%ptr];\n", k, t, k)
	}
	b.WriteString("\t{\n")
	fmt.Fprintf(&b, "\t\t.param .%s r;\n", f.ret)
	var names []string
	for k, t := range f.args {
		fmt.Fprintf(&b, "\t\t.param .%s a%d;\n\t\tst.param.%s [a%d], %%x%d;\n", t, k, t, k, k)
		names = append(names, fmt.Sprintf("a%d", k))
	}
	fmt.Fprintf(&b, "\t\tcall (r), %s, (%s);\n\t\tld.param.%s %%y, [r];\n\t}\n", f.name, strings.Join(names, ", "), f.ret)
	fmt.Fprintf(&b, "\tld.param.u64 %%ptr, [out];\n\tadd.u64 %%ptr, %%ptr, %%off;\n\tst.global.%s [%%ptr], %%y;\nDONE:\n\tret;\n}\n", f.ret)
	return b.String()
}

// gccInts returns n values drawn from [lo, hi] as raw 32-bit two's complement bits.
func gccInts(r *rand.Rand, n int, lo, hi int32) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(uint32(lo + int32(r.IntN(int(hi-lo)+1))))
	}
	return out
}

func gccFuncs() []gccFunc {
	primes := [8]int32{2, 3, 5, 7, 11, 13, 17, 19}
	return []gccFunc{
		{"sum_squares", []string{"u32"}, "u32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 { return [][]uint64{gccInts(r, n, -5, 1000)} },
			func(_ *runtime.Device, x []uint64) uint64 {
				var s int32
				for i := int32(0); i < int32(x[0]); i++ {
					s += i * i
				}
				return uint64(uint32(s))
			}, false},
		{"classify", []string{"u32"}, "u32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 { return [][]uint64{gccInts(r, n, -3, 16)} },
			func(_ *runtime.Device, x []uint64) uint64 {
				v, ok := map[int32]int32{0: 11, 1: 22, 2: 33, 3: 44, 5: 55, 8: 66, 13: 77}[int32(x[0])]
				if !ok {
					v = -1
				}
				return uint64(uint32(v))
			}, false},
		{"fib", []string{"u32"}, "u32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 { return [][]uint64{gccInts(r, n, -2, 14)} },
			func(_ *runtime.Device, x []uint64) uint64 {
				var fib func(int32) int32
				fib = func(n int32) int32 {
					if n < 2 {
						return n
					}
					return fib(n-1) + fib(n-2)
				}
				return uint64(uint32(fib(int32(x[0]))))
			}, false},
		{"fact", []string{"u32"}, "u64",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 { return [][]uint64{gccInts(r, n, 0, 30)} },
			func(_ *runtime.Device, x []uint64) uint64 {
				f := uint64(1)
				for k := uint64(2); k <= uint64(uint32(x[0])); k++ {
					f *= k
				}
				return f
			}, false},
		{"poly", []string{"f32"}, "f32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 {
				col := make([]uint64, n)
				for i := range col {
					col[i] = uint64(math.Float32bits(float32(r.NormFloat64() * 4)))
				}
				return [][]uint64{col}
			},
			func(_ *runtime.Device, x []uint64) uint64 {
				// GCC contracts each a*b+c of the C source into one fma.rn.f32.
				v := math.Float32frombits(uint32(x[0]))
				p := harness.FMA32(harness.FMA32(harness.FMA32(v, 0.5, -1.25), v, 3), v, -7)
				if p < 0 {
					p = -p / harness.FMA32(v, v, 1)
				}
				return uint64(math.Float32bits(p))
			}, false},
		{"mean", []string{"u64", "u32"}, "f64",
			func(r *rand.Rand, dev *runtime.Device, n int) [][]uint64 {
				// Each row points at its own array of 0 to 9 doubles.
				ptrs, lens := make([]uint64, n), gccInts(r, n, -1, 9)
				for i := range ptrs {
					v := make([]float64, 9)
					for k := range v {
						v[k] = r.Float64()*100 - 50
					}
					p, err := runtime.Upload(dev, v)
					if err != nil {
						panic(err)
					}
					ptrs[i] = uint64(p)
				}
				return [][]uint64{ptrs, lens}
			},
			func(dev *runtime.Device, x []uint64) uint64 {
				n := int32(x[1])
				if n <= 0 {
					return math.Float64bits(0)
				}
				v := make([]float64, n)
				if err := runtime.Download(dev, v, runtime.Ptr(x[0])); err != nil {
					panic(err)
				}
				s := 0.0
				for _, e := range v {
					s += e
				}
				return math.Float64bits(s / float64(n))
			}, false},
		{"mix64", []string{"u64", "u64"}, "u64",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 {
				a, b := make([]uint64, n), make([]uint64, n)
				for i := range a {
					a[i], b[i] = r.Uint64(), r.Uint64()>>r.IntN(64)
				}
				return [][]uint64{a, b}
			},
			func(_ *runtime.Device, x []uint64) uint64 {
				h := x[0]*0x9E3779B97F4A7C15 + x[1]
				h ^= h >> 29
				h = h<<13 | h>>51
				return h/(x[1]|1) + h%1000003
			}, false},
		{"sdiv64", []string{"u64", "u64"}, "u64",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 {
				a, b := make([]uint64, n), make([]uint64, n)
				for i := range a {
					a[i], b[i] = uint64(r.Int64()>>r.IntN(63)-r.Int64()>>r.IntN(63)), uint64(r.Int64N(2001)-1000)
				}
				return [][]uint64{a, b}
			},
			func(_ *runtime.Device, x []uint64) uint64 {
				a, b := int64(x[0]), int64(x[1])
				if b == 0 {
					return 0
				}
				return uint64(a/b - a%b)
			}, false},
		{"apply_op", []string{"u32", "u32"}, "u32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 {
				return [][]uint64{gccInts(r, n, -10, 10), gccInts(r, n, -1000, 1000)}
			},
			func(_ *runtime.Device, x []uint64) uint64 {
				v := int32(x[1])
				switch uint32(x[0]) % 3 {
				case 0:
					v++
				case 1:
					v *= 2
				default:
					v = -v
				}
				return uint64(uint32(v))
			}, false},
		{"prime_window", []string{"u32"}, "u32",
			func(r *rand.Rand, _ *runtime.Device, n int) [][]uint64 { return [][]uint64{gccInts(r, n, -20, 20)} },
			func(_ *runtime.Device, x []uint64) uint64 {
				k := int32(x[0])
				var s int32
				for i := int32(3); i >= 0; i-- {
					s = s*3 + primes[(k+i)&7]
				}
				return uint64(uint32(s))
			}, true},
	}
}

func TestGCCFuncs(t *testing.T) {
	src, err := os.ReadFile("testdata/ptx/gcc/funcs.ptx")
	require.NoError(t, err)
	funcs := gccFuncs()
	var mod strings.Builder
	mod.Write(src)
	for _, f := range funcs {
		mod.WriteString(gccCaller(f))
	}
	m, err := ptx2go.Compile([]byte(mod.String()), ptx2go.Options{File: "funcs+callers.ptx"})
	require.NoError(t, err)
	const n = 300 // 3 CTAs of 128 threads (10 of 32 with the soft stack), the last partly idle
	for _, f := range funcs {
		t.Run(f.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(f.name)), 5))
			dev := runtime.NewDevice()
			in := f.in(r, dev, n)
			out, err := dev.Malloc(8 * n)
			require.NoError(t, err)
			args := []any{out}
			for _, col := range in {
				p, err := runtime.Upload(dev, col)
				require.NoError(t, err)
				args = append(args, p)
			}
			stacks, err := dev.Malloc(gccStackBytes * n)
			require.NoError(t, err)
			args = append(args, uint32(n), stacks)
			k, err := m.Kernel("call_" + f.name)
			require.NoError(t, err)
			grid, block := runtime.D1(3), runtime.D1(128)
			if f.stack {
				grid, block = runtime.D1((n+31)/32), runtime.Dim3{X: 1, Y: 32, Z: 1}
			}
			require.NoError(t, k.Launch(t.Context(), dev, grid, block, args...))
			got := make([]uint64, n)
			require.NoError(t, runtime.Download(dev, got, out))
			width := map[string]uint64{"u32": math.MaxUint32, "f32": math.MaxUint32, "u64": math.MaxUint64, "f64": math.MaxUint64}[f.ret]
			for i := range n {
				row := make([]uint64, len(in))
				for k := range in {
					row[k] = in[k][i]
				}
				require.Equal(t, f.ref(dev, row)&width, got[i]&width, "%s%x, row %d", f.name, row, i)
			}
		})
	}
}
