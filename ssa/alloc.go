package ssa

// Lowering and SSA construction draw IR nodes and short slices from chunks, so building a
// module costs a few large allocations per few hundred nodes rather than one per instruction,
// operand, value and block. Every node lives as long as the Program, so a chunk kept alive by
// one of its nodes wastes nothing that would otherwise be freed early.

const chunkSize = 256

// memory holds the slabs and arenas of one Build.
type memory struct {
	instrs slab[Instr]
	values slab[Value]
	blocks slab[Block]
	phis   slab[Phi]
	vars   slab[Variable]
	args   arena[Arg]
	regs   arena[Reg]
	vals   arena[*Value] // defs, kept values and phi operands
	instrL arena[*Instr] // the instruction lists of blocks
	blockL arena[*Block] // block lists: functions', predecessors and successors
	regL   arena[*Reg]   // the register lists of functions
	phiL   arena[*Phi]   // the phi lists of blocks
}

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

// arena hands out short slices carved from chunks. Each slice has its capacity clipped, so an
// append past it copies instead of overwriting a neighbour.
type arena[T any] struct {
	free []T
}

// slice returns an empty slice with room for n elements.
func (a *arena[T]) slice(n int) []T {
	if n == 0 {
		return nil
	}
	if n > chunkSize/4 {
		return make([]T, 0, n)
	}
	if len(a.free) < n {
		a.free = make([]T, chunkSize)
	}
	s := a.free[:0:n]
	a.free = a.free[n:]
	return s
}

// copy returns a copy of src drawn from the arena, or nil when src is empty.
func (a *arena[T]) copy(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	return append(a.slice(len(src)), src...)
}

// append appends x to s as the built-in append does, drawing grown storage from the arena.
func (a *arena[T]) append(s []T, x T) []T {
	if len(s) == cap(s) {
		s = append(a.slice(max(2, 2*cap(s))), s...)
	}
	return append(s, x)
}
