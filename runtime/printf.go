package runtime

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// CUDA's device printf: vprintf(format, args) with the arguments packed in a buffer, each at
// the next offset aligned to its size (integers promoted to at least int, floats to double, as
// C varargs are). The format is read on the device side and its conversions say how many bytes
// each argument takes, as CUDA's host side does when it prints the buffer.

// PrintfSource reads what a vprintf call formats: the argument buffer and strings in device
// memory. A Warp provides it for one lane; tests may provide their own.
type PrintfSource interface {
	// Arg returns the n-byte argument (n = 4 or 8) at offset off of the argument buffer.
	Arg(off uint64, n int) uint64
	// String returns the NUL-terminated string at addr.
	String(addr uint64) []byte
}

// FormatPrintf formats format with CUDA's (C99's) printf rules, reading the arguments from src;
// ptrSize is the size of a pointer (and of long, size_t) on the device, 4 or 8. It returns the
// text and the number of arguments it read. Supported: the conversions d i u o x X c s p f F
// e E g G a A %%, the flags - + space # 0, width and precision (also *, each at most 2^20),
// and the length modifiers hh h l ll j z t L. An unknown conversion is copied to the output as
// written. Formatting stops once the text is longer than limit bytes (a record that long
// cannot be printed anyway).
func FormatPrintf(format []byte, src PrintfSource, ptrSize, limit int) ([]byte, int) {
	var out []byte
	var off uint64
	nargs := 0
	next := func(n int) uint64 {
		off = (off + uint64(n) - 1) &^ (uint64(n) - 1)
		v := src.Arg(off, n)
		off += uint64(n)
		nargs++
		return v
	}
	for i := 0; i < len(format) && len(out) <= limit; i++ {
		c := format[i]
		if c != '%' {
			out = append(out, c)
			continue
		}
		start := i
		i++
		var sp spec
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '#':
				sp.sharp = true
			case '0':
				sp.zero = true
			default:
				goto width
			}
		}
	width:
		if i < len(format) && format[i] == '*' {
			w := int32(next(4))
			if w < 0 {
				sp.minus, w = true, -w
			}
			sp.width = int(w)
			i++
		} else {
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				sp.width = min(sp.width*10+int(format[i]-'0'), 1<<20)
			}
		}
		sp.prec = -1
		if i < len(format) && format[i] == '.' {
			i++
			sp.prec = 0
			if i < len(format) && format[i] == '*' {
				if p := int32(next(4)); p >= 0 {
					sp.prec = int(p)
				} else {
					sp.prec = -1
				}
				i++
			} else {
				for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
					sp.prec = min(sp.prec*10+int(format[i]-'0'), 1<<20)
				}
			}
		}
		// The length modifier: the argument's size in the buffer, and the width integers
		// are printed at (h and hh arguments arrive promoted to int).
		size, bitsOf := 4, 32
	length:
		for ; i < len(format); i++ {
			switch format[i] {
			case 'h':
				bitsOf /= 2
			case 'l':
				if size == 4 {
					size = ptrSize
				} else {
					size = 8
				}
				bitsOf = 8 * size
			case 'j', 'L', 'q':
				size, bitsOf = 8, 64
			case 'z', 't':
				size, bitsOf = ptrSize, 8*ptrSize
			default:
				break length
			}
		}
		bitsOf = max(bitsOf, 8)
		if i >= len(format) {
			out = append(out, format[start:]...)
			break
		}
		conv := format[i]
		switch conv {
		case '%':
			out = append(out, '%')
		case 'd', 'i':
			v := signExtend(next(size), bitsOf)
			out = sp.integer(out, v < 0, absU(v), 10, false, "")
		case 'u', 'o', 'x', 'X':
			v := next(size)
			if bitsOf < 64 {
				v &= 1<<bitsOf - 1
			}
			sp.plus, sp.space = false, false
			switch conv {
			case 'u':
				out = sp.integer(out, false, v, 10, false, "")
			case 'o':
				out = sp.integer(out, false, v, 8, false, "")
			case 'x':
				out = sp.integer(out, false, v, 16, false, "0x")
			default:
				out = sp.integer(out, false, v, 16, true, "0X")
			}
		case 'c':
			out = sp.pad(out, []byte{byte(next(4))})
		case 's':
			p := next(ptrSize)
			s := []byte("(null)")
			if p != 0 {
				s = src.String(p)
			}
			if sp.prec >= 0 && sp.prec < len(s) {
				s = s[:sp.prec]
			}
			out = sp.pad(out, s)
		case 'p':
			p := next(ptrSize)
			if p == 0 {
				out = sp.pad(out, []byte("(nil)"))
			} else {
				out = sp.pad(out, []byte("0x"+strconv.FormatUint(p, 16)))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			out = sp.float(out, math.Float64frombits(next(8)), conv)
		default:
			out = append(out, format[start:i+1]...)
		}
	}
	return out, nargs
}

// spec is one conversion's flags, width and precision (-1 when absent).
type spec struct {
	minus, plus, space, sharp, zero bool
	width, prec                     int
}

func signExtend(v uint64, bits int) int64 {
	s := 64 - bits
	return int64(v<<s) >> s
}

func absU(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// sign is the sign a number is printed with.
func (sp *spec) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

// integer formats an integer's magnitude v in base with C's rules: the precision is the
// minimum number of digits (0 prints nothing for 0) and disables the 0 flag; # adds prefix
// (hexadecimal, for a non-zero value) or a leading 0 (octal).
func (sp *spec) integer(out []byte, neg bool, v uint64, base int, upper bool, prefix string) []byte {
	digits := strconv.FormatUint(v, base)
	if upper {
		digits = strings.ToUpper(digits)
	}
	if sp.prec == 0 && v == 0 {
		digits = ""
	}
	if sp.prec > len(digits) {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	pre := sp.sign(neg)
	switch {
	case base == 8 && sp.sharp && !strings.HasPrefix(digits, "0"):
		digits = "0" + digits
	case base == 16 && sp.sharp && v != 0:
		pre += prefix
	}
	return sp.number(out, pre, digits, sp.prec < 0)
}

// number writes sign and prefix pre and digits padded to the width: with zeros after pre when
// zeroOK and the 0 flag is set, else with spaces on the left (right with -).
func (sp *spec) number(out []byte, pre, digits string, zeroOK bool) []byte {
	n := len(pre) + len(digits)
	switch {
	case n >= sp.width:
		out = append(out, pre...)
		out = append(out, digits...)
	case sp.minus:
		out = append(out, pre...)
		out = append(out, digits...)
		out = appendRepeat(out, ' ', sp.width-n)
	case sp.zero && zeroOK:
		out = append(out, pre...)
		out = appendRepeat(out, '0', sp.width-n)
		out = append(out, digits...)
	default:
		out = appendRepeat(out, ' ', sp.width-n)
		out = append(out, pre...)
		out = append(out, digits...)
	}
	return out
}

// pad writes s padded with spaces to the width.
func (sp *spec) pad(out, s []byte) []byte {
	if sp.minus {
		out = append(out, s...)
		return appendRepeat(out, ' ', sp.width-len(s))
	}
	out = appendRepeat(out, ' ', sp.width-len(s))
	return append(out, s...)
}

func appendRepeat(out []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		out = append(out, c)
	}
	return out
}

// float formats a double with conversion conv (f F e E g G a A) as C does; infinities and
// NaNs print as inf and nan (INF, NAN for the upper-case conversions).
func (sp *spec) float(out []byte, v float64, conv byte) []byte {
	upper := conv >= 'A' && conv <= 'Z'
	lower := conv | 0x20
	neg := math.Signbit(v)
	a := math.Abs(v)
	var digits string
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v):
		digits = "inf"
		if math.IsNaN(v) {
			digits = "nan"
		}
		if upper {
			digits = strings.ToUpper(digits)
		}
		return sp.number(out, sp.sign(neg), digits, false)
	case lower == 'f':
		digits = strconv.FormatFloat(a, 'f', sp.precOr(6), 64)
		digits = sp.point(digits)
	case lower == 'e':
		digits = cExp(strconv.FormatFloat(a, 'e', sp.precOr(6), 64), 'e')
		digits = sp.pointExp(digits, 'e')
	case lower == 'g':
		digits = sp.general(a)
	default: // a
		digits = strconv.FormatFloat(a, 'x', sp.prec, 64)
		digits = sp.pointExp(cExp(digits, 'p'), 'p')
		digits = digits[2:] // the prefix goes before zero padding
		if upper {
			digits = strings.ToUpper(digits)
		}
		pre := "0x"
		if upper {
			pre = "0X"
		}
		return sp.number(out, sp.sign(neg)+pre, digits, true)
	}
	if upper {
		digits = strings.ToUpper(digits)
	}
	return sp.number(out, sp.sign(neg), digits, true)
}

func (sp *spec) precOr(def int) int {
	if sp.prec < 0 {
		return def
	}
	return sp.prec
}

// point adds the decimal point # asks for to a number printed without one.
func (sp *spec) point(s string) string {
	if sp.sharp && !strings.Contains(s, ".") {
		return s + "."
	}
	return s
}

// pointExp is point for a number whose exponent starts with mark, e or p (1e+06 becomes
// 1.e+06).
func (sp *spec) pointExp(s string, mark byte) string {
	i := strings.LastIndexByte(s, mark)
	if !sp.sharp || i < 0 || strings.Contains(s[:i], ".") {
		return s
	}
	return s[:i] + "." + s[i:]
}

// cExp rewrites the exponent of strconv's e and x formats, which starts with mark (e or p), as
// C writes it: at least two digits for e (1e+06), as few as needed for the p of a (0x1p+0).
func cExp(s string, mark byte) string {
	i := strings.LastIndexByte(s, mark)
	if i < 0 {
		return s
	}
	d := strings.TrimLeft(s[i+2:], "0")
	want := 2
	if mark == 'p' {
		want = 1
	}
	for len(d) < want {
		d = "0" + d
	}
	return s[:i+2] + d
}

// general is %g: %e with precision P-1 when the exponent X is below -4 or at least P (the
// precision, 6 by default, at least 1), else %f with precision P-1-X; then trailing zeros
// and a trailing point go, unless the # flag is set.
func (sp *spec) general(a float64) string {
	p := sp.precOr(6)
	if p == 0 {
		p = 1
	}
	e := strconv.FormatFloat(a, 'e', p-1, 64)
	x, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var s string
	if x < -4 || x >= p {
		s = cExp(e, 'e')
	} else {
		s = strconv.FormatFloat(a, 'f', p-1-x, 64)
	}
	if sp.sharp {
		if strings.Contains(s, "e") {
			return sp.pointExp(s, 'e')
		}
		return sp.point(s)
	}
	mant, exp := s, ""
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	return mant + exp
}

// warpPrintf reads a vprintf call's arguments for one lane through generic addresses.
type warpPrintf struct {
	w    *Warp
	lane int
	loc  string
	args uint64
}

func (s *warpPrintf) Arg(off uint64, n int) uint64 {
	b := s.w.GenericBytes(s.args+off, n, s.lane, s.loc)
	if n == 4 {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func (s *warpPrintf) String(addr uint64) []byte { return s.w.cString(addr, s.lane, s.loc) }

// vprintf runs CUDA's vprintf for a lane: it formats the output into the CTA's printf buffer
// and returns the number of arguments, or -1 for a null format.
func (w *Warp) vprintf(format, args uint64, ptrSize, lane int, loc string) int32 {
	if format == 0 {
		return -1
	}
	src := &warpPrintf{w: w, lane: lane, loc: loc, args: args}
	l := w.CTA.L
	text, n := FormatPrintf(w.cString(format, lane, loc), src, ptrSize, l.printfSize)
	// A record that does not fit in what is left of the launch's buffer is dropped whole, as
	// CUDA drops records when its printf FIFO is full.
	if l.printfUsed.Add(int64(len(text))) > int64(l.printfSize) {
		l.printfUsed.Add(-int64(len(text)))
		return int32(n)
	}
	w.CTA.printf = append(w.CTA.printf, text...)
	return int32(n)
}

// DefaultPrintfBufferSize is the printf output one launch keeps, as CUDA's default
// cudaLimitPrintfFifoSize: output beyond it is dropped.
const DefaultPrintfBufferSize = 1 << 20

// SetPrintfOutput sets where the output of kernels' printf goes (os.Stdout unless set; nil
// restores that). LaunchConfig.Printf overrides it for one launch.
func (d *Device) SetPrintfOutput(w io.Writer) {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	d.printfOut = w
}

// SetPrintfBufferSize sets the most bytes of printf output one launch keeps (0:
// DefaultPrintfBufferSize), as CUDA's cudaLimitPrintfFifoSize: a printf whose output does not
// fit in what is left is dropped.
func (d *Device) SetPrintfBufferSize(n int) error {
	if n < 0 {
		return fmt.Errorf("runtime: printf buffer size %d: negative", n)
	}
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	d.printfSize = n
	return nil
}

// PrintfBufferSize returns the most bytes of printf output one launch keeps.
func (d *Device) PrintfBufferSize() int {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	if d.printfSize == 0 {
		return DefaultPrintfBufferSize
	}
	return d.printfSize
}

// printfConfig returns the writer and buffer size of a launch's printf output.
func (d *Device) printfConfig(cfg *LaunchConfig) (io.Writer, int) {
	d.cfgMu.Lock()
	defer d.cfgMu.Unlock()
	w, n := d.printfOut, d.printfSize
	if cfg.Printf != nil {
		w = cfg.Printf
	}
	if w == nil {
		w = os.Stdout
	}
	if n <= 0 {
		n = DefaultPrintfBufferSize
	}
	return w, n
}
