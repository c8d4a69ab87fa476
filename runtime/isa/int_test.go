package isa

import (
	"math/bits"
	"testing"
)

// TestIntISAExamples checks the worked examples the PTX ISA gives for the integer instructions.
func TestIntISAExamples(t *testing.T) {
	checks := []struct {
		name      string
		got, want uint32
	}{
		{"fns 0xaaaaaaaa, 3, 1", Fns(0xaaaaaaaa, 3, 1), 3},
		{"fns 0xaaaaaaaa, 3, -1", Fns(0xaaaaaaaa, 3, 0xffffffff), 3},
		{"fns 0xaaaaaaaa, 2, 1", Fns(0xaaaaaaaa, 2, 1), 3},
		{"fns 0xaaaaaaaa, 2, -1", Fns(0xaaaaaaaa, 2, 0xffffffff), 1},
		{"bmsk.wrap 1, 2", Bmsk(1, 2, false), 6},
		{"szext.wrap.u32 0xffffffff, 0", Szext(0xffffffff, 0, false, false), 0},
		{"lop3 a&b&c", Lop3(0xf0, 0xcc, 0xaa, 0x80), 0x80},
		{"lop3 a|b|c", Lop3(0xf0, 0xcc, 0xaa, 0xfe), 0xfe},
		{"lop3 (a&b|c)^a", Lop3(0xf0, 0xcc, 0xaa, 0x1a), 0x1a},
		{"prmt identity", Prmt(0x33221100, 0x77665544, 0x3210, PrmtGeneric), 0x33221100},
		{"prmt sign", Prmt(0x00008000, 0, 0x0009, PrmtGeneric), 0x000000ff},
		{"bfind.s32 -1", Bfind(0xffffffff, 32, true, false), 0xffffffff},
		{"bfind.shiftamt.u32 1", Bfind(1, 32, false, true), 31},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, c.got, c.want)
		}
	}
	if d := Div(5, 0, 32, false); d != 0xffffffff {
		t.Errorf("div.u32 5/0 = %#x, want all ones", d)
	}
	if d := Div(1<<63, 1<<64-1, 64, true); d != 1<<63 {
		t.Errorf("div.s64 MinInt64/-1 = %#x, want MinInt64", d)
	}
}

// TestSubCarry checks SubCarry against math/bits: the difference is a - b - (1 - cin) and the
// carry-out is NOT the borrow.
func TestSubCarry(t *testing.T) {
	vals := []uint64{0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 1 << 32, 1<<63 - 1, 1 << 63, 1<<64 - 1}
	for _, a := range vals {
		for _, b := range vals {
			for cin := range uint64(2) {
				d, borrow := bits.Sub64(a, b, 1-cin)
				if got, cout := SubCarry(a, b, cin, 64); got != d || cout != 1-borrow {
					t.Errorf("SubCarry(%#x, %#x, %d, 64) = %#x, %d; want %#x, %d", a, b, cin, got, cout, d, 1-borrow)
				}
				d32, borrow32 := bits.Sub32(uint32(a), uint32(b), uint32(1-cin))
				if got, cout := SubCarry(a, b, cin, 32); got != uint64(d32) || cout != uint64(1-borrow32) {
					t.Errorf("SubCarry(%#x, %#x, %d, 32) = %#x, %d; want %#x, %d", a, b, cin, got, cout, d32, 1-borrow32)
				}
			}
		}
	}
}
