package isa

// MinMaxPacked is min or max on .u16x2/.s16x2 (lanes 2) or .u8x4/.s8x4 (lanes 4): each 16- or
// 8-bit field of x is compared with the same field of y, as signed or unsigned integers, and
// the smaller (larger) one is kept. With relu (min.relu/max.relu on the signed types) a
// negative result field becomes 0.
func MinMaxPacked(x, y uint32, lanes int, signed, isMax, relu bool) uint32 {
	w := 32 / lanes
	fieldMask := uint32(1)<<w - 1
	var d uint32
	for i := range lanes {
		sh := uint(i * w)
		a, b := x>>sh&fieldMask, y>>sh&fieldMask
		var less bool
		if signed {
			// Shifting the field to the top of an int32 keeps its sign.
			less = int32(a<<(32-w)) < int32(b<<(32-w))
		} else {
			less = a < b
		}
		r := b
		if less != isMax {
			r = a
		}
		if relu && r>>(w-1) != 0 {
			r = 0
		}
		d |= r << sh
	}
	return d
}

// AddPacked is add.u16x2/add.s16x2: the two 16-bit halves of x and y are added separately,
// each wrapping around (the same bits for signed and unsigned halves).
func AddPacked(x, y uint32) uint32 {
	lo := uint16(x) + uint16(y)
	hi := uint16(x>>16) + uint16(y>>16)
	return uint32(hi)<<16 | uint32(lo)
}
