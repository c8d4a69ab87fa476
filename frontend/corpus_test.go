package frontend

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusFiles lists every .ptx file under testdata/ptx, recursively.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../testdata/ptx", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".ptx") {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// stripPositions zeroes every Pos in the tree rooted at v, so trees can be compared by shape.
func stripPositions(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripPositions(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			stripPositions(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[Pos]() {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				stripPositions(v.Field(i))
			}
		}
	}
}

func TestCorpusParsesAndRoundTrips(t *testing.T) {
	for _, path := range corpusFiles(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := Parse(path, src)
			require.NoError(t, err)
			printed := Format(m)
			m2, err := ParseString(path+" (printed)", printed)
			require.NoError(t, err, "printed text:\n%s", printed)
			require.Equal(t, printed, Format(m2), "printing is not idempotent")
			stripPositions(reflect.ValueOf(m))
			stripPositions(reflect.ValueOf(m2))
			require.Equal(t, m, m2)
		})
	}
}

func reflectValue(n any) reflect.Value { return reflect.ValueOf(n) }
