package kernelcases

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/reference"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// referenceMaxThreads bounds the shapes the reference interpreter runs (one thread at a time,
// it is hundreds of times slower than the engines): whole and partial warps and blocks, and
// several CTAs, but not the largest grids.
const referenceMaxThreads = 512

// buildSSA parses and builds the PTX file at path (relative to the repository root), the
// program the reference interpreter runs.
func buildSSA(path string) (*ssa.Program, error) {
	src, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, err
	}
	m, err := frontend.Parse(path, src)
	if err != nil {
		return nil, err
	}
	return ssa.Build(m)
}

// runReference launches the kernel of k, in prog, on the reference interpreter with the
// launch l of shape s on f's device, and checks it against the Go reference. A kernel that
// reaches an instruction the interpreter does not cover (floating point, warp-level
// operations, a call to a function without a body such as vprintf or malloc) is skipped: the
// reference does not apply to it.
func runReference(t *testing.T, prog *ssa.Program, k *ptx2go.Kernel, f *kernelFixture, l kernelLaunch, s kernelShape) {
	t.Helper()
	params, err := k.PackArgs(l.args...)
	require.NoError(t, err)
	cfg := reference.Config{Grid: s.grid, Block: s.block, DynamicShared: l.shared}
	err = reference.LaunchConfig(t.Context(), f.dev, prog, k.Name(), cfg, params)
	if re, ok := errors.AsType[*reference.Error](err); ok && strings.HasPrefix(re.Msg, "unsupported") {
		t.Skipf("the reference interpreter does not apply: %v", err)
	}
	require.NoError(t, err)
	l.check(t)
}
