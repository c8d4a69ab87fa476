package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The memory forms: ld, ldu, st, atom, red, cvta, isspacep. This machine has no caches, and
// its memory is sequentially consistent for atomics and ordered per goroutine otherwise, so
// every memory-order and cache qualifier is accepted for what it is and changes nothing; what
// the grammar constrains is checked (one semantics, one scope with .relaxed, .acquire and
// .release, the extra operand of .L2::cache_hint).

var (
	modMmio      = knownMod(".mmio")
	modCacheHint = knownMod(".L2::cache_hint")
	modNoftz     = knownMod(".noftz")

	// memTypes are the types ld and st move: up to 64 bits (.b128 is b128Rule's).
	memTypes = slices.Concat(intTypes, halfTypes, f32f64)
	// The state spaces of ld and st; atom's (global and shared) and the vector atomics'.
	memSpaces  = []frontend.Mod{frontend.SpaceMod(frontend.SpaceGlobal), frontend.SpaceMod(frontend.SpaceConst), frontend.SpaceMod(frontend.SpaceLocal), frontend.SpaceMod(frontend.SpaceParam), frontend.SpaceMod(frontend.SpaceShared), knownMod(".shared::cta"), knownMod(".shared::cluster"), knownMod(".param::entry"), knownMod(".param::func")}
	atomSpaces = []frontend.Mod{frontend.SpaceMod(frontend.SpaceGlobal), frontend.SpaceMod(frontend.SpaceShared), knownMod(".shared::cta"), knownMod(".shared::cluster")}
	global     = frontend.SpaceMod(frontend.SpaceGlobal)
	// Cache operators of ld and st, eviction priorities and L2 prefetch sizes.
	loadCacheOps  = knownMods(".ca", ".cg", ".cs", ".lu", ".cv")
	storeCacheOps = knownMods(".wb", ".cg", ".cs", ".wt")
	l1Evictions   = knownMods(".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first", ".L1::evict_last", ".L1::no_allocate")
	l2Evictions   = knownMods(".L2::evict_first", ".L2::evict_last", ".L2::evict_normal", ".L2::evict_unchanged")
	prefetchSizes = knownMods(".L2::64B", ".L2::128B", ".L2::256B")
	scopeMods     = []frontend.Mod{frontend.ModCta, frontend.ModCluster, frontend.ModGpu, frontend.ModSys}
	vectors       = []frontend.Mod{frontend.ModV2, frontend.ModV4, frontend.ModV8}
)

var (
	// ld{.weak|.volatile|.relaxed.scope|.acquire.scope|.mmio.relaxed.sys}{.ss}{.cop}{.level::eviction_priority}{.L2::cache_hint}{.L2::prefetch_size}{.vec}.type,
	// ld.global.nc..., ldu{.global}{.vec}.type.
	ldMods = []ModGroup{
		opt(frontend.ModWeak, frontend.ModVolatile, frontend.ModRelaxed, frontend.ModAcquire), opt(modMmio), opt(scopeMods...),
		opt(memSpaces...), opt(loadCacheOps...), opt(l1Evictions...), opt(l2Evictions...), opt(modCacheHint), opt(prefetchSizes...),
		opt(frontend.ModNc), opt(vectors...),
	}
	// st{.weak|.volatile|.relaxed.scope|.release.scope|.mmio.relaxed.sys}{.ss}{.cop}{.level::eviction_priority}{.L2::cache_hint}{.vec}.type.
	stMods = []ModGroup{
		opt(frontend.ModWeak, frontend.ModVolatile, frontend.ModRelaxed, frontend.ModRelease), opt(modMmio), opt(scopeMods...),
		opt(memSpaces...), opt(storeCacheOps...), opt(l1Evictions...), opt(l2Evictions...), opt(modCacheHint), opt(vectors...),
	}
)

func init() {
	// atom{.sem}{.scope}{.space}.op{.L2::cache_hint}.type d, [a], b{, cache-policy},
	// atom{.sem}{.scope}{.space}.cas.type d, [a], b, c, and red (no .acquire or .acq_rel,
	// no cas or exch) without d.
	atomMods := func(ops ...frontend.Mod) []ModGroup {
		return []ModGroup{need(ops...), opt(frontend.ModRelaxed, frontend.ModRelease, frontend.ModAcquire, frontend.ModAcqRel), opt(scopeMods...), opt(atomSpaces...), opt(modCacheHint)}
	}
	addForms(
		&FormRow{
			Ops:      opl(frontend.OpLd),
			Types:    [][]frontend.Type{memTypes},
			Mods:     ldMods,
			Rule:     memRule,
			Operands: "%0v, [a]",
		},
		&FormRow{
			Ops:      opl(frontend.OpLdu),
			Types:    [][]frontend.Type{memTypes},
			Mods:     []ModGroup{opt(global), opt(vectors...)},
			Rule:     memRule,
			Operands: "%0v, [a]",
		},
		&FormRow{
			Ops:      opl(frontend.OpSt),
			Types:    [][]frontend.Type{memTypes},
			Mods:     stMods,
			Rule:     memRule,
			Operands: "[a], %0v",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{{frontend.B32, frontend.B64}},
			Mods:     atomMods(frontend.ModAnd, frontend.ModOr, frontend.ModXor),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom),
			Types:    [][]frontend.Type{{frontend.B32, frontend.B64}},
			Mods:     atomMods(frontend.ModExch),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom),
			Types:    [][]frontend.Type{{frontend.B16, frontend.B32, frontend.B64}},
			Mods:     atomMods(frontend.ModCas)[:4],
			Rule:     atomRule,
			Operands: "%0, [a], %0, %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{{frontend.U32}},
			Mods:     atomMods(frontend.ModInc, frontend.ModDec),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{int3264},
			Mods:     atomMods(frontend.ModMin, frontend.ModMax),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{{frontend.U32, frontend.S32, frontend.U64, frontend.F32, frontend.F64}},
			Mods:     atomMods(frontend.ModAdd),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		&FormRow{
			SinkDst:  true,
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{halfTypes},
			Mods:     append(atomMods(frontend.ModAdd), need(modNoftz)),
			Rule:     atomRule,
			Operands: "%0, [a], %0",
		},
		// The vector atomics on global memory, each element a separate atomic:
		// atom.add{.L2::cache_hint}.{v2,v4}.f32, atom.{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16}
		// and .{v2,v4}.{f16x2,bf16x2}, and the same forms of red.
		&FormRow{
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{f32},
			Mods:     atomVectorMods(false, frontend.ModV2, frontend.ModV4),
			Rule:     atomRule,
			Operands: "%0v, [a], %0v",
		},
		&FormRow{
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{halfScalars},
			Mods:     atomVectorMods(true, vectors...),
			Rule:     atomRule,
			Operands: "%0v, [a], %0v",
		},
		&FormRow{
			Ops:      opl(frontend.OpAtom, frontend.OpRed),
			Types:    [][]frontend.Type{halfPairs},
			Mods:     atomVectorMods(true, frontend.ModV2, frontend.ModV4),
			Rule:     atomRule,
			Operands: "%0v, [a], %0v",
		},

		// cvta{.to}.space.size: .param only in a kernel, whose parameters have generic
		// addresses.
		&FormRow{
			Ops:      opl(frontend.OpCvta),
			Types:    [][]frontend.Type{{frontend.U32, frontend.U64}},
			Mods:     []ModGroup{opt(frontend.ModTo), need(cvtaSpaces...)},
			Rule:     cvtaRule,
			Operands: "%0, %0",
		},
		// isspacep.space p, a.
		&FormRow{Ops: opl(frontend.OpIsspacep), Mods: []ModGroup{need(isspacepSpaces...)}, Operands: "%pred, %b64"},
	)
}

var (
	cvtaSpaces     = []frontend.Mod{frontend.SpaceMod(frontend.SpaceGlobal), frontend.SpaceMod(frontend.SpaceConst), frontend.SpaceMod(frontend.SpaceLocal), frontend.SpaceMod(frontend.SpaceShared), knownMod(".shared::cta"), frontend.SpaceMod(frontend.SpaceParam), knownMod(".param::entry")}
	isspacepSpaces = []frontend.Mod{frontend.SpaceMod(frontend.SpaceGlobal), frontend.SpaceMod(frontend.SpaceConst), frontend.SpaceMod(frontend.SpaceLocal), frontend.SpaceMod(frontend.SpaceShared), knownMod(".shared::cta"), knownMod(".shared::cluster"), frontend.SpaceMod(frontend.SpaceParam), knownMod(".param::entry")}
)

// atomVectorMods are the modifier groups of the vector atomics of the given lengths, with
// .noftz required (half) or not taken.
func atomVectorMods(half bool, vecs ...frontend.Mod) []ModGroup {
	ops := []frontend.Mod{frontend.ModAdd}
	if half {
		ops = append(ops, frontend.ModMin, frontend.ModMax)
	}
	g := []ModGroup{need(ops...), need(vecs...), opt(frontend.ModRelaxed, frontend.ModRelease, frontend.ModAcquire, frontend.ModAcqRel), opt(scopeMods...), opt(global), opt(modCacheHint)}
	if half {
		g = append(g, need(modNoftz))
	}
	return g
}

// memRule checks ld, ldu and st beyond their modifier groups: .relaxed, .acquire and
// .release with a scope and a scope only with them, .mmio only as .mmio.relaxed.sys, .nc only
// on ld.global, the operand count (one more with .L2::cache_hint), and the data operand: a
// register (ld: or a vector of registers and sinks, as long as .vN says) that is not a
// predicate, st's also an immediate.
func memRule(in *ssa.Instr) (bool, string) {
	ordered := hasMod(in, frontend.ModRelaxed) || hasMod(in, frontend.ModAcquire) || hasMod(in, frontend.ModRelease)
	scoped := slices.ContainsFunc(in.Mods, func(m frontend.Mod) bool { return slices.Contains(scopeMods, m) })
	switch {
	case ordered != scoped:
		return reject()
	case hasMod(in, modMmio) && !(hasMod(in, frontend.ModRelaxed) && hasMod(in, frontend.ModSys)):
		return reject()
	case hasMod(in, frontend.ModNc) && InstrSpace(in) != frontend.SpaceGlobal:
		return reject()
	}
	want := 2
	if hasMod(in, modCacheHint) {
		want++
	}
	if len(in.Dsts)+len(in.Args) != want {
		return reject()
	}
	t, n := InstrType(in), vecLen(in)
	if in.Op == frontend.OpSt {
		if ok, msg := addressRule(in, in.Args[0], InstrSpace(in)); !ok {
			return ok, msg
		}
		return dataOperand(in.Args[1], t, n, false), ""
	}
	if ok, msg := addressRule(in, in.Args[0], InstrSpace(in)); !ok {
		return ok, msg
	}
	d := in.Dsts[0]
	if !dataOperand(d, t, n, true) && !(t == frontend.B128 && d.Kind == ssa.ArgSink) {
		return reject()
	}
	if n > 0 && t.IsSigned() {
		// The elements of a signed vector load are sign-extended to one register width.
		w := 0
		for _, x := range d.Elems {
			if x.Kind != ssa.ArgValue {
				continue
			}
			if b := x.Value.Reg.Type.Bits(); w == 0 {
				w = b
			} else if b != w {
				return reject()
			}
		}
	}
	return true, ""
}

// dataOperand reports whether a is a data operand of a memory instruction of type t with
// vector length n (0: a scalar): a register that is not a predicate, a source also an integer
// or (for 32- and 64-bit types) floating-point immediate; a vector of n of them or sinks.
func dataOperand(a ssa.Arg, t frontend.Type, n int, dst bool) bool {
	scalar := func(a ssa.Arg) bool {
		switch a.Kind {
		case ssa.ArgValue:
			return a.Value.Reg.Type != frontend.Pred
		case ssa.ArgImm:
			return !dst && t != frontend.B128
		case ssa.ArgFloat:
			return !dst && !isHalf(t) && (t.Bits() == 32 || t.Bits() == 64)
		}
		return false
	}
	if n == 0 {
		return scalar(a)
	}
	if a.Kind != ssa.ArgVector || len(a.Elems) != n {
		return false
	}
	for _, x := range a.Elems {
		if x.Kind != ssa.ArgSink && !scalar(x) {
			return false
		}
	}
	return true
}

// addressRule checks the address operand of a memory instruction in state space sp: an
// address, and a variable in it one the space can reach.
func addressRule(in *ssa.Instr, a ssa.Arg, sp frontend.Space) (bool, string) {
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst, frontend.SpaceShared, frontend.SpaceLocal, frontend.SpaceNone, frontend.SpaceParam:
	default:
		return reject()
	}
	if a.Kind != ssa.ArgAddr {
		return rejectf("memory operand expected")
	}
	if v := a.Var; v != nil {
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			if sp == frontend.SpaceShared || sp == frontend.SpaceLocal || sp == frontend.SpaceParam {
				return rejectf("%s variable %s accessed as %s", v.Space, v.Name, sp)
			}
		case frontend.SpaceShared, frontend.SpaceLocal, frontend.SpaceParam:
		default:
			return rejectf("unsupported: access to %s variable %s", v.Space, v.Name)
		}
	}
	return true, ""
}

// atomRule checks atom and red beyond their modifier groups: red takes no .acquire or
// .acq_rel; the operand count (one more with cas and with .L2::cache_hint), a destination
// for atom only (a vector for the vector forms), and the data operands.
func atomRule(in *ssa.Instr) (bool, string) {
	red := in.Op == frontend.OpRed
	if red && (hasMod(in, frontend.ModAcquire) || hasMod(in, frontend.ModAcqRel)) {
		return reject()
	}
	want := 2
	if hasMod(in, frontend.ModCas) {
		want++
	}
	if hasMod(in, modCacheHint) {
		want++
	}
	nd := 1
	if red {
		nd = 0
	}
	if len(in.Args) != want || len(in.Dsts) != nd {
		return reject()
	}
	if ok, msg := addressRule(in, in.Args[0], InstrSpace(in)); !ok {
		return ok, msg
	}
	t, n := InstrType(in), vecLen(in)
	hint := boolInt(hasMod(in, modCacheHint))
	for _, a := range in.Args[1 : want-hint] {
		if !dataOperand(a, t, n, false) {
			return reject()
		}
	}
	if hint == 1 && !dataOperand(in.Args[want-1], frontend.B64, 0, false) {
		return reject()
	}
	if !red {
		d := in.Dsts[0]
		if n == 0 && d.Kind == ssa.ArgSink {
			return true, ""
		}
		if !dataOperand(d, t, n, true) {
			return reject()
		}
	}
	return true, ""
}

// cvtaRule: cvta.param takes a kernel's parameter.
func cvtaRule(in *ssa.Instr) (bool, string) {
	if InstrSpace(in) == frontend.SpaceParam && in.Block != nil && in.Block.Func.Kind != frontend.Entry {
		return rejectf("%s: only a kernel's parameters have generic addresses (cvta.param in a .func)", Spelling(in))
	}
	return true, ""
}

// isHalf reports whether t is a 16-bit float type, scalar or packed.
func isHalf(t frontend.Type) bool {
	return t == frontend.F16 || t == frontend.F16x2 || t == frontend.BF16 || t == frontend.BF16x2
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
