package gosrc_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/ptx2go/ptx2go/codegen/gosrc"
)

// TestLaneFuncsGenerated checks which functions get a per-lane function (lanefn.go): those
// of lane_calls.ptx that only compute and call each other (steps and next, depth, count) or
// also reach their lane's local memory through a pointer (advance, bump, store_each), not the
// one with a shuffle nor the one with a global store; none with check hooks; and none for
// functions only called through a pointer (funcptr.ptx), which no call site would use.
func TestLaneFuncsGenerated(t *testing.T) {
	laneFn := regexp.MustCompile(`(?m)^func (\w+Lane)\(w \*runtime\.Warp, l int, pa \[\]byte, u \*runtime\.LaneLocal, calls, steps int\) \(int, bool\)`)
	lanes := func(path string, opts gosrc.Options) []string {
		out, err := gosrc.Generate(build(t, path), opts)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range laneFn.FindAllSubmatch(out, -1) {
			names = append(names, string(m[1]))
		}
		slices.Sort(names)
		return names
	}
	const calls = "../../testdata/ptx/hand/lane_calls.ptx"
	if got, want := lanes(calls, gosrc.Options{}), []string{"advanceLane", "bumpLane", "countLane", "depthLane", "nextLane", "stepsLane", "storeEachLane"}; !slices.Equal(got, want) {
		t.Errorf("lane_calls.ptx: per-lane functions %v, want %v", got, want)
	}
	if got := lanes(calls, gosrc.Options{Check: true}); len(got) > 0 {
		t.Errorf("lane_calls.ptx with check hooks: per-lane functions %v, want none", got)
	}
	if got := lanes("../../testdata/ptx/funcptr.ptx", gosrc.Options{}); len(got) > 0 {
		t.Errorf("funcptr.ptx: per-lane functions %v, want none", got)
	}
}
