package ssa

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/stretchr/testify/require"
)

// TestCorpusBuildsAndVerifies lowers every testdata module, verifies it and checks the IR's
// invariants.
func TestCorpusBuildsAndVerifies(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("../testdata/ptx", func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".ptx") {
			files = append(files, path)
		}
		return err
	}))
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := frontend.Parse(path, src)
			require.NoError(t, err)
			p, err := Build(m)
			require.NoError(t, err)
			require.NoError(t, Check(p))
		})
	}
}
