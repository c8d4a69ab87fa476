package gosrc

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Scalar loads and stores inside lane loops. A lane loop runs all of its instructions for one
// lane before the next lane, so memory instructions may join one only where that reordering
// cannot be seen: loads with lane-local arithmetic (loads do not change memory, and the other
// warps of the CTA do not run meanwhile), or one store with lane-local arithmetic (no lane
// reads memory in that loop). Each access checks its bounds and alignment inline against the
// CTA's shared memory or the global allocation the instruction last touched (runtime.Window)
// and reads or writes the slice directly; anything else goes through runtime.Warp.TryLoad or
// StoreLane. A lane whose load would fault stops; the loop then raises the fault lockstep
// execution would have raised first (runtime.LaneFault). A store faults at once: the earlier
// lanes have stored, as in lockstep.

// segMem says which memory instructions a lane loop holds.
const (
	segNoMem = iota
	segLoads
	segStore
)

// laneMemOK reports whether a scalar ld/ldu/st can run inside a lane loop.
func (e *blockEmit) laneMemOK(in *ssa.Instr) bool {
	if e.f.g.check {
		return false // each access gets its check hook first (Options.Check)
	}
	t := layout.InstrType(in)
	if t.Bits() > 64 || t.Bits() == 0 || t == frontend.Pred || len(memArgs(in)) == 0 || isHalf(t) {
		return false
	}
	ad := e.memOperand(in, memArgs(in)[0])
	if ad == nil || ad.base < 0 && ad.shared {
		return false // a uniform load: once per warp
	}
	if in.Op == frontend.OpSt {
		if len(memArgs(in)) != 2 {
			return false
		}
		switch src := memArgs(in)[1]; src.Kind {
		case ssa.ArgValue:
			return src.Value.Reg.Type != frontend.Pred
		case ssa.ArgImm, ssa.ArgFloat:
			return true
		}
		return false
	}
	d := firstDst(in)
	return len(memArgs(in)) == 1 && d.Kind == ssa.ArgValue && d.Value.Reg.Type != frontend.Pred
}

// laneMem adds a scalar load or store to the current lane loop, starting a new loop where
// the current one cannot take it.
func (e *blockEmit) laneMem(in *ssa.Instr) {
	store := in.Op == frontend.OpSt
	if s := e.seg; s != nil && e.pass == nil && (s.mem == segStore || store && s.mem != segNoMem) {
		e.flush()
	}
	if store {
		e.laneInstr(in)
		e.seg.mem = segStore
		return
	}
	e.laneInstr(in)
	if e.seg != nil {
		e.seg.mem = max(e.seg.mem, segLoads)
	}
}

// accessAddr is the lane's address expression of a memory operand.
func (c ctx) accessAddr(in *ssa.Instr, ad *memAddr) jen.Code {
	if ad.base < 0 {
		return u64(ad.addr)
	}
	base := memArgs(in)[0].Value
	x := c.src(in, ssa.Arg{Kind: ssa.ArgValue, Value: base}, base.Reg.Type)
	if ad.amask == 0xffffffff {
		x = u64(conv("uint32", x))
	}
	return u64(x).Op("+").Add(hexLit(ad.off))
}

// access emits the inline access of n bytes at address a (a Go local) of the operand's
// space: fast is the statement for an access at offset o of the slice mem, slow the
// statements otherwise. It returns the statement.
func (c ctx) access(ad *memAddr, a string, n int, fast func(mem, o jen.Code, private bool) jen.Code, slow []jen.Code) jen.Code {
	e := c.e
	s := e.seg
	align := jen.Id(a).Op("&").Lit(n - 1).Op("==").Lit(0)
	if n == 1 {
		align = nil
	}
	cond := func(x jen.Code) jen.Code {
		if align == nil {
			return x
		}
		return jen.Add(x).Op("&&").Add(align)
	}
	switch ad.space {
	case "SpaceShared":
		end := fmt.Sprintf("shEnd%d", n)
		s.shared[n] = true
		return jen.If(cond(jen.Id(a).Op("<").Id(end))).Block(fast(jen.Id("shp"), jen.Id(a), false)).Else().Block(s.slowPath(slow...))
	case "SpaceGlobal", "SpaceGeneric":
		win := s.window(a)
		o := a + "o"
		return jen.If(jen.Id(o).Op(":=").Id(a).Op("-").Id(win).Dot("Base"), cond(jen.Id(o).Op("<").Id(win).Dot("End"))).Block(fast(jen.Id(win).Dot("Ptr"), jen.Id(o), false)).Else().Block(s.slowPath(slow...))
	case "SpaceParam", "SpaceLocal":
		// The lane's own copy: lane l's area starts at l times the stride. A .param
		// access need not be aligned, but one of a variable of the frame, aligned and inside
		// the area, needs no check and reads or writes the word through a pointer.
		if c.frameParam(ad, n) {
			s.param[n] = true
			s.paramPtr = true
			return fast(jen.Id("pmp"), jen.Uint64().Call(jen.Id("l")).Op("*").Id("pmStride").Op("+").Id(a), false)
		}
		pre, check := "pm", jen.Code(jen.Id(a).Op("<").Id(fmt.Sprintf("pmEnd%d", n)))
		if ad.space == "SpaceLocal" {
			pre, check = "lm", cond(jen.Id(a).Op("<").Id(fmt.Sprintf("lmEnd%d", n)))
			s.local[n] = true
		} else {
			s.param[n] = true
		}
		o := jen.Uint64().Call(jen.Id("l")).Op("*").Id(pre + "Stride").Op("+").Id(a)
		return jen.If(check).Block(fast(jen.Id(pre), o, true)).Else().Block(s.slowPath(slow...))
	}
	return jen.Block(slow...)
}

// frameParam reports whether an n-byte access of the operand reads or writes a .param
// variable of the frame at a constant offset, aligned and inside each lane's area: one that
// needs no bounds test and cannot fault.
func (c ctx) frameParam(ad *memAddr, n int) bool {
	ps, sz := uint64(c.e.f.RF.ParamSize), uint64(n)
	// ad.param may be a negative offset wrapped around: compare without overflowing.
	return ad.space == "SpaceParam" && ad.paramOK && ad.param%sz == 0 && ps%sz == 0 && sz <= ps && ad.param <= ps-sz
}

// window returns the Window variable of the instruction whose address local is a: each
// global access has its own, since different instructions usually address different
// allocations.
func (s *segment) window(a string) string {
	w := a + "w"
	if !slices.Contains(s.windows, w) {
		s.windows = append(s.windows, w)
		s.winIndex[w] = *s.nwin
		*s.nwin++
	}
	return w
}

// winArg is the *runtime.Window argument of the slow path for the operand's space.
func (c ctx) winArg(ad *memAddr, a string) jen.Code {
	if ad.space == "SpaceGlobal" || ad.space == "SpaceGeneric" {
		return jen.Id(c.e.seg.window(a))
	}
	return jen.Nil()
}

var loadFn = map[int]string{1: "Load8", 2: "Load16", 4: "Load32", 8: "Load64"}
var storeFn = map[int]string{1: "Store8", 2: "Store16", 4: "Store32", 8: "Store64"}

// load defines n as the value a scalar ld loads for lane l.
func (c ctx) load(in *ssa.Instr, n string) []jen.Code {
	e := c.e
	if e.pass != nil {
		return c.passLoad(in, n)
	}
	t := layout.InstrType(in)
	ad := e.memOperand(in, memArgs(in)[0])
	es := t.Bytes()
	a := n + "a"
	s := e.seg
	idx := s.nloads
	s.nloads++
	if !c.frameParam(ad, es) {
		s.fault = true // the slow path notes a fault in flt
	}
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	slow := []jen.Code{
		jen.Id(n+"x").Op(",").Id(n+"ok").Op(":=").Id("w").Dot("TryLoad").Call(c.winArg(ad, a), sp, jen.Id(a), jen.Lit(es), jen.Id("l")),
		jen.If(jen.Op("!").Id(n+"ok")).Block(
			jen.Id("flt").Dot("Note").Call(jen.Lit(idx), jen.Id("l"), sp, jen.Id(a), jen.Lit(es), lc),
			jen.Continue()),
		jen.Id(n).Op("=").Id(n + "x"),
	}
	out := []jen.Code{
		jen.Id(a).Op(":=").Add(c.accessAddr(in, ad)),
		e.countLane(in, a),
		jen.Var().Id(n).Uint64(),
		c.access(ad, a, es, func(mem, o jen.Code, private bool) jen.Code {
			if private {
				return jen.Id(n).Op("=").Add(loadLE(mem, o, es))
			}
			return jen.Id(n).Op("=").Qual(rtPath, loadFn[es]).Call(mem, o)
		}, slow),
	}
	e.f.noteWindow(in, s, a)
	return append(out, c.loadExtend(in, n)...)
}

// loadExtend sign-extends n, the bytes a signed scalar load read, to its destination's width.
func (c ctx) loadExtend(in *ssa.Instr, n string) []jen.Code {
	t := layout.InstrType(in)
	es := t.Bytes()
	if !t.IsSigned() || 8*es >= 64 {
		return nil
	}
	w := min(firstDst(in).Value.Reg.Type.Bits(), 64)
	return []jen.Code{jen.Id(n).Op("=").Add(u64(conv(utype(w), conv(stype(w), conv(stype(8*es), jen.Id(n))))))}
}

// noteWindow records the window of a global or generic access whose address local is a, for
// the block's warp pass (warppass.go).
func (f *fnGen) noteWindow(in *ssa.Instr, s *segment, a string) {
	if i, ok := s.winIndex[a+"w"]; ok {
		if f.windows == nil {
			f.windows = map[*ssa.Instr]int{}
		}
		f.windows[in] = i
	}
}

// store emits a scalar st for lane l.
func (c ctx) store(in *ssa.Instr) []jen.Code {
	e := c.e
	if e.pass != nil {
		return c.passStore(in)
	}
	t := layout.InstrType(in)
	ad := e.memOperand(in, memArgs(in)[0])
	es := t.Bytes()
	a := e.fresh("s")
	v := a + "v"
	sp := jen.Qual(rtPath, ad.space)
	lc := jen.Lit(layout.Loc(in.Pos))
	code := []jen.Code{
		jen.Id(a).Op(":=").Add(c.accessAddr(in, ad)),
		e.countLane(in, a),
		jen.Id(v).Op(":=").Add(u64(c.src(in, memArgs(in)[1], t))),
		c.access(ad, a, es, func(mem, o jen.Code, private bool) jen.Code {
			if private {
				return storeLE(mem, o, es, jen.Id(v))
			}
			return jen.Qual(rtPath, storeFn[es]).Call(mem, o, jen.Id(v))
		}, []jen.Code{jen.Id("w").Dot("StoreLane").Call(c.winArg(ad, a), sp, jen.Id(a), jen.Lit(es), jen.Id(v), jen.Id("l"), lc)}),
	}
	e.f.noteWindow(in, e.seg, a)
	return code
}

// memPre declares what the loop's inline accesses use: the shared memory and its bounds,
// the global windows, the fault record. The function's .param area, paramSize bytes a lane,
// is fixed by its layout: its stride and bounds are constants, so the compiler drops the
// bounds test of an access at a constant offset.
func (s *segment) memPre(paramSize int) []jen.Code {
	pre := s.counts
	if len(s.shared) > 0 {
		pre = append(pre, jen.Id("sh").Op(":=").Id("w").Dot("SharedMem").Call(), jen.Id("shp").Op(":=").Qual(rtPath, "MemPtr").Call(jen.Id("sh")))
		for _, n := range sortedKeys(s.shared) {
			pre = append(pre, jen.Id(fmt.Sprintf("shEnd%d", n)).Op(":=").Qual(rtPath, "AccessEnd").Call(jen.Id("sh"), jen.Lit(n)))
		}
	}
	if len(s.param) > 0 {
		pre = append(pre, jen.Id("pm").Op(":=").Id("w").Dot("Param"), jen.Const().Id("pmStride").Op("=").Uint64().Call(jen.Lit(paramSize)))
		if s.paramPtr {
			pre = append(pre, jen.Id("pmp").Op(":=").Qual(rtPath, "MemPtr").Call(jen.Id("pm")))
		}
		for _, n := range sortedKeys(s.param) {
			pre = append(pre, jen.Const().Id(fmt.Sprintf("pmEnd%d", n)).Op("=").Uint64().Call(jen.Lit(int(runtime.LaneEnd(paramSize, n)))))
		}
	}
	if len(s.local) > 0 {
		pre = append(pre, jen.Id("lm").Op(":=").Id("w").Dot("Local"), jen.Id("lmStride").Op(":=").Uint64().Call(jen.Id("w").Dot("LocalStride")))
		for _, n := range sortedKeys(s.local) {
			pre = append(pre, jen.Id(fmt.Sprintf("lmEnd%d", n)).Op(":=").Qual(rtPath, "LaneEnd").Call(jen.Id("w").Dot("LocalStride"), jen.Lit(n)))
		}
	}
	for _, w := range s.windows {
		pre = append(pre, jen.Id(w).Op(":=").Id("w").Dot("Window").Call(jen.Lit(s.winIndex[w])))
	}
	if s.fault {
		pre = append(pre, jen.Var().Id("flt").Qual(rtPath, "LaneFault"))
	}
	return pre
}

// loadLE reads the n-byte little-endian element at offset o of a lane's private memory.
func loadLE(mem, o jen.Code, n int) jen.Code {
	if n == 1 {
		return u64(jen.Add(mem).Index(o))
	}
	return u64(jen.Qual("encoding/binary", "LittleEndian").Dot(fmt.Sprintf("Uint%d", 8*n)).Call(jen.Add(mem).Index(jen.Add(o), jen.Empty())))
}

// storeLE writes the low n bytes of v little-endian at offset o of a lane's private memory.
func storeLE(mem, o jen.Code, n int, v jen.Code) jen.Code {
	if n == 1 {
		return jen.Add(mem).Index(o).Op("=").Byte().Call(v)
	}
	return jen.Qual("encoding/binary", "LittleEndian").Dot(fmt.Sprintf("PutUint%d", 8*n)).Call(jen.Add(mem).Index(jen.Add(o), jen.Empty()), jen.Id(utype(8*n)).Call(v))
}
