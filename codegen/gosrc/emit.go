package gosrc

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// blockEmit generates the Go function of one runtime block.
//
// Registers are read and written in the warp's register file (rN := w.Reg(N), lane l at
// rN[l]). Within a fused lane loop a result is also kept in a Go local that later instructions
// of the loop read. A warp-uniform result of a uniform computation (parameters, %ntid,
// %ctaid and arithmetic on them) is computed once per warp into a scalar Go local and
// broadcast to the active lanes. Predicates are lane masks: a lane loop works on a copy
// (pN := w.P[N]) and writes it back after the loop.
type blockEmit struct {
	f      *fnGen
	b      *ssa.Block
	instrs []*ssa.Instr // the block's instructions
	stmts  []jen.Code
	top    []jen.Code   // declarations before the code: register arrays, immediates
	regs   map[int]bool // register slots used
	imms   map[uint64]string
	uni    map[int]string // register slot → scalar local holding its warp-uniform value
	nvar   int
	seg    *segment
	bad    bool
	// local are the block's lane-local instructions: a warp-uniform result read only by them
	// needs no broadcast, as they read the scalar.
	local map[*ssa.Instr]bool
	// read are the Go locals holding results (lane or warp-uniform) that code reads; a result
	// nothing reads is assigned to _ (Go rejects an unused local).
	read map[string]bool
	unis []string // every warp-uniform local defined, in order
	// lane says the code runs for one lane l with its registers in Go locals (xN, region.go)
	// instead of the register file; written are the register slots it writes.
	lane    bool
	written map[int]bool
	// pass, while the block's warp pass is generated, is its plan (warppass.go).
	pass *warpPass
}

// segment is a fused lane loop being built.
type segment struct {
	body   []jen.Code
	lanes  map[int]string // register slot → lane local holding its value in this loop
	preds  map[int]bool   // predicate snapshots used
	wpreds map[int]bool   // predicates written
	tid    map[int]bool
	lines  []int
	instrs map[*ssa.Instr]bool
	// plocal holds, for a predicate the loop wrote unguarded, the bool local with its value.
	plocal map[int]string
	// stores are the register-file writes of unguarded results, filled in at flush time
	// only for values something outside the loop reads.
	stores []laneStore
	// mem says whether the loop holds loads or a store (lanemem.go); nloads counts its
	// loads, fault says it needs the fault record; shared and windows are the access sizes
	// of its inline shared and global accesses.
	mem     int
	nloads  int
	fault   bool
	shared  map[int]bool
	windows []string
	// winIndex numbers the windows in the module (runtime.Module.NumWindows); nwin is the
	// module's count.
	winIndex map[string]int
	nwin     *int
	// counts are the statistics of its unguarded accesses, counted before it (profile.go).
	counts []jen.Code
	// param and local are the access sizes of its inline .param and .local accesses;
	// paramPtr says some .param access goes through the area's pointer.
	param, local map[int]bool
	paramPtr     bool
	// pwrites are the predicate writes in lane loops, and inPlace the predicates also
	// written otherwise (predWrites).
	pwrites []predWrite
	inPlace map[int]bool
	// collected are the predicates whose lanes' bits the loop collects in pNn.
	collected map[int]bool
	// groups are the code of each instruction in order, the units chunks() cuts the loop
	// of a full warp into; cur is the group being generated. defs gives the group defining
	// each lane local that other instructions read, uses the locals each group reads from
	// other groups, float the groups of floating-point arithmetic.
	groups [][]jen.Code
	cur    int
	defs   map[string]int
	uses   []map[string]bool
	float  []bool
	// floats are the lane locals nN of f32 arithmetic that come with a float32 local nNF.
	floats map[string]bool
	// slows are the slow paths of inline accesses and operations (slowPath); sideEffects
	// are the groups that write the register file or memory or count statistics lane by
	// lane, which chunks.go may not run twice for a lane.
	slows       []slowPath
	sideEffects map[int]bool
	// hoisted are the definitions of warp-invariant values the loop reads (hoist); uniforms
	// the warp-uniform instructions met while it was built that only lane loops read
	// (uniformInstr), which go before it in the block's scope.
	hoisted, uniforms []jen.Code
	// order is its instructions in order.
	order []*ssa.Instr
}

func newSegment(nwin *int) *segment {
	return &segment{lanes: map[int]string{}, preds: map[int]bool{}, wpreds: map[int]bool{}, tid: map[int]bool{}, instrs: map[*ssa.Instr]bool{},
		plocal: map[int]string{}, shared: map[int]bool{}, param: map[int]bool{}, local: map[int]bool{}, winIndex: map[string]int{}, nwin: nwin,
		defs: map[string]int{}, inPlace: map[int]bool{}, floats: map[string]bool{}, sideEffects: map[int]bool{}}
}

// warpInvariant reports whether an operand of an instruction in a lane loop has one value for
// the whole warp, known before the loop: an immediate, a warp-uniform local, or %ntid,
// %ctaid or %nctaid.
func (c ctx) warpInvariant(a ssa.Arg) bool {
	e := c.e
	s := e.seg
	if c.scalar || s == nil || e.lane {
		return false
	}
	switch a.Kind {
	case ssa.ArgImm:
		return true
	case ssa.ArgSpecial:
		return warpSpecial(a.Name)
	case ssa.ArgValue:
		slot := e.f.Regs[a.Value.Reg.ID]
		_, lane := s.lanes[slot]
		_, uni := e.uni[slot]
		return !lane && uni && a.Value.Reg.Type != frontend.Pred
	}
	return false
}

// hoist computes x, an expression of warp-invariant operands, once before the lane loop being
// built (Go does not move loop-invariant code out of loops) and returns the local holding it.
func (e *blockEmit) hoist(x jen.Code) string {
	n := e.fresh("h")
	e.seg.hoisted = append(e.seg.hoisted, jen.Id(n).Op(":=").Add(x))
	e.read[n] = true
	return n
}

// shadow records that the instruction being generated defines, besides its lane local n, the
// float32 local nF holding the same f32 value (srcF32).
func (e *blockEmit) shadow(n string) {
	if s := e.seg; s != nil {
		s.floats[n] = true
		s.defs[n+"F"] = s.cur
	}
}

// predWrite is a lane's write of predicate p from the bit local bit, filled in at flush time.
// collect says whether it may collect the lanes' bits in a mask of its own (pNn) instead of
// updating the predicate's copy in place: an unguarded write, after which the loop reads the
// predicate from its bool local. Collecting keeps a chain of bit updates through the
// predicate's copy out of the loop.
type predWrite struct {
	p       int
	bit     string
	stmt    *jen.Statement
	collect bool
}

// predWrites fills in the loop's predicate writes and returns the statements before and after
// the loop that they need.
func (s *segment) predWrites() (pre, post []jen.Code) {
	count := map[int]int{}
	for _, w := range s.pwrites {
		count[w.p]++
	}
	collected := map[int]bool{}
	s.collected = collected
	for _, w := range s.pwrites {
		pn := predName(w.p)
		if w.collect && count[w.p] == 1 && !s.inPlace[w.p] {
			collected[w.p] = true
			w.stmt.Add(jen.Id(pn + "n").Op("|=").Id(w.bit).Op("<<").Id("l"))
			pre = append(pre, jen.Id(pn+"n").Op(":=").Uint32().Call(jen.Lit(0)))
			continue
		}
		w.stmt.Add(jen.Id(pn).Op("=").Id(pn).Op("&^").Parens(jen.Lit(1).Op("<<").Id("l")).Op("|").Id(w.bit).Op("<<").Id("l"))
	}
	for _, p := range sortedKeys(s.wpreds) {
		pn := predName(p)
		if collected[p] {
			post = append(post, jen.Id("w").Dot("P").Index(jen.Lit(p)).Op("=").Id(pn).Op("&^").Id("m").Op("|").Id(pn+"n"))
		} else {
			post = append(post, jen.Id("w").Dot("P").Index(jen.Lit(p)).Op("=").Id(pn))
		}
	}
	return pre, post
}

// use records that the instruction being generated reads the lane local n.
func (s *segment) use(n string) {
	if g, ok := s.defs[n]; ok && g != s.cur {
		s.uses[s.cur][n] = true
	}
}

type laneStore struct {
	v    *ssa.Value
	stmt *jen.Statement
	slot int
	name string
}

func (e *blockEmit) fresh(prefix string) string {
	e.nvar++
	return fmt.Sprintf("%s%d", prefix, e.nvar)
}

func regName(s int) string { return fmt.Sprintf("r%d", s) }

// laneBool names lane l's bit of predicate p in lane mode (region.go).
func laneBool(p int) string { return fmt.Sprintf("q%d", p) }
func predName(p int) string { return fmt.Sprintf("p%d", p) }

func (e *blockEmit) reg(s int) string {
	e.regs[s] = true
	return regName(s)
}

// laneReg is lane l's value of register slot s: rN[l], or the local xN in lane mode.
func (e *blockEmit) laneReg(s int) jen.Code {
	if e.lane {
		e.regs[s] = true
		return jen.Id(fmt.Sprintf("x%d", s))
	}
	return jen.Id(e.reg(s)).Index(jen.Id("l"))
}

// setLaneReg assigns the local n to lane l's register slot s.
func (e *blockEmit) setLaneReg(s int, n string) jen.Code {
	if e.lane {
		e.regs[s] = true
		e.written[s] = true
		return jen.Id(fmt.Sprintf("x%d", s)).Op("=").Id(n)
	}
	return jen.Id(e.reg(s)).Index(jen.Id("l")).Op("=").Id(n)
}

// emitBlock generates the code of one runtime block: the statements of its case in the
// function's block chain (run.go), or nil after an error.
func (f *fnGen) emitBlock(b *ssa.Block, instrs []*ssa.Instr) []jen.Code {
	e := newBlockEmit(f, b, instrs)
	for _, in := range instrs {
		e.instr(in)
	}
	e.flush()
	if e.bad {
		return nil
	}
	return e.body()
}

// newBlockEmit starts the code of a runtime block with the given instructions.
func newBlockEmit(f *fnGen, b *ssa.Block, instrs []*ssa.Instr) *blockEmit {
	e := &blockEmit{f: f, b: b, instrs: instrs, regs: map[int]bool{}, imms: map[uint64]string{}, uni: map[int]string{}, local: map[*ssa.Instr]bool{}, read: map[string]bool{}}
	for _, in := range instrs {
		if laneLocal(in) || (in.Op == frontend.OpLd || in.Op == frontend.OpLdu || in.Op == frontend.OpSt) && e.laneMemOK(in) {
			e.local[in] = true
		}
	}
	return e
}

// body is the generated block's code: its register arrays and immediates, then its statements.
func (e *blockEmit) body() []jen.Code {
	for _, u := range e.unis {
		if !e.read[u] {
			e.stmts = append(e.stmts, jen.Id("_").Op("=").Id(u))
		}
	}
	var body []jen.Code
	for _, s := range sortedKeys(e.regs) {
		body = append(body, jen.Id(regName(s)).Op(":=").Id("w").Dot("Reg").Call(jen.Lit(s)))
	}
	body = append(body, e.top...)
	body = append(body, e.stmts...)
	return body
}

func (e *blockEmit) unsupported(in *ssa.Instr) {
	e.f.g.errorf(in.Pos, "instruction %s is not supported by the Go source back end yet", spelling(in))
	e.bad = true
}

func (e *blockEmit) errorf(in *ssa.Instr, format string, args ...any) {
	e.f.g.errorf(in.Pos, format, args...)
	e.bad = true
}

// imm returns a local holding an immediate as a uint64 variable (a variable, so that
// conversions of it truncate instead of failing to compile as constant overflows).
func (e *blockEmit) imm(v uint64) string {
	if n, ok := e.imms[v]; ok {
		return n
	}
	n := fmt.Sprintf("k%d", len(e.imms))
	e.imms[v] = n
	e.top = append(e.top, jen.Id(n).Op(":=").Uint64().Call(jen.Id(fmt.Sprintf("%#x", v))))
	return n
}

// flush ends the current lane loop.
func (e *blockEmit) flush() {
	s := e.seg
	if s == nil {
		return
	}
	if fp := e.pass; fp != nil && !fp.final {
		fp.failed = true // warp-uniform work after lane work: not one loop
		return
	}
	e.seg = nil
	e.stmts = append(e.stmts, s.uniforms...)
	if len(s.body) == 0 {
		return
	}
	cond, writes, allStep := e.stepPreds(s)
	var steps []stepCompare
	var stepped map[*ssa.Value]bool
	if !allStep {
		steps, stepped = e.deferredSteps(s)
	}
	for _, st := range s.stores {
		if !e.readOnlyBy(st.v, s.instrs) || stepped[st.v] {
			s.sideEffects[s.defs[st.name]] = true
			st.stmt.Add(jen.Id(e.reg(st.slot)).Index(jen.Id("l")).Op("=").Id(st.name))
		} else if !e.read[st.name] {
			st.stmt.Add(jen.Id("_").Op("=").Id(st.name))
		}
	}
	var pre, post []jen.Code
	for _, p := range sortedKeys(s.preds) {
		pre = append(pre, jen.Id(predName(p)).Op(":=").Id("w").Dot("P").Index(jen.Lit(p)))
	}
	for _, i := range sortedKeys(s.tid) {
		pre = append(pre, jen.Id(fmt.Sprintf("tid%d", i)).Op(":=").Op("&").Id("w").Dot("Tid").Index(jen.Lit(i)))
	}
	pre = append(pre, s.memPre(e.f.RF.ParamSize)...)
	pre = append(pre, s.hoisted...)
	if s.fault {
		post = append(post, jen.Id("flt").Dot("Raise").Call(jen.Id("w")))
	}
	ppre, ppost := s.predWrites()
	pre = append(pre, ppre...)
	post = append(post, ppost...)
	full := s.fullWarp(e.f.g)
	if e.pass != nil {
		e.stmts = append(e.stmts, jen.Commentf("PTX lines %s: one pass over a full warp's lanes", lineList(s.lines)), jen.Block(append(append(pre, full), post...)...))
		return
	}
	comment := fmt.Sprintf("PTX lines %s: lane-local, one loop over the lanes", lineList(s.lines))
	sparse := jen.For(jen.Id("mm").Op(":=").Id("m"), jen.Id("mm").Op("!=").Lit(0), jen.Id("mm").Op("&=").Id("mm").Op("-").Lit(1)).Block(
		append([]jen.Code{jen.Id("l").Op(":=").Qual("math/bits", "TrailingZeros32").Call(jen.Id("mm")).Op("&").Lit(31)}, s.body...)...)
	if len(steps) > 0 {
		comment = fmt.Sprintf("PTX lines %s: lane-local, one loop over the lanes; a full warp's comparisons of a value that steps by 1 from lane to lane after it (steppred.go)", lineList(s.lines))
		full = e.deferredLoop(s, steps)
	}
	blk := append(pre, jen.If(jen.Id("m").Op("==").Id("0xffffffff")).Block(full).Else().Block(sparse))
	blk = append(blk, post...)
	if allStep {
		e.stmts = append(e.stmts, jen.Commentf("PTX lines %s: comparisons of a value that steps by 1 from lane to lane (steppred.go)", lineList(s.lines)),
			jen.If(cond).Block(writes...).Else().Block(blk...))
		return
	}
	e.stmts = append(e.stmts, jen.Comment(comment), jen.Block(blk...))
}

func lineList(ls []int) string {
	var parts []string
	for i, l := range ls {
		if i > 0 && ls[i-1] == l {
			continue
		}
		parts = append(parts, fmt.Sprint(l))
	}
	return strings.Join(parts, ", ")
}

// laneLocal reports whether an instruction only computes on registers of its own lane.
func laneLocal(in *ssa.Instr) bool {
	switch in.Op {
	case frontend.OpMov, frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpMad, frontend.OpDiv,
		frontend.OpRem, frontend.OpMin, frontend.OpMax, frontend.OpAbs, frontend.OpNeg, frontend.OpAnd,
		frontend.OpOr, frontend.OpXor, frontend.OpNot, frontend.OpShl, frontend.OpShr, frontend.OpPopc,
		frontend.OpClz, frontend.OpBrev, frontend.OpBfe, frontend.OpFma, frontend.OpRcp, frontend.OpSqrt,
		frontend.OpRsqrt, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2, frontend.OpTanh,
		frontend.OpSetp, frontend.OpSelp, frontend.OpCvt, frontend.OpCvta:
		return true
	}
	return laneLocalExt(in.Op)
}

// instr lowers one instruction, of a form the table of forms accepts (layout.CheckForms,
// which Generate checked before lowering any).
func (e *blockEmit) instr(in *ssa.Instr) {
	defer func() {
		if r := recover(); r != nil {
			e.errorf(in, "%s: malformed operands (%v)", spelling(in), r)
		}
	}()
	if e.f.g.check {
		if sites := e.f.CheckSites(in); len(sites) > 0 {
			e.flush()
			e.stmts = append(e.stmts, e.f.g.checkHooks(sites)...)
		}
	}
	if layout.InstrType(in) == frontend.B128 && in.Op != frontend.OpMov {
		e.flush()
		e.memB128(in)
		return
	}
	switch in.Op {
	case frontend.OpMembar, frontend.OpFence:
		return // CTAs share memory through Go atomics; program order gives the ordering.
	case frontend.OpPrefetch, frontend.OpPrefetchu, frontend.OpNanosleep, frontend.OpPmevent, frontend.OpBrkpt,
		frontend.OpApplypriority, frontend.OpDiscard, frontend.OpGriddepcontrol, frontend.OpSetmaxnreg:
		e.hint(in)
		return
	case frontend.OpLd, frontend.OpLdu:
		if e.laneMemOK(in) {
			e.laneMem(in)
			return
		}
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		if firstDst(in).Kind == ssa.ArgVector {
			e.loadVector(in)
		} else {
			e.load(in)
		}
		return
	case frontend.OpSt:
		if e.laneMemOK(in) {
			e.laneMem(in)
			return
		}
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		if len(memArgs(in)) == 2 && memArgs(in)[1].Kind == ssa.ArgVector {
			e.storeVector(in)
		} else {
			e.store(in)
		}
		return
	case frontend.OpAtom, frontend.OpRed:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.atom(in)
		return
	case frontend.OpMbarrier:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.mbarrier(in)
		return
	case frontend.OpCp:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.cpAsync(in)
		return
	case frontend.OpLdmatrix, frontend.OpMma:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.matrix(in)
		return
	case frontend.OpWmma:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.wmma(in)
		return
	case frontend.OpTex, frontend.OpTld4, frontend.OpTxq, frontend.OpSuld, frontend.OpSust, frontend.OpSured,
		frontend.OpSuq, frontend.OpIstypeof:
		e.flush()
		e.stmts = append(e.stmts, e.countWarp(in))
		e.image(in)
		return
	}
	if layout.IsWarpInstr(in) {
		e.flush()
		e.warp(in)
		return
	}
	if !laneLocal(in) {
		e.unsupported(in)
		return
	}
	if e.uniformInstr(in) {
		return
	}
	e.laneInstr(in)
}

func isHalf(t frontend.Type) bool {
	return t == frontend.F16 || t == frontend.BF16 || t == frontend.F16x2 || t == frontend.BF16x2
}

// ---- operand access ----

// ctx says how operands are read: in a lane loop (lane index l) or once per warp.
type ctx struct {
	e      *blockEmit
	scalar bool
}

// src returns a uint64 expression for source operand a read as type t.
func (c ctx) src(in *ssa.Instr, a ssa.Arg, t frontend.Type) jen.Code {
	e := c.e
	switch a.Kind {
	case ssa.ArgValue:
		if a.Value.Reg.Type == frontend.Pred {
			panic("predicate used as a value")
		}
		s := e.f.Regs[a.Value.Reg.ID]
		if !c.scalar && e.seg != nil {
			if n, ok := e.seg.lanes[s]; ok {
				if e.seg.floats[n] {
					// Through the float32 local: n itself then only goes to the register file.
					e.seg.use(n + "F")
					return u64(jen.Qual("math", "Float32bits").Call(jen.Id(n + "F")))
				}
				e.read[n] = true
				e.seg.use(n)
				return jen.Id(n)
			}
		}
		if n, ok := e.uni[s]; ok {
			e.read[n] = true
			return jen.Id(n)
		}
		if c.scalar {
			panic("non-uniform operand in a uniform instruction")
		}
		return e.laneReg(s)
	case ssa.ArgImm:
		v := a.Imm
		if t == frontend.F32 || t == frontend.F64 {
			v = layout.FloatBits(t, frontend.FloatDecimal, math.Float64bits(float64(int64(a.Imm))))
		}
		return jen.Id(e.imm(truncate(v, t)))
	case ssa.ArgFloat:
		if !t.IsFloat() && t.Bits() != 32 && t.Bits() != 64 || isHalf(t) {
			panic("floating-point immediate for a non-float operand")
		}
		ft := t
		if !t.IsFloat() {
			ft = frontend.F32
			if t.Bits() == 64 {
				ft = frontend.F64
			}
		}
		return jen.Id(e.imm(layout.FloatBits(ft, a.Form, a.Imm)))
	case ssa.ArgSpecial:
		if x := e.uniformSpecial(a.Name); x != nil {
			return x
		}
		if c.scalar {
			panic("per-lane special register in a uniform instruction")
		}
		if x := e.laneSpecial(a.Name); x != nil {
			return x
		}
		panic("unsupported special register " + a.Name)
	case ssa.ArgSym:
		return e.symAddr(a)
	}
	panic("unsupported operand")
}

func truncate(v uint64, t frontend.Type) uint64 {
	if n := t.Bits(); n > 0 && n < 64 {
		return v & (1<<n - 1)
	}
	return v
}

// uniformSpecial is a special register with one value per warp, or nil.
func (e *blockEmit) uniformSpecial(name string) jen.Code {
	if n := len(name); n > 2 && name[n-2] == '.' {
		c := strings.ToUpper(name[n-1:])
		var get *jen.Statement
		switch name[:n-2] {
		case "%ntid":
			get = jen.Id("w").Dot("NTID").Call()
		case "%ctaid", "%clusterid":
			get = jen.Id("w").Dot("CTAID").Call()
		case "%nctaid", "%nclusterid":
			get = jen.Id("w").Dot("NCTAID").Call()
		default:
			return uniformSpecialExt(name)
		}
		if c != "X" && c != "Y" && c != "Z" {
			return nil
		}
		return jen.Uint64().Call(get.Dot(c))
	}
	switch name {
	case "%warpid":
		return jen.Uint64().Call(jen.Id("w").Dot("ID"))
	case "%nwarpid":
		return jen.Uint64().Call(jen.Id("w").Dot("NumWarps").Call())
	}
	return uniformSpecialExt(name)
}

// laneSpecial is a per-lane special register, or nil.
func (e *blockEmit) laneSpecial(name string) jen.Code {
	if len(name) == 6 && name[:5] == "%tid." && name[5] >= 'x' && name[5] <= 'z' {
		i := int(name[5] - 'x')
		e.seg.tid[i] = true
		return jen.Uint64().Call(jen.Id(fmt.Sprintf("tid%d", i)).Index(jen.Id("l")))
	}
	switch name {
	case "%laneid":
		return jen.Uint64().Call(jen.Id("l"))
	case "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge":
		return jen.Qual(rtPath, "Lanemask"+strings.ToUpper(name[10:11])+name[11:]).Call(jen.Id("l"))
	}
	return laneSpecialExt(name)
}

// symAddr is the address of a variable or function in its own state space (as mov reads it).
func (e *blockEmit) symAddr(a ssa.Arg) jen.Code {
	f := e.f
	if a.Fn != nil {
		callee := f.g.funcs[a.Fn]
		if callee == nil {
			panic("address of " + a.Fn.Name + ", which has no body in this module")
		}
		return jen.Id(e.imm(uint64(runtime.FuncWindow) + uint64(callee.RF.Index)*runtime.FuncAlign + uint64(a.Offset)))
	}
	v := a.Var
	switch v.Space {
	case frontend.SpaceGlobal, frontend.SpaceConst:
		return jen.Parens(jen.Id("w").Dot("GlobalVar").Call(jen.Lit(f.g.Globals[v])).Op("+").Id(e.imm(uint64(a.Offset))))
	case frontend.SpaceShared:
		return jen.Id(e.imm(uint64(f.g.Shared[v] + a.Offset)))
	case frontend.SpaceLocal:
		if off, ok := f.g.Local[v]; ok {
			return jen.Id(e.imm(uint64(off + a.Offset)))
		}
		return jen.Parens(jen.Uint64().Call(jen.Id("w").Dot("LocalBase")).Op("+").Id(e.imm(uint64(f.Local[v] + a.Offset))))
	case frontend.SpaceParam:
		if off, ok := f.KParam[v]; ok {
			return jen.Id(e.imm(uint64(off + a.Offset)))
		}
		if off, ok := f.Param[v]; ok {
			return jen.Id(e.imm(uint64(off + a.Offset)))
		}
	}
	panic(fmt.Sprintf("the address of %s variable %s", v.Space, v.Name))
}

func isPred(a ssa.Arg) bool { return a.Kind == ssa.ArgValue && a.Value.Reg.Type == frontend.Pred }

// pred returns a boolean expression for a predicate source in a lane loop.
func (c ctx) pred(a ssa.Arg) jen.Code {
	e := c.e
	if isPred(a) {
		if c.scalar {
			panic("predicate in a uniform instruction")
		}
		p := e.f.Regs[a.Value.Reg.ID]
		if x, ok := e.seg.plocal[p]; ok {
			e.seg.use(strings.TrimPrefix(x, "!"))
			if strings.HasPrefix(x, "!") != a.Not {
				return jen.Op("!").Id(strings.TrimPrefix(x, "!"))
			}
			return jen.Id(strings.TrimPrefix(x, "!"))
		}
		e.seg.preds[p] = true
		if e.lane {
			if a.Not {
				return jen.Op("!").Id(laneBool(p))
			}
			return jen.Id(laneBool(p))
		}
		op := "!="
		if a.Not {
			op = "=="
		}
		return jen.Id(predName(p)).Op(">>").Id("l").Op("&").Lit(1).Op(op).Lit(0)
	}
	if a.Kind == ssa.ArgImm {
		return jen.Lit(a.Imm != 0)
	}
	panic("operand must be a predicate")
}

// ---- instruction forms ----

func types(in *ssa.Instr) []frontend.Type {
	var ts []frontend.Type
	for _, m := range in.Mods {
		if t, ok := m.Type(); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

func has(in *ssa.Instr, m frontend.Mod) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// uniformInstr lowers an unguarded lane-local instruction whose result is warp-uniform and
// whose operands are all known once per warp into a scalar computation and a broadcast.
func (e *blockEmit) uniformInstr(in *ssa.Instr) bool {
	if e.lane || in.Guard != nil || len(in.Dsts) != 1 || len(in.Defs) != 1 || in.Dsts[0].Kind != ssa.ArgValue {
		return false
	}
	d := in.Defs[0]
	if !d.Uniform || d.Reg.Type == frontend.Pred || d.Reg.Type == frontend.B128 {
		return false
	}
	args := in.Args
	if in.Op == frontend.OpCreatepolicy {
		if _, copy, _, _ := layout.CachePolicy(in); !copy {
			args = nil // a fractional or range policy does not depend on its operands
		}
	}
	for _, a := range args {
		switch a.Kind {
		case ssa.ArgImm, ssa.ArgFloat, ssa.ArgSym:
		case ssa.ArgValue:
			if a.Value.Reg.Type == frontend.Pred {
				return false
			}
			if _, ok := e.uni[e.f.Regs[a.Value.Reg.ID]]; !ok {
				return false
			}
		case ssa.ArgSpecial:
			if e.uniformSpecial(a.Name) == nil {
				return false
			}
		default:
			return false
		}
	}
	if in.Op == frontend.OpSetp || in.Op == frontend.OpSelp {
		return false
	}
	c := ctx{e: e, scalar: true}
	n := e.fresh("u")
	// A failed attempt must leave no immediates behind (an unused Go local does not compile).
	imms, top := len(e.imms), len(e.top)
	var stmts []jen.Code
	func() {
		defer func() {
			if recover() != nil {
				stmts = nil
			}
		}()
		stmts = c.value(in, n)
	}()
	if stmts == nil || e.bad {
		if len(e.imms) != imms {
			for v, k := range e.imms {
				if indexOf(k) >= imms {
					delete(e.imms, v)
				}
			}
			e.top = e.top[:top]
		}
		return false
	}
	slot := e.f.Regs[in.Defs[0].Reg.ID]
	code := append([]jen.Code{jen.Commentf("PTX line %d: %s, warp-uniform", in.Pos.Line, spelling(in))}, stmts...)
	laneRead := e.readOnlyBy(in.Defs[0], e.local)
	if s := e.seg; s != nil && laneRead {
		// Only lane loops of this block read it, from the local: it need not end the loop
		// being built, and is computed before it.
		s.uniforms = append(s.uniforms, code...)
		delete(s.lanes, slot)
	} else {
		e.flush()
		e.stmts = append(e.stmts, code...)
		if !laneRead {
			e.stmts = append(e.stmts, jen.Qual(rtPath, "Broadcast").Call(jen.Id(e.reg(slot)), jen.Id("m"), jen.Id(n)))
		}
	}
	e.uni[slot] = n
	e.unis = append(e.unis, n)
	return true
}

// laneInstr adds a lane-local instruction to the current lane loop.
func (e *blockEmit) laneInstr(in *ssa.Instr) {
	if e.seg == nil {
		if fp := e.pass; fp != nil && !fp.started {
			e.passAddrs()
		}
		e.seg = newSegment(&e.f.g.nwin)
	}
	s := e.seg
	s.cur = len(s.groups)
	s.uses = append(s.uses, map[string]bool{})
	s.instrs[in] = true
	s.order = append(s.order, in)
	s.lines = append(s.lines, int(in.Pos.Line))
	c := ctx{e: e}
	dst := firstDst(in)
	var code []jen.Code
	var write func() []jen.Code
	var written []int
	switch {
	case in.Op == frontend.OpSt:
		code = c.store(in)
		s.sideEffects[s.cur] = true
		write = func() []jen.Code { return nil }
	case multiDst(in):
		code, written = e.laneMulti(in, c)
		if code == nil {
			e.unsupported(in)
			return
		}
		if len(written) > 0 {
			s.sideEffects[s.cur] = true
		}
		write = func() []jen.Code { return nil }
	case dst.Kind == ssa.ArgPair || isPred(dst) || dst.Kind == ssa.ArgSink && (in.Op == frontend.OpSetp || in.Op == frontend.OpTestp):
		// A predicate result: a boolean per lane, into the loop's copy of the mask.
		n := e.fresh("c")
		code = c.predValue(in, n)
		if code == nil {
			e.unsupported(in)
			return
		}
		var ps []int
		var negs []bool
		if dst.Kind == ssa.ArgPair {
			for i, x := range dst.Elems {
				if isPred(x) {
					ps = append(ps, e.f.Regs[x.Value.Reg.ID])
					negs = append(negs, i == 1)
				}
			}
		} else if isPred(dst) {
			ps = append(ps, e.f.Regs[dst.Value.Reg.ID])
			negs = append(negs, false)
		}
		write = func() []jen.Code {
			var out []jen.Code
			for i, p := range ps {
				s.preds[p], s.wpreds[p] = true, true
				cond := jen.Id(n)
				if negs[i] {
					cond = jen.Op("!").Id(n)
				}
				if (pairComb(in) != "" || halfPair(in)) && negs[i] {
					cond = jen.Id(n + "q")
				}
				if e.lane {
					out = append(out, jen.Id(laneBool(p)).Op("=").Add(cond))
				} else {
					// Branch-free: the bit is a conditional move, not a data-dependent branch.
					bit := fmt.Sprintf("%sb%d", n, i)
					st := jen.Null()
					s.pwrites = append(s.pwrites, predWrite{p: p, bit: bit, stmt: st, collect: in.Guard == nil && pairComb(in) == "" && !halfPair(in)})
					out = append(out,
						jen.Id(bit).Op(":=").Uint32().Call(jen.Lit(0)),
						jen.If(cond).Block(jen.Id(bit).Op("=").Lit(1)),
						st)
				}
				if in.Guard == nil && pairComb(in) == "" && !halfPair(in) {
					s.defs[n] = s.cur
					if negs[i] {
						defer func() { s.plocal[p] = "!" + n }()
					} else {
						defer func() { s.plocal[p] = n }()
					}
				} else {
					delete(s.plocal, p)
				}
			}
			return out
		}
	case dst.Kind == ssa.ArgValue && dst.Value.Reg.Type != frontend.Pred:
		n := e.fresh("v")
		code = c.value(in, n)
		if code == nil {
			e.unsupported(in)
			return
		}
		slot := e.f.Regs[dst.Value.Reg.ID]
		written = append(written, slot)
		write = func() []jen.Code {
			s.sideEffects[s.cur] = true
			return []jen.Code{e.setLaneReg(slot, n)}
		}
		if in.Guard == nil && len(in.Defs) == 1 && !e.lane {
			st := jen.Null()
			s.stores = append(s.stores, laneStore{v: in.Defs[0], stmt: st, slot: slot, name: n})
			write = func() []jen.Code { return []jen.Code{st} }
			s.defs[n] = s.cur
			defer func() { s.lanes[slot] = n }()
		}
	default:
		e.unsupported(in)
		return
	}
	if e.bad {
		return
	}
	all := append(code, write()...)
	group := []jen.Code{jen.Commentf("%d: %s", in.Pos.Line, spelling(in))}
	for _, w := range written {
		delete(s.lanes, w)
		delete(e.uni, w)
	}
	if in.Guard != nil {
		g := ctx{e: e}.pred(ssa.Arg{Kind: ssa.ArgValue, Value: in.Guard, Not: in.GuardNeg})
		group = append(group, jen.If(g).Block(all...))
	} else {
		group = append(group, all...)
	}
	s.body = append(s.body, group...)
	s.groups = append(s.groups, group)
	s.float = append(s.float, floatArith(in))
}

// floatArith reports whether an instruction is floating-point arithmetic: a few cycles of
// latency in the Go code, so a chain of them in one lane's loop body runs at the latency
// of the chain.
func floatArith(in *ssa.Instr) bool {
	if t := layout.InstrType(in); t != frontend.F32 && t != frontend.F64 {
		return false
	}
	switch in.Op {
	case frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpMad, frontend.OpFma, frontend.OpDiv,
		frontend.OpSqrt, frontend.OpRcp, frontend.OpRsqrt:
		return true
	}
	return false
}

func firstDst(in *ssa.Instr) ssa.Arg {
	if len(in.Dsts) == 0 {
		return ssa.Arg{Kind: ssa.ArgSink}
	}
	return in.Dsts[0]
}

func pairComb(in *ssa.Instr) string {
	if in.Op != frontend.OpSetp {
		return ""
	}
	for _, m := range []frontend.Mod{frontend.ModAnd, frontend.ModOr, frontend.ModXor} {
		if has(in, m) {
			return m.String()
		}
	}
	return ""
}

// indexOf is the number of an immediate's local k<N>.
func indexOf(k string) int {
	var i int
	fmt.Sscanf(k, "k%d", &i)
	return i
}
