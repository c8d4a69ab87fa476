package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
	"github.com/ptx2go/ptx2go/ssa"
)

// cvt lowers cvt between integer, f32 and f64 types with every rounding mode, .sat and .ftz,
// in the forms of the table of forms (layout.CheckForms).
func (e *emitter) cvt() runtime.Instr {
	if e.isNarrowCvt() {
		return e.cvtNarrow()
	}
	if e.isHalfCvt() {
		return e.cvtHalf()
	}
	ts := e.types()
	dt, st := ts[0], ts[1]
	fl := func(t frontend.Type) bool { return t == frontend.F32 || t == frontend.F64 }
	d := e.dst(e.in.Dsts[0])
	a := e.src(e.in.Args[0], st)
	rnd := e.rounding()
	sat := e.has(frontend.ModSat)
	ftz := e.has(frontend.ModFtz)
	regBits := 64
	if x := e.in.Dsts[0]; x.Kind == ssa.ArgValue && x.Value != nil {
		regBits = x.Value.Reg.Type.Bits()
	}
	dn, sn := dt.Bits(), st.Bits()
	// finish narrows an integer result to the destination type, sign-extending signed types
	// to the register's width.
	finish := func(v uint64) uint64 {
		v = wrap(v, dn)
		if dt.IsSigned() && regBits > dn {
			return signExtend(v, dn, regBits)
		}
		return v
	}
	// readFloat decodes a float source, applying .ftz to f32 subnormals.
	readFloat := func(v uint64) float64 {
		if st == frontend.F32 {
			if ftz {
				v = ftz32(v)
			}
			return float64(f32(v))
		}
		return f64(v)
	}
	if code := typedFloatConvert(dt, st, rnd, sat, ftz, regBits, d, a); code != nil {
		return code
	}
	switch {
	case !fl(dt) && !fl(st):
		if !sat {
			if code := typedConvert(dt, st, regBits, d, a); code != nil {
				return code
			}
		}
		return lanes1(d, a, func(x uint64) uint64 {
			if st.IsSigned() {
				v := sext(x, sn)
				if sat {
					v = clampSigned(v, dt)
				}
				return finish(uint64(v))
			}
			v := wrap(x, sn)
			if sat {
				v = clampUnsigned(v, dt)
			}
			return finish(v)
		})
	case !fl(dt):
		// float → integer: round to an integer, then saturate; NaN becomes 0.
		round, _ := intRounding(rnd)
		return lanes1(d, a, func(x uint64) uint64 {
			return finish(isa.FloatToInt(readFloat(x), round, dn, dt.IsSigned()))
		})
	case !fl(st):
		// integer → float.
		mode := floatRounding(rnd)
		return lanes1(d, a, func(x uint64) uint64 {
			var r uint64
			if st.IsSigned() {
				r = isa.IntToFloat(sext(x, sn), 0, true, dn, isa.Rounding(mode))
			} else {
				r = isa.IntToFloat(0, wrap(x, sn), false, dn, isa.Rounding(mode))
			}
			return satFloat(r, dt, sat)
		})
	}
	// float → float.
	round, toInt := intRounding(rnd)
	if !toInt {
		round = isa.Rounding(floatRounding(rnd))
	}
	return lanes1(d, a, func(x uint64) uint64 {
		return isa.CvtFloat(x, dn, sn, round, toInt, ftz, sat)
	})
}

// canonNaN is the canonical NaN of f32 or f64 that cvt produces from a NaN operand, whatever
// its payload.
func canonNaN(t frontend.Type) uint64 {
	if t == frontend.F32 {
		return uint64(isa.NaN32)
	}
	return isa.NaN64
}

func clampSigned(v int64, t frontend.Type) int64 {
	n := t.Bits()
	if t.IsSigned() {
		if n == 64 {
			return v
		}
		return min(max(v, -int64(1)<<(n-1)), int64(1)<<(n-1)-1)
	}
	if v < 0 {
		return 0
	}
	if n < 64 {
		return min(v, int64(mask(n)))
	}
	return v
}

func clampUnsigned(v uint64, t frontend.Type) uint64 {
	n := t.Bits()
	if t.IsSigned() {
		return min(v, mask(n-1))
	}
	return min(v, mask(n))
}

// intRounding returns the direction of .rni/.rzi/.rmi/.rpi, or false.
func intRounding(m frontend.Mod) (isa.Rounding, bool) {
	switch m {
	case frontend.ModRni:
		return isa.RN, true
	case frontend.ModRzi:
		return isa.RZ, true
	case frontend.ModRmi:
		return isa.RM, true
	case frontend.ModRpi:
		return isa.RP, true
	}
	return 0, false
}

// Float rounding directions, in the order of isa.Rounding (RN, RZ, RM, RP).
const (
	roundNearest = int(isa.RN)
	roundZero    = int(isa.RZ)
	roundDown    = int(isa.RM)
	roundUp      = int(isa.RP)
)

// floatRounding maps .rn/.rz/.rm/.rp (none means .rn) to a direction, or -1.
func floatRounding(m frontend.Mod) int {
	switch m {
	case 0, frontend.ModRn:
		return roundNearest
	case frontend.ModRz:
		return roundZero
	case frontend.ModRm:
		return roundDown
	case frontend.ModRp:
		return roundUp
	}
	return -1
}

// satFloat applies cvt's .sat: clamp to [0, 1], NaN to 0.
func satFloat(r uint64, t frontend.Type, sat bool) uint64 {
	if !sat {
		return r
	}
	var f float64
	if t == frontend.F32 {
		f = float64(f32(r))
	} else {
		f = f64(r)
	}
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 1:
		if t == frontend.F32 {
			return b32(1)
		}
		return b64(1)
	}
	return r
}
