package frontend

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

var moduleHeaderLine = regexp.MustCompile(`(?m)^\s*\.(version|target|address_size)\b.*$`)

// largeModule concatenates the corpus, without repeated module headers, until it holds at
// least minBytes.
func largeModule(b *testing.B, minBytes int) []byte {
	var buf bytes.Buffer
	buf.WriteString(".version 8.0\n.target sm_80\n.address_size 64\n")
	files := corpusFiles(b)
	for buf.Len() < minBytes {
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			buf.Write(moduleHeaderLine.ReplaceAll(src, nil))
		}
	}
	return buf.Bytes()
}

// BenchmarkParse parses a module of at least 5 MB built from the corpus; -benchmem shows the
// allocations, which follow the number of AST nodes rather than the number of bytes.
func BenchmarkParse(b *testing.B) {
	src := string(largeModule(b, 5<<20))
	if _, err := ParseString("large.ptx", src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseString("large.ptx", src); err != nil {
			b.Fatal(err)
		}
	}
}
