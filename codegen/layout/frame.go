package layout

import (
	"slices"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Frame is the layout of one function: its register slots, frame and runtime block numbers.
// RF receives the counts, sizes and parameter slots; the back end adds the blocks.
type Frame struct {
	M    *Module
	Fn   *ssa.Function
	RF   *runtime.Func
	Regs []int // ssa.Reg.ID → register slot, or predicate index for .pred registers
	// Param is each .param variable's offset in the per-lane param area; kernel formal
	// parameters are instead at KParam offsets in the launch's parameter buffer.
	Param  map[*ssa.Variable]int64
	KParam map[*ssa.Variable]int64
	Local  map[*ssa.Variable]int64
	Start  []int32        // ssa block ID → index of its first runtime block
	Exit   int32          // index of the virtual exit: after every other block
	slots  map[uint64]int // constant value → its register slot
	consts []runtime.Const
}

// Frame lays out fn, a function with a body.
func (m *Module) Frame(fn *ssa.Function) *Frame {
	f := &Frame{
		M: m, Fn: fn, RF: m.Funcs[fn],
		Param:  map[*ssa.Variable]int64{},
		KParam: map[*ssa.Variable]int64{},
		Local:  map[*ssa.Variable]int64{},
		slots:  map[uint64]int{},
	}
	f.assignRegisters()
	f.layoutFrame()
	f.layoutBlocks()
	return f
}

// assignRegisters gives every register a slot and every predicate a mask index. A .b128
// register takes two consecutive slots, its low 64 bits in the first (Regs[id]) and its high
// 64 bits in the next.
func (f *Frame) assignRegisters() {
	f.Regs = make([]int, len(f.Fn.Regs))
	used := make([]bool, len(f.Fn.Regs))
	for _, v := range f.Fn.Values {
		if v.Reg != nil {
			used[v.Reg.ID] = true
		}
	}
	for _, p := range slices.Concat(f.Fn.Params, f.Fn.Results) {
		for _, r := range p.Regs {
			used[r.ID] = true
		}
	}
	// Registers that are declared but never read or written share one place. (Registers of a
	// `%r<N>` range exist only once used; this covers those declared one by one, and ranges
	// the builder spells out because their names may repeat others in the scope.)
	unusedSlot, unusedPred := -1, -1
	for i, r := range f.Fn.Regs {
		switch {
		case !used[i] && r.Type == frontend.Pred:
			if unusedPred < 0 {
				unusedPred = f.RF.NumPreds
				f.RF.NumPreds++
			}
			f.Regs[i] = unusedPred
		case !used[i]:
			if unusedSlot < 0 {
				unusedSlot = f.RF.NumRegs
				f.RF.NumRegs += 2 // room for a .b128
			}
			f.Regs[i] = unusedSlot
		case r.Type == frontend.Pred:
			f.Regs[i] = f.RF.NumPreds
			f.RF.NumPreds++
		case r.Type == frontend.B128:
			f.Regs[i] = f.RF.NumRegs
			f.RF.NumRegs += 2
		default:
			f.Regs[i] = f.RF.NumRegs
			f.RF.NumRegs++
		}
	}
}

// Scratch allocates a register slot for a value no PTX register holds.
func (f *Frame) Scratch() int {
	s := f.RF.NumRegs
	f.RF.NumRegs++
	return s
}

// ConstSlot returns a register that holds v in every lane.
func (f *Frame) ConstSlot(v uint64) int {
	if s, ok := f.slots[v]; ok {
		return s
	}
	s := f.Scratch()
	f.slots[v] = s
	f.consts = append(f.consts, runtime.Const{Reg: s, Value: v})
	return s
}

// Consts are the constant registers ConstSlot allocated, in the order it did.
func (f *Frame) Consts() []runtime.Const { return f.consts }

// ZeroRegs lists the register slots an activation must start with zeroed: registers with an
// undefined value that something reads, and the sources of shfl and mma, which read other
// lanes.
func (f *Frame) ZeroRegs() []int32 {
	need := make([]bool, len(f.Fn.Regs))
	ssa.ForEachUse(f.Fn, func(_ *ssa.Block, v *ssa.Value) {
		if v.Kind == ssa.DefUndef {
			need[v.Reg.ID] = true
		}
	})
	for _, b := range f.Fn.Blocks {
		for _, in := range b.Instrs {
			if in.Op != frontend.OpShfl && in.Op != frontend.OpMma && in.Op != frontend.OpWmma {
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
	for id, r := range f.Fn.Regs {
		if need[id] && r.Type != frontend.Pred {
			slots = append(slots, int32(f.Regs[id]))
			if r.Type == frontend.B128 {
				slots = append(slots, int32(f.Regs[id]+1))
			}
		}
	}
	return slots
}

// layoutFrame places the function's .param, .local and parameter variables.
func (f *Frame) layoutFrame() {
	formal := map[*ssa.Variable]bool{}
	for _, p := range f.Fn.Params {
		if p.Var != nil {
			formal[p.Var] = true
		}
	}
	var paramTop, kparamTop, localTop int64
	kernel := f.Fn.Kind == frontend.Entry
	if kernel {
		for _, p := range f.Fn.Params {
			if p.Var == nil {
				f.M.errorf(f.Fn.Pos, "kernel %s: .reg parameters are not allowed in an .entry", f.Fn.Name)
				continue
			}
			kparamTop = alignUp(kparamTop, VarAlign(p.Var))
			f.KParam[p.Var] = kparamTop
			kparamTop += p.Var.Size
		}
	}
	var params []*ssa.Variable
	for _, v := range f.Fn.Vars {
		switch v.Space {
		case frontend.SpaceParam:
			if kernel && formal[v] {
				continue
			}
			params = append(params, v)
		case frontend.SpaceLocal:
			localTop = alignUp(localTop, VarAlign(v))
			f.Local[v] = localTop
			localTop += v.Size
		}
	}
	paramTop = f.placeParams(params)
	// Formal parameters and results may be absent from Vars; place them too.
	for _, ps := range [][]*ssa.Param{f.Fn.Params, f.Fn.Results} {
		for _, p := range ps {
			if p.Var == nil || kernel {
				continue
			}
			if _, ok := f.Param[p.Var]; !ok {
				paramTop = alignUp(paramTop, VarAlign(p.Var))
				f.Param[p.Var] = paramTop
				paramTop += p.Var.Size
			}
		}
	}
	f.RF.ParamSize = int(alignUp(paramTop, 8))
	f.RF.KernelParams = int(kparamTop)
	f.RF.ClusterCTAs = f.Fn.ClusterCTAs
	f.RF.LocalSize = int(alignUp(localTop, 16))
	// A vector .reg parameter takes one slot per element.
	slots := func(ps []*ssa.Param) []runtime.Slot {
		var out []runtime.Slot
		for _, p := range ps {
			if p.Var != nil {
				out = append(out, runtime.Slot{Reg: -1, ParamOff: int(f.Param[p.Var]), Size: int(p.Var.Size)})
				continue
			}
			if p.Regs[0].Type == frontend.B128 {
				f.M.errorf(f.Fn.Pos, "unsupported: .b128 register %s as a .reg parameter or result of %s", p.Name, f.Fn.Name)
			}
			for _, r := range p.Regs {
				out = append(out, runtime.Slot{Reg: f.Regs[r.ID], Pred: r.Type == frontend.Pred, Size: r.Type.Bytes()})
			}
		}
		return out
	}
	if !kernel {
		f.RF.Params = slots(f.Fn.Params)
		f.RF.Results = slots(f.Fn.Results)
	}
}

// placeParams places the .param variables vars (in declaration order) and returns the end of
// their area. A `{ }` group's own variables come first, then each group inside it from the
// same offset: the variables of sibling groups never live at once, and compilers declare each
// call's arguments and results in a group of its own, so a function's calls share one area
// (which the runtime clears for every activation) instead of one each.
func (f *Frame) placeParams(vars []*ssa.Variable) int64 {
	own := map[int][]*ssa.Variable{}
	for _, v := range vars {
		own[v.Group] = append(own[v.Group], v)
	}
	inner := map[int][]int{}
	for g, outer := range f.Fn.Groups {
		inner[outer] = append(inner[outer], g)
	}
	var place func(g int, base int64) int64
	place = func(g int, base int64) int64 {
		top := base
		for _, v := range own[g] {
			top = alignUp(top, VarAlign(v))
			f.Param[v] = top
			top += v.Size
		}
		end := top
		for _, c := range inner[g] {
			end = max(end, place(c, top))
		}
		return end
	}
	return place(-1, 0)
}

// modWarp is `.warp` (bar.warp.sync), which has no named constant in frontend.
var modWarp = knownMod(".warp")

// IsBarrier reports whether an instruction waits at a CTA barrier and so ends a runtime block.
func IsBarrier(in *ssa.Instr) bool {
	if in.Op != frontend.OpBar && in.Op != frontend.OpBarrier {
		return false
	}
	return !slices.Contains(in.Mods, modWarp)
}

// IsClusterBarrier reports whether in is barrier.cluster.arrive or barrier.cluster.wait, which
// synchronize the CTAs of a cluster: clusters are not supported, so neither back end lowers
// them (a CTA barrier in their place would wait on the wrong threads).
func IsClusterBarrier(in *ssa.Instr) bool {
	return in.Op == frontend.OpBarrier && slices.Contains(in.Mods, frontend.ModCluster)
}

// WarpSyncMask returns the membermask operand of a warp-level synchronization (bar.warp.sync
// and the .sync forms of shfl, vote, match, redux and elect), which starts a runtime block of
// its own so that, under independent thread scheduling, the lanes reaching it can wait there
// for the others it names.
func WarpSyncMask(in *ssa.Instr) (ssa.Arg, bool) {
	i := -1
	switch in.Op {
	case frontend.OpBar, frontend.OpBarrier:
		if slices.Contains(in.Mods, modWarp) {
			i = 0
		}
	case frontend.OpShfl:
		i = 3
	case frontend.OpVote, frontend.OpMatch, frontend.OpRedux:
		i = 1
	case frontend.OpElect:
		i = 0
	}
	if i < 0 || i >= len(in.Args) || !slices.Contains(in.Mods, modSync) {
		return ssa.Arg{}, false
	}
	return in.Args[i], true
}

var modSync = knownMod(".sync")

// WarpSync describes the rendezvous before the warp-level synchronization in (whose
// membermask operand WarpSyncMask returned) for the runtime: the register holding each lane's
// membermask, the guard, and whether the lanes must run it together. A membermask that is
// neither a register nor an immediate is not supported (ok false).
func (f *Frame) WarpSync(in *ssa.Instr, mask ssa.Arg) (ws *runtime.WarpSync, ok bool) {
	ws = &runtime.WarpSync{Guard: -1, What: in.Op.String() + ".sync"}
	switch {
	case mask.Kind == ssa.ArgValue && mask.Value.Reg.Type != frontend.Pred:
		ws.Mask = f.Regs[mask.Value.Reg.ID]
	case mask.Kind == ssa.ArgImm:
		ws.Mask = f.ConstSlot(mask.Imm & 0xffffffff)
	default:
		return nil, false
	}
	if in.Guard != nil {
		ws.Guard, ws.GuardNeg = f.Regs[in.Guard.Reg.ID], in.GuardNeg
	}
	switch in.Op {
	case frontend.OpBar, frontend.OpBarrier:
		ws.What = "bar.warp.sync"
	default:
		ws.Joint = true
	}
	return ws, true
}

// layoutBlocks numbers the runtime blocks: each SSA block becomes one block per barrier and
// warp-level synchronization it contains plus one, and a call with code before it gets a block
// of its own, so that lanes re-running a divergent call never re-run other instructions.
func (f *Frame) layoutBlocks() {
	f.Start = make([]int32, len(f.Fn.Blocks))
	n := int32(0)
	for i, b := range f.Fn.Blocks {
		f.Start[i] = n
		n++
		for _, in := range b.Instrs {
			if _, sync := WarpSyncMask(in); sync || IsBarrier(in) {
				n++
			}
		}
		if CallNeedsOwnBlock(b) {
			n++
		}
	}
	f.Exit = n
	f.RF.Exit = n
}

// CallNeedsOwnBlock reports whether b ends in a call with instructions before it since its
// last barrier: those go in a block of their own.
func CallNeedsOwnBlock(b *ssa.Block) bool {
	if b.Term.Kind != ssa.TermCall || len(b.Instrs) == 0 {
		return false
	}
	return !IsBarrier(b.Instrs[len(b.Instrs)-1])
}

// ExplicitTerm reports whether a block's terminator issues a PTX instruction (bra, brx.idx,
// call, ret, exit, trap) rather than being a fall-through. A guarded ret, exit, trap or
// brx.idx issues at the branch on its guard that lowering added, not in the block it leads to.
func ExplicitTerm(b *ssa.Block) bool {
	t := &b.Term
	switch {
	case t.Synthetic:
		return true
	case GuardedTarget(b):
		return false
	case t.Kind == ssa.TermJump:
		return len(b.Succs) == 1 && t.Pos != b.Succs[0].Pos
	}
	return true
}

// GuardedTarget reports whether b is the block a guarded ret, exit, trap or brx.idx branches
// to when its guard holds: the instruction was issued by the branch before it.
func GuardedTarget(b *ssa.Block) bool {
	return len(b.Preds) == 1 && b.Preds[0].Term.Synthetic && b.Preds[0].Succs[0] == b && len(b.Instrs) == 0
}

// Target maps an SSA block to its first runtime block; the virtual exit maps to Exit, which
// is the last block.
func (f *Frame) Target(b *ssa.Block) int32 {
	if b == nil || b == f.Fn.Exit {
		return f.Exit
	}
	return f.Start[b.ID]
}

// Term lowers the terminator of b.
func (f *Frame) Term(b *ssa.Block) runtime.Term {
	t := &b.Term
	rt := runtime.Term{Loc: Loc(t.Pos), Reconv: -1, Uniform: !t.Divergent}
	if t.Reconv != nil {
		rt.Reconv = f.Target(t.Reconv)
	}
	switch t.Kind {
	case ssa.TermJump:
		rt.Kind, rt.Succ = runtime.TermJump, f.Target(b.Succs[0])
	case ssa.TermBranch:
		rt.Kind = runtime.TermBranch
		rt.Succ, rt.Alt = f.Target(b.Succs[0]), f.Target(b.Succs[1])
		rt.Pred, rt.Negate = f.Regs[t.Cond.Reg.ID], t.Negate
		rt.Predicated = Predicated(f.Fn, b)
	case ssa.TermBrx:
		rt.Kind = runtime.TermBrx
		rt.Index = f.Regs[t.Index.Reg.ID]
		for _, tb := range t.Table {
			rt.Table = append(rt.Table, f.Target(tb))
		}
	case ssa.TermCall:
		rt.Kind, rt.Succ = runtime.TermCall, f.Target(b.Succs[0])
		rt.Call = f.callSite(t.Call, t.Pos)
	case ssa.TermRet:
		rt.Kind, rt.Succ = runtime.TermJump, f.Exit
	case ssa.TermExit:
		rt.Kind = runtime.TermExit
	case ssa.TermTrap:
		rt.Kind = runtime.TermTrap
	default:
		f.M.errorf(t.Pos, "unsupported terminator")
	}
	return rt
}

// callSite lowers a call's target, guard and argument slots; a vector argument or return value
// takes one slot per element, as the callee's vector parameter does.
func (f *Frame) callSite(call *ssa.Call, pos frontend.Pos) *runtime.CallSite {
	m := f.M
	cs := &runtime.CallSite{Guard: -1, Target: -1}
	if call.Guard != nil {
		cs.Guard, cs.GuardNeg = f.Regs[call.Guard.Reg.ID], call.GuardNeg
	}
	if call.Direct != nil {
		cs.Direct = m.Funcs[call.Direct]
		switch {
		case cs.Direct != nil:
			m.addCallee(f.RF, cs.Direct)
		case runtime.BuiltinFunc(call.Direct.Name) != nil:
			// A device-side library function (printf, assert, malloc) the runtime provides;
			// its argument slots are checked once they are laid out, below.
			cs.Direct = runtime.BuiltinFunc(call.Direct.Name)
		default:
			m.errorf(pos, "unsupported: call to %s, which is declared but has no body in this module", call.Direct.Name)
		}
	} else {
		cs.Target = f.Regs[call.Target.Reg.ID]
		for _, t := range call.Targets {
			if rt := m.Funcs[t]; rt != nil {
				cs.Allowed = append(cs.Allowed, rt)
				m.addCallee(f.RF, rt)
			}
		}
		if call.Proto != nil {
			cs.Proto = SigString(*call.Proto)
			if len(call.Targets) == 0 {
				for _, rt := range m.Mod.Funcs {
					if !rt.Kernel && rt.Sig == cs.Proto {
						m.addCallee(f.RF, rt)
					}
				}
			}
		}
	}
	argSlot := func(a ssa.Arg) runtime.Slot {
		switch a.Kind {
		case ssa.ArgSym:
			if a.Var != nil && a.Var.Space == frontend.SpaceParam {
				if off, ok := f.Param[a.Var]; ok {
					return runtime.Slot{Reg: -1, ParamOff: int(off + a.Offset), Size: int(a.Var.Size - a.Offset)}
				}
			}
		case ssa.ArgValue:
			if t := a.Value.Reg.Type; t != frontend.B128 {
				return runtime.Slot{Reg: f.Regs[a.Value.Reg.ID], Pred: t == frontend.Pred, Size: t.Bytes()}
			}
		case ssa.ArgImm:
			return runtime.Slot{Reg: f.ConstSlot(a.Imm), Size: 8}
		}
		m.errorf(a.Pos, "unsupported call argument")
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
	if cs.Direct != nil && cs.Direct.Builtin != runtime.BuiltinNone {
		if err := runtime.CheckBuiltinCall(cs.Direct, cs.Args, cs.Results); err != nil {
			m.errorf(pos, "unsupported: %v", err)
		}
	}
	return cs
}

// MaxPredicated is the most PTX instructions (both sides together, their bra included) of a
// divergent branch's region that runs predicated (Predicated): the compiler heuristic the
// design's seeds describe, which favours predication up to about 7 instructions.
const MaxPredicated = 7

// Predicated reports whether the divergent branch ending b runs its region predicated
// (runtime.Term.Predicated): each side, from the branch's target to its reconvergence point,
// is a chain of SSA blocks that end in jumps (so each is one runtime block: no barrier, call
// or warp-level synchronization), holding at most MaxPredicated PTX instructions in all, every
// one of them lane-local arithmetic or a memory access or fence, which act for each lane of
// the mask alone. Where the lanes split, the warp then runs each side for its lanes in the
// order the SIMT stack would, with no stack entry and no reconvergence: the same instructions
// for the same lanes, so the same memory traffic, atomics and faults (a suppressed lane makes
// no access), and statistics count what the branch would have done.
func Predicated(fn *ssa.Function, b *ssa.Block) bool {
	t := &b.Term
	if t.Kind != ssa.TermBranch || !t.Divergent || t.Reconv == nil || t.Reconv == fn.Exit || len(b.Succs) != 2 {
		return false
	}
	n := 0
	for _, s := range b.Succs {
		for s != t.Reconv {
			if s == nil || s == fn.Exit || s == b || s.Term.Kind != ssa.TermJump || len(s.Succs) != 1 || GuardedTarget(s) {
				return false
			}
			for _, in := range s.Instrs {
				if !predicable(in) {
					return false
				}
			}
			n += len(s.Instrs)
			if ExplicitTerm(s) {
				n++
			}
			if n > MaxPredicated {
				return false
			}
			s = s.Succs[0]
		}
	}
	return n > 0
}

// predicable reports whether an instruction may run predicated in a short region: it reads and
// writes only its own lane's registers, or accesses memory (or orders it) for its own lane.
// Anything that looks at other lanes, the SIMT stack or the CTA (warp-level operations,
// barriers, calls, textures, device-runtime builtins) keeps the branch.
func predicable(in *ssa.Instr) bool {
	switch in.Op {
	case frontend.OpLd, frontend.OpLdu, frontend.OpSt, frontend.OpAtom, frontend.OpRed,
		frontend.OpMembar, frontend.OpFence:
		return true
	}
	return laneArithmetic(in.Op)
}

// laneArithmetic reports whether op computes a lane's registers from the same lane's registers
// alone: the arithmetic, logic, comparison, selection and conversion opcodes that both
// predication and per-lane functions (LaneFuncs) may run for one lane apart from the others.
func laneArithmetic(op frontend.Opcode) bool {
	switch op {
	case frontend.OpMov, frontend.OpAdd, frontend.OpSub, frontend.OpMul, frontend.OpMad, frontend.OpDiv,
		frontend.OpRem, frontend.OpMin, frontend.OpMax, frontend.OpAbs, frontend.OpNeg, frontend.OpAnd,
		frontend.OpOr, frontend.OpXor, frontend.OpNot, frontend.OpShl, frontend.OpShr, frontend.OpPopc,
		frontend.OpClz, frontend.OpBrev, frontend.OpBfe, frontend.OpBfi, frontend.OpFma, frontend.OpRcp,
		frontend.OpSqrt, frontend.OpRsqrt, frontend.OpSin, frontend.OpCos, frontend.OpLg2, frontend.OpEx2,
		frontend.OpTanh, frontend.OpSetp, frontend.OpSelp, frontend.OpSet, frontend.OpSlct, frontend.OpCvt,
		frontend.OpCvta, frontend.OpMul24, frontend.OpMad24, frontend.OpSad, frontend.OpBfind, frontend.OpPrmt,
		frontend.OpLop3, frontend.OpShf, frontend.OpCnot, frontend.OpTestp, frontend.OpCopysign:
		return true
	}
	return false
}
