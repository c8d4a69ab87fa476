package frontend

import (
	"os"
	"reflect"
	"testing"
)

// FuzzParse checks that no input panics or hangs the parser, and that every module it accepts
// prints to text that parses back to an equal AST.
func FuzzParse(f *testing.F) {
	for _, path := range corpusFiles(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(body("\t@!%p ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1+-4];")))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.ptx", src)
		if err != nil {
			return
		}
		printed := Format(m)
		m2, err := ParseString("printed.ptx", printed)
		if err != nil {
			t.Fatalf("printed module does not parse: %v\n%s", err, printed)
		}
		stripPositions(reflect.ValueOf(m))
		stripPositions(reflect.ValueOf(m2))
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip changed the AST; printed:\n%s", printed)
		}
	})
}
