// Command ptx2go parses NVIDIA PTX and, as the translator grows, lowers it to Go.
//
// Usage:
//
//	ptx2go <command> [arguments]
//
// Run `ptx2go help` for the list of commands and `ptx2go help <command>` for one command's
// usage. Each command is an entry in the verbs table below; adding a command means adding an
// entry there and a run function beside it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0 // success
	exitFail  = 1 // the command ran and something failed (a parse error, an unreadable file)
	exitUsage = 2 // the command line itself was wrong
)

// A verb is one ptx2go command.
type verb struct {
	name    string
	summary string // one line, lower case, no final period: shown in the command list
	// usage is the full help text: a "usage:" synopsis line, a blank line, one paragraph of
	// description and an "Examples:" section. It ends with a newline.
	usage string
	// run executes the verb. args are the arguments after the verb's name; the return value is
	// the process exit status.
	run func(args []string, stdout, stderr io.Writer) int
}

// verbs is the command table, in the order `ptx2go help` lists it. Each verb's usage text and
// run function live in the verb's own file. The table is filled in init because the help verb
// reads it (a package-level initializer would be an initialization cycle).
var verbs []*verb

func init() {
	verbs = []*verb{
		{name: "check", summary: "parse, lower and verify PTX files and report errors", usage: checkUsage, run: runCheck},
		{name: "fmt", summary: "print a PTX file in normalized form", usage: fmtUsage, run: runFmt},
		{name: "ssa", summary: "print the SSA form of a PTX file's functions", usage: ssaUsage, run: runSSA},
		{name: "cfg", summary: "draw a function's control-flow graph in Graphviz DOT or SVG", usage: cfgUsage, run: runCFG},
		{name: "run", summary: "run a kernel of a PTX file on the CPU", usage: runUsage, run: runRun},
		{name: "exec", summary: "run a CUDA program with ptx2go's libcudart and libcuda", usage: execUsage, run: runExec},
		{name: "cuda-libs", summary: "build ptx2go's libcudart and libcuda drop-in libraries", usage: cudaLibsUsage, run: runCudaLibs},
		{name: "generate", summary: "compile PTX modules to Go source files", usage: generateUsage, run: runGenerate},
		{name: "version", summary: "print the ptx2go and Go versions", usage: versionUsage, run: runVersion},
		{name: "help", summary: "show help for ptx2go or one of its commands", usage: helpUsage, run: runHelp},
	}
}

// lookup returns the verb called name, or nil.
func lookup(name string) *verb {
	for _, v := range verbs {
		if v.name == name {
			return v
		}
	}
	return nil
}

// run is the whole program apart from the process boundary, so tests can call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ptx2go", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printMainUsage(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "ptx2go: %v\nRun 'ptx2go help' for usage.\n", err)
		return exitUsage
	}
	if fs.NArg() == 0 {
		printMainUsage(stderr)
		return exitUsage
	}
	name := fs.Arg(0)
	v := lookup(name)
	if v == nil {
		fmt.Fprintf(stderr, "ptx2go: unknown command %q\n\n", name)
		printCommandList(stderr)
		fmt.Fprintf(stderr, "\nRun 'ptx2go help' for usage.\n")
		return exitUsage
	}
	return v.run(fs.Args()[1:], stdout, stderr)
}

const mainIntro = `ptx2go translates NVIDIA PTX kernels, as emitted by clang, nvcc and GCC's nvptx back end,
into Go that runs them on the CPU with the GPU's SIMT semantics. It parses PTX, lowers it to
a verified SSA form with reconvergence points, and runs kernels on one of two engines built
from that form: closure trees made in process, or Go source (generate, or run -engine go).
exec runs unmodified CUDA programs on its drop-in libcudart and libcuda.

usage: ptx2go <command> [arguments]
`

const mainExamples = `Examples:
  ptx2go check testdata/ptx/*.ptx
  ptx2go fmt testdata/ptx/vecadd.ptx
  ptx2go ssa testdata/ptx/vecadd.ptx
  ptx2go cfg testdata/ptx/vecadd.ptx -func vecadd > vecadd.dot
  ptx2go run -grid 4 -block 256 -arg zeros:4000 -arg @testdata/demo/a.npy \
      -arg @testdata/demo/b.npy -arg 1000 -out /tmp/out testdata/ptx/vecadd.ptx
  ptx2go run -engine go ...  (the same run on the generated Go engine)
  ptx2go generate -pkg vecadd -o vecadd/ testdata/ptx/vecadd.ptx
  ptx2go exec ./vectorAdd
  ptx2go help check
`

func printMainUsage(w io.Writer) {
	fmt.Fprint(w, mainIntro)
	fmt.Fprintln(w)
	printCommandList(w)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'ptx2go help <command>' or 'ptx2go <command> -h' for details on a command.")
	fmt.Fprintln(w)
	fmt.Fprint(w, mainExamples)
}

func printCommandList(w io.Writer) {
	width := 0
	for _, v := range verbs {
		width = max(width, len(v.name))
	}
	fmt.Fprintln(w, "Commands:")
	for _, v := range verbs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, v.name, v.summary)
	}
}

// parseFlags parses the flags of the verb called name, whose help text is usage. -h and -help
// print usage to stdout; other flag errors print the problem, the synopsis and a hint to
// stderr. When done is true the caller returns code.
func parseFlags(name, usage string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (done bool, code int) {
	fs.SetOutput(io.Discard) // errors are reported below, with the verb's name
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return true, exitOK
		}
		return true, usageError(name, usage, stderr, err.Error())
	}
	return false, exitOK
}

// parseInterspersed is parseFlags for verbs whose flags may come before or after their
// operands, as in `ptx2go ssa FILE.ptx -func NAME`. It returns the operands in order;
// everything after a "--" is an operand.
func parseInterspersed(name, usage string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (operands []string, done bool, code int) {
	for {
		if done, code := parseFlags(name, usage, fs, args, stdout, stderr); done {
			return nil, true, code
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(operands, rest...), false, exitOK
		}
		if len(rest) == 0 {
			return operands, false, exitOK
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// usageError reports a malformed command line for the verb called name: msg (when not empty),
// the synopsis line of usage and a pointer to the full help. It returns exitUsage.
func usageError(name, usage string, stderr io.Writer, msg string) int {
	if msg != "" {
		fmt.Fprintf(stderr, "ptx2go %s: %s\n", name, msg)
	}
	synopsis, _, _ := strings.Cut(usage, "\n")
	fmt.Fprintf(stderr, "%s\nRun 'ptx2go help %s' for details.\n", synopsis, name)
	return exitUsage
}

const helpUsage = `usage: ptx2go help [command]

Help prints the list of commands, or with a command name that command's usage,
description and examples. 'ptx2go -h' and 'ptx2go <command> -h' print the same text.

Examples:
  ptx2go help
  ptx2go help check
`

func runHelp(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	if done, code := parseFlags("help", helpUsage, fs, args, stdout, stderr); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		printMainUsage(stdout)
		return exitOK
	case 1:
		v := lookup(fs.Arg(0))
		if v == nil {
			fmt.Fprintf(stderr, "ptx2go help: unknown command %q\n\n", fs.Arg(0))
			printCommandList(stderr)
			return exitUsage
		}
		fmt.Fprint(stdout, v.usage)
		return exitOK
	default:
		return usageError("help", helpUsage, stderr, "too many arguments")
	}
}
