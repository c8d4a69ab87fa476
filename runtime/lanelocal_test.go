package runtime

import (
	"bytes"
	"testing"
)

// TestLaneLocalUndo stores through LaneLocal as a LaneFunc does, in two lanes, with stores
// of every size that overlap one another, and checks that restore gives back local memory as
// it was; that a full log makes Save fail and retry grow it, up to maxLaneUndo stores, past
// which retry declines; and that a failure other than a full log is no reason to retry.
func TestLaneLocalUndo(t *testing.T) {
	w := &Warp{LocalStride: 24}
	w.Local = make([]byte, 2*w.LocalStride)
	for i := range w.Local {
		w.Local[i] = byte(i*7 + 1)
	}
	before := bytes.Clone(w.Local)
	var u LaneLocal
	store := func(a uint64, n int, v uint64) bool {
		mem := w.Local[u.base : u.base+u.Size]
		if !u.Save(a, n, ParamValue(mem[a:a+uint64(n)])) {
			return false
		}
		putParam(mem[a:a+uint64(n)], v)
		return true
	}
	if u.SetLane(w, 0); store(0, 8, 1) {
		t.Fatal("Save succeeded with an empty log")
	}
	if !u.retry() || cap(u.undo) != 64 {
		t.Fatalf("retry after a full log: capacity %d, want 64", cap(u.undo))
	}
	for l := range 2 {
		u.SetLane(w, l)
		for _, s := range []struct {
			a uint64
			n int
			v uint64
		}{{0, 8, 0x1111111111111111}, {4, 4, 0x22222222}, {6, 2, 0x3333}, {7, 1, 0x44}, {16, 8, 0x5555555555555555}, {0, 8, 0x66}} {
			if !store(s.a, s.n, s.v) {
				t.Fatalf("lane %d: store of %d bytes at %d failed", l, s.n, s.a)
			}
		}
	}
	if bytes.Equal(w.Local, before) {
		t.Fatal("the stores changed nothing")
	}
	u.restore()
	if !bytes.Equal(w.Local, before) {
		t.Fatalf("local memory after restore:\n%x, want\n%x", w.Local, before)
	}
	if u.retry() {
		t.Fatal("retry after a failure with room in the log")
	}
	u.SetLane(w, 1)
	for i := 0; ; i++ {
		if !store(uint64(i%3)*8, 8, uint64(i)) {
			if u.restore(); !u.retry() {
				break
			}
			u.SetLane(w, 1)
			i = -1
		}
	}
	if cap(u.undo) != maxLaneUndo {
		t.Fatalf("the log stopped growing at %d stores, want %d", cap(u.undo), maxLaneUndo)
	}
	if !bytes.Equal(w.Local, before) {
		t.Fatal("local memory changed after the restores")
	}
}
