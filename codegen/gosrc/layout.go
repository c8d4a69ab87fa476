package gosrc

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

// The layout of the module and its frames follows codegen/closure decision for decision
// (variable placement, register slots, .param/.local frame layout, block numbering at
// barriers and calls, stack sizing), so that the two back ends build the same runtime.Module
// apart from the block code; gosrc_test.go compares them.

// globalLayout is a module .global or .const variable as runtime.Global will hold it.
type globalLayout struct {
	name   string
	size   int
	align  int
	init   []byte
	relocs []relocLayout
}

type relocLayout struct {
	offset int
	size   int
	fn     *fnGen // a function address, or
	global int    // the address of a global plus addend
	addend int64
}

func loc(p frontend.Pos) string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// sigString is closure's canonical signature string.
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

// layoutVariables places module variables and the .shared variables of every function.
func (g *gen) layoutVariables() {
	var sharedTop, localTop int64
	var dynamic []*ssa.Variable
	dynAlign := 16
	var order []*ssa.Variable
	place := func(v *ssa.Variable) {
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			g.globals[v] = len(g.globalList)
			g.globalList = append(g.globalList, &globalLayout{name: v.Name, size: int(v.Size), align: varAlign(v)})
			order = append(order, v)
		case frontend.SpaceShared:
			if v.Size == 0 {
				dynamic = append(dynamic, v)
				dynAlign = max(dynAlign, varAlign(v))
				return
			}
			sharedTop = alignUp(sharedTop, varAlign(v))
			g.shared[v] = sharedTop
			sharedTop += v.Size
		case frontend.SpaceLocal:
			if v.Func == nil {
				localTop = alignUp(localTop, varAlign(v))
				g.local[v] = localTop
				localTop += v.Size
			}
		}
	}
	for _, v := range g.prog.Globals {
		place(v)
	}
	for _, fn := range g.prog.Funcs {
		for _, v := range fn.Vars {
			if v.Space == frontend.SpaceShared || v.Space == frontend.SpaceGlobal || v.Space == frontend.SpaceConst {
				place(v)
			}
		}
	}
	dyn := alignUp(sharedTop, dynAlign)
	for _, v := range dynamic {
		g.shared[v] = dyn
	}
	g.sharedSize = int(dyn)
	g.localSize = int(alignUp(localTop, 16))
	for _, v := range order {
		g.initGlobal(v, g.globalList[g.globals[v]])
	}
}

// initGlobal encodes a variable's initializer into bytes and relocations.
func (g *gen) initGlobal(v *ssa.Variable, gl *globalLayout) {
	if v.Init == nil {
		return
	}
	if gl.size == 0 {
		gl.size = initCount(v.Init) * v.Type.Bytes() * max(v.Vector, 1)
	}
	gl.init = make([]byte, gl.size)
	elem := v.Type.Bytes()
	off := 0
	var walk func(in frontend.Init)
	walk = func(in frontend.Init) {
		if off+elem > len(gl.init) {
			if _, isList := in.(*frontend.InitList); !isList {
				g.errorf(in.Position(), "initializer of %s has more elements than the variable", v.Name)
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
			putBits(gl.init[off:off+elem], in.Value)
		case *frontend.FloatLit:
			putBits(gl.init[off:off+elem], floatBits(v.Type, in.Form, in.Bits))
		case *frontend.SymRef, *frontend.GenericRef:
			name, addend, generic := "", int64(0), false
			if s, ok := in.(*frontend.SymRef); ok {
				name, addend = s.Name, s.Offset
			} else {
				r := in.(*frontend.GenericRef)
				name, addend, generic = r.Name, r.Offset, true
			}
			if elem != 4 && elem != 8 {
				g.errorf(in.Position(), "address of %s does not fit a %d-byte element", name, elem)
				break
			}
			r := relocLayout{offset: off, size: elem, addend: addend}
			if fn := g.prog.Func(name); fn != nil && g.funcs[fn] != nil {
				r.fn = g.funcs[fn]
			} else if gv := g.globalNamed(name); gv >= 0 {
				r.global = gv
			} else if sv := g.sharedNamed(name); sv != nil && generic {
				putBits(gl.init[off:off+elem], uint64(runtime.SharedWindow)+uint64(g.shared[sv])+uint64(addend))
				break
			} else {
				g.errorf(in.Position(), "unsupported initializer: address of %s", name)
				break
			}
			gl.relocs = append(gl.relocs, r)
		default:
			g.errorf(in.Position(), "unsupported initializer")
		}
		off += elem
	}
	walk(v.Init)
}

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

func (g *gen) globalNamed(name string) int {
	best := -1
	for v, i := range g.globals {
		if v.Name == name && v.Func == nil && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

func (g *gen) sharedNamed(name string) *ssa.Variable {
	for _, v := range g.prog.Globals {
		if _, ok := g.shared[v]; ok && v.Name == name {
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

// floatBits converts a floating-point literal to the bits of type t.
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
// makes it unbounded (-1).
func (g *gen) stackBytes() {
	const unvisited, visiting = -2, -3
	for _, f := range g.fnList {
		f.stackBytes = unvisited
	}
	var visit func(f *fnGen) int
	visit = func(f *fnGen) int {
		switch f.stackBytes {
		case visiting:
			return -1
		case unvisited:
		default:
			return f.stackBytes
		}
		f.stackBytes = visiting
		deepest := 0
		for _, h := range f.callees {
			d := visit(h)
			if d < 0 {
				deepest = -1
				break
			}
			deepest = max(deepest, d)
		}
		if deepest < 0 {
			f.stackBytes = -1
		} else {
			f.stackBytes = f.localSize + deepest
		}
		return f.stackBytes
	}
	for _, f := range g.fnList {
		visit(f)
	}
	for changed := true; changed; {
		changed = false
		for _, f := range g.fnList {
			if f.stackBytes < 0 {
				continue
			}
			for _, h := range f.callees {
				if h.stackBytes < 0 {
					f.stackBytes = -1
					changed = true
					break
				}
			}
		}
	}
}

func (f *fnGen) addCallee(to *fnGen) {
	if !slices.Contains(f.callees, to) {
		f.callees = append(f.callees, to)
	}
}

// assignRegisters gives every register a slot and every predicate a mask index, as closure does.
func (f *fnGen) assignRegisters() {
	f.regs = make([]int, len(f.fn.Regs))
	used := make([]bool, len(f.fn.Regs))
	for _, v := range f.fn.Values {
		if v.Reg != nil {
			used[v.Reg.ID] = true
		}
	}
	for _, p := range slices.Concat(f.fn.Params, f.fn.Results) {
		for _, r := range p.Regs {
			used[r.ID] = true
		}
	}
	unusedSlot, unusedPred := -1, -1
	for i, r := range f.fn.Regs {
		switch {
		case !used[i] && r.Type == frontend.Pred:
			if unusedPred < 0 {
				unusedPred = f.numPreds
				f.numPreds++
			}
			f.regs[i] = unusedPred
		case !used[i]:
			if unusedSlot < 0 {
				unusedSlot = f.numRegs
				f.numRegs += 2
			}
			f.regs[i] = unusedSlot
		case r.Type == frontend.Pred:
			f.regs[i] = f.numPreds
			f.numPreds++
		case r.Type == frontend.B128:
			f.regs[i] = f.numRegs
			f.numRegs += 2
		default:
			f.regs[i] = f.numRegs
			f.numRegs++
		}
	}
}

// scratch allocates a register slot no PTX register holds.
func (f *fnGen) scratch() int {
	s := f.numRegs
	f.numRegs++
	return s
}

// constSlot returns a register that holds v in every lane.
func (f *fnGen) constSlot(v uint64) int {
	if s, ok := f.consts[v]; ok {
		return s
	}
	s := f.scratch()
	f.consts[v] = s
	f.constOrder = append(f.constOrder, v)
	return s
}

// zeroRegs lists the register slots an activation must start with zeroed.
func (f *fnGen) zeroRegs() []int {
	need := make([]bool, len(f.fn.Regs))
	ssa.ForEachUse(f.fn, func(_ *ssa.Block, v *ssa.Value) {
		if v.Kind == ssa.DefUndef {
			need[v.Reg.ID] = true
		}
	})
	for _, b := range f.fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op != frontend.OpShfl {
				continue
			}
			for _, a := range in.Args {
				if a.Kind == ssa.ArgValue {
					need[a.Value.Reg.ID] = true
				}
			}
		}
	}
	var slots []int
	for id, r := range f.fn.Regs {
		if need[id] && r.Type != frontend.Pred {
			slots = append(slots, f.regs[id])
			if r.Type == frontend.B128 {
				slots = append(slots, f.regs[id]+1)
			}
		}
	}
	return slots
}

// slotLayout is a runtime.Slot.
type slotLayout struct {
	reg      int
	pred     bool
	paramOff int
	size     int
}

// layoutFrame places the function's .param, .local and parameter variables.
func (f *fnGen) layoutFrame() {
	formal := map[*ssa.Variable]bool{}
	for _, p := range f.fn.Params {
		if p.Var != nil {
			formal[p.Var] = true
		}
	}
	var paramTop, kparamTop, localTop int64
	kernel := f.fn.Kind == frontend.Entry
	if kernel {
		for _, p := range f.fn.Params {
			if p.Var == nil {
				f.g.errorf(f.fn.Pos, "kernel %s: .reg parameters are not allowed in an .entry", f.fn.Name)
				continue
			}
			kparamTop = alignUp(kparamTop, varAlign(p.Var))
			f.kparam[p.Var] = kparamTop
			kparamTop += p.Var.Size
		}
	}
	for _, v := range f.fn.Vars {
		switch v.Space {
		case frontend.SpaceParam:
			if kernel && formal[v] {
				continue
			}
			paramTop = alignUp(paramTop, varAlign(v))
			f.param[v] = paramTop
			paramTop += v.Size
		case frontend.SpaceLocal:
			localTop = alignUp(localTop, varAlign(v))
			f.local[v] = localTop
			localTop += v.Size
		}
	}
	for _, ps := range [][]*ssa.Param{f.fn.Params, f.fn.Results} {
		for _, p := range ps {
			if p.Var == nil || kernel {
				continue
			}
			if _, ok := f.param[p.Var]; !ok {
				paramTop = alignUp(paramTop, varAlign(p.Var))
				f.param[p.Var] = paramTop
				paramTop += p.Var.Size
			}
		}
	}
	f.paramSize = int(alignUp(paramTop, 8))
	f.kernelParams = int(kparamTop)
	f.localSize = int(alignUp(localTop, 16))
	slots := func(ps []*ssa.Param) []slotLayout {
		var out []slotLayout
		for _, p := range ps {
			if p.Var != nil {
				out = append(out, slotLayout{reg: -1, paramOff: int(f.param[p.Var]), size: int(p.Var.Size)})
				continue
			}
			if p.Regs[0].Type == frontend.B128 {
				f.g.errorf(f.fn.Pos, "unsupported: .b128 register %s as a .reg parameter or result of %s", p.Name, f.fn.Name)
			}
			for _, r := range p.Regs {
				out = append(out, slotLayout{reg: f.regs[r.ID], pred: r.Type == frontend.Pred, size: r.Type.Bytes()})
			}
		}
		return out
	}
	if !kernel {
		f.params = slots(f.fn.Params)
		f.results = slots(f.fn.Results)
	}
}

var modWarp, _ = frontend.LookupMod(".warp")

// isBarrier reports whether an instruction waits at a CTA barrier and so ends a runtime block.
func isBarrier(in *ssa.Instr) bool {
	if in.Op != frontend.OpBar && in.Op != frontend.OpBarrier {
		return false
	}
	return !slices.Contains(in.Mods, modWarp)
}

// layoutBlocks numbers the runtime blocks as closure does.
func (f *fnGen) layoutBlocks() {
	f.start = make([]int32, len(f.fn.Blocks))
	n := int32(0)
	for i, b := range f.fn.Blocks {
		f.start[i] = n
		n++
		for _, in := range b.Instrs {
			if isBarrier(in) {
				n++
			}
		}
		if callNeedsOwnBlock(b) {
			n++
		}
	}
	f.exit = n
}

func callNeedsOwnBlock(b *ssa.Block) bool {
	if b.Term.Kind != ssa.TermCall || len(b.Instrs) == 0 {
		return false
	}
	return !isBarrier(b.Instrs[len(b.Instrs)-1])
}

func explicitTerm(b *ssa.Block) bool {
	t := &b.Term
	switch {
	case t.Synthetic:
		return true
	case guardedTarget(b):
		return false
	case t.Kind == ssa.TermJump:
		return len(b.Succs) == 1 && t.Pos != b.Succs[0].Pos
	}
	return true
}

func guardedTarget(b *ssa.Block) bool {
	return len(b.Preds) == 1 && b.Preds[0].Term.Synthetic && b.Preds[0].Succs[0] == b && len(b.Instrs) == 0
}
