# ptx2go build, test and corpus targets. Only Go is needed, except for `make ptx` (clang-19
# and nvcc) and `make gcc-ptx` (GCC's nvptx offload compiler).
GO ?= go
CLANG ?= clang-19
NVCC ?= nvcc
PTX_FLAGS = -include testdata/cuda/cuda_shim.h --cuda-device-only -nocudainc -nocudalib \
	--cuda-path=/nonexistent --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx75 -S
NVCC_FLAGS = -include testdata/cuda/nvcc_shim.h -ptx -arch=compute_80 -O3
CUDA_SRCS = $(wildcard testdata/cuda/*.cu)
# Sources that need CUDA's own headers (cooperative groups): nvcc only, with -lineinfo.
NVCC_SRCS = $(wildcard testdata/cuda/nvcc/*.cu)

.PHONY: build test demo ptx fmt-check fuzz bench cuda-libs cuda-stubs cuda-programs cuda11-programs cuda12-programs gocorpus generate

build:
	$(GO) build ./...

# make test first writes the Go source engine's corpus packages (make gocorpus): every suite
# then runs every case on both engines, and a missing package is a failure, not a skip. vet
# leaves out those 2M lines of generated code (the curated ones under generated/ are vetted).
test: gocorpus
	$(GO) vet $$($(GO) list ./... | grep -v '/internal/e2e/gocorpus/') ./testdata/kernelcases
	PTX2GO_GOCORPUS=require $(GO) test ./...
	$(GO) test -race ./internal/e2e/race

# Runs the vecadd kernel on the CPU: c = a + b for the 1000 float32 values of
# testdata/demo/a.npy and b.npy (made by `go run ./testdata/demo -gen testdata/demo`), on 4
# CTAs of 256 threads, and prints the inputs and the first values of the result.
demo:
	@set -e; out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	echo "ptx2go run testdata/ptx/vecadd.ptx -grid 4 -block 256 -arg zeros:4000 -arg @testdata/demo/a.npy -arg @testdata/demo/b.npy -arg 1000 -out $$out"; \
	$(GO) run ./cmd/ptx2go run testdata/ptx/vecadd.ptx -grid 4 -block 256 \
		-arg zeros:4000 -arg @testdata/demo/a.npy -arg @testdata/demo/b.npy -arg 1000 -out $$out; \
	$(GO) run ./testdata/demo testdata/demo/a.npy testdata/demo/b.npy $$out/arg0.bin

# Regenerates, for every testdata/cuda/*.cu, testdata/ptx/*.ptx (-O2), testdata/ptx/O0/*.ptx (-O0)
# and testdata/ptx/fast/*.ptx (-O2 -ffp-contract=fast, which lets the back end fuse any a*b+c
# into an fma) with clang-19, and testdata/ptx/nvcc/*.ptx with nvcc (CUDA 11.8: Debian's
# nvidia-cuda-toolkit, in the non-free component). clang-19 already defaults to
# -ffp-contract=fast for CUDA, so today the fast files equal the -O2 ones; they pin the flag in
# case the default changes. --cuda-path=/nonexistent keeps clang from using an installed
# toolkit, so its output does not depend on one. testdata/cuda/nvcc/*.cu need CUDA's headers and
# are compiled by nvcc only, with -lineinfo (their .file paths made relative to the checkout);
# so are testdata/cuda/devrt/*.cu, kernels that launch kernels, with -rdc=true.
ptx:
	@mkdir -p testdata/ptx/O0 testdata/ptx/fast testdata/ptx/nvcc
	@for f in $(CUDA_SRCS); do \
		n=$$(basename $$f .cu); \
		echo "clang -O2 / -O0 / -O2 -ffp-contract=fast, nvcc -O3 $$f"; \
		$(CLANG) $(PTX_FLAGS) -O2 $$f -o testdata/ptx/$$n.ptx || exit 1; \
		$(CLANG) $(PTX_FLAGS) -O0 $$f -o testdata/ptx/O0/$$n.ptx || exit 1; \
		$(CLANG) $(PTX_FLAGS) -O2 -ffp-contract=fast $$f -o testdata/ptx/fast/$$n.ptx || exit 1; \
		$(NVCC) $(NVCC_FLAGS) $$f -o testdata/ptx/nvcc/$$n.ptx || exit 1; \
	done
	@for f in $(NVCC_SRCS); do \
		n=$$(basename $$f .cu); \
		echo "nvcc -O3 -lineinfo $$f"; \
		$(NVCC) -ptx -arch=compute_80 -O3 -lineinfo $$f -o testdata/ptx/nvcc/$$n.ptx || exit 1; \
		sed -i 's|"$(CURDIR)/|"|' testdata/ptx/nvcc/$$n.ptx; \
	done
	@mkdir -p testdata/ptx/devrt
	@for f in $(wildcard testdata/cuda/devrt/*.cu); do \
		n=$$(basename $$f .cu); \
		echo "nvcc -rdc=true -O3 -lineinfo $$f"; \
		$(NVCC) -ptx -rdc=true -arch=compute_80 -O3 -lineinfo $$f -o testdata/ptx/devrt/$$n.ptx || exit 1; \
		sed -i 's|"$(CURDIR)/|"|' testdata/ptx/devrt/$$n.ptx; \
	done

# Regenerates the sanitizer's test kernels (testdata/sanitizer/*.cu, run by
# internal/e2e/sanitizer): nvcc -lineinfo and clang-19 -gline-tables-only, so that the PTX has
# the .loc lines the reports name (source paths made relative to the checkout).
.PHONY: sanitizer-ptx
sanitizer-ptx:
	@for f in testdata/sanitizer/*.cu; do \
		n=$$(basename $$f .cu); \
		echo "nvcc -O3 -lineinfo / clang -O2 -gline-tables-only $$f"; \
		$(NVCC) -ptx -arch=compute_80 -O3 -lineinfo $$f -o testdata/sanitizer/$$n.nvcc.ptx || exit 1; \
		$(CLANG) $(PTX_FLAGS) -O2 -gline-tables-only $$f -o testdata/sanitizer/$$n.clang.ptx || exit 1; \
		sed -i 's|"$(CURDIR)/|"|' testdata/sanitizer/$$n.nvcc.ptx testdata/sanitizer/$$n.clang.ptx; \
	done
	$(GO) run ./cmd/ptx2go generate -check -pkg bugsgen -o internal/e2e/sanitizer/bugsgen/bugsgen.go testdata/sanitizer/bugs.nvcc.ptx
	$(GO) run ./cmd/ptx2go generate -check -pkg bugsclang -o internal/e2e/sanitizer/bugsclang/bugsclang.go testdata/sanitizer/bugs.clang.ptx

fmt-check:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Fuzzes the parser (print/parse round trip), the whole pipeline (compile, then launch under
# a deadline: no input may panic or hang) and the SIMT machine against the reference
# interpreter (random programs with barriers in loops and calls in divergent code), each for
# FUZZTIME (make fuzz FUZZTIME=10m).
FUZZTIME = 5m
fuzz: gocorpus
	$(GO) test -run '^$$' -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./frontend
	$(GO) test -run '^$$' -fuzz='^FuzzCompileLaunch$$' -fuzztime=$(FUZZTIME) ./internal/e2e/fuzz
	$(GO) test -run '^$$' -fuzz='^FuzzSIMT$$' -fuzztime=$(FUZZTIME) ./internal/e2e/fuzz

# Parse and build throughput on >= 5 MB modules made from the corpus (MB/s and allocations),
# and kernel execution against hand-written Go (internal/e2e/bench: ns/op, ns/lane-instr).
# Parse and build throughput (frontend, ssa), then one table of kernel timings with one worker:
# hand-written Go, the generated Go engine and the closure engine, and their ratios, all from
# the same `go test -bench` run, in process CPU time per run (cpu-ns/op). Each benchmark runs
# BENCH_COUNT times (each round runs every engine of a kernel in turn) and the table keeps
# its least time: on a shared machine neighbours only ever add time. The last two columns are
# the worker scaling of each engine: wall time (ns/op) with one worker over wall time with
# Workers at its default (GOMAXPROCS, all cores), the least of each; CPU time cannot show it.
BENCH_KERNELS = VecAdd|Saxpy|Collatz|MatmulTiled|Reduce|Fib|ShortIfs|Scan|Curand
BENCH_COUNT = 5
bench: gocorpus
	$(GO) test -run '^$$' -bench . -benchmem ./frontend ./ssa
	@$(GO) test -run '^$$' -bench '^Benchmark($(BENCH_KERNELS))' -count $(BENCH_COUNT) ./internal/e2e/bench | tee /dev/stderr | awk ' \
		function least(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v } \
		function scale(one, all, k) { return (k in one && k in all) ? sprintf("%.2fx", one[k] / all[k]) : "-" } \
		/^Benchmark/ { \
			name = $$1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$$/, "", name); wall = $$3 + 0; ns = wall; \
			for (i = 4; i <= NF; i++) if ($$i == "cpu-ns/op") ns = $$(i-1) + 0; \
			if (name ~ /engine=closure\/workers=1$$/) { sub(/\/.*/, "", name); if (!(name in cl)) order[++n] = name; least(cl, name, ns); least(cl1, name, wall) } \
			else if (name ~ /engine=go\/workers=1$$/) { sub(/\/.*/, "", name); least(gen, name, ns); least(gen1, name, wall) } \
			else if (name ~ /engine=closure\/workers=default$$/) { sub(/\/.*/, "", name); least(clall, name, wall) } \
			else if (name ~ /engine=go\/workers=default$$/) { sub(/\/.*/, "", name); least(genall, name, wall) } \
			else if (name ~ /Go(\/fma32)?$$/) { sub(/Go(\/fma32)?$$/, "", name); least(hand, name, ns) } \
		} \
		END { \
			printf "\nProcess CPU time per run (cpu-ns/op), which neighbours on a shared machine inflate less than wall time: the least of $(BENCH_COUNT) runs.\n"; \
			printf "Worker scaling: wall time with 1 worker over wall time with all %d cores (Workers at its default), the least of $(BENCH_COUNT) runs of each.\n", cores; \
			printf "\n| kernel (1 worker) | hand-written Go | generated | closure | generated / Go | closure / Go | closure / generated | all cores: generated | all cores: closure |\n"; \
			printf "|---|---|---|---|---|---|---|---|---|\n"; \
			for (i = 1; i <= n; i++) { k = order[i]; \
				g = (k in gen) ? sprintf("%.1f ms", gen[k] / 1e6) : "-"; \
				gr = (k in gen) ? sprintf("%.1fx", gen[k] / hand[k]) : "-"; \
				cg = (k in gen) ? sprintf("%.2fx", cl[k] / gen[k]) : "-"; \
				printf "| %s | %.1f ms | %s | %.1f ms | %s | %.1fx | %s | %s | %s |\n", k, hand[k] / 1e6, g, cl[k] / 1e6, gr, cl[k] / hand[k], cg, scale(gen1, genall, k), scale(cl1, clall, k) } \
		}' cores=$$(nproc)

# The kernel benchmarks of `make bench` (BENCH_KERNELS, BENCH_COUNT rounds) on the git revision
# REV and on the working tree in one run, round by round, compared with benchstat (from the Go
# module proxy through `go run`; CI never runs this): make bench-compare REV=main~3. REV is
# checked out in a temporary git worktree; both trees get their engine=go corpus. See
# internal/e2e/bench/compare.sh (BENCHSTAT_FLAGS, BENCH_COMPARE_DIR).
.PHONY: bench-compare
bench-compare:
	@test -n "$(REV)" || { echo "usage: make bench-compare REV=<git revision>" >&2; exit 2; }
	GO=$(GO) sh internal/e2e/bench/compare.sh '$(REV)' '$(BENCH_KERNELS)' '$(BENCH_COUNT)'

# The instructions one launch of each kernel executes (closure engine, one worker) on the git
# revision REV and on the working tree, counted by valgrind's cachegrind, which a busy machine
# does not disturb: make bench-instructions REV=main~3. See internal/e2e/bench/instructions.sh.
.PHONY: bench-instructions
bench-instructions:
	@test -n "$(REV)" || { echo "usage: make bench-instructions REV=<git revision>" >&2; exit 2; }
	GO=$(GO) sh internal/e2e/bench/instructions.sh '$(REV)' '$(BENCH_INSTR_KERNELS)'

BENCH_INSTR_KERNELS = VecAdd Saxpy Collatz MatmulTiled Reduce Fib

# Regenerates testdata/ptx/gcc/*.ptx from testdata/gcc/*.c with GCC's nvptx offload compiler
# (Debian/Ubuntu: apt-get install gcc-12-offload-nvptx). CI never runs this. The host gcc
# streams the offloaded code (OpenMP target / declare target, OpenACC) as LTO into the .o;
# the accel driver then runs the nvptx lto1 on it and -S writes GCC's PTX unchanged.
# No -fPIC for the accel step: with it, GCC 12 makes local aliases for recursive
# functions, which nvptx rejects ("alias definitions not supported").
GCC12 ?= gcc-12
GCC_NVPTX ?= x86_64-linux-gnu-accel-nvptx-none-gcc-12
GCC_NVPTX_FLAGS = -xlto -m64 -foffload-abi=lp64 -O2 -S
GCC_OMP = -fopenmp -fno-openacc
GCC_ACC = -fopenacc -fno-openmp

.PHONY: gcc-ptx
gcc-ptx:
	@mkdir -p testdata/ptx/gcc
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "gcc-12 nvptx testdata/gcc/funcs.c"; \
	$(GCC12) -fopenmp -foffload=nvptx-none -O2 -c testdata/gcc/funcs.c -o $$tmp/funcs.o; \
	$(GCC_NVPTX) $(GCC_NVPTX_FLAGS) -mgomp $(GCC_OMP) $$tmp/funcs.o -o testdata/ptx/gcc/funcs.ptx; \
	$(GCC_NVPTX) $(GCC_NVPTX_FLAGS) -misa=sm_80 $(GCC_OMP) $$tmp/funcs.o -o testdata/ptx/gcc/funcs_sm80.ptx; \
	echo "gcc-12 nvptx testdata/gcc/omp_saxpy.c"; \
	$(GCC12) -fopenmp -foffload=nvptx-none -O2 -c testdata/gcc/omp_saxpy.c -o $$tmp/omp_saxpy.o; \
	$(GCC_NVPTX) $(GCC_NVPTX_FLAGS) -mgomp $(GCC_OMP) $$tmp/omp_saxpy.o -o testdata/ptx/gcc/omp_saxpy.ptx; \
	echo "gcc-12 nvptx testdata/gcc/acc_vecadd.c"; \
	$(GCC12) -fopenacc -foffload=nvptx-none -O2 -c testdata/gcc/acc_vecadd.c -o $$tmp/acc_vecadd.o; \
	$(GCC_NVPTX) $(GCC_NVPTX_FLAGS) -misa=sm_80 $(GCC_ACC) $$tmp/acc_vecadd.o -o testdata/ptx/gcc/acc_vecadd.ptx

# The Go source engine's packages for every module of testdata/ptx (internal/gencorpus, which
# holds the one list of them): a few curated ones under generated/, checked in, and the rest
# under internal/e2e/gocorpus/, which git ignores and the tests need. TestGeneratedUpToDate
# (cmd/ptx2go) and CI fail when regenerating would change a file under generated/.
gocorpus generate:
	$(GO) run ./internal/gencorpus

# Rewrites testdata/ptx/simt from the generator of internal/e2e/fuzz/fuzz_simt_test.go; run
# `make generate` after it.
.PHONY: simt-ptx
simt-ptx:
	PTX2GO_SIMT_DUMP=1 $(GO) test -count=1 -run '^TestSIMTPrograms$$' ./internal/e2e/fuzz

# Collects the conformance tests' kernels (harness.ConfRun, internal/e2e/conformance/...) that the Go
# source back end compiles into testdata/ptx/conf/forms.ptx, one entry conf_HASH per kernel;
# run `make generate` after it. harness.ConfRun runs each kernel found in its generated package on
# both engines.
.PHONY: conf-ptx
conf-ptx:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	PTX2GO_CONF_DUMP=$$tmp $(GO) test -count=1 -run '^Test(Conf|Fp8)' ./internal/e2e/conformance/... ; \
	mkdir -p testdata/ptx/conf; \
	{ printf '// The conformance kernels of the ptx2go tests that the Go source back end compiles,\n'; \
	  printf '// collected by make conf-ptx (see conformance_gen_test.go). DO NOT EDIT.\n'; \
	  printf '.version 8.0\n.target sm_80\n.address_size 64\n'; \
	  for f in $$tmp/*.ptx; do echo; cat $$f; done; } > testdata/ptx/conf/forms.ptx

# The CUDA drop-in (cmd/ptx2go/cudart): libptx2go-cuda.so built with -buildmode=c-shared (needs
# cgo and a C compiler), and libcudart.so.11.0, libcudart.so.12 and libcuda.so.1, small
# libraries with the sonames and symbol versions nvcc-built programs ask for that load it.
# `ptx2go exec` builds the same into its cache on first use.
CUDA_LIBS ?= cuda-libs
cuda-libs:
	$(GO) run ./cmd/ptx2go cuda-libs -o $(CUDA_LIBS)

# Regenerates cmd/ptx2go/cudart/unimplemented.c: a stub for every function of the real
# libcudart.so.11.0 (CUDA 11.8), libcudart.so.12 (CUDA 12.4) and libcuda.so.1 (both drivers)
# that the drop-in does not export (//export), so that a program calling one, or a static runtime
# looking one up with cuGetProcAddress, gets error 801 (not supported) and a message naming it
# instead of an undefined symbol; and cmd/ptx2go/cudart/procversions_gen.go, the CUDA versions at
# which each driver entry point got a new signature (PFN_NAME_vVERSION in CUDA 12.4's
# cudaTypedefs.h), which cuGetProcAddress needs to hand out NAME, NAME_v2 or NAME_v3. CUDA 12.4
# comes from ../shared/tools/cuda12/setup.sh's chroot (CUDA12_ROOT).
CUDA12_ROOT ?= /opt/cuda12-root
CUDART_SO ?= /usr/lib/x86_64-linux-gnu/libcudart.so.11.0
CUDA_SO ?= /usr/lib/x86_64-linux-gnu/libcuda.so.1
CUDART12_SO ?= $(CUDA12_ROOT)/usr/lib/x86_64-linux-gnu/libcudart.so.12
CUDA12_SO ?= $(CUDA12_ROOT)/usr/lib/x86_64-linux-gnu/libcuda.so.1
CUDA12_TYPEDEFS ?= $(CUDA12_ROOT)/usr/include/cudaTypedefs.h
cuda-stubs:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	nm -D --defined-only $(CUDART_SO) $(CUDA_SO) $(CUDART12_SO) $(CUDA12_SO) | awk '$$2 == "T" { print $$3 }' | sed 's/@.*//' | LC_ALL=C sort -u > $$tmp/all; \
	grep -ho '^//export [A-Za-z0-9_]*' cmd/ptx2go/cudart/*.go cmd/ptx2go/cudart/*.c | cut -d' ' -f2 | LC_ALL=C sort -u > $$tmp/done; \
	{ echo '// Code generated by make cuda-stubs from the functions of libcudart.so.11.0 (CUDA 11.8),'; \
	  echo '// libcudart.so.12 (CUDA 12.4) and libcuda.so.1 that the drop-in does not export. DO NOT EDIT.'; echo; \
	  echo '#include "unimplemented.h"'; echo; \
	  LC_ALL=C comm -23 $$tmp/all $$tmp/done | sed 's/.*/STUB(&)/'; } > cmd/ptx2go/cudart/unimplemented.c; \
	echo "cmd/ptx2go/cudart/unimplemented.c: $$(grep -c '^STUB' cmd/ptx2go/cudart/unimplemented.c) stubs"; \
	{ echo '// Code generated by make cuda-stubs from CUDA 12.4'"'"'s cudaTypedefs.h. DO NOT EDIT.'; echo; \
	  echo 'package main'; echo; \
	  echo '// procVersions lists, for each driver entry point, the CUDA versions that gave it a new'; \
	  echo '// signature, oldest first: the first is NAME, the second NAME_v2, the third NAME_v3.'; \
	  echo 'var procVersions = map[string][]int{'; \
	  grep -o 'PFN_cu[A-Za-z0-9_]*_v[0-9]*)(' $(CUDA12_TYPEDEFS) | sed -E 's/^PFN_(.*)_v([0-9]+)\)\($$/\1 \2/' | \
	    LC_ALL=C sort -u -k1,1 -k2,2n | \
	    awk '{ if ($$1 != n) { if (n != "") printf "},\n"; n = $$1; printf "\t\"%s\": {%s", $$1, $$2 } else printf ", %s", $$2 } END { printf "},\n" }'; \
	  echo '}'; } > cmd/ptx2go/cudart/procversions_gen.go; \
	gofmt -w cmd/ptx2go/cudart/procversions_gen.go; \
	echo "cmd/ptx2go/cudart/procversions_gen.go: $$(grep -c '^	"cu' cmd/ptx2go/cudart/procversions_gen.go) entry points"

# Rebuilds the CUDA test programs of testdata/cudart (run under the drop-in by cmd/ptx2go's
# TestExec, which runs every build of a program and requires them to agree) with nvcc 11.8
# into bin/ and with nvcc 12.4 (NVCC12: the chroot of ../shared/tools/cuda12/setup.sh; needs
# root) into bin12/: each runtime API program with -cudart shared for sm_80 (SASS and PTX);
# STATIC_PROGRAMS also with nvcc's default flags (-cudart static: NVIDIA's runtime linked in;
# PTX and SASS for nvcc's default architecture) into bin/static/ and bin12/static/. vectoradd also with SASS only (vectoradd_sass,
# which the drop-in cannot run) and with PTX only through the device link step (vectoradd_rdc:
# -rdc=true, which adds libcudadevrt); the driver API program with -lcuda, also with
# CUDA_API_PER_THREAD_DEFAULT_STREAM (driver_ptsz); perthread with --default-stream per-thread
# (both call the _ptsz and _ptds entry points); the driver program's kernels as PTX and as a fat
# binary holding only (compressed) PTX; texture's kernels as PTX for the corpus
# (testdata/ptx/nvcc/cudart_texture.ptx, which TestRunTexture runs through ptx2go run); cdp
# (dynamic parallelism, -rdc=true), and the driver API programs culink (with its two PTX
# modules), vmm, occupancy (with its kernel as PTX) and attrs. CUDA 12.4's builds link glibc236.c and libstdc++ statically so that they run on glibc
# 2.36 (Debian 12); its cdp keeps CUDA 11's device-side cudaDeviceSynchronize with
# -DCUDA_FORCE_CDP1_IF_SUPPORTED (sm_80 has it; sm_90 does not).
CUDART_PROGRAMS = vectoradd reduction streams fault bench threads info printf assert managed coop graphs pools thrust leak texture
STATIC_PROGRAMS = vectoradd reduction streams graphs printf managed pools texture
NVCC12 ?= testdata/cudart/nvcc12
CUDA12_LINK = -Xcompiler -static-libstdc++ testdata/cudart/glibc236.c
cuda-programs: cuda11-programs cuda12-programs

# The whole kernel corpus with racecheck, synccheck and initcheck on (issue 33; the suite runs
# a sample): every level and shape, about a minute.
.PHONY: check-corpus
check-corpus:
	PTX2GO_CHECK_CORPUS=all $(GO) test ./internal/e2e/sanitizer -run TestCorpusChecked -count=1

cuda11-programs:
	@mkdir -p testdata/cudart/bin/static
	@set -e; for n in $(CUDART_PROGRAMS); do \
		echo "nvcc -cudart shared -arch=sm_80 testdata/cudart/$$n.cu"; \
		$(NVCC) -cudart shared -arch=sm_80 -O2 testdata/cudart/$$n.cu -o testdata/cudart/bin/$$n; \
	done
	@set -e; for n in $(STATIC_PROGRAMS); do \
		echo "nvcc testdata/cudart/$$n.cu"; \
		$(NVCC) -O2 testdata/cudart/$$n.cu -o testdata/cudart/bin/static/$$n; \
	done
	$(NVCC) -cudart shared -gencode arch=compute_80,code=sm_80 -O2 testdata/cudart/vectoradd.cu -o testdata/cudart/bin/vectoradd_sass
	$(NVCC) -cudart shared -rdc=true -arch=compute_52 -O2 testdata/cudart/vectoradd.cu -o testdata/cudart/bin/vectoradd_rdc
	$(NVCC) -cudart shared -rdc=true -arch=sm_80 -O2 testdata/cudart/sepcomp.cu testdata/cudart/sepcomp_lib.cu -o testdata/cudart/bin/sepcomp
	$(NVCC) -cudart shared -O2 testdata/cudart/driver.cu -o testdata/cudart/bin/driver -lcuda
	$(NVCC) -cudart shared -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM testdata/cudart/driver.cu -o testdata/cudart/bin/driver_ptsz -lcuda
	$(NVCC) -cudart shared -arch=sm_80 -O2 --default-stream per-thread testdata/cudart/perthread.cu -o testdata/cudart/bin/perthread
	$(NVCC) -ptx -arch=compute_80 -O2 testdata/cudart/drv_kernels.cu -o testdata/cudart/drv_kernels.ptx
	$(NVCC) -fatbin -gencode arch=compute_80,code=compute_80 -O2 testdata/cudart/drv_kernels.cu -o testdata/cudart/drv_kernels.fatbin
	$(NVCC) -ptx -arch=compute_80 -O3 -lineinfo testdata/cudart/texture.cu -o testdata/ptx/nvcc/cudart_texture.ptx
	sed -i 's|"$(CURDIR)/|"|' testdata/ptx/nvcc/cudart_texture.ptx
	$(NVCC) -cudart shared -rdc=true -arch=sm_80 -O2 testdata/cudart/cdp.cu -o testdata/cudart/bin/cdp
	$(NVCC) -cudart shared -O2 testdata/cudart/culink.cu -o testdata/cudart/bin/culink -lcuda
	$(NVCC) -ptx -rdc=true -arch=compute_80 -O2 testdata/cudart/link_kernel.cu -o testdata/cudart/link_kernel.ptx
	$(NVCC) -ptx -rdc=true -arch=compute_80 -O2 testdata/cudart/link_lib.cu -o testdata/cudart/link_lib.ptx
	$(NVCC) -cudart shared -arch=sm_80 -O2 testdata/cudart/vmm.cu -o testdata/cudart/bin/vmm -lcuda
	$(NVCC) -cudart shared -O2 testdata/cudart/occupancy.cu -o testdata/cudart/bin/occupancy -lcuda
	$(NVCC) -ptx -arch=compute_80 -O2 testdata/cudart/occupancy.cu -o testdata/cudart/occupancy_kernels.ptx
	$(NVCC) -cudart shared -arch=sm_80 -O2 testdata/cudart/attrs.cu -o testdata/cudart/bin/attrs -lcuda

cuda12-programs:
	@mkdir -p testdata/cudart/bin12/static
	@set -e; for n in $(CUDART_PROGRAMS); do \
		echo "nvcc12 -cudart shared -arch=sm_80 testdata/cudart/$$n.cu"; \
		$(NVCC12) -cudart shared -arch=sm_80 -O2 testdata/cudart/$$n.cu $(CUDA12_LINK) -o testdata/cudart/bin12/$$n; \
	done
	@set -e; for n in $(STATIC_PROGRAMS); do \
		echo "nvcc12 testdata/cudart/$$n.cu"; \
		$(NVCC12) -O2 testdata/cudart/$$n.cu $(CUDA12_LINK) -o testdata/cudart/bin12/static/$$n; \
	done
	$(NVCC12) -cudart shared -rdc=true -arch=compute_52 -O2 testdata/cudart/vectoradd.cu $(CUDA12_LINK) -o testdata/cudart/bin12/vectoradd_rdc
	$(NVCC12) -cudart shared -rdc=true -arch=sm_80 -O2 testdata/cudart/sepcomp.cu testdata/cudart/sepcomp_lib.cu $(CUDA12_LINK) -o testdata/cudart/bin12/sepcomp
	$(NVCC12) -cudart shared -O2 testdata/cudart/driver.cu $(CUDA12_LINK) -o testdata/cudart/bin12/driver -lcuda
	$(NVCC12) -cudart shared -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM testdata/cudart/driver.cu $(CUDA12_LINK) -o testdata/cudart/bin12/driver_ptsz -lcuda
	$(NVCC12) -cudart shared -arch=sm_80 -O2 --default-stream per-thread testdata/cudart/perthread.cu $(CUDA12_LINK) -o testdata/cudart/bin12/perthread
	$(NVCC12) -cudart shared -rdc=true -arch=sm_80 -O2 -DCUDA_FORCE_CDP1_IF_SUPPORTED testdata/cudart/cdp.cu $(CUDA12_LINK) -o testdata/cudart/bin12/cdp
	$(NVCC12) -cudart shared -O2 testdata/cudart/culink.cu $(CUDA12_LINK) -o testdata/cudart/bin12/culink -lcuda
	$(NVCC12) -cudart shared -arch=sm_80 -O2 testdata/cudart/vmm.cu $(CUDA12_LINK) -o testdata/cudart/bin12/vmm -lcuda
	$(NVCC12) -cudart shared -O2 testdata/cudart/occupancy.cu $(CUDA12_LINK) -o testdata/cudart/bin12/occupancy -lcuda
	$(NVCC12) -cudart shared -arch=sm_80 -O2 testdata/cudart/attrs.cu $(CUDA12_LINK) -o testdata/cudart/bin12/attrs -lcuda

# Builds NVIDIA's cuda-samples of CUDA_SAMPLE_NAMES (testdata/cuda-samples/README.md: which
# commit, and how to lay their sources out under CUDA_SAMPLES, a path inside this checkout that
# git ignores) for cmd/ptx2go's TestExecSamples, four ways, into
# testdata/cuda-samples/bin/{11.8,12.4}/{default,shared}/NAME: with nvcc 11.8 and with nvcc 12.4
# (NVCC12, CUDA12_LINK), each once with nvcc's default flags (-cudart static, NVIDIA's runtime
# linked in; no -arch: SASS and PTX for sm_52, which `cuobjdump -lptx` lists) and once with
# -cudart shared. None of these samples needs a newer architecture than nvcc's default.
CUDA_SAMPLES ?= testdata/cuda-samples/src
CUDA_SAMPLE_NAMES = vectorAdd simpleAtomicIntrinsics matrixMul simpleVoteIntrinsics simpleCooperativeGroups
.PHONY: cuda-samples
cuda-samples:
	@set -e; bin=testdata/cuda-samples/bin; \
	mkdir -p $$bin/11.8/default $$bin/11.8/shared $$bin/12.4/default $$bin/12.4/shared; \
	for n in $(CUDA_SAMPLE_NAMES); do \
		d=$(CUDA_SAMPLES)/Samples/0_Introduction/$$n; src=$$(ls $$d/*.cu $$d/*.cpp 2>/dev/null || :); \
		echo "nvcc, nvcc -cudart shared, nvcc12, nvcc12 -cudart shared: $$src"; \
		$(NVCC) -I $(CUDA_SAMPLES)/Common -O2 $$src -o $$bin/11.8/default/$$n; \
		$(NVCC) -cudart shared -I $(CUDA_SAMPLES)/Common -O2 $$src -o $$bin/11.8/shared/$$n; \
		$(NVCC12) -I $(CUDA_SAMPLES)/Common -O2 $$src $(CUDA12_LINK) -o $$bin/12.4/default/$$n; \
		$(NVCC12) -cudart shared -I $(CUDA_SAMPLES)/Common -O2 $$src $(CUDA12_LINK) -o $$bin/12.4/shared/$$n; \
	done
