#!/bin/sh
# make bench-instructions REV=<git revision>: the instructions one launch of each of make bench's
# kernels executes on the closure engine with one worker, on a git revision and on the working
# tree, counted by valgrind's cachegrind. Unlike time, the count does not depend on what else the
# machine runs, so it shows small differences that a busy machine hides.
#
#	internal/e2e/bench/instructions.sh REV KERNELS
#
# Each kernel's benchmark runs under cachegrind twice, with -benchtime 1x and 3x (one and three
# timed launches after the same set-up and checked run), with the garbage collector off so that
# its cycles fall nowhere; half the difference is one launch's instructions. The Go source
# engine is left out: its unchecked code is whatever `ptx2go generate` writes, which can be
# compared directly. Needs valgrind.
set -eu

rev=${1:?usage: instructions.sh REV KERNELS}
kernels=${2:-VecAdd Saxpy Collatz MatmulTiled Reduce Fib}
GO=${GO:-go}
command -v valgrind >/dev/null || { echo "bench-instructions: valgrind is not installed" >&2; exit 2; }

root=$(git rev-parse --show-toplevel)
cd "$root"
sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench-instructions: $rev is not a commit" >&2; exit 2; }
short=$(git rev-parse --short "$sha")

tmp=$(mktemp -d)
old=$tmp/rev
cleanup() {
	git worktree remove --force "$old" >/dev/null 2>&1 || rm -rf "$old"
	git worktree prune >/dev/null 2>&1 || :
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
git worktree add --detach --quiet "$old" "$sha"
(cd "$old" && $GO test -c -o "$tmp/rev.test" ./internal/e2e/bench)
$GO test -c -o "$tmp/work.test" ./internal/e2e/bench

# launchInstructions TREE BINARY KERNEL prints one launch's instruction count.
launchInstructions() {
	for n in 1 3; do
		(cd "$1/internal/e2e/bench" && GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file=/dev/null "$2" -test.run '^$' -test.bench "^Benchmark$3/engine=closure/workers=1\$" \
			-test.benchtime ${n}x 2>&1) | tr -d , | awk '/I +refs/ {print $NF}'
	done | awk 'NR == 1 {a = $1} NR == 2 {printf "%.0f\n", ($1 - a) / 2}'
}

printf '%-12s %16s %16s %8s\n' kernel "$short" working-tree change
for k in $kernels; do
	a=$(launchInstructions "$old" "$tmp/rev.test" "$k")
	b=$(launchInstructions "$root" "$tmp/work.test" "$k")
	awk -v k="$k" -v a="$a" -v b="$b" 'BEGIN {printf "%-12s %16.0f %16.0f %+7.1f%%\n", k, a, b, (b - a) * 100 / a}'
done
