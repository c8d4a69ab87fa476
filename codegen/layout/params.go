package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// ZeroParams reports whether an activation must start with its .param area zeroed: some path
// may read a byte of it before writing it (a read that must see zeros, not the bytes of the
// activation that used the frame before), or the code reaches the area through an address
// the analysis cannot follow (a variable's address in a register). The caller writes a
// function's formal parameters in full and ret reads its results; a call reads its argument
// variables and writes its result variables. Bytes are tracked at their offsets in the area,
// so variables of sibling `{ }` groups that share offsets share bytes, as they do at run time.
func (f *Frame) ZeroParams() bool {
	if f.RF.ParamSize == 0 {
		return false
	}
	a := &paramFlow{f: f, words: (f.RF.ParamSize + 63) / 64}
	if a.escapes() {
		return true
	}
	in := a.solve()
	for _, b := range f.Fn.Blocks {
		if a.run(b, in[b.ID], true) {
			return true
		}
	}
	return false
}

// paramFlow is the forward analysis of the .param bytes every path has written.
type paramFlow struct {
	f     *Frame
	words int
}

// byteSet is a set of byte offsets of the .param area.
type byteSet []uint64

func (a *paramFlow) full() byteSet {
	s := make(byteSet, a.words)
	for i := range s {
		s[i] = ^uint64(0)
	}
	return s
}

func (s byteSet) add(lo, hi int64) {
	for o := lo; o < hi; o++ {
		s[o/64] |= 1 << (o % 64)
	}
}

func (s byteSet) has(lo, hi int64) bool {
	for o := lo; o < hi; o++ {
		if s[o/64]&(1<<(o%64)) == 0 {
			return false
		}
	}
	return true
}

// span is the bytes [lo, hi) of the area that size bytes at offset off of v name; ok is false
// where v is no variable of the frame's area. (escapes has checked that accesses stay inside
// their variables.)
func (a *paramFlow) span(v *ssa.Variable, off, size int64) (lo, hi int64, ok bool) {
	base, ok := a.f.Param[v]
	return base + off, base + off + size, ok
}

// escapes reports whether the code takes a .param variable's address, accesses the area
// other than by ld, ldu and st of a named variable at a constant offset, or names bytes
// outside the variable (a negative offset, or past its end), which the analysis does not
// follow.
func (a *paramFlow) escapes() bool {
	f := a.f
	deviceParam := func(in *ssa.Instr) bool {
		return f.Fn.Kind != frontend.Entry && InstrSpace(in) == frontend.SpaceParam
	}
	// outside reports whether the n bytes at offset off of v, a variable of the frame, leave it.
	outside := func(v *ssa.Variable, off, n int64) bool { return off < 0 || n <= 0 || off+n > v.Size }
	for _, b := range f.Fn.Blocks {
		for _, in := range b.Instrs {
			for _, x := range append(in.Args[:len(in.Args):len(in.Args)], in.Dsts...) {
				if x.Var == nil || x.Var.Space != frontend.SpaceParam {
					if x.Kind == ssa.ArgAddr && x.Var == nil && deviceParam(in) {
						return true
					}
					continue
				}
				if _, ok := f.Param[x.Var]; !ok {
					continue
				}
				switch x.Kind {
				case ssa.ArgSym:
					return true
				case ssa.ArgAddr:
					if in.Op != frontend.OpLd && in.Op != frontend.OpLdu && in.Op != frontend.OpSt || outside(x.Var, x.Offset, accessBytes(in)) {
						return true
					}
				}
			}
		}
		if t := &b.Term; t.Kind == ssa.TermCall {
			for _, x := range slices.Concat(flatArgs(t.Call.Args), flatArgs(t.Call.Results)) {
				if _, ok := f.Param[x.Var]; ok && outside(x.Var, x.Offset, x.Var.Size-x.Offset) {
					return true
				}
			}
		}
	}
	return false
}

// accessBytes is the size of an ld, ldu or st: its type's times the vector's length; 0 when
// it has no type.
func accessBytes(in *ssa.Instr) int64 {
	t := InstrType(in)
	if t == frontend.TypeNone {
		return 0
	}
	data := in.Dsts
	if in.Op == frontend.OpSt {
		data = in.Args[1:]
	}
	n := int64(1)
	if len(data) > 0 && data[0].Kind == ssa.ArgVector {
		n = int64(len(data[0].Elems))
	}
	return n * int64(t.Bytes())
}

// solve returns the bytes written on every path into each block.
func (a *paramFlow) solve() []byteSet {
	fn := a.f.Fn
	in := make([]byteSet, len(fn.Blocks))
	for i := range in {
		in[i] = a.full()
	}
	entry := make(byteSet, a.words)
	if fn.Kind != frontend.Entry {
		for _, p := range fn.Params {
			if lo, hi, ok := a.span(p.Var, 0, sizeOf(p.Var)); ok {
				entry.add(lo, hi)
			}
		}
	}
	in[0] = entry
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			out := slices.Clone(in[b.ID])
			a.run(b, out, false)
			for _, s := range b.Succs {
				if s == fn.Exit {
					continue
				}
				for i, w := range out {
					if x := in[s.ID][i] & w; x != in[s.ID][i] {
						in[s.ID][i] = x
						changed = true
					}
				}
			}
		}
	}
	return in
}

// run applies block b's accesses to written, the bytes written before it. With check set it
// reports whether one of them reads a byte that may be unwritten.
func (a *paramFlow) run(b *ssa.Block, written byteSet, check bool) bool {
	for _, in := range b.Instrs {
		if in.Op != frontend.OpLd && in.Op != frontend.OpLdu && in.Op != frontend.OpSt {
			continue
		}
		for _, x := range in.Args {
			if x.Kind != ssa.ArgAddr || x.Var == nil {
				continue
			}
			lo, hi, ok := a.span(x.Var, x.Offset, accessBytes(in))
			switch {
			case !ok:
			case in.Op != frontend.OpSt:
				if check && !written.has(lo, hi) {
					return true
				}
			case in.Guard == nil:
				written.add(lo, hi)
			}
		}
	}
	t := &b.Term
	switch t.Kind {
	case ssa.TermCall:
		c := t.Call
		for _, x := range flatArgs(c.Args) {
			if lo, hi, ok := a.span(x.Var, x.Offset, sizeOf(x.Var)-x.Offset); ok && check && !written.has(lo, hi) {
				return true
			}
		}
		if c.Guard != nil {
			break
		}
		for _, x := range flatArgs(c.Results) {
			size := sizeOf(x.Var) - x.Offset
			if c.Direct == nil || c.Direct.Decl {
				size = min(size, 8) // a library function the runtime runs writes a scalar only
			}
			if lo, hi, ok := a.span(x.Var, x.Offset, size); ok {
				written.add(lo, hi)
			}
		}
	case ssa.TermRet:
		if a.f.Fn.Kind == frontend.Entry {
			break
		}
		for _, p := range a.f.Fn.Results {
			if lo, hi, ok := a.span(p.Var, 0, sizeOf(p.Var)); ok && check && !written.has(lo, hi) {
				return true
			}
		}
	}
	return false
}

// flatArgs are a call's .param variable operands, vector elements included.
func flatArgs(args []ssa.Arg) []ssa.Arg {
	var out []ssa.Arg
	for _, x := range args {
		for _, e := range append([]ssa.Arg{x}, x.Elems...) {
			if e.Kind == ssa.ArgSym && e.Var != nil && e.Var.Space == frontend.SpaceParam {
				out = append(out, e)
			}
		}
	}
	return out
}

func sizeOf(v *ssa.Variable) int64 {
	if v == nil {
		return 0
	}
	return v.Size
}
