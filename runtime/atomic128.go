package runtime

import "sync"

// Go's sync/atomic has no 128-bit compare-and-swap, so the 128-bit atomics (atom.cas.b128 and
// atom.exch.b128) on global memory take a lock from a striped table that belongs to the
// Device, keyed by the 16-byte-aligned device address, and read and write the two 64-bit halves
// while holding it.
//
// The guarantee: 128-bit atomics on the same 16 bytes are atomic with respect to each other,
// whichever CTA, goroutine or launch on the device runs them. Plain loads and stores, and the
// 32- and 64-bit atomics, do not take the lock: each still sees or writes every aligned 64-bit
// half whole (never a torn half), but may observe a 128-bit atomic between its two halves, and
// a 64-bit atomic that lands between a 128-bit atomic's read and its write is overwritten by
// it. This is what the PTX memory model allows of mixed-size accesses to one location, which
// it does not order.

// wideStripes is the number of locks in a device's table: a power of two, enough that CTAs
// working on different 16-byte words rarely wait for one another.
const wideStripes = 256

// wideLocks is the striped lock table of a device's 128-bit atomics. Each lock has a cache
// line of its own so that CTAs on different stripes do not share one.
type wideLocks [wideStripes]struct {
	sync.Mutex
	_ [56]byte
}

// Lock128 returns the lock that guards the 128-bit atomics on the 16 bytes holding device
// address addr. Addresses that share a 16-byte-aligned word always get the same lock.
func (d *Device) Lock128(addr uint64) *sync.Mutex {
	k := addr >> 4
	k ^= k >> 8
	return &d.wide[k&(wideStripes-1)].Mutex
}

// Lock128 is the Device's Lock128 for the warp's launch.
func (w *Warp) Lock128(addr uint64) *sync.Mutex { return w.CTA.L.Dev.Lock128(addr) }
