package sanitizer

import (
	"os"
	"testing"

	"github.com/ptx2go/ptx2go/testdata/kernelcases"
)

// TestCorpusChecked runs the kernel corpus (testdata/kernelcases) with racecheck, synccheck and
// initcheck on: correct code, so no report. The suite runs a deterministic sample (every
// kernel, one compilation level and its first shape); PTX2GO_CHECK_CORPUS=all, which `make
// check-corpus` sets, runs every level and shape.
func TestCorpusChecked(t *testing.T) {
	kernelcases.RunChecked(t, os.Getenv("PTX2GO_CHECK_CORPUS") == "all")
}
