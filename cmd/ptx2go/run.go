package main

import (
	"io"
	"os"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/runtime/runner"
)

// runUsage is the help text of run, which lives with its code in package runner.
const runUsage = runner.Usage

// runRun is the run verb. The closure engine compiles and runs the kernel in this process;
// the Go engine builds (or finds in the cache) a program that runs the same code with the
// module's generated Go source and runs it with the same arguments.
func runRun(args []string, stdout, stderr io.Writer) int {
	c, done, code := runner.Parse(args, stdout, stderr)
	if done {
		return code
	}
	if c.Engine() == "go" {
		return runGoEngine(c.File(), c.Check() != 0, args, stdout, stderr)
	}
	load := ptx2go.CompileFile
	if c.Check() != 0 {
		load = func(file string) (*ptx2go.Module, error) {
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			return ptx2go.Compile(src, ptx2go.Options{File: file, Check: true})
		}
	}
	return c.Run(load, stdout, stderr)
}
