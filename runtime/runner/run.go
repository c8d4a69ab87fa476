// Package runner is the command-line driver of `ptx2go run`: it parses the command line,
// prepares the kernel's arguments (files, .npy arrays, zero-filled buffers, numbers), launches
// the kernel, writes the output buffers and prints the summary and the statistics. The ptx2go
// command runs it with the closure engine, and the programs that `ptx2go run -engine go`
// builds run it over a module's generated Go source, so both engines have one interface and
// the same output.
package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/sbinet/npyio/npy"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Usage is the help text of `ptx2go run`.
const Usage = `usage: ptx2go run [flags] FILE.ptx

Run compiles a PTX file and runs one of its kernels on the CPU with the GPU's SIMT
semantics. Each kernel parameter gets one -arg, in declaration order: @PATH makes a new
global buffer holding the file's bytes (a .npy file's array data, little-endian and in C
order) and passes its address; zeros:N makes a new zero-filled buffer of N bytes; bytes:HEX
gives the raw bytes of an aggregate parameter (.param .b8 name[N]); a number (decimal,
negative, 0x hex, or a float such as 1.5 or -2e-3) is converted to the parameter's type, an
error if it does not fit. tex:@PATH.npy[,OPTION...] makes a CUDA array of the .npy array and a
texture object on it, surf:@PATH.npy[,OPTION...] an array with a surface object, and passes
the object's handle (a .u64 parameter). The array's shape is the file's: (W) 1D, (H,W) 2D,
(D,H,W) 3D, or D layers with the option layered, or cubemaps with cubemap (6 faces each);
channels=N (1, 2 or 4) makes the last axis the element's channels. A texture's sampling
options: filter=point|linear, address=wrap|clamp|mirror|border, normalized (coordinates in
[0,1)), read=element|normalized, srgb, border=R:G:B:A. With -out, each buffer is written after
a successful run to DIR/argN.bin (N is the parameter's 0-based index) as raw bytes, or to
DIR/argN.npy with the input's dtype and shape for a .npy input, and so is a surface's array. Flags may come before or after the file. What the
kernel prints (CUDA's device printf) goes to standard output when the kernel ends, also when
it faults. On success a summary goes to standard output, and a run of over a second shows its progress on
standard error when that is a terminal. A parse or verification error, a bad argument or a
runtime fault (with its PTX source line, CTA and thread) is reported on one line of standard
error and makes the exit status 1; a malformed command line makes it 2.

Flags:
  -kernel NAME       the kernel to run (default: the file's only .entry)
  -grid X[,Y[,Z]]    the grid shape in CTAs (default 1)
  -block X[,Y[,Z]]   the CTA shape in threads, at most 1024 in all (default 1)
  -shared BYTES      the size of the dynamic shared memory (extern .shared arrays)
  -heap BYTES        the size of the device heap that the kernel's malloc uses (default
                     8 MiB, as CUDA's)
  -arg SPEC          one argument: @PATH, @PATH.npy, zeros:N, bytes:HEX, a number,
                     tex:@PATH.npy[,OPTION...] or surf:@PATH.npy[,OPTION...]
  -out DIR           write the buffers to DIR/argN.bin or DIR/argN.npy after the run
  -workers N         CTAs run in parallel (default GOMAXPROCS; 1 is deterministic)
  -sched its|ipdom   how the lanes of a warp are scheduled (default: its for .target sm_70
                     and newer, ipdom before): its lets the other paths of a warp run when
                     the running one spins or waits at a barrier; ipdom is the strict
                     reconvergence stack, where lanes spinning while others of their warp
                     wait for them are a SIMT deadlock fault
  -timeout DURATION  stop the kernel with a cancellation fault after DURATION (e.g. 10s)
  -max-blocks N      stop the kernel with a budget fault when a warp has run N basic blocks:
                     a deterministic cut-off for runaway kernels (with -workers 1)
  -check TOOLS       run the sanitizer (both engines): racecheck,synccheck,initcheck or all;
                     reports in compute-sanitizer's layout on standard output, exit status 1
                     when anything is reported (docs/sanitizer.md)
  -stats             after a successful run, print execution statistics to standard error:
                     warp and lane instructions, warp execution efficiency, branches
                     (divergent ones too), calls, reconvergences, SIMT stack and call
                     depth, barriers, atomics, and bytes loaded and stored per state space
  -stats=lines       the same, and the 20 hottest PTX lines (file:line, issued warp
                     instructions, lane instructions, efficiency, the source text)
  -engine closure|go how the kernel runs (default closure): closure compiles the PTX in the
                     process to closure trees; go generates the module's Go source (as
                     'ptx2go generate' does), builds it with the go command on PATH into a
                     program cached under $PTX2GO_CACHE, or the user cache directory's
                     ptx2go/run, keyed by the PTX's content, the ptx2go and the Go versions,
                     and runs that (a later run of the same PTX reuses the build); the
                     interface and the output are the same

Examples:
  ptx2go run testdata/ptx/vecadd.ptx -grid 4 -block 256 -arg zeros:4000 \
      -arg @testdata/demo/a.npy -arg @testdata/demo/b.npy -arg 1000 -out out
  ptx2go run testdata/ptx/struct_byval.ptx -kernel affine -block 4 -arg zeros:16 \
      -arg @in.bin -arg bytes:0000803f000000000400000001000000
  ptx2go run -engine go testdata/ptx/vecadd.ptx -grid 4 -block 256 -arg zeros:4000 \
      -arg @testdata/demo/a.npy -arg @testdata/demo/b.npy -arg 1000
`

// argList collects the values of the repeated -arg flag.
type argList []string

func (l *argList) String() string     { return strings.Join(*l, " ") }
func (l *argList) Set(s string) error { *l = append(*l, s); return nil }

// runOptions is the parsed command line of run.
type runOptions struct {
	file        string
	kernel      string
	grid, block runtime.Dim3
	shared      int
	heap        int
	args        []string
	out         string
	workers     int
	sched       runtime.Sched
	maxBlocks   uint64
	timeout     time.Duration
	stats       statsMode
	engine      string
	tools       runtime.CheckTools
}

// Exit statuses of the run command.
const (
	exitOK    = 0 // success
	exitFail  = 1 // the command ran and something failed
	exitUsage = 2 // the command line itself was wrong
)

// Engines lists the values of -engine.
var Engines = []string{"closure", "go"}

// A Command is a parsed `ptx2go run` command line.
type Command struct {
	opts runOptions
}

// File is the PTX file the command runs.
func (c *Command) File() string { return c.opts.file }

// Check is the value of -check: the sanitizer's tools to run, 0 for none.
func (c *Command) Check() runtime.CheckTools { return c.opts.tools }

// Engine is the value of -engine: "closure" (the default) or "go".
func (c *Command) Engine() string { return c.opts.engine }

// Parse parses the arguments of `ptx2go run` (those after "run") and checks the options that
// do not need the module. When done is true, help or an error went to stdout or stderr and the
// caller exits with code.
func Parse(args []string, stdout, stderr io.Writer) (c *Command, done bool, code int) {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	var (
		opts    runOptions
		argVals argList
	)
	fl.StringVar(&opts.kernel, "kernel", "", "the kernel `NAME` to run")
	grid := fl.String("grid", "1", "the grid shape `X[,Y[,Z]]`")
	block := fl.String("block", "1", "the block shape `X[,Y[,Z]]`")
	fl.IntVar(&opts.shared, "shared", 0, "dynamic shared memory `BYTES`")
	fl.IntVar(&opts.heap, "heap", runtime.DefaultHeapSize, "the device malloc heap's size in `BYTES`")
	fl.Var(&argVals, "arg", "one kernel argument `SPEC`")
	fl.StringVar(&opts.out, "out", "", "write the buffers to `DIR`")
	fl.IntVar(&opts.workers, "workers", 0, "CTAs run in parallel")
	fl.Func("sched", "the scheduling model of a warp's lanes: `its|ipdom`", func(v string) error {
		s, err := runtime.ParseSched(v)
		opts.sched = s
		return err
	})
	fl.DurationVar(&opts.timeout, "timeout", 0, "stop the kernel after `DURATION`")
	fl.Uint64Var(&opts.maxBlocks, "max-blocks", 0, "stop the kernel when a warp has run `N` blocks")
	fl.Func("check", "run the sanitizer's `TOOLS`: racecheck,synccheck,initcheck or all", func(v string) error {
		t, err := runtime.ParseCheckTools(v)
		opts.tools = t
		return err
	})
	fl.Var(&opts.stats, "stats", "print execution statistics (-stats=lines adds the hottest lines)")
	opts.engine = "closure"
	fl.Func("engine", "the execution engine: `closure|go`", func(v string) error {
		if !slices.Contains(Engines, v) {
			return fmt.Errorf("unknown engine %q (want %s)", v, strings.Join(Engines, " or "))
		}
		opts.engine = v
		return nil
	})
	files, done, code := parseInterspersed("run", Usage, fl, args, stdout, stderr)
	if done {
		return nil, true, code
	}
	switch len(files) {
	case 0:
		return nil, true, usageError("run", Usage, stderr, "no file given")
	case 1:
	default:
		return nil, true, usageError("run", Usage, stderr, "exactly one file expected")
	}
	opts.file, opts.args = files[0], argVals

	var err error
	if opts.grid, err = parseDim("grid", *grid); err == nil {
		opts.block, err = parseDim("block", *block)
	}
	if err == nil {
		err = opts.check()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, true, exitFail
	}
	return &Command{opts: opts}, false, exitOK
}

// Run makes the module with load (given the PTX file's path), prepares the arguments, runs
// the kernel, writes the outputs and prints the summary and the statistics. Errors are one
// line of stderr; the result is the exit status.
func (c *Command) Run(load func(file string) (*ptx2go.Module, error), stdout, stderr io.Writer) (code int) {
	// The engine recovers faults inside kernels; this turns any other panic into one line.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "ptx2go run: internal error: %v\n", r)
			code = exitFail
		}
	}()
	if err := runKernel(&c.opts, load, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFail
	}
	return exitOK
}

// Main is Parse followed by Run: the whole run command with the module load makes. The
// program `ptx2go run -engine go` builds calls it with its generated module.
func Main(args []string, load func(file string) (*ptx2go.Module, error), stdout, stderr io.Writer) int {
	c, done, code := Parse(args, stdout, stderr)
	if done {
		return code
	}
	return c.Run(load, stdout, stderr)
}

// CompileError reports a failure to make the module of the PTX file path as one line: a read
// error as check reports it, otherwise the first error with its position.
func CompileError(path string, err error) error { return compileError(path, err) }

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

// parseInterspersed is parseFlags for flags that may come before or after the operands. It
// returns the operands in order; everything after a "--" is an operand.
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

// usageError reports a malformed command line: msg (when not empty), the synopsis line of
// usage and a pointer to the full help. It returns exitUsage.
func usageError(name, usage string, stderr io.Writer, msg string) int {
	if msg != "" {
		fmt.Fprintf(stderr, "ptx2go %s: %s\n", name, msg)
	}
	synopsis, _, _ := strings.Cut(usage, "\n")
	fmt.Fprintf(stderr, "%s\nRun 'ptx2go help %s' for details.\n", synopsis, name)
	return exitUsage
}

// runError makes an error reported as "ptx2go run: message".
func runError(format string, args ...any) error {
	return fmt.Errorf("ptx2go run: "+format, args...)
}

// parseDim parses the value of -grid or -block, X[,Y[,Z]], and checks it against the limits
// of a launch.
func parseDim(flagName, s string) (runtime.Dim3, error) {
	parts := strings.Split(s, ",")
	var v [3]uint32
	if len(parts) > 3 {
		return runtime.Dim3{}, runError("-%s %s: want X[,Y[,Z]] with positive integers", flagName, s)
	}
	for i := range v {
		v[i] = 1
		if i >= len(parts) {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(parts[i]), 10, 32)
		if err != nil || n == 0 {
			return runtime.Dim3{}, runError("-%s %s: want X[,Y[,Z]] with positive integers", flagName, s)
		}
		v[i] = uint32(n)
	}
	d := runtime.Dim3{X: v[0], Y: v[1], Z: v[2]}
	if flagName == "block" {
		if n := d.Count(); n > runtime.MaxThreadsPerBlock {
			return d, runError("-block %s: %d threads, the limit is %d", s, n, runtime.MaxThreadsPerBlock)
		}
		if d.Z > 64 {
			return d, runError("-block %s: exceeds the limits 1024x1024x64", s)
		}
	} else if d.X > math.MaxInt32 || d.Y > 65535 || d.Z > 65535 {
		return d, runError("-grid %s: exceeds the limits 2147483647x65535x65535", s)
	}
	return d, nil
}

// check validates the options that do not need the module.
func (o *runOptions) check() error {
	switch {
	case o.shared < 0:
		return runError("-shared %d: the size cannot be negative", o.shared)
	case o.heap < 0:
		return runError("-heap %d: the size cannot be negative", o.heap)
	case o.workers < 0:
		return runError("-workers %d: the count cannot be negative", o.workers)
	case o.timeout < 0:
		return runError("-timeout %v: the duration cannot be negative", o.timeout)
	}
	return nil
}

// A buffer is a global allocation made for a @PATH or zeros:N argument, or the CUDA array of
// a tex: or surf: argument.
type buffer struct {
	index int // the parameter's index
	ptr   runtime.Ptr
	size  int
	npy   *npyArray // the array's dtype and shape for a .npy input, else nil
	image *image    // the array of a tex: or surf: argument, else nil
}

// runKernel makes the module with load, prepares the arguments, runs the kernel and writes the outputs.
func runKernel(o *runOptions, load func(file string) (*ptx2go.Module, error), stdout, stderr io.Writer) error {
	mod, err := load(o.file)
	if err != nil {
		return compileError(o.file, err)
	}
	k, err := pickKernel(o, mod)
	if err != nil {
		return err
	}
	params := k.Params()
	if len(o.args) != len(params) {
		return argCountError(k.Name(), params, len(o.args))
	}

	dev := runtime.NewDevice()
	dev.SetHeapSize(o.heap) // checked: not negative, and the new device has no heap yet
	if o.tools != 0 {
		dev.EnableChecks(o.tools)
	}
	vals := make([]any, len(params))
	var bufs []buffer
	for i, p := range params {
		v, buf, err := prepareArg(dev, i, p, o.args[i])
		if err != nil {
			return runError("argument %d (%s %s): %v", i, p.Name, paramType(p), err)
		}
		vals[i] = v
		if buf != nil {
			bufs = append(bufs, *buf)
			if buf.image == nil {
				dev.Wrote(buf.ptr, buf.size) // every buffer -arg makes holds what its SPEC says
			}
		}
	}
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o777); err != nil {
			return runError("-out: %v", err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	// The kernel's printf output goes to stdout when the launch ends, before the summary.
	cfg := runtime.LaunchConfig{Grid: o.grid, Block: o.block, DynamicShared: o.shared, Workers: o.workers, Sched: o.sched, MaxWarpBlocks: o.maxBlocks, Printf: stdout, Check: o.tools}
	var stats runtime.Stats
	if o.stats != statsOff {
		cfg.Stats = &stats
	}
	var prog *progress
	if isTerminal(stderr) {
		prog = startProgress(stderr, o.grid.Count(), time.Second, 250*time.Millisecond)
		cfg.Progress = prog.update
	}
	start := time.Now()
	err = k.LaunchConfig(ctx, dev, cfg, vals...)
	elapsed := time.Since(start)
	if prog != nil {
		prog.finish()
	}
	if o.tools != 0 {
		// The reports, in compute-sanitizer's layout, go to stdout, as its do.
		var ce *runtime.CheckError
		if errors.As(err, &ce) {
			runtime.WriteCheckReports(stdout, ce.Reports)
			runtime.WriteCheckSummary(stdout, len(ce.Reports))
			if ce.Fault != nil {
				return runError("%s", firstLine(ce.Fault))
			}
			return runError("the sanitizer found %d error(s)", len(ce.Reports))
		}
		if err == nil {
			runtime.WriteCheckSummary(stdout, 0)
		}
	}
	if err != nil {
		return runError("%s", firstLine(err))
	}

	fmt.Fprintf(stdout, "%s: grid %s, block %s, %s, ran in %v\n",
		k.Name(), o.grid, o.block, count(o.grid.Count()*o.block.Count(), "thread"), roundDuration(elapsed))
	if cfg.Stats != nil {
		printStats(stderr, k.Name(), &stats, o.stats == statsLines, sourceLines(o.file))
	}
	if o.out == "" {
		return nil
	}
	for _, b := range bufs {
		if b.image != nil && !b.image.surface {
			continue // a texture is read-only
		}
		path, err := writeBuffer(dev, o.out, b)
		if err != nil {
			return runError("%v", err)
		}
		fmt.Fprintf(stdout, "wrote %s (%s)\n", path, count(uint64(b.size), "byte"))
	}
	return nil
}

// compileError reports a failure of CompileFile as one line: a read error as check reports
// it, otherwise the first error with its position.
func compileError(path string, err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return fmt.Errorf("%s: cannot read: %v", path, pe.Err)
	}
	var first string
	n := 1
	switch l := err.(type) {
	case frontend.ErrorList:
		if len(l) > 0 {
			first, n = l[0].Pos.String()+": "+l[0].Msg, len(l)
		}
	case *frontend.Error:
		first = l.Pos.String() + ": " + l.Msg
	case ssa.ErrorList:
		if len(l) > 0 {
			first, n = l[0].Error(), len(l)
		}
	}
	if first == "" {
		first = firstLine(err)
		if !strings.HasPrefix(first, path+":") {
			first = path + ": " + first
		}
	}
	if n > 1 {
		first += fmt.Sprintf(" (and %d more errors)", n-1)
	}
	return errors.New(first)
}

// firstLine is the first line of err's message.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// pickKernel returns the kernel -kernel names, or the module's only kernel.
func pickKernel(o *runOptions, mod *ptx2go.Module) (*ptx2go.Kernel, error) {
	names := mod.Kernels()
	name := o.kernel
	switch {
	case name != "":
		for _, n := range names {
			if n == name {
				return mod.Kernel(name)
			}
		}
		if len(names) == 0 {
			return nil, runError("%s has no kernel %q; it defines no kernels", o.file, name)
		}
		return nil, runError("%s has no kernel %q; it defines: %s", o.file, name, strings.Join(names, ", "))
	case len(names) == 0:
		return nil, runError("%s defines no kernels", o.file)
	case len(names) > 1:
		return nil, runError("%s defines %d kernels (%s); choose one with -kernel", o.file, len(names), strings.Join(names, ", "))
	}
	return mod.Kernel(names[0])
}

// argCountError reports a number of -arg values that does not match the kernel's parameters.
func argCountError(kernel string, params []Param, got int) error {
	if len(params) == 0 {
		return runError("kernel %s takes no arguments, got %d", kernel, got)
	}
	desc := make([]string, len(params))
	for i, p := range params {
		desc[i] = p.Name + " " + paramType(p)
	}
	return runError("kernel %s takes %s (%s), got %d", kernel, count(uint64(len(params)), "argument"), strings.Join(desc, ", "), got)
}

// Param is the root package's kernel parameter description.
type Param = ptx2go.Param

// paramType spells a parameter's type as PTX declares it: ".u32", or ".b8[16]" for an aggregate.
func paramType(p Param) string {
	if !p.Array {
		return "." + p.Type
	}
	if bits, err := strconv.Atoi(strings.TrimLeft(p.Type, "bsuf")); err == nil && bits >= 8 && p.Size%(bits/8) == 0 {
		return fmt.Sprintf(".%s[%d]", p.Type, p.Size/(bits/8))
	}
	return fmt.Sprintf(".%s (%d bytes)", p.Type, p.Size)
}

// prepareArg turns one -arg value into a launch argument for parameter p (index i). Buffer
// arguments allocate device memory and are returned as buf too.
func prepareArg(dev *runtime.Device, i int, p Param, spec string) (arg any, buf *buffer, err error) {
	switch {
	case strings.HasPrefix(spec, "tex:"), strings.HasPrefix(spec, "surf:"):
		h, img, err := prepareImage(dev, p, spec)
		if err != nil {
			return nil, nil, err
		}
		return h, &buffer{index: i, image: img, size: img.array.Size()}, nil
	case strings.HasPrefix(spec, "@"), strings.HasPrefix(spec, "zeros:"):
		if !p.Pointer {
			return nil, nil, fmt.Errorf("%s makes a buffer, whose address cannot be passed as %s", spec, paramType(p))
		}
		var (
			data []byte
			arr  *npyArray
			size int
		)
		if path, ok := strings.CutPrefix(spec, "@"); ok {
			if path == "" {
				return nil, nil, errors.New("@ needs a file name")
			}
			if strings.EqualFold(filepath.Ext(path), ".npy") {
				data, arr, err = readNPY(path)
			} else {
				data, err = os.ReadFile(path)
			}
			if err != nil {
				if pe, ok := errors.AsType[*fs.PathError](err); ok {
					err = pe.Err
				}
				return nil, nil, fmt.Errorf("cannot read %s: %v", path, err)
			}
			size = len(data)
		} else {
			n, err := strconv.ParseInt(strings.TrimPrefix(spec, "zeros:"), 10, 0)
			if err != nil || n < 0 {
				return nil, nil, fmt.Errorf("%s: want zeros:N with N a byte count", spec)
			}
			size = int(n)
		}
		ptr, err := dev.Malloc(size)
		if err != nil {
			return nil, nil, err
		}
		if err := dev.CopyIn(ptr, data); err != nil {
			return nil, nil, err
		}
		if _, err := p.Encode(ptr); err != nil {
			return nil, nil, err
		}
		return ptr, &buffer{index: i, ptr: ptr, size: size, npy: arr}, nil

	case strings.HasPrefix(spec, "bytes:"):
		if !p.Array {
			return nil, nil, fmt.Errorf("bytes:HEX is for aggregate parameters; %s takes a number", paramType(p))
		}
		b, err := hex.DecodeString(strings.TrimPrefix(spec, "bytes:"))
		if err != nil {
			return nil, nil, fmt.Errorf("bad hex in %s: %v", spec, strings.TrimPrefix(err.Error(), "encoding/hex: "))
		}
		if len(b) != p.Size {
			return nil, nil, fmt.Errorf("%s gives %s, the parameter takes %d (%d hex digits)", spec, count(uint64(len(b)), "byte"), p.Size, 2*p.Size)
		}
		return b, nil, nil
	}

	if p.Array {
		return nil, nil, fmt.Errorf("an aggregate parameter takes bytes:HEX with %d bytes, not %q", p.Size, spec)
	}
	v, err := parseNumber(spec, p)
	if err != nil {
		return nil, nil, err
	}
	if _, err := p.Encode(v); err != nil {
		return nil, nil, err
	}
	return v, nil, nil
}

// parseNumber converts a bare number to the Go value Param.Encode takes for p: int64 or uint64
// for an integer parameter, float64 for a float one.
func parseNumber(s string, p Param) (any, error) {
	isFloat := p.Type != "" && p.Type[0] == 'f'
	if neg, mag, isInt, err := parseInteger(s); isInt && (err == nil || !isFloat) {
		switch {
		case isFloat && neg:
			return -float64(mag), nil
		case isFloat:
			return float64(mag), nil
		case err != nil, neg && mag > 1<<63:
			return nil, fmt.Errorf("%s does not fit .%s", s, p.Type)
		case neg:
			return -int64(mag), nil
		}
		return mag, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || strings.ContainsAny(s, "_") {
		return nil, fmt.Errorf("%q is not a number, @PATH, zeros:N or bytes:HEX", s)
	}
	if !isFloat {
		return nil, fmt.Errorf("%s is not an integer; .%s takes an integer", s, p.Type)
	}
	overflow := math.IsInf(f, 0) && !strings.Contains(strings.ToLower(s), "inf")
	if p.Type == "f32" && !math.IsInf(f, 0) && !math.IsNaN(f) && math.IsInf(float64(float32(f)), 0) {
		overflow = true
	}
	if overflow {
		return nil, fmt.Errorf("%s does not fit .%s", s, p.Type)
	}
	return f, nil
}

// parseInteger parses an optionally signed decimal or 0x-hexadecimal integer. isInt says s
// has that form; err is then set when its magnitude overflows 64 bits.
func parseInteger(s string) (neg bool, mag uint64, isInt bool, err error) {
	digits := s
	if rest, ok := strings.CutPrefix(digits, "-"); ok {
		neg, digits = true, rest
	} else {
		digits = strings.TrimPrefix(digits, "+")
	}
	base := 10
	if rest, ok := strings.CutPrefix(strings.ToLower(digits), "0x"); ok {
		base, digits = 16, rest
	}
	if digits == "" {
		return false, 0, false, nil
	}
	for _, c := range strings.ToLower(digits) {
		if !('0' <= c && c <= '9' || base == 16 && 'a' <= c && c <= 'f') {
			return false, 0, false, nil
		}
	}
	mag, err = strconv.ParseUint(digits, base, 64)
	return neg, mag, true, err
}

// An npyArray is the dtype and shape of a .npy input, used to write the buffer back.
type npyArray struct {
	dtype string       // as the file's header spells it
	elem  reflect.Type // the Go element type
	shape []int
}

// readNPY loads a NumPy array file and returns its data, little-endian in C order.
func readNPY(path string) (data []byte, arr *npyArray, err error) {
	// npyio indexes into the header without checking it; a malformed one panics.
	defer func() {
		if r := recover(); r != nil {
			data, arr, err = nil, nil, fmt.Errorf("malformed .npy header (%v)", r)
		}
	}()
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	r := bytes.NewReader(raw)
	nr, err := npy.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	h := nr.Header.Descr
	if h.Fortran {
		return nil, nil, errors.New("Fortran-order arrays are not supported; save the array in C order")
	}
	elem := npy.TypeFrom(h.Type)
	if elem == nil || elem.Kind() == reflect.String {
		return nil, nil, fmt.Errorf("unsupported dtype %q (want bool, integers, floats or complex)", h.Type)
	}
	n := 1
	for _, d := range h.Shape {
		if d < 0 || d > 0 && n > math.MaxInt32/d {
			return nil, nil, fmt.Errorf("unsupported shape %v", h.Shape)
		}
		n *= d
	}
	want := n * int(elem.Size())
	if r.Len() != want {
		return nil, nil, fmt.Errorf("%d bytes of array data, the header (dtype %s, shape %v) says %d", r.Len(), h.Type, h.Shape, want)
	}
	slice := reflect.New(reflect.SliceOf(elem))
	slice.Elem().Set(reflect.MakeSlice(slice.Elem().Type(), n, n))
	if n > 0 {
		if err := nr.Read(slice.Interface()); err != nil {
			return nil, nil, err
		}
	}
	// The device and the host are little-endian (the runtime requires it), so the Go values'
	// memory is the device layout.
	data = make([]byte, want)
	if n > 0 {
		copy(data, unsafe.Slice((*byte)(slice.Elem().UnsafePointer()), want))
	}
	return data, &npyArray{dtype: h.Type, elem: elem, shape: h.Shape}, nil
}

// writeNPY writes data as a NumPy array of a's element type and shape.
func writeNPY(w io.Writer, a *npyArray, data []byte) error {
	if a.elem.Kind() == reflect.Bool {
		data = bytes.Clone(data)
		for i, b := range data {
			if b != 0 {
				data[i] = 1
			}
		}
	}
	var v reflect.Value
	if len(a.shape) == 1 {
		// A slice takes encoding/binary's fast path and is written with shape (n,).
		v = reflect.MakeSlice(reflect.SliceOf(a.elem), a.shape[0], a.shape[0])
		if len(data) > 0 {
			copy(unsafe.Slice((*byte)(v.UnsafePointer()), len(data)), data)
		}
	} else {
		// Nested arrays [d0][d1]...T carry the shape; a 0-d array is the scalar itself.
		t := a.elem
		for i := len(a.shape) - 1; i >= 0; i-- {
			t = reflect.ArrayOf(a.shape[i], t)
		}
		v = reflect.New(t)
		if len(data) > 0 {
			copy(unsafe.Slice((*byte)(v.UnsafePointer()), len(data)), data)
		}
		v = v.Elem()
	}
	return npy.Write(w, v.Interface())
}

// writeBuffer copies a buffer (or a surface's array) back from the device and writes it to
// dir/argN.bin, or dir/argN.npy for a .npy input. It returns the file's path.
func writeBuffer(dev *runtime.Device, dir string, b buffer) (string, error) {
	var data []byte
	if b.image != nil {
		data = make([]byte, b.image.array.Size())
		if err := b.image.array.Read(data); err != nil {
			return "", err
		}
		b.npy = b.image.npy
	} else {
		data = make([]byte, b.size)
		if err := dev.CopyOut(data, b.ptr); err != nil {
			return "", err
		}
	}
	if b.npy == nil {
		path := filepath.Join(dir, fmt.Sprintf("arg%d.bin", b.index))
		return path, os.WriteFile(path, data, 0o666)
	}
	path := filepath.Join(dir, fmt.Sprintf("arg%d.npy", b.index))
	f, err := os.Create(path)
	if err != nil {
		return path, err
	}
	w := bufio.NewWriter(f)
	err = writeNPY(w, b.npy, data)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		err = fmt.Errorf("writing %s: %v", path, err)
	}
	return path, err
}

// count spells n things: "1 byte", "2 bytes".
func count(n uint64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// roundDuration rounds d for the summary line.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// isTerminal says whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progress shows a running launch's progress on a terminal: after delay, and then every
// interval, it rewrites one status line with the CTAs done, the total and the rate.
type progress struct {
	w     io.Writer
	total uint64
	start time.Time
	done  atomic.Uint64
	stop  chan struct{}
	wg    sync.WaitGroup
	shown bool // a status line was written (only the reporting goroutine touches it until finish)
}

func startProgress(w io.Writer, total uint64, delay, interval time.Duration) *progress {
	p := &progress{w: w, total: total, start: time.Now(), stop: make(chan struct{})}
	p.wg.Go(func() {
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-p.stop:
			return
		case <-timer.C:
		}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			p.show()
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	})
	return p
}

// update is the launch's Progress callback; workers call it concurrently.
func (p *progress) update(done, total uint64) {
	for {
		old := p.done.Load()
		if done <= old || p.done.CompareAndSwap(old, done) {
			return
		}
	}
}

func (p *progress) show() {
	done := p.done.Load()
	secs := time.Since(p.start).Seconds()
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(done) / float64(p.total)
	}
	fmt.Fprintf(p.w, "\r\x1b[Kptx2go run: %d/%d CTAs (%.0f%%), %.0f CTAs/s", done, p.total, pct, float64(done)/secs)
	p.shown = true
}

// finish stops the reports and clears the status line.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
