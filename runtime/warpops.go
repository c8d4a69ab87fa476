package runtime

import (
	"fmt"
	"math/bits"
)

// Warp-level instructions: shfl, vote, match, redux, elect, activemask and bar.warp.sync, run
// for the whole warp at once. Both back ends call these methods with the operands resolved to
// register slots, so the semantics exist once.
//
// vote and shfl without .sync, the pre-Volta forms (ssa rejects them for sm_70 and newer from
// PTX ISA 6.4), have no membermask (mm < 0): they run over the executing lanes of the warp.
//
// Every .sync form takes a membermask, the register slot mm. The ISA leaves a
// warp-synchronous instruction undefined when the executing thread is not in its own
// membermask, and on this machine a lane named in the mask that exists and has not exited but
// does not reach the instruction can never arrive: both are faults (FaultWarpSync), never a
// silently computed result. Each lane reads its own membermask, so lanes may synchronize in
// disjoint groups (lanes that name each other must pass the same mask, else it is a fault
// too); a lane sees the values of the lanes of its own mask that execute the instruction.
//
// m is the lanes that reach the instruction and exec those of them that execute it: the lanes
// of m whose guard holds. A lane whose guard is false does not execute the instruction, so its
// membermask is not read and it neither contributes nor receives a value, but it has reached
// the instruction, so the executing lanes' masks may name it.

// ShflMode is how shfl computes the source lane.
type ShflMode uint8

// The shfl modes.
const (
	ShflUp   ShflMode = iota // lane - b
	ShflDown                 // lane + b
	ShflBfly                 // lane ^ b
	ShflIdx                  // b within the lane's segment
)

// VoteMode is the question vote asks.
type VoteMode uint8

// The vote modes.
const (
	VoteAll    VoteMode = iota // the predicate holds in every lane of the group
	VoteAny                    // in some lane
	VoteUni                    // in all or none
	VoteBallot                 // the lanes where it holds, as a .b32 mask
)

// ReduxOp is redux.sync's reduction.
type ReduxOp uint8

// The redux.sync reductions on 32-bit values.
const (
	ReduxAdd  ReduxOp = iota // sum modulo 2^32
	ReduxMinU                // unsigned minimum
	ReduxMinS                // signed minimum
	ReduxMaxU                // unsigned maximum
	ReduxMaxS                // signed maximum
	ReduxAnd
	ReduxOr
	ReduxXor
)

// WarpGroups reads the membermask register slot mm of the executing lanes exec, checks it,
// and returns each executing lane's participating lanes: its mask restricted to exec. Without
// a membermask (mm < 0, the forms without .sync) every executing lane takes part. what names
// the instruction and loc its PTX line for faults.
func (w *Warp) WarpGroups(mm int, m, exec uint32, what, loc string) (groups [WarpSize]uint32) {
	if mm < 0 {
		for x := exec; x != 0; x &= x - 1 {
			groups[firstLane(x)&(WarpSize-1)] = exec
		}
		return groups
	}
	if exec == 0 {
		return groups
	}
	M := w.Reg(mm)
	var union uint32
	uniform := true
	first := uint32(M[firstLane(exec)&(WarpSize-1)])
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		mask := uint32(M[l])
		if mask&(1<<l) == 0 {
			w.Fault(FaultWarpSync, loc, l, fmt.Sprintf("%s membermask 0x%08x does not include the executing lane %d", what, mask, l))
		}
		union |= mask
		uniform = uniform && mask == first
		groups[l] = mask & exec
	}
	if missing := union & w.Active() &^ m &^ w.synced; missing != 0 {
		w.Fault(FaultWarpSync, loc, firstLane(exec), fmt.Sprintf("%s membermask 0x%08x includes inactive lanes 0x%08x", what, union, missing))
	}
	if !uniform {
		// Lanes that name each other must name the same lanes (the CUDA programming guide's
		// rule: every thread in mask executes the instruction with the same mask).
		for x := exec; x != 0; x &= x - 1 {
			l := firstLane(x) & (WarpSize - 1)
			for g := groups[l]; g != 0; g &= g - 1 {
				if k := firstLane(g) & (WarpSize - 1); uint32(M[k]) != uint32(M[l]) {
					w.Fault(FaultWarpSync, loc, l, fmt.Sprintf("%s membermask 0x%08x of lane %d differs from membermask 0x%08x of lane %d, which it names", what, uint32(M[l]), l, uint32(M[k]), k))
				}
			}
		}
	}
	return groups
}

// writePred sets the bits of m in predicate p to those of r.
func (w *Warp) writePred(p int, m, r uint32) { w.P[p] = w.P[p]&^m | r&m }

// BarWarpSync runs bar.warp.sync membermask: with the lanes executing in lockstep (and under
// its, the rendezvous of its TermWarpSync before it) it only checks the mask.
func (w *Warp) BarWarpSync(mm int, m, exec uint32, loc string) {
	w.WarpGroups(mm, m, exec, "bar.warp.sync", loc)
}

// Activemask runs activemask.b32 d: each lane of m gets m.
func (w *Warp) Activemask(d int, m uint32) { Broadcast(w.Reg(d), m, uint64(m)) }

// Shfl runs shfl.sync.mode.b32 d[|p], a, b, c, membermask (mm < 0: shfl.mode.b32 without
// .sync) as the ISA defines it: c holds the clamp value in bits 0-4 and the segment mask in
// bits 8-12; p (-1 when absent) says whether the source lane was in range. An out-of-range
// source yields the lane's own value (the ISA's rule); an in-range source lane that does not
// execute (inactive, guarded off, exited, or missing from a partial warp) yields 0, which the
// ISA leaves unpredictable: NVIDIA GPUs read 0 there, and warp reductions over a partial warp
// or a ballot's lanes (cuda-samples' reduction) rely on it.
func (w *Warp) Shfl(mode ShflMode, d, p, a, b, c, mm int, m, exec uint32, loc string) {
	A, B, C := w.Reg(a), w.Reg(b), w.Reg(c)
	w.WarpGroups(mm, m, exec, "shfl.sync", loc)
	var res [WarpSize]uint64
	var valid uint32
	for x := exec; x != 0; x &= x - 1 {
		lane := uint32(firstLane(x))
		bval, cval := uint32(B[lane])&0x1f, uint32(C[lane])
		segMask := cval >> 8 & 0x1f
		maxLane := lane&segMask | cval&0x1f&^segMask
		minLane := lane & segMask
		var j uint32
		var ok bool
		switch mode {
		case ShflUp:
			j = lane - bval
			ok = int32(j) >= int32(maxLane)
		case ShflDown:
			j = lane + bval
			ok = j <= maxLane
		case ShflBfly:
			j = lane ^ bval
			ok = j <= maxLane
		default:
			j = minLane | bval&^segMask
			ok = j <= maxLane
		}
		switch {
		case !ok:
			res[lane] = A[lane]
		case exec&(1<<(j&31)) != 0:
			res[lane] = A[j&31]
			valid |= 1 << lane
		default:
			valid |= 1 << lane // in range, but not executing: 0
		}
	}
	D := w.Reg(d)
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		D[l] = res[l]
	}
	if p >= 0 {
		w.writePred(p, exec, valid)
	}
}

// Vote runs vote.sync.mode d, {!}a, membermask (mm < 0: vote.mode without .sync), with v the
// lanes where the source predicate (negated when written {!}a) holds. Each lane's answer
// covers the executing lanes of its own membermask; d is a predicate for all, any and uni,
// and a register for ballot.
func (w *Warp) Vote(mode VoteMode, d int, v uint32, mm int, m, exec uint32, loc string) {
	groups := w.WarpGroups(mm, m, exec, "vote.sync", loc)
	if mode == VoteBallot {
		D := w.Reg(d)
		for x := exec; x != 0; x &= x - 1 {
			l := firstLane(x) & (WarpSize - 1)
			D[l] = uint64(v & groups[l])
		}
		return
	}
	var r uint32
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		g := groups[l]
		set := v & g
		var ok bool
		switch mode {
		case VoteAll:
			ok = set == g
		case VoteAny:
			ok = set != 0
		default:
			ok = set == 0 || set == g
		}
		if ok {
			r |= 1 << l
		}
	}
	w.writePred(d, exec, r)
}

// Match runs match.any.sync.bN d, a, membermask (all false: d is the lanes of the group whose
// a equals this lane's) and match.all.sync.bN d[|p], a, membermask (all true: d is the group
// when all its a are equal, else 0; p, -1 when absent, whether they are), for width N of 32
// or 64.
func (w *Warp) Match(all bool, width int, d, p, a, mm int, m, exec uint32, loc string) {
	groups := w.WarpGroups(mm, m, exec, "match.sync", loc)
	A := w.Reg(a)
	keep := ^uint64(0) >> (64 - width)
	var res [WarpSize]uint64
	var equal uint32
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		v := A[l] & keep
		var same uint32
		for g := groups[l]; g != 0; g &= g - 1 {
			k := firstLane(g) & (WarpSize - 1)
			if A[k]&keep == v {
				same |= 1 << k
			}
		}
		switch {
		case !all:
			res[l] = uint64(same)
		case same == groups[l]:
			res[l] = uint64(same)
			equal |= 1 << l
		}
	}
	D := w.Reg(d)
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		D[l] = res[l]
	}
	if all && p >= 0 {
		w.writePred(p, exec, equal)
	}
}

// Redux runs redux.sync.op d, a, membermask: the reduction of the 32-bit a over the executing
// lanes of each lane's membermask.
func (w *Warp) Redux(op ReduxOp, d, a, mm int, m, exec uint32, loc string) {
	var f func(x, y uint32) uint32
	switch op {
	case ReduxAdd:
		f = func(x, y uint32) uint32 { return x + y }
	case ReduxMinU:
		f = func(x, y uint32) uint32 { return min(x, y) }
	case ReduxMinS:
		f = func(x, y uint32) uint32 { return uint32(min(int32(x), int32(y))) }
	case ReduxMaxU:
		f = func(x, y uint32) uint32 { return max(x, y) }
	case ReduxMaxS:
		f = func(x, y uint32) uint32 { return uint32(max(int32(x), int32(y))) }
	case ReduxAnd:
		f = func(x, y uint32) uint32 { return x & y }
	case ReduxOr:
		f = func(x, y uint32) uint32 { return x | y }
	default:
		f = func(x, y uint32) uint32 { return x ^ y }
	}
	groups := w.WarpGroups(mm, m, exec, "redux.sync", loc)
	A := w.Reg(a)
	var res [WarpSize]uint64
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		acc := uint32(A[l])
		for g := groups[l] &^ (1 << l); g != 0; g &= g - 1 {
			acc = f(acc, uint32(A[firstLane(g)&(WarpSize-1)]))
		}
		res[l] = uint64(acc)
	}
	D := w.Reg(d)
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		D[l] = res[l]
	}
}

// Elect runs elect.sync d|p, membermask: the lowest executing lane of each lane's membermask
// is the leader; d is its lane id and p is true in the leader only.
func (w *Warp) Elect(d, p, mm int, m, exec uint32, loc string) {
	groups := w.WarpGroups(mm, m, exec, "elect.sync", loc)
	D := w.Reg(d)
	var leaders uint32
	for x := exec; x != 0; x &= x - 1 {
		l := firstLane(x) & (WarpSize - 1)
		leader := bits.TrailingZeros32(groups[l])
		D[l] = uint64(leader)
		if leader == l {
			leaders |= 1 << l
		}
	}
	w.writePred(p, exec, leaders)
}

// The special registers %lanemask_eq, %lanemask_lt, %lanemask_le, %lanemask_gt and
// %lanemask_ge of lane l: the lanes of the warp whose index is equal to, below, at most,
// above and at least l.

// LanemaskEq is %lanemask_eq of lane l.
func LanemaskEq(l int) uint64 { return 1 << l }

// LanemaskLt is %lanemask_lt of lane l.
func LanemaskLt(l int) uint64 { return 1<<l - 1 }

// LanemaskLe is %lanemask_le of lane l.
func LanemaskLe(l int) uint64 { return 1<<(l+1) - 1 }

// LanemaskGt is %lanemask_gt of lane l.
func LanemaskGt(l int) uint64 { return uint64(^uint32(1<<(l+1) - 1)) }

// LanemaskGe is %lanemask_ge of lane l.
func LanemaskGe(l int) uint64 { return uint64(^uint32(1<<l - 1)) }
