package closure

import (
	"os"
	"testing"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// TestLaneOpsCompiled checks that the per-lane forms of the test kernels (lane_ops.ptx,
// lane_fused.ptx, recursion.ptx, lane_fallbacks.ptx), which the tests run against Go
// references and the SIMT stack, have every op of lanefuse.go between them, so that each op
// is tested; and that the comparisons meant to be fused with their branches are.
func TestLaneOpsCompiled(t *testing.T) {
	seen := map[laneCode]bool{}
	forms := map[string]*laneFn{}
	for _, name := range []string{"lane_ops", "lane_fused", "recursion", "lane_fallbacks"} {
		path := "../../testdata/ptx/" + name + ".ptx"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ast, err := frontend.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := ssa.Build(ast)
		if err != nil {
			t.Fatal(err)
		}
		c := &compiler{}
		c.Module = layout.New(prog, c.errorf)
		c.laneFuncs = layout.LaneFuncs(prog)
		for _, fn := range prog.Funcs {
			if !fn.Decl {
				c.function(fn)
			}
		}
		if len(c.errs) > 0 {
			t.Fatal(c.errs)
		}
		for _, lf := range c.laneForms {
			forms[lf.rf.Name] = lf
			for _, op := range lf.code {
				seen[op.code] = true
			}
		}
	}
	for code := laneClosure; code <= laneFault; code++ {
		if !seen[code] {
			t.Errorf("no form has op %d", code)
		}
	}
	// branches has 27 comparisons of every kind fused with their branches, 1 moved past
	// ops to its branch, 2 around the loop; 3 kept apart from their branches.
	count := map[laneCode]int{}
	for _, op := range forms["branches"].code {
		count[op.code]++
	}
	fused := 0
	for _, code := range setpBranch {
		fused += count[code]
	}
	if fused != 27+1+2 || count[laneBranch] != 3 {
		t.Errorf("branches: %d fused comparisons and %d plain branches, want 30 and 3", fused, count[laneBranch])
	}
}
