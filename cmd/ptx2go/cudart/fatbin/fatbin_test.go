package fatbin

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpus is testdata/cudart, where `make cuda-programs` writes nvcc's output.
var corpus = filepath.Join("..", "..", "..", "..", "testdata", "cudart")

// code returns the PTX lines of src without comments and blank lines, with their white space
// made single spaces: nvcc drops the comments and tabs of the PTX it puts into fat binaries.
func code(src []byte) []string {
	var out []string
	for l := range strings.Lines(string(src)) {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestFatbinFile reads the compressed PTX of a .fatbin made by nvcc -fatbin and compares it
// with the PTX nvcc -ptx makes from the same source.
func TestFatbinFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpus, "drv_kernels.fatbin"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(corpus, "drv_kernels.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := NewestPTX(es)
	if !ok {
		t.Fatalf("no PTX among %d entries", len(es))
	}
	if !e.Compressed || e.Arch != 80 || e.Major != 7 {
		t.Errorf("entry: compressed %v, arch %d, PTX %d.%d; want compressed PTX 7.x for compute_80", e.Compressed, e.Arch, e.Major, e.Minor)
	}
	if g, w := code(e.Data), code(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("decompressed PTX differs from nvcc -ptx:\n%s\nwant:\n%s", e.Data, want)
	}
}

// TestProgramFatbin finds the PTX in the .nv_fatbin section of programs nvcc built with
// -arch=sm_80 (SASS and PTX) and with SASS only.
func TestProgramFatbin(t *testing.T) {
	section := func(name string) []byte {
		f, err := elf.Open(filepath.Join(corpus, "bin", name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := f.Section(".nv_fatbin")
		if s == nil {
			t.Fatalf("%s has no .nv_fatbin section", name)
		}
		b, err := s.Data()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	es, err := Parse(section("vectoradd"))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := NewestPTX(es)
	if !ok || !bytes.Contains(e.Data, []byte(".visible .entry _Z6vecaddPKfS0_Pfi(")) || !bytes.HasPrefix(bytes.TrimSpace(e.Data), []byte(".version")) {
		t.Fatalf("vectoradd: PTX entry %v: %.200q", ok, e.Data)
	}
	if a := SASSArchs(es); len(a) == 0 || a[0] != 80 {
		t.Errorf("vectoradd: SASS archs %v, want sm_80", a)
	}
	es, err = Parse(section("vectoradd_sass"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := NewestPTX(es); ok {
		t.Errorf("vectoradd_sass: found PTX in a SASS-only program")
	}
}

// TestNewestPTX picks the highest architecture, then the highest PTX version.
func TestNewestPTX(t *testing.T) {
	es := []Entry{
		{Kind: KindPTX, Arch: 52, Major: 7, Minor: 8, Data: []byte("a")},
		{Kind: KindELF, Arch: 90, Data: []byte("b")},
		{Kind: KindPTX, Arch: 80, Major: 7, Minor: 0, Data: []byte("c")},
		{Kind: KindPTX, Arch: 80, Major: 7, Minor: 8, Data: []byte("d")},
		{Kind: KindPTX, Arch: 70, Major: 8, Minor: 0, Data: []byte("e")},
	}
	if e, ok := NewestPTX(es); !ok || string(e.Data) != "d" {
		t.Errorf("NewestPTX = %q, %v; want d", e.Data, ok)
	}
}

// TestLZ4 decodes hand-made blocks: literals only, an overlapping match (run-length), long
// literal and match lengths; and rejects corrupt ones.
func TestLZ4(t *testing.T) {
	long := strings.Repeat("x", 20)
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("\x30abc"), "abc"},
		// "ab", then a 6-byte match at offset 2: "abababab", then the literal "!".
		{[]byte("\x22ab\x02\x00\x10!"), "abababab!"},
		// 15+5 literals, then a match of 15+4+1 = 20 bytes at offset 20.
		{append(append([]byte{0xff, 5}, long...), 20, 0, 1), long + long},
	} {
		got, err := DecompressLZ4(c.in, len(c.want))
		if err != nil || string(got) != c.want {
			t.Errorf("DecompressLZ4(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range [][]byte{
		[]byte("\x50abc"),           // literals past the end
		[]byte("\x12a\x05\x00"),     // match before the start
		[]byte("\x12a\x00\x00\x00"), // offset 0
		[]byte("\x1fa\x01\x00"),     // match length runs off the end
	} {
		if got, err := DecompressLZ4(in, 64); err == nil {
			t.Errorf("DecompressLZ4(%q) = %q, want an error", in, got)
		}
	}
	if _, err := Parse([]byte("not a fat binary at all")); err == nil {
		t.Errorf("Parse of garbage: no error")
	}
}
