package conformance_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/ssa"
)

// The conformance kernels on the Go source engine. `make conf-ptx` runs the conformance tests
// with PTX2GO_CONF_DUMP set, which makes confRun write each kernel the Go source back end
// compiles (confDump), renamed conf_HASH after its PTX, and collects them into
// testdata/ptx/conf/forms.ptx; `make generate` turns that into generated/conf_forms. confRun
// then runs every kernel found there on both engines and requires the same output bits, so
// each form is checked against the conformance references through the closure engine and
// bit for bit on the Go source engine.

// confHeader is the module header confKernel writes, shared by every kernel of forms.ptx.
const confHeader = ".version 8.0\n.target sm_80\n.address_size 64\n\n"

// confKernelName is the name of a conformance kernel in forms.ptx: conf_ and the first 16 hex
// digits of the SHA-256 of its PTX.
func confKernelName(src string) string {
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
	name := confKernelName(src)
	body, ok := strings.CutPrefix(src, confHeader)
	require.True(t, ok, "conformance kernel without the usual header")
	body = strings.Replace(body, ".entry conf(", ".entry "+name+"(", 1)
	ast, err := frontend.Parse(name+".ptx", []byte(confHeader+body))
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
	k, err := mod.Kernel(confKernelName(src))
	if err != nil {
		return nil
	}
	return k
}

// TestConfFormsCollected checks that generated/conf_forms holds conformance kernels, so that
// confRun does check the Go source engine, and that each is named after its own PTX.
func TestConfFormsCollected(t *testing.T) {
	harness.RequireCorpus(t)
	forms, ok := gocorpus.Lookup("conf/forms")
	require.True(t, ok, "run make conf-ptx and make gocorpus")
	src, err := os.ReadFile(filepath.Join("testdata", "ptx", "conf", "forms.ptx"))
	require.NoError(t, err)
	entries := strings.Split(string(src), "\n.visible .entry ")
	require.Len(t, entries, len(forms.Funcs)+1)
	for _, e := range entries[1:] {
		name, body, _ := strings.Cut(e, "(")
		orig := confHeader + ".visible .entry conf(" + strings.TrimRight(body, "\n") + "\n"
		require.Equal(t, confKernelName(orig), name, "kernel %s is not named after its PTX", name)
	}
}
