package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

// TestConfFormsCollected checks that generated/conf_forms holds conformance kernels, so that
// harness.ConfRun does check the Go source engine, and that each is named after its own PTX.
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
		orig := harness.ConfHeader + ".visible .entry conf(" + strings.TrimRight(body, "\n") + "\n"
		require.Equal(t, harness.ConfKernelName(orig), name, "kernel %s is not named after its PTX", name)
	}
}
