package closure

import (
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// fnCompiler lowers one function laid out by codegen/layout.
type fnCompiler struct {
	*layout.Frame
	c      *compiler
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
	// steps memoizes the lane steps of values (step.go).
	steps map[*ssa.Value]laneStep
	// laneConsts are the constant registers the per-lane form's code reads (lanefn.go).
	laneConsts map[int]bool
}

func (c *compiler) function(fn *ssa.Function) {
	f := &fnCompiler{Frame: c.Frame(fn), c: c}
	f.hoist()
	if !c.check {
		f.fuseAddresses()
	}
	for _, b := range fn.Blocks {
		f.block(b)
	}
	f.blocks = append(f.blocks, runtime.Block{Term: runtime.Term{Kind: runtime.TermNone, Reconv: -1}})
	f.RF.Blocks = f.blocks
	if c.laneFuncs[fn] {
		if lf := f.laneForm(); lf != nil {
			c.laneForms = append(c.laneForms, lf)
		}
	}
	for _, code := range f.prologue {
		f.RF.Prologue = append(f.RF.Prologue, code...)
	}
	f.RF.Consts = f.Consts()
	f.RF.ZeroRegs = f.ZeroRegs()
	f.RF.ZeroParams = f.ZeroParams()
}

// hoist moves a kernel's launch-invariant instructions out of its blocks into its prologue.
func (f *fnCompiler) hoist() {
	order := ssa.LaunchInvariant(f.Fn)
	f.hoisted = make(map[*ssa.Instr]int, len(order))
	for i, in := range order {
		f.hoisted[in] = i
	}
	f.prologue = make([][]runtime.Instr, len(order))
}

// block lowers one SSA block into its runtime blocks.
func (f *fnCompiler) block(b *ssa.Block) {
	var code []runtime.Instr
	count := 0
	prof := f.newProfile()
	for _, in := range b.Instrs {
		if mask, ok := layout.WarpSyncMask(in); ok {
			next := int32(len(f.blocks) + 1)
			f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Loc: layout.StartLoc(prof), Term: runtime.Term{Kind: runtime.TermWarpSync, Loc: layout.Loc(in.Pos), Succ: next, WarpSync: f.warpSync(in, mask), Reconv: -1}})
			code, count, prof = nil, 0, f.newProfile()
		}
		count++
		if layout.IsBarrier(in) {
			layout.ProfileLine(prof, in.Pos)
			bar := f.barrier(in)
			next := int32(len(f.blocks) + 1)
			f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Loc: layout.StartLoc(prof), Term: runtime.Term{Kind: runtime.TermBarrier, Loc: layout.Loc(in.Pos), Succ: next, Barrier: bar, Reconv: -1}})
			code, count, prof = nil, 0, f.newProfile()
			continue
		}
		start := len(code)
		if f.folded[in] {
			layout.ProfileLine(prof, in.Pos)
			continue
		}
		if i, ok := f.hoisted[in]; ok {
			f.prologue[i] = f.instr(in)
			f.profileInstr(prof, in, start, true)
			continue
		}
		if f.c.check {
			code = append(code, checkHooks(f.CheckSites(in))...)
			start = len(code)
		}
		code = append(code, f.instr(in)...)
		f.profileInstr(prof, in, len(code)-1, len(code) > start)
	}
	if f.c.check {
		if s := f.CheckUni(b); s != nil {
			code = append(code, checkHooks([]*runtime.CheckSite{s})...)
		}
	}
	if layout.CallNeedsOwnBlock(b) {
		f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Loc: layout.StartLoc(prof), Term: runtime.Term{Kind: runtime.TermJump, Succ: int32(len(f.blocks) + 1), Reconv: -1}})
		code, count, prof = nil, 0, f.newProfile()
	}
	explicit := layout.ExplicitTerm(b)
	if explicit {
		count++
	}
	layout.ProfileTerm(prof, b, explicit)
	f.blocks = append(f.blocks, runtime.Block{Code: code, PTXInstrs: count, Profile: prof, Loc: layout.StartLoc(prof), Term: f.Term(b)})
}

// checkHooks is the code that calls the sanitizer's hook of each site (layout.CheckSites).
func checkHooks(sites []*runtime.CheckSite) []runtime.Instr {
	code := make([]runtime.Instr, len(sites))
	for i, s := range sites {
		code[i] = func(w *runtime.Warp, m uint32) { w.CheckMem(s, m) }
	}
	return code
}
