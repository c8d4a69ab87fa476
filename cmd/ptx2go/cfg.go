package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/ptx2go/ptx2go/ssa"
)

const cfgUsage = `usage: ptx2go cfg FILE.ptx -func NAME [-format dot|svg] [-o FILE]

Cfg parses and lowers a PTX file as ssa does and draws the control-flow graph of the function
or kernel NAME in Graphviz DOT. Each block is a box showing its name (b3, or b3 ($L__BB0_2)
for a block that starts at a PTX label) and the PTX source lines of its code; the virtual
exit that ret, exit and trap lead to is the double circle "exit". Conditional branches label
their edges "taken" and "fallthrough" and brx.idx edges carry their table indices. A
divergent branch, one where the lanes of a warp may go different ways, has a red border and
bold red edges, and a dashed gray "reconverge" edge leads from it to the block where the lanes
meet again. -format svg runs the DOT through Graphviz's dot -Tsvg, which must be on PATH.
The graph goes to standard output, or with -o to FILE. Flags may come before or after the
file. Errors are reported as by check and make the exit status 1, as does a NAME the file
does not define (the error lists the names it does).

Examples:
  ptx2go cfg testdata/ptx/vecadd.ptx -func vecadd
  ptx2go cfg testdata/ptx/vecadd.ptx -func vecadd | dot -Tpng -o vecadd.png
  ptx2go cfg testdata/ptx/hand/brx_idx.ptx -func brx_idx -format svg -o brx_idx.svg
`

func runCFG(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("cfg", flag.ContinueOnError)
	name := fl.String("func", "", "draw the function or kernel `NAME`")
	format := fl.String("format", "dot", "output `format`: dot or svg")
	outPath := fl.String("o", "", "write the graph to `FILE` instead of standard output")
	files, done, code := parseInterspersed("cfg", cfgUsage, fl, args, stdout, stderr)
	if done {
		return code
	}
	switch len(files) {
	case 0:
		return usageError("cfg", cfgUsage, stderr, "no file given")
	case 1:
	default:
		return usageError("cfg", cfgUsage, stderr, "exactly one file expected")
	}
	if *format != "dot" && *format != "svg" {
		return usageError("cfg", cfgUsage, stderr, fmt.Sprintf("unknown -format %q: want dot or svg", *format))
	}
	path := files[0]
	var dotPath string
	if *format == "svg" {
		var err error
		if dotPath, err = exec.LookPath("dot"); err != nil {
			fmt.Fprintln(stderr, "ptx2go cfg: -format svg needs Graphviz's dot on PATH; use -format dot")
			return exitFail
		}
	}
	p, ok := loadProgram(path, stderr)
	if !ok {
		return exitFail
	}
	defined := definedFuncs(p)
	if *name == "" {
		fmt.Fprintf(stderr, "ptx2go cfg: -func is required; %s defines: %s\n", path, funcNames(defined))
		return usageError("cfg", cfgUsage, stderr, "")
	}
	fn := p.Func(*name)
	switch {
	case fn == nil:
		fmt.Fprintf(stderr, "ptx2go cfg: %s has no function %q; it defines: %s\n", path, *name, funcNames(defined))
		return exitFail
	case fn.Decl:
		fmt.Fprintf(stderr, "ptx2go cfg: %s only declares %s, which has no body; it defines: %s\n", path, *name, funcNames(defined))
		return exitFail
	}

	var graph bytes.Buffer
	if err := ssa.WriteDOT(&graph, fn); err != nil {
		fmt.Fprintf(stderr, "ptx2go cfg: %v\n", err)
		return exitFail
	}
	out := graph.Bytes()
	if *format == "svg" {
		var svg, dotErr bytes.Buffer
		cmd := exec.Command(dotPath, "-Tsvg")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = &graph, &svg, &dotErr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(dotErr.String())
			if msg != "" {
				msg = ": " + msg
			}
			fmt.Fprintf(stderr, "ptx2go cfg: %s -Tsvg: %v%s\n", dotPath, err, msg)
			return exitFail
		}
		out = svg.Bytes()
	}
	if *outPath != "" {
		if err := os.WriteFile(*outPath, out, 0o666); err != nil {
			fmt.Fprintf(stderr, "ptx2go cfg: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "ptx2go cfg: writing output: %v\n", err)
		return exitFail
	}
	return exitOK
}

// definedFuncs returns the program's functions that have a body, in declaration order.
func definedFuncs(p *ssa.Program) []*ssa.Function {
	var fns []*ssa.Function
	for _, fn := range p.Funcs {
		if !fn.Decl {
			fns = append(fns, fn)
		}
	}
	return fns
}
