package isa

// VideoOp is the primary operation of a scalar video instruction.
type VideoOp uint8

const (
	VideoAdd VideoOp = iota
	VideoSub
	VideoAbsdiff
	VideoMin
	VideoMax
)

// VideoSecOp is the optional secondary operation (.add, .min, .max) with the third operand.
type VideoSecOp uint8

const (
	VideoSecNone VideoSecOp = iota
	VideoSecAdd
	VideoSecMin
	VideoSecMax
)

// Video is vadd, vsub, vabsdiff, vmin and vmax on whole 32-bit words, as the ISA defines them:
// a and b are extended to 33 bits by their own signedness, the primary operation gives a
// 34-bit result, .sat clamps it to the destination type's range, the result (as 33 bits) is
// combined with c (extended by the destination's signedness) by the secondary operation, and
// the low 32 bits are the result.
func Video(op VideoOp, sec VideoSecOp, dSigned, aSigned, bSigned, sat bool, a, b, c uint32) uint32 {
	ext := func(v uint32, signed bool) int64 {
		if signed {
			return int64(int32(v))
		}
		return int64(v)
	}
	ta, tb := ext(a, aSigned), ext(b, bSigned)
	var t int64
	switch op {
	case VideoAdd:
		t = ta + tb
	case VideoSub:
		t = ta - tb
	case VideoAbsdiff:
		t = ta - tb
		if t < 0 {
			t = -t
		}
	case VideoMin:
		t = min(ta, tb)
	case VideoMax:
		t = max(ta, tb)
	}
	switch {
	case sat && dSigned:
		t = min(max(t, -1<<31), 1<<31-1)
	case sat:
		t = min(max(t, 0), 1<<32-1)
	}
	t = t << 31 >> 31 // the 33-bit intermediate
	tc := ext(c, dSigned)
	switch sec {
	case VideoSecAdd:
		t += tc
	case VideoSecMin:
		t = min(t, tc)
	case VideoSecMax:
		t = max(t, tc)
	}
	return uint32(t)
}
