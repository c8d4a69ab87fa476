package gosrc

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Per-lane regions. After a divergent branch, the SIMT stack runs the lanes' paths one after
// the other until they meet at the branch's reconvergence point. When every block a lane can
// reach before that point holds only register arithmetic (no memory, no warp-level
// instruction, no call, barrier, exit or ret), the lanes cannot see each other there, so the
// order in which their instructions run is invisible: the region's code runs each lane on its
// own from the branch to the reconvergence point, with its registers in Go locals and the
// region's blocks joined by goto, instead of the warp going through the SIMT stack for each
// branch and loop iteration (a divergent loop such as Collatz's). The lanes end where the
// stack would have put them, all at the reconvergence point, with the same registers and
// predicates. The warp's time slice is charged the most loop iterations a lane ran. A lane
// still inside after regionCap iterations (a loop that may never end) stops there, and the runtime continues it on the SIMT stack (runtime.Warp.Split), so timeouts
// and cancellation work as usual. Launches that collect statistics do not use regions.

// regionCap is how many times one lane passes a loop head of a region (the target of a
// back edge) before the runtime takes it over.
const regionCap = 1 << 16

// maxRegionBlocks and maxRegionInstrs bound the size of a region, and so the code generated
// twice (once per warp, once per lane).
const (
	maxRegionBlocks = 16
	maxRegionInstrs = 200
)

// region finds the per-lane region that the divergent branch ending block i starts: the
// blocks reachable from its targets before its reconvergence point. It returns them in
// order, or nil when the branch does not start one.
func (f *fnGen) region(i int) []int {
	t := f.blocks[i].rt
	if t.Kind != runtime.TermBranch || t.Uniform || t.Reconv < 0 || t.Reconv >= f.Exit || f.leaves(t.Reconv) {
		return nil
	}
	seen := map[int32]bool{}
	var list []int
	work := []int32{t.Succ, t.Alt}
	instrs := 0
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if pc == t.Reconv || seen[pc] {
			continue
		}
		if pc >= f.Exit || len(list) == maxRegionBlocks {
			return nil
		}
		seen[pc] = true
		b := &f.blocks[pc]
		switch b.rt.Kind {
		case runtime.TermJump:
			work = append(work, b.rt.Succ)
		case runtime.TermBranch:
			work = append(work, b.rt.Succ, b.rt.Alt)
		default:
			return nil
		}
		for _, in := range b.instrs {
			if !laneLocal(in) && in.Op != frontend.OpMembar && in.Op != frontend.OpFence {
				return nil
			}
		}
		instrs += len(b.instrs)
		if instrs > maxRegionInstrs {
			return nil
		}
		list = append(list, int(pc))
	}
	slices.Sort(list)
	return list
}

// leaves reports whether a thread at block pc has nothing left but the end of the function,
// as runtime.Func's leaves: the exit, or a block without code whose successors all leave.
func (f *fnGen) leaves(pc int32) bool {
	set := make([]bool, len(f.blocks))
	set[f.Exit] = true
	for changed := true; changed; {
		changed = false
		for i, b := range f.blocks {
			if set[i] || b.instrs != nil {
				continue
			}
			ok := false
			switch b.rt.Kind {
			case runtime.TermExit:
				ok = true
			case runtime.TermJump:
				ok = set[b.rt.Succ]
			case runtime.TermBranch:
				ok = set[b.rt.Succ] && set[b.rt.Alt]
			}
			if ok {
				set[i], changed = true, true
			}
		}
	}
	return set[pc]
}

// regionPlan picks, for each block ending in a branch, the per-lane regions its lanes may run
// when they split there: the regions that contain the block or start at it, largest first
// (a divergent branch inside a loop whose exit is divergent too runs the rest of the loop
// per lane), at most two. It generates the functions of the regions used.
type regionUse struct {
	fn     string // the region's function
	blocks []int  // its blocks
}

func (f *fnGen) regionPlan() map[int][]regionUse {
	if f.g.check {
		return nil // the check hooks read the register file (Options.Check)
	}
	roots := map[int][]int{}
	var order []int
	for j, b := range f.blocks {
		if b.rt.Kind == runtime.TermBranch {
			if r := f.region(j); r != nil {
				roots[j] = r
				order = append(order, j)
			}
		}
	}
	cands := map[int][]int{}
	from := map[int][]int{}
	for i, b := range f.blocks {
		if b.rt.Kind != runtime.TermBranch {
			continue
		}
		var cs []int
		for _, j := range order {
			if j == i || slices.Contains(roots[j], i) {
				cs = append(cs, j)
			}
		}
		slices.SortStableFunc(cs, func(a, b int) int { return len(roots[b]) - len(roots[a]) })
		if len(cs) > 2 {
			cs = cs[:2]
		}
		cands[i] = cs
		for _, j := range cs {
			from[j] = append(from[j], i)
		}
	}
	names := map[int]string{}
	for _, j := range order {
		if len(from[j]) > 0 {
			names[j] = f.regionFunc(j, roots[j], from[j])
		}
	}
	plan := map[int][]regionUse{}
	for i, cs := range cands {
		for _, j := range cs {
			if names[j] != "" {
				plan[i] = append(plan[i], regionUse{fn: names[j], blocks: roots[j]})
			}
		}
	}
	return plan
}

// regionFunc generates the function of the region of the divergent branch ending block j,
// whose lanes may start at the branches ending the blocks from, or returns "" when the
// region's code cannot be generated. The function runs it for each lane of m, calls
// runtime.Warp.Split and returns the most loop iterations a lane ran.
func (f *fnGen) regionFunc(j int, blocks []int, from []int) string {
	t := f.blocks[j].rt
	e := &blockEmit{f: f, regs: map[int]bool{}, imms: map[uint64]string{}, uni: map[int]string{}, local: map[*ssa.Instr]bool{},
		read: map[string]bool{}, lane: true, written: map[int]bool{}}
	preds, wpreds, tids := map[int]bool{}, map[int]bool{}, map[int]bool{}
	label := func(pc int32) string {
		if pc == t.Reconv {
			return "done"
		}
		return fmt.Sprintf("b%d", pc)
	}
	// branch goes to the block a lane takes at a branch on predicate p.
	branch := func(p int, neg bool, succ, alt int32) []jen.Code {
		preds[p] = true
		cond := jen.Id(laneBool(p))
		if neg {
			cond = jen.Op("!").Add(cond)
		}
		return []jen.Code{jen.If(cond).Block(jen.Goto().Id(label(succ))), jen.Goto().Id(label(alt))}
	}
	// Only the targets of back edges of a depth-first walk from the branch count: every
	// loop has one, so a lane that stays in the region passes one again and again.
	_, back := f.walkBlocks(t.Reconv, t.Succ, t.Alt)
	// park is where a lane stops after regionCap passes: it writes back what the runtime,
	// going on at pc, may read besides what every lane writes back at the end.
	type park struct {
		pc int32
		wb *jen.Statement
	}
	var parks []park
	var code []jen.Code
	errs := len(f.g.errs)
	for _, pc := range blocks {
		b := &f.blocks[pc]
		var body []jen.Code
		if back[int32(pc)] {
			wb := jen.Null()
			parks = append(parks, park{int32(pc), wb})
			body = append(body,
				jen.If(jen.Id("n").Op("==").Lit(regionCap)).Block(
					jen.Id("parked").Op("|=").Lit(1).Op("<<").Id("l"),
					jen.Id("at").Index(jen.Id("l")).Op("=").Lit(pc),
					wb,
					jen.Goto().Id("done")),
				jen.Id("n").Op("++"))
		}
		if len(b.instrs) > 0 {
			e.seg = newSegment(&f.g.nwin)
			for _, in := range b.instrs {
				e.instr(in)
			}
			s := e.seg
			e.seg = nil
			if e.bad || s == nil || s.mem != segNoMem {
				f.g.errs = f.g.errs[:errs]
				return ""
			}
			body = append(body, s.body...)
			for p := range s.preds {
				preds[p] = true
			}
			for p := range s.wpreds {
				wpreds[p] = true
			}
			for x := range s.tid {
				tids[x] = true
			}
		}
		switch b.rt.Kind {
		case runtime.TermJump:
			body = append(body, jen.Goto().Id(label(b.rt.Succ)))
		case runtime.TermBranch:
			body = append(body, branch(b.rt.Pred, b.rt.Negate, b.rt.Succ, b.rt.Alt)...)
		}
		code = append(code, jen.Id(label(int32(pc))).Op(":").Block(body...))
	}
	name := f.g.names.unique(fmt.Sprintf("%sRegion%d", f.ident[:len(f.ident)-len("Func")], j))
	if !slices.Contains(from, j) {
		from = append([]int{j}, from...) // every block of the region is reached from j's branch
	}
	var starts []jen.Code
	for _, i := range from {
		b := f.blocks[i].rt
		starts = append(starts, jen.Case(jen.Lit(i)).Block(branch(b.Pred, b.Negate, b.Succ, b.Alt)...))
	}
	var top, lane, store []jen.Code
	// writeBack returns the write-backs of the written slots in need (all where need is nil)
	// and not in skip.
	writeBack := func(need, skip map[slotKey]bool) []jen.Code {
		var out []jen.Code
		for _, s := range sortedKeys(e.written) {
			if k := (slotKey{false, s}); (need == nil || need[k]) && !skip[k] {
				out = append(out, jen.Id("w").Dot("Reg").Call(jen.Lit(s)).Index(jen.Id("l")).Op("=").Id(fmt.Sprintf("x%d", s)))
			}
		}
		for _, p := range sortedKeys(wpreds) {
			if k := (slotKey{true, p}); (need == nil || need[k]) && !skip[k] {
				wp := jen.Id("w").Dot("P").Index(jen.Lit(p))
				out = append(out, jen.If(jen.Id(laneBool(p))).Block(jen.Add(wp).Op("|=").Lit(1).Op("<<").Id("l")).
					Else().Block(jen.Add(wp).Op("&^=").Lit(1).Op("<<").Id("l")))
			}
		}
		return out
	}
	atEnd := f.neededAt(t.Reconv)
	store = writeBack(atEnd, nil)
	for _, pk := range parks {
		if atEnd == nil {
			continue // every lane writes back everything at the end
		}
		if wb := writeBack(f.neededAt(pk.pc), atEnd); len(wb) > 0 {
			pk.wb.Add(jen.Block(wb...))
		}
	}
	// Registers, like predicates, are read and written through the warp (w.Reg), not through
	// locals holding their slices: those would stay live across the lanes' loops, and the
	// register pressure would push the loop's own values to the stack.
	for _, s := range sortedKeys(e.regs) {
		x := fmt.Sprintf("x%d", s)
		lane = append(lane, jen.Id(x).Op(":=").Id("w").Dot("Reg").Call(jen.Lit(s)).Index(jen.Id("l")), jen.Id("_").Op("=").Id(x))
	}
	top = append(top, e.top...)
	// A lane only touches its own bit of a predicate's mask.
	for _, p := range sortedKeys(preds) {
		lane = append(lane, jen.Id(laneBool(p)).Op(":=").Id("w").Dot("P").Index(jen.Lit(p)).Op(">>").Id("l").Op("&").Lit(1).Op("!=").Lit(0), jen.Id("_").Op("=").Id(laneBool(p)))
	}
	for _, x := range sortedKeys(tids) {
		top = append(top, jen.Id(fmt.Sprintf("tid%d", x)).Op(":=").Op("&").Id("w").Dot("Tid").Index(jen.Lit(x)))
	}
	lane = append([]jen.Code{jen.Id("l").Op(":=").Qual("math/bits", "TrailingZeros32").Call(jen.Id("mm")).Op("&").Lit(31)}, lane...)
	lane = append(lane,
		jen.Id("n").Op(":=").Lit(0),
		jen.Switch(jen.Id("from")).Block(starts...))
	lane = append(lane, code...)
	lane = append(lane, jen.Id("done").Op(":"), jen.Id("most").Op("=").Id("max").Call(jen.Id("most"), jen.Id("n")))
	lane = append(lane, store...)
	body := append(top,
		jen.Id("most").Op(":=").Lit(0),
		jen.Var().Id("parked").Uint32(),
		jen.Var().Id("at").Index(jen.Qual(rtPath, "WarpSize")).Int32(),
		jen.For(jen.Id("mm").Op(":=").Id("m"), jen.Id("mm").Op("!=").Lit(0), jen.Id("mm").Op("&=").Id("mm").Op("-").Lit(1)).Block(lane...))
	body = append(body,
		jen.Id("w").Dot("Split").Call(jen.Lit(int(t.Reconv)), jen.Id("parked"), jen.Op("&").Id("at")),
		jen.Return(jen.Id("most")))
	f.g.decls = append(f.g.decls, jen.Comment(fmt.Sprintf("%s runs blocks %s of %s %s for each lane of m on its own, from the branch ending block from (one of %s) to block %d,", name, blockList(blocks), kindName(f.Fn), f.Fn.Name, blockList(from), t.Reconv)).Line().
		Comment(fmt.Sprintf("the reconvergence point of the divergent branch of block %d (a per-lane region, region.go in codegen/gosrc).", j)).Line().
		Func().Id(name).Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("m").Uint32(), jen.Id("from").Int32()).Int().Block(body...))
	return name
}

func blockList(bs []int) string {
	s := ""
	for i, b := range bs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(b)
	}
	return s
}
