package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// packedArgs is a vprintf argument buffer built as CUDA packs one: each value at the next
// offset aligned to its size.
type packedArgs struct {
	buf     []byte
	strings map[uint64]string
}

func (p *packedArgs) add(v any) *packedArgs {
	var b []byte
	switch x := v.(type) {
	case int32:
		b = binary.LittleEndian.AppendUint32(nil, uint32(x))
	case uint64:
		b = binary.LittleEndian.AppendUint64(nil, x)
	case int64:
		b = binary.LittleEndian.AppendUint64(nil, uint64(x))
	case float64:
		b = binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))
	default:
		panic(fmt.Sprintf("%T", v))
	}
	for len(p.buf)%len(b) != 0 {
		p.buf = append(p.buf, 0xee)
	}
	p.buf = append(p.buf, b...)
	return p
}

func (p *packedArgs) Arg(off uint64, n int) uint64 {
	if n == 4 {
		return uint64(binary.LittleEndian.Uint32(p.buf[off:]))
	}
	return binary.LittleEndian.Uint64(p.buf[off:])
}

func (p *packedArgs) String(addr uint64) []byte { return []byte(p.strings[addr]) }

// TestFormatPrintf covers the corners of C's rules where Go's fmt differs or that the kernels
// of testdata/cuda/device_printf.cu do not reach; the expected strings are C's (glibc's) output.
func TestFormatPrintf(t *testing.T) {
	strs := map[uint64]string{0x1000: "abcdef"}
	cases := []struct {
		format string
		args   []any
		want   string
		nargs  int
	}{
		{"%*d|%-*d|%.*f", []any{int32(5), int32(42), int32(-4), int32(7), int32(2), 3.14159}, "   42|7   |3.14", 6},
		{"%hhd %hhu %hd %hx", []any{int32(300), int32(-1), int32(70000), int32(-1)}, "44 255 4464 ffff", 4},
		{"%#o %#x %#X %.0d|%.0x|", []any{int32(0), int32(0), int32(255), int32(0), int32(0)}, "0 0 0XFF ||", 5},
		{"%+u % x %05.2d %-05d|", []any{int32(7), int32(10), int32(3), int32(-3)}, "7 a    03 -3   |", 4},
		{"%5c|%-3c|%c", []any{int32('x'), int32('y'), int32(0x141)}, "    x|y  |A", 3},
		{"%s|%.2s|%-8s|%8.3s|%s", []any{uint64(0x1000), uint64(0x1000), uint64(0x1000), uint64(0x1000), uint64(0)}, "abcdef|ab|abcdef  |     abc|(null)", 5},
		{"%p %10p %-6p|", []any{uint64(0xdead0), uint64(0), uint64(0x10)}, "0xdead0      (nil) 0x10  |", 3},
		{"%ld %lld %lu %zd %jd", []any{int64(-5), int64(math.MinInt64), uint64(math.MaxUint64), int64(-2), int64(9)}, "-5 -9223372036854775808 18446744073709551615 -2 9", 5},
		{"%010.3f|%-9.1e|%+g|% G|%012.4E", []any{-3.14159, 12345.678, 1e20, 1e-10, math.Inf(-1)}, "-00003.142|1.2e+04  |+1e+20| 1E-10|        -INF", 5},
		{"%g %g %g %g %#.3g %.0g %.0e %#.0e", []any{100000.0, 1000000.0, 0.0001, 0.00001, 1.0, 25.0, 15.0, 15.0}, "100000 1e+06 0.0001 1e-05 1.00 2e+01 2e+01 2.e+01", 8},
		{"%a %A %.2a %a %a", []any{1.0, -0.75, 1.0 / 3, 0.0, math.NaN()}, "0x1p+0 -0X1.8P-1 0x1.55p-2 0x0p+0 nan", 5},
		{"%5.1f%%|%F|%E", []any{99.95, math.Inf(1), 0.0}, "100.0%|INF|0.000000E+00", 3},
		{"no args", nil, "no args", 0},
		{"%y|%", []any{}, "%y|%", 0},
	}
	for _, c := range cases {
		src := &packedArgs{strings: strs}
		for _, a := range c.args {
			src.add(a)
		}
		got, n := FormatPrintf([]byte(c.format), src, 8, 1<<20)
		if string(got) != c.want || n != c.nargs {
			t.Errorf("printf(%q): got %q with %d arguments, want %q with %d", c.format, got, n, c.want, c.nargs)
		}
	}
}

// Formatting stops past the limit: a format that would print gigabytes costs little.
func TestFormatPrintfLimit(t *testing.T) {
	src := &packedArgs{}
	for range 1000 {
		src.add(int32(1))
	}
	got, n := FormatPrintf([]byte(strings.Repeat("%1000000d", 1000)), src, 8, 5000000)
	if len(got) != 5000000+1000000 || n != 6 {
		t.Errorf("got %d bytes and %d arguments, want 6000000 and 6", len(got), n)
	}
}
