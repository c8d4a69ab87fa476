package runtime

import "fmt"

// CheckOp is what a check hook's instruction does.
type CheckOp uint8

// The instructions the back ends put check hooks before.
const (
	CheckLoad     CheckOp = iota // a load (ld, ldu, the read of cp.async)
	CheckStore                   // a store (st, the write of cp.async)
	CheckAtomic                  // an atomic or reduction: never a hazard, but it writes
	CheckUniform                 // a .uni branch: Pred must be the same in every lane
	CheckWarpSync                // a warp-level synchronization: orders the lanes each membermask names
	CheckFence                   // a fence (membar, fence): a strong store after it releases
	CheckRelease                 // an mbarrier arrive (and cp.async's): releases at the object's address
	CheckAcquire                 // an mbarrier test_wait/try_wait: acquires what the arrivals released
)

// CheckSite is one instruction's check hook, built once by the back end: what the instruction
// does and where its address is. Lane l's address is register Base (its low 32 bits unless
// Wide) plus Off; with Base < 0 it is Off, plus the address of module global Global when
// Global >= 0, plus the frame's LocalBase when LocalFrame.
type CheckSite struct {
	Op    CheckOp
	Space Space
	Size  int // bytes per lane
	Base  int
	Wide  bool
	Off   uint64
	// Global is a module global variable's index, or -1.
	Global     int
	LocalFrame bool
	// Guard is the instruction's guard predicate, or -1.
	Guard    int
	GuardNeg bool
	// Pred is a .uni branch's predicate (CheckUniform), PredNeg whether the branch negates it;
	// Mask the membermask register of a warp-level synchronization (CheckWarpSync).
	Pred    int
	PredNeg bool
	Mask    int
	// Joint says the warp-level synchronization exchanges values (shfl, vote, match, redux):
	// its lanes run it together, at one instruction; bar.warp.sync's lanes may meet at
	// different ones under its.
	Joint bool
	// Strong says the access is .volatile, .relaxed, .acquire or .release (a strong access
	// of the memory model): a strong load acquires what a release published at its address,
	// a strong store after a fence of its thread releases. Release says the access releases
	// by itself (.release, .acq_rel).
	Strong, Release bool
	// Val is one more than the register a scalar store writes, 0 for none.
	Val int
	// Loc, Instr and Src name the instruction: PTX file:line, its spelling and the CUDA source
	// line of its .loc ("" without one).
	Loc, Instr, Src string
}

// addr is lane l's address.
func (s *CheckSite) addr(w *Warp, l int) uint64 {
	if s.Base >= 0 {
		v := w.R[s.Base*WarpSize+l]
		if !s.Wide {
			v = uint64(uint32(v))
		}
		return v + s.Off
	}
	a := s.Off
	if s.Global >= 0 {
		a += w.GlobalVar(s.Global)
	}
	if s.LocalFrame {
		a += uint64(w.LocalBase)
	}
	return a
}

// CheckMem is the hook of a checked module (Module.CheckHooks) before an instruction: it
// records the accesses of the lanes m (those whose guard holds) for the launch's tools, or
// checks a .uni branch or orders the lanes of a warp-level synchronization.
func (w *Warp) CheckMem(s *CheckSite, m uint32) {
	cc := w.CTA.chk
	if cc == nil {
		return
	}
	if s.Guard >= 0 {
		p := w.P[s.Guard]
		if s.GuardNeg {
			p = ^p
		}
		m &= p
	}
	if m == 0 {
		return
	}
	switch s.Op {
	case CheckUniform:
		cc.uniform(w, s, m)
		return
	case CheckWarpSync:
		cc.warpSync(w, s, m)
		return
	case CheckFence:
		cc.fenced[w.ID] |= m
		return
	}
	if cc.tools&(CheckRace|CheckInit) == 0 {
		return // synccheck alone looks at no memory access
	}
	if s.Op == CheckStore && s.Val > 0 && s.Space != SpaceLocal && m&(m-1) != 0 {
		m = cc.sameWrites(w, s, m)
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		l := firstLane(mm)
		cc.access(w, l, s, s.addr(w, l))
	}
}

// sameWrites drops from m the lanes whose store writes the value an earlier lane of m writes
// to the same address: one store of a warp whose lanes write one value to one place (as
// cooperative groups' collectives write a warp's result) is one write, not a race.
func (cc *ctaCheck) sameWrites(w *Warp, s *CheckSite, m uint32) uint32 {
	V := w.R[(s.Val-1)*WarpSize:][:WarpSize]
	out := m
	for x := m; x != 0; x &= x - 1 {
		l := firstLane(x)
		if out&(1<<l) == 0 {
			continue
		}
		a := s.addr(w, l)
		if a-uint64(LocalWindow) < WindowSize {
			continue // each lane's own local memory
		}
		for y := x & (x - 1); y != 0; y &= y - 1 {
			k := firstLane(y)
			if out&(1<<k) != 0 && V[k] == V[l] && s.addr(w, k) == a {
				out &^= 1 << k
			}
		}
	}
	return out
}

// acc is a recorded access in the race shadow: who, where, and the clocks that order it.
type acc struct {
	site  *CheckSite
	warp  uint16
	lane  uint8
	phase uint32 // the CTA's count of released CTA-wide barriers then
	wclk  uint32 // the warp's own clock (partial barriers)
	lclk  uint32 // the lane's own clock (warp-level synchronizations, its)
	seq   uint64 // the CTA's event count then
}

// cell is the shadow of one byte: the last write, the reads since it that no later read
// ordered, and whether anything (an atomic too) wrote it.
type cell struct {
	w     acc
	reads []acc
	init  bool
}

const shadowPageBits = 8

type shadowPage [1 << shadowPageBits]cell

// shadowMap is the shadow of one address space, by page.
type shadowMap map[uint64]*shadowPage

// barCheck is a barrier's state for the checks: the joined clocks of the warps that arrived
// in this phase, the warps, and the thread count and place of the first arrival.
type barCheck struct {
	active bool
	kind   BarrierKind
	join   []uint32
	warps  uint64
	count  int
	loc    string
	site   *CheckSite
}

// ctaCheck is the checks' state of the CTA a worker runs: clocks, shadows and reports.
type ctaCheck struct {
	cl    *checkLaunch
	tools CheckTools
	its   bool
	id    uint64
	seq   uint64
	phase uint32
	nw    int
	// fenced are, per warp, the lanes that executed a fence: their strong stores release.
	fenced []uint32
	// syncs are the release clocks of the addresses (a word each) that atomics and releasing
	// stores synchronize through, by space and address.
	syncs map[syncKey]*syncClock
	// wvc is each warp's vector clock over the warps (wvc[w*nw+k]); lvc each lane's over the
	// lanes of its warp.
	wvc            []uint32
	lvc            [][WarpSize][WarpSize]uint32
	bar            [NumBarriers]barCheck
	shared, global shadowMap
	pool           []*shadowPage
	// local marks, per warp, the bytes of each lane's local memory written (bit lane*stride+addr).
	local   [][]uint64
	stride  int
	reports map[string]*CheckReport
	// sites of the runtime's own reports (barriers), by PTX location.
	barSites map[string]*CheckSite
}

func newCTACheck(cl *checkLaunch, c *CTA) *ctaCheck {
	nw := len(c.Warps)
	cc := &ctaCheck{cl: cl, tools: cl.tools, its: c.L.sched == SchedITS, nw: nw,
		wvc: make([]uint32, nw*nw), fenced: make([]uint32, nw), syncs: map[syncKey]*syncClock{}, lvc: make([][WarpSize][WarpSize]uint32, nw),
		shared: shadowMap{}, global: shadowMap{}, local: make([][]uint64, nw), stride: c.L.localStride,
		reports: map[string]*CheckReport{}, barSites: map[string]*CheckSite{}}
	for i := range cc.local {
		cc.local[i] = make([]uint64, (WarpSize*cc.stride+63)/64)
	}
	for i := range cc.bar {
		cc.bar[i].join = make([]uint32, nw)
	}
	return cc
}

// start resets the state for the CTA with linear index id.
func (cc *ctaCheck) start(id uint64) {
	cc.id, cc.seq, cc.phase = id, 0, 0
	clear(cc.wvc)
	clear(cc.fenced)
	clear(cc.syncs)
	for w := range cc.nw {
		cc.wvc[w*cc.nw+w] = 1
		for l := range WarpSize {
			cc.lvc[w][l] = [WarpSize]uint32{}
			cc.lvc[w][l][l] = 1
		}
		clear(cc.local[w])
	}
	for i := range cc.bar {
		cc.bar[i].reset()
	}
	cc.recycle(cc.shared)
	cc.recycle(cc.global)
}

func (b *barCheck) reset() {
	b.active, b.warps, b.count, b.loc = false, 0, -1, ""
	clear(b.join)
}

// recycle empties a shadow, keeping its pages for reuse.
func (cc *ctaCheck) recycle(m shadowMap) {
	for k, p := range m {
		for i := range p {
			p[i] = cell{reads: p[i].reads[:0]}
		}
		cc.pool = append(cc.pool, p)
		delete(m, k)
	}
}

// cell returns the shadow cell of address a in m.
func (cc *ctaCheck) cell(m shadowMap, a uint64) *cell {
	k := a >> shadowPageBits
	p := m[k]
	if p == nil {
		if n := len(cc.pool); n > 0 {
			p, cc.pool = cc.pool[n-1], cc.pool[:n-1]
		} else {
			p = new(shadowPage)
		}
		m[k] = p
	}
	return &p[a&(1<<shadowPageBits-1)]
}

// finish hands the CTA's reports to the launch.
func (cc *ctaCheck) finish() {
	if len(cc.reports) > 0 {
		cc.cl.merge(cc.reports)
		clear(cc.reports)
	}
}

// access records lane l's access of s.Size bytes at addr.
func (cc *ctaCheck) access(w *Warp, l int, s *CheckSite, addr uint64) {
	cc.seq++
	sp := s.Space
	if sp == SpaceGeneric {
		switch {
		case addr-uint64(SharedWindow) < WindowSize:
			sp, addr = SpaceShared, addr-uint64(SharedWindow)
		case addr-uint64(LocalWindow) < WindowSize:
			sp, addr = SpaceLocal, addr-uint64(LocalWindow)
		case InParamWindow(addr):
			return
		default:
			sp = SpaceGlobal
		}
	}
	n := uint64(s.Size)
	if s.Op == CheckRelease || s.Op == CheckAcquire {
		if cc.tools&CheckRace != 0 && sp != SpaceLocal {
			if k := (syncKey{sp, addr &^ 3}); s.Op == CheckRelease {
				cc.publish(w, l, k)
			} else {
				cc.acquire(w, l, k)
			}
		}
		return
	}
	switch sp {
	case SpaceShared:
		if addr > uint64(len(w.CTA.Shared)) || uint64(len(w.CTA.Shared))-addr < n {
			return // the access faults next
		}
		if cc.synchronize(w, l, s, SpaceShared, addr) {
			s = s.asSync()
		}
		cc.shadowAccess(w, l, s, cc.shared, "shared", addr, addr, nil)
	case SpaceGlobal:
		d := w.CTA.L.Dev
		if d.NearBytes(addr, int(n)) == nil && d.farBytes(addr, int(n)) == nil {
			return
		}
		var ia *allocCheck
		if cc.tools&CheckInit != 0 {
			ia = d.chk.allocAt(d, addr)
		}
		if cc.synchronize(w, l, s, SpaceGlobal, addr) {
			s = s.asSync()
		}
		cc.shadowAccess(w, l, s, cc.global, "global", addr, addr, ia)
	case SpaceLocal:
		if cc.tools&CheckInit == 0 || addr > uint64(cc.stride) || uint64(cc.stride)-addr < n {
			return
		}
		bm := cc.local[w.ID]
		base := uint64(l*cc.stride) + addr
		if s.Op == CheckLoad {
			for i := range n {
				if b := base + i; bm[b/64]&(1<<(b%64)) == 0 {
					cc.uninit(w, l, s, "local", addr, "")
					break
				}
			}
			return
		}
		for i := range n {
			b := base + i
			bm[b/64] |= 1 << (b % 64)
		}
	}
}

// shadowAccess checks and records an access of shared memory or CTA-local global memory at
// addr (key: its address in the shadow m); ia is the initcheck state of a global allocation.
func (cc *ctaCheck) shadowAccess(w *Warp, l int, s *CheckSite, m shadowMap, space string, key, addr uint64, ia *allocCheck) {
	me := acc{site: s, warp: uint16(w.ID), lane: uint8(l), phase: cc.phase,
		wclk: cc.wvc[w.ID*cc.nw+w.ID], lclk: cc.lvc[w.ID][l][l], seq: cc.seq}
	race := cc.tools&CheckRace != 0
	init := cc.tools&CheckInit != 0
	n := uint64(s.Size)
	var found [4]struct {
		kind  CheckKind
		prior acc
		addr  uint64
	}
	nf := 0
	note := func(k CheckKind, p *acc, a uint64) {
		for i := range nf {
			if found[i].kind == k && found[i].prior.site == p.site {
				return
			}
		}
		if nf < len(found) {
			found[nf].kind, found[nf].prior, found[nf].addr = k, *p, a
			nf++
		}
	}
	uninit := false
	for i := range n {
		c := cc.cell(m, key+i)
		switch s.Op {
		case CheckAtomic:
			c.init = true
			if ia != nil {
				ia.wrote(addr+i, 1)
			}
		case CheckLoad:
			if init && !c.init && (ia == nil && space == "shared" || ia != nil && !ia.written(addr+i)) {
				uninit = true
			}
			if !race {
				continue
			}
			if c.w.site != nil && !cc.ordered(&c.w, w.ID, l) {
				note(HazardRAW, &c.w, addr+i)
			}
			cc.addRead(c, me, w.ID, l)
		case CheckStore:
			if race {
				if c.w.site != nil && !cc.ordered(&c.w, w.ID, l) {
					note(HazardWAW, &c.w, addr+i)
				}
				for j := range c.reads {
					if r := &c.reads[j]; !cc.ordered(r, w.ID, l) {
						note(HazardWAR, r, addr+i)
					}
				}
				c.reads = c.reads[:0]
			}
			c.w, c.init = me, true
			if ia != nil {
				ia.wrote(addr+i, 1)
			}
		}
	}
	for i := range nf {
		f := &found[i]
		cc.hazard(w, l, s, f.kind, &f.prior, space, f.addr, ia)
	}
	if uninit {
		alloc := ""
		if ia != nil {
			alloc = ia.describe(addr)
		}
		cc.uninit(w, l, s, space, addr, alloc)
	}
}

// addRead adds a read to a cell's reads, dropping those it is ordered after (a later write
// unordered with one of them is unordered with it too).
func (cc *ctaCheck) addRead(c *cell, me acc, w, l int) {
	kept := c.reads[:0]
	for _, r := range c.reads {
		if !cc.ordered(&r, w, l) {
			kept = append(kept, r)
		}
	}
	c.reads = append(kept, me)
}

// ordered reports whether access a happened before what lane l of warp w does now.
func (cc *ctaCheck) ordered(a *acc, w, l int) bool {
	if a.phase < cc.phase {
		return true
	}
	if int(a.warp) == w {
		if int(a.lane) == l || !cc.its {
			return true
		}
		return a.lclk <= cc.lvc[w][l][a.lane]
	}
	return a.wclk <= cc.wvc[w*cc.nw+int(a.warp)]
}

// accessOf describes what lane l of w does at s.
func (cc *ctaCheck) accessOf(w *Warp, l int, s *CheckSite) CheckAccess {
	return CheckAccess{Loc: s.Loc, Instr: s.Instr, Src: s.Src, Write: s.Op == CheckStore || s.Op == CheckAtomic,
		CTA: w.CTA.ID, Thread: w.Thread(l), Warp: w.ID, Lane: l}
}

// priorOf describes a recorded access.
func (cc *ctaCheck) priorOf(w *Warp, a *acc) CheckAccess {
	c := w.CTA
	t := c.L.Block.at(uint64(int(a.warp)*WarpSize + int(a.lane)))
	return CheckAccess{Loc: a.site.Loc, Instr: a.site.Instr, Src: a.site.Src, Write: a.site.Op == CheckStore,
		CTA: c.ID, Thread: t, Warp: int(a.warp), Lane: int(a.lane)}
}

func (cc *ctaCheck) hazard(w *Warp, l int, s *CheckSite, k CheckKind, prior *acc, space string, addr uint64, ia *allocCheck) {
	r := &CheckReport{Kind: k, Space: space, Addr: addr, Size: s.Size, Access: cc.accessOf(w, l, s), Prior: cc.priorOf(w, prior)}
	if ia != nil {
		r.Alloc = ia.describe(addr)
	}
	cc.add(w, r)
}

func (cc *ctaCheck) uninit(w *Warp, l int, s *CheckSite, space string, addr uint64, alloc string) {
	cc.add(w, &CheckReport{Kind: Uninitialized, Space: space, Addr: addr, Size: s.Size, Alloc: alloc, Access: cc.accessOf(w, l, s)})
}

// add counts a report of the CTA, keeping the first of each key as its example.
func (cc *ctaCheck) add(w *Warp, r *CheckReport) {
	r.Kernel = w.CTA.L.Kernel.Name
	r.cta, r.seq, r.Count = cc.id, cc.seq, 1
	if r.Lanes == 0 {
		r.Lanes = 1 << r.Access.Lane
	}
	k := r.key()
	if old := cc.reports[k]; old != nil {
		old.Count++
		return
	}
	cc.reports[k] = r
}

// warpSync orders, under its, the lanes each executing lane's membermask names among m.
func (cc *ctaCheck) warpSync(w *Warp, s *CheckSite, m uint32) {
	cc.seq++
	M := w.R[s.Mask*WarpSize:][:WarpSize]
	if cc.tools&CheckSync != 0 {
		for x := m; x != 0; x &= x - 1 {
			l := firstLane(x)
			// Under its, bar.warp.sync's lanes may meet at different instructions: the
			// machine makes the group wait for the lanes it names (warpSynced orders them),
			// and lanes that never arrive are its fault.
			if out := uint32(M[l]) & w.Lanes &^ m; out != 0 && (s.Joint || !cc.its) {
				cc.add(w, &CheckReport{Kind: SyncMask, Access: cc.accessOf(w, l, s), Lanes: m,
					Detail: fmt.Sprintf("membermask %#08x names lanes %#08x that do not execute it with lanes %#08x", uint32(M[l]), out, m)})
				break
			}
			if k := firstLane(uint32(M[l]) & m); uint32(M[k]) != uint32(M[l]) {
				cc.add(w, &CheckReport{Kind: SyncMask, Access: cc.accessOf(w, l, s), Lanes: m,
					Detail: fmt.Sprintf("membermask %#08x of lane %d differs from membermask %#08x of lane %d, which it names", uint32(M[l]), l, uint32(M[k]), k)})
				break
			}
		}
	}
	if !cc.its || cc.tools&CheckRace == 0 {
		return
	}
	lvc := &cc.lvc[w.ID]
	done := uint32(0)
	for x := m; x != 0; x &= x - 1 {
		l := firstLane(x)
		g := uint32(M[l])&m | 1<<l
		if done&(1<<l) != 0 {
			continue
		}
		var j [WarpSize]uint32
		for y := g; y != 0; y &= y - 1 {
			for k, v := range lvc[firstLane(y)] {
				j[k] = max(j[k], v)
			}
		}
		for y := g; y != 0; y &= y - 1 {
			i := firstLane(y)
			lvc[i] = j
			lvc[i][i]++
		}
		done |= g
	}
}

// uniform reports a .uni branch whose predicate differs between the lanes m.
func (cc *ctaCheck) uniform(w *Warp, s *CheckSite, m uint32) {
	if cc.tools&CheckSync == 0 {
		return
	}
	cc.seq++
	p := w.P[s.Pred]
	if s.PredNeg {
		p = ^p
	}
	if t := p & m; t != 0 && t != m {
		l := firstLane(m)
		cc.add(w, &CheckReport{Kind: SyncUni, Access: cc.accessOf(w, l, s), Lanes: m,
			Detail: fmt.Sprintf("bra.uni: lanes %#08x take the branch, lanes %#08x do not", t, m&^t)})
	}
}

// barSite is the site of a barrier instruction for reports.
func (cc *ctaCheck) barSite(loc string, what string) *CheckSite {
	s := cc.barSites[loc]
	if s == nil {
		s = &CheckSite{Loc: loc, Instr: what, Src: cc.cl.src(loc)}
		cc.barSites[loc] = s
	}
	return s
}

// arrive records lanes m of w arriving at barrier id (b): their clocks join the barrier's,
// and the sync checks look at who arrives.
func (cc *ctaCheck) arrive(w *Warp, b *Barrier, id uint64, m uint32, loc string, count int) {
	cc.seq++
	bc := &cc.bar[id]
	s := cc.barSite(loc, b.Kind.String())
	if !bc.active {
		bc.active, bc.loc, bc.site, bc.count, bc.kind = true, loc, s, count, b.Kind
	}
	row := cc.wvc[w.ID*cc.nw:][:cc.nw]
	for k, v := range row {
		bc.join[k] = max(bc.join[k], v)
	}
	bc.warps |= 1 << w.ID
	row[w.ID]++
	if cc.tools&CheckSync == 0 {
		return
	}
	l := firstLane(m)
	if count != bc.count {
		cc.add(w, &CheckReport{Kind: SyncCount, Access: cc.accessOf(w, l, s), Lanes: m,
			Detail: fmt.Sprintf("barrier %d: thread count %s here, %s at the first arrival (%s)", id, countText(count), countText(bc.count), bc.loc)})
	}
	if count < 0 && bc.count < 0 && b.Kind != BarArrive && bc.kind != BarArrive && loc != bc.loc {
		// bar.sync is barrier.sync.aligned: every thread executes the same barrier
		// instruction. Threads meeting at different __syncthreads() synchronize nothing the
		// program meant (a barrier inside an if, another after it).
		cc.add(w, &CheckReport{Kind: SyncDivergent, Access: cc.accessOf(w, l, bc.site), Lanes: m,
			Detail: fmt.Sprintf("barrier %d: lanes %#08x of warp %d arrive at %s, threads before them at %s, in the same phase", id, m, w.ID, loc, bc.loc)})
	}
	if !cc.its && m != w.Active() {
		cc.add(w, &CheckReport{Kind: SyncDivergent, Access: cc.accessOf(w, l, s), Lanes: m,
			Detail: fmt.Sprintf("barrier %d in divergent code: lanes %#08x of the warp arrive, lanes %#08x have not exited and do not", id, m, w.Active()&^m)})
	}
}

func countText(n int) string {
	if n < 0 {
		return "all threads"
	}
	return fmt.Sprint(n)
}

// release opens barrier id: the warps that waited at it take its joined clock; a barrier of
// every thread starts a new phase. Threads that exited instead of arriving are no error: a
// barrier waits for the threads that have not exited (PTX's exit releases the barriers that
// only the exiting threads held up).
func (cc *ctaCheck) release(c *CTA, id int, bar *barrier) {
	cc.seq++
	bc := &cc.bar[id]
	if bar.expected == 0 {
		cc.phase++
	} else {
		for _, bw := range bar.waiting {
			if bw.op.Kind == BarArrive {
				continue
			}
			row := cc.wvc[bw.w.ID*cc.nw:][:cc.nw]
			for k, v := range bc.join {
				row[k] = max(row[k], v)
			}
		}
	}
	bc.reset()
}

// exit notes lanes m of w exiting: nothing to check (a barrier waits for the threads that
// have not exited).
func (cc *ctaCheck) exit(w *Warp, m uint32) {}

func (k BarrierKind) String() string {
	switch k {
	case BarArrive:
		return "bar.arrive"
	case BarRedPopc:
		return "bar.red.popc"
	case BarRedAnd:
		return "bar.red.and"
	case BarRedOr:
		return "bar.red.or"
	}
	return "bar.sync"
}

// warpSynced orders the lanes free of w that the machine let go on together from a
// bar.warp.sync under its, where they met from different instructions (Warp.releaseSyncs).
func (cc *ctaCheck) warpSynced(w *Warp, free uint32) {
	if cc.tools&CheckRace == 0 {
		return
	}
	lvc := &cc.lvc[w.ID]
	var j [WarpSize]uint32
	for y := free; y != 0; y &= y - 1 {
		for k, v := range lvc[firstLane(y)] {
			j[k] = max(j[k], v)
		}
	}
	for y := free; y != 0; y &= y - 1 {
		i := firstLane(y)
		lvc[i] = j
		lvc[i][i]++
	}
}

// syncKey is an address atomics and releasing stores synchronize through: its space and word.
type syncKey struct {
	space Space
	addr  uint64
}

// syncClock is what the releases at an address published: the warps' clocks and, per warp,
// its lanes' clocks (lanes of one warp are ordered by their own clocks under its).
type syncClock struct {
	w []uint32
	l map[int]*[WarpSize]uint32
}

// synchronize applies the memory model's synchronization to lane l's access at s. An atomic
// acquires and releases at its address (an RMW: NVIDIA's cooperative groups build their tile
// barriers from bare shared-memory atomics and volatile polling); a strong store releases when
// it is .release or its lane executed a fence before it (PTX's release pattern: fence, then a
// strong write); a strong load acquires what was released at its address, without asking for
// a fence after it (the lock acquisitions CUDA programs write are atomicCAS and then plain
// accesses). Addresses synchronize by 4-byte word. It reports whether the access is a
// releasing store, a synchronizing write that is no hazard itself (as an atomic).
func (cc *ctaCheck) synchronize(w *Warp, l int, s *CheckSite, sp Space, addr uint64) bool {
	if cc.tools&CheckRace == 0 {
		return false
	}
	k := syncKey{sp, addr &^ 3}
	switch s.Op {
	case CheckAtomic:
		cc.acquire(w, l, k)
		cc.publish(w, l, k)
	case CheckLoad:
		if s.Strong {
			cc.acquire(w, l, k)
		}
	case CheckStore:
		if s.Strong && (s.Release || cc.fenced[w.ID]&(1<<l) != 0) {
			cc.publish(w, l, k)
			return true
		}
	}
	return false
}

// acquire joins the clocks released at k into lane l of w.
func (cc *ctaCheck) acquire(w *Warp, l int, k syncKey) {
	sc := cc.syncs[k]
	if sc == nil {
		return
	}
	row := cc.wvc[w.ID*cc.nw:][:cc.nw]
	for i, v := range sc.w {
		row[i] = max(row[i], v)
	}
	if lc := sc.l[w.ID]; lc != nil {
		for i, v := range lc {
			cc.lvc[w.ID][l][i] = max(cc.lvc[w.ID][l][i], v)
		}
	}
}

// publish (a release) joins the clocks of lane l of w into k's, then advances them: what the lane does
// next is not released.
func (cc *ctaCheck) publish(w *Warp, l int, k syncKey) {
	sc := cc.syncs[k]
	if sc == nil {
		sc = &syncClock{w: make([]uint32, cc.nw), l: map[int]*[WarpSize]uint32{}}
		cc.syncs[k] = sc
	}
	row := cc.wvc[w.ID*cc.nw:][:cc.nw]
	for i, v := range row {
		sc.w[i] = max(sc.w[i], v)
	}
	lc := sc.l[w.ID]
	if lc == nil {
		lc = new([WarpSize]uint32)
		sc.l[w.ID] = lc
	}
	for i, v := range cc.lvc[w.ID][l] {
		lc[i] = max(lc[i], v)
	}
	row[w.ID]++
	cc.lvc[w.ID][l][l]++
}

// asSync is the site of a releasing store seen as a synchronizing write (as an atomic).
func (s *CheckSite) asSync() *CheckSite {
	c := *s
	c.Op = CheckAtomic
	return &c
}

// fresh forgets the history of the n bytes at addr, a block the device heap's malloc just
// returned: what threads did with its memory before it was freed and handed out again is
// ordered by the heap's own lock, never a race with what its new owner does.
func (cc *ctaCheck) fresh(addr, n uint64) {
	for a := addr; a < addr+n; {
		p := cc.global[a>>shadowPageBits]
		end := min(addr+n, (a>>shadowPageBits+1)<<shadowPageBits)
		if p != nil {
			for b := a; b < end; b++ {
				c := &p[b&(1<<shadowPageBits-1)]
				*c = cell{reads: c.reads[:0]}
			}
		}
		a = end
	}
}
