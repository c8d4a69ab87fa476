package isa

import "math/bits"

// PrmtMode is prmt's byte-selection mode: the generic form or one of .f4e .b4e .rc8 .ecl .ecr
// .rc16.
type PrmtMode uint8

// The prmt modes.
const (
	PrmtGeneric PrmtMode = iota
	PrmtF4e              // forward 4 extract
	PrmtB4e              // backward 4 extract
	PrmtRc8              // replicate 8
	PrmtEcl              // edge clamp left
	PrmtEcr              // edge clamp right
	PrmtRc16             // replicate 16
)

// Prmt is prmt.b32{.mode}: it picks four bytes of the 8-byte value {b, a} (a holds bytes 0-3).
// In the generic form nibble i of c selects byte i of the result, its msb replicating that
// byte's sign bit instead of copying it; the other modes select by c[1:0] from the ISA's
// fixed patterns.
func Prmt(a, b, c uint32, mode PrmtMode) uint32 {
	src := uint64(b)<<32 | uint64(a)
	var d uint32
	if mode == PrmtGeneric {
		for i := range 4 {
			sel := c >> (4 * i) & 0xf
			v := uint32(src >> (8 * (sel & 7)) & 0xff)
			if sel&8 != 0 {
				v = uint32(int32(v<<24)>>31) & 0xff
			}
			d |= v << (8 * i)
		}
		return d
	}
	ctl := c & 3
	for i := range uint32(4) {
		var sel uint32
		switch mode {
		case PrmtF4e:
			sel = (ctl + i) & 7
		case PrmtB4e:
			sel = (ctl - i) & 7
		case PrmtRc8:
			sel = ctl
		case PrmtEcl:
			sel = max(ctl, i)
		case PrmtEcr:
			sel = min(ctl, i)
		case PrmtRc16:
			sel = ctl&1<<1 | i&1
		}
		d |= uint32(src>>(8*sel)&0xff) << (8 * i)
	}
	return d
}

// Lop3 is lop3.b32: bit i of the result is bit (a_i<<2 | b_i<<1 | c_i) of lut, so that
// lut = F(0xF0, 0xCC, 0xAA) for the function F.
func Lop3(a, b, c uint32, lut uint8) uint32 {
	var d uint32
	for k := range 8 {
		if lut>>k&1 == 0 {
			continue
		}
		t := ^uint32(0)
		t &= pick(a, k&4 != 0)
		t &= pick(b, k&2 != 0)
		t &= pick(c, k&1 != 0)
		d |= t
	}
	return d
}

// pick returns v, or its complement when set is false: one literal of a lop3 minterm.
func pick(v uint32, set bool) uint32 {
	if set {
		return v
	}
	return ^v
}

// Bfind is bfind{.shiftamt}.{u,s}n: the position of the most significant non-sign bit of the
// n-bit value a (of the most significant 1, or for negative signed values the most
// significant 0), or with shiftAmt the left shift that brings it to bit n-1; 0xffffffff when
// there is none.
func Bfind(a uint64, n int, signed, shiftAmt bool) uint32 {
	a &= Mask(n)
	if signed && a>>(n-1)&1 != 0 {
		a = ^a & Mask(n)
	}
	if a == 0 {
		return 0xffffffff
	}
	pos := uint32(63 - bits.LeadingZeros64(a))
	if shiftAmt {
		return uint32(n-1) - pos
	}
	return pos
}

// Fns is fns.b32: the position of the |offset|-th set bit of mask counting from bit base
// upward (offset > 0) or downward (offset < 0), or base itself when offset is 0 and bit base
// is set; 0xffffffff when there is none. The ISA leaves base > 31 undefined; Fns follows the
// ISA's pseudo-code literally, whose search then finds nothing.
func Fns(mask, base, offset uint32) uint32 {
	if base > 31 {
		return 0xffffffff
	}
	off := int32(offset)
	if off == 0 {
		if mask>>base&1 != 0 {
			return base
		}
		return 0xffffffff
	}
	if off > 0 {
		m := mask >> base << base // bits at or above base
		for k := int32(1); m != 0; k++ {
			p := uint32(bits.TrailingZeros32(m))
			if k == off {
				return p
			}
			m &= m - 1
		}
		return 0xffffffff
	}
	m := mask << (31 - base) >> (31 - base) // bits at or below base
	for k := int32(-1); m != 0; k-- {
		p := uint32(31 - bits.LeadingZeros32(m))
		if k == off {
			return p
		}
		m &^= 1 << p
	}
	return 0xffffffff
}

// Bfe is bfe.{u,s}n: the field of len bits at pos of a (both taken mod 256), zero-extended, or
// for signed types extended with bit min(pos+len-1, n-1) of a; bits past the end of a read as
// that sign bit (0 for unsigned).
func Bfe(a uint64, pos, length uint32, n int, signed bool) uint64 {
	pos, length = pos&0xff, length&0xff
	a &= Mask(n)
	avail := uint32(0)
	if pos < uint32(n) {
		avail = uint32(n) - pos
	}
	k := min(length, avail)
	var field uint64
	if k > 0 {
		field = a >> pos & lowBits(k)
	}
	if signed && length != 0 && a>>min(pos+length-1, uint32(n-1))&1 != 0 {
		field |= Mask(n) &^ lowBits(k)
	}
	return field
}

// Bfi is bfi.bn: b with the len low bits of a inserted at pos (both taken mod 256); bits past
// the end of the n-bit value are dropped.
func Bfi(a, b uint64, pos, length uint32, n int) uint64 {
	pos, length = pos&0xff, length&0xff
	if pos >= uint32(n) || length == 0 {
		return b & Mask(n)
	}
	m := lowBits(min(length, uint32(n)-pos)) << pos
	return (b&^m | a<<pos&m) & Mask(n)
}

// Szext is szext.{clamp,wrap}.{u,s}32: the low N = b bits of a, sign- or zero-extended to 32
// bits. N is taken mod 32 with .wrap; with .clamp N >= 32 returns a unchanged. N = 0 gives 0.
func Szext(a, b uint32, signed, clamp bool) uint32 {
	if clamp && b >= 32 {
		return a
	}
	n := b & 31
	if n == 0 {
		return 0
	}
	if signed {
		return uint32(int32(a<<(32-n)) >> (32 - n))
	}
	return a << (32 - n) >> (32 - n)
}

// Bmsk is bmsk.{clamp,wrap}.b32: a mask of b ones starting at bit a. Position and width are
// taken mod 32 with .wrap; with .clamp a position >= 32 gives 0 and a width >= 32 fills to bit
// 31. Ones that would pass bit 31 are dropped.
func Bmsk(a, b uint32, clamp bool) uint32 {
	if clamp && a >= 32 {
		return 0
	}
	pos := a & 31
	width := b & 31
	if clamp && b >= 32 || pos+width >= 32 {
		return ^uint32(0) << pos
	}
	return (uint32(1)<<width - 1) << pos
}

// Dp4a is dp4a.atype.btype: c plus the dot product of the four bytes of a and of b, each
// sign- or zero-extended by its type, wrapped to 32 bits.
func Dp4a(a, b, c uint32, aSigned, bSigned bool) uint32 {
	d := c
	for i := range 4 {
		d += uint32(ext(a>>(8*i), 8, aSigned) * ext(b>>(8*i), 8, bSigned))
	}
	return d
}

// Dp2a is dp2a.{lo,hi}.atype.btype: c plus the dot product of the two 16-bit halves of a with
// bytes 0-1 (.lo) or 2-3 (.hi) of b, each sign- or zero-extended by its type.
func Dp2a(a, b, c uint32, aSigned, bSigned, hi bool) uint32 {
	d := c
	first := 0
	if hi {
		first = 2
	}
	for i := range 2 {
		d += uint32(ext(a>>(16*i), 16, aSigned) * ext(b>>(8*(first+i)), 8, bSigned))
	}
	return d
}

// ext sign- or zero-extends the low n bits of v.
func ext(v uint32, n int, signed bool) int64 {
	if signed {
		return Sext(uint64(v), n)
	}
	return int64(uint64(v) & Mask(n))
}

// Shf is shf.{l,r}.{clamp,wrap}.b32: a funnel shift of the 64-bit value {b, a} by c, returning
// its high word (.l) or low word (.r). The amount is c mod 32 with .wrap and min(c, 32) with
// .clamp.
func Shf(a, b, c uint32, left, clamp bool) uint32 {
	s := c & 31
	if clamp {
		s = min(c, 32)
	}
	v := uint64(b)<<32 | uint64(a)
	if left {
		return uint32(v << s >> 32)
	}
	return uint32(v >> s)
}

// lowBits returns a value with the low k bits set (k <= 64; 0 for k = 0).
func lowBits(k uint32) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return 1<<k - 1
}
