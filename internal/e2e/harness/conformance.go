package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
	"github.com/stretchr/testify/require"
)

// Conformance: each instruction form runs as a kernel of its own (ConfKernel) on rows of
// inputs, one row per thread, and its outputs are checked against an independent Go
// reference by the conformance suites. On the Go source engine: `make conf-ptx` runs those
// suites with PTX2GO_CONF_DUMP set, which makes ConfRun write each kernel the Go source back
// end compiles (confDump), renamed conf_HASH after its PTX, and collects them into
// testdata/ptx/conf/forms.ptx; `make gocorpus` turns that into the package conf_forms. ConfRun
// then runs every kernel found there on both engines and requires the same output bits, so
// each form is checked against the references through the closure engine and bit for bit on
// the Go source engine.

// ConfOp is one instruction form under conformance test. Body is PTX that reads the inputs
// %a0, %a1, ... and writes the outputs %d0, %d1, ...; it runs once per input row, one row per
// thread. In and Out give the PTX register types of the inputs and outputs: a scalar type such
// as "f32", "s16" or "b64", "f16"/"bf16" (held in .b16 registers), "f16x2"/"bf16x2" (.b32
// registers) or "pred".
type ConfOp struct {
	Body    string
	In, Out []string
	// WholeWarps runs the body on whole warps only, for warp-level instructions whose result
	// depends on which lanes take part.
	WholeWarps bool
}

// confRegType is the register type ConfKernel declares for a conformance type, and confMemType
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

// ConfKernel returns the PTX of a kernel conf(in0, ..., out0, ..., n) that runs op for rows
// 0..n-1: row i reads input k from in_k + 8*i (the low bytes of a little-endian uint64; a pred
// input is true when its uint32 is non-zero) and writes output k to out_k + 8*i (a pred output
// as uint32 0 or 1). Unless op.WholeWarps is set, odd-numbered warps run op in two rounds,
// their even lanes and then their odd lanes, so that every operation is checked on partial
// warps as well as on whole ones.
func ConfKernel(op ConfOp) string {
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

// ConfRun compiles op and runs it on the rows of inputs (inputs[k][i] holds input k of row i as
// raw bits in the low bytes). It returns outs[k][i], output k of row i as raw bits, zero-extended
// from the output's width.
func ConfRun(t testing.TB, op ConfOp, inputs ...[]uint64) [][]uint64 {
	t.Helper()
	require.Len(t, inputs, len(op.In), "one input column per input of %q", op.Body)
	src := ConfKernel(op)
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

// ConfHeader is the module header ConfKernel writes, shared by every kernel of forms.ptx.
const ConfHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n"

// ConfKernelName is the name of a conformance kernel in forms.ptx: conf_ and the first 16 hex
// digits of the SHA-256 of its PTX.
func ConfKernelName(src string) string {
	h := sha256.Sum256([]byte(src))
	return "conf_" + hex.EncodeToString(h[:8])
}

// confDump writes the entry of src, renamed, to $PTX2GO_CONF_DUMP/NAME.ptx when that is set
// and the Go source back end compiles it.
func confDump(t testing.TB, src string) {
	dir := os.Getenv("PTX2GO_CONF_DUMP")
	if dir == "" {
		return
	}
	name := ConfKernelName(src)
	body, ok := strings.CutPrefix(src, ConfHeader)
	require.True(t, ok, "conformance kernel without the usual header")
	body = strings.Replace(body, ".entry conf(", ".entry "+name+"(", 1)
	ast, err := frontend.Parse(name+".ptx", []byte(ConfHeader+body))
	require.NoError(t, err)
	p, err := ssa.Build(ast)
	require.NoError(t, err)
	if _, err := gosrc.Generate(p, gosrc.Options{}); err != nil {
		return
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".ptx"), []byte(body), 0o644))
}

// confForms is generated/conf_forms loaded as a module.
var confForms = sync.OnceValues(func() (*ptx2go.Module, error) {
	m, ok := gocorpus.Lookup("conf/forms")
	if !ok {
		return nil, errors.New("the conformance forms have no generated package: run make gocorpus")
	}
	return ptx2go.Load(m)
})

// confGenerated returns the kernel of src in generated/conf_forms, or nil if it has none.
func confGenerated(t testing.TB, src string) *ptx2go.Kernel {
	if !gocorpus.Generated() {
		return nil
	}
	mod, err := confForms()
	require.NoError(t, err)
	k, err := mod.Kernel(ConfKernelName(src))
	if err != nil {
		return nil
	}
	return k
}
