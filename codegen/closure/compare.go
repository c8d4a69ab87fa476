package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// comparison returns the per-lane test of setp/set for type t, or nil when the pair is invalid.
func comparison(cmp frontend.Mod, t frontend.Type) func(x, y uint64) bool {
	n := t.Bits()
	switch {
	case t == frontend.F32 || t == frontend.F64:
		val := func(v uint64) float64 { return f64(v) }
		if t == frontend.F32 {
			val = func(v uint64) float64 { return float64(f32(v)) }
		}
		unord := func(x, y uint64) bool { a, b := val(x), val(y); return a != a || b != b }
		ordered := func(test func(a, b float64) bool) func(x, y uint64) bool {
			return func(x, y uint64) bool { return test(val(x), val(y)) }
		}
		unordered := func(test func(a, b float64) bool) func(x, y uint64) bool {
			return func(x, y uint64) bool { return unord(x, y) || test(val(x), val(y)) }
		}
		tests := map[frontend.Mod]func(a, b float64) bool{
			frontend.ModEq: func(a, b float64) bool { return a == b },
			frontend.ModNe: func(a, b float64) bool { return a != b && a == a && b == b },
			frontend.ModLt: func(a, b float64) bool { return a < b },
			frontend.ModLe: func(a, b float64) bool { return a <= b },
			frontend.ModGt: func(a, b float64) bool { return a > b },
			frontend.ModGe: func(a, b float64) bool { return a >= b },
		}
		unorderedOf := map[frontend.Mod]frontend.Mod{
			frontend.ModEqu: frontend.ModEq, frontend.ModNeu: frontend.ModNe, frontend.ModLtu: frontend.ModLt,
			frontend.ModLeu: frontend.ModLe, frontend.ModGtu: frontend.ModGt, frontend.ModGeu: frontend.ModGe,
		}
		switch cmp {
		case frontend.ModNum:
			return func(x, y uint64) bool { return !unord(x, y) }
		case frontend.ModNan:
			return unord
		case frontend.ModNeu:
			return func(x, y uint64) bool { return unord(x, y) || val(x) != val(y) }
		}
		if test, ok := tests[cmp]; ok {
			return ordered(test)
		}
		if base, ok := unorderedOf[cmp]; ok {
			return unordered(tests[base])
		}
		return nil
	case t.IsFloat() || n > 64 || n == 0:
		return nil
	}
	signed := t.IsSigned()
	lt := func(x, y uint64) bool { return wrap(x, n) < wrap(y, n) }
	if signed {
		lt = func(x, y uint64) bool { return sext(x, n) < sext(y, n) }
	}
	switch cmp {
	case frontend.ModEq:
		return func(x, y uint64) bool { return wrap(x^y, n) == 0 }
	case frontend.ModNe:
		return func(x, y uint64) bool { return wrap(x^y, n) != 0 }
	}
	if t.IsBits() {
		return nil
	}
	switch cmp {
	case frontend.ModLt:
		return lt
	case frontend.ModLe:
		return func(x, y uint64) bool { return !lt(y, x) }
	case frontend.ModGt:
		return func(x, y uint64) bool { return lt(y, x) }
	case frontend.ModGe:
		return func(x, y uint64) bool { return !lt(x, y) }
	}
	if signed {
		return nil
	}
	switch cmp {
	case frontend.ModLo:
		return lt
	case frontend.ModLs:
		return func(x, y uint64) bool { return !lt(y, x) }
	case frontend.ModHi:
		return func(x, y uint64) bool { return lt(y, x) }
	case frontend.ModHs:
		return func(x, y uint64) bool { return !lt(x, y) }
	}
	return nil
}

// combineOp is setp's optional .and/.or/.xor with a third predicate.
func (e *emitter) combineOp() frontend.Mod {
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor} {
		if e.has(m) {
			return m
		}
	}
	return 0
}

func combine(op frontend.Mod, r, c uint32) uint32 {
	switch op {
	case frontend.ModAnd:
		return r & c
	case frontend.ModOr:
		return r | c
	case frontend.ModXor:
		return r ^ c
	}
	return r
}

// setp: p = (a cmp b) BOP c and, with p|q, q = !(a cmp b) BOP c.
func (e *emitter) setp() runtime.Instr {
	in := e.in
	t := e.typ()
	test := comparison(e.compare(), t)
	if e.has(frontend.ModFtz) {
		inner := test
		test = func(x, y uint64) bool { return inner(ftz32(x), ftz32(y)) }
	}
	a, b := e.src(in.Args[0], t), e.src(in.Args[1], t)
	var p, q = -1, -1
	if d := in.Dsts[0]; d.Kind == ssa.ArgPair {
		p, q = e.predDst(d.Elems[0]), e.predDst(d.Elems[1])
	} else {
		p = e.predDst(d)
	}
	bop := e.combineOp()
	c, cneg := -1, false
	if bop != 0 {
		c, cneg = e.pred(in.Args[2])
	}
	cond := intCompare(a, b, e.uniformArg(0), e.uniformArg(1), t, e.compare())
	if cond != nil {
		cond = e.stepCompare(t, a, b, cond)
	}
	if t == frontend.F32 || t == frontend.F64 {
		cond = floatCompare(e.compare(), t, e.has(frontend.ModFtz), a, b)
	}
	if cond == nil {
		cond = setLanes(p, a, b, test)
	}
	if bop == 0 && q < 0 {
		return func(w *runtime.Warp, m uint32) { writePred(w, p, m, cond(w, m)) }
	}
	return func(w *runtime.Warp, m uint32) {
		r := cond(w, m)
		var cv uint32
		if c >= 0 {
			cv = w.P[c]
			if cneg {
				cv = ^cv
			}
		}
		writePred(w, p, m, combine(bop, r, cv))
		if q >= 0 {
			writePred(w, q, m, combine(bop, ^r, cv))
		}
	}
}

// intCompare is setp for integer types with the comparison inline and branch-free. ua and ub
// say an operand is warp-uniform: it is then read once per warp.
func intCompare(a, b int, ua, ub bool, t frontend.Type, cmp frontend.Mod) func(w *runtime.Warp, m uint32) uint32 {
	n := t.Bits()
	if t.IsFloat() || n == 0 || n > 64 {
		return nil
	}
	if t.IsBits() && cmp != frontend.ModEq && cmp != frontend.ModNe {
		return nil
	}
	if t.IsSigned() && (cmp == frontend.ModLo || cmp == frontend.ModLs || cmp == frontend.ModHi || cmp == frontend.ModHs) {
		return nil
	}
	switch cmp {
	case frontend.ModEq:
		return equalCompare(n, a, b, ua, ub, 0)
	case frontend.ModNe:
		return equalCompare(n, a, b, ua, ub, ^uint32(0))
	case frontend.ModLt, frontend.ModLo:
		return orderedCompare(t, a, b, ua, ub, 0)
	case frontend.ModGt, frontend.ModHi:
		return orderedCompare(t, b, a, ub, ua, 0)
	case frontend.ModLe, frontend.ModLs: // a <= b is !(b < a)
		return orderedCompare(t, b, a, ub, ua, ^uint32(0))
	case frontend.ModGe, frontend.ModHs:
		return orderedCompare(t, a, b, ua, ub, ^uint32(0))
	}
	return nil
}
