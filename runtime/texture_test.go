package runtime

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestLinearWeightsExhaustive samples a 2x2 float texture with linear filtering at every
// fractional position of the 9-bit weights: for each axis, the 512 positions (2m+1)/1024 past
// texel centre 0 (two per weight step, never on a rounding tie) and the 256 ties m/256 + 1/512,
// which round up. The texels (0, 1, 16, 256) make each result the exact sum a/256 + 16b/256 +
// 256ab/65536 of the documented weights a = round(256 fx), b = round(256 fy), an independent
// formula; 590,000 samples.
func TestLinearWeightsExhaustive(t *testing.T) {
	d := NewDevice()
	a, err := d.MallocArray(ChannelFormat{Bits: [4]int{32}, Kind: ChannelFloat}, 2, 2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	for i, v := range []float32{0, 1, 16, 256} {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	if err := a.Write(b); err != nil {
		t.Fatal(err)
	}
	h, err := d.CreateTexture(Resource{Array: a}, TextureDesc{Filter: FilterLinear})
	if err != nil {
		t.Fatal(err)
	}
	var fracs []float64
	for m := range 512 {
		fracs = append(fracs, float64(2*m+1)/1024)
	}
	for m := range 256 {
		fracs = append(fracs, float64(m)/256+1.0/512)
	}
	weight := func(f float64) float64 { return math.Floor(f*256+0.5) / 256 }
	for _, fx := range fracs {
		for _, fy := range fracs {
			got, ok := d.Sample(h, Geom2D, 0, [3]float32{0.5 + float32(fx), 0.5 + float32(fy)})
			if !ok {
				t.Fatal("no texture")
			}
			wa, wb := weight(fx), weight(fy)
			// T00=0, T10=1, T01=16, T11=256 with weights (1-a)(1-b), a(1-b), (1-a)b, ab.
			want := float32(wa*(1-wb) + 16*(1-wa)*wb + 256*wa*wb)
			if math.Float32frombits(got[0]) != want {
				t.Fatalf("fraction (%v, %v): %v, want %v", fx, fy, math.Float32frombits(got[0]), want)
			}
		}
	}
}

// TestAddressIndex checks each address mode on the indices -6 to 5 of a texture of 3 texels.
func TestAddressIndex(t *testing.T) {
	want := map[AddressMode][12]int{
		AddressWrap:   {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2},
		AddressMirror: {0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0},
		AddressClamp:  {0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2},
		AddressBorder: {-1, -1, -1, -1, -1, -1, 0, 1, 2, -1, -1, -1},
	}
	for m, w := range want {
		for k := range 12 {
			got, ok := addressIndex(k-6, 3, m)
			if !ok {
				got = -1
			}
			if got != w[k] {
				t.Errorf("mode %d index %d: %d, want %d", m, k-6, got, w[k])
			}
		}
	}
}

// TestCubeFace checks the face selection table of the programming guide on the axes' points.
func TestCubeFace(t *testing.T) {
	cases := []struct {
		x, y, z float32
		face    int
		s, t    float32
	}{
		{1, 0, 0, 0, 0.5, 0.5}, {-1, 0, 0, 1, 0.5, 0.5}, {0, 1, 0, 2, 0.5, 0.5},
		{0, -1, 0, 3, 0.5, 0.5}, {0, 0, 1, 4, 0.5, 0.5}, {0, 0, -1, 5, 0.5, 0.5},
		{1, 0.5, -0.5, 0, 0.75, 0.25}, {-0.5, 1, 0.5, 2, 0.25, 0.75}, {0.5, -0.5, -1, 5, 0.25, 0.75},
	}
	for _, c := range cases {
		f, s, tt := CubeFace(c.x, c.y, c.z)
		if f != c.face || s != c.s || tt != c.t {
			t.Errorf("CubeFace(%v, %v, %v) = %d, %v, %v; want %d, %v, %v", c.x, c.y, c.z, f, s, tt, c.face, c.s, c.t)
		}
	}
}
