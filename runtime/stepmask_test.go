package runtime

import "testing"

// TestStepMask compares StepMask with the comparison of each lane's value, for values of a
// around and beyond b.
func TestStepMask(t *testing.T) {
	cmps := map[StepCmp]func(x, y int64) bool{
		StepEQ: func(x, y int64) bool { return x == y },
		StepNE: func(x, y int64) bool { return x != y },
		StepLT: func(x, y int64) bool { return x < y },
		StepLE: func(x, y int64) bool { return x <= y },
		StepGT: func(x, y int64) bool { return x > y },
		StepGE: func(x, y int64) bool { return x >= y },
	}
	for cmp, f := range cmps {
		for _, b := range []int64{-1 << 31, -40, -1, 0, 1, 7, 31, 127, 1 << 32} {
			for a := b - 40; a <= b+40; a++ {
				want := uint32(0)
				for l := range int64(WarpSize) {
					if f(a+l, b) {
						want |= 1 << l
					}
				}
				if got := StepMask(a, b, cmp); got != want {
					t.Fatalf("StepMask(%d, %d, %d) = %#x, want %#x", a, b, cmp, got, want)
				}
			}
		}
	}
}
