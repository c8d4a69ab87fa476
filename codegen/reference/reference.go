// Package reference is a deliberately simple second engine for PTX: an interpreter that runs
// every thread on its own, with its own program counter, registers, predicates, local memory
// and call stack. It has no warps, no active masks and no SIMT or call-return stacks, and it
// shares no execution code with the back ends (it may not import codegen/closure; the layering
// test enforces it). It exists to check them: a kernel whose threads do not communicate
// except through barriers must leave the same memory on both.
//
// It reads the verified SSA program, but executes at the level of PTX registers: every SSA
// value of a register is that register's current value, so phis need no code and a guarded
// instruction whose guard is false leaves the register as it was, as PTX defines. Scalar
// instruction semantics come from runtime/isa, the same definitions the back ends use; the
// dispatch on opcodes, types and modifiers is its own. Global memory is the runtime.Device's,
// read and written through its exported API.
//
// Scheduling: the CTAs of a grid run one after another; within a CTA, each live thread runs
// until it reaches a bar.sync or a warp-level instruction, or ends, in thread order; the
// warp-level instructions whose threads have all arrived run (warp.go) and those threads go
// on; when every live thread waits at a barrier, they are all released and the round repeats. Atomics are sequential, since one
// thread runs at a time. Every thread has an instruction budget; running past it is an error,
// never a hang.
//
// Coverage: the integer instruction set (arithmetic, logic, shifts, bit manipulation,
// comparisons, selection, conversions between integer types), mov, ld/ldu/st in the global,
// const, shared, local, param and generic spaces (scalars and vectors), cvta, atom/red on
// integers, the special registers that do not depend on time, bra, brx.idx, direct and indirect
// calls (with .calltargets, call tables or prototypes), ret, exit, trap, bar.sync/barrier.sync
// (id operand, no thread count), membar/fence and bar.warp.sync (no-ops for a thread alone),
// shfl.sync and vote.sync (warp.go).
// Anything else is an error: "reference: unsupported instruction X at FILE:LINE".
package reference

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// DefaultMaxSteps is the default instruction budget of one thread.
const DefaultMaxSteps = 1 << 22

// DefaultCallDepth is the default limit of nested calls.
const DefaultCallDepth = 1024

// Config describes one launch.
type Config struct {
	Grid, Block   runtime.Dim3
	DynamicShared int
	// MaxSteps is each thread's instruction budget (terminators included); 0: DefaultMaxSteps.
	MaxSteps int
	// MaxCallDepth limits nested calls; 0: DefaultCallDepth.
	MaxCallDepth int
}

// Error is a failed launch: a fault of the program, an unsupported instruction or a deadlock.
type Error struct {
	Kernel string
	Loc    string // PTX file:line, when there is one
	CTA    runtime.Dim3
	Thread runtime.Dim3
	Msg    string
}

func (e *Error) Error() string {
	s := "reference: " + e.Msg
	if e.Loc != "" {
		s += " at " + e.Loc
	}
	return s + fmt.Sprintf(" (kernel %s, CTA %s, thread %s)", e.Kernel, e.CTA, e.Thread)
}

// Launch runs kernel of prog on dev with the packed parameter bytes params (laid out as the
// kernel's .param space, as runtime.Device.Launch takes them).
func Launch(ctx context.Context, dev *runtime.Device, prog *ssa.Program, kernel string, grid, block runtime.Dim3, params []byte) error {
	return LaunchConfig(ctx, dev, prog, kernel, Config{Grid: grid, Block: block}, params)
}

// LaunchConfig runs a kernel with a full configuration.
func LaunchConfig(ctx context.Context, dev *runtime.Device, prog *ssa.Program, kernel string, cfg Config, params []byte) error {
	k := prog.Func(kernel)
	if k == nil || k.Kind != frontend.Entry || k.Decl {
		return fmt.Errorf("reference: no kernel %s", kernel)
	}
	cfg.Grid, cfg.Block = norm(cfg.Grid), norm(cfg.Block)
	if n := cfg.Block.Count(); n > runtime.MaxThreadsPerBlock {
		return fmt.Errorf("reference: block %s has %d threads, the limit is %d", cfg.Block, n, runtime.MaxThreadsPerBlock)
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.MaxCallDepth <= 0 {
		cfg.MaxCallDepth = DefaultCallDepth
	}
	l, err := newLayout(prog, dev)
	if err != nil {
		return err
	}
	dev.Acquire()
	defer dev.Release()
	kl := l.frame(k)
	if int64(len(params)) != kl.kparamSize {
		return fmt.Errorf("reference: kernel %s takes %d bytes of parameters, got %d", kernel, kl.kparamSize, len(params))
	}
	ln := &launch{ctx: ctx, dev: dev, l: l, kernel: k, cfg: cfg, params: params}
	total := cfg.Grid.Count()
	for id := range total {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ln.runCTA(at(cfg.Grid, id)); err != nil {
			return err
		}
	}
	return nil
}

func norm(d runtime.Dim3) runtime.Dim3 {
	if d.X == 0 {
		d.X = 1
	}
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

// at is the i-th point of shape d, x fastest.
func at(d runtime.Dim3, i uint64) runtime.Dim3 {
	x := i % uint64(d.X)
	i /= uint64(d.X)
	return runtime.Dim3{X: uint32(x), Y: uint32(i % uint64(d.Y)), Z: uint32(i / uint64(d.Y))}
}

// layout places the program's variables: globals on the device, shared variables in the CTA's
// shared memory, module .local variables below the first frame, and each function's .param
// and .local variables in its frame.
type layout struct {
	prog       *ssa.Program
	funcs      []*ssa.Function // by function index: the functions with a body
	index      map[*ssa.Function]int
	globals    map[*ssa.Variable]uint64
	shared     map[*ssa.Variable]int64
	sharedSize int64 // static shared memory, where the dynamic part starts
	modLocal   map[*ssa.Variable]int64
	localTop   int64
	frames     map[*ssa.Function]*frameLayout
}

type frameLayout struct {
	param      map[*ssa.Variable]int64 // per-activation .param variables
	paramSize  int64
	kparam     map[*ssa.Variable]int64 // a kernel's formal parameters in the launch's buffer
	kparamSize int64
	local      map[*ssa.Variable]int64
	localSize  int64
}

func alignUp(n int64, a int) int64 {
	if a <= 1 {
		return n
	}
	return (n + int64(a) - 1) / int64(a) * int64(a)
}

func varAlign(v *ssa.Variable) int {
	if v.Align > 0 {
		return v.Align
	}
	a := v.Type.Bytes() * max(v.Vector, 1)
	return max(a, 1)
}

func newLayout(p *ssa.Program, dev *runtime.Device) (*layout, error) {
	l := &layout{prog: p, index: map[*ssa.Function]int{}, globals: map[*ssa.Variable]uint64{},
		shared: map[*ssa.Variable]int64{}, modLocal: map[*ssa.Variable]int64{}, frames: map[*ssa.Function]*frameLayout{}}
	for _, fn := range p.Funcs {
		if !fn.Decl {
			l.index[fn] = len(l.funcs)
			l.funcs = append(l.funcs, fn)
		}
	}
	var dynamic []*ssa.Variable
	var globals []*ssa.Variable
	place := func(v *ssa.Variable) {
		switch v.Space {
		case frontend.SpaceGlobal, frontend.SpaceConst:
			globals = append(globals, v)
		case frontend.SpaceShared:
			if v.Size == 0 {
				dynamic = append(dynamic, v)
				return
			}
			l.sharedSize = alignUp(l.sharedSize, varAlign(v))
			l.shared[v] = l.sharedSize
			l.sharedSize += v.Size
		case frontend.SpaceLocal:
			if v.Func == nil {
				l.localTop = alignUp(l.localTop, varAlign(v))
				l.modLocal[v] = l.localTop
				l.localTop += v.Size
			}
		}
	}
	for _, v := range p.Globals {
		place(v)
	}
	for _, fn := range p.Funcs {
		for _, v := range fn.Vars {
			if v.Space == frontend.SpaceShared || v.Space == frontend.SpaceGlobal || v.Space == frontend.SpaceConst {
				place(v)
			}
		}
	}
	l.sharedSize = alignUp(l.sharedSize, 16)
	for _, v := range dynamic {
		l.shared[v] = l.sharedSize
	}
	l.localTop = alignUp(l.localTop, 16)
	// Globals live for this launch only: each launch allocates and initializes its own.
	for _, v := range globals {
		size := v.Size
		if size == 0 && v.Init != nil {
			size = int64(initCount(v.Init) * v.Type.Bytes() * max(v.Vector, 1))
		}
		ptr, err := dev.Malloc(int(size))
		if err != nil {
			return nil, err
		}
		l.globals[v] = uint64(ptr)
	}
	for _, v := range globals {
		if v.Init == nil {
			continue
		}
		b, err := l.initBytes(v)
		if err != nil {
			return nil, err
		}
		if err := dev.CopyIn(runtime.Ptr(l.globals[v]), b); err != nil {
			return nil, err
		}
	}
	for _, fn := range l.funcs {
		l.frames[fn] = newFrameLayout(fn)
	}
	return l, nil
}

func initCount(in frontend.Init) int {
	if list, ok := in.(*frontend.InitList); ok {
		n := 0
		for _, e := range list.Elems {
			n += initCount(e)
		}
		return n
	}
	return 1
}

// initBytes encodes a global's initializer: integers and addresses of functions and globals.
func (l *layout) initBytes(v *ssa.Variable) ([]byte, error) {
	elem := v.Type.Bytes()
	out := make([]byte, 0, initCount(v.Init)*elem)
	put := func(x uint64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], x)
		out = append(out, b[:elem]...)
	}
	var walk func(in frontend.Init) error
	walk = func(in frontend.Init) error {
		switch in := in.(type) {
		case *frontend.InitList:
			for _, e := range in.Elems {
				if err := walk(e); err != nil {
					return err
				}
			}
		case *frontend.IntLit:
			put(in.Value)
		case *frontend.SymRef:
			if fn := l.prog.Func(in.Name); fn != nil {
				if i, ok := l.index[fn]; ok {
					put(funcAddr(i) + uint64(in.Offset))
					return nil
				}
			}
			for g, addr := range l.globals {
				if g.Name == in.Name && g.Func == nil {
					put(addr + uint64(in.Offset))
					return nil
				}
			}
			return fmt.Errorf("reference: unsupported initializer of %s: address of %s at %s", v.Name, in.Name, pos(in.Pos))
		default:
			return fmt.Errorf("reference: unsupported initializer of %s at %s", v.Name, pos(in.Position()))
		}
		return nil
	}
	if err := walk(v.Init); err != nil {
		return nil, err
	}
	if int64(len(out)) < v.Size {
		out = append(out, make([]byte, v.Size-int64(len(out)))...)
	}
	return out, nil
}

// funcAddr is the address of function i, in the device address map's function window.
func funcAddr(i int) uint64 { return uint64(runtime.FuncWindow) + uint64(i)*runtime.FuncAlign }

func newFrameLayout(fn *ssa.Function) *frameLayout {
	fl := &frameLayout{param: map[*ssa.Variable]int64{}, kparam: map[*ssa.Variable]int64{}, local: map[*ssa.Variable]int64{}}
	kernel := fn.Kind == frontend.Entry
	formal := map[*ssa.Variable]bool{}
	if kernel {
		for _, p := range fn.Params {
			if p.Var != nil {
				formal[p.Var] = true
				fl.kparamSize = alignUp(fl.kparamSize, varAlign(p.Var))
				fl.kparam[p.Var] = fl.kparamSize
				fl.kparamSize += p.Var.Size
			}
		}
	}
	addParam := func(v *ssa.Variable) {
		if _, ok := fl.param[v]; ok || formal[v] {
			return
		}
		fl.paramSize = alignUp(fl.paramSize, varAlign(v))
		fl.param[v] = fl.paramSize
		fl.paramSize += v.Size
	}
	for _, v := range fn.Vars {
		switch v.Space {
		case frontend.SpaceParam:
			addParam(v)
		case frontend.SpaceLocal:
			fl.localSize = alignUp(fl.localSize, varAlign(v))
			fl.local[v] = fl.localSize
			fl.localSize += v.Size
		}
	}
	for _, ps := range [][]*ssa.Param{fn.Params, fn.Results} {
		for _, p := range ps {
			if p.Var != nil {
				addParam(p.Var)
			}
		}
	}
	fl.localSize = alignUp(fl.localSize, 16)
	return fl
}

func (l *layout) frame(fn *ssa.Function) *frameLayout { return l.frames[fn] }

func pos(p frontend.Pos) string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// launch is one running launch.
type launch struct {
	ctx    context.Context
	dev    *runtime.Device
	l      *layout
	kernel *ssa.Function
	cfg    Config
	params []byte
}

// cta is one CTA's shared state.
type cta struct {
	ln     *launch
	id     runtime.Dim3
	shared []byte
}

// thread is one thread: its frames (innermost last), local memory and budget.
type thread struct {
	c       *cta
	tid     runtime.Dim3
	linear  int
	frames  []*frame
	local   []byte
	steps   int
	done    bool
	waiting bool   // at a barrier or a warp-level instruction
	barrier uint64 // the barrier it waits at
	barLoc  string
	sync    *warpSync // the warp-level instruction it waits at, nil at a barrier
}

// frame is one activation of a function.
type frame struct {
	fn        *ssa.Function
	fl        *frameLayout
	regs      []uint64 // by ssa.Reg.ID; a predicate is 0 or 1
	param     []byte
	localBase int64
	block     *ssa.Block
	pc        int       // index of the next instruction of block; len(Instrs) is the terminator
	call      *ssa.Call // in the caller: the call this frame returns to (nil for the kernel)
	cf        uint64    // the carry flag CC.CF
}

func (ln *launch) newFrame(fn *ssa.Function, localBase int64) *frame {
	fl := ln.l.frame(fn)
	return &frame{fn: fn, fl: fl, regs: make([]uint64, len(fn.Regs)), param: make([]byte, fl.paramSize),
		localBase: localBase, block: fn.Blocks[0]}
}

// runCTA runs one CTA to completion, barrier round by barrier round.
func (ln *launch) runCTA(id runtime.Dim3) error {
	c := &cta{ln: ln, id: id, shared: make([]byte, ln.l.sharedSize+int64(ln.cfg.DynamicShared))}
	n := int(ln.cfg.Block.Count())
	threads := make([]*thread, n)
	for i := range threads {
		t := &thread{c: c, tid: at(ln.cfg.Block, uint64(i)), linear: i}
		f := ln.newFrame(ln.kernel, ln.l.localTop)
		t.frames = []*frame{f}
		t.local = make([]byte, ln.l.localTop+f.fl.localSize)
		threads[i] = t
	}
	for {
		for _, t := range threads {
			if t.done || t.waiting {
				continue
			}
			if err := t.run(); err != nil {
				return err
			}
		}
		ran := false
		for w := 0; w < n; w += 32 {
			r, err := runWarpSyncs(threads[w:min(w+32, n)])
			if err != nil {
				return err
			}
			ran = ran || r
		}
		if ran {
			continue
		}
		var first *thread
		for _, t := range threads {
			if t.done {
				continue
			}
			if t.sync != nil {
				return t.syncDeadlock()
			}
			if first == nil {
				first = t
				continue
			}
			if t.barrier != first.barrier {
				return t.errorf(t.barLoc, "barrier deadlock: thread %s waits at barrier %d, thread %s at barrier %d", first.tid, first.barrier, t.tid, t.barrier)
			}
		}
		if first == nil {
			return nil
		}
		for _, t := range threads {
			t.waiting = false
		}
	}
}

func (t *thread) errorf(loc string, format string, args ...any) error {
	return &Error{Kernel: t.c.ln.kernel.Name, Loc: loc, CTA: t.c.id, Thread: t.tid, Msg: fmt.Sprintf(format, args...)}
}

// run executes the thread until it waits at a barrier, ends, or fails.
func (t *thread) run() error {
	for !t.done && !t.waiting {
		f := t.frames[len(t.frames)-1]
		b := f.block
		t.steps++
		if t.steps > t.c.ln.cfg.MaxSteps {
			return t.errorf("", "thread ran past its budget of %d instructions", t.c.ln.cfg.MaxSteps)
		}
		if t.steps&0xfff == 0 {
			if err := t.c.ln.ctx.Err(); err != nil {
				return err
			}
		}
		if f.pc < len(b.Instrs) {
			in := b.Instrs[f.pc]
			f.pc++
			if err := t.exec(f, in); err != nil {
				return err
			}
			continue
		}
		if err := t.terminator(f, b); err != nil {
			return err
		}
	}
	return nil
}

// jump continues frame f at block b.
func (f *frame) jump(b *ssa.Block) { f.block, f.pc = b, 0 }

func (t *thread) terminator(f *frame, b *ssa.Block) error {
	term := &b.Term
	loc := pos(term.Pos)
	switch term.Kind {
	case ssa.TermJump:
		f.jump(b.Succs[0])
	case ssa.TermBranch:
		c := f.regs[term.Cond.Reg.ID] != 0
		if term.Negate {
			c = !c
		}
		if c {
			f.jump(b.Succs[0])
		} else {
			f.jump(b.Succs[1])
		}
	case ssa.TermBrx:
		i := uint32(f.regs[term.Index.Reg.ID])
		if int(i) >= len(term.Table) {
			return t.errorf(loc, "brx.idx index %d out of range (%d targets)", i, len(term.Table))
		}
		f.jump(term.Table[i])
	case ssa.TermCall:
		return t.call(f, b, term.Call, loc)
	case ssa.TermRet:
		return t.ret(f)
	case ssa.TermExit:
		t.done = true
	case ssa.TermTrap:
		return t.errorf(loc, "trap")
	default:
		return t.errorf(loc, "unsupported terminator")
	}
	return nil
}

// ret returns from the innermost frame; a kernel's ret ends the thread.
func (t *thread) ret(f *frame) error {
	if len(t.frames) == 1 {
		t.done = true
		return nil
	}
	caller := t.frames[len(t.frames)-2]
	callee := f
	slots := paramSlots(callee.fn.Results)
	dsts := flatten(callee.call.Results)
	if len(slots) != len(dsts) {
		return t.errorf(pos(callee.fn.Pos), "call of %s: %d results for %d return parameters", callee.fn.Name, len(dsts), len(slots))
	}
	for i, s := range slots {
		if err := t.copyOut(caller, dsts[i], callee, s); err != nil {
			return err
		}
	}
	t.frames = t.frames[:len(t.frames)-1]
	t.local = t.local[:callee.localBase]
	return nil
}

// slot is one formal parameter or result: a .param variable or one register.
type slot struct {
	v *ssa.Variable
	r *ssa.Reg
}

func paramSlots(ps []*ssa.Param) []slot {
	var out []slot
	for _, p := range ps {
		if p.Var != nil {
			out = append(out, slot{v: p.Var})
			continue
		}
		for _, r := range p.Regs {
			out = append(out, slot{r: r})
		}
	}
	return out
}

func flatten(args []ssa.Arg) []ssa.Arg {
	var out []ssa.Arg
	for _, a := range args {
		if a.Kind == ssa.ArgVector {
			out = append(out, a.Elems...)
		} else {
			out = append(out, a)
		}
	}
	return out
}

// paramVarBytes returns the bytes of .param variable v (plus off) in frame f: its own copy, or
// the launch's buffer for a kernel's formal parameter.
func (t *thread) paramVarBytes(f *frame, v *ssa.Variable, off int64) ([]byte, bool) {
	if o, ok := f.fl.param[v]; ok && off <= v.Size {
		return f.param[o+off : o+v.Size], true
	}
	if o, ok := f.fl.kparam[v]; ok && off <= v.Size {
		return t.c.ln.params[o+off : o+v.Size], true
	}
	return nil, false
}

// call runs a call terminator: a guard, the callee (direct or resolved per thread), the
// arguments copied into the callee's fresh frame.
func (t *thread) call(f *frame, b *ssa.Block, call *ssa.Call, loc string) error {
	f.jump(b.Succs[0])
	if call.Guard != nil {
		g := f.regs[call.Guard.Reg.ID] != 0
		if g == call.GuardNeg {
			return nil
		}
	}
	callee := call.Direct
	if callee == nil {
		addr := f.regs[call.Target.Reg.ID]
		if call.Target.Reg.Type.Bits() == 32 {
			addr = uint64(uint32(addr))
		}
		off := addr - uint64(runtime.FuncWindow)
		l := t.c.ln.l
		if addr < uint64(runtime.FuncWindow) || off%runtime.FuncAlign != 0 || off/runtime.FuncAlign >= uint64(len(l.funcs)) {
			return t.errorf(loc, "illegal call target %#x: not a function address", addr)
		}
		callee = l.funcs[off/runtime.FuncAlign]
		if callee.Kind == frontend.Entry {
			return t.errorf(loc, "illegal call target %#x: %s is a kernel", addr, callee.Name)
		}
		if len(call.Targets) > 0 {
			found := false
			for _, c := range call.Targets {
				found = found || c == callee
			}
			if !found {
				return t.errorf(loc, "illegal call target %#x: %s is not in the call site's target list", addr, callee.Name)
			}
		}
		if call.Proto != nil && sigShape(*call.Proto) != sigShape(callee.Sig) {
			return t.errorf(loc, "illegal call target %#x: %s does not match the prototype", addr, callee.Name)
		}
	}
	if callee.Decl {
		return t.errorf(loc, "unsupported: call to %s, which has no body", callee.Name)
	}
	if len(t.frames) >= t.c.ln.cfg.MaxCallDepth {
		return t.errorf(loc, "stack overflow: call to %s at depth %d", callee.Name, len(t.frames))
	}
	nf := t.c.ln.newFrame(callee, int64(len(t.local)))
	if int64(len(t.local))+nf.fl.localSize > runtime.MaxLocalBytes {
		return t.errorf(loc, "stack overflow: call to %s needs more than %d bytes of local memory", callee.Name, runtime.MaxLocalBytes)
	}
	t.local = append(t.local, make([]byte, nf.fl.localSize)...)
	nf.call = call
	slots := paramSlots(callee.Params)
	args := flatten(call.Args)
	if len(slots) != len(args) {
		return t.errorf(loc, "call of %s with %d arguments for %d parameters", callee.Name, len(args), len(slots))
	}
	for i, s := range slots {
		if err := t.copyIn(nf, s, f, args[i]); err != nil {
			return err
		}
	}
	t.frames = append(t.frames, nf)
	return nil
}

func sigShape(s ssa.Signature) string {
	out := "("
	for _, p := range s.Results {
		out += p.Shape() + ","
	}
	out += ")("
	for _, p := range s.Params {
		out += p.Shape() + ","
	}
	return out + ")"
}

// copyIn copies caller argument a (of frame from) into the callee's slot s (of frame to).
func (t *thread) copyIn(to *frame, s slot, from *frame, a ssa.Arg) error {
	var v uint64
	switch a.Kind {
	case ssa.ArgValue:
		v = from.regs[a.Value.Reg.ID]
	case ssa.ArgImm:
		v = a.Imm
	case ssa.ArgSym:
		src, ok := t.paramVarBytes(from, a.Var, a.Offset)
		if !ok {
			return t.errorf(pos(a.Pos), "unsupported call argument")
		}
		if s.v != nil {
			dst, _ := t.paramVarBytes(to, s.v, 0)
			copy(dst, src)
			return nil
		}
		v = readLE(src[:min(len(src), 8)])
	default:
		return t.errorf(pos(a.Pos), "unsupported call argument")
	}
	if s.r != nil {
		to.regs[s.r.ID] = v
		return nil
	}
	dst, _ := t.paramVarBytes(to, s.v, 0)
	writeLE(dst[:min(len(dst), 8)], v)
	return nil
}

// copyOut copies the callee's result slot s (of frame from) to the caller's result operand a
// (of frame to).
func (t *thread) copyOut(to *frame, a ssa.Arg, from *frame, s slot) error {
	var v uint64
	var src []byte
	if s.r != nil {
		v = from.regs[s.r.ID]
	} else {
		src, _ = t.paramVarBytes(from, s.v, 0)
		v = readLE(src[:min(len(src), 8)])
	}
	switch a.Kind {
	case ssa.ArgValue:
		to.regs[a.Value.Reg.ID] = v
	case ssa.ArgSym:
		dst, ok := t.paramVarBytes(to, a.Var, a.Offset)
		if !ok {
			return t.errorf(pos(a.Pos), "unsupported call result")
		}
		if src != nil {
			copy(dst, src)
		} else {
			writeLE(dst[:min(len(dst), 8)], v)
		}
	case ssa.ArgSink:
	default:
		return t.errorf(pos(a.Pos), "unsupported call result")
	}
	return nil
}

func readLE(b []byte) uint64 {
	var buf [8]byte
	copy(buf[:], b)
	return binary.LittleEndian.Uint64(buf[:])
}

func writeLE(b []byte, v uint64) {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], v)
	copy(b, buf[:])
}
