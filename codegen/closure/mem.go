package closure

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// modWarp is `.warp` (bar.warp.sync), which has no named constant in frontend.
var modWarp, _ = frontend.LookupMod(".warp")

// accessFn resolves an address of one state space to the bytes it names.
type accessFn func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte

// address is a lowered memory operand: a register base plus offset, or an address that is
// the same in every lane, computed once per execution.
type address struct {
	base    int // register slot, or -1
	wide    bool
	uniform func(w *runtime.Warp) uint64
	// shared says a uniform address names the same bytes for every lane (not so for local
	// memory and a device function's .param variables, which every lane has its own copy of).
	shared bool
	off    uint64
	access accessFn
}

// at returns lane l's address.
func (a *address) at(w *runtime.Warp, u uint64, l int) uint64 {
	if a.base < 0 {
		return u
	}
	v := w.R[a.base*ws+l]
	if !a.wide {
		v = uint64(uint32(v))
	}
	return v + a.off
}

func (a *address) uniformValue(w *runtime.Warp) uint64 {
	if a.base >= 0 {
		return 0
	}
	return a.uniform(w) + a.off
}

// memOperand lowers a [base+offset] operand for the instruction's state space.
func (e *emitter) memOperand(a ssa.Arg) *address {
	f := e.f
	sp := e.space()
	ad := &address{base: -1, off: uint64(a.Offset)}
	switch sp {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		ad.access = (*runtime.Warp).GlobalBytes
	case frontend.SpaceShared:
		ad.access = (*runtime.Warp).SharedBytes
	case frontend.SpaceLocal:
		ad.access = (*runtime.Warp).LocalBytes
	case frontend.SpaceNone:
		ad.access = (*runtime.Warp).GenericBytes
	case frontend.SpaceParam:
		ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
			return w.ParamBytes(int64(addr), n, lane, loc)
		}
	default:
		e.unsupported()
		return nil
	}
	switch {
	case a.Kind != ssa.ArgAddr:
		e.errorf("memory operand expected")
		return nil
	case a.Value != nil:
		ad.base = f.regs[a.Value.Reg.ID]
		ad.wide = a.Value.Reg.Type.Bits() == 64
		if sp == frontend.SpaceParam && f.fn.Kind == frontend.Entry {
			ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
				return w.KernelParamBytes(int64(addr), n, lane, loc)
			}
		}
	case a.Var != nil:
		v := a.Var
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			g := f.c.globals[v]
			ad.shared = true
			ad.uniform = func(w *runtime.Warp) uint64 { return w.GlobalVar(g) }
			if sp == frontend.SpaceShared || sp == frontend.SpaceLocal || sp == frontend.SpaceParam {
				e.errorf("%s variable %s accessed as %s", v.Space, v.Name, sp)
			}
		case frontend.SpaceShared:
			off := uint64(f.c.shared[v])
			ad.shared = true
			if sp == frontend.SpaceNone {
				off += uint64(runtime.SharedWindow)
			}
			ad.uniform = func(*runtime.Warp) uint64 { return off }
		case frontend.SpaceLocal:
			win := uint64(0)
			if sp == frontend.SpaceNone {
				win = uint64(runtime.LocalWindow)
			}
			if off, ok := f.c.local[v]; ok {
				ad.uniform = func(*runtime.Warp) uint64 { return win + uint64(off) }
			} else {
				off := uint64(f.local[v])
				ad.uniform = func(w *runtime.Warp) uint64 { return win + uint64(w.LocalBase) + off }
			}
		case frontend.SpaceParam:
			if off, ok := f.kparam[v]; ok {
				o := uint64(off)
				ad.shared = true
				ad.uniform = func(*runtime.Warp) uint64 { return o }
				ad.access = func(w *runtime.Warp, addr uint64, n, lane int, loc string) []byte {
					return w.KernelParamBytes(int64(addr), n, lane, loc)
				}
			} else {
				o := uint64(f.param[v])
				ad.uniform = func(*runtime.Warp) uint64 { return o }
			}
		default:
			e.errorf("unsupported: access to %s variable %s", v.Space, v.Name)
			return nil
		}
	default:
		ad.uniform = func(*runtime.Warp) uint64 { return 0 }
	}
	return ad
}

// loadBits reads 1, 2, 4 or 8 little-endian bytes. Aligned 4- and 8-byte words are read
// atomically (a plain move on amd64), so a word that another CTA updates with atomics is never
// torn.
func loadBits(b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(atomic.LoadUint32(runtime.AtomicU32(b)))
	}
	return atomic.LoadUint64(runtime.AtomicU64(b))
}

// storeBits writes the low len(b) bytes of v, little-endian.
func storeBits(b []byte, v uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		if raceEnabled {
			atomic.StoreUint32(runtime.AtomicU32(b), uint32(v))
			return
		}
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		if raceEnabled {
			atomic.StoreUint64(runtime.AtomicU64(b), v)
			return
		}
		binary.LittleEndian.PutUint64(b, v)
	}
}

// signExtend widens the low n bits of v to a signed value of width bits (kept zero-extended
// above width, as registers hold values).
func signExtend(v uint64, n, width int) uint64 {
	s := uint64(int64(v<<(64-n)) >> (64 - n))
	if width < 64 {
		s &= 1<<width - 1
	}
	return s
}

// elements returns the destination or source registers of a scalar or vector operand.
func (e *emitter) elements(a ssa.Arg, t frontend.Type, dst bool) []int {
	list := []ssa.Arg{a}
	if a.Kind == ssa.ArgVector {
		list = a.Elems
	}
	out := make([]int, len(list))
	for i, x := range list {
		if dst {
			out[i] = e.dst(x)
		} else {
			out[i] = e.src(x, t)
		}
	}
	return out
}

func (e *emitter) load() runtime.Instr {
	t := e.typ()
	if t.Bits() > 64 || t == frontend.Pred {
		return e.unsupported()
	}
	ad := e.memOperand(e.in.Args[0])
	dst := e.elements(e.in.Dsts[0], t, true)
	if ad == nil || e.bad {
		return nil
	}
	es := t.Bytes()
	n := es * len(dst)
	signed := t.IsSigned()
	width := make([]int, len(dst))
	d0 := e.in.Dsts[0]
	for i := range dst {
		width[i] = 64
		x := d0
		if d0.Kind == ssa.ArgVector {
			x = d0.Elems[i]
		}
		if x.Kind == ssa.ArgValue {
			width[i] = x.Value.Reg.Type.Bits()
		}
	}
	loc := e.loc()
	if ad.base < 0 && ad.shared {
		// Every lane reads the same bytes: read once, then broadcast.
		return func(w *runtime.Warp, m uint32) {
			l0 := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.uniformValue(w), n, l0, loc)
			for i, d := range dst {
				v := loadBits(b[i*es : i*es+es])
				if signed {
					v = signExtend(v, es*8, width[i])
				}
				D := regs(w, d)
				for mm := m; mm != 0; mm &= mm - 1 {
					D[bits.TrailingZeros32(mm)&(ws-1)] = v
				}
			}
		}
	}
	if e.space() == frontend.SpaceGlobal && len(dst) == 1 && es == 4 && !signed && ad.wide {
		// The commonest load, ld.global.{u32,f32,b32} [%rd+off], with its access inline.
		d, base, off := dst[0], ad.base, ad.off
		return func(w *runtime.Warp, m uint32) {
			D, A := regs(w, d), regs(w, base)
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m) & (ws - 1)
				D[l] = uint64(atomic.LoadUint32(runtime.AtomicU32(w.GlobalBytes(A[l]+off, 4, l, loc))))
			}
		}
	}
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.at(w, u, l), n, l, loc)
			for i, d := range dst {
				v := loadBits(b[i*es : i*es+es])
				if signed {
					v = signExtend(v, es*8, width[i])
				}
				w.R[d*ws+l] = v
			}
		}
	}
}

func (e *emitter) store() runtime.Instr {
	t := e.typ()
	if t.Bits() > 64 || t == frontend.Pred {
		return e.unsupported()
	}
	ad := e.memOperand(e.in.Args[0])
	// A vector element written as _ is not stored.
	srcArg := e.in.Args[1]
	var skip uint32
	if srcArg.Kind == ssa.ArgVector {
		srcArg.Elems = slices.Clone(srcArg.Elems)
		for i, x := range srcArg.Elems {
			if x.Kind == ssa.ArgSink {
				skip |= 1 << i
				srcArg.Elems[i] = ssa.Arg{Kind: ssa.ArgImm}
			}
		}
	}
	src := e.elements(srcArg, t, false)
	if ad == nil || e.bad {
		return nil
	}
	es := t.Bytes()
	n := es * len(src)
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			b := ad.access(w, ad.at(w, u, l), n, l, loc)
			for i, s := range src {
				if skip&(1<<i) != 0 {
					continue
				}
				storeBits(b[i*es:i*es+es], w.R[s*ws+l])
			}
		}
	}
}

// atom lowers atom and red: a read-modify-write per lane, in lane order. Global memory (and
// generic addresses that reach it) uses compare-and-swap loops, since other CTAs run in
// parallel; shared and local memory belong to one goroutine.
func (e *emitter) atom() runtime.Instr {
	t := e.typ()
	es := t.Bytes()
	if es != 4 && es != 8 {
		return e.unsupported()
	}
	args := e.in.Args
	ad := e.memOperand(args[0])
	if ad == nil {
		return nil
	}
	var op func(old, b, c uint64) uint64
	ops := map[frontend.Mod]func(old, b, c uint64) uint64{}
	mask := uint64(math.MaxUint64)
	if es == 4 {
		mask = math.MaxUint32
	}
	ops[frontend.ModAnd] = func(o, b, _ uint64) uint64 { return o & b }
	ops[frontend.ModOr] = func(o, b, _ uint64) uint64 { return o | b }
	ops[frontend.ModXor] = func(o, b, _ uint64) uint64 { return o ^ b }
	ops[frontend.ModExch] = func(_, b, _ uint64) uint64 { return b }
	ops[frontend.ModCas] = func(o, b, c uint64) uint64 {
		if o == b {
			return c
		}
		return o
	}
	ops[frontend.ModInc] = func(o, b, _ uint64) uint64 {
		if o >= b {
			return 0
		}
		return o + 1
	}
	ops[frontend.ModDec] = func(o, b, _ uint64) uint64 {
		if o == 0 || o > b {
			return b
		}
		return o - 1
	}
	switch {
	case t == frontend.F32:
		ops[frontend.ModAdd] = func(o, b, _ uint64) uint64 {
			return uint64(math.Float32bits(math.Float32frombits(uint32(o)) + math.Float32frombits(uint32(b))))
		}
	case t == frontend.F64:
		ops[frontend.ModAdd] = func(o, b, _ uint64) uint64 {
			return math.Float64bits(math.Float64frombits(o) + math.Float64frombits(b))
		}
	case isHalfPacked(t):
		ops[frontend.ModAdd] = halfAtomAdd(t)
	default:
		ops[frontend.ModAdd] = func(o, b, _ uint64) uint64 { return o + b }
	}
	if t.IsSigned() {
		sh := uint(64 - es*8)
		ops[frontend.ModMin] = func(o, b, _ uint64) uint64 {
			if int64(o<<sh) <= int64(b<<sh) {
				return o
			}
			return b
		}
		ops[frontend.ModMax] = func(o, b, _ uint64) uint64 {
			if int64(o<<sh) >= int64(b<<sh) {
				return o
			}
			return b
		}
	} else if !t.IsFloat() {
		ops[frontend.ModMin] = func(o, b, _ uint64) uint64 { return min(o, b) }
		ops[frontend.ModMax] = func(o, b, _ uint64) uint64 { return max(o, b) }
	}
	for _, m := range e.in.Mods {
		if f, ok := ops[m]; ok {
			op = f
			break
		}
	}
	if op == nil || (t.IsFloat() && !e.has(frontend.ModAdd) && !e.has(frontend.ModExch)) {
		return e.unsupported()
	}
	b := e.src(args[1], t)
	c := b
	if e.has(frontend.ModCas) {
		c = e.src(args[2], t)
	}
	d := -1
	if e.in.Op == frontend.OpAtom {
		d = e.dst(e.in.Dsts[0])
	}
	if e.bad {
		return nil
	}
	sp := e.space()
	loc := e.loc()
	return func(w *runtime.Warp, m uint32) {
		u := ad.uniformValue(w)
		B, C := regs(w, b), regs(w, c)
		for ; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m) & (ws - 1)
			addr := ad.at(w, u, l)
			mem := ad.access(w, addr, es, l, loc)
			global := sp == frontend.SpaceGlobal || sp == frontend.SpaceNone && addr-uint64(runtime.SharedWindow) >= runtime.WindowSize && addr-uint64(runtime.LocalWindow) >= runtime.WindowSize
			old := rmw(mem, global, func(o uint64) uint64 { return op(o, B[l]&mask, C[l]&mask) & mask })
			if d >= 0 {
				w.R[d*ws+l] = old
			}
		}
	}
}

// rmw applies f to the 4 or 8 bytes of mem and returns the old value; atomically when global.
func rmw(mem []byte, global bool, f func(uint64) uint64) uint64 {
	if !global {
		old := loadBits(mem)
		storeBits(mem, f(old))
		return old
	}
	if len(mem) == 4 {
		p := runtime.AtomicU32(mem)
		for {
			old := atomic.LoadUint32(p)
			if atomic.CompareAndSwapUint32(p, old, uint32(f(uint64(old)))) {
				return uint64(old)
			}
		}
	}
	p := runtime.AtomicU64(mem)
	for {
		old := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, old, f(old)) {
			return old
		}
	}
}
