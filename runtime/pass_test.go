package runtime

import "testing"

// TestPassGiveUp checks the bookkeeping of warp passes: a worker stops trying a pass after
// passGiveUp failures in a row, and a success in between starts the count again.
func TestPassGiveUp(t *testing.T) {
	w := &Warp{CTA: &CTA{passMisses: make([]uint8, 2)}}
	for i := range passGiveUp - 1 {
		if !w.PassOK(0) || w.PassDone(0, false) {
			t.Fatalf("failure %d: PassOK false or PassDone true", i+1)
		}
	}
	if !w.PassDone(0, true) || !w.PassOK(0) {
		t.Fatal("a success must keep the pass")
	}
	for range passGiveUp {
		if !w.PassOK(0) {
			t.Fatal("gave up before passGiveUp failures in a row")
		}
		w.PassDone(0, false)
	}
	if w.PassOK(0) {
		t.Fatalf("still trying after %d failures in a row", passGiveUp)
	}
	if !w.PassOK(1) {
		t.Fatal("another pass's failures count against pass 1")
	}
}
