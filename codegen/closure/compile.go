// Package closure lowers a verified SSA program into closures bound to the runtime: every
// instruction becomes a runtime.Instr built once, with its operands, types and modifiers
// resolved, that executes for all active lanes of a warp. Control flow becomes block
// terminators that the runtime's trampoline follows with its SIMT and call-return stacks.
//
// Registers keep their PTX identity: every SSA value of a register lives in that register's
// slot, so phis need no code, and a guarded write leaves the old value in lanes whose guard
// is false, exactly as PTX defines.
package closure

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Compile lowers every function of p into a runtime module. Errors, such as an unsupported
// instruction, come as an ssa.ErrorList in source order.
func Compile(p *ssa.Program) (*runtime.Module, error) {
	c := &compiler{
		prog:    p,
		mod:     &runtime.Module{Name: p.File, SM: p.SM},
		funcs:   map[*ssa.Function]*runtime.Func{},
		globals: map[*ssa.Variable]int{},
		shared:  map[*ssa.Variable]int64{},
		local:   map[*ssa.Variable]int64{},
	}
	for _, fn := range p.Funcs {
		if fn.Decl {
			continue
		}
		rf := &runtime.Func{Name: fn.Name, Index: len(c.mod.Funcs), Kernel: fn.Kind == frontend.Entry, Sig: sigString(fn.Sig), Loc: loc(fn.Pos)}
		c.mod.Funcs = append(c.mod.Funcs, rf)
		c.funcs[fn] = rf
	}
	c.layoutVariables()
	for _, fn := range p.Funcs {
		if !fn.Decl {
			c.function(fn)
		}
	}
	c.stackBytes()
	if len(c.errs) > 0 {
		slices.SortStableFunc(c.errs, func(a, b *ssa.Error) int {
			if a.Pos.Line != b.Pos.Line {
				return int(a.Pos.Line - b.Pos.Line)
			}
			return int(a.Pos.Col - b.Pos.Col)
		})
		return nil, c.errs
	}
	return c.mod, nil
}

type compiler struct {
	prog    *ssa.Program
	mod     *runtime.Module
	funcs   map[*ssa.Function]*runtime.Func
	globals map[*ssa.Variable]int   // .global and .const variables: index in mod.Globals
	shared  map[*ssa.Variable]int64 // .shared variables: offset in the CTA's shared memory
	local   map[*ssa.Variable]int64 // module-scope .local variables: offset in local memory
	errs    ssa.ErrorList
	callees map[*runtime.Func][]*runtime.Func
}

func (c *compiler) errorf(pos frontend.Pos, format string, args ...any) {
	c.errs = append(c.errs, &ssa.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// loc formats a position as the file:line that faults name.
func loc(p frontend.Pos) string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// sigString is the canonical form of a signature that indirect calls compare: the shape of
// each result and parameter, as PTX matches calls.
func sigString(s ssa.Signature) string {
	var b strings.Builder
	part := func(ps []ssa.ParamType) {
		b.WriteByte('(')
		for i, p := range ps {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(p.Shape())
		}
		b.WriteByte(')')
	}
	part(s.Results)
	part(s.Params)
	return b.String()
}

// alignUp rounds n up to a multiple of a (a power of two, or 0/1).
func alignUp(n int64, a int) int64 {
	if a <= 1 {
		return n
	}
	return (n + int64(a) - 1) &^ (int64(a) - 1)
}

func varAlign(v *ssa.Variable) int {
	if v.Align > 0 {
		return v.Align
	}
	a := v.Type.Bytes()
	if v.Vector > 1 {
		a *= v.Vector
	}
	return max(a, 1)
}

// layoutVariables places module variables and the .shared variables of every function: global
// and const ones become device globals; static shared ones are packed into the CTA's shared
// memory, and unsized (extern) shared arrays all start at the dynamic shared memory after them.
func (c *compiler) layoutVariables() {
	var sharedTop, localTop int64
	var dynamic []*ssa.Variable
	dynAlign := 16
	place := func(v *ssa.Variable) {
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			c.globals[v] = len(c.mod.Globals)
			c.mod.Globals = append(c.mod.Globals, &runtime.Global{Name: v.Name, Size: int(v.Size), Align: varAlign(v)})
		case frontend.SpaceShared:
			if v.Size == 0 {
				dynamic = append(dynamic, v)
				dynAlign = max(dynAlign, varAlign(v))
				return
			}
			sharedTop = alignUp(sharedTop, varAlign(v))
			c.shared[v] = sharedTop
			sharedTop += v.Size
		case frontend.SpaceLocal:
			if v.Func == nil {
				localTop = alignUp(localTop, varAlign(v))
				c.local[v] = localTop
				localTop += v.Size
			}
		}
	}
	for _, v := range c.prog.Globals {
		place(v)
	}
	for _, fn := range c.prog.Funcs {
		for _, v := range fn.Vars {
			if v.Space == frontend.SpaceShared || v.Space == frontend.SpaceGlobal || v.Space == frontend.SpaceConst {
				place(v)
			}
		}
	}
	dyn := alignUp(sharedTop, dynAlign)
	for _, v := range dynamic {
		c.shared[v] = dyn
	}
	c.mod.SharedSize = int(dyn)
	c.mod.LocalSize = int(alignUp(localTop, 16))
	for v, i := range c.globals {
		c.initGlobal(v, c.mod.Globals[i])
	}
}

// initGlobal encodes a variable's initializer into bytes and relocations.
func (c *compiler) initGlobal(v *ssa.Variable, g *runtime.Global) {
	if v.Init == nil {
		return
	}
	if g.Size == 0 {
		// An unsized array takes its length from the initializer.
		g.Size = initCount(v.Init) * v.Type.Bytes() * max(v.Vector, 1)
	}
	g.Init = make([]byte, g.Size)
	elem := v.Type.Bytes()
	off := 0
	var walk func(in frontend.Init)
	walk = func(in frontend.Init) {
		if off+elem > len(g.Init) {
			if _, isList := in.(*frontend.InitList); !isList {
				c.errorf(in.Position(), "initializer of %s has more elements than the variable", v.Name)
				return
			}
		}
		switch in := in.(type) {
		case *frontend.InitList:
			for _, e := range in.Elems {
				walk(e)
			}
			return
		case *frontend.IntLit:
			putBits(g.Init[off:off+elem], in.Value)
		case *frontend.FloatLit:
			putBits(g.Init[off:off+elem], floatBits(v.Type, in.Form, in.Bits))
		case *frontend.SymRef, *frontend.GenericRef:
			name, addend, generic := "", int64(0), false
			if s, ok := in.(*frontend.SymRef); ok {
				name, addend = s.Name, s.Offset
			} else {
				g := in.(*frontend.GenericRef)
				name, addend, generic = g.Name, g.Offset, true
			}
			if elem != 4 && elem != 8 {
				c.errorf(in.Position(), "address of %s does not fit a %d-byte element", name, elem)
				break
			}
			r := runtime.Reloc{Offset: off, Size: elem, Addend: addend}
			if fn := c.prog.Func(name); fn != nil && c.funcs[fn] != nil {
				r.Func = c.funcs[fn]
			} else if gv := c.globalNamed(name); gv >= 0 {
				r.Global = gv
			} else if sv := c.sharedNamed(name); sv != nil && generic {
				putBits(g.Init[off:off+elem], uint64(runtime.SharedWindow)+uint64(c.shared[sv])+uint64(addend))
				break
			} else {
				c.errorf(in.Position(), "unsupported initializer: address of %s", name)
				break
			}
			g.Relocs = append(g.Relocs, r)
		default:
			c.errorf(in.Position(), "unsupported initializer")
		}
		off += elem
	}
	walk(v.Init)
}

// initCount counts the scalar elements of an initializer.
func initCount(in frontend.Init) int {
	if l, ok := in.(*frontend.InitList); ok {
		n := 0
		for _, e := range l.Elems {
			n += initCount(e)
		}
		return n
	}
	return 1
}

func (c *compiler) globalNamed(name string) int {
	for v, i := range c.globals {
		if v.Name == name && v.Func == nil {
			return i
		}
	}
	return -1
}

func (c *compiler) sharedNamed(name string) *ssa.Variable {
	for v := range c.shared {
		if v.Name == name && v.Func == nil {
			return v
		}
	}
	return nil
}

func putBits(b []byte, v uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// floatBits converts a floating-point literal to the bits of type t: a 0f literal is exact
// single-precision bits, other forms are doubles rounded to t.
func floatBits(t frontend.Type, form frontend.FloatForm, bits uint64) uint64 {
	switch t {
	case frontend.F32:
		if form == frontend.FloatHex32 {
			return bits
		}
		return uint64(math.Float32bits(float32(math.Float64frombits(bits))))
	case frontend.F64:
		if form == frontend.FloatHex32 {
			return math.Float64bits(float64(math.Float32frombits(uint32(bits))))
		}
		return bits
	}
	return bits
}

// stackBytes computes each function's local memory need including its callees; recursion
// (a cycle in the call graph) makes it unbounded (-1).
func (c *compiler) stackBytes() {
	const unvisited, visiting = -2, -3
	for _, f := range c.mod.Funcs {
		f.StackBytes = unvisited
	}
	var visit func(f *runtime.Func) int
	visit = func(f *runtime.Func) int {
		switch f.StackBytes {
		case visiting:
			return -1
		case unvisited:
		default:
			return f.StackBytes
		}
		f.StackBytes = visiting
		deepest := 0
		for _, g := range c.callees[f] {
			d := visit(g)
			if d < 0 {
				deepest = -1
				break
			}
			deepest = max(deepest, d)
		}
		if deepest < 0 {
			f.StackBytes = -1
		} else {
			f.StackBytes = f.LocalSize + deepest
		}
		return f.StackBytes
	}
	for _, f := range c.mod.Funcs {
		visit(f)
	}
	// A function on a cycle may have been finished before the cycle was seen from its caller.
	for changed := true; changed; {
		changed = false
		for _, f := range c.mod.Funcs {
			if f.StackBytes < 0 {
				continue
			}
			for _, g := range c.callees[f] {
				if g.StackBytes < 0 {
					f.StackBytes = -1
					changed = true
					break
				}
			}
		}
	}
}

// addCallee records a possible call edge for stack sizing.
func (c *compiler) addCallee(from, to *runtime.Func) {
	if c.callees == nil {
		c.callees = map[*runtime.Func][]*runtime.Func{}
	}
	if !slices.Contains(c.callees[from], to) {
		c.callees[from] = append(c.callees[from], to)
	}
}
