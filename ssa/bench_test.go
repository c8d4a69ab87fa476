package ssa

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptx2go/ptx2go/frontend"
)

// largeModuleText builds one valid module of at least minBytes from copies of the clang corpus,
// renaming every module-level symbol of copy i with a suffix so the copies do not collide.
func largeModuleText(tb testing.TB, minBytes int) string {
	files, err := filepath.Glob("../testdata/ptx/*.ptx")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpus: %v", err)
	}
	o0, _ := filepath.Glob("../testdata/ptx/O0/*.ptx")
	files = append(files, o0...)
	big := &frontend.Module{Version: frontend.Version{Major: 8}, Target: frontend.Target{Names: []string{"sm_80"}}, AddressSize: 64}
	size := 0
	for copyNo := 0; size < minBytes; copyNo++ {
		for fileNo, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			m, err := frontend.Parse(path, src)
			if err != nil {
				tb.Fatal(err)
			}
			renameSymbols(m, fmt.Sprintf("_c%d_%d", copyNo, fileNo))
			big.Items = append(big.Items, m.Items...)
			size += len(src)
		}
	}
	return frontend.Format(big)
}

// renameSymbols appends suffix to every module-level name and to every reference to one.
func renameSymbols(m *frontend.Module, suffix string) {
	names := map[string]bool{}
	for _, it := range m.Items {
		switch it := it.(type) {
		case *frontend.Function:
			names[it.Name] = true
		case *frontend.VarDecl:
			for _, d := range it.Names {
				names[d.Name] = true
			}
		}
	}
	rename := func(s *string) {
		if names[*s] {
			*s += suffix
		}
	}
	var renameInit func(frontend.Init)
	renameInit = func(in frontend.Init) {
		switch in := in.(type) {
		case *frontend.SymRef:
			rename(&in.Name)
		case *frontend.GenericRef:
			rename(&in.Name)
		case *frontend.InitList:
			for _, e := range in.Elems {
				renameInit(e)
			}
		}
	}
	var renameOperand func(frontend.Operand)
	renameOperand = func(o frontend.Operand) {
		switch o := o.(type) {
		case *frontend.Ident:
			rename(&o.Name)
		case *frontend.SymRef:
			rename(&o.Name)
		case *frontend.Address:
			rename(&o.Base)
		case *frontend.VectorOp:
			for _, e := range o.Elems {
				renameOperand(e)
			}
		case *frontend.ListOp:
			for _, e := range o.Elems {
				renameOperand(e)
			}
		}
	}
	var renameBlock func(*frontend.Block)
	renameBlock = func(b *frontend.Block) {
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *frontend.Block:
				renameBlock(st)
			case *frontend.Instruction:
				for _, o := range st.Operands {
					renameOperand(o)
				}
			case *frontend.CallTargets:
				for _, f := range st.Funcs {
					rename(&f.Name)
				}
			case *frontend.VarDecl:
				for _, d := range st.Names {
					if d.Init != nil {
						renameInit(d.Init)
					}
				}
			}
		}
	}
	for _, it := range m.Items {
		switch it := it.(type) {
		case *frontend.Function:
			rename(&it.Name)
			if it.Body != nil {
				renameBlock(it.Body)
			}
		case *frontend.VarDecl:
			for _, d := range it.Names {
				rename(&d.Name)
				if d.Init != nil {
					renameInit(d.Init)
				}
			}
		}
	}
}

// BenchmarkBuild runs the whole pipeline, parse then SSA construction, dominance, uniformity,
// call graph and verification, on a module of at least 5 MB.
func BenchmarkBuild(b *testing.B) {
	src := largeModuleText(b, 5<<20)
	check := func() {
		m, err := frontend.ParseString("large.ptx", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build(m); err != nil {
			b.Fatal(err)
		}
	}
	check()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		check()
	}
}

func TestLargeModuleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1 MB module")
	}
	src := largeModuleText(t, 1<<20)
	m, err := frontend.ParseString("large.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
}
