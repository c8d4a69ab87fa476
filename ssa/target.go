package ssa

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// targetSM returns the SM version a .target directive names (60 for sm_60 or compute_60, 90
// for sm_90a), or 0 when it names none.
func targetSM(t frontend.Target) int {
	for _, name := range t.Names {
		rest, ok := strings.CutPrefix(name, "sm_")
		if !ok {
			rest, ok = strings.CutPrefix(name, "compute_")
		}
		if !ok {
			continue
		}
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if n, err := strconv.Atoi(rest[:end]); err == nil {
			return n
		}
	}
	return 0
}

// legacyWarpOK reports whether the module may use vote and shfl without .sync: the PTX ISA
// removed them for .target sm_70 and higher from PTX ISA version 6.4.
func legacyWarpOK(m *frontend.Module) bool {
	v := m.Version
	return targetSM(m.Target) < 70 || v.Major < 6 || v.Major == 6 && v.Minor < 4
}

// legacyFloatMods returns the modifiers in has in a module for an old target or PTX ISA
// version, with the ones the PTX ISA implies there made explicit, so that every back end
// sees the instruction the ISA means:
//
//   - In PTX ISA 1.0 to 1.3, div.f32, rcp.f32 and sqrt.f32 without .approx, .full or a
//     rounding modifier are div.approx.ftz.f32, rcp.approx.ftz.f32 and sqrt.approx.ftz.f32
//     (from ISA 1.4 one of them is required; the .f64 forms default to .rn, as everywhere).
//   - For .target sm_1x, the single-precision add, sub, mul, mad, div, rcp, sqrt, min, max,
//     neg, abs, setp and set flush subnormal inputs and results to sign-preserving zero: they
//     are the .ftz forms (mad.f32 is then fma.rn.ftz.f32, as the ISA says it runs on sm_20
//     and newer). So is cvt with an .f32 source or destination, except that through ISA 1.4
//     a conversion to a 64-bit type did not flush, which the ISA keeps for legacy code.
//     The .approx transcendental functions (sin, cos, lg2, ex2, rsqrt) are left as written.
//
// It returns in.Mods itself when nothing is implied.
func legacyFloatMods(m *frontend.Module, sm int, in *frontend.Instruction) []frontend.Mod {
	v := m.Version
	types := in.Types()
	if len(types) == 0 {
		return in.Mods
	}
	var add []frontend.Mod
	if v.Major == 1 && v.Minor <= 3 && types[0] == frontend.F32 && !hasPrecision(in) {
		switch in.Op {
		case frontend.OpDiv, frontend.OpRcp, frontend.OpSqrt:
			add = append(add, frontend.ModApprox)
		}
	}
	if sm > 0 && sm < 20 && !in.Has(frontend.ModFtz) && flushesOnSM1x(v, in, types) {
		add = append(add, frontend.ModFtz)
	}
	if len(add) == 0 {
		return in.Mods
	}
	if len(add) == 1 && add[0] == frontend.ModApprox {
		add = append(add, frontend.ModFtz) // the ISA 1.0-1.3 default is .approx.ftz on every target
	}
	return append(add, in.Mods...)
}

// hasPrecision reports whether a div, rcp or sqrt names its precision: .approx, .full or a
// rounding modifier.
func hasPrecision(in *frontend.Instruction) bool {
	for _, m := range []frontend.Mod{frontend.ModApprox, frontend.ModFull, frontend.ModRn, frontend.ModRz, frontend.ModRm, frontend.ModRp} {
		if in.Has(m) {
			return true
		}
	}
	return false
}

// flushesOnSM1x reports whether the ISA says the instruction flushes single-precision
// subnormals for .target sm_1x (see legacyFloatMods).
func flushesOnSM1x(v frontend.Version, in *frontend.Instruction, types []frontend.Type) bool {
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpMad, frontend.OpDiv, frontend.OpRcp,
		frontend.OpSqrt, frontend.OpMin, frontend.OpMax, frontend.OpNeg, frontend.OpAbs, frontend.OpSetp:
		return types[0] == frontend.F32
	case frontend.OpSet:
		return len(types) == 2 && types[1] == frontend.F32
	case frontend.OpCvt:
		if len(types) != 2 || types[0] != frontend.F32 && types[1] != frontend.F32 {
			return false
		}
		if types[1] != frontend.F32 && !types[1].IsFloat() {
			return false // an integer source cannot make a subnormal .f32
		}
		return !(v.Major == 1 && v.Minor <= 4 && types[0].Bits() == 64)
	}
	return false
}

// mapsF64 reports whether .target map_f64_to_f32 changes what the instruction computes: any
// instruction with an .f64 type but the moves, loads and stores of .f64 storage, which stays
// 64 bits wide. (The ISA maps the others to single precision using half of each register.)
func mapsF64(in *frontend.Instruction) bool {
	switch in.Op {
	case frontend.OpMov, frontend.OpLd, frontend.OpSt, frontend.OpLdu:
		return false
	}
	return slices.Contains(in.Types(), frontend.F64)
}
