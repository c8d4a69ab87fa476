package ssa

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// testGraph is a Graph with named nodes, built by buildGraph.
type testGraph struct {
	Graph
	names []string
	index map[string]int
	succs [][]int
}

// adjGraph returns a Graph over adjacency lists, deriving predecessors.
func adjGraph(root int, succs [][]int) Graph {
	preds := make([][]int, len(succs))
	for n, ss := range succs {
		for _, s := range ss {
			preds[s] = append(preds[s], n)
		}
	}
	return Graph{
		N:     len(succs),
		Root:  root,
		Succs: func(n int) []int { return succs[n] },
		Preds: func(n int) []int { return preds[n] },
	}
}

// buildGraph parses whitespace-separated edges such as "a->b" (chains like
// "a->b->c" and lone node names are also accepted). The first named node is
// the root.
func buildGraph(spec string) *testGraph {
	tg := &testGraph{index: map[string]int{}}
	for _, tok := range strings.Fields(spec) {
		parts := strings.Split(tok, "->")
		for i, name := range parts {
			tg.node(name)
			if i > 0 {
				tg.edge(parts[i-1], name)
			}
		}
	}
	tg.Graph = adjGraph(0, tg.succs)
	return tg
}

func (tg *testGraph) node(name string) int {
	if name == "" || name == "-" {
		panic(fmt.Sprintf("bad node name %q", name))
	}
	if i, ok := tg.index[name]; ok {
		return i
	}
	tg.index[name] = len(tg.names)
	tg.names = append(tg.names, name)
	tg.succs = append(tg.succs, nil)
	return len(tg.names) - 1
}

func (tg *testGraph) edge(from, to string) {
	f, t := tg.node(from), tg.node(to)
	tg.succs[f] = append(tg.succs[f], t)
}

// postDomGraph returns the reverse of tg extended with a virtual node "exit",
// rooted at exit. Every node without successors, plus the extra nodes (e.g.
// infinite-loop headers), gets an edge to exit.
func postDomGraph(tg *testGraph, extra ...string) *testGraph {
	out := &testGraph{index: map[string]int{}}
	for _, name := range tg.names {
		out.node(name)
	}
	for n, ss := range tg.succs {
		for _, s := range ss {
			out.edge(tg.names[n], tg.names[s])
		}
		if len(ss) == 0 {
			out.edge(tg.names[n], "exit")
		}
	}
	for _, name := range extra {
		out.edge(name, "exit")
	}
	exit := out.node("exit")
	out.Graph = Reverse(adjGraph(0, out.succs), exit)
	return out
}

// expectIdoms checks Dominators(tg.Graph) against want, a list of
// "node:idom" pairs naming every non-root node; "node:-" means unreachable.
// It also checks the result against the brute-force definition.
func expectIdoms(t *testing.T, tg *testGraph, want string) {
	t.Helper()
	exp := map[string]string{tg.names[tg.Root]: tg.names[tg.Root]}
	for _, pair := range strings.Fields(want) {
		n, d, ok := strings.Cut(pair, ":")
		require.True(t, ok, "bad pair %q", pair)
		exp[n] = d
	}
	idom := Dominators(tg.Graph)
	got := map[string]string{}
	for n, d := range idom {
		if d == -1 {
			got[tg.names[n]] = "-"
		} else {
			got[tg.names[n]] = tg.names[d]
		}
	}
	require.Equal(t, exp, got)
	checkAgainstDefinition(t, tg.Graph, strings.Join(tg.names, " "))
}

// reachableAvoiding returns the nodes reachable from g.Root without passing through
// removed (-1 removes nothing).
func reachableAvoiding(g Graph, removed int) []bool {
	seen := make([]bool, g.N)
	if g.Root == removed {
		return seen
	}
	seen[g.Root] = true
	stack := []int{g.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range g.Succs(n) {
			if s != removed && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// checkAgainstDefinition compares Dominators and DomTree with dominance
// computed from its definition: d dominates n iff n is reachable and removing
// d != n makes n unreachable; idom(n) is the strict dominator of n that all
// other strict dominators of n dominate.
func checkAgainstDefinition(t *testing.T, g Graph, ctx string) {
	t.Helper()
	reach := reachableAvoiding(g, -1)
	dom := make([][]bool, g.N) // dom[d][n]
	for d := range g.N {
		without := reachableAvoiding(g, d)
		dom[d] = make([]bool, g.N)
		for n := range g.N {
			dom[d][n] = reach[n] && (d == n || !without[n])
		}
	}
	idom := Dominators(g)
	tree := NewDomTree(idom, g.Root)
	for n := range g.N {
		want := -1
		switch {
		case n == g.Root:
			want = n
		case reach[n]:
			for d := range g.N {
				if d == n || !dom[d][n] {
					continue
				}
				closest := true
				for s := range g.N {
					if s != n && dom[s][n] && !dom[s][d] {
						closest = false
						break
					}
				}
				if closest {
					require.Equal(t, -1, want, "%s: idom of %d not unique", ctx, n)
					want = d
				}
			}
		}
		require.Equal(t, want, idom[n], "%s: idom of %d", ctx, n)
		require.Equal(t, want, tree.Idom(n), "%s: Idom(%d)", ctx, n)
		var kids []int
		for c, d := range idom {
			if d == n && c != g.Root {
				kids = append(kids, c)
			}
		}
		require.Equal(t, kids, nilIfEmpty(tree.Children(n)), "%s: Children(%d)", ctx, n)
		for a := range g.N {
			require.Equal(t, dom[a][n], tree.Dominates(a, n), "%s: Dominates(%d, %d)", ctx, a, n)
		}
	}
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestDominatorsHandBuilt(t *testing.T) {
	cases := []struct{ name, graph, idoms string }{
		{"single", "a", ""},
		{"diamond", "a->b a->c b->d c->d", "b:a c:a d:a"},
		{"loop with break and continue",
			"e->h h->b1 b1->b2 b1->brk b2->h b2->b3 b3->h h->x brk->x",
			"h:e b1:h b2:b1 b3:b2 brk:b1 x:h"},
		{"nested loops",
			"e->h1 h1->h2 h2->b b->h2 h2->l1 l1->h1 h1->x",
			"h1:e h2:h1 b:h2 l1:h2 x:h1"},
		{"irreducible", "r->a r->b a->b b->a", "a:r b:r"},
		// Figure 4 of Cooper-Harvey-Kennedy: needs more than one pass.
		{"irreducible paper", "n6->n5 n6->n4 n5->n1 n4->n2 n4->n3 n1->n2 n2->n1 n2->n3 n3->n2",
			"n5:n6 n4:n6 n1:n6 n2:n6 n3:n6"},
		{"self loop", "a->b b->b b->c", "b:a c:b"},
		{"unreachable", "a->b x->b x->y y->x z", "b:a x:- y:- z:-"},
		{"infinite loop", "r->l l->m m->l r->x", "l:r m:l x:r"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectIdoms(t, buildGraph(c.graph), c.idoms)
		})
	}
}

func TestPostDominators(t *testing.T) {
	t.Run("diamond", func(t *testing.T) {
		expectIdoms(t, postDomGraph(buildGraph("a->b a->c b->d c->d")), "a:d b:d c:d d:exit")
	})
	t.Run("if-then without else", func(t *testing.T) {
		expectIdoms(t, postDomGraph(buildGraph("a->b a->c b->c")), "a:c b:c c:exit")
	})
	t.Run("infinite loop", func(t *testing.T) {
		g := buildGraph("r->l l->m m->l r->x")
		// Without a virtual exit edge the loop never reaches exit.
		expectIdoms(t, postDomGraph(g), "r:x x:exit l:- m:-")
		expectIdoms(t, postDomGraph(g, "l"), "r:exit x:exit l:exit m:l")
	})
}

// randomSuccs returns adjacency lists of a random graph with n nodes and
// expected out-degree avg, self loops and parallel edges allowed.
func randomSuccs(rng *rand.Rand, n int, avg float64) [][]int {
	succs := make([][]int, n)
	for range int(avg * float64(n)) {
		a := rng.IntN(n)
		succs[a] = append(succs[a], rng.IntN(n))
	}
	return succs
}

func TestDominatorsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		n := 1 + rng.IntN(40)
		succs := randomSuccs(rng, n, 4*rng.Float64())
		root := rng.IntN(n)
		checkAgainstDefinition(t, adjGraph(root, succs), fmt.Sprintf("graph %d: root %d succs %v", i, root, succs))

		// Post-dominators: virtual exit fed by every node without successors.
		withExit := make([][]int, n+1)
		for v, ss := range succs {
			withExit[v] = ss
			if len(ss) == 0 {
				withExit[v] = []int{n}
			}
		}
		checkAgainstDefinition(t, Reverse(adjGraph(root, withExit), n), fmt.Sprintf("post graph %d: succs %v", i, withExit))
	}
}

func TestDominatorsDeepChain(t *testing.T) {
	const n = 100000
	succs := make([][]int, n)
	for i := range n - 1 {
		succs[i] = []int{i + 1}
	}
	g := adjGraph(0, succs)

	idom := Dominators(g)
	tree := NewDomTree(idom, 0)
	require.Equal(t, 0, idom[0])
	for i := 1; i < n; i++ {
		require.Equal(t, i-1, idom[i])
	}
	require.True(t, tree.Dominates(0, n-1))
	require.False(t, tree.Dominates(n-1, 0))

	pdom := Dominators(Reverse(g, n-1))
	ptree := NewDomTree(pdom, n-1)
	for i := range n - 1 {
		require.Equal(t, i+1, pdom[i])
	}
	require.True(t, ptree.Dominates(n-1, 0))
}

// TestDominatorsDeepNesting uses if-then-else diamonds nested 33334 deep:
// branch b_i -> b_{i+1} (or the innermost join), b_i -> else e_i,
// e_i -> join j_i, j_{i+1} -> j_i.
func TestDominatorsDeepNesting(t *testing.T) {
	const k = 33334
	b := func(i int) int { return 3 * i }
	e := func(i int) int { return 3*i + 1 }
	j := func(i int) int { return 3*i + 2 }
	succs := make([][]int, 3*k)
	for i := range k {
		if i+1 < k {
			succs[b(i)] = []int{b(i + 1), e(i)}
			succs[j(i+1)] = []int{j(i)}
		} else {
			succs[b(i)] = []int{j(i), e(i)}
		}
		succs[e(i)] = []int{j(i)}
	}
	g := adjGraph(b(0), succs)

	idom := Dominators(g)
	tree := NewDomTree(idom, b(0))
	for i := range k {
		if i > 0 {
			require.Equal(t, b(i-1), idom[b(i)])
		}
		require.Equal(t, b(i), idom[e(i)])
		require.Equal(t, b(i), idom[j(i)])
	}
	require.True(t, tree.Dominates(b(0), j(k-1)))
	require.False(t, tree.Dominates(e(0), j(k-1)))

	pdom := Dominators(Reverse(g, j(0)))
	ptree := NewDomTree(pdom, j(0))
	for i := range k {
		if i > 0 {
			require.Equal(t, j(i-1), pdom[j(i)])
		}
		require.Equal(t, j(i), pdom[e(i)])
		require.Equal(t, j(i), pdom[b(i)])
	}
	require.True(t, ptree.Dominates(j(0), b(k-1)))
	require.Equal(t, []int{b(0), e(0), j(1)}, sortedCopy(ptree.Children(j(0))))
}

func sortedCopy(s []int) []int {
	s = append([]int(nil), s...)
	sort.Ints(s)
	return s
}

func BenchmarkDominators(b *testing.B) {
	const n = 10000
	rng := rand.New(rand.NewPCG(3, 4))
	succs := randomSuccs(rng, n, 2)
	for v := 1; v < n; v++ { // make every node reachable from 0
		p := rng.IntN(v)
		succs[p] = append(succs[p], v)
	}
	g := adjGraph(0, succs)
	for b.Loop() {
		Dominators(g)
	}
}
