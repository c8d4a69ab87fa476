package gosrc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

func build(t *testing.T, path string) *ssa.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ast, err := frontend.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ssa.Build(ast)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCorpus generates every module of the test corpus twice: generation either succeeds,
// deterministically, or fails with positioned errors.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/ptx/*.ptx")
	for _, f := range files {
		p := build(t, f)
		out, err := gosrc.Generate(p, gosrc.Options{})
		if err != nil {
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		again, _ := gosrc.Generate(build(t, f), gosrc.Options{})
		if string(out) != string(again) {
			t.Errorf("%s: generation is not deterministic", f)
		}
		if os.Getenv("GOSRC_DUMP") != "" {
			os.WriteFile(filepath.Join(os.Getenv("GOSRC_DUMP"), filepath.Base(f)+".go"), out, 0o644)
		}
		t.Logf("%s: ok, %d bytes", filepath.Base(f), len(out))
	}
}

// TestChunkedLaneLoops checks that a full warp runs fma_chain's chain of dependent f32
// operations as several lane loops passing the float values and the predicate between them
// through arrays (chunks.go; TestFMAChain in the root package runs it).
func TestChunkedLaneLoops(t *testing.T) {
	out, err := gosrc.Generate(build(t, "../../testdata/ptx/hand/fma_chain.ptx"), gosrc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[32]float32", "[32]bool"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated code has no %s array passing values between chunks", want)
		}
	}
}

// TestHoistedProduct checks that vecadd's lane loop multiplies %ctaid.x by %ntid.x once per
// warp, before the loop, and adds %tid.x to the product in it.
func TestHoistedProduct(t *testing.T) {
	out, err := gosrc.Generate(build(t, "../../testdata/ptx/vecadd.ptx"), gosrc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := string(out)
	for _, want := range []string{"h6 := uint32(u2) * uint32(u3)", "v5 := uint64(uint32(h6 + uint32(v4)))"} {
		if !strings.Contains(src, want) {
			t.Errorf("generated vecadd has no %q", want)
		}
	}
}
