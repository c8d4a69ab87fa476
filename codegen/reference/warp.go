package reference

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Warp-level instructions: shfl.sync and vote.sync. A thread alone cannot run them, so it
// stops at one, as at a barrier, and its CTA's scheduler runs the instruction for a group of
// threads at once: the live threads of one warp whose lanes the membermask names, once every
// one of them waits at the same instruction with the same membermask (the CUDA programming
// guide's rule for the .sync forms). The group's values are read from the waiting threads'
// registers; a shfl whose source lane is in range but not in the group reads 0, as
// runtime.Warp.Shfl defines for a lane that does not execute the instruction.
//
// Forms without .sync (pre-Volta), guarded warp-level instructions (whose guarded-off lanes
// still arrive) and the other warp-level instructions are unsupported.

// warpSync is a thread's arrival at a warp-level instruction.
type warpSync struct {
	in   *ssa.Instr
	f    *frame
	mask uint32
}

// isWarpSync reports whether in is a warp-level instruction the scheduler runs for a group.
func isWarpSync(in *ssa.Instr) bool { return in.Op == frontend.OpShfl || in.Op == frontend.OpVote }

// arriveWarpSync stops the thread at the warp-level instruction in of frame f.
func (t *thread) arriveWarpSync(f *frame, in *ssa.Instr) error {
	x := inst{Instr: in, t: t, f: f}
	if !x.has(frontend.ModSync) || in.Guard != nil || len(in.Args) == 0 {
		return t.errorf(pos(in.Pos), "unsupported instruction %s", spelling(in))
	}
	m, err := x.src(in.Args[len(in.Args)-1], frontend.B32)
	if err != nil {
		return t.errorf(pos(in.Pos), "unsupported instruction %s", spelling(in))
	}
	lane := t.linear % 32
	if m&(1<<lane) == 0 {
		return t.errorf(pos(in.Pos), "%s membermask %#08x does not include the executing lane %d", spelling(in), m, lane)
	}
	t.waiting, t.sync = true, &warpSync{in: in, f: f, mask: uint32(m)}
	return nil
}

// runWarpSyncs runs every warp-level instruction whose group has arrived in full: every lane
// of the membermask that has not exited waits at the instruction with the same membermask.
// It reports whether any ran. warp holds the CTA's threads of one warp, by lane.
func runWarpSyncs(warp []*thread) (bool, error) {
	ran := false
	for _, t := range warp {
		if t.done || t.sync == nil {
			continue
		}
		s := t.sync
		var group []*thread
		complete := true
		for _, o := range warp {
			if o.done || s.mask&(1<<(o.linear%32)) == 0 {
				continue
			}
			if o.sync == nil || o.sync.in != s.in || o.sync.mask != s.mask {
				// At a barrier or another warp-level instruction, which may complete first;
				// if nothing can, the CTA reports a deadlock (syncDeadlock).
				complete = false
				continue
			}
			group = append(group, o)
		}
		if !complete {
			continue
		}
		if err := runGroup(s.in, group); err != nil {
			return false, err
		}
		for _, o := range group {
			o.waiting, o.sync = false, nil
		}
		ran = true
	}
	return ran, nil
}

// runGroup runs warp-level instruction in for the threads of group, which wait at it.
func runGroup(in *ssa.Instr, group []*thread) error {
	byLane := map[int]*thread{}
	var lanes uint32
	for _, t := range group {
		byLane[t.linear%32] = t
		lanes |= 1 << (t.linear % 32)
	}
	x := func(t *thread) inst { return inst{Instr: in, t: t, f: t.sync.f} }
	fail := func(t *thread, err error) error {
		if err == errUnsupported {
			return t.errorf(pos(in.Pos), "unsupported instruction %s", spelling(in))
		}
		return err
	}
	if in.Op == frontend.OpVote {
		return runVote(in, group, lanes, x, fail)
	}
	mode := frontend.Mod(0)
	for _, m := range []frontend.Mod{frontend.ModUp, frontend.ModDown, frontend.ModBfly, frontend.ModIdx} {
		if x(group[0]).has(m) {
			mode = m
		}
	}
	if mode == 0 || len(in.Args) != 4 || len(in.Dsts) != 1 {
		return fail(group[0], errUnsupported)
	}
	// Read every source first: a thread's destination may be another's source register.
	type result struct {
		v     uint64
		valid bool
	}
	results := make([]result, len(group))
	for i, t := range group {
		var ops [3]uint64
		for k := range ops {
			v, err := x(t).src(in.Args[k], frontend.B32)
			if err != nil {
				return fail(t, err)
			}
			ops[k] = v
		}
		lane := uint32(t.linear % 32)
		b, c := uint32(ops[1])&0x1f, uint32(ops[2])
		segMask := c >> 8 & 0x1f
		maxLane := lane&segMask | c&0x1f&^segMask
		minLane := lane & segMask
		var j uint32
		var ok bool
		switch mode {
		case frontend.ModUp:
			j = lane - b
			ok = int32(j) >= int32(maxLane)
		case frontend.ModDown:
			j = lane + b
			ok = j <= maxLane
		case frontend.ModBfly:
			j = lane ^ b
			ok = j <= maxLane
		default:
			j = minLane | b&^segMask
			ok = j <= maxLane
		}
		switch src := byLane[int(j&31)]; {
		case !ok:
			results[i] = result{v: ops[0]}
		case src != nil:
			v, err := x(src).src(in.Args[0], frontend.B32)
			if err != nil {
				return fail(src, err)
			}
			results[i] = result{v: v, valid: true}
		default:
			results[i] = result{valid: true}
		}
	}
	for i, t := range group {
		d := in.Dsts[0]
		if d.Kind == ssa.ArgPair {
			if err := x(t).setPred(d.Elems[1], results[i].valid); err != nil {
				return fail(t, err)
			}
			d = d.Elems[0]
		}
		if err := x(t).dst(d, results[i].v, frontend.B32); err != nil {
			return fail(t, err)
		}
	}
	return nil
}

// runVote runs vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32 for group.
func runVote(in *ssa.Instr, group []*thread, lanes uint32, x func(*thread) inst, fail func(*thread, error) error) error {
	if len(in.Args) != 2 || len(in.Dsts) != 1 {
		return fail(group[0], errUnsupported)
	}
	var set uint32
	for _, t := range group {
		p, err := x(t).pred(in.Args[0])
		if err != nil {
			return fail(t, err)
		}
		if p {
			set |= 1 << (t.linear % 32)
		}
	}
	for _, t := range group {
		xt := x(t)
		var err error
		switch {
		case xt.has(frontend.ModBallot):
			err = xt.dst(in.Dsts[0], uint64(set), frontend.B32)
		case xt.has(frontend.ModAll):
			err = xt.setPred(in.Dsts[0], set == lanes)
		case xt.has(frontend.ModAny):
			err = xt.setPred(in.Dsts[0], set != 0)
		case xt.has(frontend.ModUni):
			err = xt.setPred(in.Dsts[0], set == 0 || set == lanes)
		default:
			err = errUnsupported
		}
		if err != nil {
			return fail(t, err)
		}
	}
	return nil
}

// syncDeadlock describes a thread that waits at a warp-level instruction whose group can never
// complete: a lane of its membermask waits at a barrier or at another warp-level instruction,
// or with another membermask.
func (t *thread) syncDeadlock() error {
	return t.errorf(pos(t.sync.in.Pos), "%s membermask %#08x names lanes that never reach it with that membermask", spelling(t.sync.in), t.sync.mask)
}
