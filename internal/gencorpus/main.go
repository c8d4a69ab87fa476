// Command gencorpus writes the Go source engine's packages for the PTX test corpus: for every
// module under testdata/ptx, the package `ptx2go generate` makes of it. A few representative
// modules (curated below) go to generated/, which is checked in so that users can read and
// `go test` what the generator makes; every other module goes to internal/e2e/gocorpus/PKG,
// which is not checked in and is written before the tests run (`make gocorpus`, which `make
// test` runs). It also writes internal/e2e/gocorpus/modules_gen.go, the one list of generated
// modules: the end-to-end harness finds each module's generated package there by its PTX path.
//
//	go run ./internal/gencorpus [-root DIR]
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/imports"

	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// curated are the modules whose packages are checked in under generated/, by PTX path under
// testdata/ptx without .ptx: one of each kind of kernel a reader of generated code looks for.
var curated = []string{
	"vecadd",           // the smallest kernel
	"reduce_shared",    // shared memory and bar.sync in a loop
	"matmul_2d",        // tiled matrix multiply
	"atomics",          // integer and float atomics, CAS loops (the race detector's launches)
	"recursion",        // device calls and recursion
	"funcptr",          // indirect calls through function pointers
	"warp_ops",         // shuffles, votes and warp reductions
	"device_printf",    // device-side printf
	"nvcc/wmma_shapes", // tensor-core mma through nvcc's WMMA (m32n8k16, m8n32k16)
	// Legacy PTX with 32-bit pointers and no .address_size: its typed launch function checks
	// that a pointer argument fits (TestLegacyPointerAbove4GiB).
	"hand/legacy_sm20",
}

// excluded are the corpus modules the Go source back end cannot compile, with the reason.
var excluded = map[string]string{
	"gcc/omp_saxpy": "calls libgomp functions that have no body in the module",
}

// modulePath is the import path of the ptx2go module.
const modulePath = "github.com/ptx2go/ptx2go"

// corpusDir is where the packages that are not checked in go, relative to the root.
const corpusDir = "internal/e2e/gocorpus"

// module is one PTX file of the corpus and where its package goes.
type module struct {
	path    string // under testdata/ptx, without .ptx, with slashes: "O0/vecadd"
	pkg     string // package name: the path lowercased, / made _: "o0_vecadd"
	dir     string // package directory relative to the root
	src     []byte
	aliasOf string // the path of an earlier module with the same bytes, which stands for it
}

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	mods, err := collect(root)
	if err != nil {
		return err
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		work = make(chan *module)
	)
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			for m := range work {
				if err := write(root, m); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, m := range mods {
		if m.aliasOf == "" {
			work <- m
		}
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
		return fmt.Errorf("%d modules failed:\n%v", len(errs), errs)
	}
	if err := prune(root, mods); err != nil {
		return err
	}
	return writeRegistry(root, mods)
}

// collect lists the corpus modules in path order, each marked with the earlier module whose
// bytes it repeats (clang's -ffp-contract=fast output equals its -O2 output today). A
// duplicate gets no package: its Go source would differ from the other's only in the file
// name that positions carry, and its tests would be the other's.
func collect(root string) ([]*module, error) {
	base := filepath.Join(root, "testdata", "ptx")
	var mods []*module
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ptx") {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		path := filepath.ToSlash(strings.TrimSuffix(rel, ".ptx"))
		if _, ok := excluded[path]; ok {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pkg := strings.ToLower(strings.ReplaceAll(path, "/", "_"))
		dir := filepath.Join(corpusDir, pkg)
		if slices.Contains(curated, path) {
			dir = filepath.Join("generated", pkg)
		}
		mods = append(mods, &module{path: path, pkg: pkg, dir: dir, src: src})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range curated {
		if !slices.ContainsFunc(mods, func(m *module) bool { return m.path == c }) {
			return nil, fmt.Errorf("curated module %s: no testdata/ptx/%s.ptx", c, c)
		}
	}
	// Curated modules and non-"fast" paths come first, so that a duplicate points at them.
	order := func(m *module) int {
		switch {
		case slices.Contains(curated, m.path):
			return 0
		case strings.HasPrefix(m.path, "fast/"):
			return 2
		}
		return 1
	}
	sort.SliceStable(mods, func(i, j int) bool { return order(mods[i]) < order(mods[j]) })
	first := map[[32]byte]string{}
	pkgs := map[string]string{}
	for _, m := range mods {
		if prev, ok := pkgs[m.pkg]; ok {
			return nil, fmt.Errorf("%s and %s would share package %s", prev, m.path, m.pkg)
		}
		pkgs[m.pkg] = m.path
		h := sha256.Sum256(m.src)
		if p, ok := first[h]; ok {
			m.aliasOf = p
			continue
		}
		first[h] = m.path
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].path < mods[j].path })
	return mods, nil
}

// write writes m's package: PKG.go as `ptx2go generate -pkg PKG` writes it and, for a module
// compiled from a CUDA source of testdata/cuda, PKG_test.go running its kernel cases. A corpus
// package whose stamp (the PTX and this program) is unchanged is left alone.
func write(root string, m *module) error {
	dir := filepath.Join(root, m.dir)
	stamp := stampOf(m)
	curatedPkg := strings.HasPrefix(m.dir, "generated")
	if !curatedPkg {
		if old, err := os.ReadFile(filepath.Join(dir, ".stamp")); err == nil && string(old) == stamp {
			return nil
		}
	}
	file := filepath.Join("testdata", "ptx", filepath.FromSlash(m.path)+".ptx")
	ast, err := frontend.Parse(file, m.src)
	if err != nil {
		return err
	}
	prog, err := ssa.Build(ast)
	if err != nil {
		return err
	}
	src, err := gosrc.Generate(prog, gosrc.Options{Package: m.pkg})
	if err == nil {
		src, err = imports.Process(m.pkg+".go", src, &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: true})
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, m.pkg+".go"), src, 0o644); err != nil {
		return err
	}
	if fromCUDA(root, m.path) {
		test := fmt.Sprintf(`// Code generated by gencorpus. DO NOT EDIT.

package %[1]s_test

import (
	"testing"

	"%[2]s/%[3]s"
	"%[2]s/testdata/kernelcases"
)

// TestKernels runs the kernel cases of testdata/ptx/%[4]s.ptx on this package and on the closure engine.
func TestKernels(t *testing.T) { kernelcases.RunGenerated(t, %[1]s.Module) }
`, m.pkg, modulePath, filepath.ToSlash(m.dir), m.path)
		if err := os.WriteFile(filepath.Join(dir, m.pkg+"_test.go"), []byte(test), 0o644); err != nil {
			return err
		}
	}
	if curatedPkg {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, ".stamp"), []byte(stamp), 0o644)
}

// fromCUDA reports whether the module at path is a compilation of a testdata/cuda source
// (clang -O2, -O0, -ffp-contract=fast or nvcc), whose kernels have cases in testdata/kernelcases.
func fromCUDA(root, path string) bool {
	dir, base, ok := strings.Cut(path, "/")
	if !ok {
		dir, base = "", path
	}
	switch dir {
	case "", "O0", "fast", "nvcc":
	default:
		return false
	}
	for _, cu := range []string{"testdata/cuda/" + base + ".cu", "testdata/cuda/nvcc/" + base + ".cu"} {
		if _, err := os.Stat(filepath.Join(root, cu)); err == nil {
			return true
		}
	}
	return false
}

// stampOf identifies what m's package is made from: its PTX and this program's binary.
func stampOf(m *module) string {
	h := sha256.New()
	h.Write(m.src)
	h.Write(selfHash())
	return hex.EncodeToString(h.Sum(nil))
}

// selfHash is the SHA-256 of this program's binary, which holds the back end that generates.
var selfHash = sync.OnceValue(func() []byte {
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if b, err := os.ReadFile(exe); err == nil {
			h.Write(b)
		}
	}
	return h.Sum(nil)
})

// prune removes the package directories under generated/ and the corpus directory that no
// module makes any more.
func prune(root string, mods []*module) error {
	want := map[string]bool{}
	for _, m := range mods {
		if m.aliasOf == "" {
			want[filepath.Clean(m.dir)] = true
		}
	}
	for _, d := range []string{"generated", corpusDir} {
		entries, err := os.ReadDir(filepath.Join(root, d))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if p := filepath.Join(d, e.Name()); e.IsDir() && !want[p] {
				if err := os.RemoveAll(filepath.Join(root, p)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// writeRegistry writes modules_gen.go: every module's generated Module by its PTX path, each
// duplicate module's path with the path of the module whose bytes it repeats, and the
// excluded modules with the reason.
func writeRegistry(root string, mods []*module) error {
	var b bytes.Buffer
	b.WriteString("// Code generated by gencorpus. DO NOT EDIT.\n\npackage gocorpus\n\nimport (\n")
	fmt.Fprintf(&b, "\t%q\n", modulePath+"/runtime")
	for _, m := range mods {
		if m.aliasOf == "" {
			fmt.Fprintf(&b, "\t%q\n", modulePath+"/"+filepath.ToSlash(m.dir))
		}
	}
	b.WriteString(")\n\nfunc init() {\n\tmodules = map[string]*runtime.Module{\n")
	for _, m := range mods {
		if m.aliasOf == "" {
			fmt.Fprintf(&b, "\t\t%q: %s.Module,\n", m.path, m.pkg)
		}
	}
	b.WriteString("\t}\n\tduplicates = map[string]string{\n")
	for _, m := range mods {
		if m.aliasOf != "" {
			fmt.Fprintf(&b, "\t\t%q: %q,\n", m.path, m.aliasOf)
		}
	}
	b.WriteString("\t}\n\texcluded = map[string]string{\n")
	for _, path := range slices.Sorted(maps.Keys(excluded)) {
		fmt.Fprintf(&b, "\t\t%q: %q,\n", path, excluded[path])
	}
	b.WriteString("\t}\n}\n")
	src, err := imports.Process("modules_gen.go", b.Bytes(), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: true})
	if err != nil {
		return fmt.Errorf("modules_gen.go: %w", err)
	}
	return os.WriteFile(filepath.Join(root, corpusDir, "modules_gen.go"), src, 0o644)
}
