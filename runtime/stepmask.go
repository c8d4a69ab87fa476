package runtime

// StepCmp is an integer comparison of StepMask.
type StepCmp uint8

// The comparisons, of a lane's value against the other operand.
const (
	StepEQ StepCmp = iota
	StepNE
	StepLT
	StepLE
	StepGT
	StepGE
)

// StepMask returns the lanes l of a full warp for which a+l CMP b holds, where a and b are
// exact (lane 31's a+31 did not wrap in the comparison's type): setp on a value that steps by
// 1 from lane to lane, such as %tid.x, without a loop over the lanes.
func StepMask(a, b int64, cmp StepCmp) uint32 {
	// Lane d's value equals b; the lanes below it are less, those above greater. below(k) is
	// lanes 0 to k-1.
	d := b - a
	below := func(k int64) uint32 {
		return uint32(uint64(1)<<uint64(min(max(k, 0), WarpSize)) - 1)
	}
	eq := uint32(0)
	if d >= 0 && d < WarpSize {
		eq = 1 << uint64(d)
	}
	switch cmp {
	case StepEQ:
		return eq
	case StepNE:
		return ^eq
	case StepLT:
		return below(d)
	case StepLE:
		return below(d + 1)
	case StepGT:
		return ^below(d + 1)
	}
	return ^below(d)
}
