package frontend

// The parser allocates AST nodes and short slices from chunks, so parsing costs a few large
// allocations per hundred nodes instead of one per node.

const chunkSize = 256

// slab hands out pointers to zeroed T values carved from chunks.
type slab[T any] struct {
	free []T
}

func (s *slab[T]) alloc() *T {
	if len(s.free) == 0 {
		s.free = make([]T, chunkSize)
	}
	x := &s.free[0]
	s.free = s.free[1:]
	return x
}

// sliceArena copies short slices into shared chunks; each result has its capacity clipped to
// its length so an append by a later stage copies instead of overwriting a neighbour.
type sliceArena[T any] struct {
	free []T
}

func (a *sliceArena[T]) copy(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if len(src) > chunkSize/4 {
		return append([]T(nil), src...)
	}
	if len(a.free) < len(src) {
		a.free = make([]T, chunkSize)
	}
	dst := a.free[:len(src):len(src)]
	copy(dst, src)
	a.free = a.free[len(src):]
	return dst
}
