package runtime

// Memory access for instructions. Each returns the n bytes a lane addresses, or stops the launch
// with an out-of-bounds or misaligned fault naming the instruction's location, the lane and the
// address. n is a power of two and the access must be aligned to it.

// GlobalBytes addresses global (and const) memory.
func (w *Warp) GlobalBytes(addr uint64, n int, lane int, loc string) []byte {
	if addr&uint64(n-1) != 0 {
		w.addrFault(FaultMisaligned, loc, lane, "global", addr, "")
	}
	b := w.CTA.L.Dev.NearBytes(addr, n)
	if b == nil {
		b = w.farGlobalBytes(addr, n, lane, loc)
	}
	return b
}

// farGlobalBytes is GlobalBytes outside the device's own address range (host memory mapped
// at its address), or the fault for an address no allocation holds, which says what is there:
// a freed allocation (a use after free) or the end of one.
func (w *Warp) farGlobalBytes(addr uint64, n int, lane int, loc string) []byte {
	d := w.CTA.L.Dev
	b := d.farBytes(addr, n)
	if b == nil {
		w.addrFault(FaultOutOfBounds, loc, lane, "global", addr, d.whatIsAt(Ptr(addr)))
	}
	return b
}

// GlobalStoreBytes is GlobalBytes for a store, atomic or reduction: constant memory (a
// module's .const variables) is a read-only fault.
func (w *Warp) GlobalStoreBytes(addr uint64, n int, lane int, loc string) []byte {
	b := w.GlobalBytes(addr, n, lane, loc)
	if w.CTA.L.Dev.isReadOnly(addr) {
		w.readOnlyFault(addr, lane, loc)
	}
	return b
}

// readOnlyFault stops the launch for lane's write to constant memory at addr.
func (w *Warp) readOnlyFault(addr uint64, lane int, loc string) {
	w.addrFault(FaultReadOnly, loc, lane, "const", addr, "kernels may only read constant memory")
}

// GlobalStoreSpan is GlobalSpan for stores: nil for constant memory, so that the store goes
// lane by lane through GlobalStoreBytes and faults.
func (w *Warp) GlobalStoreSpan(lo, hi uint64) ([]byte, uint64) {
	return w.CTA.L.Dev.writableSpan(lo, hi)
}

// GlobalSpan returns the backing store of the global allocation holding all of [lo, hi) and its
// base address, or nil (see Device.Span).
func (w *Warp) GlobalSpan(lo, hi uint64) ([]byte, uint64) { return w.CTA.L.Dev.Span(lo, hi) }

// FarGlobalSpan is GlobalSpan for host memory mapped above the device's own address range
// (see Device.FarSpan), for a caller whose GlobalSpan failed.
func (w *Warp) FarGlobalSpan(lo, hi uint64) ([]byte, uint64) { return w.CTA.L.Dev.FarSpan(lo, hi) }

// SharedBytes addresses the CTA's shared memory by shared-space address.
func (w *Warp) SharedBytes(addr uint64, n int, lane int, loc string) []byte {
	s := w.CTA.Shared
	if addr&uint64(n-1) != 0 {
		w.addrFault(FaultMisaligned, loc, lane, "shared", addr, "")
	}
	if addr > uint64(len(s)) || uint64(len(s))-addr < uint64(n) {
		w.addrFault(FaultOutOfBounds, loc, lane, "shared", addr, "")
	}
	return s[addr : addr+uint64(n) : addr+uint64(n)]
}

// LocalBytes addresses a lane's local memory by local-space address.
func (w *Warp) LocalBytes(addr uint64, n int, lane int, loc string) []byte {
	if addr&uint64(n-1) != 0 {
		w.addrFault(FaultMisaligned, loc, lane, "local", addr, "")
	}
	st := uint64(w.LocalStride)
	if addr > st || st-addr < uint64(n) {
		w.addrFault(FaultOutOfBounds, loc, lane, "local", addr, "")
	}
	base := uint64(lane)*st + addr
	return w.Local[base : base+uint64(n) : base+uint64(n)]
}

// GenericBytes addresses generic memory: the shared, local and kernel parameter windows, else
// global memory.
func (w *Warp) GenericBytes(addr uint64, n int, lane int, loc string) []byte {
	switch {
	case addr-uint64(SharedWindow) < WindowSize:
		return w.SharedBytes(addr-uint64(SharedWindow), n, lane, loc)
	case addr-uint64(LocalWindow) < WindowSize:
		return w.LocalBytes(addr-uint64(LocalWindow), n, lane, loc)
	case InParamWindow(addr):
		if addr&uint64(n-1) != 0 {
			w.addrFault(FaultMisaligned, loc, lane, "param", addr-uint64(ParamWindow), "")
		}
		return w.KernelParamBytes(int64(addr-uint64(ParamWindow)), n, lane, loc)
	}
	return w.GlobalBytes(addr, n, lane, loc)
}

// InParamWindow reports whether a generic address names a kernel parameter (cvta.param).
func InParamWindow(addr uint64) bool { return addr-uint64(ParamWindow) < ParamWindowSize }

// GenericStoreBytes is GenericBytes for a store, atomic or reduction: a global address in
// constant memory, or a kernel parameter, is a read-only fault.
func (w *Warp) GenericStoreBytes(addr uint64, n int, lane int, loc string) []byte {
	if InParamWindow(addr) {
		w.addrFault(FaultReadOnly, loc, lane, "param", addr-uint64(ParamWindow), "kernel parameters are read-only")
	}
	b := w.GenericBytes(addr, n, lane, loc)
	if IsGlobalGeneric(addr) && w.CTA.L.Dev.isReadOnly(addr) {
		w.readOnlyFault(addr, lane, loc)
	}
	return b
}

// ParamBytes addresses a lane's copy of the current frame's .param area.
func (w *Warp) ParamBytes(off int64, n int, lane int, loc string) []byte {
	ps := int64(w.Fn.ParamSize)
	if off < 0 || off+int64(n) > ps {
		w.addrFault(FaultOutOfBounds, loc, lane, "param", uint64(off), "")
	}
	base := int64(lane)*ps + off
	return w.Param[base : base+int64(n) : base+int64(n)]
}

// KernelParamBytes addresses the launch's kernel parameters, shared by every thread.
func (w *Warp) KernelParamBytes(off int64, n int, lane int, loc string) []byte {
	p := w.CTA.L.Params
	if off < 0 || off+int64(n) > int64(len(p)) {
		w.addrFault(FaultOutOfBounds, loc, lane, "param", uint64(off), "")
	}
	return p[off : off+int64(n) : off+int64(n)]
}

// GlobalVar is the device address of the module's global variable i in this launch.
func (w *Warp) GlobalVar(i int) uint64 { return uint64(w.CTA.L.Globals[i]) }

// Launch-wide values that instructions read.

// CTAID is the CTA's %ctaid; NTID the block shape; NCTAID the grid shape.
func (w *Warp) CTAID() Dim3  { return w.CTA.ID }
func (w *Warp) NTID() Dim3   { return w.CTA.L.Block }
func (w *Warp) NCTAID() Dim3 { return w.CTA.L.Grid }

// NumWarps is %nwarpid's value: the warps of the CTA.
func (w *Warp) NumWarps() int { return len(w.CTA.Warps) }

// DynamicShared is %dynamic_smem_size.
func (w *Warp) DynamicShared() int { return w.CTA.L.DynamicShared }
