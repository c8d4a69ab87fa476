package main

import (
	"fmt"
	"math"
	"testing"
)

// texHash is texture.cu's hashf over the bits of float32 values.
func texHash(v []float32) uint32 {
	var h uint32
	for _, f := range v {
		h = (h ^ math.Float32bits(f)) * 0x9e3779b1
		h ^= h >> 15
	}
	return h
}

// texGrid is a reference texture: w x h texels of one float channel, sampled as the CUDA
// programming guide's texture fetching appendix says.
type texGrid struct {
	w, h int
	at   func(x, y int) float32
	mode string // "wrap", "clamp", "mirror"
}

// index applies the address mode to texel index i of n.
func (g texGrid) index(i, n int) int {
	switch g.mode {
	case "wrap":
		return ((i % n) + n) % n
	case "mirror":
		p := ((i % (2 * n)) + 2*n) % (2 * n)
		if p >= n {
			p = 2*n - 1 - p
		}
		return p
	}
	return min(max(i, 0), n-1)
}

// linear is the guide's linear filtering at texel coordinates (x, y): the texels around
// (x-0.5, y-0.5), weighted by the fractions in 9-bit fixed point (8 fractional bits).
func (g texGrid) linear(x, y float32) float32 {
	xb, yb := float64(x)-0.5, float64(y)-0.5
	i, j := math.Floor(xb), math.Floor(yb)
	a := math.Round((xb-i)*256) / 256
	b := math.Round((yb-j)*256) / 256
	t := func(di, dj int) float64 {
		return float64(g.at(g.index(int(i)+di, g.w), g.index(int(j)+dj, g.h)))
	}
	return float32((1-a)*(1-b)*t(0, 0) + a*(1-b)*t(1, 0) + (1-a)*b*t(0, 1) + a*b*t(1, 1))
}

// TestExecTexture runs testdata/cudart/texture.cu (CUDA arrays, texture objects on arrays,
// pitch-linear memory, a layered array and a cubemap, a surface, a legacy texture reference)
// and checks what its kernels fetched against the reference above.
func TestExecTexture(t *testing.T) {
	libs := needCudaLibs(t)
	t.Run("texture", func(t *testing.T) {
		const w, h, ow, oh, layers = 8, 8, 48, 40, 3
		img := texGrid{w: w, h: h, at: func(x, y int) float32 { return float32((x*5 + y*3) % 16) }}
		// The kernels' normalized coordinates: u = (i-5)/64, v = 3(j-3)/128.
		normalized := func(g texGrid) []float32 {
			var out []float32
			for j := range oh {
				for i := range ow {
					u, v := float32(i-5)*0.015625, float32(j-3)*0.0234375
					out = append(out, g.linear(u*float32(g.w), v*float32(g.h)))
				}
			}
			return out
		}
		img.mode = "wrap"
		lin := normalized(img)
		img.mode = "clamp"
		ref := normalized(img)

		pitch := texGrid{w: 37, h: 11, mode: "clamp", at: func(x, y int) float32 { return float32(uint8(x*37+y*11)) / 255 }}
		var pitched []float32
		for j := range oh {
			for i := range ow {
				pitched = append(pitched, pitch.linear(float32(i)*0.25+0.125, float32(j)*0.25+0.125))
			}
		}

		var layered []float32
		for l := range layers {
			g := texGrid{w: w, h: h, mode: "mirror", at: func(x, y int) float32 { return float32(((y*w+x)*7+l*5)%32) * 0.5 }}
			layered = append(layered, normalized(g)...)
		}

		cube := make([]float32, 6*w*w)
		for i := range cube {
			cube[i] = float32(i)
		}
		var surf []float32
		for y := range 12 {
			for x := range 16 {
				surf = append(surf, float32(x*3-y)*0.5)
			}
		}
		var fetch int64
		for i := range 64 {
			k := int64(63 - i)
			fetch += (k*k - 7) * 2 * int64(i+1)
		}
		want := "array: 8x8x0 flags=0 desc=(32,0,0,0,2)\n" +
			fmt.Sprintf("linear2d: %08x same-array=1 out[0]=%g out[100]=%g\n", texHash(lin), lin[0], lin[100]) +
			fmt.Sprintf("pitch: %08x\n", texHash(pitched)) +
			fmt.Sprintf("layered: %08x\n", texHash(layered)) +
			fmt.Sprintf("cubemap: %08x mismatches=0\n", texHash(cube)) +
			fmt.Sprintf("surface: %08x copied=%08x out[17]=%g\n", texHash(surf), texHash(surf), surf[17]) +
			fmt.Sprintf("texref: %08x fetch=%d\n", texHash(ref), fetch) +
			"done\n"
		code, out, errOut := execProgram(t, libs, "texture")
		if code != 0 || out != want {
			t.Errorf("exit %d, output\n%s\nwant\n%s\nstderr:\n%s", code, out, want, errOut)
		}
	})
}
