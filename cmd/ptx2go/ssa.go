package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ptx2go/ptx2go/ssa"
)

const ssaUsage = `usage: ptx2go ssa FILE.ptx [-func NAME]

Ssa parses a PTX file, lowers it to SSA form and prints the IR of every function in the order
the file declares them, or with -func only the function or kernel NAME. Each block lists its
predecessors, immediate dominator and post-dominator; registers appear as name#version with
phis at joins; instructions are marked uniform or divergent; and every divergent terminator
names the block where its lanes reconverge. Flags may come before or after the file. Errors
are reported as by check and make the exit status 1, as does a NAME the file does not
declare (the error lists the names it does).

Examples:
  ptx2go ssa testdata/ptx/vecadd.ptx
  ptx2go ssa testdata/ptx/hand/calltargets.ptx -func tri
  ptx2go ssa -func vecadd testdata/ptx/vecadd.ptx | less
`

func runSSA(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ssa", flag.ContinueOnError)
	name := fl.String("func", "", "print only the function or kernel `NAME`")
	files, done, code := parseInterspersed("ssa", ssaUsage, fl, args, stdout, stderr)
	if done {
		return code
	}
	switch len(files) {
	case 0:
		return usageError("ssa", ssaUsage, stderr, "no file given")
	case 1:
	default:
		return usageError("ssa", ssaUsage, stderr, "exactly one file expected")
	}
	p, ok := loadProgram(files[0], stderr)
	if !ok {
		return exitFail
	}
	funcs := p.Funcs
	if *name != "" {
		fn := p.Func(*name)
		if fn == nil {
			fmt.Fprintf(stderr, "ptx2go ssa: %s has no function %q; it declares: %s\n", files[0], *name, funcNames(p.Funcs))
			return exitFail
		}
		funcs = []*ssa.Function{fn}
	}
	w := bufio.NewWriter(stdout)
	for i, fn := range funcs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		ssa.Fprint(w, fn)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "ptx2go ssa: writing output: %v\n", err)
		return exitFail
	}
	return exitOK
}

// loadProgram reads, parses and lowers one PTX file, reporting problems to stderr as check does.
func loadProgram(path string, stderr io.Writer) (*ssa.Program, bool) {
	m, ok := parseFile(path, stderr)
	if !ok {
		return nil, false
	}
	return buildModule(m, stderr)
}

// funcNames lists the functions' names for an error message, or says there are none.
func funcNames(funcs []*ssa.Function) string {
	if len(funcs) == 0 {
		return "(none)"
	}
	names := make([]string, len(funcs))
	for i, fn := range funcs {
		names[i] = fn.Name
	}
	return strings.Join(names, ", ")
}
