package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// runDuration matches the run time in run's summary line, which differs between runs.
var runDuration = regexp.MustCompile(`ran in [0-9.]+(ns|µs|ms|s)`)

// The Go engine builds a program once per PTX module, runs it with the closure engine's
// interface and output, and reuses the build on a later run.
func TestRunEngineGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cache := t.TempDir()
	t.Setenv("PTX2GO_CACHE", cache)
	dir := t.TempDir()
	const n = 1000
	a, b := make([]float32, n), make([]float32, n)
	for i := range a {
		a[i] = float32(i)*0.25 - 7
		b[i] = float32(i%13) / 3
	}
	pa := writeFile(t, dir, "a.bin", a)
	pb := writeNPYFile(t, dir, "b.npy", b)
	runWith := func(out string, engine ...string) (stdout string) {
		t.Helper()
		args := append([]string{"run", vecaddPTX, "-grid", "4", "-block", "256", "-arg", "zeros:4000",
			"-arg", "@" + pa, "-arg", "@" + pb, "-arg", "1000", "-out", out, "-workers", "2"}, engine...)
		code, stdout, stderr := runCLI(args...)
		require.Equal(t, 0, code, "stderr: %s", stderr)
		require.Empty(t, stderr)
		return runDuration.ReplaceAllString(strings.ReplaceAll(stdout, out, "OUT"), "ran in D")
	}
	outC, outG := filepath.Join(dir, "closure"), filepath.Join(dir, "go")
	wantStdout := runWith(outC)
	require.Equal(t, wantStdout, runWith(outG, "-engine", "go"))
	for _, name := range []string{"arg0.bin", "arg1.bin", "arg2.npy"} {
		want, err := os.ReadFile(filepath.Join(outC, name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(outG, name))
		require.NoError(t, err)
		require.Equal(t, want, got, name)
	}

	// One program in the cache; a second run uses it as it is.
	progs, err := filepath.Glob(filepath.Join(cache, "run", "*", exeName("kernel")))
	require.NoError(t, err)
	require.Len(t, progs, 1)
	st, err := os.Stat(progs[0])
	require.NoError(t, err)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(progs[0], old, old))
	require.Equal(t, wantStdout, runWith(outG, "-engine=go"))
	st2, err := os.Stat(progs[0])
	require.NoError(t, err)
	require.True(t, st2.ModTime().Equal(old), "the program was rebuilt")
	require.Equal(t, st.Size(), st2.Size())

	// Errors of the program keep the closure engine's message and status.
	code, _, stderr := runCLI("run", "-engine", "go", vecaddPTX, "-arg", "1")
	require.Equal(t, exitFail, code)
	require.Contains(t, stderr, "ptx2go run: kernel vecadd takes 4 arguments")
	_, _, want := runCLI("run", vecaddPTX, "-arg", "1")
	require.Equal(t, want, stderr)
}

func TestRunEngineErrors(t *testing.T) {
	t.Setenv("PTX2GO_CACHE", t.TempDir())

	code, _, stderr := runCLI("run", "-engine", "bogus", vecaddPTX)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, `ptx2go run: invalid value "bogus" for flag -engine: unknown engine "bogus" (want closure or go)`)

	if _, err := exec.LookPath("go"); err == nil {
		// A module that does not compile: the same positioned error as the closure engine.
		bad := filepath.Join(t.TempDir(), "bad.ptx")
		require.NoError(t, os.WriteFile(bad, []byte(".version 7.5\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n"), 0o644))
		code, stdout, stderr := runCLI("run", "-engine", "go", bad)
		require.Equal(t, exitFail, code)
		require.Empty(t, stdout)
		_, _, want := runCLI("run", bad)
		require.Equal(t, want, stderr)
		require.Contains(t, stderr, "bad.ptx:6:")
	}

	// Without the go command.
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := runCLI("run", "-engine", "go", vecaddPTX, "-arg", "1")
	require.Equal(t, exitFail, code)
	require.Empty(t, stdout)
	require.Equal(t, "ptx2go run: -engine go: the Go toolchain is needed to build the kernel, and go is not on PATH\n", stderr)
}

// exeName is the file name of the program name on this system.
func exeName(name string) string {
	if goruntime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// run -engine go -check builds the program with the sanitizer's hooks (another build than
// without -check) and reports what the closure engine reports, with its exit status.
func TestRunEngineGoCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	t.Setenv("PTX2GO_CACHE", t.TempDir())
	args := []string{"run", "-check", "all", "-kernel", "shared_uninit", "-block", "64", "-arg", "zeros:256", "-arg", "zeros:256",
		filepath.Join("..", "..", "testdata", "sanitizer", "bugs.nvcc.ptx")}
	code, want, _ := runCLI(args...)
	require.Equal(t, exitFail, code)
	require.Contains(t, want, "Uninitialized __shared__ memory read")
	require.Contains(t, want, "ERROR SUMMARY: 1 error")
	code, got, stderr := runCLI(append(args, "-engine", "go")...)
	require.Equal(t, exitFail, code, "stderr: %s", stderr)
	require.Equal(t, want, got)
}
