package main

// MD2 (RFC 1319) and HMAC over it (RFC 2104, with MD2's 16-byte block), which the integrity
// check of CUDA 12's runtime uses. Go's standard library has no MD2.

// md2S is RFC 1319's permutation of 0..255 built from the digits of pi.
var md2S = [256]byte{
	41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19,
	98, 167, 5, 243, 192, 199, 115, 140, 152, 147, 43, 217, 188, 76, 130, 202,
	30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229, 18,
	190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122,
	169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33,
	128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191, 247, 151, 3,
	255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198,
	79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241,
	69, 157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2,
	27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15,
	85, 71, 163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38,
	44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82,
	106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
	120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57,
	242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235, 117, 75, 10,
	49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20,
}

// md2 computes the MD2 digest of msg.
func md2(msg []byte) [16]byte {
	pad := 16 - len(msg)%16
	data := make([]byte, 0, len(msg)+pad+16)
	data = append(data, msg...)
	for range pad {
		data = append(data, byte(pad))
	}
	var sum [16]byte
	var last byte
	for i := 0; i < len(data); i += 16 {
		for j := range 16 {
			sum[j] ^= md2S[data[i+j]^last]
			last = sum[j]
		}
	}
	data = append(data, sum[:]...)
	var x [48]byte
	for i := 0; i < len(data); i += 16 {
		for j := range 16 {
			x[16+j] = data[i+j]
			x[32+j] = x[16+j] ^ x[j]
		}
		var t byte
		for round := range 18 {
			for k := range 48 {
				x[k] ^= md2S[t]
				t = x[k]
			}
			t += byte(round)
		}
	}
	var d [16]byte
	copy(d[:], x[:16])
	return d
}

// hmacMD2 computes HMAC-MD2 of msg with a key of MD2's block size.
func hmacMD2(key [16]byte, msg []byte) [16]byte {
	inner := make([]byte, 0, 16+len(msg))
	outer := make([]byte, 0, 32)
	for _, b := range key {
		inner = append(inner, b^0x36)
		outer = append(outer, b^0x5c)
	}
	in := md2(append(inner, msg...))
	return md2(append(outer, in[:]...))
}
