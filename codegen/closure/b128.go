package closure

import (
	"math/bits"
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// 128-bit values. A .b128 register has two consecutive register slots: its low 64 bits in
// f.Regs[id] and its high 64 bits in the next slot (see assignRegisters). Only the instructions
// that move such a value as a whole exist for it in PTX, and only these are implemented:
//
//	mov.b128 d, {lo, hi}          pack two 64-bit values (lo the low half)
//	mov.b128 {lo, hi}, a          unpack (either element may be _)
//	mov.b128 d, a                 copy
//	ld{...}{.ss}.b128 d, [a]      every addressable space, generic included
//	st{...}{.ss}.b128 [a], b
//	atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c
//	atom{.sem}{.scope}{.space}.exch{.L2::cache_hint}.b128 d, [a], b{, cache-policy}
//
// Anything else that names a .b128 register or the .b128 type (arithmetic, cvt, setp, shfl,
// vector forms such as ld.v2.b128, ldu.b128) is not in the table of forms
// (layout.CheckForms), and .b128 registers as call arguments or .reg parameters are
// rejected by the layout.

// isB128 reports whether operand a is a .b128 register.
func isB128(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.B128 }

// anyB128 reports whether a .b128 register appears in a, an element of it, or its address base.
func anyB128(a ssa.Arg) bool {
	if a.Value != nil && a.Value.Reg.Type == frontend.B128 {
		return true
	}
	return slices.ContainsFunc(a.Elems, anyB128)
}

// b128Src returns the low slot of the .b128 register a, reporting any other operand.
func (e *emitter) b128Src(a ssa.Arg) int {
	if !isB128(a) {
		e.unsupported()
		return 0
	}
	return e.f.Regs[a.Value.Reg.ID]
}

// b128Dst returns the low slot of the .b128 register that destination a writes; a sink gets a
// pair of scratch slots.
func (e *emitter) b128Dst(a ssa.Arg) int {
	if a.Kind == ssa.ArgSink {
		s := e.f.Scratch()
		e.f.Scratch()
		return s
	}
	return e.b128Src(a)
}

// b128Half returns the register of one 64-bit element of a pack or unpack, which must not be
// a .b128 register itself.
func (e *emitter) b128Half(a ssa.Arg, dst bool) int {
	if anyB128(a) {
		e.unsupported()
		return 0
	}
	if dst {
		return e.dst(a)
	}
	return e.src(a, frontend.B64)
}

// movB128 lowers mov.b128: pack, unpack or copy.
func (e *emitter) movB128() runtime.Instr {
	d, a := e.in.Dsts[0], e.in.Args[0]
	switch {
	case d.Kind == ssa.ArgVector && a.Kind == ssa.ArgVector:
		return e.unsupported()
	case d.Kind == ssa.ArgVector:
		if len(d.Elems) != 2 {
			return e.unsupported()
		}
		lo, hi := e.b128Half(d.Elems[0], true), e.b128Half(d.Elems[1], true)
		s := e.b128Src(a)
		if e.bad {
			return nil
		}
		return func(w *runtime.Warp, m uint32) {
			L, H, S0, S1 := regs(w, lo), regs(w, hi), regs(w, s), regs(w, s+1)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				L[l], H[l] = S0[l], S1[l]
			}
		}
	case a.Kind == ssa.ArgVector:
		if len(a.Elems) != 2 {
			return e.unsupported()
		}
		lo, hi := e.b128Half(a.Elems[0], false), e.b128Half(a.Elems[1], false)
		dd := e.b128Dst(d)
		if e.bad {
			return nil
		}
		return func(w *runtime.Warp, m uint32) {
			D0, D1, L, H := regs(w, dd), regs(w, dd+1), regs(w, lo), regs(w, hi)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D0[l], D1[l] = L[l], H[l]
			}
		}
	}
	dd, s := e.b128Dst(d), e.b128Src(a)
	if e.bad {
		return nil
	}
	lo, hi := copyLanes(dd, s), copyLanes(dd+1, s+1)
	return func(w *runtime.Warp, m uint32) {
		lo(w, m)
		hi(w, m)
	}
}

// b128Address lowers the address of a 128-bit access (a store or atomic when store is set)
// and checks that no .b128 register forms it.
func (e *emitter) b128Address(a ssa.Arg, store bool) *address {
	if anyB128(a) {
		e.unsupported()
		return nil
	}
	if store {
		return e.storeOperand(a)
	}
	return e.memOperand(a)
}

// loadB128 lowers ld.b128: every lane reads the 16 bytes at its address, which must be 16-byte
// aligned (a misaligned fault otherwise, as for the other sizes), as two 64-bit halves.
func (e *emitter) loadB128() runtime.Instr {
	ad := e.b128Address(e.in.Args[0], false)
	d := e.b128Dst(e.in.Dsts[0])
	if ad == nil || e.bad {
		return nil
	}
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		D0, D1 := regs(w, d), regs(w, d+1)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.at(w, u, l), 16, l, loc)
			D0[l], D1[l] = runtime.LoadBits(b[:8]), runtime.LoadBits(b[8:16])
		}
	}
}

// storeB128 lowers st.b128, the converse of loadB128.
func (e *emitter) storeB128() runtime.Instr {
	ad := e.b128Address(e.in.Args[0], true)
	s := e.b128Src(e.in.Args[1])
	if ad == nil || e.bad {
		return nil
	}
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		S0, S1 := regs(w, s), regs(w, s+1)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.at(w, u, l), 16, l, loc)
			runtime.StoreBits(b[:8], S0[l])
			runtime.StoreBits(b[8:16], S1[l])
		}
	}
}

// atomB128 lowers atom.cas.b128 and atom.exch.b128 on global, shared and generic addresses.
// The lanes of a warp go one after another in lane order. In global memory (and generic
// addresses that reach it) each lane's operation holds the device's lock for its 16-byte word
// (runtime.Device.Lock128), so it is atomic with respect to every other 128-bit atomic on that
// word, from any CTA; shared and local memory belong to the CTA's goroutine and are updated in
// place. A misaligned address is a fault.
func (e *emitter) atomB128(op frontend.Mod) runtime.Instr {
	in := e.in
	args := in.Args
	ad := e.b128Address(args[0], true)
	b := e.b128Src(args[1])
	c := b
	if op == frontend.ModCas {
		c = e.b128Src(args[2])
	}
	d := e.b128Dst(in.Dsts[0])
	if ad == nil || e.bad {
		return nil
	}
	cas := op == frontend.ModCas
	sp := e.space()
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		B0, B1, C0, C1 := regs(w, b), regs(w, b+1), regs(w, c), regs(w, c+1)
		D0, D1 := regs(w, d), regs(w, d+1)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			addr := ad.at(w, u, l)
			mem := ad.access(w, addr, 16, l, loc)
			lo, hi := runtime.AtomicU64(mem[:8]), runtime.AtomicU64(mem[8:16])
			b0, b1, c0, c1 := B0[l], B1[l], C0[l], C1[l]
			global := sp == frontend.SpaceGlobal || sp == frontend.SpaceNone && runtime.IsGlobalGeneric(addr)
			if global {
				mu := w.Lock128(addr)
				mu.Lock()
				D0[l], D1[l] = runtime.Swap128(lo, hi, cas, b0, b1, c0, c1)
				mu.Unlock()
			} else {
				D0[l], D1[l] = runtime.Swap128(lo, hi, cas, b0, b1, c0, c1)
			}
		}
	}
}
