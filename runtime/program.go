package runtime

import "sync"

// Instr executes one instruction for the active lanes of a warp. Back ends build Instrs once,
// with operands, types and modifiers resolved, so running one does no decoding.
type Instr func(w *Warp, active uint32)

// Module is a compiled PTX module: its functions and the module-scope variables that Launch
// places in device memory.
type Module struct {
	Name    string
	Funcs   []*Func // Funcs[i].Index == i
	Globals []*Global
	// SharedSize is the static shared memory every CTA gets: the module's .shared variables.
	SharedSize int
	// LocalSize is the per-thread local memory below the first call frame: the module's .local variables.
	LocalSize int
	// SM is the architecture the module targets (80 for .target sm_80), 0 when unknown; it
	// picks the default scheduling model.
	SM int
	// NumWindows is the number of global-memory windows (Window) its generated code caches
	// per CTA worker: one per inline global access.
	NumWindows int
	// NumPasses is the number of its generated code's warp passes (Warp.PassOK).
	NumPasses int
	// CheckHooks says the back end put the sanitizer's hooks (Warp.CheckMem) before every
	// memory access, .uni branch and warp-level synchronization, so that a launch may ask for
	// checks (LaunchConfig.Check); CheckSrc maps a PTX file:line to the CUDA source line of
	// its .loc directive, for the reports.
	CheckHooks bool
	CheckSrc   map[string]string

	loaded sync.Map // *Device → []Ptr: the addresses of Globals on that device
	// heapUsed says a function calls malloc or free (usesHeap), computed once.
	heapOnce sync.Once
	heapUsed bool
}

// Global is a module-scope .global or .const variable, allocated on a device when the module
// is first launched there.
type Global struct {
	Name  string
	Size  int
	Align int
	Init  []byte // the initial bytes; nil means zero
	// Relocs patch function addresses and addresses of other globals into Init.
	Relocs []Reloc
	// ReadOnly marks a .const variable: the host initializes and may copy into it, kernels
	// may only read it, and a kernel store to it is a FaultReadOnly.
	ReadOnly bool
	// Managed marks a CUDA __managed__ variable: it is placed in host-visible memory
	// (Device.MallocHost), so that host code may dereference its device address.
	Managed bool
	// Ref marks a .texref or .surfref variable (a legacy texture or surface reference): it
	// holds the handle of the object bound to it (Device.BindReference).
	Ref RefKind
}

// Reloc asks for an address to be written at Offset of a global's initial bytes.
type Reloc struct {
	Offset int
	Size   int   // 4 or 8 bytes
	Func   *Func // the address of this function, or
	Global int   // the address of Module.Globals[Global] plus Addend, when Func is nil
	Addend int64
}

// Func is a compiled kernel or device function.
type Func struct {
	Name   string
	Index  int
	Kernel bool
	// Sig is the canonical signature string; indirect calls through a prototype compare it.
	Sig string
	// NumRegs is the number of 64-bit lane registers; register s of lane l lives at
	// Warp.R[s*32+l]. Consts hold their values in every activation.
	NumRegs int
	Consts  []Const
	// ZeroRegs are the registers an activation must start with zeroed: those some path reads
	// before writing, and those other lanes read (shfl sources). Every other register is
	// written before it is read, so a reused frame skips clearing it.
	ZeroRegs []int32
	// ZeroParams says an activation must start with its .param area zeroed: some path may
	// read a byte of it before writing it. Otherwise a reused frame skips clearing it.
	ZeroParams bool
	// Prologue computes a kernel's launch-invariant registers (ssa.LaunchInvariant) for all
	// lanes, once per frame: the frame is made for one launch, and blocks skip that code.
	Prologue []Instr
	NumPreds int
	// ParamSize is the per-lane size of the .param variables this function owns (its formal
	// parameters and results as a device function, and its call-site argument variables).
	ParamSize int
	// KernelParams is a kernel's parameter buffer size: its .param space as Launch receives it.
	KernelParams int
	// StaticShared is a kernel's static shared memory: the end of the highest .shared variable
	// it can reach (cudaFuncGetAttributes' sharedSizeBytes). Its CTAs get the module's
	// SharedSize, which holds the static shared memory of every kernel.
	StaticShared int
	// ClusterCTAs is the number of CTAs per cluster a kernel requires (.reqnctapercluster), 0
	// when it names none. Clusters of more than one CTA are not supported: every CTA runs as
	// a cluster of one, so Launch refuses a kernel that requires more, whose %cluster_*
	// registers would read wrong.
	ClusterCTAs int
	// LocalSize is the per-lane size of its .local frame (clang's __local_depot and friends).
	LocalSize int
	// StackBytes is the local memory a call of this function needs including its callees'
	// frames, or -1 when recursion makes it unbounded.
	StackBytes int
	// Params and Results are the formal and return parameters in order, a vector .reg
	// parameter taking one slot per element.
	Params  []Slot
	Results []Slot
	Blocks  []Block
	Exit    int32 // the virtual exit block, reached by ret; it holds no code
	// KernelArgs describes a kernel's parameters for a module built without its SSA program
	// (generated Go source): what the root package's Kernel.Params reports. Nil otherwise.
	KernelArgs []KernelParam
	Loc        string
	// Builtin, when set, makes this a device-side library function the runtime implements
	// (BuiltinFunc): a call runs it at once for the calling lanes, with no frame of its own.
	Builtin Builtin
	// PerLane, when set, runs a call of this device function one lane at a time: it and all
	// it calls compute only on their own lanes' registers and .param variables
	// (codegen/layout.LaneFuncs). The trampoline's calls of it run so (Warp.callPerLane,
	// lanescalar.go) where nothing observable differs from the SIMT stack.
	PerLane PerLaneCall
	// Run, when set, runs the code of blocks from pc on for the lanes m (a generated
	// function's block chain): after each block whose terminator is a jump, or a branch every
	// lane of m takes the same way, it goes on to the next block, unless that is stop (the
	// running SIMT entry's reconvergence point), the exit, or the warp's time slice (budget
	// blocks left, this one counted) would end there. It returns the block whose code ran
	// last, whose terminator the runtime then runs, and the budget left. Blocks are only
	// chained where the trampoline would have run them one after the other with the same
	// lanes, so execution is unchanged. RunDone instead of a block says the code has set the
	// running entry itself (Warp.Split, after running a divergent branch's lanes one by one).
	// With no budget it runs block pc's code alone: a generated block's Code calls it so,
	// and launches that collect statistics run only Code.
	Run func(w *Warp, pc int32, m uint32, stop int32, budget int) (int32, int)

	shapeOnce   sync.Once
	leavesSet   []bool
	loopHeaders []bool
}

// leaves reports whether a thread at block pc has nothing left to run but the end of the
// function: pc is the exit, or a block without instructions whose every successor leaves
// (a chain of jumps to the final ret, or an exit).
func (f *Func) leaves(pc int32) bool {
	f.shapeOnce.Do(f.findShape)
	return f.leavesSet[pc]
}

// loopHeader reports whether block pc is the target of a back edge of the CFG.
func (f *Func) loopHeader(pc int32) bool {
	f.shapeOnce.Do(f.findShape)
	return f.loopHeaders[pc]
}

// findShape computes the blocks for which leaves and loopHeader hold.
func (f *Func) findShape() {
	f.findLeaves()
	f.findLoopHeaders()
}

// successors appends the blocks that block b's terminator may go to.
func (b *Block) successors(out []int32) []int32 {
	t := &b.Term
	switch t.Kind {
	case TermJump, TermCall, TermBarrier, TermWarpSync:
		out = append(out, t.Succ)
	case TermBranch:
		out = append(out, t.Succ, t.Alt)
	case TermBrx:
		out = append(out, t.Table...)
	}
	return out
}

// findLoopHeaders marks the targets of back edges found by a depth-first walk from the entry.
func (f *Func) findLoopHeaders() {
	n := len(f.Blocks)
	f.loopHeaders = make([]bool, n+1)
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, n)
	type frame struct {
		pc   int32
		next []int32
	}
	if n == 0 {
		return
	}
	stack := []frame{{pc: 0, next: f.Blocks[0].successors(nil)}}
	state[0] = onPath
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.next) == 0 {
			state[top.pc] = done
			stack = stack[:len(stack)-1]
			continue
		}
		s := top.next[0]
		top.next = top.next[1:]
		if int(s) >= n {
			continue // the exit
		}
		switch state[s] {
		case onPath:
			f.loopHeaders[s] = true
		case unseen:
			state[s] = onPath
			stack = append(stack, frame{pc: s, next: f.Blocks[s].successors(nil)})
		}
	}
}

// findLeaves computes the blocks for which leaves holds, as a fixpoint over the CFG.
func (f *Func) findLeaves() {
	set := make([]bool, max(len(f.Blocks), int(f.Exit)+1))
	set[f.Exit] = true
	for changed := true; changed; {
		changed = false
		for i := range f.Blocks {
			b := &f.Blocks[i]
			if set[i] || len(b.Code) != 0 {
				continue
			}
			t := &b.Term
			ok := false
			switch t.Kind {
			case TermExit:
				ok = true
			case TermJump:
				ok = set[t.Succ]
			case TermBranch:
				ok = set[t.Succ] && set[t.Alt]
			}
			if ok {
				set[i], changed = true, true
			}
		}
	}
	f.leavesSet = set
}

// KernelParam is one kernel parameter as a launch API packs it.
type KernelParam struct {
	Name    string
	Type    string // the PTX type without its dot ("u64", "f32", "b8")
	Size    int    // bytes (for arrays, the whole array)
	Align   int
	Offset  int  // offset in the parameter buffer
	Array   bool // an aggregate, passed as []byte
	Pointer bool // can hold a device address
}

// Const is a register that holds the same value in every lane of every activation: an
// immediate operand or a module-constant address.
type Const struct {
	Reg   int
	Value uint64
}

// Slot says where a parameter, result or call argument lives: in a register, in a predicate or
// in the function's per-lane .param area.
type Slot struct {
	Reg int // register index, predicate index when Pred, or -1
	// Pred says Reg is a predicate, a lane mask in Warp.P. Calls pair a predicate slot only
	// with another: compilation matches them against the callee's .reg .pred parameters.
	Pred     bool
	ParamOff int // byte offset in the .param area when Reg < 0
	Size     int // bytes
}

// Block is a straight-line run of instructions and the terminator that leaves it.
type Block struct {
	Code []Instr
	Term Term
	// PTXInstrs is the number of PTX instructions the block executes (its terminator
	// included when it is one), for statistics.
	PTXInstrs int
	// Profile is the block's static statistics (stats.go); nil from a back end without them.
	Profile *BlockProfile
	// Loc is the PTX file:line of the first instruction the block issues (its terminator's
	// when it has no other), empty when it issues none; faults that say where lanes loop or
	// wait name it, else the terminator's line.
	Loc string
}

// TermKind is the kind of a block terminator.
type TermKind uint8

// The terminators.
const (
	TermJump     TermKind = iota // go to Succ (ret is a jump to Func.Exit)
	TermBranch                   // go to Succ when predicate Pred (negated if Negate) holds, else Alt
	TermBrx                      // go to Table[index register]
	TermCall                     // call Call, then continue at Succ
	TermExit                     // end the active threads
	TermTrap                     // abort the kernel
	TermBarrier                  // wait at Barrier, then continue at Succ
	TermWarpSync                 // under its, wait for the lanes WarpSync names; then Succ
	TermNone                     // the virtual exit
)

// Term ends a block. Succ, Alt, Table and Reconv are block indexes in the same function.
type Term struct {
	Kind   TermKind
	Loc    string // PTX file:line
	Succ   int32
	Alt    int32
	Pred   int  // predicate register of a branch
	Negate bool // branch taken when the predicate is false
	// Uniform says every active lane is known to go the same way: no reconvergence entry.
	Uniform bool
	// Reconv is where lanes that split here meet again (the immediate post-dominator).
	Reconv   int32
	Index    int // brx.idx index register
	Table    []int32
	Call     *CallSite
	Barrier  *Barrier
	WarpSync *WarpSync
	// Predicated says a branch's region is short and side-effect-safe (codegen/layout's
	// Predicated): each side, from Succ or Alt to Reconv, is a chain of jumps through blocks of
	// lane-local code. Where the lanes split, the warp runs each side predicated, for its
	// lanes only, instead of pushing SIMT entries (Warp.runPredicated).
	Predicated bool
}

// WarpSync is the rendezvous before a warp-level synchronization (bar.warp.sync, shfl.sync,
// vote.sync, match.sync, redux.sync, elect.sync), which starts the block Succ. Under
// independent thread scheduling, lanes reaching it wait until every live lane their
// membermasks name has reached a warp-level synchronization too.
type WarpSync struct {
	Mask     int // register holding each lane's membermask
	Guard    int // predicate register guarding the instruction, or -1
	GuardNeg bool
	What     string // the instruction, for faults
	// Joint says the instruction exchanges values between lanes, so the lanes that meet run
	// it together: paths waiting at the same place merge into one.
	Joint bool
}

// CallSite is a call terminator.
type CallSite struct {
	Direct *Func // a direct call, or
	Target int   // the register holding the callee's address for an indirect call
	// Allowed is the indirect call's target set (.calltargets or a call table); when empty,
	// any function whose signature is Proto may be called.
	Allowed []*Func
	Proto   string
	// Guard is the predicate register guarding the call, or -1; lanes where it is false
	// (true when GuardNeg) skip the call.
	Guard    int
	GuardNeg bool
	Args     []Slot // caller-side argument slots, copied to the callee's Params
	Results  []Slot // caller-side result slots, copied from the callee's Results
}

// BarrierKind is the flavour of a CTA barrier.
type BarrierKind uint8

// The barrier flavours.
const (
	BarSync    BarrierKind = iota // bar.sync, barrier.sync: arrive and wait
	BarArrive                     // bar.arrive: arrive without waiting
	BarRedPopc                    // bar.red.popc.u32: wait and count the lanes whose predicate holds
	BarRedAnd                     // bar.red.and.pred
	BarRedOr                      // bar.red.or.pred
)

// Barrier is a barrier terminator's operands.
type Barrier struct {
	Kind BarrierKind
	ID   int // register holding the barrier number, unless Fixed
	// Fixed says the instruction names the barrier number Num as an immediate (or none, 0),
	// so that a warp arriving need not read it from its register file.
	Fixed bool
	Num   uint64
	// Count is the register holding the expected thread count, or -1 for every thread of the CTA.
	Count int
	// Pred and PredNeg are bar.red's source predicate; Dst its destination register (popc) or
	// predicate (and, or).
	Pred    int
	PredNeg bool
	Dst     int
}

// number is the barrier number the warp's lane names.
func (b *Barrier) number(w *Warp, lane int) uint64 {
	if b.Fixed {
		return b.Num
	}
	return w.R[b.ID*WarpSize+lane]
}
