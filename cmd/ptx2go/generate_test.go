package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestGeneratedUpToDate regenerates every package under generated/ as `make generate` does
// and fails when a checked-in file differs: generated code may not be edited by hand or go
// stale when the back end changes.
func TestGeneratedUpToDate(t *testing.T) {
	t.Chdir("../..")
	dirs, err := filepath.Glob("generated/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no generated packages: %v", err)
	}
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		name := filepath.Base(dir)
		want, err := os.ReadFile(filepath.Join(dir, name+".go"))
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		srcs := generatedSources(t, name)
		if len(srcs) != 1 {
			t.Errorf("%s: want one source module, found %q", dir, srcs)
			continue
		}
		out := filepath.Join(t.TempDir(), name+".go")
		var stderr bytes.Buffer
		if code := run([]string{"generate", "-pkg", name, "-o", out, srcs[0]}, &bytes.Buffer{}, &stderr); code != exitOK {
			t.Errorf("generate %s: exit %d: %s", name, code, stderr.String())
			continue
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s/%s.go is stale: run make generate", dir, name)
		}
	}
}

// generatedSources returns the PTX files whose generated package is named pkg, as the
// Makefile names them: testdata/ptx/NAME.ptx is package NAME and testdata/ptx/DIR/NAME.ptx
// package dir_NAME with DIR lowercased (O0/vecadd is o0_vecadd). More than one is a collision.
func generatedSources(t *testing.T, pkg string) []string {
	t.Helper()
	var srcs []string
	if p := filepath.Join("testdata", "ptx", pkg+".ptx"); fileExists(p) {
		srcs = append(srcs, p)
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "ptx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		rest, ok := strings.CutPrefix(pkg, strings.ToLower(d.Name())+"_")
		if p := filepath.Join("testdata", "ptx", d.Name(), rest+".ptx"); d.IsDir() && ok && fileExists(p) {
			srcs = append(srcs, p)
		}
	}
	return srcs
}

// TestGeneratedTypeChecks loads the generated packages with go/packages and fails on any
// parse or type error.
func TestGeneratedTypeChecks(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: "../.."}
	pkgs, err := packages.Load(cfg, "./generated/...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) == 0 {
		t.Fatal("no generated packages")
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		if !strings.HasPrefix(p.PkgPath, "github.com/ptx2go/ptx2go/generated/") {
			t.Errorf("unexpected package %s", p.PkgPath)
		}
	}
}

// TestGenerateErrors checks that a module with an instruction the Go source back end does not
// handle fails with its PTX line and writes nothing. stacksave is rejected by every engine
// (docs/coverage.md's list), so the case stays an error as the back end grows.
func TestGenerateErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "stacksave.ptx")
	src := ".version 7.5\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" +
		"\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tstacksave.u64 %rd1;\n\tret;\n}\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(filepath.Dir(bad), "stacksave.go")
	if code := run([]string{"generate", "-o", out, bad}, &stdout, &stderr); code != exitFail {
		t.Fatalf("exit %d, want %d", code, exitFail)
	}
	if want := "gosrc: " + bad + ":8:2: instruction stacksave.u64 is not supported by the Go source back end yet"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr = %q, want it to contain %q", stderr.String(), want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a file was written for a failed generate: %v", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout not empty for a failed generate")
	}
	stderr.Reset()
	if code := run([]string{"generate"}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
}
