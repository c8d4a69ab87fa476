package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

const checkUsage = `usage: ptx2go check FILE.ptx...

Check parses each PTX file, lowers it to SSA form and verifies the result (labels, registers,
call targets and signatures resolve; every block is terminated; values are defined before
use), and for a file without errors prints "FILE: ok (N kernels, M functions)", counting the
.entry kernels and .func device functions that are defined here: declarations and prototypes
of functions defined elsewhere are not counted. Syntax errors go to standard error as
file:line:col: message, followed by the source line and a caret under the column; lowering
and verification errors as file:line:col: message, one a line. The exit status is 1 if any
file could not be read, parsed or lowered, 2 for a malformed command line.

Examples:
  ptx2go check testdata/ptx/vecadd.ptx
  ptx2go check testdata/ptx/*.ptx testdata/ptx/gcc/*.ptx
`

const fmtUsage = `usage: ptx2go fmt FILE.ptx

Fmt parses a PTX file and prints it to standard output in ptx2go's normalized form: one
directive or instruction per line, tab-indented bodies, comments dropped, integer literals
in the base they were written in and 0f/0d float literals with their exact bits. Parsing
the output gives the same module again, so fmt is a quick way to see what the parser
understood. Errors are reported as by check and make the exit status 1; nothing is printed
to standard output then.

Examples:
  ptx2go fmt testdata/ptx/vecadd.ptx
  ptx2go fmt kernel.ptx > kernel.norm.ptx
`

func runCheck(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	if done, code := parseFlags("check", checkUsage, fl, args, stdout, stderr); done {
		return code
	}
	if fl.NArg() == 0 {
		return usageError("check", checkUsage, stderr, "no files given")
	}
	status := exitOK
	for _, path := range fl.Args() {
		m, ok := parseFile(path, stderr)
		if !ok {
			status = exitFail
			continue
		}
		if _, ok := buildModule(m, stderr); !ok {
			status = exitFail
			continue
		}
		kernels, funcs := countFunctions(m)
		fmt.Fprintf(stdout, "%s: ok (%d kernels, %d functions)\n", path, kernels, funcs)
	}
	return status
}

func runFmt(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("fmt", flag.ContinueOnError)
	if done, code := parseFlags("fmt", fmtUsage, fl, args, stdout, stderr); done {
		return code
	}
	switch fl.NArg() {
	case 0:
		return usageError("fmt", fmtUsage, stderr, "no file given")
	case 1:
	default:
		return usageError("fmt", fmtUsage, stderr, "exactly one file expected")
	}
	path := fl.Arg(0)
	m, ok := parseFile(path, stderr)
	if !ok {
		return exitFail
	}
	if err := frontend.Fprint(stdout, m); err != nil {
		fmt.Fprintf(stderr, "ptx2go fmt: writing output: %v\n", err)
		return exitFail
	}
	return exitOK
}

// parseFile reads and parses one PTX file. Problems are reported to stderr, and ok is false.
func parseFile(path string, stderr io.Writer) (m *frontend.Module, ok bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		// A *fs.PathError already names the file; keep only the reason after "FILE: cannot read:".
		if pe, isPath := errors.AsType[*fs.PathError](err); isPath {
			err = pe.Err
		}
		fmt.Fprintf(stderr, "%s: cannot read: %v\n", path, err)
		return nil, false
	}
	m, err = frontend.Parse(path, src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	return m, true
}

// buildModule lowers a parsed module to SSA. Lowering and verification errors are reported to
// stderr as file:line:col: message, one a line, and ok is false.
func buildModule(m *frontend.Module, stderr io.Writer) (p *ssa.Program, ok bool) {
	p, err := ssa.Build(m)
	if err == nil {
		return p, true
	}
	if list, isList := errors.AsType[ssa.ErrorList](err); isList && len(list) > 0 {
		for _, e := range list {
			fmt.Fprintf(stderr, "%s: %s\n", e.Pos, e.Msg)
		}
		return nil, false
	}
	if e, isOne := errors.AsType[*ssa.Error](err); isOne {
		fmt.Fprintf(stderr, "%s: %s\n", e.Pos, e.Msg)
		return nil, false
	}
	fmt.Fprintf(stderr, "%s: %v\n", m.Pos.File, err)
	return nil, false
}

// countFunctions counts the kernels (.entry) and device functions (.func) a module defines.
// Items without a body are declarations of functions defined elsewhere (or later in the same
// file, which GCC writes for every kernel) and are not counted.
func countFunctions(m *frontend.Module) (kernels, funcs int) {
	for _, it := range m.Items {
		f, isFunc := it.(*frontend.Function)
		if !isFunc || f.Body == nil {
			continue
		}
		if f.Kind == frontend.Entry {
			kernels++
		} else {
			funcs++
		}
	}
	return kernels, funcs
}
