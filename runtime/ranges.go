package runtime

import "sort"

// freeRanges is a set of free address ranges [lo, hi), sorted and never adjacent: the device's
// address-space allocator, first fit.
type freeRanges []addrRange

type addrRange struct{ lo, hi uint64 }

// take removes the lowest n bytes of the first range that holds n, and returns their address.
func (f *freeRanges) take(n uint64) (uint64, bool) {
	for i := range *f {
		r := &(*f)[i]
		if r.hi-r.lo < n {
			continue
		}
		p := r.lo
		r.lo += n
		if r.lo == r.hi {
			*f = append((*f)[:i], (*f)[i+1:]...)
		}
		return p, true
	}
	return 0, false
}

// takeAt removes [p, p+n) if it is entirely free, and reports whether it was.
func (f *freeRanges) takeAt(p, n uint64) bool {
	i := sort.Search(len(*f), func(i int) bool { return (*f)[i].hi > p })
	if i == len(*f) || (*f)[i].lo > p || (*f)[i].hi-p < n {
		return false
	}
	r := (*f)[i]
	var parts []addrRange
	if r.lo < p {
		parts = append(parts, addrRange{r.lo, p})
	}
	if p+n < r.hi {
		parts = append(parts, addrRange{p + n, r.hi})
	}
	*f = append((*f)[:i], append(parts, (*f)[i+1:]...)...)
	return true
}

// put returns [p, p+n) to the set, merging it with its neighbours.
func (f *freeRanges) put(p, n uint64) {
	i := sort.Search(len(*f), func(i int) bool { return (*f)[i].lo > p })
	r := addrRange{p, p + n}
	if i > 0 && (*f)[i-1].hi == p {
		i--
		r.lo = (*f)[i].lo
		*f = append((*f)[:i], (*f)[i+1:]...)
	}
	if i < len(*f) && (*f)[i].lo == r.hi {
		r.hi = (*f)[i].hi
		*f = append((*f)[:i], (*f)[i+1:]...)
	}
	*f = append(*f, addrRange{})
	copy((*f)[i+1:], (*f)[i:])
	(*f)[i] = r
}

// largest is the size of the largest free range.
func (f freeRanges) largest() uint64 {
	var n uint64
	for _, r := range f {
		n = max(n, r.hi-r.lo)
	}
	return n
}
