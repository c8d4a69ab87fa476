package runtime

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// devCheck is a device's host-side state for the checks (Device.EnableChecks): which bytes
// of each allocation something wrote (initcheck) and which allocations the host program made
// and has not freed (leakcheck). Malloc and Free change it under the device's write lock, so
// the launches, which hold the read lock, see it stable.
type devCheck struct {
	tools  CheckTools
	allocs map[uint64]*allocCheck // live allocations by address
	nalloc int
}

// allocCheck is one allocation's check state: a bit per byte written, and the host call
// that made it when the host program said (Device.SetAllocOrigin).
type allocCheck struct {
	addr   uint64
	size   int
	bits   []uint64
	origin string
	seq    int
}

// EnableChecks makes the device track what the tools need from now on: the bytes written of
// every allocation made after it (initcheck; earlier allocations count as written) and the
// allocations not freed (leakcheck, LeakReports).
func (d *Device) EnableChecks(tools CheckTools) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.chk == nil {
		d.chk = &devCheck{allocs: map[uint64]*allocCheck{}}
	}
	d.chk.tools |= tools
}

// SetAllocOrigin names the host call that made the allocation at p, for leak reports; only
// allocations with an origin are leak-checked (not those the runtime makes for itself).
func (d *Device) SetAllocOrigin(p Ptr, origin string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if a := d.chk.live(uint64(p)); a != nil {
		a.origin = origin
	}
}

// LeakReports returns a report for each live allocation the host program made
// (SetAllocOrigin), in allocation order: at the program's exit, its leaks.
func (d *Device) LeakReports() []CheckReport {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.chk == nil || d.chk.tools&CheckLeak == 0 {
		return nil
	}
	var as []*allocCheck
	for _, a := range d.chk.allocs {
		if a.origin != "" {
			as = append(as, a)
		}
	}
	slices.SortFunc(as, func(a, b *allocCheck) int { return a.seq - b.seq })
	var rs []CheckReport
	for _, a := range as {
		rs = append(rs, CheckReport{Kind: Leak, Addr: a.addr, Size: a.size, Detail: a.origin, Count: 1})
	}
	return rs
}

func (c *devCheck) live(p uint64) *allocCheck {
	if c == nil {
		return nil
	}
	return c.allocs[p]
}

// malloc starts tracking a new allocation: nothing written yet.
func (c *devCheck) malloc(p Ptr, n int) {
	if c == nil {
		return
	}
	c.nalloc++
	a := &allocCheck{addr: uint64(p), size: n, seq: c.nalloc}
	if c.tools&CheckInit != 0 {
		a.bits = make([]uint64, (n+63)/64)
	}
	c.allocs[uint64(p)] = a
}

func (c *devCheck) free(p Ptr) {
	if c != nil {
		delete(c.allocs, uint64(p))
	}
}

// wroteHost marks n bytes at p written by the host (a copy or memset).
func (c *devCheck) wroteHost(d *Device, p Ptr, n int) {
	if c == nil {
		return
	}
	if a := c.allocAt(d, uint64(p)); a != nil {
		a.wrote(uint64(p), n)
	}
}

// allocAt returns the check state of the live allocation holding addr, or nil when there is
// none or it has no initcheck state.
func (c *devCheck) allocAt(d *Device, addr uint64) *allocCheck {
	if c == nil {
		return nil
	}
	idx := d.slotAt(addr)
	if idx == 0 {
		return nil
	}
	al := &d.allocs[idx]
	a := c.allocs[al.addr]
	if a == nil || a.bits == nil || addr-a.addr >= uint64(a.size) {
		return nil
	}
	return a
}

// wrote marks n bytes from addr written.
func (a *allocCheck) wrote(addr uint64, n int) {
	for i := addr - a.addr; i < addr-a.addr+uint64(n) && i < uint64(a.size); i++ {
		w := &a.bits[i/64]
		if bit := uint64(1) << (i % 64); atomic.LoadUint64(w)&bit == 0 {
			atomicOr64(w, bit)
		}
	}
}

func atomicOr64(w *uint64, bit uint64) {
	for {
		old := atomic.LoadUint64(w)
		if atomic.CompareAndSwapUint64(w, old, old|bit) {
			return
		}
	}
}

// written reports whether the byte at addr was written.
func (a *allocCheck) written(addr uint64) bool {
	i := addr - a.addr
	return atomic.LoadUint64(&a.bits[i/64])&(1<<(i%64)) != 0
}

// describe names the allocation and the offset of addr in it.
func (a *allocCheck) describe(addr uint64) string {
	s := fmt.Sprintf("offset %d of the %d-byte allocation at %#x", addr-a.addr, a.size, a.addr)
	if a.origin != "" {
		s += " made by " + a.origin
	}
	return s
}

// checkLaunch is a checked launch's state: its tools and the reports of its finished CTAs.
type checkLaunch struct {
	tools   CheckTools
	mod     *Module
	mu      sync.Mutex
	reports map[string]*CheckReport
}

// src is the source line of the PTX location loc, "" when the module has none.
func (cl *checkLaunch) src(loc string) string { return cl.mod.CheckSrc[loc] }

// merge adds a CTA's reports, keeping for each the example that happened first.
func (cl *checkLaunch) merge(rs map[string]*CheckReport) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	for k, r := range rs {
		old := cl.reports[k]
		if old == nil {
			cl.reports[k] = r
			continue
		}
		n := old.Count + r.Count
		if r.cta < old.cta || r.cta == old.cta && r.seq < old.seq {
			*old = *r
		}
		old.Count = n
	}
}

// result turns the launch's end into its reports: a warp-synchronization or deadlock fault
// that synccheck covers becomes a report too (the machine cannot run past it).
func (cl *checkLaunch) result(l *launch, err error) []CheckReport {
	var f *Fault
	if cl.tools&CheckSync != 0 && errors.As(err, &f) && (f.Kind == FaultWarpSync || f.Kind == FaultDeadlock) {
		kind := SyncMask
		if f.Kind == FaultDeadlock {
			kind = SyncDeadlock
		}
		t := int(f.Thread.X + l.Block.X*(f.Thread.Y+l.Block.Y*f.Thread.Z))
		r := &CheckReport{Kind: kind, Kernel: l.Kernel.Name, Detail: f.Detail, Count: 1, cta: ^uint64(0), Lanes: 1 << (t % WarpSize),
			Access: CheckAccess{Loc: f.Loc, Instr: f.Kind.String(), Src: cl.src(f.Loc), CTA: f.CTA, Thread: f.Thread, Warp: t / WarpSize, Lane: t % WarpSize}}
		if cl.reports[r.key()] == nil {
			cl.reports[r.key()] = r
		}
	}
	rs := make([]CheckReport, 0, len(cl.reports))
	for _, r := range cl.reports {
		rs = append(rs, *r)
	}
	sortReports(rs)
	return rs
}

// envCheck is the tools PTX2GO_CHECK names, read once: the checks a program built around a
// generated module with check hooks runs when its launches name none.
var envCheck = sync.OnceValue(func() CheckTools {
	t, err := ParseCheckTools(os.Getenv("PTX2GO_CHECK"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptx2go: PTX2GO_CHECK:", err)
		return 0
	}
	return t
})

// untrack stops checking the allocation at p: the device heap, which the runtime makes for
// itself. Its blocks are fresh at each malloc (ctaCheck.fresh) and initcheck does not cover
// them, as compute-sanitizer's covers cudaMalloc's memory, not the device heap.
func (d *Device) untrack(p Ptr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.chk.free(p)
}

// Wrote tells initcheck that host code wrote the n bytes at p directly (through Bytes): a
// device-to-device copy or a memset the caller did itself.
func (d *Device) Wrote(p Ptr, n int) { d.chk.wroteHost(d, p, n) }

// checkResult is a checked launch's error: a *CheckError when it found something (written to
// standard error too when the checks came from $PTX2GO_CHECK), else err.
func (l *launch) checkResult(err error, fromEnv bool) error {
	rs := l.chk.result(l, err)
	if len(rs) == 0 {
		return err
	}
	if fromEnv {
		WriteCheckReports(os.Stderr, rs)
		WriteCheckSummary(os.Stderr, len(rs))
	}
	return &CheckError{Reports: rs, Fault: err}
}
