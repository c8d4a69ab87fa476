package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// execCheck runs ptx2go exec -check all on every build there is of a test program.
func execCheck(t *testing.T, libs, prog string, args ...string) []buildRun {
	t.Helper()
	var runs []buildRun
	for _, b := range cudaBuilds {
		path := filepath.Join(cudaCorpus, b.dir, prog)
		if _, err := os.Stat(path); err != nil {
			if b.dir == cudaBuilds[0].dir {
				t.Fatalf("%s: %v (make cuda-programs builds it)", prog, err)
			}
			continue
		}
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"exec", "-libs", libs, "-check", "all", path}, args...), &stdout, &stderr)
		runs = append(runs, buildRun{b.name, b.version, code, stdout.String(), stderr.String()})
	}
	return runs
}

// TestExecCheck runs CUDA programs under the drop-in with every check on (issue 33): correct
// programs, through the runtime API (shared and static runtime) and the driver API, report
// nothing and exit 0; the leak program's two leaked buffers are reported, with their sizes and
// the host calls that made them, and make the exit status 1.
func TestExecCheck(t *testing.T) {
	libs := needCudaLibs(t)
	clean := [][]string{{"vectoradd", "5000"}, {"reduction"}, {"streams"}, {"managed"}, {"driver", filepath.Join(cudaCorpus, "drv_kernels.ptx")}}
	for _, c := range clean {
		t.Run(c[0], func(t *testing.T) {
			for _, r := range execCheck(t, libs, c[0], c[1:]...) {
				if r.code != 0 || !strings.Contains(r.errOut, "========= ERROR SUMMARY: 0 errors\n") || strings.Contains(r.errOut, "Error") && !strings.Contains(r.errOut, "ERROR SUMMARY: 0 errors") {
					t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 0 and no reports", r.build, r.code, r.errOut)
				}
				if n := strings.Count(r.errOut, "========= "); n != 2 { // the banner and the summary
					t.Errorf("%s: %d sanitizer lines, want 2:\n%s", r.build, n, r.errOut)
				}
			}
		})
	}
	t.Run("leak", func(t *testing.T) {
		want := regexp.MustCompile(`(?s)========= Leaked 4000 bytes at 0x[0-9a-f]+\n` +
			`=========     allocated by cudaMalloc called from main\+0x[0-9a-f]+ \(\S*leak\)\n.*` +
			`========= Leaked 4096 bytes at 0x[0-9a-f]+\n` +
			`=========     allocated by cudaMalloc called from _ZL11makeScratchm\S*\+0x[0-9a-f]+ \(\S*leak\)\n.*` +
			`========= LEAK SUMMARY: 8096 bytes leaked in 2 allocations\n` +
			`========= ERROR SUMMARY: 2 errors\n`)
		for _, r := range execCheck(t, libs, "leak") {
			if r.code != 1 || !want.MatchString(r.errOut) || r.out != "h[999] = 2997, 0 mismatches\n" {
				t.Errorf("%s: exit %d, output %q, stderr:\n%s\nwant exit 1, the two leaks and the program's output", r.build, r.code, r.out, r.errOut)
			}
		}
		// Without -check the program is fine: it prints its result and exits 0.
		code, out, errOut := execProgram(t, libs, "leak")
		if code != 0 || strings.Contains(errOut, "=========") {
			t.Errorf("without -check: exit %d, output %q, stderr:\n%s", code, out, errOut)
		}
	})
}
