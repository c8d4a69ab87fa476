package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/ptx2go/ptx2go"
)

const execUsage = `usage: ptx2go exec [-libs DIR] [-check TOOLS] PROGRAM [ARGS...]

Exec runs an unmodified CUDA program on the CPU: PROGRAM, built with
'nvcc -cudart shared' (or linked with -lcuda for the driver API), runs with ptx2go's
libcudart.so.11.0, libcudart.so.12 and libcuda.so.1 first in LD_LIBRARY_PATH. Its kernels
are compiled from the PTX its fat binary carries (build it with PTX, as nvcc's default
-arch=sm_XX does, or -gencode arch=compute_XX,code=compute_XX) and run when launched; a
kernel fault becomes the CUDA error a GPU gives (an out-of-bounds access is
cudaErrorIllegalAddress) and ptx2go prints the fault's kernel, PTX line, CTA, thread and
address to stderr. The exit status is the program's.

The libraries are built with the Go toolchain and a C compiler (cgo) on first use, into
$PTX2GO_CACHE/cuda or ptx2go/cuda in the user cache directory, keyed by the ptx2go and Go
versions; -libs DIR uses the libraries 'ptx2go cuda-libs -o DIR' built instead.
$PTX2GO_PTX_DIR, when set, receives the PTX of each module the program loads, so that the
lines a fault names can be read.

-check TOOLS runs the sanitizer on the program (racecheck, synccheck, initcheck, leakcheck,
comma-separated, or all): its modules are compiled with check hooks, every launch runs the
kernel tools, and at exit the device allocations it never freed are listed with the call that
made them; the reports go to stderr in compute-sanitizer's layout, ending with its "ERROR
SUMMARY: N errors" line, and the exit status is 1 when the program exited with 0 and
something was reported. (The drop-in reads the tools from $PTX2GO_CHECK, which -check sets.)

Examples:
  ptx2go exec ./vectorAdd      (after nvcc -cudart shared -arch=sm_80 vectorAdd.cu -o vectorAdd)
  ptx2go exec -libs ./cuda-libs ./vectorAdd 50000
  ptx2go exec -check all ./vectorAdd
`

const cudaLibsUsage = `usage: ptx2go cuda-libs [-o DIR]

Cuda-libs builds ptx2go's CUDA drop-in into DIR (default: the cache 'ptx2go exec' uses) and
prints DIR: libptx2go-cuda.so (package cmd/ptx2go/cudart, built with -buildmode=c-shared),
and libcudart.so.11.0, libcudart.so.12 and libcuda.so.1, which carry the sonames and symbol
versions nvcc-built programs need and load libptx2go-cuda.so. Put DIR first in
LD_LIBRARY_PATH to run a CUDA program with them. Needs the Go toolchain and a C compiler.

Examples:
  ptx2go cuda-libs -o cuda-libs
  ptx2go cuda-libs             (then LD_LIBRARY_PATH=DIR ./vectorAdd)
`

// cudaLibNames are the libraries CUDA programs link that the drop-in stands in for.
var cudaLibNames = []string{"libcudart.so.11.0", "libcudart.so.12", "libcuda.so.1"}

// cudaLibCore is the c-shared library with the implementation.
const cudaLibCore = "libptx2go-cuda.so"

func runExec(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	libs := fs.String("libs", "", "use the drop-in libraries in `DIR` instead of the cache's")
	checkFlag := fs.String("check", "", "run the sanitizer's `TOOLS` (racecheck,synccheck,initcheck,leakcheck or all)")
	if done, code := parseFlags("exec", execUsage, fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		return usageError("exec", execUsage, stderr, "no program given")
	}
	tools, err := ptx2go.ParseCheckTools(*checkFlag)
	if err != nil {
		return usageError("exec", execUsage, stderr, "-check: "+err.Error())
	}
	dir := *libs
	if dir == "" {
		var err error
		if dir, err = cudaLibs(""); err != nil {
			fmt.Fprintf(stderr, "ptx2go exec: %v\n", err)
			return exitFail
		}
	}
	prog := fs.Arg(0)
	cmd := exec.Command(prog, fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	lib := dir
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		lib += string(os.PathListSeparator) + old
	}
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib)
	var status string
	if tools != 0 {
		f, err := os.CreateTemp("", "ptx2go-check-")
		if err != nil {
			fmt.Fprintf(stderr, "ptx2go exec: %v\n", err)
			return exitFail
		}
		f.Close()
		status = f.Name()
		defer os.Remove(status)
		cmd.Env = append(cmd.Env, "PTX2GO_CHECK="+tools.String(), "PTX2GO_CHECK_STATUS="+status)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	err = cmd.Run()
	if err == nil && status != "" && checkErrors(status) {
		return exitFail
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			fmt.Fprintf(stderr, "ptx2go exec: %s: %v\n", prog, ws.Signal())
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "ptx2go exec: %v\n", err)
		return exitFail
	}
	return exitOK
}

// checkErrors reports whether the checked program wrote a number of errors other than 0 to
// the status file (at exit; a program that never got there wrote nothing).
func checkErrors(status string) bool {
	b, err := os.ReadFile(status)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return err == nil && n > 0
}

func runCudaLibs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cuda-libs", flag.ContinueOnError)
	out := fs.String("o", "", "write the libraries to `DIR`")
	if done, code := parseFlags("cuda-libs", cudaLibsUsage, fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return usageError("cuda-libs", cudaLibsUsage, stderr, "no arguments expected")
	}
	dir, err := cudaLibs(*out)
	if err != nil {
		fmt.Fprintf(stderr, "ptx2go cuda-libs: %v\n", err)
		return exitFail
	}
	fmt.Fprintln(stdout, dir)
	return exitOK
}

// cudaLibs returns the directory of the drop-in libraries, building them when they are not
// there. With out empty the directory is the cache's, $PTX2GO_CACHE/cuda/KEY or
// ptx2go/cuda/KEY in the user cache directory, KEY hashing the ptx2go version and the Go
// toolchain's version, target and C compiler; a build happens in a temporary directory renamed
// to KEY when it succeeds, as run -engine go does. With out set the libraries are built there.
func cudaLibs(out string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("the Go toolchain is needed to build the CUDA drop-in libraries, and go is not on PATH")
	}
	env, err := exec.Command(goCmd, "env", "GOVERSION", "GOOS", "GOARCH", "CC", "CGO_ENABLED").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %v", err)
	}
	fields := strings.Fields(string(env))
	if len(fields) != 5 {
		return "", fmt.Errorf("go env: unexpected output %q", env)
	}
	cc, cgo := fields[3], fields[4]
	if cgo != "1" {
		return "", fmt.Errorf("the CUDA drop-in libraries need cgo and a C compiler (go env CGO_ENABLED is %s; install gcc, or set CC)", cgo)
	}
	if _, err := exec.LookPath(cc); err != nil {
		return "", fmt.Errorf("the CUDA drop-in libraries need a C compiler, and %s is not on PATH (install gcc, or set CC)", cc)
	}
	if out != "" {
		if err := buildCudaLibs(goCmd, cc, out); err != nil {
			return "", err
		}
		return filepath.Abs(out)
	}
	h := sha256.New()
	fmt.Fprintf(h, "ptx2go cuda-libs\n%s\n%s", ptx2goVersion(), env)
	key := hex.EncodeToString(h.Sum(nil))[:32]
	var root string
	if d := os.Getenv("PTX2GO_CACHE"); d != "" {
		root = filepath.Join(d, "cuda")
	} else {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory: %v (set PTX2GO_CACHE)", err)
		}
		root = filepath.Join(d, "ptx2go", "cuda")
	}
	dir := filepath.Join(root, key)
	if _, err := os.Stat(filepath.Join(dir, cudaLibNames[len(cudaLibNames)-1])); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o777); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // gone after the rename below
	if err := buildCudaLibs(goCmd, cc, tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, cudaLibNames[len(cudaLibNames)-1])); serr != nil {
			return "", err
		}
	}
	return dir, nil
}

// buildCudaLibs builds the drop-in into dir: the c-shared library from the ptx2go source the
// Go engine builds against, then with cc one small library per CUDA library name, with its
// soname, a version definition of the same name (nvcc's programs ask for
// cudaMalloc@libcudart.so.11.0) and libptx2go-cuda.so as a dependency, found next to it. The
// program's references resolve to libptx2go-cuda.so's unversioned definitions, and however many
// of the names a program loads, they share one libptx2go-cuda.so and one Go runtime. A library
// whose CUDA version gave some names other arguments defines those itself, from
// cmd/ptx2go/cudart/sonames/NAME.c (libcudart.so.12).
func buildCudaLibs(goCmd, cc, dir string) error {
	modDir, err := moduleDir(goCmd)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	build := exec.Command(goCmd, "build", "-buildmode=c-shared", "-ldflags=-extldflags=-Wl,-soname,"+cudaLibCore,
		"-o", filepath.Join(abs, cudaLibCore), modulePath+"/cmd/ptx2go/cudart")
	build.Dir = modDir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: go build failed (%v):\n%s", cudaLibCore, err, strings.TrimSpace(string(msg)))
	}
	os.Remove(filepath.Join(abs, strings.TrimSuffix(cudaLibCore, ".so")+".h")) // cgo's header for C callers: not needed
	tmp, err := os.MkdirTemp("", "ptx2go-cuda-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	empty := filepath.Join(tmp, "empty.c")
	if err := os.WriteFile(empty, []byte("/* The drop-in's entry points are in "+cudaLibCore+". */\n"), 0o666); err != nil {
		return err
	}
	for _, name := range cudaLibNames {
		src, exports := empty, ""
		if own := filepath.Join(modDir, "cmd", "ptx2go", "cudart", "sonames", name+".c"); fileExists(own) {
			src, exports = own, " global: cuda*;"
		}
		vmap := filepath.Join(tmp, name+".map")
		if err := os.WriteFile(vmap, []byte(name+" {"+exports+" local: *; };\n"), 0o666); err != nil {
			return err
		}
		link := exec.Command(cc, "-shared", "-fPIC", "-o", filepath.Join(abs, name), src,
			"-Wl,-soname,"+name, "-Wl,--version-script="+vmap, "-Wl,--no-as-needed",
			"-L"+abs, "-lptx2go-cuda", "-Wl,-rpath,$ORIGIN")
		if msg, err := link.CombinedOutput(); err != nil {
			return fmt.Errorf("linking %s: %s failed (%v):\n%s", name, cc, err, strings.TrimSpace(string(msg)))
		}
	}
	return nil
}

// fileExists reports whether path is a regular file.
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
