package float_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

// confFltPairs returns two operand columns: every pair of edge values, then n random pairs.
func confFltPairs(rng *rand.Rand, f confFltFmt, n int) (a, b []uint64) {
	for _, x := range confFltEdges(f) {
		for _, y := range confFltEdges(f) {
			a, b = append(a, x), append(b, y)
		}
	}
	for range n {
		x := confFltRandom(rng, f)
		y := confFltRandom(rng, f)
		if rng.IntN(8) == 0 {
			y = x ^ f.signBit() // equal magnitudes, opposite signs (±0 included)
		}
		a, b = append(a, x), append(b, y)
	}
	return a, b
}

// confFltMinMaxRef is min/max by the ISA's rules, written on the values.
func confFltMinMaxRef(f confFltFmt, a, b uint64, isMax, nanProp, xorsignAbs bool) uint64 {
	x, y := a, b
	if xorsignAbs {
		x, y = a&^f.signBit(), b&^f.signBit()
	}
	var r uint64
	switch {
	case f.isNaN(x) && f.isNaN(y), nanProp && (f.isNaN(x) || f.isNaN(y)):
		return f.canonNaN()
	case f.isNaN(x):
		r = y
	case f.isNaN(y):
		r = x
	default:
		fx, fy := f.float64(x), f.float64(y)
		switch {
		case fx == fy && fx == 0:
			// -0 < +0.
			if f.neg(x) == isMax {
				r = y
			} else {
				r = x
			}
		case (fx < fy) == isMax:
			r = y
		default:
			r = x
		}
	}
	if xorsignAbs {
		r = r&^f.signBit() | (a^b)&f.signBit()
	}
	return r
}

// TestConfFltMinMax checks min and max with .NaN, .xorsign.abs and .ftz.
func TestConfFltMinMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, f := range []confFltFmt{confFlt32, confFlt64} {
		a, b := confFltPairs(rng, f, 10000)
		mods := []string{"", ".NaN"}
		if f.bits == 32 {
			mods = append(mods, ".ftz", ".ftz.NaN", ".xorsign.abs", ".NaN.xorsign.abs", ".ftz.NaN.xorsign.abs")
		}
		for _, op := range []string{"min", "max"} {
			for _, m := range mods {
				body := op + m + "." + f.name + " %d0, %a0, %a1;"
				out := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{f.name, f.name}, Out: []string{f.name}}, a, b)[0]
				for i := range a {
					x, y := a[i], b[i]
					if strings.Contains(m, ".ftz") {
						x, y = f.ftz(x), f.ftz(y)
					}
					want := confFltMinMaxRef(f, x, y, op == "max", strings.Contains(m, ".NaN"), strings.Contains(m, ".xorsign"))
					require.Equal(t, want, out[i], "%s %#x %#x", body, a[i], b[i])
				}
			}
		}
	}
}

// TestConfFltBits checks neg, abs (with .ftz), copysign and testp.
func TestConfFltBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, f := range []confFltFmt{confFlt32, confFlt64} {
		a, b := confFltPairs(rng, f, 10000)
		sb := f.signBit()
		unary := map[string]func(x uint64) uint64{
			"neg": func(x uint64) uint64 { return x ^ sb },
			"abs": func(x uint64) uint64 { return x &^ sb },
		}
		for name, ref := range unary {
			for _, ftz := range []bool{false, true} {
				if ftz && f.bits == 64 {
					continue
				}
				body := name + "." + f.name
				if ftz {
					body = name + ".ftz." + f.name
				}
				out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{f.name}, Out: []string{f.name}}, a)[0]
				for i, x := range a {
					if ftz {
						x = f.ftz(x)
					}
					require.Equal(t, ref(x), out[i], "%s %#x", body, a[i])
				}
			}
		}
		out := harness.ConfRun(t, harness.ConfOp{Body: "copysign." + f.name + " %d0, %a0, %a1;", In: []string{f.name, f.name}, Out: []string{f.name}}, a, b)[0]
		for i := range a {
			require.Equal(t, b[i]&^sb|a[i]&sb, out[i], "copysign %#x %#x", a[i], b[i])
		}
		minNormal := math.Ldexp(1, f.emin)
		classes := map[string]func(x float64) bool{
			"finite":     func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) },
			"infinite":   func(x float64) bool { return math.IsInf(x, 0) },
			"number":     func(x float64) bool { return !math.IsNaN(x) },
			"notanumber": func(x float64) bool { return math.IsNaN(x) },
			"normal":     func(x float64) bool { return math.Abs(x) >= minNormal && !math.IsInf(x, 0) && !math.IsNaN(x) },
			"subnormal":  func(x float64) bool { return x != 0 && math.Abs(x) < minNormal },
		}
		for class, ref := range classes {
			body := "testp." + class + "." + f.name + " %d0, %a0;"
			out := harness.ConfRun(t, harness.ConfOp{Body: body, In: []string{f.name}, Out: []string{"pred"}}, a)[0]
			for i, x := range a {
				want := uint64(0)
				if ref(f.float64(x)) {
					want = 1
				}
				require.Equal(t, want, out[i], "%s %#x", body, x)
			}
		}
	}
}

// TestConfFltDivForms checks div.approx and div.full (f32, with .ftz), rcp.approx.ftz.f64 and
// rsqrt.approx.f64: the f32 forms and rcp.approx.ftz.f64 are correctly rounded to nearest
// (inside the ISA's 2 ulp), except where the ISA defines div.approx's result for
// 2^126 < |b| < 2^128; rsqrt.approx.f64 is within 1.5 ulp of the exact value.
func TestConfFltDivForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	a, b := confFltPairs(rng, confFlt32, 10000)
	for _, body := range []string{"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"} {
		ftz := strings.Contains(body, ".ftz")
		out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0, %a1;", In: []string{"f32", "f32"}, Out: []string{"f32"}}, a, b)[0]
		for i := range a {
			x, y := a[i], b[i]
			if ftz {
				x, y = confFlt32.ftz(x), confFlt32.ftz(y)
			}
			want := confFltRef(confFlt32, "div", big.ToNearestEven, []uint64{x, y})
			if mag := math.Abs(confFlt32.float64(y)); strings.HasPrefix(body, "div.approx") && mag > 0x1p126 && mag < 0x1p128 {
				want = (x ^ y) & confFlt32.signBit()
				if confFlt32.isInf(x) || confFlt32.isNaN(x) {
					want = confFlt32.canonNaN()
				}
			}
			if ftz {
				want = confFlt32.ftz(want)
			}
			require.Equal(t, want, out[i], "%s %#x %#x", body, a[i], b[i])
		}
	}

	f := confFlt64
	x, _ := confFltPairs(rng, f, 10000)
	out := harness.ConfRun(t, harness.ConfOp{Body: "rcp.approx.ftz.f64 %d0, %a0;", In: []string{"f64"}, Out: []string{"f64"}}, x)[0]
	for i, v := range x {
		want := f.ftz(confFltRef(f, "rcp", big.ToNearestEven, []uint64{f.ftz(v)}))
		require.Equal(t, want, out[i], "rcp.approx.ftz.f64 %#x", v)
	}
	for _, body := range []string{"rsqrt.approx.f64", "rsqrt.approx.ftz.f64"} {
		ftz := strings.Contains(body, ".ftz")
		out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{"f64"}, Out: []string{"f64"}}, x)[0]
		worst := 0.0
		for i, v := range x {
			if ftz {
				v = f.ftz(v)
			}
			val := f.float64(v)
			got := math.Float64frombits(out[i])
			switch {
			case math.IsNaN(val) || val < 0:
				require.Equal(t, f.canonNaN(), out[i], "%s %#x", body, v)
			case val == 0:
				require.Equal(t, math.Copysign(math.Inf(1), val), got, "%s %#x", body, v)
			case math.IsInf(val, 1):
				require.Equal(t, uint64(0), out[i], "%s %#x", body, v)
			default:
				exact := new(big.Float).SetPrec(200).Sqrt(f.big(v))
				exact.Quo(big.NewFloat(1).SetPrec(200), exact)
				diff := new(big.Float).SetPrec(200).Sub(new(big.Float).SetFloat64(got), exact)
				rel, _ := diff.Quo(diff, exact).Float64()
				worst = max(worst, math.Abs(rel)/0x1p-52)
				require.LessOrEqual(t, math.Abs(rel), 1.5*0x1p-52, "%s %#x", body, v)
			}
		}
		t.Logf("%s: max error %.3f ulp (2^-52 relative)", body, worst)
	}
}

// TestConfFltRejected checks that float forms the ISA does not define (or that are not
// implemented) are compile errors at their position, never run wrongly.
func TestConfFltRejected(t *testing.T) {
	for _, body := range []string{
		"add.rni.f32 %d0, %a0, %a0;", "add.ftz.f64 %d0, %a0, %a0;", "mul.sat.f64 %d0, %a0, %a0;",
		"fma.rn.sat.f64 %d0, %a0, %a0, %a0;", "div.approx.f64 %d0, %a0, %a0;", "div.full.f64 %d0, %a0, %a0;",
		"div.approx.rn.f32 %d0, %a0, %a0;", "div.sat.f32 %d0, %a0, %a0;", "sqrt.approx.f64 %d0, %a0;",
		"rcp.approx.f64 %d0, %a0;", "rsqrt.f32 %d0, %a0;", "rsqrt.rn.f32 %d0, %a0;", "sin.f32 %d0, %a0;",
		"sin.approx.f64 %d0, %a0;", "ex2.approx.f64 %d0, %a0;", "tanh.approx.ftz.f32 %d0, %a0;",
		"tanh.f32 %d0, %a0;", "min.xorsign.f32 %d0, %a0, %a0;", "min.ftz.f64 %d0, %a0, %a0;",
		"max.xorsign.abs.f64 %d0, %a0, %a0;", "neg.ftz.f64 %d0, %a0;", "abs.sat.f32 %d0, %a0;",
		"copysign.ftz.f32 %d0, %a0, %a0;", "sqrt.rn.sat.f32 %d0, %a0;",
	} {
		typ := "f32"
		if strings.Contains(body, ".f64") {
			typ = "f64"
		}
		src := harness.ConfKernel(harness.ConfOp{Body: body, In: []string{typ}, Out: []string{typ}})
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "conf.ptx"})
		require.Error(t, err, body)
		// The parser rejects some modifier combinations itself; the rest reach the back end.
		require.Regexp(t, `conf\.ptx:\d+:\d+: (unsupported instruction|.* does not take)`, err.Error(), body)
	}
}
