package ssa

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// analyzeUniformity marks the values that are equal in every active lane of a warp and the
// terminators at which a warp's lanes may split. It starts optimistic (everything uniform) and
// propagates divergence to a fixed point:
//   - per-lane sources (%tid, %laneid, loads from memory other than kernel parameters and
//     constants, shuffles, atomics, device-function parameters, call results, undefined values)
//     are divergent;
//   - an instruction with a divergent operand, guard or previous value defines divergent values;
//   - a branch on a divergent condition (not .uni) diverges; then every phi between it and its
//     reconvergence block, and in that block, is divergent, and so is every value defined in that
//     region and used outside it (lanes leave a loop in different iterations).
func analyzeUniformity(p *Program) {
	for _, fn := range p.Funcs {
		if !fn.Decl {
			uniformity(fn)
		}
	}
}

func uniformity(fn *Function) {
	for _, v := range fn.Values {
		v.Uniform = v.Kind == DefInstr || v.Kind == DefPhi
	}
	useBlocks := map[*Value][]*Block{}
	for _, b := range fn.Blocks {
		note := func(pv **Value) { useBlocks[*pv] = append(useBlocks[*pv], b) }
		for _, phi := range b.Phis {
			for i := range phi.Args {
				note(&phi.Args[i])
			}
		}
		for _, in := range b.Instrs {
			forInstrUses(in, note)
		}
		forTermUses(&b.Term, note)
	}
	for changed := true; changed; {
		changed = false
		mark := func(v *Value) {
			if v != nil && v.Uniform {
				v.Uniform = false
				changed = true
			}
		}
		for _, b := range fn.Blocks {
			for _, phi := range b.Phis {
				for _, a := range phi.Args {
					if !a.Uniform {
						mark(phi.Dst)
					}
				}
			}
			for _, in := range b.Instrs {
				if !instrUniform(fn, in) {
					for _, d := range in.Defs {
						mark(d)
					}
				}
			}
			t := &b.Term
			div := termDivergent(t)
			if div && !t.Divergent {
				t.Divergent = true
				changed = true
			}
			if div && t.Reconv != nil {
				region := divergenceRegion(b, t.Reconv)
				for _, rb := range region {
					for _, phi := range rb.Phis {
						mark(phi.Dst)
					}
				}
				for _, phi := range t.Reconv.Phis {
					mark(phi.Dst)
				}
				inRegion := map[*Block]bool{}
				for _, rb := range region {
					inRegion[rb] = true
				}
				for rb := range inRegion {
					for _, in := range rb.Instrs {
						for _, d := range in.Defs {
							for _, ub := range useBlocks[d] {
								if !inRegion[ub] {
									mark(d)
								}
							}
						}
					}
					for _, phi := range rb.Phis {
						for _, ub := range useBlocks[phi.Dst] {
							if !inRegion[ub] {
								mark(phi.Dst)
							}
						}
					}
				}
			}
		}
	}
}

// termDivergent reports whether lanes may split at the terminator given current uniformity.
func termDivergent(t *Terminator) bool {
	if t.Uni || !mayDiverge(t) {
		return false
	}
	switch t.Kind {
	case TermBranch:
		return !t.Cond.Uniform
	case TermBrx:
		return !t.Index.Uniform
	case TermCall:
		c := t.Call
		return (c.Guard != nil && !c.Guard.Uniform) || (c.Target != nil && !c.Target.Uniform)
	}
	return false
}

// divergenceRegion lists the blocks reachable from b's successors without passing reconv.
func divergenceRegion(b, reconv *Block) []*Block {
	seen := map[*Block]bool{reconv: true}
	var out []*Block
	stack := append([]*Block(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] || x.Term.Kind == TermNone {
			continue
		}
		seen[x] = true
		out = append(out, x)
		stack = append(stack, x.Succs...)
	}
	return out
}

// instrUniform reports whether an instruction computes the same results in every lane.
func instrUniform(fn *Function, in *Instr) bool {
	if in.Guard != nil && !in.Guard.Uniform {
		return false
	}
	for _, v := range in.Prev {
		if !v.Uniform {
			return false
		}
	}
	switch in.Op {
	case frontend.OpVote, frontend.OpActivemask, frontend.OpRedux:
		return true // one result for the whole warp
	case frontend.OpLd, frontend.OpLdu:
		if !uniformLoad(fn, in) {
			return false
		}
	case frontend.OpAtom, frontend.OpShfl, frontend.OpMatch, frontend.OpTex, frontend.OpTld4, frontend.OpSuld,
		frontend.OpAlloca, frontend.OpStacksave, frontend.OpMbarrier, frontend.OpElect:
		return false
	}
	for i := range in.Args {
		if !argUniform(&in.Args[i]) {
			return false
		}
	}
	return true
}

// uniformLoad reports whether a load reads memory every lane sees the same: a kernel's own
// parameters, or constant memory.
func uniformLoad(fn *Function, in *Instr) bool {
	switch in.Space() {
	case frontend.SpaceConst:
		return true
	case frontend.SpaceParam:
		if fn.Kind != frontend.Entry || len(in.Args) == 0 {
			return false
		}
		v := in.Args[0].Var
		return v != nil && v.Func == fn && isParamVar(fn, v)
	}
	return false
}

func isParamVar(fn *Function, v *Variable) bool {
	for _, p := range fn.Params {
		if p.Var == v {
			return true
		}
	}
	return false
}

func argUniform(a *Arg) bool {
	switch a.Kind {
	case ArgValue, ArgAddr:
		if a.Value != nil && !a.Value.Uniform {
			return false
		}
	case ArgSpecial:
		return uniformSpecial(a.Name)
	}
	for i := range a.Elems {
		if !argUniform(&a.Elems[i]) {
			return false
		}
	}
	return true
}

// uniformSpecial reports whether a special register reads the same in every lane of a warp.
func uniformSpecial(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch base {
	case "%ntid", "%ctaid", "%nctaid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
		"%dynamic_smem_size", "%total_smem_size", "%clusterid", "%nclusterid", "%cluster_ctaid",
		"%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster":
		return true
	}
	return false
}

// Space returns the state space an instruction's modifiers name, or SpaceNone.
func (in *Instr) Space() frontend.Space {
	for _, m := range in.Mods {
		if s, ok := m.Space(); ok {
			return s
		}
	}
	return frontend.SpaceNone
}
