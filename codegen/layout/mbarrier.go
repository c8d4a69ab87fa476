package layout

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// MbarForm is an mbarrier instruction as both back ends lower it: the runtime operation
// (runtime.Warp.Mbarrier) and its operands.
type MbarForm struct {
	Op runtime.MbarOp
	// Addr is the barrier object's address operand (ArgAddr), absent for pending_count.
	Addr ssa.Arg
	// B is the count, state or parity operand; HasB is false for inval and for an arrive
	// without count, which counts 1.
	B    ssa.Arg
	HasB bool
	// BType is the type B is read as.
	BType frontend.Type
	// Dst is the destination (a state, a count or a predicate), if any.
	Dst    ssa.Arg
	HasDst bool
}

var (
	modMbarInit         = knownMod(".init")
	modMbarInval        = knownMod(".inval")
	modMbarArrive       = knownMod(".arrive")
	modMbarArriveDrop   = knownMod(".arrive_drop")
	modMbarTestWait     = knownMod(".test_wait")
	modMbarTryWait      = knownMod(".try_wait")
	modMbarPendingCount = knownMod(".pending_count")
	modMbarParity       = knownMod(".parity")
	modMbarNoComplete   = knownMod(".noComplete")
	modCTA              = knownMod(".cta")
	modCluster          = knownMod(".cluster")
	modSharedCluster    = knownMod(".shared::cluster")
)

// Mbarrier classifies an mbarrier instruction of the sm_80 forms,
//
//	mbarrier.init{.shared{::cta}}.b64 [a], count
//	mbarrier.inval{.shared{::cta}}.b64 [a]
//	mbarrier.arrive{.noComplete}{.sem}{.scope}{.shared{::cta}}.b64 state, [a]{, count}
//	mbarrier.arrive_drop{.noComplete}{.sem}{.scope}{.shared{::cta}}.b64 state, [a]{, count}
//	mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state-or-parity
//	mbarrier.try_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state-or-parity{, hint}
//	mbarrier.pending_count.b64 count, state
//
// (.noComplete with a count; state may be the sink _), and reports false for any other:
// cluster-shared objects and the transaction counts of sm_90 (.expect_tx, .complete_tx).
// Without a state space the address is generic.
func Mbarrier(in *ssa.Instr) (MbarForm, bool) {
	var f MbarForm
	var kind frontend.Mod
	nKinds, sems, scopes, b64 := 0, 0, 0, 0
	parity, noComplete := false, false
	for _, m := range in.Mods {
		_, isSpace := m.Space()
		switch {
		case m == modMbarInit, m == modMbarInval, m == modMbarArrive, m == modMbarArriveDrop,
			m == modMbarTestWait, m == modMbarTryWait, m == modMbarPendingCount:
			kind = m
			nKinds++
		case m == modMbarParity:
			parity = true
		case m == modMbarNoComplete:
			noComplete = true
		case m == frontend.ModRelaxed, m == frontend.ModRelease, m == frontend.ModAcquire:
			sems++
		case m == modCTA, m == modCluster:
			scopes++
		case m == frontend.ModOf(frontend.B64):
			b64++
		case isSpace && m != modSharedCluster:
			if sp, _ := m.Space(); sp != frontend.SpaceShared {
				return f, false
			}
		default:
			return f, false
		}
	}
	if nKinds != 1 || b64 != 1 || sems > 1 || scopes > 1 {
		return f, false
	}
	wait := kind == modMbarTestWait || kind == modMbarTryWait
	arrive := kind == modMbarArrive || kind == modMbarArriveDrop
	if parity && !wait || noComplete && !arrive || (sems > 0 || scopes > 0) && !wait && !arrive {
		return f, false
	}
	args, dsts := in.Args, in.Dsts
	if kind != modMbarPendingCount {
		if len(args) == 0 || args[0].Kind != ssa.ArgAddr {
			return f, false
		}
		f.Addr, args = args[0], args[1:]
	}
	f.BType = frontend.B64
	switch kind {
	case modMbarInit:
		f.Op, f.BType = runtime.MbarInit, frontend.B32
		if len(dsts) != 0 || len(args) != 1 {
			return f, false
		}
	case modMbarInval:
		f.Op = runtime.MbarInval
		if len(dsts) != 0 || len(args) != 0 {
			return f, false
		}
	case modMbarArrive, modMbarArriveDrop:
		f.Op, f.BType = runtime.MbarArrive, frontend.B32
		if kind == modMbarArriveDrop {
			f.Op = runtime.MbarArriveDrop
		}
		if noComplete {
			f.Op++ // the .noComplete variant follows each
		}
		if len(dsts) != 1 || len(args) > 1 || noComplete && len(args) != 1 {
			return f, false
		}
	case modMbarTestWait, modMbarTryWait:
		f.Op = runtime.MbarTestWait
		if parity {
			f.Op, f.BType = runtime.MbarTestWaitParity, frontend.B32
		}
		// try_wait's suspend-time hint only bounds how long it may wait.
		if len(dsts) != 1 || len(args) != 1 && (kind != modMbarTryWait || len(args) != 2) {
			return f, false
		}
		args = args[:1]
	case modMbarPendingCount:
		f.Op = runtime.MbarPendingCount
		if len(dsts) != 1 || len(args) != 1 {
			return f, false
		}
	}
	if len(args) == 1 {
		f.B, f.HasB = args[0], true
	}
	if len(dsts) == 1 {
		f.Dst, f.HasDst = dsts[0], dsts[0].Kind != ssa.ArgSink
		isPred := dsts[0].Kind == ssa.ArgValue && dsts[0].Value.Reg.Type == frontend.Pred
		if isPred != wait || dsts[0].Kind != ssa.ArgValue && dsts[0].Kind != ssa.ArgSink {
			return f, false
		}
	}
	return f, true
}
