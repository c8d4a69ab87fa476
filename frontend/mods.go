package frontend

import (
	"fmt"
	"strings"
)

// Mod is a decoded instruction modifier: one dotted suffix of an opcode, as `.s32` or `.rn` in
// `cvt.rn.f32.s32`. Types and state spaces map onto Type and Space; every other modifier is one
// entry of a fixed table, so later stages compare small integers, never strings.
type Mod uint16

// ModKind classifies a modifier.
type ModKind uint8

// The modifier kinds. A few spellings serve several roles (`.hi` is a comparison for setp and a
// half selector for mul); their kind is the most common role and the consumer decides by opcode.
const (
	ModKindOther    ModKind = iota
	ModKindType             // .u32, .f16x2, ...
	ModKindSpace            // .global, .shared::cta, ...
	ModKindRounding         // .rn, .rzi, ...
	ModKindCompare          // .eq, .ltu, ...
	ModKindVector           // .v2, .v4, .v8
	ModKindShape            // .m16n8k16, ...
)

// Modifiers of the types and state spaces are numbered from these bases.
const (
	modTypeBase  Mod = 0
	modSpaceBase Mod = 64
	modOtherBase Mod = 96
)

// ModOf returns the modifier spelling type t.
func ModOf(t Type) Mod { return modTypeBase + Mod(t) }

// SpaceMod returns the modifier spelling state space s.
func SpaceMod(s Space) Mod { return modSpaceBase + Mod(s) }

// The non-type, non-space modifiers that later stages test by name.
const (
	ModRn Mod = modOtherBase + iota
	ModRz
	ModRm
	ModRp
	ModRni
	ModRzi
	ModRmi
	ModRpi
	ModRna
	ModRs
	ModEq
	ModNe
	ModLt
	ModLe
	ModGt
	ModGe
	ModLo
	ModLs
	ModHi
	ModHs
	ModEqu
	ModNeu
	ModLtu
	ModLeu
	ModGtu
	ModGeu
	ModNum
	ModNan
	ModV2
	ModV4
	ModV8
	ModUni
	ModSat
	ModFtz
	ModApprox
	ModFull
	ModWide
	ModCc
	ModSync
	ModAligned
	ModArrive
	ModRed
	ModIdx
	ModUp
	ModDown
	ModBfly
	ModAny
	ModAll
	ModBallot
	ModAnd
	ModOr
	ModXor
	ModPopc
	ModAdd
	ModInc
	ModDec
	ModExch
	ModCas
	ModMin
	ModMax
	ModTo
	ModVolatile
	ModRelaxed
	ModAcquire
	ModRelease
	ModAcqRel
	ModWeak
	ModSc
	ModCta
	ModGpu
	ModSys
	ModCluster
	ModGl
	ModNc
	ModShiftamt
	ModClamp
	ModWrap
	ModL
	ModR
	ModNaN
	ModXorsign
	ModAbs
	ModRelu
	ModSatfinite
)

// otherModNames spells the constants above, in order, followed by every other modifier the
// parser accepts.
var otherModNames = []string{
	".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna", ".rs",
	".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs",
	".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan",
	".v2", ".v4", ".v8",
	".uni", ".sat", ".ftz", ".approx", ".full", ".wide", ".cc", ".sync", ".aligned", ".arrive", ".red",
	".idx", ".up", ".down", ".bfly", ".any", ".all", ".ballot",
	".and", ".or", ".xor", ".popc", ".add", ".inc", ".dec", ".exch", ".cas", ".min", ".max",
	".to", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".weak", ".sc",
	".cta", ".gpu", ".sys", ".cluster", ".gl", ".nc",
	".shiftamt", ".clamp", ".wrap", ".l", ".r", ".NaN", ".xorsign", ".abs", ".relu", ".satfinite",
	// Below: accepted and kept, with no named constant.
	".mmio", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".x", ".y", ".z", ".w", ".g", ".b", ".a", ".c", ".d",
	".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal",
	".trap", ".zero", ".p", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube", ".2dms", ".a2dms",
	".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16",
	".row", ".col", ".x1", ".x2", ".x4", ".trans", ".load", ".store", ".mma", ".mma_async", ".fence",
	".proxy", ".async", ".alias", ".noinc", ".noComplete", ".expect_tx", ".complete_tx", ".try_wait", ".test_wait",
	".parity", ".pending_count", ".init", ".inval", ".bulk", ".bulk_group", ".commit_group", ".wait_group",
	".wait_group_read", ".wait_all", ".read", ".tensor", ".tile", ".im2col", ".reduce", ".ld_reduce", ".st",
	".mbarrier", ".mbarrier::complete_tx::bytes", ".mbarrier::expect_tx", ".wait", ".warp", ".pack",
	".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first", ".L1::evict_last", ".L1::no_allocate",
	".L2::evict_first", ".L2::evict_last", ".L2::evict_normal", ".L2::evict_unchanged", ".L2::cache_hint",
	".L2::64B", ".L2::128B", ".L2::256B", ".L1", ".L2", ".fractional", ".range",
	".launch_dependents", ".width", ".height", ".depth", ".channel_data_type", ".channel_order",
	".normalized_coords", ".filter_mode", ".addr_mode_0", ".addr_mode_1", ".addr_mode_2",
	".array_size", ".num_mipmap_levels", ".num_samples", ".force_unnormalized_coords",
	".level", ".grad", ".base", ".mode", ".global::cta", ".generic", ".sem", ".op",
	".sp", ".ordered_metadata", ".kind::f16", ".kind::tf32", ".kind::f8f6f4", ".kind::i8",
	".scale_vec::1X", ".scale_vec::2X", ".scale_vec::4X", ".block_scale", ".noftz", ".exact", ".mask",
	".arrive_drop", ".cvt", ".mbarrier_init", ".tensormap::generic",
	".tensormap", ".prefetch", ".memory_layout",
}

var (
	modNames  []string
	modKinds  []ModKind
	modByName map[string]Mod
)

func init() {
	modNames = make([]string, modOtherBase, int(modOtherBase)+len(otherModNames)+512)
	modKinds = make([]ModKind, modOtherBase, cap(modNames))
	for t := Type(1); t < numTypes; t++ {
		modNames[ModOf(t)] = typeNames[t]
		modKinds[ModOf(t)] = ModKindType
	}
	for s := Space(1); s < numSpaces; s++ {
		modNames[SpaceMod(s)] = spaceNames[s]
		modKinds[SpaceMod(s)] = ModKindSpace
	}
	for i, n := range otherModNames {
		m := modOtherBase + Mod(i)
		kind := ModKindOther
		switch {
		case m <= ModRs:
			kind = ModKindRounding
		case m <= ModNan:
			kind = ModKindCompare
		case m <= ModV8:
			kind = ModKindVector
		}
		modNames = append(modNames, n)
		modKinds = append(modKinds, kind)
	}
	for _, shape := range matrixShapes() {
		modNames = append(modNames, shape)
		modKinds = append(modKinds, ModKindShape)
	}
	modByName = make(map[string]Mod, len(modNames)+8)
	for i, n := range modNames {
		if n != "" {
			modByName[n] = Mod(i)
		}
	}
	// The qualified spellings of state spaces decode to the space itself plus its qualifier.
	for _, q := range []string{".shared::cta", ".shared::cluster", ".param::entry", ".param::func"} {
		modByName[q] = Mod(len(modNames))
		modNames = append(modNames, q)
		modKinds = append(modKinds, ModKindSpace)
	}
}

// matrixShapes lists the .mMnNkK and .mMnN shapes of mma, wmma, wgmma and ldmatrix.
func matrixShapes() []string {
	var shapes []string
	for _, s := range []string{"m8n8", "m16n16", "m8n16", "m16n8", "m8n32", "m32n8"} {
		shapes = append(shapes, "."+s)
	}
	for _, mn := range []string{"m8n8", "m16n8", "m16n16", "m32n8", "m8n32"} {
		for _, k := range []int{1, 4, 8, 16, 32, 64, 128, 256} {
			shapes = append(shapes, fmt.Sprintf(".%sk%d", mn, k))
		}
	}
	for n := 8; n <= 256; n += 8 {
		for _, k := range []int{8, 16, 32, 256} {
			shapes = append(shapes, fmt.Sprintf(".m64n%dk%d", n, k))
		}
	}
	return shapes
}

// LookupMod returns the modifier spelled name (with its leading dot), if the parser knows it.
func LookupMod(name string) (Mod, bool) {
	m, ok := modByName[name]
	return m, ok
}

// String returns the modifier's PTX spelling, with its leading dot.
func (m Mod) String() string {
	if int(m) < len(modNames) && modNames[m] != "" {
		return modNames[m]
	}
	return fmt.Sprintf(".?mod%d", uint16(m))
}

// Kind classifies the modifier.
func (m Mod) Kind() ModKind {
	if int(m) < len(modKinds) {
		return modKinds[m]
	}
	return ModKindOther
}

// Type returns the type a type modifier spells.
func (m Mod) Type() (Type, bool) {
	if m > modTypeBase && m < modTypeBase+Mod(numTypes) {
		return Type(m - modTypeBase), true
	}
	return TypeNone, false
}

// Space returns the state space a space modifier spells, qualified forms such as
// `.shared::cta` included.
func (m Mod) Space() (Space, bool) {
	if m > modSpaceBase && m < modSpaceBase+Mod(numSpaces) {
		return Space(m - modSpaceBase), true
	}
	if m.Kind() == ModKindSpace {
		name, _, _ := strings.Cut(modNames[m], "::")
		s, ok := spaceByName[name]
		return s, ok
	}
	return SpaceNone, false
}
