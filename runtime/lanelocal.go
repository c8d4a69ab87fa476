package runtime

import "unsafe"

// Local memory in per-lane calls. A lane's local memory is its own: no other lane or warp can
// address it (a generic address in LocalWindow names the accessing thread's local memory),
// so a per-lane function may load and store it through addresses (cuRAND's generators reach
// their state in the caller's frame through a pointer) and still run lane after lane. What a
// LaneFunc cannot reproduce alone is the SIMT path's faults, which come in lockstep order, and
// generic addresses outside the local window: it checks every address and gives the call up
// where the address is not the lane's, out of bounds or misaligned, so that the SIMT path
// makes the access or raises the fault. A call given up after some lanes stored must find
// local memory as it was, or those lanes would run their stores twice: every store first saves
// the bytes it overwrites (LaneLocal.Save), and a call given up restores them, newest first.

// maxLaneUndo bounds the saved stores of one per-lane call, all its lanes together; a call
// that stores more is left to the SIMT path.
const maxLaneUndo = 1 << 16

// LaneLocal is the local memory of the lane a per-lane call runs, for LaneFuncs that load and
// store it through addresses: Mem is the address of that lane's local memory, local address a
// at Mem+a, and Size its size in bytes.
type LaneLocal struct {
	Mem  unsafe.Pointer
	Size int
	// local is the warp's local memory and base the offset of Mem in it.
	local []byte
	base  int
	// undo holds the bytes the call's stores overwrote, oldest first; full says a store found
	// it full.
	undo []localUndo
	full bool
}

// localUndo is the n bytes (1 to 8) at offset off of the warp's local memory before a store,
// little-endian in old.
type localUndo struct {
	off, n uint32
	old    uint64
}

// Save records old, the n bytes (1, 2, 4 or 8) at local address a of the lane, before a store
// overwrites them. It reports false where the log of saved stores is full: the LaneFunc then
// gives the call up, and the caller grows the log and runs the call again (retry).
func (u *LaneLocal) Save(a uint64, n int, old uint64) bool {
	i := len(u.undo)
	if i == cap(u.undo) {
		u.full = true
		return false
	}
	u.undo = u.undo[:i+1]
	u.undo[i] = localUndo{off: uint32(u.base + int(a)), n: uint32(n), old: old}
	return true
}

// retry reports, for a call given up and restored, whether it stopped because its log of saved
// stores was full and the log could grow, up to maxLaneUndo stores; it then has.
func (u *LaneLocal) retry() bool {
	full := u.full
	u.full = false
	if !full || cap(u.undo) >= maxLaneUndo {
		return false
	}
	u.undo = make([]localUndo, 0, max(64, 2*cap(u.undo)))
	return true
}

// SetLane points Mem at lane l's local memory of w, for the lane's call.
func (u *LaneLocal) SetLane(w *Warp, l int) {
	u.local, u.Size, u.base = w.Local, w.LocalStride, l*w.LocalStride
	u.Mem = unsafe.Add(MemPtr(w.Local), u.base)
}

// restore writes back, newest first, the bytes every saved store overwrote, and forgets them.
func (u *LaneLocal) restore() {
	for i := len(u.undo) - 1; i >= 0; i-- {
		s := u.undo[i]
		putParam(u.local[s.off:s.off+s.n], s.old)
	}
	u.forget()
}

// forget drops the saved stores of a call that ran to its end.
func (u *LaneLocal) forget() {
	u.undo = u.undo[:0]
	u.Mem, u.local = nil, nil
}

// LoadPrivate reads the little-endian T at offset o from p, the MemPtr of a lane's local
// memory in which the caller has checked the access to be in bounds. Only the lane's own
// goroutine touches that memory, so the read is a plain one, which need not be aligned.
func LoadPrivate[T uint8 | uint16 | uint32 | uint64](p unsafe.Pointer, o uint64) uint64 {
	return uint64(*(*T)(unsafe.Add(p, o)))
}

// StorePrivate writes the low bytes of v as a T at offset o from p, as LoadPrivate reads.
func StorePrivate[T uint8 | uint16 | uint32 | uint64](p unsafe.Pointer, o uint64, v uint64) {
	*(*T)(unsafe.Add(p, o)) = T(v)
}
