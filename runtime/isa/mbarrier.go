package isa

// An mbarrier object is 8 bytes of shared memory whose layout PTX leaves opaque. Here it holds
// the pending arrivals of the current phase (bits 0-20), the arrivals each phase expects
// (bits 21-41) and the number of the current phase (bits 42-62, wrapping). An arrive's state
// is the object as it was before the arrival, so it names the phase the arrival belongs to.

// MbarMaxCount is the largest arrival count an mbarrier takes (2^20 - 1).
const MbarMaxCount = 1<<20 - 1

const (
	mbarField      = 1<<21 - 1
	mbarExpectedAt = 21
	mbarPhaseAt    = 42
)

// MbarInit is a new barrier object expecting count arrivals per phase, in phase 0.
func MbarInit(count uint64) uint64 { return count | count<<mbarExpectedAt }

// MbarPending is the pending arrival count of a barrier object or an arrive's state
// (mbarrier.pending_count).
func MbarPending(o uint64) uint64 { return o & mbarField }

// MbarExpected is the arrival count each phase of the barrier object o expects.
func MbarExpected(o uint64) uint64 { return o >> mbarExpectedAt & mbarField }

// MbarPhase is the number of the current phase of the barrier object o.
func MbarPhase(o uint64) uint64 { return o >> mbarPhaseAt & mbarField }

// MbarArrive is the barrier object o after count arrivals (count <= MbarPending(o)); with
// drop (arrive_drop) this and later phases expect count fewer. The arrival that leaves no
// pending arrival completes the phase: the next begins with the expected count pending.
func MbarArrive(o, count uint64, drop bool) uint64 {
	pending, expected, phase := MbarPending(o)-count, MbarExpected(o), MbarPhase(o)
	if drop {
		expected -= count
	}
	if pending == 0 {
		pending, phase = expected, (phase+1)&mbarField
	}
	return pending | expected<<mbarExpectedAt | phase<<mbarPhaseAt
}

// MbarDone reports whether the phase of the arrive state s has completed on the barrier
// object o (mbarrier.test_wait and try_wait).
func MbarDone(o, s uint64) bool { return MbarPhase(o) != MbarPhase(s) }

// MbarParityDone reports whether the phase of parity p (0 or 1) has completed on the barrier
// object o, that is, the current phase has the other parity (the .parity forms).
func MbarParityDone(o, p uint64) bool { return MbarPhase(o)&1 != p&1 }
