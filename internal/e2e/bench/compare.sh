#!/bin/sh
# make bench-compare REV=<git revision>: the kernel benchmarks of internal/e2e/bench on a git
# revision and on the working tree, in one run, compared with benchstat.
#
#	internal/e2e/bench/compare.sh REV KERNELS COUNT
#
# REV is checked out with `git worktree add --detach` into a temporary directory (removed
# again at the end), both trees get their Go source engine's corpus (internal/gencorpus) and a
# test binary of internal/e2e/bench each, and then COUNT rounds each run the benchmarks
# ^Benchmark(KERNELS) once on the revision and once on the working tree, one after the other,
# so that a busy neighbour slows both sides alike. Each binary runs in its own tree (the
# harness changes to the root it was built from), so each reads its own testdata. benchstat
# (golang.org/x/perf, from the Go module proxy through `go run`, so CI never needs it) compares
# the two: wall time (sec/op), process CPU time (cpu-ns/op, which the table of `make bench`
# uses), allocations and the lane-instruction metrics. $BENCHSTAT_FLAGS go to benchstat
# (for example -filter '/workers:1'). Everything is kept in $BENCH_COMPARE_DIR when set.
set -eu

rev=${1:?usage: compare.sh REV KERNELS COUNT}
kernels=${2:-VecAdd|Saxpy|Collatz|MatmulTiled|Reduce|Fib|ShortIfs}
count=${3:-5}
GO=${GO:-go}
BENCHSTAT=${BENCHSTAT:-golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da}

root=$(git rev-parse --show-toplevel)
cd "$root"
sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench-compare: $rev is not a commit" >&2; exit 2; }
short=$(git rev-parse --short "$sha")

tmp=$(mktemp -d)
old=$tmp/rev
cleanup() {
	git worktree remove --force "$old" >/dev/null 2>&1 || rm -rf "$old"
	git worktree prune >/dev/null 2>&1 || :
	if [ -n "${BENCH_COMPARE_DIR:-}" ]; then
		mkdir -p "$BENCH_COMPARE_DIR" && cp "$tmp"/*.txt "$BENCH_COMPARE_DIR"/ 2>/dev/null || :
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

echo "bench-compare: $rev ($short) in $old against the working tree $root"
git worktree add --detach --quiet "$old" "$sha"

# Fetch benchstat first: a failure here should not come after minutes of benchmarks.
$GO run "$BENCHSTAT" -h >/dev/null 2>&1 || { echo "bench-compare: cannot run $BENCHSTAT" >&2; exit 2; }

for tree in "$old" "$root"; do
	echo "bench-compare: the Go source engine's corpus and the benchmark binary of $tree"
	(cd "$tree" && $GO run ./internal/gencorpus)
done
(cd "$old" && $GO test -c -o "$tmp/rev.test" ./internal/e2e/bench)
$GO test -c -o "$tmp/work.test" ./internal/e2e/bench

: >"$tmp/rev.txt"
: >"$tmp/work.txt"
i=1
while [ "$i" -le "$count" ]; do
	echo "bench-compare: round $i of $count"
	(cd "$old/internal/e2e/bench" && "$tmp/rev.test" -test.run '^$' -test.bench "^Benchmark($kernels)" -test.count 1) | tee -a "$tmp/rev.txt" | grep '^Benchmark' >&2 || :
	(cd "$root/internal/e2e/bench" && "$tmp/work.test" -test.run '^$' -test.bench "^Benchmark($kernels)" -test.count 1) | tee -a "$tmp/work.txt" | grep '^Benchmark' >&2 || :
	i=$((i + 1))
done

for f in rev work; do
	if grep -q '^FAIL\|^--- FAIL\|^panic:' "$tmp/$f.txt" || ! grep -q '^PASS' "$tmp/$f.txt"; then
		echo "bench-compare: the benchmarks of $f failed:" >&2
		grep -v '^Benchmark' "$tmp/$f.txt" | tail -20 >&2
		exit 1
	fi
done

echo
# shellcheck disable=SC2086
$GO run "$BENCHSTAT" ${BENCHSTAT_FLAGS:-} "$short=$tmp/rev.txt" "working-tree=$tmp/work.txt"
