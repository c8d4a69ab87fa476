package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// WarpInstr is a decoded warp-level instruction (shfl, vote, match, redux, elect, activemask,
// bar.warp.sync): the forms both back ends accept and the operands they pass to the
// runtime.Warp method that runs it (runtime/warpops.go).
type WarpInstr struct {
	Op frontend.Opcode
	// Shfl, Vote, Redux and MatchAll are the instruction's mode.
	Shfl     runtime.ShflMode
	Vote     runtime.VoteMode
	Redux    runtime.ReduxOp
	MatchAll bool
	// Width is the bits of match's source (32 or 64).
	Width int
	// Dst is the value destination (a register or a sink; vote's predicate for all, any and
	// uni); PredDst the predicate of a `d|p` destination when HasPredDst.
	Dst        ssa.Arg
	PredDst    ssa.Arg
	HasPredDst bool
	// Srcs are the value sources, as .b32 (match: of its type): shfl's a, b, c; match's and
	// redux's a.
	Srcs    []ssa.Arg
	SrcType frontend.Type
	// VotePred is vote's source predicate ({!}a: Not set) or a predicate immediate.
	VotePred ssa.Arg
	// Mask is the membermask; Sync says there is one (vote and shfl have forms without).
	Mask ssa.Arg
	Sync bool
	// SelfGuarded says the instruction applies its own guard: the lanes whose guard is false
	// reach it without executing it (WarpSynchronous).
	SelfGuarded bool
}

// WarpSynchronous reports whether an instruction applies its own guard: shfl, vote, match,
// redux, elect and bar.warp.sync, where a lane whose guard is false still arrives at the
// synchronization (the ISA's shfl.sync pseudocode waits for every lane of membermask and only
// leaves the value of a guarded-off lane unpredictable) but contributes no value and receives
// none.
func WarpSynchronous(in *ssa.Instr) bool {
	switch in.Op {
	case frontend.OpShfl, frontend.OpVote, frontend.OpMatch, frontend.OpRedux, frontend.OpElect:
		return true
	case frontend.OpBar, frontend.OpBarrier:
		return slices.Contains(in.Mods, modWarp)
	}
	return false
}

// IsWarpInstr reports whether DecodeWarp handles the instruction's opcode.
func IsWarpInstr(in *ssa.Instr) bool {
	return in.Op == frontend.OpActivemask || WarpSynchronous(in)
}

// DecodeWarp decodes a warp-level instruction. It returns nil and an empty message for a
// form neither back end supports (reported as an unsupported instruction), or nil and a
// message for a malformed one.
func DecodeWarp(in *ssa.Instr) (*WarpInstr, string) {
	d := warpDecoder{in: in}
	wi := &WarpInstr{Op: in.Op, SrcType: frontend.B32, SelfGuarded: WarpSynchronous(in)}
	sync := d.has(frontend.ModSync)
	args := in.Args
	nargs := func(n int) bool { return len(args) == n+btoi(sync) }
	if sync && len(args) > 0 {
		wi.Mask, wi.Sync = args[len(args)-1], true
	}
	if len(in.Dsts) > 0 {
		wi.Dst = in.Dsts[0]
		if wi.Dst.Kind == ssa.ArgPair {
			wi.Dst, wi.PredDst, wi.HasPredDst = wi.Dst.Elems[0], wi.Dst.Elems[1], true
		}
	}
	types := d.types()
	typ := frontend.TypeNone
	if len(types) > 0 {
		typ = types[len(types)-1]
	}
	switch in.Op {
	case frontend.OpActivemask:
		if len(in.Mods) != 1 || typ != frontend.B32 || len(in.Dsts) != 1 || len(args) != 0 {
			return nil, ""
		}
	case frontend.OpBar, frontend.OpBarrier:
		if len(args) != 1 || !sync || len(in.Mods) != 2 {
			return nil, ""
		}
	case frontend.OpShfl:
		mode := d.oneOf(frontend.ModUp, frontend.ModDown, frontend.ModBfly, frontend.ModIdx)
		if mode == 0 || !d.modsOnly(mode) || len(types) != 1 || typ != frontend.B32 || !nargs(3) {
			return nil, ""
		}
		wi.Shfl = map[frontend.Mod]runtime.ShflMode{frontend.ModUp: runtime.ShflUp, frontend.ModDown: runtime.ShflDown,
			frontend.ModBfly: runtime.ShflBfly, frontend.ModIdx: runtime.ShflIdx}[mode]
		wi.Srcs = args[:3]
	case frontend.OpVote:
		mode := d.oneOf(frontend.ModAll, frontend.ModAny, frontend.ModUni, frontend.ModBallot)
		ballot := mode == frontend.ModBallot
		switch {
		case mode == 0 || !d.modsOnly(mode) || len(types) != 1 || !nargs(1) || wi.HasPredDst:
			return nil, ""
		case ballot && typ != frontend.B32, !ballot && typ != frontend.Pred:
			return nil, ""
		}
		wi.Vote = map[frontend.Mod]runtime.VoteMode{frontend.ModAll: runtime.VoteAll, frontend.ModAny: runtime.VoteAny,
			frontend.ModUni: runtime.VoteUni, frontend.ModBallot: runtime.VoteBallot}[mode]
		wi.VotePred = args[0]
	case frontend.OpMatch:
		mode := d.oneOf(frontend.ModAny, frontend.ModAll)
		if mode == 0 || !sync || !d.modsOnly(mode) || len(types) != 1 || typ != frontend.B32 && typ != frontend.B64 || len(args) != 2 {
			return nil, ""
		}
		if mode == frontend.ModAny && wi.HasPredDst {
			return nil, "match.any.sync has no predicate destination"
		}
		wi.MatchAll, wi.Width, wi.SrcType, wi.Srcs = mode == frontend.ModAll, typ.Bits(), typ, args[:1]
	case frontend.OpRedux:
		op := d.oneOf(frontend.ModAdd, frontend.ModMin, frontend.ModMax, frontend.ModAnd, frontend.ModOr, frontend.ModXor)
		if op == 0 || !sync || !d.modsOnly(op) || len(types) != 1 || len(args) != 2 || wi.HasPredDst {
			return nil, ""
		}
		bitwise := op == frontend.ModAnd || op == frontend.ModOr || op == frontend.ModXor
		if bitwise && typ != frontend.B32 || !bitwise && typ != frontend.U32 && typ != frontend.S32 {
			return nil, ""
		}
		signed := typ == frontend.S32
		switch op {
		case frontend.ModAdd:
			wi.Redux = runtime.ReduxAdd
		case frontend.ModMin:
			wi.Redux = map[bool]runtime.ReduxOp{false: runtime.ReduxMinU, true: runtime.ReduxMinS}[signed]
		case frontend.ModMax:
			wi.Redux = map[bool]runtime.ReduxOp{false: runtime.ReduxMaxU, true: runtime.ReduxMaxS}[signed]
		case frontend.ModAnd:
			wi.Redux = runtime.ReduxAnd
		case frontend.ModOr:
			wi.Redux = runtime.ReduxOr
		default:
			wi.Redux = runtime.ReduxXor
		}
		wi.SrcType, wi.Srcs = typ, args[:1]
	case frontend.OpElect:
		if !sync || !d.modsOnly() || len(types) != 0 || len(args) != 1 || !wi.HasPredDst {
			return nil, ""
		}
	default:
		return nil, ""
	}
	if len(in.Dsts) != 1 && in.Op != frontend.OpBar && in.Op != frontend.OpBarrier {
		return nil, ""
	}
	return wi, ""
}

// warpDecoder reads an instruction's modifiers.
type warpDecoder struct{ in *ssa.Instr }

func (d warpDecoder) has(m frontend.Mod) bool { return slices.Contains(d.in.Mods, m) }

func (d warpDecoder) types() []frontend.Type {
	var ts []frontend.Type
	for _, m := range d.in.Mods {
		if t, ok := m.Type(); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// modsOnly reports whether the instruction carries, besides types and .sync, only modifiers
// in allowed.
func (d warpDecoder) modsOnly(allowed ...frontend.Mod) bool {
	for _, m := range d.in.Mods {
		if _, isType := m.Type(); isType || m == frontend.ModSync {
			continue
		}
		if !slices.Contains(allowed, m) {
			return false
		}
	}
	return true
}

// oneOf returns the single modifier of the instruction among choices, or 0 when there is
// none or several.
func (d warpDecoder) oneOf(choices ...frontend.Mod) frontend.Mod {
	var found frontend.Mod
	for _, c := range choices {
		if d.has(c) {
			if found != 0 {
				return 0
			}
			found = c
		}
	}
	return found
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
