package harness

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/stretchr/testify/require"
)

// EngineGo is the name of OnEngines' Go source engine subtest.
const EngineGo = "engine=go"

// OnEngines runs f on the closure engine and, when the module at path is generated, on the
// Go source engine.
func OnEngines(t *testing.T, path string, f func(t *testing.T)) {
	t.Run("engine=closure", f)
	if !gocorpus.Generated() {
		t.Run(EngineGo, func(t *testing.T) { RequireCorpus(t) })
	} else if _, ok := gocorpus.Lookup(path); ok {
		t.Run(EngineGo, f)
	}
}

// OnGoEngine reports whether t runs within OnEngines' engine=go subtest.
func OnGoEngine(t testing.TB) bool { return slices.Contains(strings.Split(t.Name(), "/"), EngineGo) }

// LoadModule returns the module of the PTX file at path for t's engine.
func LoadModule(t testing.TB, path string) (*ptx2go.Module, error) {
	if OnGoEngine(t) {
		rt, ok := gocorpus.Lookup(path)
		require.True(t, ok, "%s has no generated package", path)
		return ptx2go.Load(rt)
	}
	return ptx2go.CompileFile(path)
}

// RequireCorpus stops t when the Go source engine's corpus packages have not been generated:
// a failure under make test (which generates them and sets PTX2GO_GOCORPUS=require), a skip
// that says how to generate them otherwise.
func RequireCorpus(t testing.TB) {
	t.Helper()
	if gocorpus.Generated() {
		return
	}
	if os.Getenv("PTX2GO_GOCORPUS") == "require" {
		t.Fatal("the Go source engine's corpus packages are missing: run make gocorpus")
	}
	t.Skip("the Go source engine's corpus packages are not generated: run make gocorpus (make test does)")
}

// GoModule returns the generated module of the corpus module at path (under testdata/ptx,
// without .ptx), stopping t as RequireCorpus does when there is none.
func GoModule(t testing.TB, path string) *runtime.Module {
	t.Helper()
	RequireCorpus(t)
	m, ok := gocorpus.Lookup(path)
	require.True(t, ok, "%s has no generated package", path)
	return m
}
