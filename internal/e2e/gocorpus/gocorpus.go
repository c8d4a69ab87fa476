// Package gocorpus finds the Go source engine's package for a module of the PTX test corpus.
// `go run ./internal/gencorpus` (make gocorpus, which make test runs) writes those packages:
// the curated ones under generated/, every other one under this directory, and
// modules_gen.go, which registers each by its PTX path. Only generated/ is checked in; in a
// fresh checkout that has not run the generator, Lookup finds nothing and Generated is false.
package gocorpus

import (
	"path/filepath"
	"strings"

	"github.com/ptx2go/ptx2go/runtime"
)

// modules maps a module's PTX path under testdata/ptx, without .ptx and with slashes
// ("O0/vecadd"), to its generated Module; duplicates maps the path of a module whose bytes
// repeat another's (clang's -ffp-contract=fast output equals its -O2 output) to that other's
// path, and such a module has no package of its own; excluded maps the path of a module the
// Go source back end cannot compile to the reason. modules_gen.go fills all three.
var (
	modules    map[string]*runtime.Module
	duplicates map[string]string
	excluded   map[string]string
)

// Generated reports whether the generator has run, so that Lookup knows every module.
func Generated() bool { return len(modules) > 0 }

// Lookup returns the generated module of the PTX file at path, relative to the repository
// root ("testdata/ptx/O0/vecadd.ptx") or to testdata/ptx without .ptx ("O0/vecadd").
func Lookup(path string) (*runtime.Module, bool) {
	m, ok := modules[key(path)]
	return m, ok
}

// DuplicateOf returns the path of the module whose bytes the module at path repeats, if it
// is such a duplicate.
func DuplicateOf(path string) (string, bool) {
	p, ok := duplicates[key(path)]
	return p, ok
}

// Excluded returns why the module at path has no generated package, if gencorpus leaves it
// out.
func Excluded(path string) (string, bool) {
	r, ok := excluded[key(path)]
	return r, ok
}

// key is the registry's key for a module path.
func key(path string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(path), "testdata/ptx/"), ".ptx")
}

// Paths returns the PTX path of every generated module, in no particular order.
func Paths() []string {
	paths := make([]string, 0, len(modules))
	for p := range modules {
		paths = append(paths, p)
	}
	return paths
}
