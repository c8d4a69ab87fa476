package runtime

import (
	"fmt"
	"math/bits"

	"github.com/ptx2go/ptx2go/runtime/isa"
)

// MbarOp is one of the mbarrier instructions, which both back ends run through Warp.Mbarrier.
type MbarOp uint8

// The operations; B is the operand after the object's address.
const (
	MbarInit                 MbarOp = iota // mbarrier.init [a], count
	MbarInval                              // mbarrier.inval [a]
	MbarArrive                             // mbarrier.arrive state, [a]{, count}
	MbarArriveNoComplete                   // mbarrier.arrive.noComplete state, [a], count
	MbarArriveDrop                         // mbarrier.arrive_drop state, [a]{, count}
	MbarArriveDropNoComplete               // mbarrier.arrive_drop.noComplete state, [a], count
	MbarTestWait                           // mbarrier.test_wait and try_wait waitComplete, [a], state
	MbarTestWaitParity                     // their .parity forms: waitComplete, [a], phaseParity
	MbarPendingCount                       // mbarrier.pending_count count, state (no object)
	MbarCpAsyncArrive                      // cp.async.mbarrier.arrive [a]
	MbarCpAsyncArriveNoinc                 // cp.async.mbarrier.arrive.noinc [a]
)

// Mbarrier runs op for each lane l of m in increasing lane order on the 8-byte barrier object
// at A[l]&amask+off of space sp (A nil: off), which must lie in shared memory (sp shared, or
// generic pointing there); B[l] is the lane's count, state or parity, and D[l] (D may be nil)
// gets an arrive's state or pending_count's count. It returns the lanes whose wait found their
// phase complete. A try_wait returns at once, as after a time limit of zero. What PTX leaves
// undefined faults (FaultIllegal): a count outside 1..2^20-1, more arrivals than are pending,
// a .noComplete arrival that completes the phase, an object outside shared memory.
//
// cp.async.mbarrier.arrive is an immediate arrive-on, the copies it tracks having completed
// at issue (see CpAsync): without .noinc it increments the pending count and then arrives,
// which leaves the object as it was (an object not initialized faults); with .noinc it is an
// arrival of one, which may complete the phase.
func (w *Warp) Mbarrier(op MbarOp, sp Space, D, A, B *[WarpSize]uint64, amask, off uint64, m uint32, loc string) uint32 {
	var done uint32
	for mm := m; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros32(mm) & (WarpSize - 1)
		b := B[l]
		if op == MbarPendingCount {
			D[l] = isa.MbarPending(b)
			continue
		}
		addr := off
		if A != nil {
			addr += A[l] & amask
		}
		if sp == SpaceGeneric {
			if addr-uint64(SharedWindow) >= WindowSize {
				w.Fault(FaultIllegal, loc, l, fmt.Sprintf("mbarrier object at generic address %#x outside shared memory", addr))
			}
			addr -= uint64(SharedWindow)
		}
		if op == MbarTestWait || op == MbarTestWaitParity {
			o := LoadBits(w.Bytes(SpaceShared, addr, 8, l, loc))
			if op == MbarTestWait && isa.MbarDone(o, b) || op == MbarTestWaitParity && isa.MbarParityDone(o, b) {
				done |= 1 << l
			} else {
				w.progress.mbarWaited = true // for the scheduler's progress check (endSlice)
			}
			continue
		}
		mem := w.StoreBytes(SpaceShared, addr, 8, l, loc)
		switch op {
		case MbarInit:
			if b = uint64(uint32(b)); b == 0 || b > isa.MbarMaxCount {
				w.Fault(FaultIllegal, loc, l, fmt.Sprintf("mbarrier.init count %d outside 1..%d", b, isa.MbarMaxCount))
			}
			StoreBits(mem, isa.MbarInit(b))
		case MbarInval:
			StoreBits(mem, 0)
		case MbarCpAsyncArrive:
			if o := LoadBits(mem); isa.MbarPending(o) == 0 || isa.MbarPending(o) >= isa.MbarMaxCount {
				w.Fault(FaultIllegal, loc, l, fmt.Sprintf("cp.async.mbarrier.arrive with %d pending (an object not initialized, or no room for the increment)", isa.MbarPending(o)))
			}
		case MbarCpAsyncArriveNoinc:
			o := LoadBits(mem)
			w.mbarCheckArrival(o, 1, false, false, l, loc)
			StoreBits(mem, isa.MbarArrive(o, 1, false))
		default:
			o := LoadBits(mem)
			drop := op == MbarArriveDrop || op == MbarArriveDropNoComplete
			noComplete := op == MbarArriveNoComplete || op == MbarArriveDropNoComplete
			w.mbarCheckArrival(o, uint64(uint32(b)), drop, noComplete, l, loc)
			StoreBits(mem, isa.MbarArrive(o, uint64(uint32(b)), drop))
			if D != nil {
				D[l] = o
			}
		}
	}
	return done
}

// mbarCheckArrival faults where count arrivals on the barrier object o are undefined.
func (w *Warp) mbarCheckArrival(o, count uint64, drop, noComplete bool, l int, loc string) {
	pending := isa.MbarPending(o)
	switch {
	case count == 0 || count > isa.MbarMaxCount:
		w.Fault(FaultIllegal, loc, l, fmt.Sprintf("mbarrier arrival count %d outside 1..%d", count, isa.MbarMaxCount))
	case count > pending:
		w.Fault(FaultIllegal, loc, l, fmt.Sprintf("mbarrier arrival of %d with %d pending (an object not initialized, or more arrivals than it expects)", count, pending))
	case drop && count > isa.MbarExpected(o):
		w.Fault(FaultIllegal, loc, l, fmt.Sprintf("mbarrier.arrive_drop of %d with %d expected", count, isa.MbarExpected(o)))
	case noComplete && count == pending:
		w.Fault(FaultIllegal, loc, l, "mbarrier arrival with .noComplete completes the phase")
	}
}
