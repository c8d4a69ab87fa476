package layout

import (
	"fmt"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// CpAsyncKind says which of the sm_80 asynchronous-copy instructions a cp.async is.
type CpAsyncKind uint8

// The kinds.
const (
	CpAsyncCopy   CpAsyncKind = iota // cp.async.{ca,cg}.shared.global
	CpAsyncCommit                    // cp.async.commit_group
	CpAsyncWait                      // cp.async.wait_group N and cp.async.wait_all
	CpAsyncArrive                    // cp.async.mbarrier.arrive{.noinc}
)

// CpAsyncForm is a cp.async instruction as both back ends lower it.
//
// Both run a copy at issue time, for each active lane in lane order, through
// runtime.Warp.CpAsync: that is one legal execution, since the copied data is only
// guaranteed visible after a cp.async.wait_group, cp.async.wait_all or the completion of an
// mbarrier phase that a cp.async.mbarrier.arrive tracks. Commit and wait then have no data to
// move and run as no-ops, and cp.async.mbarrier.arrive is an immediate arrive-on of the
// mbarrier object (runtime.Warp.Mbarrier with runtime.MbarCpAsyncArrive or
// runtime.MbarCpAsyncArriveNoinc).
type CpAsyncForm struct {
	Kind CpAsyncKind
	// Dst and Src are a copy's shared destination and global source address operands
	// (ArgAddr); Dst is also an arrive's mbarrier object address.
	Dst, Src ssa.Arg
	// Size is a copy's cp-size: 4, 8 or 16 bytes.
	Size int
	// SrcSize is a copy's src-size operand (a .u32 register or immediate), when HasSrcSize.
	SrcSize    ssa.Arg
	HasSrcSize bool
	// Ignore is a copy's ignore-src predicate operand (possibly negated), when HasIgnore.
	Ignore    ssa.Arg
	HasIgnore bool
	// Noinc marks cp.async.mbarrier.arrive.noinc; Generic says an arrive's address is
	// generic (no state space).
	Noinc, Generic bool
}

var (
	modAsync       = knownMod(".async")
	modCa          = knownMod(".ca")
	modCg          = knownMod(".cg")
	modCommitGroup = knownMod(".commit_group")
	modWaitGroup   = knownMod(".wait_group")
	modWaitAll     = knownMod(".wait_all")
	modMbarrier    = knownMod(".mbarrier")
	modNoinc       = knownMod(".noinc")
	modL2Hint      = knownMod(".L2::cache_hint")
	modL2Pre64     = knownMod(".L2::64B")
	modL2Pre128    = knownMod(".L2::128B")
	modL2Pre256    = knownMod(".L2::256B")
)

// CpAsync classifies a cp.async instruction of the sm_80 forms,
//
//	cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], cp-size{, src-size}{, cache-policy}
//	cp.async.cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], 16{, src-size}{, cache-policy}
//	cp.async.ca.shared{::cta}.global{...} [dst], [src], cp-size{, ignore-src}{, cache-policy}
//	cp.async.cg.shared{::cta}.global{...} [dst], [src], 16{, ignore-src}{, cache-policy}
//	cp.async.commit_group
//	cp.async.wait_group N
//	cp.async.wait_all
//	cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
//
// (cp-size 4, 8 or 16; the cache policy only hints the L2 cache). It reports ok for such a
// form, a message for a malformed one (a cp-size other than these, or other than 16 for
// .cg), and neither for a form no back end supports: the bulk and tensor copies of sm_90,
// other state spaces.
func CpAsync(in *ssa.Instr) (f CpAsyncForm, ok bool, msg string) {
	if in.Op != frontend.OpCp {
		return f, false, ""
	}
	async, ca, cg, commit, wait, waitAll, mbar, arrive, noinc, hint, prefetch, b64 := 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	var spaces []frontend.Space
	for _, m := range in.Mods {
		s, isSpace := m.Space()
		switch {
		case m == modAsync:
			async++
		case m == modCa:
			ca++
		case m == modCg:
			cg++
		case m == modCommitGroup:
			commit++
		case m == modWaitGroup:
			wait++
		case m == modWaitAll:
			waitAll++
		case m == modMbarrier:
			mbar++
		case m == modMbarArrive:
			arrive++
		case m == modNoinc:
			noinc++
		case m == modL2Hint:
			hint++
		case m == modL2Pre64, m == modL2Pre128, m == modL2Pre256:
			prefetch++
		case m == frontend.ModOf(frontend.B64):
			b64++
		case isSpace && m != modSharedCluster:
			spaces = append(spaces, s)
		default:
			return f, false, ""
		}
	}
	if async != 1 || len(in.Dsts) != 0 {
		return f, false, ""
	}
	args := in.Args
	switch {
	case commit+wait+waitAll == 1 && ca+cg+mbar+arrive+noinc+hint+prefetch+b64+len(spaces) == 0:
		f.Kind = CpAsyncCommit
		if commit == 0 {
			f.Kind = CpAsyncWait
		}
		if wait == 1 {
			// The number of groups that may stay pending only bounds the wait.
			return f, len(args) == 1 && args[0].Kind == ssa.ArgImm, ""
		}
		return f, len(args) == 0, ""
	case mbar == 1 && arrive == 1 && b64 == 1 && noinc <= 1 && ca+cg+commit+wait+waitAll+hint+prefetch == 0:
		f.Kind, f.Noinc = CpAsyncArrive, noinc == 1
		switch {
		case len(spaces) == 0:
			f.Generic = true
		case len(spaces) != 1 || spaces[0] != frontend.SpaceShared:
			return f, false, ""
		}
		if len(args) != 1 || args[0].Kind != ssa.ArgAddr {
			return f, false, ""
		}
		f.Dst = args[0]
		return f, true, ""
	case ca+cg == 1 && hint <= 1 && prefetch <= 1 && mbar+arrive+noinc+commit+wait+waitAll+b64 == 0:
	default:
		return f, false, ""
	}
	f.Kind = CpAsyncCopy
	if len(spaces) != 2 || spaces[0] != frontend.SpaceShared || spaces[1] != frontend.SpaceGlobal {
		return f, false, ""
	}
	if hint == 1 {
		// The cache policy (a .b64 operand, last) only hints the L2 cache.
		if len(args) < 1 || args[len(args)-1].Kind != ssa.ArgValue || args[len(args)-1].Value.Reg.Type.Bits() != 64 {
			return f, false, ""
		}
		args = args[:len(args)-1]
	}
	if len(args) < 3 || len(args) > 4 || args[0].Kind != ssa.ArgAddr || args[1].Kind != ssa.ArgAddr {
		return f, false, ""
	}
	f.Dst, f.Src = args[0], args[1]
	if args[2].Kind != ssa.ArgImm {
		return f, false, ""
	}
	switch size := args[2].Imm; {
	case size != 4 && size != 8 && size != 16:
		return f, false, fmt.Sprintf("cp.async cp-size %d is not 4, 8 or 16", size)
	case cg == 1 && size != 16:
		return f, false, fmt.Sprintf("cp.async.cg cp-size %d is not 16", size)
	default:
		f.Size = int(size)
	}
	if len(args) == 4 {
		switch a := args[3]; {
		case a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred:
			f.Ignore, f.HasIgnore = a, true
		case a.Kind == ssa.ArgValue && a.Value.Reg.Type.Bits() == 32 && !a.Not, a.Kind == ssa.ArgImm:
			f.SrcSize, f.HasSrcSize = a, true
		default:
			return f, false, ""
		}
	}
	return f, true, ""
}
