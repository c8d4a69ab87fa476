package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The other forms: mov and selp, the 128-bit forms, barriers and the warp-level
// instructions, and the instructions whose decoders live in this package (matrix, mbarrier,
// cp.async, hints, cache policies).

var (
	// movTypes are the types mov copies, packs and unpacks (.b128 and .pred have rows of
	// their own).
	movTypes = slices.Concat(intTypes, halfTypes, f32f64)
	// selpTypes are selp's.
	selpTypes  = slices.Concat(intTypes, halfTypes, f32f64)
	modAligned = frontend.ModAligned
)

func init() {
	b128 := [][]frontend.Type{{frontend.B128}}
	addForms(
		// mov.type d, a; mov.pred; mov.type d, {a, b, ...} packing the elements into d, first
		// lowest, and mov.type {a, b, ...}, d unpacking; mov.v2/.v4.type between vectors.
		&FormRow{Ops: opl(frontend.OpMov), Types: [][]frontend.Type{movTypes}, Rule: movRule, Operands: "%0, %0"},
		&FormRow{
			Ops:      opl(frontend.OpMov),
			Types:    [][]frontend.Type{{frontend.Pred}},
			Rule:     movRule,
			Operands: "%pred, %pred",
		},
		&FormRow{
			Ops:      opl(frontend.OpMov),
			Types:    [][]frontend.Type{movTypes},
			Mods:     []ModGroup{need(frontend.ModV2, frontend.ModV4)},
			Rule:     movRule,
			Operands: "%0v, %0v",
		},
		&FormRow{Ops: opl(frontend.OpSelp), Types: [][]frontend.Type{selpTypes}, Operands: "%0, %0, %0, %pred"},

		// The .b128 forms: ld, st (without vectors), atom.cas and atom.exch, and mov copying,
		// packing two 64-bit halves or unpacking them.
		&FormRow{
			Ops:      opl(frontend.OpLd),
			Types:    b128,
			Mods:     ldMods[:len(ldMods)-1],
			Rule:     memRule,
			SinkDst:  true,
			Operands: "%b128, [a]",
		},
		&FormRow{
			Ops:      opl(frontend.OpSt),
			Types:    b128,
			Mods:     stMods[:len(stMods)-1],
			Rule:     memRule,
			Operands: "[a], %b128",
		},
		&FormRow{
			Ops:      opl(frontend.OpAtom),
			Types:    b128,
			Mods:     b128AtomMods(frontend.ModExch, modCacheHint),
			Rule:     atomRule,
			SinkDst:  true,
			Operands: "%b128, [a], %b128",
		},
		&FormRow{
			Ops:      opl(frontend.OpAtom),
			Types:    b128,
			Mods:     b128AtomMods(frontend.ModCas),
			Rule:     atomRule,
			SinkDst:  true,
			Operands: "%b128, [a], %b128, %b128",
		},
		&FormRow{Ops: opl(frontend.OpMov), Types: b128, Rule: movB128Rule, Operands: "%b128, %b128"},

		// Fences order memory this machine keeps sequentially consistent: every form is
		// accepted (and is nothing).
		&FormRow{
			Ops:      opl(frontend.OpMembar, frontend.OpFence),
			AnyMods:  true,
			Examples: []string{"membar.gl", "membar.cta", "fence.sc.gpu", "fence.acq_rel.sys", "fence.proxy.async"},
		},
		// CTA barriers: bar{.cta}.sync, bar{.cta}.arrive, barrier{.cta}.sync{.aligned} ... a{, b},
		// bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b}, {!}c.
		&FormRow{
			Ops:      opl(frontend.OpBar, frontend.OpBarrier),
			Mods:     []ModGroup{need(frontend.ModSync, frontend.ModArrive), opt(modAligned), opt(frontend.ModCta)},
			Rule:     barRule,
			Operands: "0",
		},
		&FormRow{
			Ops:      opl(frontend.OpBar, frontend.OpBarrier),
			Types:    [][]frontend.Type{{frontend.U32}},
			Mods:     []ModGroup{need(frontend.ModRed), need(frontend.ModPopc), opt(modAligned), opt(frontend.ModCta)},
			Rule:     barRule,
			Operands: "%0, 0, %pred",
		},
		&FormRow{
			Ops:      opl(frontend.OpBar, frontend.OpBarrier),
			Types:    [][]frontend.Type{{frontend.Pred}},
			Mods:     []ModGroup{need(frontend.ModRed), need(frontend.ModAnd, frontend.ModOr), opt(modAligned), opt(frontend.ModCta)},
			Rule:     barRule,
			Operands: "%pred, 0, %pred",
		},
		// The warp-level instructions (DecodeWarp) and bar.warp.sync.
		&FormRow{Ops: opl(frontend.OpShfl, frontend.OpVote, frontend.OpMatch, frontend.OpRedux, frontend.OpElect, frontend.OpActivemask, frontend.OpBar, frontend.OpBarrier), AnyMods: true, Rule: warpRule, Examples: []string{
			"shfl.sync.idx.b32 %b32, %b32, %b32, 31, -1", "shfl.sync.bfly.b32 %b32|%pred, %b32, 1, 31, %b32", "shfl.up.b32 %b32, %b32, 1, 0",
			"vote.sync.ballot.b32 %b32, %pred, -1", "vote.sync.all.pred %pred, !%pred, %b32", "vote.any.pred %pred, %pred",
			"match.any.sync.b32 %b32, %b32, -1", "match.all.sync.b64 %b32|%pred, %b64, -1", "redux.sync.add.u32 %b32, %b32, -1",
			"redux.sync.min.s32 %b32, %b32, %b32", "redux.sync.xor.b32 %b32, %b32, -1", "elect.sync %b32|%pred, -1",
			"activemask.b32 %b32", "bar.warp.sync -1", "bar.warp.sync %b32"}},
		// The matrix instructions (Matrix, Wmma), mbarrier (Mbarrier) and cp.async (CpAsync).
		&FormRow{Ops: opl(frontend.OpLdmatrix, frontend.OpMma), AnyMods: true, Rule: func(in *ssa.Instr) (bool, string) {
			_, ok, msg := Matrix(in)
			return ok, msg
		}, Examples: []string{
			"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%b32, %b32, %b32, %b32}, [a]",
			"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%b32}, [a]",
			"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f32, %f32, %f32, %f32}, {%b32, %b32, %b32, %b32}, {%b32, %b32}, {%f32, %f32, %f32, %f32}",
			"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f32, %f32, %f32, %f32}, {%b32, %b32}, {%b32}, {%f32, %f32, %f32, %f32}",
		}},
		&FormRow{Ops: opl(frontend.OpWmma), AnyMods: true, Rule: func(in *ssa.Instr) (bool, string) {
			_, ok, msg := Wmma(in)
			return ok, msg
		}, Examples: []string{
			"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%b32, %b32, %b32, %b32, %b32, %b32, %b32, %b32}, [a], 16",
			"wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [a], {%f32, %f32, %f32, %f32, %f32, %f32, %f32, %f32}, 16",
		}},
		&FormRow{Ops: opl(frontend.OpMbarrier), AnyMods: true, Rule: mbarrierRule, Examples: []string{
			"mbarrier.init.shared.b64 [a], 32", "mbarrier.arrive.shared.b64 %b64, [a]", "mbarrier.test_wait.shared.b64 %pred, [a], %b64",
			"mbarrier.try_wait.parity.shared.b64 %pred, [a], %b32", "mbarrier.inval.shared.b64 [a]", "mbarrier.pending_count.b64 %b32, %b64",
			"mbarrier.arrive.noComplete.shared.b64 %b64, [a], 1", "mbarrier.arrive_drop.release.cta.shared.b64 _, [a]",
		}},
		&FormRow{Ops: opl(frontend.OpCp), AnyMods: true, Rule: func(in *ssa.Instr) (bool, string) {
			_, ok, msg := CpAsync(in)
			return ok, msg
		}, Examples: []string{
			"cp.async.ca.shared.global [a], [a], 16", "cp.async.cg.shared.global [a], [a], 16, %b32", "cp.async.commit_group",
			"cp.async.wait_group 0", "cp.async.wait_all", "cp.async.mbarrier.arrive.b64 [a]",
		}},
		// Hints (CheckHint): prefetch, prefetchu, nanosleep, pmevent, brkpt, griddepcontrol,
		// setmaxnreg; applypriority and discard (CheckCacheHint); createpolicy (CachePolicy).
		&FormRow{Ops: opl(frontend.OpPrefetch, frontend.OpPrefetchu, frontend.OpNanosleep, frontend.OpPmevent, frontend.OpBrkpt, frontend.OpGriddepcontrol, frontend.OpSetmaxnreg), AnyMods: true, Rule: CheckHint, Examples: []string{
			"prefetch.global.L2 [a]", "prefetch.L1 [a]", "prefetchu.L1 [a]", "nanosleep.u32 %b32", "nanosleep.u32 100", "pmevent 1",
			"pmevent.mask 3", "brkpt", "griddepcontrol.wait", "griddepcontrol.launch_dependents", "setmaxnreg.inc.sync.aligned.u32 64",
		}},
		&FormRow{Ops: opl(frontend.OpApplypriority, frontend.OpDiscard), AnyMods: true, Rule: CheckCacheHint, Examples: []string{
			"applypriority.global.L2::evict_normal [a], 128", "discard.global.L2 [a], 128",
		}},
		&FormRow{Ops: opl(frontend.OpCreatepolicy), AnyMods: true, Rule: func(in *ssa.Instr) (bool, string) {
			_, _, ok, msg := CachePolicy(in)
			return ok, msg
		}, Examples: []string{
			"createpolicy.fractional.L2::evict_last.b64 %b64, 1.0", "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %b64, 0.5",
		}},
	)
}

// movRule checks mov's operand shapes: a scalar copy, a pack of elements into a scalar, an
// unpack of a scalar into elements (of a width the type's divides into), or, with .v2/.v4,
// vectors of that length.
func movRule(in *ssa.Instr) (bool, string) {
	d, a := in.Dsts[0], in.Args[0]
	t := InstrType(in)
	value := func(x ssa.Arg) bool { return x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred }
	if n := vecLen(in); n > 0 {
		if d.Kind != ssa.ArgVector || a.Kind != ssa.ArgVector || len(d.Elems) != n || len(a.Elems) != n || n > 4 {
			return reject()
		}
		for _, x := range d.Elems {
			if x.Kind != ssa.ArgSink && !value(x) {
				return reject()
			}
		}
		return true, ""
	}
	switch {
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector, d.Kind == ssa.ArgPair, a.Kind == ssa.ArgPair:
		return reject()
	case t == frontend.Pred:
		return d.Kind == ssa.ArgSink || isPredArg(d), ""
	case d.Kind == ssa.ArgVector:
		if k := len(d.Elems); k < 2 || t.Bits()%k != 0 {
			return reject()
		}
		for _, x := range d.Elems {
			if x.Kind != ssa.ArgSink && !value(x) {
				return reject()
			}
		}
		return true, ""
	case a.Kind == ssa.ArgVector:
		if k := len(a.Elems); k < 2 || t.Bits()%k != 0 {
			return rejectf("cannot pack %d elements into %s", k, t)
		}
	}
	return d.Kind == ssa.ArgSink || value(d), ""
}

// movB128Rule checks mov.b128: a copy between .b128 registers, or a pack of two 64-bit
// halves into one, or an unpack of one into two.
func movB128Rule(in *ssa.Instr) (bool, string) {
	d, a := in.Dsts[0], in.Args[0]
	b128Reg := func(x ssa.Arg, dst bool) bool {
		return x.Kind == ssa.ArgValue && x.Value.Reg.Type == frontend.B128 || dst && x.Kind == ssa.ArgSink
	}
	half := func(x ssa.Arg, dst bool) bool {
		switch {
		case anyB128(x):
			return false
		case dst:
			return x.Kind == ssa.ArgSink || x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred
		}
		return x.Kind == ssa.ArgValue && x.Value.Reg.Type != frontend.Pred || x.Kind == ssa.ArgImm
	}
	switch {
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector:
		return reject()
	case d.Kind == ssa.ArgVector:
		return len(d.Elems) == 2 && half(d.Elems[0], true) && half(d.Elems[1], true) && b128Reg(a, false), ""
	case a.Kind == ssa.ArgVector:
		return len(a.Elems) == 2 && half(a.Elems[0], false) && half(a.Elems[1], false) && b128Reg(d, true), ""
	}
	return b128Reg(d, true) && b128Reg(a, false), ""
}

// b128AtomMods are the groups of atom.exch.b128 and atom.cas.b128.
func b128AtomMods(op frontend.Mod, extra ...frontend.Mod) []ModGroup {
	g := []ModGroup{need(op), opt(frontend.ModRelaxed, frontend.ModRelease, frontend.ModAcquire, frontend.ModAcqRel), opt(scopeMods...), opt(atomSpaces...)}
	if len(extra) > 0 {
		g = append(g, opt(extra...))
	}
	return g
}

// anyB128 reports whether a .b128 register appears in a, an element of it, or its address
// base.
func anyB128(a ssa.Arg) bool {
	if a.Value != nil && a.Value.Reg.Type == frontend.B128 {
		return true
	}
	return slices.ContainsFunc(a.Elems, anyB128)
}

// usesB128 reports whether an instruction involves 128-bit values: the .b128 type or a .b128
// register.
func usesB128(in *ssa.Instr) bool {
	return slices.Contains(instrTypes(in), frontend.B128) || slices.ContainsFunc(in.Dsts, anyB128) || slices.ContainsFunc(in.Args, anyB128)
}

// b128Rule admits the instructions with 128-bit values that have rows: mov, ld, st and atom
// of the one type .b128, without vectors, whose address is not a .b128 register.
func b128Rule(in *ssa.Instr) (bool, string) {
	if ts := instrTypes(in); len(ts) != 1 || ts[0] != frontend.B128 || vecLen(in) > 0 {
		return reject()
	}
	switch in.Op {
	case frontend.OpMov:
		return true, ""
	case frontend.OpLd, frontend.OpSt, frontend.OpAtom:
		return len(in.Args) > 0 && !anyB128(in.Args[0]), ""
	}
	return reject()
}

// barRule checks a CTA barrier: no guard (the runtime's barrier terminator has none), the
// barrier and thread count registers or immediates, and bar.red's destination and source
// predicate; barrier.cluster is not supported.
func barRule(in *ssa.Instr) (bool, string) {
	if IsClusterBarrier(in) || !IsBarrier(in) {
		return reject()
	}
	args := in.Args
	if hasMod(in, frontend.ModRed) {
		// bar.red writes its first operand; the SSA builder lists it with the sources.
		dst := ssa.Arg{Kind: ssa.ArgSink}
		if len(in.Dsts) > 0 {
			dst = in.Dsts[0]
		} else if len(args) > 0 {
			dst, args = args[0], args[1:]
		}
		if len(args) == 0 {
			return rejectf("bar.red needs a predicate operand")
		}
		last := args[len(args)-1]
		popc := hasMod(in, frontend.ModPopc)
		if dst.Kind != ssa.ArgValue || isPredArg(dst) == popc || !isPredArg(last) {
			return reject()
		}
		args = args[:len(args)-1]
	}
	if in.Guard != nil {
		return rejectf("unsupported: %s with a guard", Spelling(in))
	}
	if len(args) > 2 {
		return reject()
	}
	for _, a := range args {
		if a.Kind != ssa.ArgImm && (a.Kind != ssa.ArgValue || isPredArg(a)) {
			return rejectf("unsupported: %s with special-register operands", Spelling(in))
		}
	}
	return true, ""
}

// warpRule checks a warp-level instruction: DecodeWarp's form, its membermask a register or
// an immediate, its other sources registers or immediates.
func warpRule(in *ssa.Instr) (bool, string) {
	if (in.Op == frontend.OpBar || in.Op == frontend.OpBarrier) && !slices.Contains(in.Mods, modWarp) {
		return reject()
	}
	wi, msg := DecodeWarp(in)
	if wi == nil {
		return false, msg
	}
	if wi.Sync {
		if m := wi.Mask; m.Kind != ssa.ArgImm && (m.Kind != ssa.ArgValue || isPredArg(m)) {
			return rejectf("unsupported membermask operand of %s", Spelling(in))
		}
	}
	for _, a := range wi.Srcs {
		if !dataOperand(a, wi.SrcType, 0, false) {
			return reject()
		}
	}
	if wi.Op == frontend.OpVote && wi.VotePred.Kind != ssa.ArgImm && !isPredArg(wi.VotePred) {
		return rejectf("operand must be a predicate")
	}
	return true, ""
}

// mbarrierRule checks an mbarrier instruction: Mbarrier's form, with registers or immediates
// as its sources but the address.
func mbarrierRule(in *ssa.Instr) (bool, string) {
	f, ok := Mbarrier(in)
	if !ok {
		return reject()
	}
	if f.HasB && !dataOperand(f.B, f.BType, 0, false) {
		return reject()
	}
	for _, a := range in.Args {
		if a.Kind != ssa.ArgAddr && !dataOperand(a, frontend.B64, 0, false) {
			return reject()
		}
	}
	return true, ""
}
