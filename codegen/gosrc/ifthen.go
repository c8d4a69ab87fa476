package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
)

// Divergent if-then(-else). When the lanes of a warp split at a branch whose sides are
// straight chains of blocks that meet at the branch's reconvergence point (the shape of
// `if (tid < n) { ... }`), the SIMT stack runs the taken side's blocks with the lanes that
// took it, then the other side's with the rest, each block an instruction at a time for its
// lanes, and then all of them from the reconvergence point. The block chain (run.go) does the
// same itself, calling each side's block functions with that side's lanes, instead of handing
// the warp back to the runtime: the warp runs the same instructions for the same lanes in the
// same order. The sides hold only code whose lanes see nothing of the SIMT stack: lane-local
// arithmetic and memory accesses, which run in lockstep either way; no warp-level
// instruction, call, barrier, exit or ret. Where only the end of the thread is left at the
// reconvergence point (`if (tid == 0) out[b] = s; return;`), the stack lets the lanes that
// go there exit before the other side runs (runtime.Warp.diverge); nothing in a side can see
// when they exit, so they exit at the end of the thread with the others.

// maxIfThenBlocks bounds the blocks of one side.
const maxIfThenBlocks = 8

// ifThen returns the sides of the divergent branch that ends block i, the taken side (Succ)
// first, each the blocks from its target up to the reconvergence point (empty when the target
// is that point); ok is false when the branch is not such an if-then(-else).
func (f *fnGen) ifThen(i int) (taken, other []int, ok bool) {
	t := f.blocks[i].rt
	if t.Kind != runtime.TermBranch || t.Uniform || t.Reconv < 0 || t.Reconv >= f.Exit {
		return nil, nil, false
	}
	side := func(pc int32) ([]int, bool) {
		var chain []int
		for pc != t.Reconv {
			if pc < 0 || pc >= f.Exit || int(pc) == i || len(chain) == maxIfThenBlocks {
				return nil, false
			}
			b := &f.blocks[pc]
			if b.rt.Kind != runtime.TermJump {
				return nil, false
			}
			for _, in := range b.instrs {
				if !ifThenInstr(in.Op) && !laneLocal(in) {
					return nil, false
				}
			}
			chain = append(chain, int(pc))
			pc = b.rt.Succ
		}
		return chain, true
	}
	taken, ok1 := side(t.Succ)
	other, ok2 := side(t.Alt)
	if !ok1 || !ok2 || len(taken)+len(other) == 0 {
		return nil, nil, false
	}
	return taken, other, true
}

// ifThenInstr reports whether an instruction that is not lane-local arithmetic may run in a
// side of an if-then: memory accesses and fences, which act for each lane of the mask.
func ifThenInstr(op frontend.Opcode) bool {
	switch op {
	case frontend.OpLd, frontend.OpLdu, frontend.OpSt, frontend.OpAtom, frontend.OpRed,
		frontend.OpMembar, frontend.OpFence:
		return true
	}
	return false
}

// ifThenCode is the block chain's code for the lanes splitting at an if-then(-else) (t is the
// lanes that take the branch): with enough of the time slice left for every block of the
// sides, it runs them as the SIMT stack would and goes on at the reconvergence point with all
// the lanes, charging one block of the slice for each; otherwise the runtime takes the branch.
// The chain then stands at the last side block run, whose jump leads there: goOn is the code
// that follows that jump.
func (f *fnGen) ifThenCode(blockFns map[int]string, taken, other []int, goOn []jen.Code) []jen.Code {
	n := len(taken) + len(other)
	var run []jen.Code
	for _, s := range []struct {
		blocks []int
		mask   jen.Code
	}{{taken, jen.Id("t")}, {other, jen.Id("m").Op("&^").Id("t")}} {
		for _, pc := range s.blocks {
			if fn, ok := blockFns[pc]; ok {
				run = append(run, jen.Id(fn).Call(jen.Id("w"), s.mask, jen.Id("budget")))
			}
		}
	}
	last := other
	if len(last) == 0 {
		last = taken
	}
	run = append(run, jen.List(jen.Id("pc"), jen.Id("budget")).Op("=").List(jen.Lit(last[len(last)-1]), jen.Id("budget").Op("-").Lit(n)))
	run = append(run, goOn...)
	// The runtime takes the branch when the slice is nearly used, and, as a guard, when the
	// running SIMT entry would end inside a side: an entry's end post-dominates the blocks it
	// runs, so in the block graphs ssa builds it lies at or after the reconvergence point.
	cond := jen.Id("budget").Op("<=").Lit(n + 1)
	for _, s := range [][]int{taken, other} {
		for _, pc := range s {
			cond = cond.Op("||").Id("stop").Op("==").Lit(pc)
		}
	}
	return append([]jen.Code{
		jen.Comment("an if-then(-else): each side's blocks run for its lanes, as on the SIMT stack (ifthen.go)"),
		jen.If(cond).Block(jen.Return(jen.Id("pc"), jen.Id("budget"))),
	}, run...)
}
