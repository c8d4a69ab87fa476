package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cudaSamplesBin holds NVIDIA's cuda-samples as `make cuda-samples` builds them
// (testdata/cuda-samples/README.md): bin/TOOLKIT/BUILD/NAME, where TOOLKIT is the nvcc that
// built them and BUILD is default (nvcc's default flags: -cudart static, NVIDIA's runtime
// linked into the program) or shared (-cudart shared: the drop-in's libcudart).
var cudaSamplesBin = filepath.Join("..", "..", "testdata", "cuda-samples", "bin")

// cudaSamples are the committed samples: the arguments each runs with (their own options,
// for a problem small enough for the CPU), what its output must hold, and the lines that
// vary from run to run (timings), which the comparison of two builds leaves out.
var cudaSamples = []struct {
	name   string
	args   []string
	want   []string // lines of stdout, each required at least once
	varies *regexp.Regexp
}{
	{name: "vectorAdd", want: []string{
		"[Vector addition of 50000 elements]",
		"CUDA kernel launch with 196 blocks of 256 threads",
		"Test PASSED",
		"Done",
	}},
	{name: "simpleAtomicIntrinsics", want: []string{
		"simpleAtomicIntrinsics completed, returned OK",
	}, varies: regexp.MustCompile(`^Processing time: `)},
	// One CTA of 32x32 threads, launched 301 times (the sample's own count).
	{name: "matrixMul", args: []string{"-wA=64", "-hA=32", "-wB=32", "-hB=64"}, want: []string{
		"MatrixA(64,32), MatrixB(32,64)",
		"Checking computed result for correctness: Result = PASS",
	}, varies: regexp.MustCompile(`^Performance= `)},
	{name: "simpleVoteIntrinsics", want: []string{
		"[VOTE Kernel Test 1/3]",
		"[VOTE Kernel Test 2/3]",
		"[VOTE Kernel Test 3/3]",
		"\tOK",
		"\tShutting down...",
	}},
	{name: "simpleCooperativeGroups", want: []string{
		" Sum of all ranks 0..63 in threadBlockGroup is 2016 (expected 2016)",
		" Now creating 4 groups, each of size 16 threads:",
		"   Sum of all ranks 0..15 in this tiledPartition16 group is 120 (expected 120)",
		"...Done.",
	}},
}

// TestExecSamples runs the cuda-samples built by nvcc 11.8 and 12.4, each with nvcc's default
// flags and with -cudart shared, under the drop-in. Every build must exit 0, print the
// sample's own success lines and nothing on stderr (where the drop-in names any entry point
// it does not implement), and the default build of each toolkit must print what its shared
// build prints, timings aside.
func TestExecSamples(t *testing.T) {
	libs := needCudaLibs(t)
	for _, toolkit := range []string{"11.8", "12.4"} {
		for _, s := range cudaSamples {
			t.Run(toolkit+"/"+s.name, func(t *testing.T) {
				t.Parallel()
				outs := map[string]string{}
				for _, build := range []string{"shared", "default"} {
					path := filepath.Join(cudaSamplesBin, toolkit, build, s.name)
					if _, err := os.Stat(path); err != nil {
						t.Fatalf("%v (make cuda-samples builds it)", err)
					}
					var stdout, stderr bytes.Buffer
					code := run(append([]string{"exec", "-libs", libs, path}, s.args...), &stdout, &stderr)
					out := stdout.String()
					if code != 0 || stderr.Len() != 0 {
						t.Errorf("%s: exit status %d, want 0 and nothing on stderr; stderr:\n%s\nstdout:\n%s", build, code, stderr.String(), out)
						continue
					}
					lines := strings.Split(out, "\n")
					for _, w := range s.want {
						found := false
						for _, l := range lines {
							if l == w {
								found = true
								break
							}
						}
						if !found {
							t.Errorf("%s: no line %q in the output:\n%s", build, w, out)
						}
					}
					kept := lines[:0:0]
					for _, l := range lines {
						if s.varies == nil || !s.varies.MatchString(l) {
							kept = append(kept, l)
						}
					}
					outs[build] = strings.Join(kept, "\n")
				}
				if d, ok := outs["default"]; ok && outs["shared"] != "" && d != outs["shared"] {
					t.Errorf("the default (-cudart static) build prints\n%s\nand the -cudart shared build\n%s", d, outs["shared"])
				}
			})
		}
	}
}
