package conformance_test

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
)

// Conformance tests of the integer instructions. Every form runs on edge values (crossed over
// its operands), 12000 random rows and, where its first operand is 16 bits wide, all 65536
// values of that operand; each output is compared with a reference written here from the PTX
// ISA's definition in plain Go integer arithmetic (math/big for wide products), independent of
// runtime/isa.

// confIntCase is one instruction form and its reference: ref maps a row of raw inputs to its
// outputs, each zero-extended from the output's width (preds 0 or 1).
type confIntCase struct {
	op  harness.ConfOp
	ref func(x []uint64) []uint64
}

const confIntRandomRows = 12000

// confIntWidth is the bit width of a conformance type ("u32" → 32, "pred" → 1).
func confIntWidth(t string) int {
	switch t {
	case "pred":
		return 1
	case "f32":
		return 32
	case "f64":
		return 64
	}
	n, err := strconv.Atoi(strings.TrimLeft(t, "bsu"))
	if err != nil {
		panic("confIntWidth " + t)
	}
	return n
}

func confIntMask(n int) uint64 { return math.MaxUint64 >> (64 - n) }

func confIntSx(v uint64, n int) int64 { return int64(v<<(64-n)) >> (64 - n) }

// confIntEdges lists the edge values of an n-bit operand: small numbers, shift amounts around
// 16, 32 and 64, the extremes of both signednesses and alternating bit patterns.
func confIntEdges(t string) []uint64 {
	n := confIntWidth(t)
	if n == 1 {
		return []uint64{0, 1}
	}
	if t == "f32" {
		return []uint64{0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
			0xffc00001, 0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x40000000}
	}
	if t == "f64" {
		return []uint64{0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000,
			0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001, 1, 1<<63 | 1,
			0x000fffffffffffff, 0x7fefffffffffffff, 0x4000000000000000}
	}
	m := confIntMask(n)
	raw := []uint64{0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 21, 24, 31, 32, 33, 37, 63, 64, 65, 69, 0x7f, 0x80, 0xff,
		0x100, 0xffff, 0x10000, 0x7fffff, 0x800000, 0xffffff,
		m, m - 1, m - 2, m >> 1, m>>1 + 1, m>>1 + 2, m>>1 - 1, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa,
		0x0123456789abcdef, 0xfedcba9876543210}
	seen := map[uint64]bool{}
	var out []uint64
	for _, v := range raw {
		v &= m
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// confIntValue draws a random value of type t: uniform bits mostly, else an edge value or a
// number close to zero of either sign.
func confIntValue(r *rand.Rand, t string, edges []uint64) uint64 {
	n := confIntWidth(t)
	if n == 1 {
		return r.Uint64N(2)
	}
	m := confIntMask(n)
	switch k := r.IntN(10); {
	case k < 6:
		return r.Uint64() & m
	case k < 8:
		return edges[r.IntN(len(edges))]
	case k == 8:
		return r.Uint64N(70)
	default:
		return (-r.Uint64N(70)) & m
	}
}

// confIntRows builds the input columns for types in: the cross product of edge values over
// the operands (over the first two where that would be too many rows), random rows (a tenth
// with the first two operands equal), and for a 16-bit first operand all its 65536 values with
// random others.
func confIntRows(in []string, seed uint64) [][]uint64 {
	r := rand.New(rand.NewPCG(seed, 0x1234))
	edges := make([][]uint64, len(in))
	for k, t := range in {
		edges[k] = confIntEdges(t)
	}
	cols := make([][]uint64, len(in))
	add := func(row []uint64) {
		for k := range cols {
			cols[k] = append(cols[k], row[k])
		}
	}
	cross := len(in)
	for total := 1; cross > 0; cross-- {
		total = 1
		for k := range cross {
			total *= len(edges[k])
		}
		if total <= 60000 {
			break
		}
	}
	var walk func(k int, row []uint64)
	walk = func(k int, row []uint64) {
		if k == cross {
			for j := k; j < len(in); j++ {
				row[j] = confIntValue(r, in[j], edges[j])
			}
			add(row)
			return
		}
		for _, v := range edges[k] {
			row[k] = v
			walk(k+1, row)
		}
	}
	walk(0, make([]uint64, len(in)))
	row := make([]uint64, len(in))
	for range confIntRandomRows {
		for k, t := range in {
			row[k] = confIntValue(r, t, edges[k])
		}
		if len(in) > 1 && r.IntN(10) == 0 && confIntWidth(in[0]) == confIntWidth(in[1]) {
			row[1] = row[0]
		}
		add(row)
	}
	if len(in) > 0 && confIntWidth(in[0]) == 16 {
		for v := range uint64(1 << 16) {
			row[0] = v
			for k := 1; k < len(in); k++ {
				row[k] = confIntValue(r, in[k], edges[k])
			}
			add(row)
		}
	}
	return cols
}

// confIntCheck runs c on its rows and compares every output with the reference.
func confIntCheck(t *testing.T, c confIntCase) {
	t.Helper()
	seed := uint64(len(c.op.Body))*7919 + uint64(strings.Count(c.op.Body, "."))
	cols := confIntRows(c.op.In, seed)
	outs := harness.ConfRun(t, c.op, cols...)
	bad := 0
	x := make([]uint64, len(cols))
	for i := range cols[0] {
		for k := range cols {
			x[k] = cols[k][i]
		}
		want := c.ref(x)
		for k := range outs {
			w := want[k] & confIntMask(confIntWidth(c.op.Out[k]))
			if outs[k][i] != w {
				bad++
				if bad <= 8 {
					t.Errorf("%s: inputs %#x: output %d = %#x, want %#x", c.op.Body, x, k, outs[k][i], w)
				}
			}
		}
	}
	if bad > 8 {
		t.Errorf("%s: %d mismatches in all", c.op.Body, bad)
	}
}

// confIntRun checks each case as a subtest named by its instruction.
func confIntRun(t *testing.T, cases []confIntCase) {
	for _, c := range cases {
		name := strings.Fields(c.op.Body)[0]
		if name == "{" { // a multi-instruction block: name it by its first .cc instruction
			for line := range strings.Lines(c.op.Body) {
				if f := strings.Fields(line); len(f) > 0 && strings.Contains(f[0], ".cc") {
					name = f[0]
					break
				}
			}
		}
		t.Run(name, func(t *testing.T) { confIntCheck(t, c) })
	}
}

// confIntBig is the value of the low n bits of v, signed or unsigned.
func confIntBig(v uint64, n int, signed bool) *big.Int {
	if signed {
		return big.NewInt(confIntSx(v, n))
	}
	return new(big.Int).SetUint64(v & confIntMask(n))
}

// confIntBits returns bits lo .. lo+n-1 of the two's-complement value z.
func confIntBits(z *big.Int, lo, n int) uint64 {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(lo+n))
	v := new(big.Int).Mod(z, mod) // non-negative
	return v.Rsh(v, uint(lo)).Uint64()
}

// confIntClamp clamps z to the n-bit signed range and returns its n-bit pattern.
func confIntClamp(z *big.Int, n int) uint64 {
	lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(n-1)))
	hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n-1)), big.NewInt(1))
	if z.Cmp(lo) < 0 {
		z = lo
	}
	if z.Cmp(hi) > 0 {
		z = hi
	}
	return confIntBits(z, 0, n)
}

func confIntB(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// confIntSigned reports whether a conformance type is a signed integer.
func confIntSigned(t string) bool { return t[0] == 's' }

var confIntTypes = []string{"u16", "s16", "u32", "s32", "u64", "s64"}

func TestConfIntAddSubMul(t *testing.T) {
	var cases []confIntCase
	one := func(body string, in, out []string, ref func(x []uint64) []uint64) {
		cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: in, Out: out}, ref})
	}
	for _, ty := range confIntTypes {
		n, sg := confIntWidth(ty), confIntSigned(ty)
		tt := []string{ty, ty}
		one("add."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{x[0] + x[1]} })
		one("sub."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{x[0] - x[1]} })
		prod := func(x []uint64) *big.Int { return new(big.Int).Mul(confIntBig(x[0], n, sg), confIntBig(x[1], n, sg)) }
		one("mul.lo."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(prod(x), 0, n)} })
		one("mul.hi."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(prod(x), n, n)} })
		t3 := []string{ty, ty, ty}
		one("mad.lo."+ty+" %d0, %a0, %a1, %a2;", t3, []string{ty}, func(x []uint64) []uint64 {
			return []uint64{confIntBits(prod(x), 0, n) + x[2]}
		})
		one("mad.hi."+ty+" %d0, %a0, %a1, %a2;", t3, []string{ty}, func(x []uint64) []uint64 {
			return []uint64{confIntBits(prod(x), n, n) + x[2]}
		})
		if n < 64 {
			wt := ty[:1] + strconv.Itoa(2*n)
			one("mul.wide."+ty+" %d0, %a0, %a1;", tt, []string{wt}, func(x []uint64) []uint64 { return []uint64{confIntBits(prod(x), 0, 2*n)} })
			one("mad.wide."+ty+" %d0, %a0, %a1, %a2;", []string{ty, ty, wt}, []string{wt}, func(x []uint64) []uint64 {
				return []uint64{confIntBits(prod(x), 0, 2*n) + x[2]}
			})
		}
		sadRef := func(x []uint64) []uint64 {
			d := new(big.Int).Sub(confIntBig(x[0], n, sg), confIntBig(x[1], n, sg))
			return []uint64{confIntBits(d.Abs(d), 0, n) + x[2]}
		}
		one("sad."+ty+" %d0, %a0, %a1, %a2;", t3, []string{ty}, sadRef)
	}
	sat := func(sub bool) func(x []uint64) []uint64 {
		return func(x []uint64) []uint64 {
			a, b := confIntSx(x[0], 32), confIntSx(x[1], 32)
			if sub {
				b = -b
			}
			return []uint64{confIntClamp(big.NewInt(a+b), 32)}
		}
	}
	s32 := []string{"s32", "s32"}
	one("add.sat.s32 %d0, %a0, %a1;", s32, []string{"s32"}, sat(false))
	one("sub.sat.s32 %d0, %a0, %a1;", s32, []string{"s32"}, sat(true))
	one("mad.hi.sat.s32 %d0, %a0, %a1, %a2;", []string{"s32", "s32", "s32"}, []string{"s32"}, func(x []uint64) []uint64 {
		p := new(big.Int).Mul(confIntBig(x[0], 32, true), confIntBig(x[1], 32, true))
		p.Rsh(p, 32) // floor: bits 63..32 of the two's-complement product
		return []uint64{confIntClamp(p.Add(p, confIntBig(x[2], 32, true)), 32)}
	})
	for _, ty := range []string{"u32", "s32"} {
		sg := ty == "s32"
		p24 := func(x []uint64) *big.Int {
			return new(big.Int).Mul(confIntBig(x[0], 24, sg), confIntBig(x[1], 24, sg))
		}
		tt, t3 := []string{ty, ty}, []string{ty, ty, ty}
		one("mul24.lo."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(p24(x), 0, 32)} })
		one("mul24.hi."+ty+" %d0, %a0, %a1;", tt, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(p24(x), 16, 32)} })
		one("mad24.lo."+ty+" %d0, %a0, %a1, %a2;", t3, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(p24(x), 0, 32) + x[2]} })
		one("mad24.hi."+ty+" %d0, %a0, %a1, %a2;", t3, []string{ty}, func(x []uint64) []uint64 { return []uint64{confIntBits(p24(x), 16, 32) + x[2]} })
	}
	one("mad24.hi.sat.s32 %d0, %a0, %a1, %a2;", []string{"s32", "s32", "s32"}, []string{"s32"}, func(x []uint64) []uint64 {
		p := new(big.Int).Mul(confIntBig(x[0], 24, true), confIntBig(x[1], 24, true))
		p.Rsh(p, 16)
		return []uint64{confIntClamp(p.Add(p, confIntBig(x[2], 32, true)), 32)}
	})
	confIntRun(t, cases)
}

// TestConfIntDivMinMax covers div, rem (a zero divisor gives all ones on NVIDIA GPUs, MinInt/-1
// wraps), abs, neg, min, max and min/max.relu.
func TestConfIntDivMinMax(t *testing.T) {
	var cases []confIntCase
	one := func(body string, in, out []string, ref func(x []uint64) []uint64) {
		cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: in, Out: out}, ref})
	}
	for _, ty := range confIntTypes {
		n, sg := confIntWidth(ty), confIntSigned(ty)
		tt := []string{ty, ty}
		divRef := func(rem bool) func(x []uint64) []uint64 {
			return func(x []uint64) []uint64 {
				a, b := confIntBig(x[0], n, sg), confIntBig(x[1], n, sg)
				if b.Sign() == 0 {
					return []uint64{confIntMask(n)}
				}
				if rem {
					return []uint64{confIntBits(new(big.Int).Rem(a, b), 0, n)}
				}
				return []uint64{confIntBits(new(big.Int).Quo(a, b), 0, n)}
			}
		}
		one("div."+ty+" %d0, %a0, %a1;", tt, []string{ty}, divRef(false))
		one("rem."+ty+" %d0, %a0, %a1;", tt, []string{ty}, divRef(true))
		minmax := func(isMax bool) func(x []uint64) []uint64 {
			return func(x []uint64) []uint64 {
				c := confIntBig(x[0], n, sg).Cmp(confIntBig(x[1], n, sg))
				if (c > 0) == isMax && c != 0 {
					return []uint64{x[0]}
				}
				return []uint64{x[1]}
			}
		}
		one("min."+ty+" %d0, %a0, %a1;", tt, []string{ty}, minmax(false))
		one("max."+ty+" %d0, %a0, %a1;", tt, []string{ty}, minmax(true))
		if sg {
			one("abs."+ty+" %d0, %a0;", []string{ty}, []string{ty}, func(x []uint64) []uint64 {
				v := confIntBig(x[0], n, true)
				return []uint64{confIntBits(v.Abs(v), 0, n)}
			})
			one("neg."+ty+" %d0, %a0;", []string{ty}, []string{ty}, func(x []uint64) []uint64 {
				v := confIntBig(x[0], n, true)
				return []uint64{confIntBits(v.Neg(v), 0, n)}
			})
		}
	}
	for _, op := range []string{"min", "max"} {
		isMax := op == "max"
		one(op+".relu.s32 %d0, %a0, %a1;", []string{"s32", "s32"}, []string{"s32"}, func(x []uint64) []uint64 {
			a, b := int32(x[0]), int32(x[1])
			r := a
			if (b > a) == isMax && a != b {
				r = b
			}
			if r < 0 {
				r = 0
			}
			return []uint64{uint64(uint32(r))}
		})
	}
	confIntRun(t, cases)
}

// TestConfIntBits covers popc, clz, brev, bfind, fns, bfe, bfi, szext, bmsk and the shifts.
func TestConfIntBits(t *testing.T) {
	var cases []confIntCase
	one := func(body string, in, out []string, ref func(x []uint64) []uint64) {
		cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: in, Out: out}, ref})
	}
	bit := func(v uint64, i int) uint64 { return v >> i & 1 }
	for _, n := range []int{32, 64} {
		b := "b" + strconv.Itoa(n)
		one("popc."+b+" %d0, %a0;", []string{b}, []string{"u32"}, func(x []uint64) []uint64 {
			c := uint64(0)
			for i := range n {
				c += bit(x[0], i)
			}
			return []uint64{c}
		})
		one("clz."+b+" %d0, %a0;", []string{b}, []string{"u32"}, func(x []uint64) []uint64 {
			c := uint64(0)
			for i := n - 1; i >= 0 && bit(x[0], i) == 0; i-- {
				c++
			}
			return []uint64{c}
		})
		one("brev."+b+" %d0, %a0;", []string{b}, []string{b}, func(x []uint64) []uint64 {
			var r uint64
			for i := range n {
				r |= bit(x[0], i) << (n - 1 - i)
			}
			return []uint64{r}
		})
		for _, sg := range []bool{false, true} {
			ty := "u" + strconv.Itoa(n)
			if sg {
				ty = "s" + strconv.Itoa(n)
			}
			for _, shift := range []bool{false, true} {
				mod := ""
				if shift {
					mod = ".shiftamt"
				}
				one("bfind"+mod+"."+ty+" %d0, %a0;", []string{ty}, []string{"u32"}, func(x []uint64) []uint64 {
					a := x[0]
					if sg && bit(a, n-1) == 1 {
						a = ^a
					}
					d := uint64(0xffffffff)
					for i := n - 1; i >= 0; i-- {
						if bit(a, i) == 1 {
							d = uint64(i)
							break
						}
					}
					if shift && d != 0xffffffff {
						d = uint64(n-1) - d
					}
					return []uint64{d}
				})
			}
			one("bfe."+ty+" %d0, %a0, %a1, %a2;", []string{ty, "u32", "u32"}, []string{ty}, func(x []uint64) []uint64 {
				pos, ln := int(x[1]&0xff), int(x[2]&0xff)
				var sbit uint64
				if sg && ln != 0 {
					sbit = bit(x[0], min(pos+ln-1, n-1))
				}
				var d uint64
				for i := range n {
					v := sbit
					if i < ln && pos+i <= n-1 {
						v = bit(x[0], pos+i)
					}
					d |= v << i
				}
				return []uint64{d}
			})
			sh := func(left bool) func(x []uint64) []uint64 {
				return func(x []uint64) []uint64 {
					s := uint32(x[1])
					switch {
					case left && s >= uint32(n):
						return []uint64{0}
					case left:
						return []uint64{x[0] << s}
					case s >= uint32(n) && sg && bit(x[0], n-1) == 1:
						return []uint64{confIntMask(n)}
					case s >= uint32(n):
						return []uint64{0}
					case sg:
						return []uint64{uint64(confIntSx(x[0], n) >> s)}
					}
					return []uint64{x[0] >> s}
				}
			}
			if !sg {
				one("shl.b"+strconv.Itoa(n)+" %d0, %a0, %a1;", []string{"b" + strconv.Itoa(n), "u32"}, []string{"b" + strconv.Itoa(n)}, sh(true))
			}
			one("shr."+ty+" %d0, %a0, %a1;", []string{ty, "u32"}, []string{ty}, sh(false))
		}
		one("bfi."+b+" %d0, %a0, %a1, %a2, %a3;", []string{b, b, "u32", "u32"}, []string{b}, func(x []uint64) []uint64 {
			pos, ln := int(x[2]&0xff), int(x[3]&0xff)
			d := x[1]
			for i := 0; i < ln && pos+i <= n-1; i++ {
				d = d&^(1<<(pos+i)) | bit(x[0], i)<<(pos+i)
			}
			return []uint64{d}
		})
	}
	for _, ty := range []string{"u16", "s16"} {
		sg := ty == "s16"
		one("shr."+ty+" %d0, %a0, %a1;", []string{ty, "u32"}, []string{ty}, func(x []uint64) []uint64 {
			s := uint32(x[1])
			if sg {
				return []uint64{uint64(confIntSx(x[0], 16) >> min(s, 15))}
			}
			if s >= 16 {
				return []uint64{0}
			}
			return []uint64{x[0] >> s}
		})
	}
	one("shl.b16 %d0, %a0, %a1;", []string{"b16", "u32"}, []string{"b16"}, func(x []uint64) []uint64 {
		if uint32(x[1]) >= 16 {
			return []uint64{0}
		}
		return []uint64{x[0] << x[1]}
	})
	// A negative .s32 shift amount is a large unsigned one.
	one("shr.s32 %d0, %a0, %a1;", []string{"s32", "s32"}, []string{"s32"}, func(x []uint64) []uint64 {
		if uint32(x[1]) >= 32 {
			return []uint64{uint64(confIntSx(x[0], 32) >> 63)}
		}
		return []uint64{uint64(confIntSx(x[0], 32) >> x[1])}
	})
	one("fns.b32 %d0, %a0, %a1, %a2;", []string{"b32", "u32", "s32"}, []string{"b32"}, func(x []uint64) []uint64 {
		mask, base, off := uint32(x[0]), int64(int32(x[1])), int64(int32(x[2]))
		// The ISA leaves base > 31 undefined; ptx2go answers "not found".
		if base < 0 || base > 31 {
			return []uint64{0xffffffff}
		}
		if off == 0 {
			if mask>>base&1 == 1 {
				return []uint64{uint64(base)}
			}
			return []uint64{0xffffffff}
		}
		pos, count, inc := base, off-1, int64(1)
		if off < 0 {
			count, inc = -off-1, -1
		}
		for pos >= 0 && pos < 32 {
			if mask>>pos&1 == 1 {
				if count == 0 {
					return []uint64{uint64(pos)}
				}
				count--
			}
			pos += inc
		}
		return []uint64{0xffffffff}
	})
	for _, mode := range []string{"clamp", "wrap"} {
		clamp := mode == "clamp"
		for _, ty := range []string{"u32", "s32"} {
			sg := ty == "s32"
			one("szext."+mode+"."+ty+" %d0, %a0, %a1;", []string{ty, "u32"}, []string{ty}, func(x []uint64) []uint64 {
				a, nb := x[0], uint32(x[1])
				if clamp && nb >= 32 {
					return []uint64{a}
				}
				nb &= 31
				var d uint64
				for i := range 32 {
					v := uint64(0)
					switch {
					case uint32(i) < nb:
						v = bit(a, i)
					case sg && nb > 0:
						v = bit(a, int(nb)-1)
					}
					d |= v << i
				}
				return []uint64{d}
			})
		}
		one("bmsk."+mode+".b32 %d0, %a0, %a1;", []string{"b32", "u32"}, []string{"b32"}, func(x []uint64) []uint64 {
			start, width := uint32(x[0]), uint32(x[1])
			if clamp {
				if start >= 32 {
					return []uint64{0}
				}
				width = min(width, 32)
			} else {
				start, width = start&31, width&31
			}
			var d uint64
			for i := start; i < 32 && i < start+width; i++ {
				d |= 1 << i
			}
			return []uint64{d}
		})
	}
	confIntRun(t, cases)
}

// TestConfIntLogic covers and/or/xor/not/cnot on bit types and predicates, shf, prmt (its ISA
// byte-selection table, every mode) and lop3 (every LUT, and the predicate-output form).
func TestConfIntLogic(t *testing.T) {
	var cases []confIntCase
	one := func(body string, in, out []string, ref func(x []uint64) []uint64) {
		cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: in, Out: out}, ref})
	}
	for _, b := range []string{"b16", "b32", "b64", "pred"} {
		n := confIntWidth(b)
		tt := []string{b, b}
		one("and."+b+" %d0, %a0, %a1;", tt, []string{b}, func(x []uint64) []uint64 { return []uint64{x[0] & x[1]} })
		one("or."+b+" %d0, %a0, %a1;", tt, []string{b}, func(x []uint64) []uint64 { return []uint64{x[0] | x[1]} })
		one("xor."+b+" %d0, %a0, %a1;", tt, []string{b}, func(x []uint64) []uint64 { return []uint64{x[0] ^ x[1]} })
		one("not."+b+" %d0, %a0;", []string{b}, []string{b}, func(x []uint64) []uint64 { return []uint64{^x[0]} })
		if n > 1 {
			one("cnot."+b+" %d0, %a0;", []string{b}, []string{b}, func(x []uint64) []uint64 { return []uint64{confIntB(x[0] == 0)} })
		}
	}
	for _, dir := range []string{"l", "r"} {
		for _, mode := range []string{"clamp", "wrap"} {
			left, clamp := dir == "l", mode == "clamp"
			one("shf."+dir+"."+mode+".b32 %d0, %a0, %a1, %a2;", []string{"b32", "b32", "u32"}, []string{"b32"}, func(x []uint64) []uint64 {
				a, b, c := uint32(x[0]), uint32(x[1]), uint32(x[2])
				s := c & 31
				if clamp {
					s = min(c, 32)
				}
				switch {
				case s == 0 && left:
					return []uint64{uint64(b)}
				case s == 0:
					return []uint64{uint64(a)}
				case s == 32 && left:
					return []uint64{uint64(a)}
				case s == 32:
					return []uint64{uint64(b)}
				case left:
					return []uint64{uint64(b<<s | a>>(32-s))}
				}
				return []uint64{uint64(a>>s | b<<(32-s))}
			})
		}
	}
	// The ISA's prmt table: for each mode and selector c[1:0], the source bytes of d.b3 d.b2 d.b1 d.b0.
	prmtTable := map[string][4][4]int{
		"f4e":  {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},
		"b4e":  {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},
		"rc8":  {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
		"ecl":  {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},
		"ecr":  {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},
		"rc16": {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},
	}
	byteOf := func(a, b uint64, i int) uint64 {
		src := [8]uint64{a & 0xff, a >> 8 & 0xff, a >> 16 & 0xff, a >> 24 & 0xff, b & 0xff, b >> 8 & 0xff, b >> 16 & 0xff, b >> 24 & 0xff}
		return src[i]
	}
	tri := []string{"b32", "b32", "b32"}
	one("prmt.b32 %d0, %a0, %a1, %a2;", tri, []string{"b32"}, func(x []uint64) []uint64 {
		var d uint64
		for i := range 4 {
			sel := x[2] >> (4 * i) & 0xf
			v := byteOf(x[0], x[1], int(sel&7))
			if sel&8 != 0 {
				if v >= 0x80 {
					v = 0xff
				} else {
					v = 0
				}
			}
			d |= v << (8 * i)
		}
		return []uint64{d}
	})
	for mode, table := range prmtTable {
		one("prmt.b32."+mode+" %d0, %a0, %a1, %a2;", tri, []string{"b32"}, func(x []uint64) []uint64 {
			row := table[x[2]&3]
			var d uint64
			for i := range 4 { // row[0] is d.b3
				d |= byteOf(x[0], x[1], row[3-i]) << (8 * i)
			}
			return []uint64{d}
		})
	}
	// lop3: 32 LUTs per kernel, one output each.
	lop3 := func(a, b, c uint64, lut int) uint64 {
		var d uint64
		for i := range 32 {
			k := (a>>i&1)<<2 | (b>>i&1)<<1 | c>>i&1
			d |= uint64(lut>>k&1) << i
		}
		return d
	}
	for base := 0; base < 256; base += 32 {
		var body strings.Builder
		out := make([]string, 32)
		for k := range 32 {
			fmt.Fprintf(&body, "lop3.b32 %%d%d, %%a0, %%a1, %%a2, %d;\n", k, base+k)
			out[k] = "b32"
		}
		one(body.String(), tri, out, func(x []uint64) []uint64 {
			r := make([]uint64, 32)
			for k := range r {
				r[k] = lop3(x[0], x[1], x[2], base+k)
			}
			return r
		})
	}
	for _, bop := range []string{"or", "and"} {
		for _, lut := range []int{0x00, 0x3f, 0x80, 0x96, 0xe8, 0xfe, 0xff} {
			one(fmt.Sprintf("lop3.%s.b32 %%d0|%%d1, %%a0, %%a1, %%a2, %d, %%a3;", bop, lut),
				[]string{"b32", "b32", "b32", "pred"}, []string{"b32", "pred"}, func(x []uint64) []uint64 {
					d := lop3(x[0], x[1], x[2], lut)
					p := d != 0 && x[3] != 0
					if bop == "or" {
						p = d != 0 || x[3] != 0
					}
					return []uint64{d, confIntB(p)}
				})
		}
	}
	confIntRun(t, cases)
}

// TestConfIntDot covers dp4a and dp2a for every pair of operand types.
func TestConfIntDot(t *testing.T) {
	var cases []confIntCase
	ext := func(v uint64, n int, sg bool) int64 {
		if sg {
			return confIntSx(v, n)
		}
		return int64(v & confIntMask(n))
	}
	for _, at := range []string{"u32", "s32"} {
		for _, bt := range []string{"u32", "s32"} {
			as, bs := at == "s32", bt == "s32"
			ct := "s32"
			if !as && !bs {
				ct = "u32"
			}
			in := []string{at, bt, ct}
			cases = append(cases, confIntCase{harness.ConfOp{Body: "dp4a." + at + "." + bt + " %d0, %a0, %a1, %a2;", In: in, Out: []string{ct}},
				func(x []uint64) []uint64 {
					d := int64(x[2])
					for i := range 4 {
						d += ext(x[0]>>(8*i), 8, as) * ext(x[1]>>(8*i), 8, bs)
					}
					return []uint64{uint64(d)}
				}})
			for sel, mode := range []string{"lo", "hi"} {
				cases = append(cases, confIntCase{harness.ConfOp{Body: "dp2a." + mode + "." + at + "." + bt + " %d0, %a0, %a1, %a2;", In: in, Out: []string{ct}},
					func(x []uint64) []uint64 {
						d := int64(x[2])
						for i := range 2 {
							d += ext(x[0]>>(16*i), 16, as) * ext(x[1]>>(8*(2*sel+i)), 8, bs)
						}
						return []uint64{uint64(d)}
					}})
			}
		}
	}
	confIntRun(t, cases)
}

// confIntCompare is the reference comparison of setp and set: a CmpOp b for type ty.
func confIntCompare(cmp, ty string, a, b uint64) bool {
	if ty == "f32" || ty == "f64" {
		x, y := math.Float64frombits(a), math.Float64frombits(b)
		if ty == "f32" {
			x, y = float64(math.Float32frombits(uint32(a))), float64(math.Float32frombits(uint32(b)))
		}
		nan := math.IsNaN(x) || math.IsNaN(y)
		ord := map[string]bool{"eq": x == y, "ne": x != y && !nan, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}
		if v, ok := ord[cmp]; ok {
			return v
		}
		switch cmp {
		case "num":
			return !nan
		case "nan":
			return nan
		}
		return nan || ord[strings.TrimSuffix(cmp, "u")]
	}
	n := confIntWidth(ty)
	c := confIntBig(a, n, confIntSigned(ty)).Cmp(confIntBig(b, n, confIntSigned(ty)))
	switch cmp {
	case "eq":
		return c == 0
	case "ne":
		return c != 0
	case "lt", "lo":
		return c < 0
	case "le", "ls":
		return c <= 0
	case "gt", "hi":
		return c > 0
	}
	return c >= 0
}

// TestConfIntSetp checks setp and set for every comparison of the integer and bit types (and
// of f32/f64 for set), each with .and/.or/.xor, both setp destinations and every set dtype.
func TestConfIntSetp(t *testing.T) {
	var cases []confIntCase
	cmps := map[string][]string{
		"u": {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"},
		"s": {"eq", "ne", "lt", "le", "gt", "ge"},
		"b": {"eq", "ne"},
		"f": {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"},
	}
	for _, ty := range []string{"u16", "s16", "b16", "u32", "s32", "b32", "u64", "s64", "b64", "f32", "f64"} {
		for _, cmp := range cmps[ty[:1]] {
			body := fmt.Sprintf(`setp.%[1]s.%[2]s %%d0|%%d1, %%a0, %%a1;
				setp.%[1]s.and.%[2]s %%d2|%%d3, %%a0, %%a1, %%a2;
				setp.%[1]s.or.%[2]s %%d4|%%d5, %%a0, %%a1, !%%a2;
				setp.%[1]s.xor.%[2]s %%d6, %%a0, %%a1, %%a2;
				set.%[1]s.u32.%[2]s %%d7, %%a0, %%a1;
				set.%[1]s.and.s32.%[2]s %%d8, %%a0, %%a1, %%a2;
				set.%[1]s.or.f32.%[2]s %%d9, %%a0, %%a1, !%%a2;
				set.%[1]s.xor.u32.%[2]s %%d10, %%a0, %%a1, %%a2;`, cmp, ty)
			out := []string{"pred", "pred", "pred", "pred", "pred", "pred", "pred", "u32", "s32", "f32", "u32"}
			cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: []string{ty, ty, "pred"}, Out: out}, func(x []uint64) []uint64 {
				r, c := confIntCompare(cmp, ty, x[0], x[1]), x[2] != 0
				mask := func(v bool) uint64 {
					if v {
						return 0xffffffff
					}
					return 0
				}
				fl := uint64(0)
				if r || !c {
					fl = 0x3f800000
				}
				return []uint64{confIntB(r), confIntB(!r), confIntB(r && c), confIntB(!r && c), confIntB(r || !c), confIntB(!r || !c),
					confIntB(r != c), mask(r), mask(r && c), fl, mask(r != c)}
			}})
		}
	}
	flush := func(v uint64) uint64 {
		if v&0x7f800000 == 0 {
			return v & 0x80000000
		}
		return v
	}
	// set.ftz.f32 flushes subnormal inputs to zero before comparing.
	cases = append(cases, confIntCase{harness.ConfOp{Body: "set.lt.ftz.u32.f32 %d0, %a0, %a1;", In: []string{"f32", "f32"}, Out: []string{"u32"}},
		func(x []uint64) []uint64 {
			if confIntCompare("lt", "f32", flush(x[0]), flush(x[1])) {
				return []uint64{0xffffffff}
			}
			return []uint64{0}
		}})
	// setp.ftz.f32 too, for every comparison.
	for _, cmp := range cmps["f"] {
		cases = append(cases, confIntCase{harness.ConfOp{Body: "setp." + cmp + ".ftz.f32 %d0, %a0, %a1;", In: []string{"f32", "f32"}, Out: []string{"pred"}},
			func(x []uint64) []uint64 {
				return []uint64{confIntB(confIntCompare(cmp, "f32", flush(x[0]), flush(x[1])))}
			}})
	}
	confIntRun(t, cases)
}

// TestConfIntSlct checks slct with .s32 and .f32 (with and without .ftz) selectors.
func TestConfIntSlct(t *testing.T) {
	var cases []confIntCase
	for _, dt := range []string{"b16", "u32", "s64", "f32", "f64"} {
		for _, ct := range []string{"s32", "f32", "ftz.f32"} {
			cty := strings.TrimPrefix(ct, "ftz.")
			ftz := ct != cty
			mods := "." + dt + "." + cty
			if ftz {
				mods = ".ftz" + mods
			}
			cases = append(cases, confIntCase{harness.ConfOp{Body: "slct" + mods + " %d0, %a0, %a1, %a2;", In: []string{dt, dt, cty}, Out: []string{dt}},
				func(x []uint64) []uint64 {
					var ge bool
					if cty == "s32" {
						ge = int32(x[2]) >= 0
					} else {
						c := uint32(x[2])
						if ftz && c&0x7f800000 == 0 {
							c &= 0x80000000
						}
						ge = math.Float32frombits(c) >= 0
					}
					if ge {
						return []uint64{x[0]}
					}
					return []uint64{x[1]}
				}})
		}
	}
	confIntRun(t, cases)
}

// TestConfIntCarry runs multi-word additions, subtractions and multiplications through the
// carry flag: add.cc/addc, sub.cc/subc and mad.cc/madc chains on 32- and 64-bit words.
func TestConfIntCarry(t *testing.T) {
	cases := []confIntCase{
		{harness.ConfOp{Body: `{
			.reg .u32 %x<2>, %y<2>, %z<2>, %c;
			mov.b64 {%x0, %x1}, %a0;
			mov.b64 {%y0, %y1}, %a1;
			add.cc.u32 %z0, %x0, %y0;
			addc.cc.s32 %z1, %x1, %y1;
			addc.u32 %c, 0, 0;
			mov.b64 %d0, {%z0, %z1};
			cvt.u64.u32 %d1, %c;
			sub.cc.s32 %z0, %x0, %y0;
			subc.cc.u32 %z1, %x1, %y1;
			subc.u32 %c, 0, 0;
			mov.b64 %d2, {%z0, %z1};
			cvt.u64.u32 %d3, %c;
		}`, In: []string{"u64", "u64"}, Out: []string{"u64", "u64", "u64", "u64"}}, func(x []uint64) []uint64 {
			s, c := bits.Add64(x[0], x[1], 0)
			d, b := bits.Sub64(x[0], x[1], 0)
			return []uint64{s, c, d, uint64(uint32(-b))}
		}},
		{harness.ConfOp{Body: `{
			.reg .u64 %c;
			add.cc.u64 %d0, %a0, %a2;
			addc.cc.s64 %d1, %a1, %a3;
			addc.u64 %c, 0, 0;
			mov.b64 %d2, %c;
			sub.cc.u64 %d3, %a0, %a2;
			subc.cc.u64 %d4, %a1, %a3;
			subc.s64 %d5, 0, 0;
		}`, In: []string{"u64", "u64", "u64", "u64"}, Out: []string{"u64", "u64", "u64", "u64", "u64", "s64"}}, func(x []uint64) []uint64 {
			s0, c := bits.Add64(x[0], x[2], 0)
			s1, c := bits.Add64(x[1], x[3], c)
			d0, b := bits.Sub64(x[0], x[2], 0)
			d1, b := bits.Sub64(x[1], x[3], b)
			return []uint64{s0, s1, c, d0, d1, -b}
		}},
		// The ISA's extended-precision multiply: [r3,r2,r1,r0] = [r5,r4] * [r7,r6].
		{harness.ConfOp{Body: `{
			.reg .u32 %r<8>;
			mov.b64 {%r4, %r5}, %a0;
			mov.b64 {%r6, %r7}, %a1;
			mul.lo.u32     %r0, %r4, %r6;
			mul.hi.u32     %r1, %r4, %r6;
			mad.lo.cc.u32  %r1, %r5, %r6, %r1;
			madc.hi.u32    %r2, %r5, %r6, 0;
			mad.lo.cc.u32  %r1, %r4, %r7, %r1;
			madc.hi.cc.u32 %r2, %r4, %r7, %r2;
			addc.u32       %r3, 0, 0;
			mad.lo.cc.u32  %r2, %r5, %r7, %r2;
			madc.hi.u32    %r3, %r5, %r7, %r3;
			mov.b64 %d0, {%r0, %r1};
			mov.b64 %d1, {%r2, %r3};
		}`, In: []string{"u64", "u64"}, Out: []string{"u64", "u64"}}, func(x []uint64) []uint64 {
			hi, lo := bits.Mul64(x[0], x[1])
			return []uint64{lo, hi}
		}},
		// 64-bit and signed forms, with a carry-in from the preceding instruction.
		{harness.ConfOp{Body: `{
			.reg .u64 %c;
			.reg .s32 %s<4>;
			add.cc.u64 %c, %a3, %a3;
			mad.lo.cc.u64 %d0, %a0, %a1, %a2;
			madc.hi.cc.u64 %d1, %a0, %a1, %a2;
			madc.lo.u64 %d2, %a0, %a2, 0;
			cvt.u32.u64 %s0, %a0;
			cvt.u32.u64 %s1, %a1;
			cvt.u32.u64 %s2, %a2;
			add.cc.s32 %s3, %s2, %s2;
			madc.hi.cc.s32 %s3, %s0, %s1, %s2;
			cvt.u64.u32 %d3, %s3;
			madc.lo.s32 %s3, %s0, %s0, 0;
			cvt.u64.u32 %d4, %s3;
		}`, In: []string{"u64", "u64", "u64", "u64"}, Out: []string{"u64", "u64", "u64", "u64", "u64"}}, func(x []uint64) []uint64 {
			hi, lo := bits.Mul64(x[0], x[1])
			_, c := bits.Add64(x[3], x[3], 0)
			d0, c := bits.Add64(lo, x[2], 0)
			d1, c := bits.Add64(hi, x[2], c)
			d2 := x[0]*x[2] + c
			a, b, cc := int64(int32(x[0])), int64(int32(x[1])), uint64(uint32(x[2]))
			_, c32 := bits.Add32(uint32(cc), uint32(cc), 0)
			h := uint64(uint32(a * b >> 32))
			s := h + cc + uint64(c32)
			return []uint64{d0, d1, d2, s & 0xffffffff, (uint64(uint32(a*a)) + s>>32) & 0xffffffff}
		}},
	}
	confIntRun(t, cases)
}

// confHWSub32 and confHWSub64 are subtraction as NVIDIA GPUs run it: with the carry flag cf
// as carry-in (0 borrows one) and the carry-out, NOT borrow, as the new flag. sub.cc takes
// cf = 1.
func confHWSub32(a, b, cf uint32) (uint32, uint32) {
	d, borrow := bits.Sub32(a, b, 1-cf)
	return d, 1 - borrow
}

func confHWSub64(a, b, cf uint64) (uint64, uint64) {
	d, borrow := bits.Sub64(a, b, 1-cf)
	return d, 1 - borrow
}

// TestConfIntCarryMixed runs chains that mix additions and subtractions through the one carry
// flag CC.CF, which a subtraction sets to NOT borrow (a + ~b + 1) and subc consumes as
// a + ~b + CF, as the hardware does: sub.cc then addc, add.cc then subc, mad.cc then subc,
// sub.cc then madc, on 32- and 64-bit words.
func TestConfIntCarryMixed(t *testing.T) {
	cases := []confIntCase{
		{harness.ConfOp{Body: `{
			.reg .u32 %x<2>, %y<2>, %z<2>, %c, %s;
			mov.b64 {%x0, %x1}, %a0;
			mov.b64 {%y0, %y1}, %a1;
			mov.u32 %s, %x0;
			sub.cc.s32 %s, %s, %y0;
			addc.u32 %c, 0, 0;
			cvt.u64.u32 %d0, %c;
			sub.cc.u32 %z0, %x0, %y0;
			addc.cc.u32 %z1, %x1, %y1;
			subc.u32 %c, %x0, %y1;
			mov.b64 %d1, {%z0, %z1};
			cvt.u64.u32 %d2, %c;
			add.cc.u32 %z0, %x0, %y0;
			subc.cc.u32 %z1, %x1, %y1;
			addc.cc.u32 %c, %y0, 0;
			subc.cc.u32 %s, %x1, %x0;
			madc.hi.u32 %s, %x0, %y1, %s;
			mov.b64 %d3, {%z0, %z1};
			mov.b64 %d4, {%c, %s};
		}`, In: []string{"u64", "u64"}, Out: []string{"u64", "u64", "u64", "u64", "u64"}}, func(x []uint64) []uint64 {
			x0, x1, y0, y1 := uint32(x[0]), uint32(x[0]>>32), uint32(x[1]), uint32(x[1]>>32)
			_, cf := confHWSub32(x0, y0, 1)
			d0 := uint64(cf)
			z0, cf := confHWSub32(x0, y0, 1)
			z1, cf := bits.Add32(x1, y1, cf)
			c, _ := confHWSub32(x0, y1, cf)
			d1, d2 := uint64(z0)|uint64(z1)<<32, uint64(c)
			z0, cf = bits.Add32(x0, y0, 0)
			z1, cf = confHWSub32(x1, y1, cf)
			c, cf = bits.Add32(y0, 0, cf)
			s, cf := confHWSub32(x1, x0, cf)
			hi, _ := bits.Mul32(x0, y1)
			s, _ = bits.Add32(hi, s, cf)
			return []uint64{d0, d1, d2, uint64(z0) | uint64(z1)<<32, uint64(c) | uint64(s)<<32}
		}},
		{harness.ConfOp{Body: `{
			.reg .u64 %c, %z;
			sub.cc.u64 %z, %a0, %a1;
			madc.lo.u64 %d0, %a2, %a3, %a0;
			mad.lo.cc.u64 %z, %a2, %a3, %a1;
			subc.cc.s64 %d1, %a0, %a2;
			madc.hi.cc.u64 %d2, %a0, %a1, %a3;
			subc.u64 %d3, %a1, %a3;
			sub.cc.s64 %z, %a3, %a0;
			addc.cc.u64 %c, 0, 0;
			subc.cc.u64 %z, %a2, %a1;
			addc.u64 %d4, %c, %c;
			mov.b64 %d5, %z;
		}`, In: []string{"u64", "u64", "u64", "u64"}, Out: []string{"u64", "u64", "u64", "u64", "u64", "u64"}}, func(x []uint64) []uint64 {
			_, cf := confHWSub64(x[0], x[1], 1)
			d0, _ := bits.Add64(x[2]*x[3], x[0], cf)
			_, cf = bits.Add64(x[2]*x[3], x[1], 0)
			d1, cf := confHWSub64(x[0], x[2], cf)
			hi, _ := bits.Mul64(x[0], x[1])
			d2, cf := bits.Add64(hi, x[3], cf)
			d3, _ := confHWSub64(x[1], x[3], cf)
			_, cf = confHWSub64(x[3], x[0], 1)
			c, cf := bits.Add64(0, 0, cf)
			z, cf := confHWSub64(x[2], x[1], cf)
			d4, _ := bits.Add64(c, c, cf)
			return []uint64{d0, d1, d2, d3, d4, z}
		}},
	}
	confIntRun(t, cases)
}

// TestConfIntRejected checks that forms the ISA does not define, or ptx2go does not implement,
// fail at compile time with the instruction's position instead of running wrongly.
func TestConfIntRejected(t *testing.T) {
	for _, body := range []string{
		"add.sat.u32 %d0, %a0, %a0;",
		"add.cc.u16 %d0, %a0, %a0;",
		"addc.u16 %d0, %a0, %a0;",
		"mad.hi.sat.u32 %d0, %a0, %a0, %a0;",
		"mad.lo.sat.s32 %d0, %a0, %a0, %a0;",
		"mad24.hi.sat.u32 %d0, %a0, %a0, %a0;",
		"mul24.u32 %d0, %a0, %a0;",
		"min.relu.u32 %d0, %a0, %a0;",
		"bfind.b32 %d0, %a0;",
		"szext.u32 %d0, %a0, %a0;",
		"bmsk.b32 %d0, %a0, %a0;",
		"dp2a.u32.u32 %d0, %a0, %a0, %a0;",
		"shf.l.b32 %d0, %a0, %a0, %a0;",
		"lop3.b32 %d0, %a0, %a0, %a0, %a0;",
		"set.lt.u32.b32 %d0, %a0, %a0;",
		"set.eq.u16.u32 %d0, %a0, %a0;",
	} {
		ty := "u32"
		if strings.Contains(body, ".u16 ") {
			ty = "u16"
		}
		src := harness.ConfKernel(harness.ConfOp{Body: body, In: []string{ty}, Out: []string{ty}})
		_, err := ptx2go.Compile([]byte(src), ptx2go.Options{File: "conf.ptx"})
		if err == nil {
			t.Errorf("%s: compiled, want an error", body)
			continue
		}
		if !strings.Contains(err.Error(), "conf.ptx:") || !strings.Contains(err.Error(), "unsupported") && !strings.Contains(err.Error(), "lop3") {
			t.Errorf("%s: error %q does not say where and what", body, err)
		}
	}
}

// TestConfIntVideo checks the scalar video instructions vadd, vsub, vabsdiff, vmin and vmax on
// whole words for every combination of .u32/.s32 destination and sources, with and without
// .sat, and with each secondary operation. The reference follows the ISA's pseudo-code in big
// integers: sources extended to .s33, the primary result exact, optSaturate to the destination
// range, the result taken as .s33, the secondary operation with c (extended by the destination
// type), then the low 32 bits.
func TestConfIntVideo(t *testing.T) {
	var cases []confIntCase
	types := []string{"u32", "s32"}
	for _, vop := range []string{"vadd", "vsub", "vabsdiff", "vmin", "vmax"} {
		for _, dt := range types {
			for _, at := range types {
				for _, bt := range types {
					for _, sat := range []bool{false, true} {
						for _, sec := range []string{"", "add", "min", "max"} {
							mods := "." + dt + "." + at + "." + bt
							if sat {
								mods += ".sat"
							}
							body := vop + mods + " %d0, %a0, %a1;"
							in := []string{"b32", "b32"}
							if sec != "" {
								body = vop + mods + "." + sec + " %d0, %a0, %a1, %a2;"
								in = append(in, "b32")
							}
							cases = append(cases, confIntCase{harness.ConfOp{Body: body, In: in, Out: []string{"b32"}},
								func(x []uint64) []uint64 {
									ta, tb := confIntBig(x[0], 32, at == "s32"), confIntBig(x[1], 32, bt == "s32")
									r := new(big.Int)
									switch vop {
									case "vadd":
										r.Add(ta, tb)
									case "vsub":
										r.Sub(ta, tb)
									case "vabsdiff":
										r.Abs(r.Sub(ta, tb))
									case "vmin":
										r.Set(ta)
										if tb.Cmp(ta) < 0 {
											r.Set(tb)
										}
									case "vmax":
										r.Set(ta)
										if tb.Cmp(ta) > 0 {
											r.Set(tb)
										}
									}
									if sat {
										lo, hi := big.NewInt(0), big.NewInt(math.MaxUint32)
										if dt == "s32" {
											lo, hi = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
										}
										if r.Cmp(lo) < 0 {
											r.Set(lo)
										}
										if r.Cmp(hi) > 0 {
											r.Set(hi)
										}
									}
									r = confIntBig(confIntBits(r, 0, 33), 33, true) // the .s33 intermediate
									if sec != "" {
										c := confIntBig(x[2], 32, dt == "s32")
										switch {
										case sec == "add":
											r.Add(r, c)
										case sec == "min" && c.Cmp(r) < 0, sec == "max" && c.Cmp(r) > 0:
											r.Set(c)
										}
									}
									return []uint64{confIntBits(r, 0, 32)}
								}})
						}
					}
				}
			}
		}
	}
	confIntRun(t, cases)
}
