package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/internal/e2e/harness"
	"github.com/ptx2go/ptx2go/runtime"
)

// textureModule is the PTX of testdata/cudart/texture.cu, the program TestExecTexture runs
// under the drop-in (make cuda11-programs writes it).
const textureModule = "../../testdata/ptx/nvcc/cudart_texture.ptx"

// writeFloatNPY writes a float32 .npy file of the given shape.
func writeFloatNPY(t *testing.T, path string, shape []int, v []float32) {
	t.Helper()
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	hdr := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s,), }", strings.Join(dims, ", "))
	hdr += strings.Repeat(" ", 63-(10+len(hdr))%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(hdr)))
	b.WriteString(hdr)
	binary.Write(&b, binary.LittleEndian, v)
	if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
}

// readFloats reads the float32 values of a file -out wrote: raw (.bin) or after a .npy header.
func readFloats(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(b, []byte("\x93NUMPY")) { // version 1's header length is 2 bytes, later ones' 4
		if b[6] == 1 {
			b = b[10+int(binary.LittleEndian.Uint16(b[8:])):]
		} else {
			b = b[12+int(binary.LittleEndian.Uint32(b[8:])):]
		}
	}
	v := make([]float32, len(b)/4)
	binary.Decode(b, binary.LittleEndian, v)
	return v
}

// TestRunTexture runs texture.cu's kernels through ptx2go run, on both engines, and through
// the Go API, on both engines: a texture object on a 2D array sampled with linear filtering,
// normalized coordinates and wrapping, one on a layered array, and a surface written by a
// kernel and written back with -out. All four runs must write the same bits, and those of the
// reference (exec_texture_test.go's texGrid, the programming guide's rules).
func TestRunTexture(t *testing.T) {
	const w, h, ow, oh, layers = 8, 8, 48, 40, 3
	img := make([]float32, layers*w*h)
	for l := range layers {
		for y := range h {
			for x := range w {
				img[(l*h+y)*w+x] = float32((x*5 + y*3 + l*7) % 16)
			}
		}
	}
	dir := t.TempDir()
	writeFloatNPY(t, filepath.Join(dir, "img.npy"), []int{h, w}, img[:w*h])
	writeFloatNPY(t, filepath.Join(dir, "layers.npy"), []int{layers, h, w}, img)
	writeFloatNPY(t, filepath.Join(dir, "surface.npy"), []int{h, w}, make([]float32, w*h))

	// The references: sample2D's and sampleLayered's coordinates, i/64 - 5/64 and j*3/128 -
	// 9/128 of the texture, and writeSurface's values.
	sample := func(layer int) []float32 {
		g := texGrid{w: w, h: h, mode: "wrap", at: func(x, y int) float32 { return img[(layer*h+y)*w+x] }}
		out := make([]float32, ow*oh)
		for j := range oh {
			for i := range ow {
				out[j*ow+i] = g.linear(float32(i-5)*0.015625*w, float32(j-3)*0.0234375*h)
			}
		}
		return out
	}
	var want2D, wantLayered, wantSurface []float32
	want2D = sample(0)
	for l := range layers {
		wantLayered = append(wantLayered, sample(l)...)
	}
	for y := range h {
		for x := range w {
			wantSurface = append(wantSurface, float32(x*3-y)*0.5)
		}
	}

	linear := runtime.TextureDesc{Filter: runtime.FilterLinear, Normalized: true}
	cases := []struct {
		name, kernel string
		grid         string
		args         []string // ptx2go run's, with DIR for the temporary directory
		want         []float32
		out          string // the file -out writes the result to
		layers       int    // the API run's array: 0 for 2D, else the layer count
		surface      bool
	}{
		{"sample2D", "_Z8sample2DyPfii", "6,5", []string{"tex:@DIR/img.npy,filter=linear,address=wrap,normalized", fmt.Sprintf("zeros:%d", ow*oh*4), fmt.Sprint(ow), fmt.Sprint(oh)}, want2D, "arg1.bin", 0, false},
		{"sampleLayered", "_Z13sampleLayeredyPfiii", "6,5", []string{"tex:@DIR/layers.npy,layered,filter=linear,address=wrap,normalized", fmt.Sprintf("zeros:%d", layers*ow*oh*4), fmt.Sprint(ow), fmt.Sprint(oh), fmt.Sprint(layers)}, wantLayered, "arg1.bin", layers, false},
		{"writeSurface", "_Z12writeSurfaceyii", "1", []string{"surf:@DIR/surface.npy", fmt.Sprint(w), fmt.Sprint(h)}, wantSurface, "arg0.npy", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, engine := range []string{"closure", "go"} {
				out := filepath.Join(dir, c.name+"-"+engine)
				args := []string{"run", "-engine", engine, textureModule, "-kernel", c.kernel, "-grid", c.grid, "-block", "8,8", "-out", out}
				for _, a := range c.args {
					args = append(args, "-arg", strings.ReplaceAll(a, "DIR", dir))
				}
				code, stdout, stderr := runCLI(args...)
				if code != 0 {
					t.Fatalf("ptx2go %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
				}
				if got := readFloats(t, filepath.Join(out, c.out)); !sameBits(got, c.want) {
					t.Errorf("ptx2go run -engine %s: %v\nwant %v", engine, got, c.want)
				}
			}
			for _, engine := range []string{"closure", "go"} {
				if got := runTextureAPI(t, engine, c.kernel, img, w, h, c.layers, c.surface, linear, ow, oh); !sameBits(got, c.want) {
					t.Errorf("Go API, engine=%s: %v\nwant %v", engine, got, c.want)
				}
			}
		})
	}
}

// runTextureAPI runs one of texture.cu's kernels through the Go API on the given engine, as a
// user would: an array, a texture or surface object on it, the handle as the kernel's
// argument. It returns the kernel's output buffer, or the surface's array.
func runTextureAPI(t *testing.T, engine, kernel string, img []float32, w, h, layers int, surface bool, desc runtime.TextureDesc, ow, oh int) []float32 {
	t.Helper()
	var mod *ptx2go.Module
	var err error
	if engine == "closure" {
		mod, err = ptx2go.CompileFile(textureModule)
	} else {
		mod, err = ptx2go.Load(harness.GoModule(t, "nvcc/cudart_texture"))
	}
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	dev := ptx2go.NewDevice()
	f := ptx2go.ChannelFormat{Bits: [4]int{32}, Kind: ptx2go.ChannelFloat}
	var flags ptx2go.ArrayFlags
	switch {
	case surface:
		flags = ptx2go.ArraySurfaceLoadStore
	case layers > 0:
		flags = ptx2go.ArrayLayered
	}
	arr, err := dev.MallocArray(f, w, h, layers, flags)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*w*h*max(layers, 1))
	if !surface {
		binary.Encode(data, binary.LittleEndian, img[:len(data)/4])
	}
	if err := arr.Write(data); err != nil {
		t.Fatal(err)
	}
	res := ptx2go.Resource{Kind: ptx2go.ResourceArray, Array: arr}
	cfg := ptx2go.LaunchConfig{Grid: ptx2go.Dim3{X: uint32((ow + 7) / 8), Y: uint32((oh + 7) / 8), Z: 1}, Block: ptx2go.Dim3{X: 8, Y: 8, Z: 1}}
	if surface {
		s, err := dev.CreateSurface(res)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Grid = ptx2go.D1(1)
		if err := k.LaunchConfig(context.Background(), dev, cfg, s, int32(w), int32(h)); err != nil {
			t.Fatal(err)
		}
		if err := arr.Read(data); err != nil {
			t.Fatal(err)
		}
		v := make([]float32, w*h)
		binary.Decode(data, binary.LittleEndian, v)
		return v
	}
	tex, err := dev.CreateTexture(res, desc)
	if err != nil {
		t.Fatal(err)
	}
	n := ow * oh * max(layers, 1)
	out, err := dev.Malloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	args := []any{tex, out, int32(ow), int32(oh)}
	if layers > 0 {
		args = append(args, int32(layers))
	}
	if err := k.LaunchConfig(context.Background(), dev, cfg, args...); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4*n)
	if err := dev.CopyOut(b, out); err != nil {
		t.Fatal(err)
	}
	v := make([]float32, n)
	binary.Decode(b, binary.LittleEndian, v)
	return v
}

// sameBits reports whether two float32 slices hold the same bits.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
