package runtime

import "sync"

// hostMaps holds the host memory mappings a device made (lazily backed device memory and
// MallocHost memory), so that they can be released when the device is garbage collected with
// allocations nobody freed.
type hostMaps struct {
	mu sync.Mutex
	m  map[*byte]int
}

// mapAt maps n zeroed bytes at host address addr, or returns nil when the host cannot place
// them exactly there.
func (h *hostMaps) mapAt(addr uintptr, n int) []byte {
	return h.keep(mapAnon(addr, n))
}

// mapAnywhere maps n zeroed bytes wherever the host chooses, or returns nil when it cannot.
func (h *hostMaps) mapAnywhere(n int) []byte {
	return h.keep(mapAnon(0, n))
}

func (h *hostMaps) keep(m []byte) []byte {
	if m != nil {
		h.mu.Lock()
		h.m[&m[0]] = len(m)
		h.mu.Unlock()
	}
	return m
}

// release unmaps a mapping that mapAt or mapAnywhere returned; nil is ignored.
func (h *hostMaps) release(m []byte) {
	if m == nil {
		return
	}
	h.mu.Lock()
	delete(h.m, &m[0])
	h.mu.Unlock()
	unmapAnon(m)
}

// releaseAll unmaps every mapping left.
func (h *hostMaps) releaseAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for p, n := range h.m {
		unmapAnon(unsafeSlice(p, n))
	}
	clear(h.m)
}
