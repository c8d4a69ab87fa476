# ptx2go build, test and corpus targets. Only Go is needed, except for `make ptx` (clang-19).
GO ?= go
CLANG ?= clang-19
PTX_FLAGS = -include testdata/cuda/cuda_shim.h --cuda-device-only -nocudainc -nocudalib \
	--cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx75 -S
CUDA_SRCS = $(wildcard testdata/cuda/*.cu)
O0_KERNELS = vecadd reduce_shared switch_dense recursion funcptr

.PHONY: build test demo ptx fmt-check fuzz bench

build:
	$(GO) build ./...

test:
	$(GO) vet ./...
	$(GO) test ./...

demo:
	$(GO) run ./cmd/ptx2go check testdata/ptx/vecadd.ptx

# Regenerates testdata/ptx/*.ptx (at -O2) and testdata/ptx/O0/*.ptx from testdata/cuda/*.cu.
ptx:
	@mkdir -p testdata/ptx/O0
	@for f in $(CUDA_SRCS); do \
		n=$$(basename $$f .cu); \
		echo "clang -O2 $$f"; \
		$(CLANG) $(PTX_FLAGS) -O2 $$f -o testdata/ptx/$$n.ptx || exit 1; \
	done
	@for n in $(O0_KERNELS); do \
		echo "clang -O0 testdata/cuda/$$n.cu"; \
		$(CLANG) $(PTX_FLAGS) -O0 testdata/cuda/$$n.cu -o testdata/ptx/O0/$$n.ptx || exit 1; \
	done

fmt-check:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

fuzz:
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=5m ./frontend
