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

// Conformance of cvt between f32/f64 and the integer types, and between f32 and f64.

var confFltIntTypes = []string{"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"}

// confFltIntRange is the value range of an integer type.
func confFltIntRange(typ string) (lo, hi *big.Int, n int) {
	n = map[byte]int{'8': 8, '6': 16, '2': 32, '4': 64}[typ[len(typ)-1]]
	if typ[0] == 's' {
		lo = new(big.Int).Lsh(big.NewInt(-1), uint(n-1))
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n-1)), big.NewInt(1))
		return lo, hi, n
	}
	return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n)), big.NewInt(1)), n
}

// confFltToInt is cvt.rXi.<int>.<float>: round to an integer, saturate to the type, NaN to 0;
// returned as the low n bits.
func confFltToInt(f confFltFmt, v uint64, mode, typ string) uint64 {
	lo, hi, n := confFltIntRange(typ)
	if f.isNaN(v) {
		return 0
	}
	x := f.float64(v)
	var i *big.Int
	switch {
	case math.IsInf(x, 1):
		i = hi
	case math.IsInf(x, -1):
		i = lo
	default:
		r := map[string]func(float64) float64{"rni": math.RoundToEven, "rzi": math.Trunc, "rmi": math.Floor, "rpi": math.Ceil}[mode](x)
		i, _ = new(big.Float).SetFloat64(r).Int(nil)
		if i.Cmp(lo) < 0 {
			i = lo
		}
		if i.Cmp(hi) > 0 {
			i = hi
		}
	}
	m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n)), big.NewInt(1))
	return new(big.Int).And(i, m).Uint64()
}

// confFltIntInputs are float operands for float-to-integer conversions: edges, values near
// the limits of every integer width, near ties (k + 0.5), and random bits.
func confFltIntInputs(rng *rand.Rand, f confFltFmt, n int) []uint64 {
	in := confFltEdges(f)
	for range n {
		var x float64
		switch rng.IntN(4) {
		case 0:
			in = append(in, confFltRandom(rng, f))
			continue
		case 1:
			w := []int{7, 8, 15, 16, 31, 32, 63, 64}[rng.IntN(8)]
			x = math.Ldexp(1, w) + float64(rng.IntN(5)-2)*math.Ldexp(1, max(w-int(f.prec)+1, 0))
		case 2:
			x = float64(rng.IntN(2000)-1000) + []float64{0, 0.5, 0.25, 0.75, rng.Float64()}[rng.IntN(5)]
		default:
			x = math.Ldexp(rng.Float64(), rng.IntN(70))
		}
		if rng.IntN(2) == 0 {
			x = -x
		}
		in = append(in, f.fromFloat64(x))
	}
	return in
}

// TestConfFltCvtToInt checks cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.<int>.{f32,f64}.
func TestConfFltCvtToInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, f := range []confFltFmt{confFlt32, confFlt64} {
		in := confFltIntInputs(rng, f, 10000)
		for _, typ := range confFltIntTypes {
			for _, mode := range []string{"rni", "rzi", "rmi", "rpi"} {
				mods := []string{""}
				if f.bits == 32 && (typ == "s32" || typ == "u64") {
					mods = append(mods, ".ftz", ".sat")
				}
				for _, m := range mods {
					body := "cvt." + mode + m + "." + typ + "." + f.name
					out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{f.name}, Out: []string{typ}}, in)[0]
					for i, v := range in {
						if m == ".ftz" {
							v = f.ftz(v)
						}
						require.Equal(t, confFltToInt(f, v, mode, typ), out[i], "%s %#x", body, in[i])
					}
				}
			}
		}
	}
}

// TestConfFltCvtFromInt checks cvt.{rn,rz,rm,rp}.{f32,f64}.<int>, and .sat.
func TestConfFltCvtFromInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, typ := range confFltIntTypes {
		lo, hi, n := confFltIntRange(typ)
		in := []uint64{0, 1, lo.Uint64(), hi.Uint64(), uint64(1)<<(n-1) - 1, uint64(1) << (n - 1)}
		for range 10000 {
			var v uint64
			switch rng.IntN(3) {
			case 0:
				v = rng.Uint64()
			case 1:
				// Near 2^24 and 2^53 multiples, where f32 and f64 stop being exact.
				v = uint64(1)<<[]int{24, 25, 53, 54, 62, 63}[rng.IntN(6)] + uint64(rng.IntN(64)) - 32
			default:
				v = rng.Uint64() >> rng.IntN(64)
			}
			if typ[0] == 's' && rng.IntN(2) == 0 {
				v = -v
			}
			in = append(in, v&(math.MaxUint64>>(64-n)))
		}
		for _, f := range []confFltFmt{confFlt32, confFlt64} {
			for _, mode := range []string{"rn", "rz", "rm", "rp", "rn.sat"} {
				body := "cvt." + mode + "." + f.name + "." + typ
				out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{typ}, Out: []string{f.name}}, in)[0]
				for i, v := range in {
					x := new(big.Float).SetPrec(64)
					if typ[0] == 's' {
						x.SetInt64(int64(v<<(64-n)) >> (64 - n))
					} else {
						x.SetUint64(v)
					}
					want := uint64(0)
					if x.Sign() != 0 {
						want = f.round(x, confFltModes[mode[:2]])
					}
					if strings.HasSuffix(mode, ".sat") {
						want = confFltSat(f, want)
					}
					require.Equal(t, want, out[i], "%s %#x", body, v)
				}
			}
		}
	}
}

// TestConfFltCvtFloat checks cvt between f32 and f64 (.rn .rz .rm .rp narrowing, exact
// widening, .ftz, .sat) and the round-to-integral cvt.rXi.f32.f32 and .f64.f64.
func TestConfFltCvtFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	in64 := confFltEdges(confFlt64)
	in32 := confFltEdges(confFlt32)
	for range 10000 {
		in64 = append(in64, confFltRandom(rng, confFlt64))
		in32 = append(in32, confFltRandom(rng, confFlt32))
	}
	// f64 values inside and around the f32 range: f32 values with extra low bits, f32 ties,
	// and f32 subnormals.
	for range 10000 {
		v := math.Float64bits(float64(math.Float32frombits(uint32(confFltRandom(rng, confFlt32)))))
		switch rng.IntN(3) {
		case 0:
			v ^= rng.Uint64() & (1<<29 - 1)
		case 1:
			v |= 1 << 28
		}
		in64 = append(in64, v)
	}
	narrow := func(v uint64, mode string) uint64 {
		x := math.Float64frombits(v)
		switch {
		case x != x:
			return confFlt32.canonNaN()
		case x == 0 || math.IsInf(x, 0):
			return uint64(math.Float32bits(float32(x)))
		}
		return confFlt32.round(new(big.Float).SetFloat64(x), confFltModes[mode])
	}
	for _, mode := range []string{"rn", "rz", "rm", "rp"} {
		for _, m := range []string{"", ".ftz", ".sat", ".ftz.sat"} {
			body := "cvt." + mode + m + ".f32.f64"
			out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{"f64"}, Out: []string{"f32"}}, in64)[0]
			for i, v := range in64 {
				want := narrow(v, mode)
				if strings.Contains(m, "ftz") {
					want = confFlt32.ftz(want)
				}
				if strings.Contains(m, "sat") {
					want = confFltSat(confFlt32, want)
				}
				require.Equal(t, want, out[i], "%s %#x", body, v)
			}
		}
	}
	for _, m := range []string{"", ".ftz", ".sat"} {
		body := "cvt" + m + ".f64.f32"
		out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{"f32"}, Out: []string{"f64"}}, in32)[0]
		for i, v := range in32 {
			if m == ".ftz" {
				v = confFlt32.ftz(v)
			}
			want := confFlt64.fromFloat64(confFlt32.float64(v))
			if m == ".sat" {
				want = confFltSat(confFlt64, want)
			}
			require.Equal(t, want, out[i], "%s %#x", body, in32[i])
		}
	}
	integral := map[string]func(float64) float64{"rni": math.RoundToEven, "rzi": math.Trunc, "rmi": math.Floor, "rpi": math.Ceil}
	for mode, ref := range integral {
		for _, c := range []struct {
			f  confFltFmt
			in []uint64
			m  string
		}{{confFlt32, in32, ""}, {confFlt32, in32, ".ftz"}, {confFlt32, in32, ".sat"}, {confFlt64, in64, ""}} {
			body := "cvt." + mode + c.m + "." + c.f.name + "." + c.f.name
			out := harness.ConfRun(t, harness.ConfOp{Body: body + " %d0, %a0;", In: []string{c.f.name}, Out: []string{c.f.name}}, c.in)[0]
			for i, v := range c.in {
				if c.m == ".ftz" {
					v = c.f.ftz(v)
				}
				want := c.f.fromFloat64(ref(c.f.float64(v)))
				if c.m == ".sat" {
					want = confFltSat(c.f, want)
				}
				require.Equal(t, want, out[i], "%s %#x", body, c.in[i])
			}
		}
	}
}
