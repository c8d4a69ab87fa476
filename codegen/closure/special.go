package closure

import (
	"math/bits"
	goruntime "runtime"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// specialReader returns how to read special register name: once per warp for the registers
// that are the same in every lane of a warp (warp), or per lane (lane). Both are nil for an
// unknown name. %tid has its own loop (see emitter.readSpecial).
func specialReader(name string) (warp func(w *runtime.Warp) uint64, lane func(w *runtime.Warp, l int) uint64) {
	comp := func(d runtime.Dim3, c byte) uint64 {
		switch c {
		case 'x':
			return uint64(d.X)
		case 'y':
			return uint64(d.Y)
		}
		return uint64(d.Z)
	}
	if n := len(name); n > 2 && name[n-2] == '.' {
		c := name[n-1]
		switch name[:n-2] {
		case "%tid":
			i := int(c - 'x')
			return nil, func(w *runtime.Warp, l int) uint64 { return uint64(w.Tid[i][l]) }
		case "%ntid":
			return func(w *runtime.Warp) uint64 { return comp(w.NTID(), c) }, nil
		case "%ctaid":
			return func(w *runtime.Warp) uint64 { return comp(w.CTAID(), c) }, nil
		case "%nctaid", "%nclusterid":
			return func(w *runtime.Warp) uint64 { return comp(w.NCTAID(), c) }, nil
		case "%clusterid":
			// Without clusters every CTA is a cluster of one.
			return func(w *runtime.Warp) uint64 { return comp(w.CTAID(), c) }, nil
		case "%cluster_ctaid":
			return func(*runtime.Warp) uint64 { return 0 }, nil
		case "%cluster_nctaid":
			return func(*runtime.Warp) uint64 { return 1 }, nil
		}
		return nil, nil
	}
	switch name {
	case "%laneid":
		return nil, func(w *runtime.Warp, l int) uint64 { return uint64(l) }
	case "%warpid":
		return func(w *runtime.Warp) uint64 { return uint64(w.ID) }, nil
	case "%nwarpid":
		return func(w *runtime.Warp) uint64 { return uint64(w.NumWarps()) }, nil
	case "%lanemask_eq":
		return nil, func(w *runtime.Warp, l int) uint64 { return runtime.LanemaskEq(l) }
	case "%lanemask_lt":
		return nil, func(w *runtime.Warp, l int) uint64 { return runtime.LanemaskLt(l) }
	case "%lanemask_le":
		return nil, func(w *runtime.Warp, l int) uint64 { return runtime.LanemaskLe(l) }
	case "%lanemask_gt":
		return nil, func(w *runtime.Warp, l int) uint64 { return runtime.LanemaskGt(l) }
	case "%lanemask_ge":
		return nil, func(w *runtime.Warp, l int) uint64 { return runtime.LanemaskGe(l) }
	case "%clock":
		return func(*runtime.Warp) uint64 { return uint64(uint32(runtime.Clock64())) }, nil
	case "%clock_hi":
		return func(*runtime.Warp) uint64 { return runtime.Clock64() >> 32 }, nil
	case "%clock64":
		return func(*runtime.Warp) uint64 { return runtime.Clock64() }, nil
	case "%globaltimer":
		return func(*runtime.Warp) uint64 { return runtime.GlobalTimer() }, nil
	case "%globaltimer_lo":
		return func(*runtime.Warp) uint64 { return uint64(uint32(runtime.GlobalTimer())) }, nil
	case "%globaltimer_hi":
		return func(*runtime.Warp) uint64 { return runtime.GlobalTimer() >> 32 }, nil
	case "%dynamic_smem_size":
		return func(w *runtime.Warp) uint64 { return uint64(w.DynamicShared()) }, nil
	case "%smid", "%gridid", "%cluster_ctarank", "%is_explicit_cluster":
		return func(*runtime.Warp) uint64 { return 0 }, nil
	case "%nsmid", "%cluster_nctarank":
		return func(*runtime.Warp) uint64 { return 1 }, nil
	}
	if i, ok := envReg(name); ok {
		return func(w *runtime.Warp) uint64 { return w.EnvReg(i) }, nil
	}
	if ssa.PerfMonitorRegister(name) {
		return func(*runtime.Warp) uint64 { return 0 }, nil
	}
	return nil, nil
}

// envReg returns the number of special register %envreg0 ... %envreg31.
func envReg(name string) (int, bool) {
	n, ok := strings.CutPrefix(name, "%envreg")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(n)
	return i, err == nil && i >= 0 && i < 32 && strconv.Itoa(i) == n
}

// nanosleep.u32 t suspends the thread for up to about t nanoseconds (at most 1 ms) in the
// ISA; here it yields the processor once, which keeps spin-wait loops that poll memory written
// by other CTAs fair, and never sleeps.
func (e *emitter) nanosleep() runtime.Instr {
	return func(*runtime.Warp, uint32) { goruntime.Gosched() }
}

// pmevent a and pmevent.mask a signal performance-monitor events; there are no counters to
// raise here, so they do nothing. The operand must be an immediate (an event 0-15, or a
// 16-bit mask). griddepcontrol and setmaxnreg do nothing here either (see layout.CheckHint).
func (e *emitter) pmevent() runtime.Instr { return e.noOp() }

// noOp is an instruction that does nothing.
func (e *emitter) noOp() runtime.Instr { return func(*runtime.Warp, uint32) {} }

// brkpt stops the launch with a breakpoint fault at the first executing lane.
func (e *emitter) brkpt() runtime.Instr {
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		w.Fault(runtime.FaultBreakpoint, loc, bits.TrailingZeros32(m), "")
	}
}
