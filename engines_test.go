package ptx2go_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
)

// One harness for both engines: a test wrapped in onEngines runs once as subtest
// engine=closure and, when its PTX module has a generated package (generatedModules), once
// more as engine=go, where the helpers that load a module (loadModule, and semKernel through
// it) return ptx2go.Load of the generated Module instead of compiling the PTX. The same
// checks against the same Go references then run on both engines.

// engineGo is the name of onEngines' Go source engine subtest.
const engineGo = "engine=go"

// onEngines runs f on the closure engine and, when the module at path is generated, on the
// Go source engine.
func onEngines(t *testing.T, path string, f func(t *testing.T)) {
	t.Run("engine=closure", f)
	if _, ok := generatedModule(path); ok {
		t.Run(engineGo, f)
	}
}

// onGoEngine reports whether t runs within onEngines' engine=go subtest.
func onGoEngine(t testing.TB) bool { return slices.Contains(strings.Split(t.Name(), "/"), engineGo) }

// loadModule returns the module of the PTX file at path for t's engine.
func loadModule(t testing.TB, path string) (*ptx2go.Module, error) {
	if onGoEngine(t) {
		rt, ok := generatedModule(path)
		require.True(t, ok, "%s has no generated package", path)
		return ptx2go.Load(rt)
	}
	return ptx2go.CompileFile(path)
}
