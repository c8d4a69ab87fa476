package ssa

import "github.com/ptx2go/ptx2go/frontend"

// CallGraph records which functions each function may call, which functions are recursive, and
// the deepest static call chain below each function.
type CallGraph struct {
	Callees   map[*Function][]*Function
	Recursive map[*Function]bool
	// MaxDepth is the largest number of nested calls a function can make; -1 when unbounded
	// because recursion is reachable.
	MaxDepth map[*Function]int
}

// CallGraph returns the program's call graph.
func (p *Program) CallGraph() *CallGraph { return p.calls }

// buildCallGraph adds direct edges, indirect edges from .calltargets lists and call tables, and
// for a .callprototype an edge to every function whose signature matches it. It works on the
// functions' indices in p.Funcs and fills the maps at the end.
func buildCallGraph(p *Program) *CallGraph {
	n := len(p.Funcs)
	index := make(map[*Function]int, n)
	for i, fn := range p.Funcs {
		index[fn] = i
	}
	// seen[j] == stamp marks function j as visited by the current search.
	seen := make([]int, n)
	stamp := 0
	callees := make([][]int, n) // without repeats, in the order the calls name them
	for i, fn := range p.Funcs {
		stamp++
		add := func(f *Function) {
			if j := index[f]; seen[j] != stamp {
				seen[j] = stamp
				callees[i] = append(callees[i], j)
			}
		}
		for _, b := range fn.Blocks {
			c := b.Term.Call
			if c == nil {
				continue
			}
			for _, f := range possibleTargets(c) {
				add(f)
			}
			if c.Proto != nil {
				for _, f := range p.Funcs {
					if f.Kind == frontend.Func && sameSignature(f.Sig, *c.Proto) {
						add(f)
					}
				}
			}
		}
	}
	var stack []int
	// reaches reports whether function to is reachable from function from through one or more
	// calls.
	reaches := func(from, to int) bool {
		stamp++
		stack = append(stack[:0], callees[from]...)
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f == to {
				return true
			}
			if seen[f] != stamp {
				seen[f] = stamp
				stack = append(stack, callees[f]...)
			}
		}
		return false
	}
	const unknown = -2
	depth := make([]int, n)
	for i := range depth {
		depth[i] = unknown
	}
	onPath := make([]bool, n)
	// maxDepth returns the largest number of nested calls function i can make, or -1 when a
	// function on the current path is reachable from it.
	var maxDepth func(i int) int
	maxDepth = func(i int) int {
		if depth[i] != unknown {
			return depth[i]
		}
		if onPath[i] {
			return -1
		}
		onPath[i] = true
		best := 0
		for _, j := range callees[i] {
			d := maxDepth(j)
			if d < 0 {
				best = -1
				break
			}
			best = max(best, d+1)
		}
		onPath[i] = false
		depth[i] = best
		return best
	}
	g := &CallGraph{Callees: map[*Function][]*Function{}, Recursive: make(map[*Function]bool, n),
		MaxDepth: make(map[*Function]int, n)}
	for i, fn := range p.Funcs {
		if len(callees[i]) > 0 {
			fs := make([]*Function, len(callees[i]))
			for k, j := range callees[i] {
				fs[k] = p.Funcs[j]
			}
			g.Callees[fn] = fs
		}
		g.Recursive[fn] = reaches(i, i)
		g.MaxDepth[fn] = maxDepth(i)
	}
	return g
}
