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
// for a .callprototype an edge to every function whose signature matches it.
func buildCallGraph(p *Program) *CallGraph {
	g := &CallGraph{Callees: map[*Function][]*Function{}, Recursive: map[*Function]bool{}, MaxDepth: map[*Function]int{}}
	for _, fn := range p.Funcs {
		seen := map[*Function]bool{}
		add := func(f *Function) {
			if !seen[f] {
				seen[f] = true
				g.Callees[fn] = append(g.Callees[fn], f)
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
	for _, fn := range p.Funcs {
		g.Recursive[fn] = g.reaches(fn, fn)
	}
	for _, fn := range p.Funcs {
		g.depth(fn, map[*Function]bool{})
	}
	return g
}

// reaches reports whether to is reachable from from through one or more calls.
func (g *CallGraph) reaches(from, to *Function) bool {
	seen := map[*Function]bool{}
	stack := append([]*Function(nil), g.Callees[from]...)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f == to {
			return true
		}
		if !seen[f] {
			seen[f] = true
			stack = append(stack, g.Callees[f]...)
		}
	}
	return false
}

func (g *CallGraph) depth(fn *Function, onPath map[*Function]bool) int {
	if d, ok := g.MaxDepth[fn]; ok {
		return d
	}
	if onPath[fn] {
		return -1
	}
	onPath[fn] = true
	best := 0
	for _, c := range g.Callees[fn] {
		d := g.depth(c, onPath)
		if d < 0 {
			best = -1
			break
		}
		best = max(best, d+1)
	}
	delete(onPath, fn)
	g.MaxDepth[fn] = best
	return best
}
