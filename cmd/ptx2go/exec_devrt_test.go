package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExecDynamicParallelism runs testdata/cudart/cdp (built with -rdc=true) under the drop-in:
// a tree of grids in the style of cuda-samples' cdpSimplePrint, parents waiting for their
// child grid with the device-side cudaDeviceSynchronize, and a recursion stopped at the
// nesting limit. The reference is computed here from what the CUDA programming guide says the
// launches do.
func TestExecDynamicParallelism(t *testing.T) {
	libs := needCudaLibs(t)
	const grid, block, depth = 2, 2, 3
	// Every thread of every block launches a grid of grid blocks one level deeper; thread 0
	// of each block prints one line. The CTAs of a grid run in any order, so compare sorted.
	var want []string
	for b := range grid {
		want = append(want, fmt.Sprintf("depth 0: block %d launched by the host", b))
	}
	parents, total := grid, grid
	for d := 1; d < depth; d++ {
		for range parents {
			for th := range block {
				for b := range grid {
					want = append(want, fmt.Sprintf("depth %d: block %d launched by thread %d", d, b, th))
				}
			}
		}
		parents *= block * grid
		total += parents
	}
	// The grids' lines come in any CTA order, so each build is checked on its own.
	for _, r := range execBuilds(t, libs, "cdp", fmt.Sprint(grid), fmt.Sprint(block), fmt.Sprint(depth)) {
		checkCDP(t, r, want, total, depth)
	}
}

// checkCDP checks one build's run of cdp: the grids' lines in any order, and the other lines.
func checkCDP(t *testing.T, r buildRun, want []string, total, depth int) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%s build: exit status %d, stderr:\n%s", r.build, r.code, r.errOut)
	}
	out, errOut := r.out, r.errOut
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var got []string
	for _, l := range lines {
		if strings.HasPrefix(l, "depth ") {
			got = append(got, l)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s build: the grids' lines:\n%s\nwant:\n%s", r.build, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var sums []string
	h := make([]int64, 4*100)
	for i := range h {
		h[i] = int64(i%37 - 18)
	}
	for b := range 4 {
		var s int64
		for _, v := range h[b*100 : b*100+100] {
			s += v * v
		}
		sums = append(sums, fmt.Sprintf("sum of squares %d: %d", b, s))
	}
	for _, w := range append([]string{
		fmt.Sprintf("limits: sync depth %d, pending launches 4096", depth),
		fmt.Sprintf("blocks: %d", total),
		"dive: cudaErrorLaunchMaxDepthExceeded",
	}, sums...) {
		if !slices.Contains(lines, w) {
			t.Errorf("%s build: output lacks %q:\n%s", r.build, w, out)
		}
	}
	if !strings.Contains(errOut, "launch nesting depth exceeded") || !strings.Contains(errOut, "nesting depth 24") {
		t.Errorf("%s build: stderr does not report the nesting limit:\n%s", r.build, errOut)
	}
}

// TestExecDriverAPI runs the driver API programs of issue 31 under the drop-in: the JIT linker
// joining two PTX modules (culink), virtual memory management (vmm), the occupancy calculator
// (occupancy) and stream attributes with the L2 controls (attrs), each checked against values
// computed here.
func TestExecDriverAPI(t *testing.T) {
	libs := needCudaLibs(t)
	abs, err := filepath.Abs(cudaCorpus)
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, prog string, args ...string) string {
		code, out, errOut := execProgram(t, libs, prog, args...)
		if code != 0 {
			t.Fatalf("exit status %d, output:\n%s\nstderr:\n%s", code, out, errOut)
		}
		return out
	}
	t.Run("culink", func(t *testing.T) {
		out := run(t, "culink", abs)
		var y [1000]float32
		var sum float64
		for i := range y {
			y[i] = 3*(float32(i)*0.5) + float32(1000-i)
			sum += float64(y[i])
		}
		want := fmt.Sprintf("bad input: 218, error log written\nlinked: 2 units, wall time set\ny[0]=%g y[1]=%g y[999]=%g sum=%.1f\n", y[0], y[1], y[999], sum)
		if out != want {
			t.Errorf("output:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("vmm", func(t *testing.T) {
		out := run(t, "vmm")
		const n = 1 << 20
		var sum float64
		c := make([]float32, n)
		for i := range c {
			c[i] = float32(i%1000) + float32(i/1000)*0.25
			sum += float64(c[i])
		}
		want := fmt.Sprintf("virtual memory management supported: 1\ngranularity: %d\nc[0]=%g c[%d]=%g sum=%.2f\nalias: 12345678 12345678, access flags 3\nfree reserved with mappings: 1\ndone\n",
			2<<20, c[0], n-1, c[n-1], sum)
		if out != want {
			t.Errorf("output:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("occupancy", func(t *testing.T) {
		out := run(t, "occupancy", filepath.Join(abs, "occupancy_kernels.ptx"))
		// CUDA's rules on the emulated device (docs/cuda.md): 2048 threads and 32 CTAs per
		// multiprocessor, 228 KiB of shared memory, warps of 32; the kernel has no static
		// shared memory.
		perSM := func(threads, shared int) int {
			warps := (threads + 31) / 32
			n := min(32, 64/warps)
			if shared > 0 {
				n = min(n, 228<<10/shared)
			}
			return n
		}
		potential := func(dyn func(int) int, limit int) (int, int) {
			best, bestBlocks, block := 0, 0, 0
			for bs := (limit + 31) / 32 * 32; bs > 0; bs -= 32 {
				size := min(bs, limit)
				b := perSM(size, dyn(size))
				if b*size > best {
					best, bestBlocks, block = b*size, b, size
				}
				if best == 2048 {
					break
				}
			}
			return block, bestBlocks
		}
		b1, g1 := potential(func(int) int { return 4096 }, 1024)
		b2, g2 := potential(func(bs int) int { return 96 * bs }, 1024)
		b3, g3 := potential(func(int) int { return 0 }, 200)
		avail := min(227<<10, (228<<10)/5)
		var sum int64
		for i := range 100000 {
			sum += int64(2 * i)
		}
		want := fmt.Sprintf("fixed 4096 bytes: block %d, grid %d per SM\n96 bytes a thread: block %d, grid %d per SM\nlimit 200: block %d, grid %d per SM\nactive blocks of 384 with 20000 bytes: %d\ndynamic shared memory for 5 blocks of 256: %d\nsum %d\n",
			b1, g1, b2, g2, b3, g3, perSM(384, 20000), avail, sum)
		if out != want {
			t.Errorf("output:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("attrs", func(t *testing.T) {
		out := run(t, "attrs")
		var sum int64
		for i := range 1 << 16 {
			sum += int64(6 * (i % 7))
		}
		want := fmt.Sprintf("l2 %d persisting %d window %d (props agree)\npersisting limit %d\nwindow: base ok bytes %d hit 0.6 props 2 1\ncopied sync policy 3\nbad hit ratio: cudaErrorInvalidValue\nsum %d\n",
			40<<20, 30<<20, 128<<20, 30<<20, 4<<16, sum)
		if out != want {
			t.Errorf("output:\n%s\nwant:\n%s", out, want)
		}
	})
}
