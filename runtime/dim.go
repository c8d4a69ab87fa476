package runtime

import "fmt"

// Dim3 is a grid or block shape, as in CUDA. A zero component counts as 1.
type Dim3 struct{ X, Y, Z uint32 }

// D1 is a one-dimensional shape.
func D1(x uint32) Dim3 { return Dim3{x, 1, 1} }

// norm replaces zero components by 1.
func (d Dim3) norm() Dim3 {
	if d.X == 0 {
		d.X = 1
	}
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

// Count is the number of points in the shape.
func (d Dim3) Count() uint64 {
	d = d.norm()
	return uint64(d.X) * uint64(d.Y) * uint64(d.Z)
}

// at converts a linear index into coordinates within the shape, x fastest.
func (d Dim3) at(i uint64) Dim3 {
	d = d.norm()
	x := i % uint64(d.X)
	i /= uint64(d.X)
	return Dim3{uint32(x), uint32(i % uint64(d.Y)), uint32(i / uint64(d.Y))}
}

func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }
