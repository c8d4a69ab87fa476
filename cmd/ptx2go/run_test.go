package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
	"github.com/stretchr/testify/require"
)

const (
	vecaddPTX = "../../testdata/ptx/vecadd.ptx"
	structPTX = "../../testdata/ptx/struct_byval.ptx"
)

// writeFile writes data (a slice or array of fixed-size values) little-endian to dir/name and
// returns the path.
func writeFile(t *testing.T, dir, name string, data any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, binary.Write(&b, binary.LittleEndian, data))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o666))
	return path
}

// readFloat32s reads a raw little-endian float32 file.
func readFloat32s(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Zero(t, len(b)%4)
	out := make([]float32, len(b)/4)
	require.NoError(t, binary.Read(bytes.NewReader(b), binary.LittleEndian, out))
	return out
}

// writeNPYFile writes v with npyio to dir/name and returns the path.
func writeNPYFile(t *testing.T, dir, name string, v any) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, npy.Write(&b, v))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o666))
	return path
}

// readNPYFile reads a .npy file with npyio: its dtype, shape and values as a []T.
func readNPYFile[T any](t *testing.T, path string) (dtype string, shape []int, vals []T) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := npy.NewReader(f)
	require.NoError(t, err)
	require.NoError(t, r.Read(&vals))
	return r.Header.Descr.Type, r.Header.Descr.Shape, vals
}

// writePTX writes a PTX module to dir/name and returns the path.
func writePTX(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o666))
	return path
}

// summaryLine matches run's first line of output.
func summaryLine(kernel, grid, block string, threads int) *regexp.Regexp {
	word := " threads"
	if threads == 1 {
		word = " thread"
	}
	return regexp.MustCompile(`^` + regexp.QuoteMeta(kernel+": grid "+grid+", block "+block+", "+strconv.Itoa(threads)+word) +
		`, ran in [0-9.]+(ns|µs|ms|s)\n`)
}

func TestRunVecadd(t *testing.T) {
	dir := t.TempDir()
	const n = 1000
	a, b := make([]float32, n), make([]float32, n)
	for i := range a {
		a[i] = float32(i)*0.5 - 100
		b[i] = float32(i*i) / 7
	}
	pa := writeFile(t, dir, "a.bin", a)
	pb := writeFile(t, dir, "b.bin", b)
	out := filepath.Join(dir, "out")

	// Flags before and after the file.
	code, stdout, stderr := runCLI("run", "-grid", "4", vecaddPTX, "-block", "256",
		"-arg", "zeros:4000", "-arg", "@"+pa, "-arg", "@"+pb, "-arg", "1000", "-out", out)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Regexp(t, summaryLine("vecadd", "(4,1,1)", "(256,1,1)", 1024), stdout)
	require.True(t, strings.HasSuffix(stdout, "\n"+
		"wrote "+filepath.Join(out, "arg0.bin")+" (4000 bytes)\n"+
		"wrote "+filepath.Join(out, "arg1.bin")+" (4000 bytes)\n"+
		"wrote "+filepath.Join(out, "arg2.bin")+" (4000 bytes)\n"), stdout)

	c := readFloat32s(t, filepath.Join(out, "arg0.bin"))
	require.Len(t, c, n)
	for i := range c {
		require.Equal(t, a[i]+b[i], c[i], "c[%d]", i)
	}
	// The inputs are written back unchanged.
	require.Equal(t, a, readFloat32s(t, filepath.Join(out, "arg1.bin")))
	require.Equal(t, b, readFloat32s(t, filepath.Join(out, "arg2.bin")))
}

// The kernel only writes c[i] for i < n; the rest of a zeros:N buffer stays zero, and the
// output file has exactly N bytes.
func TestRunZeros(t *testing.T) {
	dir := t.TempDir()
	pa := writeFile(t, dir, "a.bin", []float32{1, 2, 3, 4, 5, 6, 7, 8})
	code, stdout, stderr := runCLI("run", vecaddPTX, "-block", "32", "-workers", "1",
		"-arg", "zeros:40", "-arg", "@"+pa, "-arg", "zeros:32", "-arg", "5", "-out", dir)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Regexp(t, summaryLine("vecadd", "(1,1,1)", "(32,1,1)", 32), stdout)
	require.Equal(t, []float32{1, 2, 3, 4, 5, 0, 0, 0, 0, 0}, readFloat32s(t, filepath.Join(dir, "arg0.bin")))
	require.Equal(t, make([]float32, 8), readFloat32s(t, filepath.Join(dir, "arg2.bin")))

	// zeros:0 is a buffer of its own with nothing in it.
	out := filepath.Join(dir, "empty")
	code, _, stderr = runCLI("run", vecaddPTX, "-arg", "zeros:0", "-arg", "zeros:0", "-arg", "zeros:0", "-arg", "0", "-out", out)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	fi, err := os.Stat(filepath.Join(out, "arg0.bin"))
	require.NoError(t, err)
	require.Zero(t, fi.Size())
}

// Without -out, only the summary is printed and nothing is written.
func TestRunNoOut(t *testing.T) {
	code, stdout, stderr := runCLI("run", vecaddPTX, "-grid", "2,3", "-block", "4,2,2",
		"-arg", "zeros:4", "-arg", "zeros:4", "-arg", "zeros:4", "-arg", "1")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Regexp(t, summaryLine("vecadd", "(2,3,1)", "(4,2,2)", 96), stdout)
	require.Equal(t, 1, strings.Count(stdout, "\n"), stdout)
}

func TestRunNPY(t *testing.T) {
	dir := t.TempDir()
	// a is 2x500, b is flat, c is 10x100: the kernel sees 1000 float32 values in each.
	var a [2][500]float32
	b := make([]float32, 1000)
	for i := range b {
		a[i/500][i%500] = float32(i) / 3
		b[i] = float32(1000 - 2*i)
	}
	pa := writeNPYFile(t, dir, "a.npy", a)
	pb := writeNPYFile(t, dir, "b.npy", b)
	pc := writeNPYFile(t, dir, "c.npy", [10][100]float32{})
	out := filepath.Join(dir, "out")

	code, stdout, stderr := runCLI("run", vecaddPTX, "-grid", "8", "-block", "128",
		"-arg", "@"+pc, "-arg", "@"+pa, "-arg", "@"+pb, "-arg", "1000", "-out", out)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Contains(t, stdout, "wrote "+filepath.Join(out, "arg0.npy")+" (4000 bytes)\n")
	require.Contains(t, stdout, "wrote "+filepath.Join(out, "arg1.npy")+" (4000 bytes)\n")

	dtype, shape, c := readNPYFile[float32](t, filepath.Join(out, "arg0.npy"))
	require.Equal(t, "<f4", dtype)
	require.Equal(t, []int{10, 100}, shape)
	require.Len(t, c, 1000)
	for i := range c {
		require.Equal(t, a[i/500][i%500]+b[i], c[i], "c[%d]", i)
	}
	dtype, shape, a2 := readNPYFile[float32](t, filepath.Join(out, "arg1.npy"))
	require.Equal(t, "<f4", dtype)
	require.Equal(t, []int{2, 500}, shape)
	require.Equal(t, a[0][:], a2[:500])
	require.Equal(t, a[1][:], a2[500:])
	dtype, shape, b2 := readNPYFile[float32](t, filepath.Join(out, "arg2.npy"))
	require.Equal(t, "<f4", dtype)
	require.Equal(t, []int{1000}, shape)
	require.Equal(t, b, b2)
}

// An aggregate parameter passed as bytes:HEX: affine's struct {float scale, bias; int n, flags}.
func TestRunBytesAggregate(t *testing.T) {
	dir := t.TempDir()
	in := []float32{-2, -0.5, 0, 1, 1.5, 4, 100, 7}
	pin := writeFile(t, dir, "in.bin", in)
	for _, flags := range []uint32{0, 1} {
		var p bytes.Buffer
		require.NoError(t, binary.Write(&p, binary.LittleEndian, struct {
			Scale, Bias float32
			N, Flags    uint32
		}{2, -3, 6, flags}))
		out := filepath.Join(dir, "out", string(rune('0'+flags)))
		code, stdout, stderr := runCLI("run", structPTX, "-kernel", "affine", "-block", "8",
			"-arg", "zeros:32", "-arg", "@"+pin, "-arg", "bytes:"+hex.EncodeToString(p.Bytes()), "-out", out)
		require.Equal(t, 0, code, "stderr: %s", stderr)
		require.Empty(t, stderr)
		require.Regexp(t, summaryLine("affine", "(1,1,1)", "(8,1,1)", 8), stdout)
		got := readFloat32s(t, filepath.Join(out, "arg0.bin"))
		want := make([]float32, 8)
		for i := range 6 {
			want[i] = in[i]*2 - 3
			if flags&1 != 0 {
				want[i] = max(want[i], 0)
			}
		}
		require.Equal(t, want, got, "flags %d", flags)
	}
}

// paramsPTX stores its scalar parameters into the buffer out, so the conversions of bare
// numbers can be checked.
const paramsPTX = `.version 7.5
.target sm_80
.address_size 64

.visible .entry params(
	.param .u64 params_out,
	.param .u8 params_u8,
	.param .s32 params_s32,
	.param .u32 params_u32,
	.param .f32 params_f32,
	.param .f64 params_f64,
	.param .s64 params_s64
)
{
	.reg .b16 %rs<2>;
	.reg .b32 %r<3>;
	.reg .f32 %f<2>;
	.reg .f64 %fd<2>;
	.reg .b64 %rd<4>;

	ld.param.u64 %rd1, [params_out];
	cvta.to.global.u64 %rd2, %rd1;
	ld.param.u8 %rs1, [params_u8];
	st.global.u8 [%rd2], %rs1;
	ld.param.s32 %r1, [params_s32];
	st.global.s32 [%rd2+4], %r1;
	ld.param.u32 %r2, [params_u32];
	st.global.u32 [%rd2+8], %r2;
	ld.param.f32 %f1, [params_f32];
	st.global.f32 [%rd2+12], %f1;
	ld.param.f64 %fd1, [params_f64];
	st.global.f64 [%rd2+16], %fd1;
	ld.param.s64 %rd3, [params_s64];
	st.global.s64 [%rd2+24], %rd3;
	ret;
}
`

func TestRunNumbers(t *testing.T) {
	dir := t.TempDir()
	path := writePTX(t, dir, "params.ptx", paramsPTX)
	type stored struct {
		U8  uint8
		_   [3]byte
		S32 int32
		U32 uint32
		F32 float32
		F64 float64
		S64 int64
	}
	for _, tc := range []struct {
		args []string
		want stored
	}{
		{[]string{"0xff", "-7", "0x10", "1.5", "-2e-3", "-9223372036854775808"},
			stored{U8: 255, S32: -7, U32: 16, F32: 1.5, F64: -2e-3, S64: math.MinInt64}},
		{[]string{"0", "2147483647", "4294967295", "3", "-0x10", "9223372036854775807"},
			stored{S32: math.MaxInt32, U32: math.MaxUint32, F32: 3, F64: -16, S64: math.MaxInt64}},
		{[]string{"+12", "-2147483648", "0XFFFFFFFF", "-1e-3", "1e300", "-0x8000000000000000"},
			stored{U8: 12, S32: math.MinInt32, U32: math.MaxUint32, F32: -1e-3, F64: 1e300, S64: math.MinInt64}},
	} {
		out := t.TempDir()
		args := []string{"run", path, "-arg", "zeros:32", "-out", out}
		for _, a := range tc.args {
			args = append(args, "-arg", a)
		}
		code, _, stderr := runCLI(args...)
		require.Equal(t, 0, code, "%v: stderr: %s", tc.args, stderr)
		raw, err := os.ReadFile(filepath.Join(out, "arg0.bin"))
		require.NoError(t, err)
		var got stored
		require.NoError(t, binary.Read(bytes.NewReader(raw), binary.LittleEndian, &got))
		require.Equal(t, tc.want, got, "%v", tc.args)
	}
}

// Every error is one line on stderr and exit status 1.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	params := writePTX(t, dir, "params.ptx", paramsPTX)
	bad := writePTX(t, dir, "bad.ptx", ".version 7.5\n.target sm_80\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_p0\n)\n{\n\tmov.u32 %r1, ;\n\tret;\n}\n")
	undeclared := writePTX(t, dir, "undeclared.ptx", ".version 7.5\n.target sm_80\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_p0\n)\n{\n\tmov.u32 %r1, 0;\n\tret;\n}\n")
	noKernels := writePTX(t, dir, "nokernels.ptx", ".version 7.5\n.target sm_80\n.address_size 64\n\n.visible .func f()\n{\n\tret;\n}\n")
	spin := writePTX(t, dir, "spin.ptx", `.version 7.5
.target sm_80
.address_size 64

.visible .entry spin()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 0;
$L_loop:
	add.u32 %r1, %r1, 1;
	bra.uni $L_loop;
}
`)
	notNPY := filepath.Join(dir, "text.npy")
	require.NoError(t, os.WriteFile(notNPY, []byte("not numpy\n"), 0o666))
	missing := filepath.Join(dir, "missing.bin")
	z4 := []string{"-arg", "zeros:4"}
	vecArgs := func(last string) []string {
		return append(append(append(append([]string{}, z4...), z4...), z4...), "-arg", last)
	}
	paramArgs := func(vals ...string) []string {
		out := []string{"-arg", "zeros:32"}
		for _, v := range vals {
			out = append(out, "-arg", v)
		}
		return out
	}
	affineArgs := func(last string) []string {
		return append(append(append([]string{"-kernel", "affine"}, z4...), z4...), "-arg", last)
	}
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"missing file", []string{filepath.Join(dir, "nope.ptx")},
			filepath.Join(dir, "nope.ptx") + ": cannot read: no such file or directory"},
		{"parse error", []string{bad}, bad + ":9:15: expected an operand, found ';'"},
		{"verify error", []string{undeclared}, undeclared + ":9:10: undeclared register %r1"},
		{"no kernels", []string{noKernels}, "ptx2go run: " + noKernels + " defines no kernels"},
		{"unknown kernel", []string{vecaddPTX, "-kernel", "nope"},
			`ptx2go run: ../../testdata/ptx/vecadd.ptx has no kernel "nope"; it defines: vecadd`},
		{"several kernels", []string{structPTX},
			"ptx2go run: ../../testdata/ptx/struct_byval.ptx defines 3 kernels (affine, vec_ops, mixed_param); choose one with -kernel"},
		{"too few args", []string{vecaddPTX, "-arg", "zeros:4", "-arg", "zeros:4"},
			"ptx2go run: kernel vecadd takes 4 arguments (vecadd_param_0 .u64, vecadd_param_1 .u64, vecadd_param_2 .u64, vecadd_param_3 .u32), got 2"},
		{"too many args", append(append([]string{vecaddPTX}, vecArgs("1")...), "-arg", "2"),
			"ptx2go run: kernel vecadd takes 4 arguments (vecadd_param_0 .u64, vecadd_param_1 .u64, vecadd_param_2 .u64, vecadd_param_3 .u32), got 5"},
		{"no args", []string{vecaddPTX},
			"ptx2go run: kernel vecadd takes 4 arguments (vecadd_param_0 .u64, vecadd_param_1 .u64, vecadd_param_2 .u64, vecadd_param_3 .u32), got 0"},
		{"args for no params", []string{spin, "-arg", "1"}, "ptx2go run: kernel spin takes no arguments, got 1"},
		{"u8 overflow", append([]string{params}, paramArgs("300", "0", "0", "0", "0", "0")...),
			"ptx2go run: argument 1 (params_u8 .u8): 300 does not fit .u8"},
		{"negative u32", append([]string{vecaddPTX}, vecArgs("-1")...),
			"ptx2go run: argument 3 (vecadd_param_3 .u32): -1 does not fit .u32"},
		{"s32 overflow", append([]string{params}, paramArgs("0", "2147483648", "0", "0", "0", "0")...),
			"ptx2go run: argument 2 (params_s32 .s32): 2147483648 does not fit .s32"},
		{"s32 underflow", append([]string{params}, paramArgs("0", "-2147483649", "0", "0", "0", "0")...),
			"ptx2go run: argument 2 (params_s32 .s32): -2147483649 does not fit .s32"},
		{"s64 overflow", append([]string{params}, paramArgs("0", "0", "0", "0", "0", "9223372036854775808")...),
			"ptx2go run: argument 6 (params_s64 .s64): 9223372036854775808 does not fit .s64"},
		{"beyond 64 bits", append([]string{params}, paramArgs("0", "0", "0", "0", "0", "-0x10000000000000000")...),
			"ptx2go run: argument 6 (params_s64 .s64): -0x10000000000000000 does not fit .s64"},
		{"f32 overflow", append([]string{params}, paramArgs("0", "0", "0", "1e39", "0", "0")...),
			"ptx2go run: argument 4 (params_f32 .f32): 1e39 does not fit .f32"},
		{"f64 overflow", append([]string{params}, paramArgs("0", "0", "0", "0", "1e400", "0")...),
			"ptx2go run: argument 5 (params_f64 .f64): 1e400 does not fit .f64"},
		{"float for integer", append([]string{vecaddPTX}, vecArgs("1.5")...),
			"ptx2go run: argument 3 (vecadd_param_3 .u32): 1.5 is not an integer; .u32 takes an integer"},
		{"not a number", append([]string{vecaddPTX}, vecArgs("ten")...),
			`ptx2go run: argument 3 (vecadd_param_3 .u32): "ten" is not a number, @PATH, zeros:N or bytes:HEX`},
		{"buffer for integer", append([]string{vecaddPTX}, vecArgs("zeros:4")...),
			"ptx2go run: argument 3 (vecadd_param_3 .u32): zeros:4 makes a buffer, whose address cannot be passed as .u32"},
		{"bad zeros", append([]string{vecaddPTX, "-arg", "zeros:-4"}, vecArgs("1")[2:]...),
			"ptx2go run: argument 0 (vecadd_param_0 .u64): zeros:-4: want zeros:N with N a byte count"},
		{"missing input", append([]string{vecaddPTX, "-arg", "@" + missing}, vecArgs("1")[2:]...),
			"ptx2go run: argument 0 (vecadd_param_0 .u64): cannot read " + missing + ": no such file or directory"},
		{"not npy", append([]string{vecaddPTX, "-arg", "@" + notNPY}, vecArgs("1")[2:]...),
			"ptx2go run: argument 0 (vecadd_param_0 .u64): cannot read " + notNPY + ": npy: not a valid NumPy file format"},
		{"bad hex", append([]string{structPTX}, affineArgs("bytes:zz")...),
			"ptx2go run: argument 2 (affine_param_2 .b8[16]): bad hex in bytes:zz: invalid byte: U+007A 'z'"},
		{"odd hex", append([]string{structPTX}, affineArgs("bytes:123")...),
			"ptx2go run: argument 2 (affine_param_2 .b8[16]): bad hex in bytes:123: odd length hex string"},
		{"short hex", append([]string{structPTX}, affineArgs("bytes:00")...),
			"ptx2go run: argument 2 (affine_param_2 .b8[16]): bytes:00 gives 1 byte, the parameter takes 16 (32 hex digits)"},
		{"number for aggregate", append([]string{structPTX}, affineArgs("5")...),
			`ptx2go run: argument 2 (affine_param_2 .b8[16]): an aggregate parameter takes bytes:HEX with 16 bytes, not "5"`},
		{"hex for scalar", append([]string{vecaddPTX}, vecArgs("bytes:01000000")...),
			"ptx2go run: argument 3 (vecadd_param_3 .u32): bytes:HEX is for aggregate parameters; .u32 takes a number"},
		{"bad grid", append([]string{vecaddPTX, "-grid", "4,x"}, vecArgs("1")...),
			"ptx2go run: -grid 4,x: want X[,Y[,Z]] with positive integers"},
		{"zero grid", append([]string{vecaddPTX, "-grid", "0"}, vecArgs("1")...),
			"ptx2go run: -grid 0: want X[,Y[,Z]] with positive integers"},
		{"4-d grid", append([]string{vecaddPTX, "-grid", "1,2,3,4"}, vecArgs("1")...),
			"ptx2go run: -grid 1,2,3,4: want X[,Y[,Z]] with positive integers"},
		{"grid limits", append([]string{vecaddPTX, "-grid", "1,65536"}, vecArgs("1")...),
			"ptx2go run: -grid 1,65536: exceeds the limits 2147483647x65535x65535"},
		{"bad block", append([]string{vecaddPTX, "-block", "-3"}, vecArgs("1")...),
			"ptx2go run: -block -3: want X[,Y[,Z]] with positive integers"},
		{"block threads", append([]string{vecaddPTX, "-block", "32,64"}, vecArgs("1")...),
			"ptx2go run: -block 32,64: 2048 threads, the limit is 1024"},
		{"block x", append([]string{vecaddPTX, "-block", "1025"}, vecArgs("1")...),
			"ptx2go run: -block 1025: 1025 threads, the limit is 1024"},
		{"block z", append([]string{vecaddPTX, "-block", "1,1,65"}, vecArgs("1")...),
			"ptx2go run: -block 1,1,65: exceeds the limits 1024x1024x64"},
		{"negative shared", append([]string{vecaddPTX, "-shared", "-1"}, vecArgs("1")...),
			"ptx2go run: -shared -1: the size cannot be negative"},
		{"negative heap", append([]string{vecaddPTX, "-heap", "-1"}, vecArgs("1")...),
			"ptx2go run: -heap -1: the size cannot be negative"},
		{"timeout", []string{spin, "-timeout", "100ms"},
			"ptx2go run: " + spin + ":11: cancelled: context deadline exceeded (kernel spin, CTA (0,0,0), thread (0,0,0))"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"run"}, tc.args...)...)
			require.Equal(t, 1, code, "stderr: %s", stderr)
			require.Empty(t, stdout)
			require.Equal(t, tc.msg+"\n", stderr)
		})
	}
}

// A fault names the PTX line, the kind, the address, the CTA and the thread.
func TestRunFault(t *testing.T) {
	dir := t.TempDir()
	// n = 8 over 4-element buffers: thread 4 reads past the end of a.
	code, stdout, stderr := runCLI("run", vecaddPTX, "-block", "8", "-workers", "1", "-out", dir,
		"-arg", "zeros:16", "-arg", "zeros:16", "-arg", "zeros:16", "-arg", "8")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^ptx2go run: \.\./\.\./testdata/ptx/vecadd\.ptx:\d+: out-of-bounds access at global address 0x[0-9a-f]+: past the end of the 16-byte allocation at 0x[0-9a-f]+ \(kernel vecadd, CTA \(0,0,0\), thread \([4-7],0,0\)\)\n$`, stderr)
	// Nothing is written after a failed run.
	_, err := os.Stat(filepath.Join(dir, "arg0.bin"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// -sched picks the scheduling model: the spin lock of testdata/cuda/its.cu finishes under its
// (the default for its sm_80 target) with the counter at 32, and is a SIMT deadlock under ipdom.
func TestRunSched(t *testing.T) {
	const its = "../../testdata/ptx/its.ptx"
	for _, sched := range []string{"", "its"} {
		dir := t.TempDir()
		args := []string{"run", its, "-kernel", "spin_lock", "-block", "32", "-out", dir, "-arg", "zeros:4", "-arg", "zeros:4", "-arg", "zeros:4"}
		if sched != "" {
			args = append(args, "-sched", sched)
		}
		code, _, stderr := runCLI(args...)
		require.Equal(t, 0, code, "stderr: %s", stderr)
		counter, err := os.ReadFile(filepath.Join(dir, "arg1.bin"))
		require.NoError(t, err)
		require.Equal(t, []byte{32, 0, 0, 0}, counter)
	}
	code, stdout, stderr := runCLI("run", its, "-kernel", "spin_lock", "-block", "32", "-sched", "ipdom",
		"-arg", "zeros:4", "-arg", "zeros:4", "-arg", "zeros:4")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^ptx2go run: \.\./\.\./testdata/ptx/its\.ptx:\d+: SIMT deadlock: warp 0: lanes 0x[0-9a-f]{8} loop at \.\./\.\./testdata/ptx/its\.ptx:\d+ without progress`, stderr)
	code, _, stderr = runCLI("run", its, "-kernel", "spin_lock", "-block", "32", "-sched", "ipdom", "-max-blocks", "100",
		"-arg", "zeros:4", "-arg", "zeros:4", "-arg", "zeros:4")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "block budget exhausted: warp 0 ran 100 blocks")
	code, _, stderr = runCLI("run", its, "-sched", "volta")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown scheduling model "volta" (want its or ipdom)`)
}

// A malformed command line is a usage error (status 2) with the synopsis.
func TestRunUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "ptx2go run: no file given\n"},
		{[]string{"a.ptx", "b.ptx"}, "ptx2go run: exactly one file expected\n"},
		{[]string{"a.ptx", "-bogus"}, "ptx2go run: flag provided but not defined: -bogus\n"},
		{[]string{"a.ptx", "-workers", "x"}, `ptx2go run: invalid value "x" for flag -workers: parse error` + "\n"},
	} {
		code, stdout, stderr := runCLI(append([]string{"run"}, tc.args...)...)
		require.Equal(t, 2, code, tc.args)
		require.Empty(t, stdout)
		require.Equal(t, tc.msg+"usage: ptx2go run [flags] FILE.ptx\nRun 'ptx2go help run' for details.\n", stderr)
	}
}

// A kernel's printf output goes to stdout when the launch ends, before the summary, also when
// the kernel then fails an assert, whose fault names CUDA's message.
func TestRunPrintf(t *testing.T) {
	code, stdout, stderr := runCLI("run", "../../testdata/ptx/device_printf.ptx", "-kernel", "printf_none", "-block", "3",
		"-arg", "zeros:12")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	out, ok := strings.CutPrefix(stdout, strings.Repeat("no arguments\n", 3))
	require.True(t, ok, stdout)
	require.Regexp(t, summaryLine("printf_none", "(1,1,1)", "(3,1,1)", 3), out)

	// v = {1, -1}: thread 1 prints its value and fails assert(v[i] > 0).
	in := filepath.Join(t.TempDir(), "v.bin")
	require.NoError(t, os.WriteFile(in, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, 0o666))
	code, stdout, stderr = runCLI("run", "../../testdata/ptx/nvcc/device_assert.ptx", "-block", "2",
		"-arg", "@"+in, "-arg", "2")
	require.Equal(t, 1, code)
	require.Equal(t, "thread 1: v = -1\n", stdout)
	require.Regexp(t, `^ptx2go run: \.\./\.\./testdata/ptx/nvcc/device_assert\.ptx:\d+: assertion failed: testdata/cuda/device_assert\.cu:\d+: void check_positive\(const int \*, int\): block: \[0,0,0\], thread: \[1,0,0\] Assertion `+"`v\\[i\\] > 0` failed\\.", stderr)
}

// -heap sets the size of the device heap: 64 bytes hold four 16-byte blocks, and the other
// threads' malloc returns null.
func TestRunHeap(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI("run", "../../testdata/ptx/device_malloc.ptx", "-kernel", "malloc_keep", "-block", "8",
		"-heap", "64", "-arg", "zeros:64", "-arg", "8", "-arg", "16", "-out", dir)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	b, err := os.ReadFile(filepath.Join(dir, "arg0.bin"))
	require.NoError(t, err)
	var ptrs []uint64
	for i := 0; i < len(b); i += 8 {
		ptrs = append(ptrs, binary.LittleEndian.Uint64(b[i:]))
	}
	for i, p := range ptrs {
		if i < 4 {
			require.NotZero(t, p, "thread %d", i)
			require.Zero(t, p%16)
			if i > 0 {
				require.Equal(t, ptrs[i-1]+16, p, "first fit: consecutive blocks")
			}
		} else {
			require.Zero(t, p, "thread %d: the heap is full", i)
		}
	}
}
