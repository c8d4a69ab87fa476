package harness

import "math"

// The Go reference of testdata/ptx/lane_fused.ptx, whose device function branches runs per
// lane on the closure engine with its comparisons fused with their branches
// (codegen/closure/lanefuse.go), for codegen/closure's and internal/e2e/semantics's tests.

// laneFusedForm is a comparison of branches in lane_fused.ptx: a holds (signed or not) against b
// or imm, and neg where the branch is taken when it does not hold.
type laneFusedForm struct {
	cmp    string
	signed bool
	reg    bool
	imm    uint32
	neg    bool
}

// laneFusedForms are branches' comparisons, in the order of their bits.
var laneFusedForms = []laneFusedForm{
	{"lt", true, true, 0, false}, {"le", true, true, 0, false}, {"gt", true, true, 0, true}, {"ge", true, true, 0, false},
	{"lt", false, true, 0, false}, {"le", false, true, 0, true}, {"gt", false, true, 0, false}, {"ge", false, true, 0, false},
	{"lt", false, true, 0, false}, {"le", false, true, 0, false}, {"gt", false, true, 0, true}, {"ge", false, true, 0, false},
	{"eq", true, true, 0, false}, {"ne", false, true, 0, false}, {"eq", false, true, 0, true},
	{"lt", true, false, 0xfffffffb, false}, {"le", true, false, 0, true}, {"gt", true, false, 100, false}, {"ge", true, false, 0x80000000, false},
	{"lt", false, false, 0x80000000, false}, {"le", false, false, 7, false}, {"gt", false, false, 0xfffffffe, true}, {"ge", false, false, 1, false},
	{"eq", false, false, 0, false}, {"ne", true, false, 0xffffffff, false}, {"gt", false, false, 33, false}, {"le", false, false, 0xffffffff, false},
}

// holds is the comparison of x and y.
func (f laneFusedForm) holds(x, y uint32) bool {
	lt, le := x < y, x <= y
	if f.signed {
		lt, le = int32(x) < int32(y), int32(x) <= int32(y)
	}
	switch f.cmp {
	case "lt":
		return lt
	case "le":
		return le
	case "gt":
		return !le
	case "ge":
		return !lt
	case "eq":
		return x == y
	}
	return x != y
}

// LaneBranchesGo is branches(a, b) of testdata/ptx/lane_fused.ptx.
func LaneBranchesGo(a, b uint32) uint64 {
	var lo, hi uint32
	for i, f := range laneFusedForms {
		y := f.imm
		if f.reg {
			y = b
		}
		if f.holds(a, y) == f.neg {
			lo |= 1 << i
		}
	}
	bit := func(c bool, v uint32) uint32 {
		if c {
			return v
		}
		return 0
	}
	p2, p3, p4 := int32(a) < int32(b), a >= 1000, a != b
	hi |= bit(!p2, 1) | bit(p2, 2) | bit(!p3, 4) | bit(p3, 8) | bit(p4, 16)
	r5, r6, r9 := a+3, b^0x55, a*b
	hi |= bit(int32(r5) > int32(r6), 32) | bit(r6 <= 77, 64) | bit(r9 == 0, 128) | bit(r9 != 0, 256)
	r11 := a >> 27
	hi |= r11 << 9
	hi += r11 * (r11 + 1) / 2 << 16
	hi |= bit(b >= 5, 0x200000) | bit(a == b, 0x400000) | bit(math.Float32frombits(a) == math.Float32frombits(b), 0x800000)
	p1 := b == 0x55
	if a == b {
		p1 = int32(a) < 1000
	}
	hi |= bit(!p1, 0x1000000)
	return uint64(hi)<<32 | uint64(lo)
}

// LaneWideGo is wide(a) of lane_fused.ptx: a plus 2 + 3 + ... + 299.
func LaneWideGo(a uint32) uint32 { return a + 299*300/2 - 1 }

// LaneFusedInputs are n inputs for fuseds of lane_fused.ptx: the comparisons' edge values and
// random words; the first four pair floats equal with different bits (0 and -0) and a NaN
// with itself.
func LaneFusedInputs(n int) []uint32 {
	edges := []uint32{0, 1, 2, 7, 8, 33, 34, 77, 100, 101, 999, 1000, 0x7fffffff, 0x80000000, 0x80000001,
		0xfffffffb, 0xfffffffa, 0xfffffffe, 0xffffffff, 0x55, 0x52, 0xf8000000}
	in := make([]uint32, n)
	seed := uint32(88172645)
	for i := range in {
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		in[i] = seed
		if i%4 != 3 {
			in[i] = edges[(i/4*3+i%4)%len(edges)]
		}
	}
	copy(in, []uint32{0, 0x80000000, 0x7fc00000, 0x7fc00000})
	return in
}
