package conformance_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime"
)

// confOp is one instruction form under conformance test. Body is PTX that reads the inputs
// %a0, %a1, ... and writes the outputs %d0, %d1, ...; it runs once per input row, one row per
// thread. In and Out give the PTX register types of the inputs and outputs: a scalar type such
// as "f32", "s16" or "b64", "f16"/"bf16" (held in .b16 registers), "f16x2"/"bf16x2" (.b32
// registers) or "pred".
type confOp struct {
	Body    string
	In, Out []string
	// WholeWarps runs the body on whole warps only, for warp-level instructions whose result
	// depends on which lanes take part.
	WholeWarps bool
}

// confRegType is the register type confKernel declares for a conformance type, and confMemType
// the type it loads and stores it with.
func confRegType(t string) string {
	switch t {
	case "f16", "bf16":
		return "b16"
	case "f16x2", "bf16x2":
		return "b32"
	}
	return t
}

func confMemType(t string) string {
	switch t {
	case "pred":
		return "u32"
	case "s8", "u8", "b8":
		return t
	}
	return confRegType(t)
}

// confKernel returns the PTX of a kernel conf(in0, ..., out0, ..., n) that runs op for rows
// 0..n-1: row i reads input k from in_k + 8*i (the low bytes of a little-endian uint64; a pred
// input is true when its uint32 is non-zero) and writes output k to out_k + 8*i (a pred output
// as uint32 0 or 1). Unless op.WholeWarps is set, odd-numbered warps run op in two rounds,
// their even lanes and then their odd lanes, so that every operation is checked on partial
// warps as well as on whole ones.
func confKernel(op confOp) string {
	var b strings.Builder
	b.WriteString(".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry conf(\n")
	for k := range op.In {
		fmt.Fprintf(&b, "\t.param .u64 in%d,\n", k)
	}
	for k := range op.Out {
		fmt.Fprintf(&b, "\t.param .u64 out%d,\n", k)
	}
	b.WriteString("\t.param .u32 n\n)\n{\n")
	b.WriteString("\t.reg .pred %done, %skip, %again;\n\t.reg .u32 %i, %n, %ctaid, %ntid, %tid, %word, %round, %lane;\n\t.reg .u64 %off, %ptr;\n")
	for k, t := range op.In {
		fmt.Fprintf(&b, "\t.reg .%s %%a%d;\n", confRegType(t), k)
	}
	for k, t := range op.Out {
		fmt.Fprintf(&b, "\t.reg .%s %%d%d;\n", confRegType(t), k)
	}
	b.WriteString("\tmov.u32 %ctaid, %ctaid.x;\n\tmov.u32 %ntid, %ntid.x;\n\tmov.u32 %tid, %tid.x;\n")
	b.WriteString("\tmad.lo.u32 %i, %ctaid, %ntid, %tid;\n\tld.param.u32 %n, [n];\n")
	b.WriteString("\tsetp.ge.u32 %done, %i, %n;\n\t@%done bra DONE;\n\tmul.wide.u32 %off, %i, 8;\n")
	if op.WholeWarps {
		b.WriteString("\tmov.u32 %lane, 0;\n\tmov.u32 %round, 0;\n")
	} else {
		b.WriteString("\tshr.u32 %word, %tid, 5;\n\tand.b32 %word, %word, 1;\n\tand.b32 %lane, %tid, %word;\n\tmov.u32 %round, 0;\n")
	}
	b.WriteString("ROUND:\n\tsetp.ne.u32 %skip, %lane, %round;\n\t@%skip bra NEXT;\n")
	for k, t := range op.In {
		fmt.Fprintf(&b, "\tld.param.u64 %%ptr, [in%d];\n\tadd.u64 %%ptr, %%ptr, %%off;\n", k)
		if t == "pred" {
			fmt.Fprintf(&b, "\tld.global.u32 %%word, [%%ptr];\n\tsetp.ne.u32 %%a%d, %%word, 0;\n", k)
		} else {
			fmt.Fprintf(&b, "\tld.global.%s %%a%d, [%%ptr];\n", confMemType(t), k)
		}
	}
	for line := range strings.Lines(op.Body) {
		fmt.Fprintf(&b, "\t%s\n", strings.TrimSpace(line))
	}
	for k, t := range op.Out {
		fmt.Fprintf(&b, "\tld.param.u64 %%ptr, [out%d];\n\tadd.u64 %%ptr, %%ptr, %%off;\n", k)
		if t == "pred" {
			fmt.Fprintf(&b, "\tselp.u32 %%word, 1, 0, %%d%d;\n\tst.global.u32 [%%ptr], %%word;\n", k)
		} else {
			fmt.Fprintf(&b, "\tst.global.%s [%%ptr], %%d%d;\n", confMemType(t), k)
		}
	}
	b.WriteString("NEXT:\n\tadd.u32 %round, %round, 1;\n\tsetp.lt.u32 %again, %round, 2;\n\t@%again bra ROUND;\n")
	b.WriteString("DONE:\n\tret;\n}\n")
	return b.String()
}

// confRun compiles op and runs it on the rows of inputs (inputs[k][i] holds input k of row i as
// raw bits in the low bytes). It returns outs[k][i], output k of row i as raw bits, zero-extended
// from the output's width.
func confRun(t testing.TB, op confOp, inputs ...[]uint64) [][]uint64 {
	t.Helper()
	require.Len(t, inputs, len(op.In), "one input column per input of %q", op.Body)
	src := confKernel(op)
	mod, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "conf.ptx"})
	require.NoError(t, err, "compiling:\n%s", src)
	k, err := mod.Kernel("conf")
	require.NoError(t, err)
	confDump(t, src)
	outs := confLaunch(t, k, src, len(op.Out), inputs)
	if gk := confGenerated(t, src); gk != nil {
		// The same kernel, generated into generated/conf_forms: the Go source engine must
		// write the same bits.
		gouts := confLaunch(t, gk, src, len(op.Out), inputs)
		// slices.EqualFunc first: require.Equal's reflection is slow on big columns.
		if !slices.EqualFunc(outs, gouts, slices.Equal) {
			require.Equal(t, outs, gouts, "the Go source engine differs from the closure engine on:\n%s", src)
		}
	}
	return outs
}

// confLaunch runs kernel k of a conformance module (with nOut outputs) on the rows of inputs.
func confLaunch(t testing.TB, k *ptx2go.Kernel, src string, nOut int, inputs [][]uint64) [][]uint64 {
	t.Helper()
	n := len(inputs[0])
	dev := runtime.NewDevice()
	var args []any
	for _, col := range inputs {
		require.Len(t, col, n)
		p, err := runtime.Upload(dev, col)
		require.NoError(t, err)
		args = append(args, p)
	}
	outPtrs := make([]runtime.Ptr, nOut)
	for k := range outPtrs {
		p, err := runtime.Upload(dev, make([]uint64, n))
		require.NoError(t, err)
		outPtrs[k] = p
		args = append(args, p)
	}
	args = append(args, uint32(n))
	const block = 256
	grid := runtime.D1(uint32((n + block - 1) / block))
	require.NoError(t, k.Launch(t.Context(), dev, grid, runtime.D1(block), args...), "running:\n%s", src)
	outs := make([][]uint64, nOut)
	for k, p := range outPtrs {
		outs[k] = make([]uint64, n)
		require.NoError(t, runtime.Download(dev, outs[k], p))
	}
	return outs
}

// TestConfHarness checks the harness itself on an instruction whose answer is plain Go:
// add.u32 wraps, and setp.lt.s32 with a pred output.
func TestConfHarness(t *testing.T) {
	a := []uint64{0, 1, 0xffffffff, 0x80000000, 12345}
	b := []uint64{0, 2, 1, 0x80000000, 0xffff0000}
	outs := confRun(t, confOp{
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
