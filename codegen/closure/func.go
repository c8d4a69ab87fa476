package closure

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// fnCompiler lowers one function.
type fnCompiler struct {
	c      *compiler
	fn     *ssa.Function
	rf     *runtime.Func
	regs   []int // ssa.Reg.ID → register slot, or predicate index for .pred registers
	consts map[uint64]int
	// param is each .param variable's offset in the per-lane param area; kernel formal
	// parameters are instead at kparam offsets in the launch's parameter buffer.
	param  map[*ssa.Variable]int64
	kparam map[*ssa.Variable]int64
	local  map[*ssa.Variable]int64
	start  []int32 // ssa block ID → index of its first runtime block
	exit   int32   // index of the virtual exit: after every other block
	blocks []runtime.Block
	carry  int // carrySlot's register slot plus one; 0 until an instruction uses CC.CF
	// hoisted numbers the launch-invariant instructions, which run in the Prologue;
	// prologue[i] is the code of the i-th.
	hoisted  map[*ssa.Instr]int
	prologue [][]runtime.Instr
	// fused are the memory instructions that compute their address from a folded add
	// (fuse.go); folded are those adds, which emit no code.
	fused  map[*ssa.Instr]fusedAddr
	folded map[*ssa.Instr]bool
}

func (c *compiler) function(fn *ssa.Function) {
	f := &fnCompiler{
		c: c, fn: fn, rf: c.funcs[fn],
		consts: map[uint64]int{},
		param:  map[*ssa.Variable]int64{},
		kparam: map[*ssa.Variable]int64{},
		local:  map[*ssa.Variable]int64{},
	}
	f.assignRegisters()
	f.hoist()
	f.fuseAddresses()
	f.layoutFrame()
	f.layoutBlocks()
	for _, b := range fn.Blocks {
		f.block(b)
	}
	f.rf.Exit = int32(len(f.blocks))
	f.blocks = append(f.blocks, runtime.Block{Term: runtime.Term{Kind: runtime.TermNone, Reconv: -1}})
	f.rf.Blocks = f.blocks
	for _, code := range f.prologue {
		f.rf.Prologue = append(f.rf.Prologue, code...)
	}
	for v, s := range f.consts {
		f.rf.Consts = append(f.rf.Consts, runtime.Const{Reg: s, Value: v})
	}
	f.rf.ZeroRegs = f.zeroRegs()
}

// hoist moves a kernel's launch-invariant instructions out of its blocks into its prologue.
func (f *fnCompiler) hoist() {
	order := ssa.LaunchInvariant(f.fn)
	f.hoisted = make(map[*ssa.Instr]int, len(order))
	for i, in := range order {
		f.hoisted[in] = i
	}
	f.prologue = make([][]runtime.Instr, len(order))
}

// zeroRegs lists the register slots an activation must start with zeroed: registers with an
// undefined value that something reads, and the sources of shfl, which reads other lanes.
func (f *fnCompiler) zeroRegs() []int32 {
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
	var slots []int32
	for id, r := range f.fn.Regs {
		if need[id] && r.Type != frontend.Pred {
			slots = append(slots, int32(f.regs[id]))
			if r.Type == frontend.B128 {
				slots = append(slots, int32(f.regs[id]+1))
			}
		}
	}
	return slots
}

// assignRegisters gives every register a slot and every predicate a mask index. A .b128
// register takes two consecutive slots, its low 64 bits in the first (f.regs[id]) and its high
// 64 bits in the next.
func (f *fnCompiler) assignRegisters() {
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
	// Registers that are declared but never read or written share one place. (Registers of a
	// `%r<N>` range exist only once used; this covers those declared one by one, and ranges
	// the builder spells out because their names may repeat others in the scope.)
	unusedSlot, unusedPred := -1, -1
	for i, r := range f.fn.Regs {
		switch {
		case !used[i] && r.Type == frontend.Pred:
			if unusedPred < 0 {
				unusedPred = f.rf.NumPreds
				f.rf.NumPreds++
			}
			f.regs[i] = unusedPred
		case !used[i]:
			if unusedSlot < 0 {
				unusedSlot = f.rf.NumRegs
				f.rf.NumRegs += 2 // room for a .b128
			}
			f.regs[i] = unusedSlot
		case r.Type == frontend.Pred:
			f.regs[i] = f.rf.NumPreds
			f.rf.NumPreds++
		case r.Type == frontend.B128:
			f.regs[i] = f.rf.NumRegs
			f.rf.NumRegs += 2
		default:
			f.regs[i] = f.rf.NumRegs
			f.rf.NumRegs++
		}
	}
}

// scratch allocates a register slot for a value no PTX register holds.
func (f *fnCompiler) scratch() int {
	s := f.rf.NumRegs
	f.rf.NumRegs++
	return s
}

// constSlot returns a register that holds v in every lane.
func (f *fnCompiler) constSlot(v uint64) int {
	if s, ok := f.consts[v]; ok {
		return s
	}
	s := f.scratch()
	f.consts[v] = s
	return s
}

// layoutFrame places the function's .param, .local and parameter variables.
func (f *fnCompiler) layoutFrame() {
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
				f.c.errorf(f.fn.Pos, "kernel %s: .reg parameters are not allowed in an .entry", f.fn.Name)
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
	// Formal parameters and results may be absent from Vars; place them too.
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
	f.rf.ParamSize = int(alignUp(paramTop, 8))
	f.rf.KernelParams = int(kparamTop)
	f.rf.LocalSize = int(alignUp(localTop, 16))
	// A vector .reg parameter takes one slot per element.
	slots := func(ps []*ssa.Param) []runtime.Slot {
		var out []runtime.Slot
		for _, p := range ps {
			if p.Var != nil {
				out = append(out, runtime.Slot{Reg: -1, ParamOff: int(f.param[p.Var]), Size: int(p.Var.Size)})
				continue
			}
			if p.Regs[0].Type == frontend.B128 {
				f.c.errorf(f.fn.Pos, "unsupported: .b128 register %s as a .reg parameter or result of %s", p.Name, f.fn.Name)
			}
			for _, r := range p.Regs {
				out = append(out, runtime.Slot{Reg: f.regs[r.ID], Pred: r.Type == frontend.Pred, Size: r.Type.Bytes()})
			}
		}
		return out
	}
	if !kernel {
		f.rf.Params = slots(f.fn.Params)
		f.rf.Results = slots(f.fn.Results)
	}
}

// isBarrier reports whether an instruction waits at a CTA barrier and so ends a runtime block.
func isBarrier(in *ssa.Instr) bool {
	if in.Op != frontend.OpBar && in.Op != frontend.OpBarrier {
		return false
	}
	for _, m := range in.Mods {
		if m == modWarp {
			return false
		}
	}
	return true
}

// layoutBlocks numbers the runtime blocks: each SSA block becomes one block per barrier it
// contains plus one, and a call with code before it gets a block of its own, so that lanes
// re-running a divergent call never re-run other instructions.
func (f *fnCompiler) layoutBlocks() {
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

// callNeedsOwnBlock reports whether b ends in a call with instructions before it since its
// last barrier: those go in a block of their own.
func callNeedsOwnBlock(b *ssa.Block) bool {
	if b.Term.Kind != ssa.TermCall || len(b.Instrs) == 0 {
		return false
	}
	return !isBarrier(b.Instrs[len(b.Instrs)-1])
}

// block lowers one SSA block into its runtime blocks.
func (f *fnCompiler) block(b *ssa.Block) {
	var code []runtime.Instr
	count := 0
	prof := f.newProfile()
	for _, in := range b.Instrs {
		count++
		if isBarrier(in) {
			profileLine(prof, in.Pos)
			bar := f.barrier(in)
			next := int32(len(f.blocks) + 1)
			f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Term: runtime.Term{Kind: runtime.TermBarrier, Loc: loc(in.Pos), Succ: next, Barrier: bar, Reconv: -1}})
			code, count, prof = nil, 0, f.newProfile()
			continue
		}
		start := len(code)
		if f.folded[in] {
			profileLine(prof, in.Pos)
			continue
		}
		if i, ok := f.hoisted[in]; ok {
			f.prologue[i] = f.instr(in)
			f.profileInstr(prof, in, start, true)
			continue
		}
		code = append(code, f.instr(in)...)
		f.profileInstr(prof, in, len(code)-1, len(code) > start)
	}
	if callNeedsOwnBlock(b) {
		f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Term: runtime.Term{Kind: runtime.TermJump, Succ: int32(len(f.blocks) + 1), Reconv: -1}})
		code, count, prof = nil, 0, f.newProfile()
	}
	explicit := explicitTerm(b)
	if explicit {
		count++
	}
	profileTerm(prof, b, explicit)
	f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Term: f.term(b)})
}

// explicitTerm reports whether a block's terminator issues a PTX instruction (bra, brx.idx,
// call, ret, exit, trap) rather than being a fall-through. A guarded ret, exit, trap or
// brx.idx issues at the branch on its guard that lowering added, not in the block it leads to.
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

// target maps an SSA block to its first runtime block; the virtual exit maps to Func.Exit,
// which is the last block.
func (f *fnCompiler) target(b *ssa.Block) int32 {
	if b == nil || b == f.fn.Exit {
		return f.exit
	}
	return f.start[b.ID]
}

// term lowers a terminator.
func (f *fnCompiler) term(b *ssa.Block) runtime.Term {
	t := &b.Term
	rt := runtime.Term{Loc: loc(t.Pos), Reconv: -1, Uniform: !t.Divergent}
	if t.Reconv != nil {
		rt.Reconv = f.target(t.Reconv)
	}
	switch t.Kind {
	case ssa.TermJump:
		rt.Kind, rt.Succ = runtime.TermJump, f.target(b.Succs[0])
	case ssa.TermBranch:
		rt.Kind = runtime.TermBranch
		rt.Succ, rt.Alt = f.target(b.Succs[0]), f.target(b.Succs[1])
		rt.Pred, rt.Negate = f.regs[t.Cond.Reg.ID], t.Negate
	case ssa.TermBrx:
		rt.Kind = runtime.TermBrx
		rt.Index = f.regs[t.Index.Reg.ID]
		for _, tb := range t.Table {
			rt.Table = append(rt.Table, f.target(tb))
		}
	case ssa.TermCall:
		rt.Kind, rt.Succ = runtime.TermCall, f.target(b.Succs[0])
		rt.Call = f.callSite(t.Call, t.Pos)
	case ssa.TermRet:
		rt.Kind, rt.Succ = runtime.TermJump, f.exit
	case ssa.TermExit:
		rt.Kind = runtime.TermExit
	case ssa.TermTrap:
		rt.Kind = runtime.TermTrap
	default:
		f.c.errorf(t.Pos, "unsupported terminator")
	}
	return rt
}

// callSite lowers a call's target, guard and argument slots; a vector argument or return value
// takes one slot per element, as the callee's vector parameter does.
func (f *fnCompiler) callSite(call *ssa.Call, pos frontend.Pos) *runtime.CallSite {
	cs := &runtime.CallSite{Guard: -1, Target: -1}
	if call.Guard != nil {
		cs.Guard, cs.GuardNeg = f.regs[call.Guard.Reg.ID], call.GuardNeg
	}
	if call.Direct != nil {
		cs.Direct = f.c.funcs[call.Direct]
		if cs.Direct == nil {
			f.c.errorf(pos, "unsupported: call to %s, which is declared but has no body in this module", call.Direct.Name)
		} else {
			f.c.addCallee(f.rf, cs.Direct)
		}
	} else {
		cs.Target = f.valueSlot(call.Target)
		for _, t := range call.Targets {
			if rt := f.c.funcs[t]; rt != nil {
				cs.Allowed = append(cs.Allowed, rt)
				f.c.addCallee(f.rf, rt)
			}
		}
		if call.Proto != nil {
			cs.Proto = sigString(*call.Proto)
			if len(call.Targets) == 0 {
				for _, g := range f.c.prog.Funcs {
					if rt := f.c.funcs[g]; rt != nil && !rt.Kernel && rt.Sig == cs.Proto {
						f.c.addCallee(f.rf, rt)
					}
				}
			}
		}
	}
	argSlot := func(a ssa.Arg) runtime.Slot {
		switch a.Kind {
		case ssa.ArgSym:
			if a.Var != nil && a.Var.Space == frontend.SpaceParam {
				if off, ok := f.param[a.Var]; ok {
					return runtime.Slot{Reg: -1, ParamOff: int(off + a.Offset), Size: int(a.Var.Size - a.Offset)}
				}
			}
		case ssa.ArgValue:
			if t := a.Value.Reg.Type; t != frontend.B128 {
				return runtime.Slot{Reg: f.valueSlot(a.Value), Pred: t == frontend.Pred, Size: t.Bytes()}
			}
		case ssa.ArgImm:
			return runtime.Slot{Reg: f.constSlot(a.Imm), Size: 8}
		}
		f.c.errorf(a.Pos, "unsupported call argument")
		return runtime.Slot{Reg: -1}
	}
	add := func(slots []runtime.Slot, a ssa.Arg) []runtime.Slot {
		if a.Kind != ssa.ArgVector {
			return append(slots, argSlot(a))
		}
		for _, e := range a.Elems {
			slots = append(slots, argSlot(e))
		}
		return slots
	}
	for _, a := range call.Args {
		cs.Args = add(cs.Args, a)
	}
	for _, r := range call.Results {
		cs.Results = add(cs.Results, r)
	}
	return cs
}

// valueSlot is the register slot (or predicate index) of an SSA value's register.
func (f *fnCompiler) valueSlot(v *ssa.Value) int { return f.regs[v.Reg.ID] }
