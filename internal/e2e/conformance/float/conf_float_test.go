package float_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/stretchr/testify/require"
)

// Conformance of the f32 and f64 instructions. The reference is math/big: each exact result
// (or, for quotients and roots, a high-precision value nudged to the side of the exact one)
// is rounded to the format's precision by confFltFmt.round, which handles subnormals by
// lowering the precision and overflow by the IEEE 754 rules.

// confFltFmt describes a binary floating-point format.
type confFltFmt struct {
	name       string
	prec       uint // significand bits, hidden bit included
	emin, emax int  // exponents of the smallest and largest normal binades
	bits       int
}

var (
	confFlt32 = confFltFmt{"f32", 24, -126, 127, 32}
	confFlt64 = confFltFmt{"f64", 53, -1022, 1023, 64}
)

func (f confFltFmt) expBits() int    { return f.bits - int(f.prec) }
func (f confFltFmt) manMask() uint64 { return 1<<(f.prec-1) - 1 }
func (f confFltFmt) signBit() uint64 { return 1 << (f.bits - 1) }
func (f confFltFmt) expField(v uint64) int {
	return int(v>>(f.prec-1)) & (1<<f.expBits() - 1)
}
func (f confFltFmt) maxExp() int { return 1<<f.expBits() - 1 }
func (f confFltFmt) isNaN(v uint64) bool {
	return f.expField(v) == f.maxExp() && v&f.manMask() != 0
}
func (f confFltFmt) isInf(v uint64) bool {
	return f.expField(v) == f.maxExp() && v&f.manMask() == 0
}
func (f confFltFmt) isZero(v uint64) bool { return v&^f.signBit() == 0 }
func (f confFltFmt) neg(v uint64) bool    { return v&f.signBit() != 0 }
func (f confFltFmt) canonNaN() uint64     { return f.signBit() - 1 }

// float64 is the value of v (exact: every f32 is a float64).
func (f confFltFmt) float64(v uint64) float64 {
	if f.bits == 32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// fromFloat64 encodes x, which must be representable in the format.
func (f confFltFmt) fromFloat64(x float64) uint64 {
	if x != x {
		return f.canonNaN()
	}
	if f.bits == 32 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

func (f confFltFmt) big(v uint64) *big.Float { return new(big.Float).SetFloat64(f.float64(v)) }

// ftz flushes a subnormal to a zero of its sign.
func (f confFltFmt) ftz(v uint64) uint64 {
	if f.expField(v) == 0 {
		return v & f.signBit()
	}
	return v
}

// round rounds x (non-zero, finite) to the format in mode.
func (f confFltFmt) round(x *big.Float, mode big.RoundingMode) uint64 {
	neg := x.Signbit()
	e := x.MantExp(nil) - 1 // |x| in [2^e, 2^(e+1))
	p := int(f.prec)
	if e < f.emin {
		p -= f.emin - e // subnormal: fewer significant bits
	}
	sgn := uint64(0)
	if neg {
		sgn = f.signBit()
	}
	if p <= 0 {
		// Below the smallest subnormal: zero or the smallest subnormal.
		half := new(big.Float).SetMantExp(big.NewFloat(1), f.emin-int(f.prec))
		abs := new(big.Float).Abs(x)
		var up bool
		switch mode {
		case big.ToNearestEven:
			up = abs.Cmp(half) > 0
		case big.ToNegativeInf:
			up = neg
		case big.ToPositiveInf:
			up = !neg
		}
		if up {
			return sgn | 1
		}
		return sgn
	}
	z := new(big.Float).SetPrec(uint(p)).SetMode(mode).Set(x)
	if z.MantExp(nil)-1 > f.emax {
		inf := mode == big.ToNearestEven || mode == big.ToPositiveInf && !neg || mode == big.ToNegativeInf && neg
		infBits := uint64(f.maxExp()) << (f.prec - 1)
		if inf {
			return sgn | infBits
		}
		return sgn | (infBits - 1)
	}
	if f.bits == 32 {
		r, _ := z.Float32()
		return uint64(math.Float32bits(r))
	}
	r, _ := z.Float64()
	return math.Float64bits(r)
}

// confFltNudge moves q, an approximation with an error below one unit in its last place, a
// tiny step (far below that unit) toward the exact value, which lies on side dir of q.
func confFltNudge(q *big.Float, dir int) *big.Float {
	if dir == 0 {
		return q
	}
	step := new(big.Float).SetMantExp(big.NewFloat(float64(dir)), q.MantExp(nil)-int(q.Prec())-20)
	return new(big.Float).SetPrec(q.Prec()+40).Add(q, step)
}

var confFltModes = map[string]big.RoundingMode{
	"rn": big.ToNearestEven, "rz": big.ToZero, "rm": big.ToNegativeInf, "rp": big.ToPositiveInf,
}

// confFltZeroSum is the sign rule of an exact zero sum: -0 when both addends are negative
// (zeros), or under round-toward-minus when either is.
func confFltZeroSum(f confFltFmt, negA, negB bool, mode big.RoundingMode) uint64 {
	if negA && negB || mode == big.ToNegativeInf && (negA || negB) {
		return f.signBit()
	}
	return 0
}

// confFltRef computes op (add sub mul fma div sqrt rcp) on args in mode.
func confFltRef(f confFltFmt, op string, mode big.RoundingMode, args []uint64) uint64 {
	for _, a := range args {
		if f.isNaN(a) {
			return f.canonNaN()
		}
	}
	if op == "sub" {
		args = []uint64{args[0], args[1] ^ f.signBit()}
		op = "add"
	}
	if op == "rcp" {
		args = []uint64{f.fromFloat64(1), args[0]}
		op = "div"
	}
	special := false
	for _, a := range args {
		special = special || f.isInf(a)
	}
	if op == "div" && f.isZero(args[1]) || op == "sqrt" && f.float64(args[0]) < 0 {
		special = true
	}
	x := make([]float64, len(args))
	for i, a := range args {
		x[i] = f.float64(a)
	}
	if special {
		// Infinities, division by zero and invalid operations: exact in float64.
		var r float64
		switch op {
		case "add":
			r = x[0] + x[1]
		case "mul":
			r = x[0] * x[1]
		case "fma":
			r = math.FMA(x[0], x[1], x[2])
		case "div":
			r = x[0] / x[1]
		case "sqrt":
			r = math.Sqrt(x[0])
		}
		return f.fromFloat64(r)
	}
	b := make([]*big.Float, len(args))
	for i, a := range args {
		b[i] = f.big(a)
	}
	switch op {
	case "add":
		s := new(big.Float).SetPrec(2200).Add(b[0], b[1])
		if s.Sign() == 0 {
			return confFltZeroSum(f, f.neg(args[0]), f.neg(args[1]), mode)
		}
		return f.round(s, mode)
	case "mul":
		if f.isZero(args[0]) || f.isZero(args[1]) {
			return (args[0] ^ args[1]) & f.signBit()
		}
		return f.round(new(big.Float).SetPrec(120).Mul(b[0], b[1]), mode)
	case "fma":
		p := new(big.Float).SetPrec(120).Mul(b[0], b[1])
		s := new(big.Float).SetPrec(4400).Add(p, b[2])
		if s.Sign() == 0 {
			return confFltZeroSum(f, f.neg(args[0]) != f.neg(args[1]), f.neg(args[2]), mode)
		}
		return f.round(s, mode)
	case "div":
		if f.isZero(args[0]) {
			return (args[0] ^ args[1]) & f.signBit()
		}
		q := new(big.Float).SetPrec(300).Quo(b[0], b[1])
		// The exact quotient lies on the side of q where q*b1 moves toward b0.
		back := new(big.Float).SetPrec(2000).Mul(q, b[1])
		dir := b[0].Cmp(back) * b[1].Sign()
		return f.round(confFltNudge(q, dir), mode)
	case "sqrt":
		if f.isZero(args[0]) {
			return args[0]
		}
		q := new(big.Float).SetPrec(300).Sqrt(b[0])
		sq := new(big.Float).SetPrec(2000).Mul(q, q)
		return f.round(confFltNudge(q, b[0].Cmp(sq)), mode)
	}
	panic("confFltRef: unknown op " + op)
}

// confFltEdges are special bit patterns of each format: zeros, ones, the subnormal and normal
// limits, infinities and NaNs with assorted payloads.
func confFltEdges(f confFltFmt) []uint64 {
	var v []uint64
	if f.bits == 32 {
		v = []uint64{0, 0x80000000, 0x3f800000, 0xbf800000, 1, 0x80000001, 3, 0x007fffff, 0x00800000,
			0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
			0xffc00123, 0x7fffffff, 0x3f000000, 0x40400000, 0x33800000, 0x34000000, 0x3fc00000, 0x7f000000,
			0x00400000, 0x3f7fffff}
	} else {
		v = []uint64{0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 1, 1<<63 | 1, 3, 1<<52 - 1,
			1 << 52, 1<<63 | 1<<52, 1<<52 | 1, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000,
			0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000123, 0x7fffffffffffffff,
			0x3fe0000000000000, 0x4008000000000000, 0x3ca0000000000000, 0x3cb0000000000000, 0x3ff8000000000000,
			0x7fe0000000000000, 1 << 51, 0x3fefffffffffffff}
	}
	return v
}

// confFltRandom returns a random operand: random bits, values near 1, subnormals and values
// near the normal limit, values near overflow, values with few significant bits (whose sums
// and products are often exact or ties), and edge values.
func confFltRandom(rng *rand.Rand, f confFltFmt) uint64 {
	bias := 1<<(f.expBits()-1) - 1
	sgn := uint64(rng.IntN(2)) << (f.bits - 1)
	man := rng.Uint64() & f.manMask()
	enc := func(exp int, man uint64) uint64 { return sgn | uint64(exp)<<(f.prec-1) | man }
	switch rng.IntN(7) {
	case 0:
		return rng.Uint64() >> (64 - f.bits)
	case 1:
		return enc(bias-4+rng.IntN(9), man)
	case 2:
		return enc(rng.IntN(3), man)
	case 3:
		return enc(f.maxExp()-1-rng.IntN(3), man)
	case 4:
		return enc(bias-8+rng.IntN(17), man&^(f.manMask()>>3))
	case 5:
		edges := confFltEdges(f)
		return edges[rng.IntN(len(edges))]
	}
	return enc(1+rng.IntN(f.maxExp()-1), man)
}

// confFltInputs builds the operand columns of an n-ary form: every pair of edge values for
// the first two operands, then random rows, some built to land near rounding boundaries (b a
// tiny fraction of a's ulp for sums, c the negated rounded product for fused ops).
func confFltInputs(rng *rand.Rand, f confFltFmt, op string, arity, random int) [][]uint64 {
	cols := make([][]uint64, arity)
	edges := confFltEdges(f)
	add := func(row ...uint64) {
		for i := range cols {
			cols[i] = append(cols[i], row[i])
		}
	}
	for _, x := range edges {
		if arity == 1 {
			add(x)
			continue
		}
		for _, y := range edges {
			add(x, y, edges[rng.IntN(len(edges))])
		}
	}
	for range random {
		a, b, c := confFltRandom(rng, f), confFltRandom(rng, f), confFltRandom(rng, f)
		switch {
		case rng.IntN(4) != 0:
		case op == "add" || op == "sub":
			// b about a's half ulp: the sum sits on or next to a tie.
			e := f.expField(a) - int(f.prec) + rng.IntN(3)
			if e > 0 {
				b = (b & f.signBit()) | uint64(e)<<(f.prec-1) | b&f.manMask()>>(rng.IntN(int(f.prec)))
			}
		case op == "fma":
			p := confFltRef(f, "mul", big.ToNearestEven, []uint64{a, b})
			c = p ^ f.signBit() ^ uint64(rng.IntN(2))
		}
		add(a, b, c)
	}
	return cols
}

// confFltCheck runs one arithmetic form on its inputs and compares it with the reference.
func confFltCheck(t *testing.T, f confFltFmt, op, mode string, ftz, sat bool, random int) {
	t.Helper()
	arity := map[string]int{"add": 2, "sub": 2, "mul": 2, "fma": 3, "mad": 3, "div": 2, "sqrt": 1, "rcp": 1}[op]
	name := op + "." + mode
	if ftz {
		name += ".ftz"
	}
	if sat {
		name += ".sat"
	}
	name += "." + f.name
	rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(arity)*7919+uint64(f.bits)))
	in := confFltInputs(rng, f, op, arity, random)
	args := []string{"%a0", "%a1", "%a2"}[:arity]
	types := []string{f.name, f.name, f.name}[:arity]
	out := harness.ConfRun(t, harness.ConfOp{Body: name + " %d0, " + strings.Join(args, ", ") + ";", In: types, Out: []string{f.name}}, in...)[0]
	refOp := op
	if op == "mad" {
		refOp = "fma"
	}
	bad := 0
	for i := range out {
		row := make([]uint64, arity)
		for k := range row {
			row[k] = in[k][i]
			if ftz {
				row[k] = f.ftz(row[k])
			}
		}
		want := confFltRef(f, refOp, confFltModes[mode], row)
		if ftz {
			want = f.ftz(want)
		}
		if sat {
			want = confFltSat(f, want)
		}
		if out[i] != want {
			bad++
			if bad <= 5 {
				t.Errorf("%s %x: got %#x, want %#x", name, row, out[i], want)
			}
		}
	}
	require.Zero(t, bad, "%s: %d of %d rows wrong", name, bad, len(out))
}

// confFltSat clamps to [0, 1], NaN and negative values (-0 included) to +0.
func confFltSat(f confFltFmt, v uint64) uint64 {
	x := f.float64(v)
	switch {
	case x != x || x <= 0:
		return 0
	case x > 1:
		return f.fromFloat64(1)
	}
	return v
}

// TestConfFltArith checks add, sub, mul, fma, mad, div, sqrt and rcp in f32 and f64 in every
// rounding mode, plus .ftz and .sat forms of f32, bit for bit.
func TestConfFltArith(t *testing.T) {
	for _, f := range []confFltFmt{confFlt32, confFlt64} {
		for _, op := range []string{"add", "sub", "mul", "fma", "div", "sqrt", "rcp"} {
			for _, mode := range []string{"rn", "rz", "rm", "rp"} {
				confFltCheck(t, f, op, mode, false, false, 10000)
			}
		}
	}
	for _, c := range []struct {
		op, mode string
		ftz, sat bool
	}{
		{"add", "rn", true, true}, {"sub", "rm", true, false}, {"mul", "rz", true, false}, {"mul", "rp", false, true},
		{"fma", "rm", true, true}, {"mad", "rn", false, false}, {"mad", "rp", true, false}, {"div", "rp", true, false},
		{"sqrt", "rz", true, false}, {"rcp", "rm", true, false}, {"add", "rz", false, true},
		{"add", "rn", true, false}, {"sub", "rn", true, false}, {"mul", "rn", true, false}, {"fma", "rn", true, false},
	} {
		confFltCheck(t, confFlt32, c.op, c.mode, c.ftz, c.sat, 10000)
	}
}

// confFltUlps is the error of got against the exact value ref in units of the f32 ulp at ref.
func confFltUlps(got float32, ref float64) float64 {
	_, e := math.Frexp(ref)
	e = max(e-1, -126)
	return math.Abs(float64(got)-ref) / math.Ldexp(1, e-23)
}

// TestConfFltApprox measures the .approx forms against float64 and big references and
// asserts both the bound the isa package documents (half an ulp plus the reference's own
// error) and the bound the ISA states, then checks their special values exactly.
func TestConfFltApprox(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	type form struct {
		body   string
		lo, hi float64 // random operands are drawn uniformly from [lo, hi] and as random bits
		ref    func(x float64) float64
		isaRel float64 // the ISA's relative bound (0: none stated for this form)
		isaAbs float64 // the ISA's absolute bound (0: none)
	}
	forms := []form{
		{"sin.approx.f32", -100 * math.Pi, 100 * math.Pi, math.Sin, 0, math.Pow(2, -20.5)},
		{"cos.approx.f32", -100 * math.Pi, 100 * math.Pi, math.Cos, 0, math.Pow(2, -20.5)},
		{"lg2.approx.f32", 1, 2, math.Log2, 0, math.Pow(2, -22.6)},
		{"lg2.approx.ftz.f32", 0, 1e30, math.Log2, 0, 0},
		{"ex2.approx.f32", -150, 130, math.Exp2, 0x1p-22, 0},
		{"ex2.approx.ftz.f32", -20, 20, math.Exp2, 0x1p-22, 0},
		{"tanh.approx.f32", -10, 10, math.Tanh, math.Pow(2, -10.987), 0},
		{"rsqrt.approx.f32", 0, 1e10, func(x float64) float64 { return 1 / math.Sqrt(x) }, math.Pow(2, -22.9), 0},
		{"sqrt.approx.f32", 0, 1e10, math.Sqrt, 0x1p-23, 0},
		{"rcp.approx.f32", -1e10, 1e10, func(x float64) float64 { return 1 / x }, 0x1p-23, 0},
		{"sin.approx.ftz.f32", -10, 10, math.Sin, 0, math.Pow(2, -20.5)},
	}
	for _, fm := range forms {
		var in []uint64
		for i := range 12000 {
			if i%2 == 0 {
				in = append(in, uint64(math.Float32bits(float32(fm.lo+(fm.hi-fm.lo)*rng.Float64()))))
			} else {
				in = append(in, uint64(rng.Uint32()))
			}
		}
		ftz := strings.Contains(fm.body, ".ftz")
		out := harness.ConfRun(t, harness.ConfOp{Body: fm.body + " %d0, %a0;", In: []string{"f32"}, Out: []string{"f32"}}, in)[0]
		worst := 0.0
		for i, v := range in {
			if ftz {
				v = confFlt32.ftz(v)
			}
			x := float64(math.Float32frombits(uint32(v)))
			ref := fm.ref(x)
			got := math.Float32frombits(uint32(out[i]))
			if math.IsNaN(ref) {
				require.Equal(t, uint64(0x7fffffff), out[i], "%s(%g)", fm.body, x)
				continue
			}
			if math.IsInf(ref, 0) || math.Abs(ref) > math.MaxFloat32 {
				require.True(t, math.IsInf(float64(got), 0) && (got > 0) == (ref > 0), "%s(%g) = %g, want %g", fm.body, x, got, ref)
				continue
			}
			if ftz && math.Abs(ref) < 0x1p-126 {
				require.Less(t, math.Abs(float64(got)), 0x1p-126, "%s(%g)", fm.body, x)
				continue
			}
			u := confFltUlps(got, ref)
			worst = max(worst, u)
			require.LessOrEqual(t, u, 0.5+0x1p-20, "%s(%g) = %g, want %g", fm.body, x, got, ref)
			inRange := x >= fm.lo && x <= fm.hi
			if fm.isaAbs > 0 && inRange {
				require.LessOrEqual(t, math.Abs(float64(got)-ref), fm.isaAbs, "%s(%g)", fm.body, x)
			}
			if fm.isaRel > 0 && ref != 0 && math.Abs(ref) >= 0x1p-126 {
				require.LessOrEqual(t, math.Abs(float64(got)-ref)/math.Abs(ref), fm.isaRel, "%s(%g)", fm.body, x)
			}
		}
		t.Logf("%s: max error %.4f ulp", fm.body, worst)
	}

	// Special values, exactly.
	inf, ninf, nan := math.Inf(1), math.Inf(-1), math.NaN()
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		body string
		in   []float64
		want []float64
	}{
		{"sin.approx.f32", []float64{inf, ninf, nan, 0, negZero}, []float64{nan, nan, nan, 0, negZero}},
		{"cos.approx.f32", []float64{inf, ninf, nan, 0}, []float64{nan, nan, nan, 1}},
		{"lg2.approx.f32", []float64{inf, ninf, nan, 0, negZero, -1, 1}, []float64{inf, nan, nan, ninf, ninf, nan, 0}},
		{"lg2.approx.ftz.f32", []float64{-0x1p-140, 0x1p-140}, []float64{ninf, ninf}},
		{"ex2.approx.f32", []float64{inf, ninf, nan, 0, negZero, 128, -150, -149}, []float64{inf, 0, nan, 1, 1, inf, 0, 0x1p-149}},
		{"ex2.approx.ftz.f32", []float64{-130, -0x1p-140}, []float64{0, 1}},
		{"tanh.approx.f32", []float64{inf, ninf, nan, 0, negZero}, []float64{1, -1, nan, 0, negZero}},
		{"rsqrt.approx.f32", []float64{inf, 0, negZero, -1, nan}, []float64{0, inf, ninf, nan, nan}},
		{"rsqrt.approx.ftz.f32", []float64{0x1p-140, -0x1p-140}, []float64{inf, ninf}},
		{"sqrt.approx.f32", []float64{inf, 0, negZero, -1, nan}, []float64{inf, 0, negZero, nan, nan}},
		{"rcp.approx.f32", []float64{inf, ninf, 0, negZero, nan}, []float64{0, negZero, inf, ninf, nan}},
		{"rcp.approx.ftz.f32", []float64{0x1p-140, 0x1p127}, []float64{inf, 0}},
	} {
		in := make([]uint64, len(c.in))
		for i, x := range c.in {
			in[i] = uint64(math.Float32bits(float32(x)))
		}
		out := harness.ConfRun(t, harness.ConfOp{Body: c.body + " %d0, %a0;", In: []string{"f32"}, Out: []string{"f32"}}, in)[0]
		for i, w := range c.want {
			require.Equal(t, confFlt32.fromFloat64(w), out[i], "%s(%g)", c.body, c.in[i])
		}
	}
}
