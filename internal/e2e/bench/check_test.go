package bench_test

import (
	"os"

	"github.com/ptx2go/ptx2go"
)

// The sanitizer's cost (issue 33): with $PTX2GO_CHECK naming tools (PTX2GO_CHECK=racecheck
// make bench, or all), the closure engine's kernels are compiled with check hooks and every
// launch runs those tools (a launch of a checked module that names none takes them from
// $PTX2GO_CHECK); engine=go is skipped, its corpus having no hooks. Global memory is not
// initchecked here: the benchmarks allocate before any EnableChecks, so their buffers count as
// written; shared and local memory are.

// benchChecked reports whether $PTX2GO_CHECK asks for checked benchmarks.
func benchChecked() bool { return os.Getenv("PTX2GO_CHECK") != "" }

// benchCompile compiles a PTX file for the closure engine, with check hooks when benchChecked.
func benchCompile(path string) (*ptx2go.Module, error) {
	if !benchChecked() {
		return ptx2go.CompileFile(path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ptx2go.Compile(src, ptx2go.Options{File: path, Check: true})
}
