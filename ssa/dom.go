package ssa

// Graph is a directed graph over nodes 0..N-1 given by adjacency functions.
// Preds must be the exact inverse of Succs. Keeping the graph abstract lets one
// dominator routine serve both the CFG (dominators) and its reverse
// (post-dominators).
type Graph struct {
	N     int
	Root  int
	Succs func(n int) []int
	Preds func(n int) []int
}

// Reverse returns g with every edge flipped and root as the new root, so that
// post-dominators of a CFG with a single (possibly virtual) exit are
// Dominators(Reverse(cfg, exit)).
func Reverse(g Graph, root int) Graph {
	return Graph{N: g.N, Root: root, Succs: g.Preds, Preds: g.Succs}
}

// Dominators computes the immediate dominator of every node using the
// iterative algorithm of Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
// Algorithm" (Software Practice and Experience, 2001). It handles irreducible
// graphs, uses O(N+E) memory and no recursion.
//
// The result satisfies idom[g.Root] == g.Root; idom[n] is n's immediate
// dominator for every other node reachable from g.Root, and -1 for nodes that
// are unreachable (they are ignored, also as predecessors).
func Dominators(g Graph) []int {
	order, num := domPostorder(g)
	idom := make([]int, g.N)
	for i := range idom {
		idom[i] = -1
	}
	idom[g.Root] = g.Root
	for changed := true; changed; {
		changed = false
		// Reverse postorder, skipping the root, which finishes last.
		for i := len(order) - 2; i >= 0; i-- {
			n := order[i]
			newIdom := -1
			for _, p := range g.Preds(n) {
				if idom[p] == -1 {
					continue // unreachable, or not processed yet in the first pass
				}
				if newIdom == -1 {
					newIdom = p
				} else {
					newIdom = domIntersect(idom, num, p, newIdom)
				}
			}
			if idom[n] != newIdom {
				idom[n] = newIdom
				changed = true
			}
		}
	}
	return idom
}

// domIntersect returns the nearest common ancestor of a and b in the partial
// dominator tree idom, walking up by postorder number (ancestors finish later).
func domIntersect(idom, num []int, a, b int) int {
	for a != b {
		for num[a] < num[b] {
			a = idom[a]
		}
		for num[b] < num[a] {
			b = idom[b]
		}
	}
	return a
}

// domPostorder returns the nodes reachable from g.Root in DFS postorder, and each
// node's index in that order (-1 if unreachable). It uses an explicit stack so
// that long chains cannot overflow the goroutine stack.
func domPostorder(g Graph) (order, num []int) {
	const (
		unvisited = -1
		onStack   = -2
	)
	num = make([]int, g.N)
	for i := range num {
		num[i] = unvisited
	}
	type frame struct {
		n     int
		succs []int // successors not yet explored
	}
	num[g.Root] = onStack
	order = make([]int, 0, g.N)
	stack := make([]frame, 1, min(g.N, 64))
	stack[0] = frame{g.Root, g.Succs(g.Root)}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.succs) > 0 {
			s := top.succs[0]
			top.succs = top.succs[1:]
			if num[s] == unvisited {
				num[s] = onStack
				stack = append(stack, frame{s, g.Succs(s)})
			}
			continue
		}
		num[top.n] = len(order)
		order = append(order, top.n)
		stack = stack[:len(stack)-1]
	}
	return order, num
}

// DomTree is a dominator tree built from an idom slice. It answers dominance
// queries in O(1) by comparing DFS entry/exit numbers: a dominates b iff b's
// interval nests inside a's.
type DomTree struct {
	idom       []int
	childStart []int // children of n are childList[childStart[n]:childStart[n+1]]
	childList  []int
	pre, post  []int // DFS entry/exit numbers; -1 for unreachable nodes
}

// NewDomTree builds the dominator tree for idom as returned by Dominators
// with the given root.
func NewDomTree(idom []int, root int) *DomTree {
	n := len(idom)
	t := &DomTree{
		idom:       idom,
		childStart: make([]int, n+1),
		pre:        make([]int, n),
		post:       make([]int, n),
	}
	// Children in compressed (CSR) form: count, prefix-sum, then fill.
	for v, d := range idom {
		if d >= 0 && v != root {
			t.childStart[d+1]++
		}
	}
	for v := range n {
		t.childStart[v+1] += t.childStart[v]
	}
	t.childList = make([]int, t.childStart[n])
	fill := make([]int, n)
	copy(fill, t.childStart[:n])
	for v, d := range idom {
		if d >= 0 && v != root {
			t.childList[fill[d]] = v
			fill[d]++
		}
	}

	for i := range n {
		t.pre[i], t.post[i] = -1, -1
	}
	type frame struct {
		n    int
		next int // index of the next child to visit
	}
	clock := 0
	t.pre[root] = clock
	clock++
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if kids := t.Children(top.n); top.next < len(kids) {
			c := kids[top.next]
			top.next++
			t.pre[c] = clock
			clock++
			stack = append(stack, frame{c, 0})
			continue
		}
		t.post[top.n] = clock
		clock++
		stack = stack[:len(stack)-1]
	}
	return t
}

// Dominates reports whether a dominates b (reflexively). It is false if
// either node is unreachable.
func (t *DomTree) Dominates(a, b int) bool {
	return t.pre[a] >= 0 && t.pre[b] >= 0 &&
		t.pre[a] <= t.pre[b] && t.post[b] <= t.post[a]
}

// Idom returns n's immediate dominator: n itself for the root, -1 for
// unreachable nodes.
func (t *DomTree) Idom(n int) int { return t.idom[n] }

// Children returns the nodes immediately dominated by n, in increasing order.
// The caller must not modify the result.
func (t *DomTree) Children(n int) []int {
	lo, hi := t.childStart[n], t.childStart[n+1]
	return t.childList[lo:hi:hi]
}
