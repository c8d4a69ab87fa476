package layout

import (
	"fmt"
	"math"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// Cache eviction policies. createpolicy makes the opaque 64-bit policy that accesses with
// .L2::cache_hint take; with no cache to steer, both back ends accept those operands and
// ignore them, so a policy only has to be a deterministic value. Its bits are ptx2go's own
// (NVIDIA does not document the GPU's): bits 0-1 the primary priority (evict_normal 0,
// evict_first 1, evict_last 2, evict_unchanged 3), bits 2-3 the secondary one (evict_unchanged
// 0, evict_first 1), bit 4 set for a range policy, and bits 32-63 a fractional policy's
// fraction as float32 bits. createpolicy.cvt.L2 turns a CUDA access property into a policy: the
// property itself. applypriority and discard act on the L2 cache only: applypriority is a
// hint, and discard leaves memory as it was, which is one of the values the ISA allows a
// discarded line to read as afterwards.

var (
	modFractional = knownMod(".fractional")
	modRange      = knownMod(".range")
	modCvt        = knownMod(".cvt")
	modL2EvFirst  = knownMod(".L2::evict_first")
	modL2EvUnch   = knownMod(".L2::evict_unchanged")
	modB64        = knownMod(".b64")
	modGlobal     = knownMod(".global")
)

// CachePolicy classifies createpolicy. For the fractional and range forms it returns the
// policy; for createpolicy.cvt.L2.b64, copy says the result is the operand. msg is the error of
// a malformed form; ok false with no msg is a form the back ends do not support.
func CachePolicy(in *ssa.Instr) (policy uint64, copy, ok bool, msg string) {
	if len(in.Dsts) != 1 || in.Dsts[0].Kind != ssa.ArgValue || in.Dsts[0].Value.Reg.Type.Bits() != 64 {
		return 0, false, false, ""
	}
	var form frontend.Mod
	priorities := []uint64{}
	global, b64, l2 := false, false, false
	for _, m := range in.Mods {
		switch m {
		case modFractional, modRange, modCvt:
			if form != 0 {
				return 0, false, false, ""
			}
			form = m
		case modL2EvNorm:
			priorities = append(priorities, 0)
		case modL2EvFirst:
			priorities = append(priorities, 1)
		case modL2EvLast:
			priorities = append(priorities, 2)
		case modL2EvUnch:
			priorities = append(priorities, 3)
		case modGlobal:
			global = true
		case modB64:
			b64 = true
		case modL2:
			l2 = true
		default:
			return 0, false, false, ""
		}
	}
	if !b64 || l2 != (form == modCvt) {
		return 0, false, false, ""
	}
	if form == modCvt {
		ok := len(priorities) == 0 && !global && len(in.Args) == 1 && in.Args[0].Kind == ssa.ArgValue
		return 0, true, ok, ""
	}
	if form == 0 || len(priorities) == 0 || len(priorities) > 2 || global && form != modRange {
		return 0, false, false, ""
	}
	policy = priorities[0]
	if len(priorities) == 2 {
		switch priorities[1] {
		case 3:
		case 1:
			policy |= 1 << 2
		default:
			return 0, false, false, ""
		}
	}
	if form == modRange {
		if len(in.Args) != 3 || in.Args[0].Kind != ssa.ArgAddr {
			return 0, false, false, ""
		}
		for _, a := range in.Args[1:] {
			if a.Kind != ssa.ArgValue && a.Kind != ssa.ArgImm {
				return 0, false, false, ""
			}
		}
		if p, t := in.Args[1], in.Args[2]; p.Kind == ssa.ArgImm && t.Kind == ssa.ArgImm && p.Imm > t.Imm {
			return 0, false, false, fmt.Sprintf("createpolicy primary size %d exceeds the total size %d", p.Imm, t.Imm)
		}
		return policy | 1<<4, false, true, ""
	}
	fraction := uint64(math.Float32bits(1))
	switch len(in.Args) {
	case 0:
	case 1:
		if in.Args[0].Kind != ssa.ArgFloat {
			return 0, false, false, ""
		}
		fraction = FloatBits(frontend.F32, in.Args[0].Form, in.Args[0].Imm)
		if f := math.Float32frombits(uint32(fraction)); !(f > 0 && f <= 1) {
			return 0, false, false, fmt.Sprintf("createpolicy fraction %g outside (0, 1]", f)
		}
	default:
		return 0, false, false, ""
	}
	return policy | fraction<<32, false, true, ""
}

// CheckCacheHint checks applypriority{.global}.L2::evict_normal [a], 128 and
// discard{.global}.L2 [a], 128 as CheckHint does.
func CheckCacheHint(in *ssa.Instr) (ok bool, msg string) {
	want := modL2EvNorm
	if in.Op == frontend.OpDiscard {
		want = modL2
	}
	level := false
	for _, m := range in.Mods {
		switch m {
		case want:
			level = true
		case modGlobal:
		default:
			return false, ""
		}
	}
	if !level || len(in.Args) != 2 || in.Args[0].Kind != ssa.ArgAddr || in.Args[1].Kind != ssa.ArgImm {
		return false, ""
	}
	if in.Args[1].Imm != 128 {
		return false, fmt.Sprintf("%s size %d: the only size is 128", in.Op, in.Args[1].Imm)
	}
	return true, ""
}
