package corpus_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// TestGeneratedModulesListed checks that every module of testdata/ptx has a generated package
// or repeats, byte for byte, one that has (but gencorpus's exclusions), so that no module goes
// untested on the Go source engine.
func TestGeneratedModulesListed(t *testing.T) {
	harness.RequireCorpus(t)
	var missing []string
	err := filepath.WalkDir(filepath.Join("testdata", "ptx"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ptx") {
			return err
		}
		if _, ok := gocorpus.Lookup(p); ok {
			return nil
		}
		if _, ok := gocorpus.Excluded(p); ok {
			return nil
		}
		if orig, ok := gocorpus.DuplicateOf(p); ok {
			require.Equal(t, harness.ReadFile(t, filepath.Join("testdata", "ptx", orig+".ptx")), harness.ReadFile(t, p), "%s stands for %s", p, orig)
			return nil
		}
		missing = append(missing, p)
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, missing, "modules without a generated package: run make gocorpus")
}

// TestGeneratedLayout checks that every generated module has the block layout the closure
// engine builds from the same PTX (both follow codegen/layout): per function the same blocks,
// each starting at the same line, counting the same PTX instructions and ending in the same
// terminator (kind, successors, reconvergence point, branch predicate, line), with the same
// rendezvous before each warp-level synchronization (membermask register or constant, guard,
// kind). The SIMT stack, the rendezvous under independent thread scheduling and the faults
// that name blocks therefore behave alike on both engines.
func TestGeneratedLayout(t *testing.T) {
	harness.RequireCorpus(t)
	for _, name := range gocorpus.Paths() {
		rt, _ := gocorpus.Lookup(name)
		t.Run(name, func(t *testing.T) {
			closure, err := ptx2go.CompileFile(filepath.Join("testdata", "ptx", name+".ptx"))
			require.NoError(t, err)
			crt := closure.Runtime()
			require.Len(t, rt.Funcs, len(crt.Funcs))
			for i, gf := range rt.Funcs {
				cf := crt.Funcs[i]
				require.Equal(t, cf.Name, gf.Name)
				require.Equal(t, cf.Exit, gf.Exit, cf.Name)
				require.Len(t, gf.Blocks, len(cf.Blocks), cf.Name)
				for b := range cf.Blocks {
					cb, gb := &cf.Blocks[b], &gf.Blocks[b]
					where := fmt.Sprintf("%s block %d", cf.Name, b)
					require.Equal(t, cb.Loc, gb.Loc, where)
					require.Equal(t, cb.PTXInstrs, gb.PTXInstrs, where)
					ct, gt := cb.Term, gb.Term
					require.Equal(t, ct.WarpSync == nil, gt.WarpSync == nil, where)
					if ct.WarpSync != nil {
						cw, gw := *ct.WarpSync, *gt.WarpSync
						require.Equal(t, constOrReg(cf, cw.Mask), constOrReg(gf, gw.Mask), where+": membermask")
						cw.Mask, gw.Mask = 0, 0
						require.Equal(t, cw, gw, where)
					}
					ct.WarpSync, gt.WarpSync, ct.Barrier, gt.Barrier, ct.Call, gt.Call = nil, nil, nil, nil, nil, nil
					require.Equal(t, ct, gt, where)
				}
			}
		})
	}
}

// constOrReg describes register slot s of f: the constant it holds in every lane, or the slot.
func constOrReg(f *runtime.Func, s int) string {
	for _, c := range f.Consts {
		if c.Reg == s {
			return fmt.Sprintf("constant %#x", c.Value)
		}
	}
	return fmt.Sprintf("register %d", s)
}
