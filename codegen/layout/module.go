// Package layout makes the layout decisions both back ends share, so that codegen/closure and
// codegen/gosrc build the same runtime.Module apart from the block code: module variables and
// their initializers, register slots, the .param and .local frame, block numbering at
// barriers and calls, terminators, call sites and stack sizing.
package layout

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Module is the layout of a program: Mod holds its functions, without blocks, and its globals.
type Module struct {
	Prog    *ssa.Program
	Mod     *runtime.Module
	Funcs   map[*ssa.Function]*runtime.Func
	Globals map[*ssa.Variable]int   // .global and .const variables: index in Mod.Globals
	Shared  map[*ssa.Variable]int64 // .shared variables: offset in the CTA's shared memory
	Local   map[*ssa.Variable]int64 // module-scope .local variables: offset in local memory
	errorf  func(pos frontend.Pos, format string, args ...any)
	callees map[*runtime.Func][]*runtime.Func
}

// New lays out the functions with a body and the module variables of p; errorf reports what
// it cannot lay out.
func New(p *ssa.Program, errorf func(pos frontend.Pos, format string, args ...any)) *Module {
	m := &Module{
		Prog:    p,
		Mod:     &runtime.Module{Name: p.File, SM: p.SM},
		Funcs:   map[*ssa.Function]*runtime.Func{},
		Globals: map[*ssa.Variable]int{},
		Shared:  map[*ssa.Variable]int64{},
		Local:   map[*ssa.Variable]int64{},
		errorf:  errorf,
		callees: map[*runtime.Func][]*runtime.Func{},
	}
	for _, fn := range p.Funcs {
		if fn.Decl {
			continue
		}
		rf := &runtime.Func{Name: fn.Name, Index: len(m.Mod.Funcs), Kernel: fn.Kind == frontend.Entry, Sig: SigString(fn.Sig), Loc: Loc(fn.Pos)}
		m.Mod.Funcs = append(m.Mod.Funcs, rf)
		m.Funcs[fn] = rf
	}
	m.layoutVariables()
	return m
}

// Loc formats a position as the file:line that faults name.
func Loc(p frontend.Pos) string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// SigString is the canonical form of a signature that indirect calls compare: the shape of
// each result and parameter, as PTX matches calls.
func SigString(s ssa.Signature) string {
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

// VarAlign is a variable's alignment: its .align, or else its element size.
func VarAlign(v *ssa.Variable) int {
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
// memory (sharedLayout: variables no kernel uses together may share bytes), and unsized
// (extern) shared arrays all start at the dynamic shared memory after them.
func (m *Module) layoutVariables() {
	var localTop int64
	var dynamic, static []*ssa.Variable
	dynAlign := 16
	var order []*ssa.Variable
	place := func(v *ssa.Variable) {
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			m.Globals[v] = len(m.Mod.Globals)
			m.Mod.Globals = append(m.Mod.Globals, &runtime.Global{Name: v.Name, Size: int(v.Size), Align: VarAlign(v), ReadOnly: v.Space == frontend.SpaceConst, Managed: v.Managed, Ref: RefKind(v.Type)})
			order = append(order, v)
		case frontend.SpaceShared:
			if v.Size == 0 {
				dynamic = append(dynamic, v)
				dynAlign = max(dynAlign, VarAlign(v))
				return
			}
			static = append(static, v)
		case frontend.SpaceLocal:
			if v.Func == nil {
				localTop = alignUp(localTop, VarAlign(v))
				m.Local[v] = localTop
				localTop += v.Size
			}
		}
	}
	for _, v := range m.Prog.Globals {
		place(v)
	}
	for _, fn := range m.Prog.Funcs {
		for _, v := range fn.Vars {
			if v.Space == frontend.SpaceShared || v.Space == frontend.SpaceGlobal || v.Space == frontend.SpaceConst {
				place(v)
			}
		}
	}
	dyn := alignUp(m.sharedLayout(static), dynAlign)
	for _, v := range dynamic {
		m.Shared[v] = dyn
	}
	m.Mod.SharedSize = int(dyn)
	m.Mod.LocalSize = int(alignUp(localTop, 16))
	for _, v := range order {
		m.initGlobal(v, m.Mod.Globals[m.Globals[v]])
	}
}

// sharedLayout places the static .shared variables (in declaration order) and returns the
// end of the highest. A variable's kernels are those that reach (through calls, ssa.CallGraph)
// a function that names it; a variable named in a global's initializer belongs to every
// kernel. Each variable goes at the lowest offset, aligned, where it overlaps no variable
// already placed that shares a kernel with it, so that a module of several kernels needs
// the shared memory of its largest kernel, not of all of them, as on a GPU. Each kernel's
// runtime.Func.StaticShared is the end of its highest variable.
func (m *Module) sharedLayout(vars []*ssa.Variable) int64 {
	if len(vars) == 0 {
		return 0
	}
	isVar := make(map[*ssa.Variable]bool, len(vars))
	for _, v := range vars {
		isVar[v] = true
	}
	// users: the functions naming each variable.
	users := map[*ssa.Variable][]*ssa.Function{}
	var visit func(fn *ssa.Function, a ssa.Arg)
	visit = func(fn *ssa.Function, a ssa.Arg) {
		if a.Var != nil && isVar[a.Var] {
			users[a.Var] = append(users[a.Var], fn)
		}
		for _, e := range a.Elems {
			visit(fn, e)
		}
	}
	everywhere := map[*ssa.Variable]bool{}
	for _, g := range m.Prog.Globals {
		for _, v := range vars {
			if g.Init != nil && initNames(g.Init, v.Name) {
				everywhere[v] = true
			}
		}
	}
	for _, fn := range m.Prog.Funcs {
		for _, v := range fn.Vars {
			if isVar[v] {
				users[v] = append(users[v], fn)
			}
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				for _, a := range in.Args {
					visit(fn, a)
				}
				for _, a := range in.Dsts {
					visit(fn, a)
				}
			}
			if c := b.Term.Call; c != nil {
				for _, a := range c.Args {
					visit(fn, a)
				}
			}
		}
	}
	// kernels: the set of kernels (by index) reaching each function.
	calls := m.Prog.CallGraph()
	var kernelList []*ssa.Function
	reachedBy := map[*ssa.Function]map[int]bool{}
	for _, fn := range m.Prog.Funcs {
		if fn.Kind != frontend.Entry {
			continue
		}
		k := len(kernelList)
		kernelList = append(kernelList, fn)
		stack := []*ssa.Function{fn}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reachedBy[f][k] {
				continue
			}
			if reachedBy[f] == nil {
				reachedBy[f] = map[int]bool{}
			}
			reachedBy[f][k] = true
			stack = append(stack, calls.Callees[f]...)
		}
	}
	kernelsOf := func(v *ssa.Variable) map[int]bool {
		ks := map[int]bool{}
		for _, fn := range users[v] {
			for k := range reachedBy[fn] {
				ks[k] = true
			}
		}
		if everywhere[v] {
			for k := range kernelList {
				ks[k] = true
			}
		}
		return ks
	}
	type placed struct {
		start, end int64
		kernels    map[int]bool
	}
	var done []placed
	var top int64
	kernelTop := make([]int64, len(kernelList))
	for _, v := range vars {
		ks := kernelsOf(v)
		var clashes []placed
		for _, p := range done {
			for k := range ks {
				if p.kernels[k] {
					clashes = append(clashes, p)
					break
				}
			}
		}
		slices.SortFunc(clashes, func(a, b placed) int { return cmp.Compare(a.start, b.start) })
		off := int64(0)
		for _, p := range clashes {
			if off+v.Size <= p.start {
				break
			}
			off = max(off, alignUp(p.end, VarAlign(v)))
		}
		m.Shared[v] = off
		done = append(done, placed{off, off + v.Size, ks})
		top = max(top, off+v.Size)
		for k := range ks {
			kernelTop[k] = max(kernelTop[k], off+v.Size)
		}
	}
	for k, fn := range kernelList {
		if rf := m.Funcs[fn]; rf != nil {
			rf.StaticShared = int(kernelTop[k])
		}
	}
	return top
}

// initNames reports whether a variable initializer names the symbol name.
func initNames(in frontend.Init, name string) bool {
	switch in := in.(type) {
	case *frontend.InitList:
		for _, e := range in.Elems {
			if initNames(e, name) {
				return true
			}
		}
	case *frontend.SymRef:
		return in.Name == name
	case *frontend.GenericRef:
		return in.Name == name
	}
	return false
}

// initGlobal encodes a variable's initializer into bytes and relocations.
func (m *Module) initGlobal(v *ssa.Variable, g *runtime.Global) {
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
				m.errorf(in.Position(), "initializer of %s has more elements than the variable", v.Name)
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
			putBits(g.Init[off:off+elem], FloatBits(v.Type, in.Form, in.Bits))
		case *frontend.SymRef, *frontend.GenericRef:
			name, addend, generic := "", int64(0), false
			if s, ok := in.(*frontend.SymRef); ok {
				name, addend = s.Name, s.Offset
			} else {
				r := in.(*frontend.GenericRef)
				name, addend, generic = r.Name, r.Offset, true
			}
			if elem != 4 && elem != 8 {
				m.errorf(in.Position(), "address of %s does not fit a %d-byte element", name, elem)
				break
			}
			r := runtime.Reloc{Offset: off, Size: elem, Addend: addend}
			if fn := m.Prog.Func(name); fn != nil && m.Funcs[fn] != nil {
				r.Func = m.Funcs[fn]
			} else if gv := m.globalNamed(name); gv >= 0 {
				r.Global = gv
			} else if sv := m.sharedNamed(name); sv != nil && generic {
				putBits(g.Init[off:off+elem], uint64(runtime.SharedWindow)+uint64(m.Shared[sv])+uint64(addend))
				break
			} else {
				m.errorf(in.Position(), "unsupported initializer: address of %s", name)
				break
			}
			g.Relocs = append(g.Relocs, r)
		default:
			m.errorf(in.Position(), "unsupported initializer")
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

// globalNamed is the index of the module-scope global called name, or -1.
func (m *Module) globalNamed(name string) int {
	best := -1
	for v, i := range m.Globals {
		if v.Name == name && v.Func == nil && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// sharedNamed is the module-scope .shared variable called name, or nil.
func (m *Module) sharedNamed(name string) *ssa.Variable {
	for _, v := range m.Prog.Globals {
		if _, ok := m.Shared[v]; ok && v.Name == name {
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

// FloatBits converts a floating-point literal to the bits of type t: a 0f literal is exact
// single-precision bits, other forms are doubles rounded to t.
func FloatBits(t frontend.Type, form frontend.FloatForm, bits uint64) uint64 {
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

// StackBytes sets each function's StackBytes, the local memory it needs including its
// callees: its own .local area plus its deepest callee's. Recursion needs no more where the
// functions on its cycles have no .local area (their calls nest at the same local base); a
// cycle through a function with one makes the need unbounded (-1). It runs after every
// function's frame and call sites are laid out.
func (m *Module) StackBytes() {
	funcs := m.Mod.Funcs
	need := make(map[*runtime.Func]int, len(funcs))
	for _, f := range funcs {
		need[f] = f.LocalSize
	}
	// The longest-path relaxation settles within len(funcs) rounds unless a cycle adds bytes.
	relax := func() []*runtime.Func {
		var grown []*runtime.Func
		for _, f := range funcs {
			for _, g := range m.callees[f] {
				if d := f.LocalSize + need[g]; d > need[f] {
					need[f] = d
					grown = append(grown, f)
				}
			}
		}
		return grown
	}
	for range len(funcs) {
		if relax() == nil {
			break
		}
	}
	unbounded := map[*runtime.Func]bool{}
	for _, f := range relax() {
		unbounded[f] = true
	}
	for changed := len(unbounded) > 0; changed; {
		changed = false
		for _, f := range funcs {
			if unbounded[f] {
				continue
			}
			for _, g := range m.callees[f] {
				if unbounded[g] {
					unbounded[f], changed = true, true
					break
				}
			}
		}
	}
	for _, f := range funcs {
		f.StackBytes = need[f]
		if unbounded[f] {
			f.StackBytes = -1
		}
	}
}

// addCallee records a possible call edge for stack sizing.
func (m *Module) addCallee(from, to *runtime.Func) {
	if !slices.Contains(m.callees[from], to) {
		m.callees[from] = append(m.callees[from], to)
	}
}
