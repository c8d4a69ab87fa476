package ptx2go_test

import (
	"bytes"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// layeringModule is this module's path.
const layeringModule = "github.com/ptx2go/ptx2go"

// layeringRule is the import rule of one package (docs/ARCHITECTURE.md, "Packages" and "The import
// rules"). The rule applies to the package's transitive dependencies (go list -deps) of its
// non-test code: the standard library is always allowed; module packages only if listed in
// mod (or anyModule); third-party packages only if they match a prefix in thirdParty (or
// anyThirdParty).
type layeringRule struct {
	mod           []string // allowed module packages, relative to the module root
	anyModule     bool
	thirdParty    []string // allowed third-party import path prefixes
	anyThirdParty bool
}

// layeringRules maps each package (relative to the module root; "" is the root package, a trailing
// "/..." covers a subtree) to its rule.
var layeringRules = map[string]layeringRule{
	"frontend":        {},
	"ssa":             {mod: []string{"frontend"}},
	"runtime":         {mod: []string{"runtime/isa"}},
	"runtime/isa":     {},
	"codegen/layout":  {mod: []string{"ssa", "runtime", "runtime/isa", "frontend"}},
	"codegen/closure": {mod: []string{"ssa", "runtime", "runtime/isa", "frontend", "codegen/layout"}},
	// The reference engine: an interpreter of the SSA program, one thread at a time. It may
	// not import codegen/closure (or any back end): it must share no execution code with them.
	"codegen/reference": {mod: []string{"ssa", "runtime", "runtime/isa", "frontend"}},
	// SSA -> Go source with jennifer; runtime for names only.
	"codegen/gosrc": {mod: []string{"ssa", "runtime", "runtime/isa", "frontend", "codegen/layout"}, thirdParty: []string{"github.com/dave/jennifer"}},
	"":              {mod: []string{"frontend", "ssa", "runtime", "runtime/isa", "codegen/layout", "codegen/closure", "codegen/gosrc"}},
	"cmd/ptx2go":    {anyModule: true, anyThirdParty: true},
	// The run command's logic, shared by the command and the programs its Go engine builds:
	// the root package (with what it imports) and npyio for .npy arguments.
	"runtime/runner": {mod: []string{"", "frontend", "ssa", "runtime", "runtime/isa", "codegen/layout", "codegen/closure"}, thirdParty: []string{"github.com/sbinet/npyio", "gonum.org/v1/gonum"}},
	// The CUDA drop-in (libcudart/libcuda, built with -buildmode=c-shared) and its fat binary
	// reader: the root package (with what it imports) and the drop-in's own packages.
	"cmd/ptx2go/cudart/...": {mod: []string{"", "frontend", "ssa", "runtime", "runtime/isa", "codegen/layout", "codegen/closure", "cmd/ptx2go/cudart/fatbin"}},
	// Checked-in output of `ptx2go generate`: must build with runtime alone.
	"generated/...": {mod: []string{"runtime", "runtime/isa"}},
	// The corpus generator (make gocorpus): the front end and the Go source back end, and
	// goimports' formatting, as `ptx2go generate` uses them.
	"internal/gencorpus": {mod: []string{"frontend", "ssa", "runtime", "runtime/isa", "codegen/layout", "codegen/gosrc"}, thirdParty: []string{"github.com/dave/jennifer", "golang.org/x/tools", "golang.org/x/mod", "golang.org/x/sync"}},
	// The Go source engine's corpus packages that gencorpus writes, like generated/, and their
	// registry, which imports them and generated/.
	"internal/e2e/gocorpus":     {mod: []string{"runtime", "runtime/isa", "generated/...", "internal/e2e/gocorpus/..."}},
	"internal/e2e/gocorpus/...": {mod: []string{"runtime", "runtime/isa"}},
	// The sanitizer suite's generated packages (make sanitizer-ptx), with check hooks.
	"internal/e2e/sanitizer/bugsgen":   {mod: []string{"runtime", "runtime/isa"}},
	"internal/e2e/sanitizer/bugsclang": {mod: []string{"runtime", "runtime/isa"}},
	// The end-to-end suites' shared harness: the public API, the engines (the conformance
	// harness generates Go source for make conf-ptx, hence jennifer) and the corpus.
	"internal/e2e/harness": {mod: []string{"", "frontend", "ssa", "runtime", "runtime/isa", "codegen/...", "internal/e2e/gocorpus", "internal/e2e/gocorpus/...", "generated/..."}, thirdParty: []string{"github.com/dave/jennifer", "github.com/stretchr/testify", "github.com/davecgh/go-spew", "github.com/pmezard/go-difflib", "go.yaml.in/yaml/v3"}},
}

// layeringRuleFor returns the rule of the package rel (relative to the module root).
func layeringRuleFor(rel string) (layeringRule, bool) {
	if l, ok := layeringRules[rel]; ok {
		return l, true
	}
	for k, l := range layeringRules {
		if base, ok := strings.CutSuffix(k, "/..."); ok && (rel == base || strings.HasPrefix(rel, base+"/")) {
			return l, true
		}
	}
	return layeringRule{}, false
}

// layeringIsStd reports whether an import path is in the standard library: no dot in its first element.
func layeringIsStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// layeringRel returns path relative to the module root ("" for the root) and whether it is in the module.
func layeringRel(path string) (string, bool) {
	if path == layeringModule {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, layeringModule+"/")
	return rel, ok
}

func (l layeringRule) allows(self, dep string) bool {
	if layeringIsStd(dep) {
		return true
	}
	if rel, ok := layeringRel(dep); ok {
		if rel == self || l.anyModule {
			return true
		}
		return slices.ContainsFunc(l.mod, func(m string) bool {
			base, tree := strings.CutSuffix(m, "/...")
			return rel == m || tree && (rel == base || strings.HasPrefix(rel, base+"/"))
		})
	}
	if l.anyThirdParty {
		return true
	}
	for _, p := range l.thirdParty {
		if dep == p || strings.HasPrefix(dep, p+"/") {
			return true
		}
	}
	return false
}

// TestLayering enforces docs/ARCHITECTURE.md's import rules with `go list -deps` on every package of
// the module. A package with non-test Go files and no rule is an error: add it to layeringRules (and
// to docs/ARCHITECTURE.md).
func TestLayering(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not in PATH")
	}
	goList := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return string(out)
	}

	// Every package of the module, with whether it has non-test Go files.
	type pkg struct {
		path    string
		nonTest bool
		deps    []string // of the non-test code, transitively (go list's .Deps)
	}
	var pkgs []pkg
	for line := range strings.Lines(goList("-e", "-f", "{{.ImportPath}} {{len .GoFiles}} {{len .CgoFiles}} {{join .Deps \" \"}}", "./...")) {
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		pkgs = append(pkgs, pkg{f[0], f[1] != "0" || f[2] != "0", f[3:]})
	}
	if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.path == layeringModule }) {
		t.Fatalf("go list ./... did not list the root package %s", layeringModule)
	}

	checked := 0
	for _, p := range pkgs {
		rel, ok := layeringRel(p.path)
		if !ok {
			t.Errorf("package %s is outside layeringModule %s", p.path, layeringModule)
			continue
		}
		rule, ok := layeringRuleFor(rel)
		if !ok {
			if p.nonTest {
				t.Errorf("package %s has no layering rule: add it to layeringRules in layering_test.go and to docs/ARCHITECTURE.md", p.path)
			} else {
				t.Logf("package %s has only test files; not checked", p.path)
			}
			continue
		}
		var bad []string
		for _, dep := range p.deps {
			if dep != p.path && !rule.allows(rel, dep) {
				bad = append(bad, dep)
			}
		}
		sort.Strings(bad)
		for _, dep := range bad {
			t.Errorf("%s depends on %s, which docs/ARCHITECTURE.md does not allow (see `go list -deps %s`)", p.path, dep, p.path)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no package checked")
	}
}

// TestLayeringRules checks the rule matcher itself on a few cases, so a broken matcher cannot
// make TestLayering pass vacuously.
func TestLayeringRules(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"frontend", "strings", true},
		{"frontend", layeringModule + "/ssa", false},
		{"frontend", "github.com/stretchr/testify/require", false},
		{"ssa", layeringModule + "/frontend", true},
		{"ssa", layeringModule + "/runtime", false},
		{"runtime", layeringModule + "/frontend", false},
		{"runtime", "golang.org/x/sys/unix", false},
		{"codegen/closure", layeringModule + "/frontend", true},
		{"codegen/closure", layeringModule + "/ssa", true},
		{"codegen/closure", layeringModule, false},
		{"codegen/reference", layeringModule + "/ssa", true},
		{"codegen/reference", layeringModule + "/runtime/isa", true},
		{"codegen/reference", layeringModule + "/codegen/closure", false},
		{"", layeringModule + "/codegen/closure", true},
		{"", layeringModule + "/cmd/ptx2go", false},
		{"", "github.com/sbinet/npyio/npy", false},
		{"cmd/ptx2go", "github.com/sbinet/npyio/npy", true},
		{"cmd/ptx2go", layeringModule, true},
		{"generated/vecadd", layeringModule + "/runtime", true},
		{"generated/vecadd", layeringModule + "/ssa", false},
		{"internal/e2e/gocorpus/o0_vecadd", layeringModule + "/runtime", true},
		{"internal/e2e/gocorpus/o0_vecadd", layeringModule + "/codegen/closure", false},
		{"internal/e2e/gocorpus", layeringModule + "/internal/e2e/gocorpus/o0_vecadd", true},
		{"internal/e2e/gocorpus", layeringModule + "/generated/vecadd", true},
		{"internal/e2e/gocorpus", layeringModule + "/codegen/gosrc", false},
		{"internal/e2e/harness", layeringModule + "/codegen/reference", true},
		{"internal/e2e/harness", layeringModule + "/cmd/ptx2go", false},
	} {
		rule, ok := layeringRuleFor(c.pkg)
		if !ok {
			t.Errorf("no rule for %q", c.pkg)
			continue
		}
		if got := rule.allows(c.pkg, c.dep); got != c.ok {
			t.Errorf("%q importing %s: allowed = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
}
