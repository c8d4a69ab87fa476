package closure

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Warp-level instructions: shfl, vote, match, redux, elect, activemask and bar.warp.sync.
//
// vote and shfl without .sync, the pre-Volta forms (ssa rejects them for sm_70 and newer from
// PTX ISA 6.4), have no membermask: they run over the executing lanes of the warp.
//
// Every .sync form takes a membermask. The ISA leaves a warp-synchronous instruction undefined
// when the executing thread is not in its own membermask, and on this machine a lane named in
// the mask that exists and has not exited but does not reach the instruction can never
// arrive: both are faults (runtime.FaultWarpSync), never a silently computed result. Each
// lane reads its own membermask, so lanes may synchronize in disjoint groups (lanes that name
// each other must pass the same mask, else it is a fault too); a lane sees the values of the
// lanes of its own mask that execute the instruction. The executing lanes are the active lanes
// whose guard is true: a lane whose guard is false does not execute the instruction, so its
// membermask is not read and it neither contributes nor receives a value, but it has reached
// the instruction, so the executing lanes' masks may name it.

// warpSynchronous reports whether an instruction applies its own guard: the .sync warp
// instructions, where a lane whose guard is false still arrives at the synchronization (the
// ISA's shfl.sync pseudocode waits for every lane of membermask and only leaves the value of a
// guarded-off lane unpredictable) but contributes no value and receives none.
func warpSynchronous(in *ssa.Instr) bool {
	switch in.Op {
	case frontend.OpShfl, frontend.OpVote, frontend.OpMatch, frontend.OpRedux, frontend.OpElect:
		return true
	case frontend.OpBar, frontend.OpBarrier:
		return slices.Contains(in.Mods, modWarp)
	}
	return false
}

// warpSync describes the rendezvous before a warp-level synchronization for the runtime:
// where each lane's membermask is, the guard, and whether the lanes must run it together.
func (f *fnCompiler) warpSync(in *ssa.Instr, mask ssa.Arg) *runtime.WarpSync {
	e := &emitter{f: f, in: in}
	ws := &runtime.WarpSync{Mask: e.src(mask, frontend.B32), Guard: -1, What: in.Op.String() + ".sync"}
	if in.Guard != nil {
		ws.Guard, ws.GuardNeg = f.Regs[in.Guard.Reg.ID], in.GuardNeg
	}
	switch in.Op {
	case frontend.OpBar, frontend.OpBarrier:
		ws.What = "bar.warp.sync"
	default:
		ws.Joint = true
	}
	return ws
}

// guardLanes returns the function giving the lanes of m whose guard holds, for the
// instructions that apply their own guard.
//
//go:noinline
func (e *emitter) guardLanes() func(w *runtime.Warp, m uint32) uint32 {
	g := e.in.Guard
	if g == nil {
		return func(_ *runtime.Warp, m uint32) uint32 { return m }
	}
	p, neg := e.f.Regs[g.Reg.ID], e.in.GuardNeg
	return func(w *runtime.Warp, m uint32) uint32 {
		v := w.P[p]
		if neg {
			v = ^v
		}
		return m & v
	}
}

// warpMembers reads the membermask register slot mm of the executing lanes exec (the lanes of
// m, those that reach the instruction, whose guard holds), checks it, and returns each
// executing lane's participating lanes: its mask restricted to exec. Without a membermask (mm
// < 0, the forms without .sync) every executing lane takes part.
func warpMembers(w *runtime.Warp, mm int, m, exec uint32, what, loc string) (groups [ws]uint32) {
	if mm < 0 {
		for x := exec; x != 0; x &= x - 1 {
			groups[bits.TrailingZeros32(x)&(ws-1)] = exec
		}
		return groups
	}
	if exec == 0 {
		return groups
	}
	M := regs(w, mm)
	var union uint32
	uniform := true
	first := uint32(M[bits.TrailingZeros32(exec)&(ws-1)])
	for x := exec; x != 0; x &= x - 1 {
		l := bits.TrailingZeros32(x) & (ws - 1)
		mask := uint32(M[l])
		if mask&(1<<l) == 0 {
			w.Fault(runtime.FaultWarpSync, loc, l, fmt.Sprintf("%s membermask 0x%08x does not include the executing lane %d", what, mask, l))
		}
		union |= mask
		uniform = uniform && mask == first
		groups[l] = mask & exec
	}
	checkMembers(w, union, m, exec, what, loc)
	if !uniform {
		// Lanes that name each other must name the same lanes (the CUDA programming guide's
		// rule: every thread in mask executes the instruction with the same mask).
		for x := exec; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			for g := groups[l]; g != 0; g &= g - 1 {
				if k := bits.TrailingZeros32(g) & (ws - 1); uint32(M[k]) != uint32(M[l]) {
					w.Fault(runtime.FaultWarpSync, loc, l, fmt.Sprintf("%s membermask 0x%08x of lane %d differs from membermask 0x%08x of lane %d, which it names", what, uint32(M[l]), l, uint32(M[k]), k))
				}
			}
		}
	}
	return groups
}

// checkMembers faults, in the first executing lane, when a warp-synchronous instruction's
// membermask names lanes that exist and have not exited but have not reached it (are not in
// reached).
func checkMembers(w *runtime.Warp, members, reached, exec uint32, what, loc string) {
	if missing := members & w.Active() &^ reached &^ w.Synced(); missing != 0 {
		w.Fault(runtime.FaultWarpSync, loc, bits.TrailingZeros32(exec), fmt.Sprintf("%s membermask 0x%08x includes inactive lanes 0x%08x", what, members, missing))
	}
}

// syncOnly reports whether the instruction carries .sync and otherwise only modifiers in
// allowed (types are checked by the caller).
func (e *emitter) syncOnly(allowed ...frontend.Mod) bool {
	return e.has(frontend.ModSync) && e.modsOnly(allowed...)
}

// modsOnly reports whether the instruction carries, besides types and .sync, only modifiers in
// allowed.
func (e *emitter) modsOnly(allowed ...frontend.Mod) bool {
	for _, m := range e.in.Mods {
		if _, isType := m.Type(); isType || m == frontend.ModSync {
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || m == a
		}
		if !ok {
			return false
		}
	}
	return true
}

// oneOf returns the single modifier of e among choices, or 0 when there is none or several.
func (e *emitter) oneOf(choices ...frontend.Mod) frontend.Mod {
	var found frontend.Mod
	for _, c := range choices {
		if e.has(c) {
			if found != 0 {
				return 0
			}
			found = c
		}
	}
	return found
}

// valueAndPred splits a `d|p` destination into its register and predicate (-1 when absent;
// a sink register gets a scratch slot).
func (e *emitter) valueAndPred(a ssa.Arg) (d, p int) {
	if a.Kind == ssa.ArgPair {
		return e.dst(a.Elems[0]), e.predDst(a.Elems[1])
	}
	return e.dst(a), -1
}

func (e *emitter) activemask() runtime.Instr {
	if len(e.in.Mods) != 1 || e.typ() != frontend.B32 {
		return e.unsupported()
	}
	d := e.dst(e.in.Dsts[0])
	return func(w *runtime.Warp, m uint32) {
		D := regs(w, d)
		for mm := m; mm != 0; mm &= mm - 1 {
			D[bits.TrailingZeros32(mm)&(ws-1)] = uint64(m)
		}
	}
}

// barWarp is bar.warp.sync membermask: with lanes executing in lockstep it only checks the mask.
func (e *emitter) barWarp() runtime.Instr {
	if len(e.in.Args) != 1 || !e.has(frontend.ModSync) || len(e.in.Mods) != 2 {
		return e.unsupported()
	}
	mask := e.src(e.in.Args[0], frontend.B32)
	loc := e.loc()
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		warpMembers(w, mask, m, guard(w, m), "bar.warp.sync", loc)
	}
}

// shfl lowers shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask and the pre-Volta
// shfl.{up,down,bfly,idx}.b32 d[|p], a, b, c as the ISA defines them: c holds the clamp value
// in bits 0-4 and the segment mask in bits 8-12. A source lane that is not executing yields
// the lane's own value, as an out-of-range one does (the ISA leaves it unpredictable).
func (e *emitter) shfl() runtime.Instr {
	in := e.in
	mode := e.oneOf(frontend.ModUp, frontend.ModDown, frontend.ModBfly, frontend.ModIdx)
	sync := e.has(frontend.ModSync)
	if mode == 0 || !e.modsOnly(mode) || len(e.types()) != 1 || e.typ() != frontend.B32 || len(in.Args) != 3+btoi(sync) {
		return e.unsupported()
	}
	d, p := e.valueAndPred(in.Dsts[0])
	a := e.src(in.Args[0], frontend.B32)
	b := e.src(in.Args[1], frontend.B32)
	c := e.src(in.Args[2], frontend.B32)
	mm := -1
	if sync {
		mm = e.src(in.Args[3], frontend.B32)
	}
	loc := e.loc()
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		A, B, C := regs(w, a), regs(w, b), regs(w, c)
		exec := guard(w, m)
		warpMembers(w, mm, m, exec, "shfl.sync", loc)
		m = exec
		var res [ws]uint64
		var valid uint32
		for x := m; x != 0; x &= x - 1 {
			lane := uint32(bits.TrailingZeros32(x))
			bval, cval := uint32(B[lane])&0x1f, uint32(C[lane])
			segMask := cval >> 8 & 0x1f
			maxLane := lane&segMask | cval&0x1f&^segMask
			minLane := lane & segMask
			var j uint32
			var ok bool
			switch mode {
			case frontend.ModUp:
				j = lane - bval
				ok = int32(j) >= int32(maxLane)
			case frontend.ModDown:
				j = lane + bval
				ok = j <= maxLane
			case frontend.ModBfly:
				j = lane ^ bval
				ok = j <= maxLane
			default:
				j = minLane | bval&^segMask
				ok = j <= maxLane
			}
			if !ok || m&(1<<(j&31)) == 0 {
				j = lane
			}
			res[lane] = A[j&31]
			if ok {
				valid |= 1 << lane
			}
		}
		D := regs(w, d)
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			D[l] = res[l]
		}
		if p >= 0 {
			writePred(w, p, m, valid)
		}
	}
}

// vote lowers vote.sync.{all,any,uni}.pred d, {!}a, membermask and vote.sync.ballot.b32:
// each lane's answer covers the executing lanes of its own membermask; and the pre-Volta
// vote.{all,any,uni}.pred d, {!}a and vote.ballot.b32, whose answer covers the executing lanes.
func (e *emitter) vote() runtime.Instr {
	in := e.in
	mode := e.oneOf(frontend.ModAll, frontend.ModAny, frontend.ModUni, frontend.ModBallot)
	ballot := mode == frontend.ModBallot
	sync := e.has(frontend.ModSync)
	switch {
	case mode == 0 || !e.modsOnly(mode) || len(e.types()) != 1 || len(in.Args) != 1+btoi(sync):
		return e.unsupported()
	case ballot && e.typ() != frontend.B32, !ballot && e.typ() != frontend.Pred:
		return e.unsupported()
	}
	src, neg := e.pred(in.Args[0])
	mm := -1
	if sync {
		mm = e.src(in.Args[1], frontend.B32)
	}
	loc := e.loc()
	var d int
	if ballot {
		d = e.dst(in.Dsts[0])
	} else {
		d = e.predDst(in.Dsts[0])
	}
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		exec := guard(w, m)
		groups := warpMembers(w, mm, m, exec, "vote.sync", loc)
		m = exec
		v := w.P[src]
		if neg {
			v = ^v
		}
		if ballot {
			D := regs(w, d)
			for x := m; x != 0; x &= x - 1 {
				l := bits.TrailingZeros32(x) & (ws - 1)
				D[l] = uint64(v & groups[l])
			}
			return
		}
		var r uint32
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			g := groups[l]
			set := v & g
			var ok bool
			switch mode {
			case frontend.ModAll:
				ok = set == g
			case frontend.ModAny:
				ok = set != 0
			default:
				ok = set == 0 || set == g
			}
			if ok {
				r |= 1 << l
			}
		}
		writePred(w, d, m, r)
	}
}

// match lowers match.any.sync.{b32,b64} d, a, membermask (d: the lanes of the group whose a
// equals this lane's) and match.all.sync.{b32,b64} d[|p], a, membermask (d: the group when all
// its a are equal, else 0; p: whether they are).
func (e *emitter) match() runtime.Instr {
	in := e.in
	mode := e.oneOf(frontend.ModAny, frontend.ModAll)
	t := e.typ()
	if mode == 0 || !e.syncOnly(mode) || len(e.types()) != 1 || t != frontend.B32 && t != frontend.B64 || len(in.Args) != 2 {
		return e.unsupported()
	}
	d, p := e.valueAndPred(in.Dsts[0])
	if mode == frontend.ModAny && p >= 0 {
		return e.errorf("match.any.sync has no predicate destination")
	}
	a := e.src(in.Args[0], t)
	mm := e.src(in.Args[1], frontend.B32)
	loc := e.loc()
	width := t.Bits()
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		exec := guard(w, m)
		groups := warpMembers(w, mm, m, exec, "match.sync", loc)
		m = exec
		A := regs(w, a)
		var res [ws]uint64
		var all uint32
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			v := wrap(A[l], width)
			var same uint32
			for g := groups[l]; g != 0; g &= g - 1 {
				k := bits.TrailingZeros32(g) & (ws - 1)
				if wrap(A[k], width) == v {
					same |= 1 << k
				}
			}
			switch {
			case mode == frontend.ModAny:
				res[l] = uint64(same)
			case same == groups[l]:
				res[l] = uint64(same)
				all |= 1 << l
			}
		}
		D := regs(w, d)
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			D[l] = res[l]
		}
		if p >= 0 {
			writePred(w, p, m, all)
		}
	}
}

// redux lowers redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32 d, a,
// membermask: the reduction of a over the executing lanes of each lane's membermask (add
// wraps modulo 2^32).
func (e *emitter) redux() runtime.Instr {
	in := e.in
	op := e.oneOf(frontend.ModAdd, frontend.ModMin, frontend.ModMax, frontend.ModAnd, frontend.ModOr, frontend.ModXor)
	t := e.typ()
	if op == 0 || !e.syncOnly(op) || len(e.types()) != 1 || len(in.Args) != 2 {
		return e.unsupported()
	}
	var f func(x, y uint32) uint32
	switch op {
	case frontend.ModAdd:
		f = func(x, y uint32) uint32 { return x + y }
	case frontend.ModAnd:
		f = func(x, y uint32) uint32 { return x & y }
	case frontend.ModOr:
		f = func(x, y uint32) uint32 { return x | y }
	case frontend.ModXor:
		f = func(x, y uint32) uint32 { return x ^ y }
	case frontend.ModMin:
		f = func(x, y uint32) uint32 { return min(x, y) }
		if t == frontend.S32 {
			f = func(x, y uint32) uint32 { return uint32(min(int32(x), int32(y))) }
		}
	default:
		f = func(x, y uint32) uint32 { return max(x, y) }
		if t == frontend.S32 {
			f = func(x, y uint32) uint32 { return uint32(max(int32(x), int32(y))) }
		}
	}
	bitwise := op == frontend.ModAnd || op == frontend.ModOr || op == frontend.ModXor
	if bitwise && t != frontend.B32 || !bitwise && t != frontend.U32 && t != frontend.S32 {
		return e.unsupported()
	}
	d := e.dst(in.Dsts[0])
	a := e.src(in.Args[0], t)
	mm := e.src(in.Args[1], frontend.B32)
	loc := e.loc()
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		exec := guard(w, m)
		groups := warpMembers(w, mm, m, exec, "redux.sync", loc)
		m = exec
		A := regs(w, a)
		var res [ws]uint64
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			g := groups[l]
			acc := uint32(A[l])
			for g &^= 1 << l; g != 0; g &= g - 1 {
				acc = f(acc, uint32(A[bits.TrailingZeros32(g)&(ws-1)]))
			}
			res[l] = uint64(acc)
		}
		D := regs(w, d)
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			D[l] = res[l]
		}
	}
}

// elect lowers elect.sync d|p, membermask: the lowest executing lane of each lane's
// membermask is the leader; d is its lane id and p is true in the leader only.
func (e *emitter) elect() runtime.Instr {
	in := e.in
	if !e.syncOnly() || len(e.types()) != 0 || len(in.Args) != 1 || in.Dsts[0].Kind != ssa.ArgPair {
		return e.unsupported()
	}
	d, p := e.valueAndPred(in.Dsts[0])
	mm := e.src(in.Args[0], frontend.B32)
	loc := e.loc()
	guard := e.guardLanes()
	return func(w *runtime.Warp, m uint32) {
		exec := guard(w, m)
		groups := warpMembers(w, mm, m, exec, "elect.sync", loc)
		m = exec
		D := regs(w, d)
		var leaders uint32
		for x := m; x != 0; x &= x - 1 {
			l := bits.TrailingZeros32(x) & (ws - 1)
			leader := bits.TrailingZeros32(groups[l])
			D[l] = uint64(leader)
			if leader == l {
				leaders |= 1 << l
			}
		}
		writePred(w, p, m, leaders)
	}
}
