package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cudaCorpus holds the CUDA test programs (`make cuda-programs`).
var cudaCorpus = filepath.Join("..", "..", "testdata", "cudart")

// needCudaLibs skips the test where the drop-in cannot be built or the nvcc-built x86-64
// programs cannot run, and otherwise builds the libraries into a temporary directory.
func needCudaLibs(t *testing.T) string {
	t.Helper()
	if goruntime.GOOS != "linux" || goruntime.GOARCH != "amd64" {
		t.Skipf("the CUDA test programs are linux/amd64 binaries; this is %s/%s", goruntime.GOOS, goruntime.GOARCH)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not in PATH")
	}
	cc, err := exec.Command("go", "env", "CC", "CGO_ENABLED").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(cc))
	if len(f) != 2 || f[1] != "1" {
		t.Skipf("the CUDA drop-in needs cgo, and CGO_ENABLED is not 1 (%q): install a C compiler (gcc) to run this test", cc)
	}
	if _, err := exec.LookPath(f[0]); err != nil {
		t.Skipf("the CUDA drop-in needs a C compiler, and %s is not on PATH: install gcc to run this test", f[0])
	}
	dir := t.TempDir()
	if _, err := cudaLibs(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cudaBuilds are the builds of the CUDA test programs (make cuda-programs): nvcc 11.8 and 12.4,
// with -cudart shared (the drop-in's libcudart) and, for some programs, with nvcc's default
// -cudart static (NVIDIA's runtime linked in, talking to the drop-in's libcuda). The first is
// the reference the others must agree with.
var cudaBuilds = []struct {
	name    string
	dir     string // under testdata/cudart
	version int    // what cudaRuntimeGetVersion answers
}{
	{"cuda11.8", "bin", 11080},
	{"cuda12.4", "bin12", 12040},
	{"cuda11.8-static", "bin/static", 11080},
	{"cuda12.4-static", "bin12/static", 12040},
}

// buildRun is the outcome of one build of a test program under the drop-in.
type buildRun struct {
	build       string
	version     int
	code        int
	out, errOut string
}

// execBuilds runs every build there is of a test program under the drop-in.
func execBuilds(t *testing.T, libs, prog string, args ...string) []buildRun {
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
		code := run(append([]string{"exec", "-libs", libs, path}, args...), &stdout, &stderr)
		runs = append(runs, buildRun{b.name, b.version, code, stdout.String(), stderr.String()})
	}
	return runs
}

// execProgram runs every build of a test program under the drop-in, requires them all to
// exit and print as the CUDA 11.8 -cudart shared build does, and returns that build's exit
// status and output.
func execProgram(t *testing.T, libs, prog string, args ...string) (int, string, string) {
	t.Helper()
	runs := execBuilds(t, libs, prog, args...)
	ref := runs[0]
	for _, r := range runs[1:] {
		if r.code != ref.code || r.out != ref.out {
			t.Errorf("%s %s: the %s build exits %d with output %q; the %s build exits %d with %q; its stderr:\n%s", prog, strings.Join(args, " "), r.build, r.code, r.out, ref.build, ref.code, ref.out, r.errOut)
		}
	}
	return ref.code, ref.out, ref.errOut
}

// TestExec runs each CUDA test program under the drop-in, every build of it there is (nvcc 11.8
// and 12.4, -cudart shared and static: cudaBuilds), and checks its output against values
// computed here.
func TestExec(t *testing.T) {
	libs := needCudaLibs(t)
	for _, name := range []string{"libptx2go-cuda.so", "libcudart.so.11.0", "libcudart.so.12", "libcuda.so.1"} {
		if _, err := os.Stat(filepath.Join(libs, name)); err != nil {
			t.Errorf("cuda-libs did not make %s", name)
		}
	}

	// vectoradd_rdc went through nvcc's device link step (-rdc=true -arch=compute_52): its
	// fat binary wrapper lists the translation unit's PTX and libcudadevrt's (compute_90).
	t.Run("vectoradd", func(t *testing.T) {
		for _, run := range []struct {
			prog string
			n    int
		}{{"vectoradd", 50000}, {"vectoradd", 1000}, {"vectoradd_rdc", 3000}} {
			n := run.n
			code, out, errOut := execProgram(t, libs, run.prog, fmt.Sprint(n))
			c := func(i int) float32 { return float32(i)/2 + (2*float32(i) + 1) }
			want := fmt.Sprintf("n=%d blocks=%d c[0]=%.1f c[1]=%.1f c[%d]=%.1f mismatches=0\n", n, (n+255)/256, c(0), c(1), n-1, c(n-1))
			if code != 0 || out != want {
				t.Errorf("%s %d: exit %d, output %q, want 0 and %q; stderr:\n%s", run.prog, n, code, out, want, errOut)
			}
		}
	})

	// sepcomp: two translation units device-linked (-rdc=true); the kernel's module is linked
	// with the one defining its .extern functions and table (frontend.Link), each keeping its
	// own file-local table of the same name.
	t.Run("sepcomp", func(t *testing.T) {
		const n = 1000
		in := func(i int) float32 { return float32(i) * 0.5 }
		want := func(i int) float32 {
			s := in(i)*3 + 1000
			if i%2 == 1 {
				return in(i) - 2000 + s*3 + 9
			}
			return s + s*3 + 7
		}
		code, out, errOut := execProgram(t, libs, "sepcomp")
		w := fmt.Sprintf("n=%d out[0]=%.1f out[1]=%.1f out[%d]=%.1f mismatches=0\n", n, want(0), want(1), n-1, want(n-1))
		if code != 0 || out != w {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, w, errOut)
		}
	})

	// pools: the memory pool family (mempool.go): the default pool's attributes, cudaMallocAsync
	// from it, a pool of the program's own, the used and reserved counters, and graph memory:
	// a captured allocation and an allocation node, launched twice.
	t.Run("pools", func(t *testing.T) {
		code, out, errOut := execProgram(t, libs, "pools")
		want := "supported=1 default-is-current=1 threshold-kept=1\n" +
			"set high to nonzero: cudaErrorInvalidValue, then cudaErrorInvalidValue\n" +
			"default pool used=4000\n" +
			"own pool used=8000 mismatches=0\n" +
			"after free: default used=0 high=4000 own reserved-high=8000\n" +
			"captured graph: last=1299,1299\n" +
			"allocation node: mismatches=0\n" +
			"done\n"
		if code != 0 || out != want {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want, errOut)
		}
	})

	// Thrust: sort (CUB's radix sort, whose CTAs wait on each other through decoupled
	// look-back), reduce, transform, inclusive_scan and sort_by_key on 100000 ints; the
	// program checks each against the C++ library, and this test recomputes what it prints.
	t.Run("thrust", func(t *testing.T) {
		const n = 100000
		in := make([]int32, n)
		r := uint32(1)
		for i := range in {
			r = r*1103515245 + 12345
			in[i] = int32(r>>8)%100000 - 50000
		}
		sorted := slices.Clone(in)
		slices.Sort(sorted)
		var sum int64
		scan := make([]int32, n)
		var acc int32
		for i, x := range sorted {
			sum += int64(x)
			acc += (x % 1000) * (x % 1000) % 1000
			scan[i] = acc
		}
		type pair struct{ key, val int32 }
		pairs := make([]pair, n)
		for i := range pairs {
			pairs[i] = pair{scan[i] % 97, sorted[i]}
		}
		slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(b.key, a.key) })
		want := fmt.Sprintf("sort ok min=%d median=%d max=%d\nreduce ok sum=%d\ntransform+scan ok last=%d\nsort_by_key ok first=%d,%d\n",
			sorted[0], sorted[n/2], sorted[n-1], sum, scan[n-1], pairs[0].key, pairs[0].val)
		code, out, errOut := execProgram(t, libs, "thrust")
		if code != 0 || out != want {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want, errOut)
		}
	})

	// perthread is built with --default-stream per-thread, so it calls the _ptsz and _ptds
	// entry points: four host threads each fill, scale and sum a vector of their own.
	t.Run("perthread", func(t *testing.T) {
		var want strings.Builder
		for th := range 4 {
			n := 10000 + th*1000
			var sum uint64
			for i := range n {
				sum += uint64(3 * (th*100 + i%10))
			}
			fmt.Fprintf(&want, "thread %d sum=%d\n", th, sum)
		}
		want.WriteString("cudaSuccess\n")
		code, out, errOut := execProgram(t, libs, "perthread")
		if code != 0 || out != want.String() || strings.Contains(errOut, "not supported") {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want.String(), errOut)
		}
	})

	t.Run("reduction", func(t *testing.T) {
		const n = 100000
		coef := []uint64{3, 1, 4, 1}
		var sum uint64
		for i := range n {
			sum += uint64(i*7919%1000) * coef[i%4]
		}
		code, out, errOut := execProgram(t, libs, "reduction")
		want := fmt.Sprintf("total=%d via address=%d blocks=%d/%d coef size=16\n", sum, sum, (n+255)/256, (n+255)/256)
		if code != 0 || out != want {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want, errOut)
		}
	})

	// Device printf: C's formats, each launch's output printed at the next synchronization
	// (after the host's own output before it; a blocking copy is one, and so is the end of the
	// program), the limits, and kernels' malloc and free.
	t.Run("printf", func(t *testing.T) {
		d, u := 12345.6789, 300
		var want strings.Builder
		fmt.Fprintf(&want, "limits printf=%d heap=%d\n", 1<<20, 8<<20)
		fmt.Fprintf(&want, "limits printf=%d heap=%d\n", 2<<20, 16<<20)
		want.WriteString("host before sync\n")
		fmt.Fprintf(&want, "%s|%d|%+.3e|%08.3f|%d|%x|%X|%o|%c|%-4d|%5.2f|%%\n", "device", -1234567890123, d, d, u, u, u, u, 'A'+u%26, -7, d)
		want.WriteString("-- grid\n")
		var grid []string
		for b := range 3 {
			for th := range 4 {
				grid = append(grid, fmt.Sprintf("block %d thread %d of 4: %d", b, th, b*100+th))
			}
		}
		want.WriteString("\x00grid\n-- heap\nhuge malloc failed\n")
		total := 0
		sum := func(t int) int { n := t%7 + 1; return t * n * (n - 1) / 2 }
		for th := range 64 {
			total += sum(th)
		}
		fmt.Fprintf(&want, "heap sums total=%d out[5]=%d out[63]=%d\nhost done\nprinted at exit\n", total, sum(5), sum(63))
		// The CTAs of a launch run in parallel, so the grid's lines come in any CTA order, each
		// CTA's in thread order; so each build is checked on its own.
		for _, r := range execBuilds(t, libs, "printf") {
			lines := strings.Split(r.out, "\n")
			if i := slices.Index(lines, "-- grid"); i >= 0 && i+len(grid) < len(lines) {
				got := slices.Clone(lines[i+1 : i+1+len(grid)])
				for b := range 3 {
					j := slices.Index(got, grid[4*b])
					if j < 0 || j+4 > len(got) || !slices.Equal(got[j:j+4], grid[4*b:4*b+4]) {
						t.Errorf("%s build: CTA %d's lines are not in thread order: %q", r.build, b, got)
					}
				}
				slices.Sort(got)
				lines = slices.Replace(lines, i+1, i+1+len(grid), "\x00grid")
				if !slices.Equal(got, grid) {
					t.Errorf("%s build: grid lines %q, want %q in any CTA order", r.build, got, grid)
				}
			}
			if got := strings.Join(lines, "\n"); r.code != 0 || got != want.String() {
				t.Errorf("%s build: exit %d, output %q, want 0 and %q; stderr:\n%s", r.build, r.code, got, want.String(), r.errOut)
			}
		}
	})

	// A failed device assert: the output of the launch before it, CUDA's line on stderr, and
	// cudaErrorAssert from the next synchronization on; the program's exit status is its own.
	t.Run("assert", func(t *testing.T) {
		src, err := os.ReadFile(filepath.Join(cudaCorpus, "assert.cu"))
		if err != nil {
			t.Fatal(err)
		}
		line := slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.Contains(l, "assert(v[i] >= 0);") }) + 1
		code, out, errOut := execProgram(t, libs, "assert")
		var want strings.Builder
		for i := range 30 {
			fmt.Fprintf(&want, "checked %d\n", i)
		}
		want.WriteString("passing launch: cudaSuccess, sync: cudaSuccess\n")
		for i := range 8 {
			fmt.Fprintf(&want, "checked %d\n", i)
		}
		want.WriteString("synchronize: cudaErrorAssert\nmalloc after: cudaErrorAssert\nlast error: cudaErrorAssert\n")
		if code != 3 || out != want.String() {
			t.Errorf("exit %d, output %q, want 3 and %q; stderr:\n%s", code, out, want.String(), errOut)
		}
		// v[37] is negative: the second launch's thread 5 of block 0 (i = 5 of v+32) fails.
		msg := fmt.Sprintf("testdata/cudart/assert.cu:%d: void nonNegative(const int *, int): block: [0,0,0], thread: [5,0,0] Assertion `v[i] >= 0` failed.\n", line)
		if line == 0 || !strings.Contains(errOut, "\n"+msg) && !strings.HasPrefix(errOut, msg) {
			t.Errorf("stderr lacks the line %q:\n%s", msg, errOut)
		}
	})

	// Host-visible memory: the host writes managed memory and __managed__ variables, kernels
	// update them, and the host reads them without copies; the same for mapped page-locked
	// memory and registered malloc memory, whose device pointers are their host pointers.
	t.Run("managed", func(t *testing.T) {
		const n = 1000
		code, out, errOut := execProgram(t, libs, "managed")
		var sum float64
		for i := range n {
			sum += float64(float32(i)*2.5 + 1)
		}
		var hs int64
		for i := range n {
			hs += int64((i - 500) * (i - 500))
		}
		want := "prefetch: variable=cudaSuccess pageable=cudaErrorInvalidValue beyond=cudaErrorInvalidValue device 3=cudaErrorInvalidDevice\n" +
			fmt.Sprintf("managed: counter=%d x[0]=%.1f x[999]=%.1f sum=%.1f type=3\n", 7+n, 1.0, 999*2.5+1, sum) +
			fmt.Sprintf("mapped: same=1 h[0]=%d h[999]=%d sum=%d\n", 500*500, 499*499, hs) +
			fmt.Sprintf("registered: same=1 r[1]=%d r[999]=%d again=cudaErrorHostMemoryAlreadyRegistered\n", 9, 2997*2997) +
			"unregister again: cudaErrorHostMemoryNotRegistered\n"
		if code != 0 || out != want {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want, errOut)
		}
	})

	// A cooperative launch: grid.sync() between rounds in which each CTA reads what the next
	// one wrote; the grid is 8 CTAs (the device fits 32 CTAs of 64 threads per multiprocessor).
	t.Run("coop", func(t *testing.T) {
		const blocks, threads, rounds = 8, 64, 5
		code, out, errOut := execProgram(t, libs, "coop")
		var want strings.Builder
		fmt.Fprintf(&want, "cooperative attribute=1 blocks=%d launch=cudaSuccess sync=cudaSuccess\n", blocks)
		v := make([]int, blocks*threads)
		for r := range rounds {
			for i := range v {
				v[i] += r + 1
			}
			fmt.Fprintf(&want, "round %d:", r)
			for b := range blocks {
				next := (b + 1) % blocks
				s := 0
				for _, x := range v[next*threads : (next+1)*threads] {
					s += x
				}
				fmt.Fprintf(&want, " %d", s)
			}
			want.WriteString("\n")
		}
		want.WriteString("too big: cudaErrorCooperativeLaunchTooLarge\n")
		if code != 0 || out != want.String() {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want.String(), errOut)
		}
	})

	t.Run("streams", func(t *testing.T) {
		const ns, n = 4, 1 << 16
		var want strings.Builder
		for s := range ns {
			sum := 0
			for j := range n / ns {
				sum += (s*(n/ns) + j) % 100 * (s + 1)
			}
			fmt.Fprintf(&want, "stream %d: sum=%d query=cudaSuccess\n", s, sum)
		}
		want.WriteString("elapsed>0: yes event query=cudaSuccess callbacks=44\n")
		code, out, errOut := execProgram(t, libs, "streams")
		if code != 0 || out != want.String() {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want.String(), errOut)
		}
	})

	// Each fault is the CUDA error a GPU gives, sticky, and ptx2go names the PTX line (of the
	// PTX it writes to $PTX2GO_PTX_DIR), kernel, CTA and thread: thread 101 is block 1, thread 37.
	t.Run("fault", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("PTX2GO_PTX_DIR", dir)
		for _, c := range []struct {
			mode, err, desc, kind, kernel, instr string
		}{
			{"oob", "cudaErrorIllegalAddress", "an illegal memory access was encountered", "out-of-bounds access at global address", "_Z3oobPi", "st.global"},
			{"misaligned", "cudaErrorMisalignedAddress", "misaligned address", "misaligned access at global address", "_Z10misalignedPi", "st.global"},
			{"trap", "cudaErrorLaunchFailure", "unspecified launch failure", "trap", "_Z4trapPi", "trap;"},
		} {
			code, out, errOut := execProgram(t, libs, "fault", c.mode)
			want := fmt.Sprintf("synchronize: %s (%s)\nmemcpy after: %s\nlast error: %s\n", c.err, c.desc, c.err, c.err)
			if code != 0 || out != want {
				t.Errorf("%s: exit %d, output %q, want 0 and %q; stderr:\n%s", c.mode, code, out, want, errOut)
			}
			for _, s := range []string{"ptx2go: kernel fault, " + c.err, c.kind, "(kernel " + c.kernel + ", CTA (1,0,0), thread (37,0,0))"} {
				if !strings.Contains(errOut, s) {
					t.Errorf("%s: stderr lacks %q:\n%s", c.mode, s, errOut)
				}
			}
			m := regexp.MustCompile(`fault\.compute_80\.ptx:([0-9]+): `).FindStringSubmatch(errOut)
			src, err := os.ReadFile(filepath.Join(dir, "fault.compute_80.ptx"))
			if m == nil || err != nil {
				t.Errorf("%s: no PTX line in the fault (%v):\n%s", c.mode, err, errOut)
				continue
			}
			lines := strings.Split(string(src), "\n")
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > len(lines) || !strings.Contains(lines[n-1], c.instr) {
				t.Errorf("%s: the fault names line %s of the PTX, which is not a %s instruction", c.mode, m[1], c.instr)
			}
		}
	})

	t.Run("sass-only", func(t *testing.T) {
		code, out, errOut := execProgram(t, libs, "vectoradd_sass")
		if code != 1 || !strings.Contains(out, "cudaErrorNoKernelImageForDevice") {
			t.Errorf("exit %d, output %q; want 1 and cudaErrorNoKernelImageForDevice", code, out)
		}
		if !strings.Contains(errOut, "carries no PTX, only SASS (sm_80)") || !strings.Contains(errOut, "-gencode arch=compute_80,code=compute_80") {
			t.Errorf("stderr does not say to rebuild with PTX:\n%s", errOut)
		}
	})

	t.Run("threads", func(t *testing.T) {
		const n = 4096
		var want strings.Builder
		for th := range 4 {
			sum := 0
			for i := range n {
				sum += i * (th + 1)
			}
			last := "cudaSuccess"
			if th == 0 {
				last = "cudaErrorInvalidConfiguration"
			}
			fmt.Fprintf(&want, "thread %d: sum=%d mismatches=0 last error=%s\n", th, sum, last)
		}
		code, out, errOut := execProgram(t, libs, "threads")
		if code != 0 || out != want.String() {
			t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want.String(), errOut)
		}
	})

	// info checks the device description against the emulated device's specification
	// (docs/cuda.md: compute capability 8.0, ptx2go's limits, GOMAXPROCS multiprocessors), each
	// kernel's sharedSizeBytes (its own shared arrays only), the occupancy calculator (2048 threads and 32 blocks per multiprocessor), pitched copies and
	// the error paths: a double free, cudaGetLastError and cudaPeekAtLastError after a launch
	// with too many threads, an unsupported entry point and a managed allocation of 0 bytes.
	t.Run("info", func(t *testing.T) {
		sms := goruntime.GOMAXPROCS(0)
		want := "devices=1 current=0 runtime=%d driver>=runtime:1\n" +
			"name=ptx2go CPU emulation (sm_80) cc=8.0 warp=32 maxThreads=1024 dims=1024,1024,64 grid=2147483647,65535,65535\n" +
			fmt.Sprintf("shared=49152 optin=%d sms=%d managed=1 map=1 concurrent=0 reserved=0\n", 227<<10, sms) +
			fmt.Sprintf("attr cc major=8 sms=%d bad device=cudaErrorInvalidDevice\n", sms) +
			"tile: shared=1024 maxThreads=1024\nreverse: shared=4096\n" +
			fmt.Sprintf("occupancy(256)=8 potential block=1024 minGrid=%d\n", 2*sms) +
			"pitch=1024 copy2D=cudaSuccess h[0][0]=255 h[3][255]=0\n" +
			"pointer types: device=2 host=0\nmeminfo: used>=pitch*4:1\n" +
			"free twice: cudaSuccess then cudaErrorInvalidValue\n" +
			"last error: cudaErrorInvalidValue, then cudaSuccess\n" +
			"launch 2048 threads: peek cudaErrorInvalidConfiguration, last cudaErrorInvalidConfiguration, peek cudaSuccess\n" +
			"managed of 0 bytes: cudaSuccess\narray: cudaSuccess cudaSuccess, mipmapped: cudaErrorNotSupported cudaErrorNotSupported\n" +
			"after the unsupported call, last error: cudaErrorNotSupported, then cudaSuccess\n" +
			"error 700: cudaErrorIllegalAddress / an illegal memory access was encountered\n" +
			"bad arguments: cudaErrorInvalidValue cudaErrorInvalidValue\nsync: cudaSuccess\n"
		// Each build reports its own runtime's version.
		for _, r := range execBuilds(t, libs, "info") {
			if w := fmt.Sprintf(want, r.version); r.code != 0 || r.out != w {
				t.Errorf("%s build: exit %d, output\n%s\nwant\n%s\nstderr:\n%s", r.build, r.code, r.out, w, r.errOut)
			}
			if n := strings.Count(r.errOut, "cudaMallocMipmappedArray is not supported"); n != 1 {
				t.Errorf("%s build: the unsupported cudaMallocMipmappedArray is reported %d times, want once:\n%s", r.build, n, r.errOut)
			}
		}
	})

	// graphs builds, instantiates, updates, clones and nests a CUDA graph, captures one from two
	// streams that fork and join through events, and copies a box with cudaMemcpy3D; each run
	// of a graph reports the sum of y = fill + a*x, computed here from x[i] = i % 17.
	t.Run("graphs", func(t *testing.T) {
		const n = 1000
		x := make([]int, n)
		for i := range x {
			x[i] = i % 17
		}
		sum := func(fill, a int) int {
			s := 0
			for _, v := range x {
				s += fill + a*v
			}
			return s
		}
		// The box: 3 ints by 2 rows by 2 slices at (2, 1, 1) of x seen as an 8x4x3 array.
		hash := 0
		for z := 1; z < 3; z++ {
			for y := 1; y < 3; y++ {
				for i := 2; i < 5; i++ {
					hash = hash*3 + x[z*32+y*8+i]
				}
			}
		}
		want := "manual: nodes=6 roots=3 kernel type=0 host type=3\n" +
			fmt.Sprintf("launch 0: a=2 sum=%d\nlaunch 1: a=2 sum=%d\n", sum(3, 2), sum(3, 2)) +
			fmt.Sprintf("exec set params: a=5 sum=%d\n", sum(3, 5)) +
			fmt.Sprintf("exec update: result=0 a=7 sum=%d\n", sum(3, 7)) +
			fmt.Sprintf("clone: a=7 sum=%d\nchild graph: type=4 a=7 sum=%d\n", sum(3, 7), sum(3, 7)) +
			"capture: status 1 0, ran while capturing=0 nodes=5 roots=2\n" +
			fmt.Sprintf("captured graph: a=4 sum=%d\n", sum(0, 4)) +
			"end capture of a stream not capturing: cudaErrorStreamCaptureUnmatched\n" +
			"capture the legacy stream: cudaErrorStreamCaptureUnsupported\n" +
			fmt.Sprintf("memcpy3D: box hash=%d\nsync: cudaSuccess\n", hash)
		code, out, errOut := execProgram(t, libs, "graphs")
		if code != 0 || out != want {
			t.Errorf("exit %d, output\n%s\nwant\n%s\nstderr:\n%s", code, out, want, errOut)
		}
	})

	// bench measures; here it only has to run and report every figure.
	t.Run("bench", func(t *testing.T) {
		re := regexp.MustCompile(`^empty kernel launch \+ synchronize: [0-9.]+ us \(20 launches\)\n` +
			`cudaMemcpy 256 MiB host to device: [0-9.]+ GB/s\ncudaMemcpy 256 MiB device to host: [0-9.]+ GB/s\n` +
			`cudaMemcpy 256 MiB device to device: [0-9.]+ GB/s\n$`)
		for _, r := range execBuilds(t, libs, "bench", "20") {
			if r.code != 0 || !re.MatchString(r.out) {
				t.Errorf("%s build: exit %d, output %q; stderr:\n%s", r.build, r.code, r.out, r.errOut)
			}
		}
	})

	// The driver API program loads PTX text and a fat binary with compressed PTX; driver_ptsz
	// is the same program built with CUDA_API_PER_THREAD_DEFAULT_STREAM, which calls the
	// _ptsz and _ptds entry points.
	for _, c := range [][2]string{{"driver", "drv_kernels.ptx"}, {"driver", "drv_kernels.fatbin"}, {"driver_ptsz", "drv_kernels.ptx"}} {
		prog, image := c[0], c[1]
		t.Run(prog+"/"+image, func(t *testing.T) {
			const n = 10000
			y := func(i int) float32 {
				x, v := float32(i), float32(1)
				v = 2*x + v
				return 0.5*x + v
			}
			code, out, errOut := execProgram(t, libs, prog, filepath.Join(cudaCorpus, image))
			want := "cuGetProcAddress: cuMemAlloc is cuMemAlloc_v2, unknown name 500 (NULL)\n" +
				fmt.Sprintf("address range: base is the allocation, %d bytes; memory type 2\n", n*4) +
				"devices=1 cc=8.0 driver>=11080: yes\n" +
				fmt.Sprintf("y[0]=%.1f y[1]=%.1f y[%d]=%.1f launches=2 (4 bytes) mismatches=0\n", y(0), y(1), n-1, y(n-1))
			m := 2*float32(n-1) + 3
			want += fmt.Sprintf("managed m[%d]=%.1f registered y[%d]=%.1f same=1\n", n-1, m, n-1, 2*m+y(n-1))
			if code != 0 || out != want {
				t.Errorf("exit %d, output %q, want 0 and %q; stderr:\n%s", code, out, want, errOut)
			}
		})
	}
}

// TestCudaStubs checks that unimplemented.c (make cuda-stubs) stubs no function the drop-in
// implements, which would not link, and that the registration entry points are implemented.
func TestCudaStubs(t *testing.T) {
	dir := filepath.Join("cudart")
	stubs, err := os.ReadFile(filepath.Join(dir, "unimplemented.c"))
	if err != nil {
		t.Fatal(err)
	}
	var stubbed []string
	for l := range strings.Lines(string(stubs)) {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "STUB("); ok {
			stubbed = append(stubbed, strings.TrimSuffix(name, ")"))
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var exported []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.Lines(string(src)) {
			if name, ok := strings.CutPrefix(strings.TrimSpace(l), "//export "); ok {
				exported = append(exported, name)
			}
		}
	}
	if len(stubbed) < 500 || len(exported) < 100 {
		t.Fatalf("%d stubs and %d exports: unimplemented.c or the exports are missing", len(stubbed), len(exported))
	}
	for _, e := range exported {
		if slices.Contains(stubbed, e) {
			t.Errorf("%s is both exported and stubbed: run make cuda-stubs", e)
		}
	}
	for _, e := range []string{"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
		"__cudaRegisterFunction", "__cudaRegisterVar", "__cudaRegisterManagedVar", "__cudaPushCallConfiguration",
		"__cudaPopCallConfiguration", "__cudaInitModule", "cudaLaunchKernel", "cuLaunchKernel", "cuGetProcAddress"} {
		if !slices.Contains(exported, e) {
			t.Errorf("%s is not implemented", e)
		}
	}
}

// TestExecUsage checks exec's command line errors, which need no libraries.
func TestExecUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"exec"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "no program given") {
		t.Errorf("exec without a program: exit %d, stderr %q; want %d and a usage error", code, stderr.String(), exitUsage)
	}
	stderr.Reset()
	missing := filepath.Join(t.TempDir(), "missing")
	if code := run([]string{"exec", "-libs", t.TempDir(), missing}, &stdout, &stderr); code != exitFail || !strings.Contains(stderr.String(), missing) {
		t.Errorf("exec of a missing program: exit %d, stderr %q; want %d and its name", code, stderr.String(), exitFail)
	}
}
