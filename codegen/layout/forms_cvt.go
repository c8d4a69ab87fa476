package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The forms of cvt.

var (
	modPack      = knownMod(".pack")
	allRnds      = append(slices.Clone(rnds), intRnds...)
	anyRnds      = append(slices.Clone(allRnds), frontend.ModRna, frontend.ModRs)
	halfScalars  = tl(frontend.F16, frontend.BF16)
	halfPairs    = tl(frontend.F16x2, frontend.BF16x2)
	narrowPairs  = tl(frontend.E4M3x2, frontend.E5M2x2, frontend.E2M3x2, frontend.E3M2x2, frontend.E2M1x2)
	halfCvtTypes = append(tl(frontend.F16, frontend.BF16, frontend.F32, frontend.F64), orderedInts...)
)

func init() {
	ftz, sat := frontend.ModFtz, frontend.ModSat
	relu, satf := frontend.ModRelu, frontend.ModSatfinite
	addForms(
		// Between integer types, {.sat}.
		&FormRow{HalfOperands: true, Ops: opl(frontend.OpCvt), Types: [][]frontend.Type{intTypes, intTypes}, Mods: []ModGroup{opt(sat), opt(anyRnds...)}, Rule: func(in *ssa.Instr) (bool, string) {
			if roundingMod(in) != 0 {
				return rejectf("cvt between integer types takes no rounding modifier")
			}
			return true, ""
		}, Operands: "%0, %1"},
		// From .f32/.f64 to an integer type, .rni/.rzi/.rmi/.rpi{.ftz}{.sat}.
		&FormRow{HalfOperands: true, Ops: opl(frontend.OpCvt), Types: [][]frontend.Type{intTypes, f32f64}, Mods: []ModGroup{opt(anyRnds...), opt(ftz), opt(sat)}, Rule: func(in *ssa.Instr) (bool, string) {
			if !slices.Contains(intRnds, roundingMod(in)) {
				return rejectf("cvt from %s to an integer type needs .rni, .rzi, .rmi or .rpi", instrTypes(in)[1])
			}
			return true, ""
		}, Operands: "%0, %1"},
		// From an integer type to .f32/.f64, {.rnd}{.ftz}{.sat}.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{f32f64, intTypes},
			Mods:         []ModGroup{opt(rnds...), opt(ftz), opt(sat)},
			Operands:     "%0, %1",
		},
		// Between .f32 and .f64, {.rnd}{.ftz}{.sat}, or to an integral value in the same type
		// with .rni/.rzi/.rmi/.rpi.
		&FormRow{HalfOperands: true, Ops: opl(frontend.OpCvt), Types: [][]frontend.Type{f32f64, f32f64}, Mods: []ModGroup{opt(allRnds...), opt(ftz), opt(sat)}, Rule: func(in *ssa.Instr) (bool, string) {
			if ts := instrTypes(in); slices.Contains(intRnds, roundingMod(in)) && ts[0] != ts[1] {
				return rejectf("cvt with an integer rounding mode needs equal source and destination types")
			}
			return true, ""
		}, Operands: "%0, %1"},
		// To or from .f16/.bf16, from and to integers, .f16, .bf16, .f32 and .f64
		// (halfScalarCvt).
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{halfScalars, halfCvtTypes},
			Mods:         []ModGroup{opt(anyRnds...), opt(ftz), opt(sat)},
			Rule:         halfScalarCvt,
			Operands:     "%0, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{halfCvtTypes, halfScalars},
			Mods:         []ModGroup{opt(anyRnds...), opt(ftz), opt(sat)},
			Rule:         halfScalarCvt,
			Operands:     "%0, %1",
		},
		// cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}.f32 d, a and .{f16x2,bf16x2}.f32 d, a, b
		// (a into the upper half).
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{halfScalars, f32},
			Mods:         []ModGroup{need(frontend.ModRn, frontend.ModRz), opt(relu), opt(satf)},
			Operands:     "%0, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{halfPairs, f32},
			Mods:         []ModGroup{need(frontend.ModRn, frontend.ModRz), opt(relu), opt(satf)},
			Rule:         nargs(2),
			Operands:     "%0, %1, %1",
		},
		// cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.TF32}, f32},
			Mods:         []ModGroup{need(frontend.ModRna), opt(satf)},
			Operands:     "%b32, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.TF32}, f32},
			Mods:         []ModGroup{need(frontend.ModRn, frontend.ModRz), opt(satf), opt(relu)},
			Operands:     "%b32, %1",
		},
		// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32
		// d, a, b, c.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.U16, frontend.S16}, {frontend.S32}},
			Mods:         []ModGroup{need(modPack), need(sat)},
			Rule:         nargs(2),
			Operands:     "%b32, %1, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.U8, frontend.S8, frontend.U4, frontend.S4, frontend.U2, frontend.S2}, {frontend.S32}, {frontend.B32}},
			Mods:         []ModGroup{need(modPack), need(sat)},
			Rule:         nargs(3),
			Operands:     "%b32, %1, %1, %2",
		},
		// The narrow float pairs: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}
		// from two .f32 (d, a, b) or one .f16x2/.bf16x2, and cvt.rn{.relu}.f16x2 from them;
		// cvt.{rz,rp}{.satfinite}.ue8m0x2 from two .f32 or one .bf16x2, and
		// cvt.rn.bf16x2.ue8m0x2.
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{narrowPairs, f32},
			Mods:         []ModGroup{need(frontend.ModRn), need(satf), opt(relu)},
			Rule:         nargs(2),
			Operands:     "%0, %1, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{narrowPairs, halfPairs},
			Mods:         []ModGroup{need(frontend.ModRn), need(satf), opt(relu)},
			Rule:         nargs(1),
			Operands:     "%0, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.F16x2}, narrowPairs},
			Mods:         []ModGroup{need(frontend.ModRn), opt(relu)},
			Rule:         nargs(1),
			Operands:     "%0, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.UE8M0x2}, f32},
			Mods:         []ModGroup{need(frontend.ModRz, frontend.ModRp), opt(satf)},
			Rule:         nargs(2),
			Operands:     "%0, %1, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.UE8M0x2}, {frontend.BF16x2}},
			Mods:         []ModGroup{need(frontend.ModRz, frontend.ModRp), opt(satf)},
			Rule:         nargs(1),
			Operands:     "%0, %1",
		},
		&FormRow{
			HalfOperands: true,
			Ops:          opl(frontend.OpCvt),
			Types:        [][]frontend.Type{{frontend.BF16x2}, {frontend.UE8M0x2}},
			Mods:         []ModGroup{need(frontend.ModRn)},
			Rule:         nargs(1),
			Operands:     "%0, %1",
		},
	)
}

// halfScalarCvt checks cvt{.rnd}{.ftz}{.sat}.dtype.atype where one side is .f16 or .bf16 and
// the other an integer, .f16, .bf16, .f32 or .f64 type. As the ISA requires, narrowing a
// float needs .rn/.rz/.rm/.rp, a float-to-integer conversion or a same-type rounding to an
// integral value needs .rni/.rzi/.rmi/.rpi, and exact conversions take no rounding
// modifier; an integer source rounds to nearest unless told otherwise. .ftz applies to .f32
// operands only.
func halfScalarCvt(in *ssa.Instr) (bool, string) {
	ts := instrTypes(in)
	dt, st := ts[0], ts[1]
	half := func(t frontend.Type) bool { return t == frontend.F16 || t == frontend.BF16 }
	rnd := roundingMod(in)
	intRnd := slices.Contains(intRnds, rnd)
	switch {
	case hasMod(in, frontend.ModFtz) && dt != frontend.F32 && st != frontend.F32:
		return reject()
	case !half(dt):
		if dt.IsInteger() {
			if !intRnd {
				return rejectf("cvt from %s to an integer type needs .rni, .rzi, .rmi or .rpi", st)
			}
			return true, ""
		}
		if rnd != 0 {
			return rejectf("cvt from %s to %s takes no rounding modifier", st, dt)
		}
		return true, ""
	case intRnd:
		if dt != st {
			return rejectf("cvt with an integer rounding mode needs equal source and destination types")
		}
		return true, ""
	case rnd != 0 && !slices.Contains(rnds, rnd):
		return reject()
	case st.IsInteger():
		return true, ""
	case st == dt && rnd != 0:
		return rejectf("cvt from %s to %s takes no floating-point rounding modifier", st, dt)
	case st != dt && rnd == 0:
		return rejectf("cvt from %s to %s needs a rounding modifier .rn, .rz, .rm or .rp", st, dt)
	}
	return true, ""
}
