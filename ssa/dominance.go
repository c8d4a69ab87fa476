package ssa

import "slices"

// computeDominance fills Idom and Ipdom for every block and the reconvergence block of every
// potentially divergent terminator. Post-dominators are dominators of the reversed CFG rooted at
// the virtual exit; a block caught in a loop with no way out gets an extra edge to the exit (the
// latest such block in reverse postorder, typically the loop's latch), so every block has an
// immediate post-dominator.
func computeDominance(fn *Function) {
	n := len(fn.Blocks) + 1 // the virtual exit is node len(fn.Blocks)
	exit := len(fn.Blocks)
	node := func(i int) *Block {
		if i == exit {
			return fn.Exit
		}
		return fn.Blocks[i]
	}
	edges := 0
	for i := range n {
		edges += len(node(i).Succs) + len(node(i).Preds)
	}
	// The adjacency lists share one array; each has its capacity clipped, so adding an exit edge
	// below copies the list rather than overwriting its neighbour.
	flat := make([]int, 0, edges)
	ids := func(bs []*Block) []int {
		start := len(flat)
		for _, b := range bs {
			flat = append(flat, b.ID)
		}
		return flat[start:len(flat):len(flat)]
	}
	succs := make([][]int, n)
	preds := make([][]int, n)
	for i := range n {
		succs[i] = ids(node(i).Succs)
		preds[i] = ids(node(i).Preds)
	}
	idom := Dominators(Graph{N: n, Root: 0, Succs: func(i int) []int { return succs[i] }, Preds: func(i int) []int { return preds[i] }})
	for i, d := range idom {
		if d >= 0 && d != i {
			node(i).Idom = node(d)
		}
	}

	// Extra exit edges for blocks that cannot reach the exit.
	var order []*Block // made when a first block turns out stuck
	for {
		reaches := reachesExit(n, exit, preds)
		if !slices.Contains(reaches, false) {
			break
		}
		if order == nil {
			order, _ = blockOrder(fn)
		}
		var stuck *Block
		for _, b := range order {
			if !reaches[b.ID] {
				stuck = b
			}
		}
		succs[stuck.ID] = append(succs[stuck.ID], exit)
		preds[exit] = append(preds[exit], stuck.ID)
	}
	ipdom := Dominators(Reverse(Graph{N: n, Root: 0, Succs: func(i int) []int { return succs[i] }, Preds: func(i int) []int { return preds[i] }}, exit))
	for i, d := range ipdom {
		if i != exit && d >= 0 {
			node(i).Ipdom = node(d)
		}
	}
	for _, b := range fn.Blocks {
		if mayDiverge(&b.Term) {
			b.Term.Reconv = b.Ipdom
		}
	}
}

// reachesExit marks the nodes from which the exit node can be reached.
func reachesExit(n, exit int, preds [][]int) []bool {
	seen := make([]bool, n)
	seen[exit] = true
	stack := []int{exit}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range preds[x] {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return seen
}

// mayDiverge reports whether lanes can take different paths at a terminator: a conditional
// branch, brx.idx, or a guarded or indirect call.
func mayDiverge(t *Terminator) bool {
	switch t.Kind {
	case TermBranch:
		return true
	case TermBrx:
		return true
	case TermCall:
		return t.Call.Guard != nil || (t.Call.Target != nil && len(possibleTargets(t.Call)) != 1)
	}
	return false
}

// possibleTargets lists the functions an indirect call may reach, or nil when only a prototype
// is known (any function matching it).
func possibleTargets(c *Call) []*Function {
	if c.Direct != nil {
		return []*Function{c.Direct}
	}
	return c.Targets
}
