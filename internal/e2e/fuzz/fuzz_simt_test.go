package fuzz_test

// Differential testing of the SIMT machine against the reference engine (codegen/reference),
// which runs every thread on its own. A generator writes random PTX kernels whose threads do
// not communicate except through barriers (and commutative reductions read after one) and
// warp-level instructions over known lanes, so every thread's results are defined whatever the
// schedule; the closure back end (with one worker, with and without statistics, and with the
// default) and the reference engine must leave identical memory, and so must the Go source back
// end for the first simtGoPrograms programs, which are committed, with the closure engine's
// statistics.
//
// Barriers: barrier 0 only, which opens when every live thread has arrived, so that a phase
// counter orders what threads publish in shared memory (barrierStep). The kernel's segments end
// in bar.sync in uniform control flow; loops hold a barrier in each iteration (syncLoop), with
// CTA-uniform trip counts (any bar.sync form), or trip counts that differ per warp or per
// thread (barrier.sync, which may run in divergent code, and padding to the same count). In
// code that leads to a barrier, lanes may end (exit or ret) after code of their own in a
// divergent region, which needs independent thread scheduling (the programs target sm_80), or
// as a guarded exit or ret at the top level of the kernel. After the last barrier, and in
// functions (which never hold barriers), exit and ret may appear anywhere.
//
// Calls: direct, indirect and recursive (with a bounded depth), guarded or in divergent code
// (inside ifs, loops and brx.idx on lane-dependent values). Pure functions (simtPureFn) are
// lane-independent, which engines may run one lane at a time; warp functions (simtWarpFn)
// exchange values between their calling lanes with shfl.sync and vote.sync, called from a
// divergent branch with the branch's ballot as their membermask (warpCall).
//
//	go test -run '^$' -fuzz=FuzzSIMT -fuzztime=10m .

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go"
	"github.com/ptx2go/ptx2go/codegen/reference"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/internal/e2e/gocorpus"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Per-thread buffer sizes, in u32 words.
const (
	simtOutWords  = 32 // out: stores at slots 0..23, the final state at 24..31
	simtInWords   = 8
	simtScrWords  = 8 // functions' scratch slots
	simtAccWords  = 4 // global accumulators (commutative reductions from every thread)
	simtNumState  = 6
	simtNumWide   = 2
	simtLocalSize = 64
)

// simtProgram is one generated kernel and its launch.
type simtProgram struct {
	src         string
	grid, block uint32
}

type simtGen struct {
	r      *rand.Rand
	block  uint32
	nfuncs int
	// recursive[i] says function i may call itself (its b parameter bounds the depth).
	recursive []bool
	// cost[i] estimates the instructions one call of function i runs at most.
	cost  []int
	kind  []simtKind
	label int
	// deadlockSeg is the kernel's segment that ends in barrierStep's invalid form, or -1.
	deadlockSeg int
}

// simtKind is what a generated function does, which decides how it is declared and called.
type simtKind int

const (
	// simtParamFn takes .param arguments and the thread's scratch pointer: memory, atomics,
	// calls of every kind but simtWarpFn, recursion.
	simtParamFn simtKind = iota
	// simtRegFn takes and returns .reg parameters: registers and local memory, no calls.
	simtRegFn
	// simtPureFn takes .param arguments and no pointer: registers only, direct calls of other
	// pure functions, recursion. Its lanes cannot observe each other: a lane-independent
	// function, which an engine may run one lane at a time.
	simtPureFn
	// simtWarpFn is a simtParamFn that also takes its callers' lanes as a membermask and
	// starts with shfl.sync and vote.sync over them: lanes exchange values, so it is not
	// lane-independent. Only the kernel calls it, from a divergent branch at a point where
	// the warp is converged (warpCall).
	simtWarpFn
)

// simtLine is one line of a function body, or a label, or a forward branch whose target is
// chosen once the whole body is known.
type simtLine struct {
	text   string
	label  string // a label definition
	jump   string // a predicate guard of a forward branch to be resolved ("" = unconditional)
	isJump bool
	uni    bool  // bra.uni
	loops  []int // the loops around the line
	region int   // jumps stay within a region: regions end at barriers and early kernel exits
}

// simtFn generates one function body.
type simtFn struct {
	g      *simtGen
	index  int // function index, -1 for the kernel
	lines  []simtLine
	loops  []int
	nloops int
	region int
	// final says exits may appear anywhere: a function, or the kernel after its last barrier.
	final  bool
	kernel bool
	pred   int
	depth  int
	cost   int // estimated instructions so far, loops multiplied out
	mult   int // the product of the trip counts of the enclosing loops
	limit  int
	// noMem says the function has no scratch pointer (a .reg-parameter or pure function): it
	// does not touch global memory; pure says it may still call pure functions.
	noMem bool
	pure  bool
}

func (g *simtGen) newLabel(prefix string) string {
	g.label++
	return fmt.Sprintf("%s%d", prefix, g.label)
}

func (f *simtFn) emit(format string, args ...any) {
	f.lines = append(f.lines, simtLine{text: "\t" + fmt.Sprintf(format, args...), loops: slices.Clone(f.loops), region: f.region})
	f.cost += f.mult
}

func (f *simtFn) emitLabel(l string) {
	f.lines = append(f.lines, simtLine{label: l, loops: slices.Clone(f.loops), region: f.region})
}

func (f *simtFn) emitJump(guard string) {
	f.lines = append(f.lines, simtLine{jump: guard, isJump: true, loops: slices.Clone(f.loops), region: f.region})
	f.cost += f.mult
}

// endRegion closes the current jump region with a label every pending jump may reach.
func (f *simtFn) endRegion() {
	f.emitLabel(f.g.newLabel("$R"))
	f.region++
}

// resolve gives every forward jump a target: a later label of its region outside any loop
// the jump is not in.
func (f *simtFn) resolve() []string {
	var out []string
	for i, l := range f.lines {
		switch {
		case l.label != "":
			out = append(out, l.label+":")
		case l.isJump:
			var cands []string
			for _, m := range f.lines[i+1:] {
				if m.label != "" && m.region == l.region && len(m.loops) <= len(l.loops) && slices.Equal(m.loops, l.loops[:len(m.loops)]) {
					cands = append(cands, m.label)
				}
			}
			if len(cands) == 0 {
				panic("simt generator: a jump with no target")
			}
			t := cands[f.g.r.IntN(len(cands))]
			uni := ""
			if l.uni {
				uni = ".uni"
			}
			out = append(out, fmt.Sprintf("\t%sbra%s %s;", l.jump, uni, t))
		default:
			out = append(out, l.text)
		}
	}
	return out
}

func (f *simtFn) state() string { return fmt.Sprintf("%%s%d", f.g.r.IntN(simtNumState)) }
func (f *simtFn) wide() string  { return fmt.Sprintf("%%w%d", f.g.r.IntN(simtNumWide)) }

// operand is a state register or, sometimes, an immediate.
func (f *simtFn) operand() string {
	r := f.g.r
	switch r.IntN(6) {
	case 0:
		return fmt.Sprint(r.IntN(64))
	case 1:
		return fmt.Sprint([]uint32{0, 1, 31, 32, 0x7fffffff, 0x80000000, 0xffffffff, 0xff00ff}[r.IntN(8)])
	}
	return f.state()
}

func (f *simtFn) newPred() string {
	f.pred = (f.pred + 1) % 16
	return fmt.Sprintf("%%p%d", f.pred)
}

// lanePred computes a lane-dependent predicate.
func (f *simtFn) lanePred() string {
	r := f.g.r
	p := f.newPred()
	cmps := []string{"eq", "ne", "lt", "le", "gt", "ge"}
	switch r.IntN(4) {
	case 0:
		f.emit("mov.u32 %%t7, %%laneid;")
		f.emit("setp.%s.u32 %s, %%t7, %d;", cmps[r.IntN(6)], p, r.IntN(34))
	case 1:
		f.emit("and.b32 %%t7, %s, %d;", f.state(), 1<<r.IntN(5))
		f.emit("setp.%s.u32 %s, %%t7, 0;", cmps[r.IntN(2)], p)
	case 2:
		t := []string{"u32", "s32"}[r.IntN(2)]
		f.emit("setp.%s.%s %s, %s, %s;", cmps[r.IntN(6)], t, p, f.state(), f.operand())
	default:
		f.emit("mov.u32 %%t7, %%tid.x;")
		f.emit("rem.u32 %%t7, %%t7, %d;", 2+r.IntN(5))
		f.emit("setp.%s.u32 %s, %%t7, %d;", cmps[r.IntN(6)], p, r.IntN(3))
	}
	return p
}

// arith emits one random integer instruction (or a short sequence) that updates the state.
func (f *simtFn) arith() {
	r := f.g.r
	D, A, B, C := f.state(), f.operand(), f.operand(), f.operand()
	Ar, Br := f.state(), f.state()
	W, WA := f.wide(), f.wide()
	cmps := []string{"eq", "ne", "lt", "le", "gt", "ge"}
	ucmps := []string{"lo", "ls", "hi", "hs"}
	switch r.IntN(48) {
	case 0:
		f.emit("add.u32 %s, %s, %s;", D, A, B)
	case 1:
		f.emit("sub.u32 %s, %s, %s;", D, A, B)
	case 2:
		f.emit("%s.sat.s32 %s, %s, %s;", []string{"add", "sub"}[r.IntN(2)], D, A, B)
	case 3:
		f.emit("mul.lo.u32 %s, %s, %s;", D, A, B)
	case 4:
		f.emit("mul.hi.%s %s, %s, %s;", []string{"u32", "s32"}[r.IntN(2)], D, A, B)
	case 5:
		f.emit("mad.%s.%s %s, %s, %s, %s;", []string{"lo", "hi"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B, C)
	case 6:
		f.emit("mad.hi.sat.s32 %s, %s, %s, %s;", D, A, B, C)
	case 7:
		f.emit("%s.%s.%s %s, %s, %s;", []string{"mul24", "mul24"}[r.IntN(2)], []string{"lo", "hi"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B)
		if r.IntN(2) == 0 {
			f.emit("mad24.%s.%s %s, %s, %s, %s;", []string{"lo", "hi"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B, C)
		} else {
			f.emit("mad24.hi.sat.s32 %s, %s, %s, %s;", D, A, B, C)
		}
	case 8:
		f.emit("sad.%s %s, %s, %s, %s;", []string{"u32", "s32"}[r.IntN(2)], D, A, B, C)
	case 9:
		f.emit("%s.%s %s, %s, %s;", []string{"div", "rem"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B)
	case 10:
		f.emit("%s.%s %s, %s, %s;", []string{"min", "max"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B)
	case 11:
		f.emit("%s.relu.s32 %s, %s, %s;", []string{"min", "max"}[r.IntN(2)], D, A, B)
	case 12:
		f.emit("%s.s32 %s, %s;", []string{"abs", "neg"}[r.IntN(2)], D, Ar)
	case 13:
		f.emit("%s.b32 %s, %s, %s;", []string{"and", "or", "xor"}[r.IntN(3)], D, A, B)
	case 14:
		f.emit("%s.b32 %s, %s;", []string{"not", "cnot"}[r.IntN(2)], D, Ar)
	case 15:
		f.emit("%s %s, %s, %s;", []string{"shl.b32", "shr.u32", "shr.s32", "shr.b32"}[r.IntN(4)], D, Ar, []string{fmt.Sprint(r.IntN(40)), Br}[r.IntN(2)])
	case 16:
		f.emit("%s %s, %s;", []string{"popc.b32", "clz.b32", "brev.b32", "bfind.u32", "bfind.s32", "bfind.shiftamt.u32", "bfind.shiftamt.s32"}[r.IntN(7)], D, Ar)
	case 17:
		f.emit("bfe.%s %s, %s, %s, %s;", []string{"u32", "s32"}[r.IntN(2)], D, Ar, []string{fmt.Sprint(r.IntN(34)), Br}[r.IntN(2)], []string{fmt.Sprint(r.IntN(34)), f.state()}[r.IntN(2)])
	case 18:
		f.emit("bfi.b32 %s, %s, %s, %s, %s;", D, A, B, []string{fmt.Sprint(r.IntN(34)), f.state()}[r.IntN(2)], []string{fmt.Sprint(r.IntN(34)), f.state()}[r.IntN(2)])
	case 19:
		f.emit("prmt.b32%s %s, %s, %s, %s;", []string{"", "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"}[r.IntN(8)], D, A, B, C)
	case 20:
		f.emit("lop3.b32 %s, %s, %s, %s, %d;", D, A, B, C, r.IntN(256))
	case 21:
		f.emit("shf.%s.%s.b32 %s, %s, %s, %s;", []string{"l", "r"}[r.IntN(2)], []string{"wrap", "clamp"}[r.IntN(2)], D, A, B, C)
	case 22:
		f.emit("szext.%s.%s %s, %s, %s;", []string{"wrap", "clamp"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], D, A, B)
	case 23:
		f.emit("bmsk.%s.b32 %s, %s, %s;", []string{"wrap", "clamp"}[r.IntN(2)], D, A, B)
	case 24:
		f.emit("fns.b32 %s, %s, %s, %s;", D, A, B, []string{"0", "1", "-1", "3", "-5", fmt.Sprint(r.IntN(40))}[r.IntN(6)])
	case 25:
		ts := []string{"u32", "s32"}
		if r.IntN(2) == 0 {
			f.emit("dp4a.%s.%s %s, %s, %s, %s;", ts[r.IntN(2)], ts[r.IntN(2)], D, A, B, C)
		} else {
			f.emit("dp2a.%s.%s.%s %s, %s, %s, %s;", []string{"lo", "hi"}[r.IntN(2)], ts[r.IntN(2)], ts[r.IntN(2)], D, A, B, C)
		}
	case 26:
		p := f.newPred()
		switch r.IntN(3) {
		case 0:
			f.emit("setp.%s.%s %s, %s, %s;", cmps[r.IntN(6)], []string{"u32", "s32"}[r.IntN(2)], p, Ar, B)
		case 1:
			f.emit("setp.%s.b32 %s, %s, %s;", cmps[r.IntN(2)], p, Ar, B)
		default:
			f.emit("setp.%s.u32 %s, %s, %s;", ucmps[r.IntN(4)], p, Ar, B)
		}
		f.emit("selp.b32 %s, %s, %s, %s;", D, A, C, p)
	case 27:
		p, q := f.newPred(), f.newPred()
		f.emit("setp.%s.s32 %s, %s, %s;", cmps[r.IntN(6)], q, Ar, B)
		f.emit("setp.%s.%s.u32 %s|%%p%d, %s, %s, %s%s;", cmps[r.IntN(6)], []string{"and", "or", "xor"}[r.IntN(3)], p, (f.pred+1)%16, Br, C, []string{"", "!"}[r.IntN(2)], q)
		f.pred = (f.pred + 1) % 16
		f.emit("selp.b32 %s, %s, %s, %%p%d;", D, A, B, f.pred)
		f.emit("selp.b32 %s, %s, %s, %s;", f.state(), A, C, p)
	case 28:
		f.emit("set.%s.u32.%s %s, %s, %s;", cmps[r.IntN(6)], []string{"u32", "s32"}[r.IntN(2)], D, A, B)
	case 29:
		f.emit("slct.%s.s32 %s, %s, %s, %s;", []string{"u32", "s32", "b32"}[r.IntN(3)], D, A, B, Ar)
	case 30:
		// A 64-bit addition in two halves through the carry flag.
		op := []string{"add", "sub"}[r.IntN(2)]
		f.emit("%s.cc.u32 %%t0, %s, %s;", op, Ar, B)
		f.emit("%sc.cc.u32 %%t1, %s, %s;", op, Br, C)
		f.emit("%sc.u32 %s, %s, %s;", op, D, A, f.state())
		f.emit("xor.b32 %s, %%t0, %%t1;", f.state())
	case 31:
		f.emit("mad.lo.cc.u32 %%t0, %s, %s, %s;", A, B, C)
		f.emit("madc.hi.u32 %s, %s, %s, %s;", D, Ar, Br, f.operand())
		f.emit("add.u32 %s, %s, %%t0;", f.state(), D)
	case 32:
		// Narrow conversions through 16-bit registers.
		nt := []string{"u8", "s8", "u16", "s16"}[r.IntN(4)]
		sat := []string{"", ".sat"}[r.IntN(2)]
		f.emit("cvt%s.%s.%s %%h0, %s;", sat, nt, []string{"u32", "s32"}[r.IntN(2)], Ar)
		f.emit("cvt.%s.%s %s, %%h0;", []string{"u32", "s32"}[r.IntN(2)], nt, D)
	case 33:
		f.emit("cvt.u16.u32 %%h1, %s;", Ar)
		f.emit("cvt.u16.u32 %%h2, %s;", Br)
		switch r.IntN(5) {
		case 0:
			f.emit("mul.wide.%s %s, %%h1, %%h2;", []string{"u16", "s16"}[r.IntN(2)], D)
		case 1:
			f.emit("%s.%s %%h3, %%h1, %%h2;", []string{"add", "sub", "mul.lo", "min", "max"}[r.IntN(5)], []string{"u16", "s16"}[r.IntN(2)])
			f.emit("cvt.u32.u16 %s, %%h3;", D)
		case 2:
			f.emit("shr.s16 %%h3, %%h1, %d;", r.IntN(18))
			f.emit("cvt.s32.s16 %s, %%h3;", D)
		case 3:
			f.emit("mov.u16 %%h3, %s;", []string{"%tid.x", "%laneid", "%ntid.x"}[r.IntN(3)])
			f.emit("cvt.u32.u16 %s, %%h3;", D)
		default:
			f.emit("mov.b32 %s, {%%h1, %%h2};", D)
		}
	case 34:
		f.emit("cvt.%s.%s %s, %s;", []string{"u64", "s64"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], W, Ar)
	case 35:
		f.emit("cvt%s.%s.%s %s, %s;", []string{"", ".sat"}[r.IntN(2)], []string{"u32", "s32"}[r.IntN(2)], []string{"u64", "s64"}[r.IntN(2)], D, WA)
	case 36:
		f.emit("mul.wide.%s %s, %s, %s;", []string{"u32", "s32"}[r.IntN(2)], W, A, B)
	case 37:
		f.emit("mad.wide.%s %s, %s, %s, %s;", []string{"u32", "s32"}[r.IntN(2)], W, A, B, WA)
	case 38:
		f.emit("%s.%s %s, %s, %s;", []string{"add", "sub", "mul.lo", "mul.hi", "min", "max", "div", "rem"}[r.IntN(8)], []string{"u64", "s64"}[r.IntN(2)], W, WA, f.wide())
	case 39:
		f.emit("%s %s, %s, %s;", []string{"shl.b64", "shr.u64", "shr.s64"}[r.IntN(3)], W, WA, []string{fmt.Sprint(r.IntN(70)), Ar}[r.IntN(2)])
	case 40:
		f.emit("%s %s, %s;", []string{"popc.b64", "clz.b64", "bfind.u64", "bfind.s64"}[r.IntN(4)], D, WA)
	case 41:
		f.emit("%s.b64 %s, %s, %s;", []string{"and", "or", "xor"}[r.IntN(3)], W, WA, f.wide())
		f.emit("brev.b64 %s, %s;", f.wide(), W)
	case 42:
		f.emit("bfe.%s %s, %s, %s, %s;", []string{"u64", "s64"}[r.IntN(2)], W, WA, B, C)
	case 43:
		f.emit("mov.b64 {%s, %s}, %s;", D, f.state(), WA)
	case 44:
		f.emit("mov.b64 %s, {%s, %s};", W, Ar, Br)
	case 45:
		f.emit("mov.u32 %s, %s;", D, []string{"%laneid", "%warpid", "%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x", "%lanemask_lt", "%nwarpid"}[r.IntN(8)])
	case 46:
		p, q := f.newPred(), f.newPred()
		f.emit("setp.%s.u32 %s, %s, %s;", cmps[r.IntN(6)], p, Ar, B)
		f.emit("setp.%s.s32 %s, %s, %s;", cmps[r.IntN(6)], q, Br, C)
		f.emit("%s.pred %s, %s, %s;", []string{"and", "or", "xor"}[r.IntN(3)], p, p, q)
		f.emit("not.pred %s, %s;", q, p)
		f.emit("@%s add.u32 %s, %s, %s;", q, D, A, B)
		f.emit("@!%s xor.b32 %s, %s, %s;", q, f.state(), A, C)
	default:
		f.emit("mov.u32 %s, %s;", D, A)
	}
}

// trace folds a block identity into a state register, so that every path leaves its mark.
func (f *simtFn) trace() {
	f.emit("mad.lo.u32 %s, %s, 31, %d;", f.state(), f.state(), f.g.r.IntN(1000))
}

// memory emits a load or store of per-thread data: out slots, function scratch slots, the
// thread's own shared slots, local memory (directly and through generic addresses).
func (f *simtFn) memory() {
	r := f.g.r
	if f.noMem {
		f.arith()
		return
	}
	switch r.IntN(9) {
	case 7:
		// Sub-word accesses: narrow stores, loads sign- or zero-extended into 32-bit registers.
		base, words := "%a1", 24
		if !f.kernel {
			base, words = "%a3", simtScrWords
		}
		t := []string{"u8", "s8", "u16", "s16", "b8", "b16"}[r.IntN(6)]
		size := 1
		if strings.HasSuffix(t, "16") {
			size = 2
		}
		off := size * r.IntN(4*words/size)
		if r.IntN(2) == 0 {
			f.emit("st.global.%s [%s+%d], %s;", t, base, off, f.state())
		} else {
			f.emit("ld.global.%s %s, [%s+%d];", t, f.state(), base, off)
		}
		return
	case 8:
		if f.kernel {
			if r.IntN(2) == 0 {
				f.emit("st.shared.v4.u32 [%%a5], {%s, %s, %s, %s};", f.state(), f.state(), f.operand(), f.state())
			} else {
				f.emit("ld.shared.v2.u32 {%s, %s}, [%%a5+%d];", f.state(), f.state(), 8*r.IntN(2))
			}
		} else {
			f.emit("atom.global.cas.b64 %s, [%%a3+16], %s, %s;", f.wide(), f.wide(), f.wide())
		}
		return
	case 0:
		if f.kernel {
			f.emit("st.global.u32 [%%a1+%d], %s;", 4*r.IntN(24), f.state())
		} else {
			f.emit("st.global.u32 [%%a3+%d], %s;", 4*r.IntN(simtScrWords), f.state())
		}
	case 1:
		if f.kernel {
			f.emit("ld.global.u32 %s, [%%a1+%d];", f.state(), 4*r.IntN(24))
		} else {
			f.emit("ld.global.u32 %s, [%%a3+%d];", f.state(), 4*r.IntN(simtScrWords))
		}
	case 2:
		k := 4 * r.IntN(simtLocalSize/4)
		if r.IntN(2) == 0 {
			f.emit("st.local.u32 [lbuf+%d], %s;", k, f.state())
		} else {
			f.emit("ld.local.u32 %s, [lbuf+%d];", f.state(), k)
		}
	case 3:
		// A computed local address, used directly or as a generic address.
		f.emit("and.b32 %%t2, %s, %d;", f.state(), simtLocalSize/8-1)
		f.emit("mul.wide.u32 %%b0, %%t2, 8;")
		f.emit("mov.u64 %%b1, lbuf;")
		f.emit("add.u64 %%b1, %%b1, %%b0;")
		if r.IntN(2) == 0 {
			f.emit("cvta.local.u64 %%b1, %%b1;")
			if r.IntN(2) == 0 {
				f.emit("st.v2.u32 [%%b1], {%s, %s};", f.state(), f.state())
			} else {
				f.emit("ld.u64 %s, [%%b1];", f.wide())
			}
		} else if r.IntN(2) == 0 {
			f.emit("st.local.u64 [%%b1], %s;", f.wide())
		} else {
			f.emit("ld.local.v2.u32 {%s, %s}, [%%b1];", f.state(), f.state())
		}
	case 4:
		if f.kernel {
			// The thread's own shared slots, directly or through a generic address.
			k := 4 * r.IntN(4)
			switch r.IntN(3) {
			case 0:
				f.emit("st.shared.u32 [%%a5+%d], %s;", k, f.state())
			case 1:
				f.emit("ld.shared.u32 %s, [%%a5+%d];", f.state(), k)
			default:
				f.emit("cvta.shared.u64 %%b2, %%a5;")
				f.emit("atom.%s %s, [%%b2+%d], %s;", []string{"add.u32", "min.u32", "max.s32", "exch.b32", "inc.u32", "dec.u32", "or.b32"}[r.IntN(7)], f.state(), k, f.operand())
			}
			return
		}
		f.emit("atom.global.%s %s, [%%a3+%d], %s;", []string{"add.u32", "and.b32", "or.b32", "xor.b32", "max.s32", "min.u32", "exch.b32", "inc.u32", "dec.u32"}[r.IntN(9)], f.state(), 4*r.IntN(simtScrWords), f.operand())
	case 5:
		if f.kernel {
			f.emit("atom.global.cas.b32 %s, [%%a1+%d], %s, %s;", f.state(), 4*r.IntN(24), f.state(), f.operand())
		} else {
			f.emit("atom.global.add.u64 %s, [%%a3+8], %s;", f.wide(), f.wide())
		}
	default:
		// Commutative reductions from every thread into the global accumulators.
		ptr, n := "%a4", simtAccWords
		if !f.kernel {
			ptr, n = "%a3", simtScrWords // functions reduce into the thread's own scratch
		}
		// Each accumulator has one operation, so that the order of the threads does not matter.
		k := r.IntN(n)
		f.emit("red.global.%s [%s+%d], %s;", []string{"add.u32", "xor.b32", "max.u32", "min.s32"}[k%4], ptr, 4*k, f.state())
	}
}

// callee picks a function this one may call: one with a higher index, or itself when it is
// recursive; -1 when there is none or the cost would grow too much.
func (f *simtFn) callee() int {
	g := f.g
	var cands []int
	for i := f.index + 1; i < g.nfuncs; i++ {
		if g.kind[i] == simtWarpFn || f.pure && g.kind[i] != simtPureFn {
			continue
		}
		if f.cost+f.mult*g.cost[i] <= f.limit {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	return cands[g.r.IntN(len(cands))]
}

// call emits a direct, indirect (.calltargets, call table or prototype) or recursive call.
func (f *simtFn) call() {
	g := f.g
	r := g.r
	if f.noMem && !f.pure {
		f.arith()
		return
	}
	c := f.callee()
	if c < 0 {
		return
	}
	f.cost += f.mult * g.cost[c]
	D, A, B := f.state(), f.state(), f.state()
	guard := ""
	if r.IntN(4) == 0 {
		guard = "@" + f.lanePred() + " " // lanes whose guard is false skip the call
	}
	switch g.kind[c] {
	case simtRegFn:
		f.emit("and.b32 %%t3, %s, 3;", B)
		f.emit("%scall (%s), f%d, (%s, %%t3);", guard, D, c, A)
		return
	case simtPureFn:
		f.emit("and.b32 %%t3, %s, 3;", B)
		f.pureCall(guard, c, D, A, "%t3")
		return
	}
	// Param-style: indirect through a register when there are several candidates; the call
	// table ftab<index+1> lists every param-style function above this one.
	var targets []int
	tableOK := true
	for i := f.index + 1; i < g.nfuncs; i++ {
		if g.kind[i] != simtParamFn {
			continue
		}
		if f.cost+f.mult*g.cost[i] <= f.limit+f.mult*g.cost[c] {
			targets = append(targets, i)
		} else {
			tableOK = false
		}
	}
	f.emit("{")
	f.emit(".param .b32 pa;")
	f.emit(".param .b32 pb;")
	f.emit(".param .b64 pp;")
	f.emit(".param .b32 pr;")
	f.emit("st.param.b32 [pa], %s;", A)
	f.emit("and.b32 %%t3, %s, 3;", B)
	f.emit("st.param.b32 [pb], %%t3;")
	f.emit("st.param.b64 [pp], %%a3;")
	f.emit("st.param.b32 [pr], %s;", D) // what lanes that skip a guarded call read back
	mode := r.IntN(4)
	if len(targets) < 2 || mode == 3 && !tableOK {
		mode = 0
	}
	switch mode {
	case 0:
		if guard != "" {
			f.emit("%scall (pr), f%d, (pa, pb, pp);", guard, c)
		} else {
			f.emit("call%s (pr), f%d, (pa, pb, pp);", []string{"", ".uni"}[r.IntN(2)], c)
		}
	case 1, 2:
		// Choose per lane among targets.
		f.emit("mov.u64 %%b3, f%d;", targets[0])
		for _, t := range targets[1:] {
			p := f.lanePred()
			f.emit("mov.u64 %%b4, f%d;", t)
			f.emit("selp.b64 %%b3, %%b4, %%b3, %s;", p)
		}
		if mode == 1 {
			names := make([]string, len(targets))
			for i, t := range targets {
				names[i] = fmt.Sprintf("f%d", t)
			}
			ct := g.newLabel("CT")
			f.emit("%s: .calltargets %s;", ct, strings.Join(names, ", "))
			f.emit("%scall (pr), %%b3, (pa, pb, pp), %s;", guard, ct)
		} else {
			pr := g.newLabel("PR")
			f.emit("%s: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _, .param .b64 _);", pr)
			f.emit("%scall (pr), %%b3, (pa, pb, pp), %s;", guard, pr)
		}
	default:
		// Through the module's call table, indexed per lane.
		f.emit("rem.u32 %%t4, %s, %d;", f.state(), len(targets)) // tableOK: targets is the table
		f.emit("mul.wide.u32 %%b4, %%t4, 8;")
		f.emit("mov.u64 %%b3, ftab%d;", f.index+1)
		f.emit("add.u64 %%b3, %%b3, %%b4;")
		f.emit("ld.global.u64 %%b3, [%%b3];")
		f.emit("%scall (pr), %%b3, (pa, pb, pp), ftab%d;", guard, f.index+1)
	}
	f.emit("ld.param.b32 %s, [pr];", D)
	f.emit("}")
}

// pureCall emits a direct call of pure function c with arguments a and b (registers), its
// result to d; lanes whose guard (a "@p " prefix or "") is false keep d.
func (f *simtFn) pureCall(guard string, c int, d, a, b string) {
	f.emit("{")
	f.emit(".param .b32 pa;")
	f.emit(".param .b32 pb;")
	f.emit(".param .b32 pr;")
	f.emit("st.param.b32 [pa], %s;", a)
	f.emit("st.param.b32 [pb], %s;", b)
	f.emit("st.param.b32 [pr], %s;", d)
	if guard == "" {
		guard = []string{"", "", ".uni"}[f.g.r.IntN(3)]
		if guard == ".uni" && f.depth > 0 {
			guard = "" // a call in divergent code need not be uniform
		}
		f.emit("call%s (pr), f%d, (pa, pb);", guard, c)
	} else {
		f.emit("%scall (pr), f%d, (pa, pb);", guard, c)
	}
	f.emit("ld.param.b32 %s, [pr];", d)
	f.emit("}")
}

// warpCall calls a warp function from a divergent branch, at a point of the kernel that every
// lane of the warp reaches (after a barrier loop whose trip count differs per thread, on paths
// of their own, which the ballot waits for): the callee's membermask is the ballot of the
// branch's predicate, the lanes that call. Half the time the call is guarded instead of
// branched around.
func (f *simtFn) warpCall() {
	g := f.g
	r := g.r
	var cands []int
	for i := range g.nfuncs {
		if g.kind[i] == simtWarpFn && f.cost+f.mult*g.cost[i] <= f.limit {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return
	}
	c := cands[r.IntN(len(cands))]
	f.cost += f.mult * g.cost[c]
	D, A, B := f.state(), f.state(), f.state()
	p := f.lanePred()
	f.emit("vote.sync.ballot.b32 %%t4, %s, 0xffffffff;", p)
	guard, skip := "", ""
	if r.IntN(2) == 0 {
		guard = "@" + p + " "
	} else {
		skip = g.newLabel("$W")
		f.emit("@!%s bra %s;", p, skip)
	}
	f.emit("{")
	f.emit(".param .b32 pa;")
	f.emit(".param .b32 pb;")
	f.emit(".param .b64 pp;")
	f.emit(".param .b32 pm;")
	f.emit(".param .b32 pr;")
	f.emit("st.param.b32 [pa], %s;", A)
	f.emit("and.b32 %%t3, %s, 3;", B)
	f.emit("st.param.b32 [pb], %%t3;")
	f.emit("st.param.b64 [pp], %%a3;")
	f.emit("st.param.b32 [pm], %%t4;")
	f.emit("st.param.b32 [pr], %s;", D)
	f.emit("%scall (pr), f%d, (pa, pb, pp, pm);", guard, c)
	f.emit("ld.param.b32 %s, [pr];", D)
	f.emit("}")
	if skip != "" {
		f.emitLabel(skip)
	}
}

// collective emits a shfl.sync or vote.sync over the lanes of membermask %k0, which are all
// the lanes that run it: the start of a warp function.
func (f *simtFn) collective() {
	r := f.g.r
	cmps := []string{"eq", "ne", "lt", "le", "gt", "ge"}
	if r.IntN(2) == 0 {
		b := fmt.Sprint(r.IntN(32))
		if r.IntN(2) == 0 {
			f.emit("and.b32 %%t1, %s, 31;", f.state())
			b = "%t1"
		}
		c := []uint32{0x1f, 0x1f, 0, 0x181f, 0x1c03, r.Uint32() & 0x1f1f}[r.IntN(6)]
		mode := []string{"up", "down", "bfly", "idx"}[r.IntN(4)]
		if r.IntN(2) == 0 {
			q := f.newPred()
			f.emit("shfl.sync.%s.b32 %%t2|%s, %s, %s, %d, %%k0;", mode, q, f.state(), b, c)
			f.emit("selp.b32 %s, %%t2, %s, %s;", f.state(), f.operand(), q)
		} else {
			f.emit("shfl.sync.%s.b32 %s, %s, %s, %d, %%k0;", mode, f.state(), f.state(), b, c)
		}
		return
	}
	p := f.newPred()
	f.emit("setp.%s.u32 %s, %s, %s;", cmps[r.IntN(6)], p, f.state(), f.operand())
	neg := []string{"", "!"}[r.IntN(2)]
	if r.IntN(2) == 0 {
		f.emit("vote.sync.ballot.b32 %%t2, %s%s, %%k0;", neg, p)
		f.emit("add.u32 %s, %s, %%t2;", f.state(), f.state())
		return
	}
	q := f.newPred()
	f.emit("vote.sync.%s.pred %s, %s%s, %%k0;", []string{"all", "any", "uni"}[r.IntN(3)], q, neg, p)
	f.emit("selp.b32 %s, %s, %s, %s;", f.state(), f.operand(), f.state(), q)
}

// earlyEnd emits an exit or ret. In code that leads to a barrier, only at the kernel's top level
// as a guarded instruction; then it ends a jump region.
func (f *simtFn) earlyEnd() {
	r := f.g.r
	op := []string{"exit", "ret"}[r.IntN(2)]
	if f.noMem {
		// No exit: it ends the thread, which a lane-independent function does not.
		if op == "ret" {
			p := f.lanePred()
			if f.pure {
				f.emit("@%s st.param.b32 [fret], %s;", p, f.state())
			} else {
				f.emit("@%s mov.u32 fret, %s;", p, f.state())
			}
			f.emit("@%s ret;", p)
		}
		return
	}
	if f.final {
		switch r.IntN(3) {
		case 0:
			p := f.lanePred()
			f.emit("@%s %s;", p, op)
		case 1:
			// An end with code before it, in a divergent region.
			p := f.lanePred()
			skip := f.g.newLabel("$S")
			f.emit("@!%s bra %s;", p, skip)
			f.arith()
			if f.kernel {
				f.emit("st.global.u32 [%%a1+%d], %s;", 4*r.IntN(24), f.state())
			} else {
				f.emit("st.global.u32 [%%a3+%d], %s;", 4*r.IntN(simtScrWords), f.state())
			}
			if !f.kernel && op == "ret" {
				f.emit("st.param.b32 [fret], %s;", f.state())
			}
			f.emit("%s;", op)
			f.emitLabel(skip)
		default:
			p := f.lanePred()
			if !f.kernel && op == "ret" {
				f.emit("@%s st.param.b32 [fret], %s;", p, f.state())
			}
			f.emit("@%s %s;", p, op)
		}
		return
	}
	if f.kernel && r.IntN(2) == 0 {
		// Lanes that end after code of their own, in a divergent region, while others of
		// their warp go on to a barrier: under independent thread scheduling (sm_80) they
		// run to their end instead of waiting at the reconvergence point, and never hold
		// the barrier up.
		p := f.lanePred()
		skip := f.g.newLabel("$S")
		f.emit("@!%s bra %s;", p, skip)
		f.arith()
		f.emit("st.global.u32 [%%a1+%d], %s;", 4*r.IntN(24), f.state())
		f.emit("%s;", op)
		f.emitLabel(skip)
		return
	}
	if !f.kernel || f.depth > 0 {
		return
	}
	p := f.lanePred()
	f.endRegion()
	f.emit("@%s %s;", p, op)
}

// block emits up to n statements at the current nesting depth.
func (f *simtFn) block(n int) {
	r := f.g.r
	for range n {
		if f.cost > f.limit {
			return
		}
		switch k := r.IntN(20); {
		case k < 6:
			f.arith()
		case k < 8:
			f.memory()
		case k == 8:
			f.trace()
		case k == 9 && f.depth < 3:
			f.ifElse()
		case k == 10 && f.depth < 3:
			f.loop()
		case k == 11 && r.IntN(4) == 0:
			// A branch every lane of a warp takes the same way.
			p := f.newPred()
			f.emit("mov.u32 %%t7, %s;", []string{"%ntid.x", "%ctaid.x", "%nctaid.x"}[r.IntN(3)])
			f.emit("setp.%s.u32 %s, %%t7, %d;", []string{"lt", "ge", "eq"}[r.IntN(3)], p, r.IntN(50))
			f.emitJump("@" + p + " ")
			f.lines[len(f.lines)-1].uni = true
		case k == 11:
			f.emitJump("@" + f.lanePred() + " ")
		case k == 12:
			f.emitLabel(f.g.newLabel("$L"))
		case k == 13 && f.depth < 3:
			f.brx()
		case k == 14 || k == 15:
			f.call()
		case k == 16 && r.IntN(3) == 0:
			f.earlyEnd()
		default:
			f.arith()
		}
	}
}

func (f *simtFn) ifElse() {
	r := f.g.r
	p := f.lanePred()
	els, end := f.g.newLabel("$E"), f.g.newLabel("$J")
	f.emit("@%s%s bra%s %s;", []string{"", "!"}[r.IntN(2)], p, "", els)
	f.depth++
	f.trace()
	f.block(1 + r.IntN(4))
	if r.IntN(3) > 0 {
		f.emit("bra %s;", end)
		f.emitLabel(els)
		f.trace()
		f.block(1 + r.IntN(4))
		f.emitLabel(end)
	} else {
		f.emitLabel(els)
		f.emitLabel(end)
	}
	f.depth--
}

// loop emits a loop with a lane-dependent trip count of 0..7 (a while or a do-while loop).
func (f *simtFn) loop() {
	r := f.g.r
	if f.nloops >= 16 {
		f.arith()
		return
	}
	c := fmt.Sprintf("%%c%d", f.nloops)
	f.nloops++
	id := f.g.label + 1
	head, latch, end := f.g.newLabel("$H"), f.g.newLabel("$C"), f.g.newLabel("$X")
	trips := 4 + r.IntN(4)
	f.emit("and.b32 %s, %s, %d;", c, f.state(), trips-1)
	doWhile := r.IntN(2) == 0
	if doWhile {
		f.emit("add.u32 %s, %s, 1;", c, c)
	}
	f.loops = append(f.loops, id)
	f.emitLabel(head)
	p := f.newPred()
	if !doWhile {
		f.emit("setp.eq.u32 %s, %s, 0;", p, c)
		f.emit("@%s bra %s;", p, end)
	}
	saved := f.mult
	f.mult *= trips
	f.depth++
	f.trace()
	f.block(1 + r.IntN(4))
	f.depth--
	f.emitLabel(latch)
	f.emit("sub.u32 %s, %s, 1;", c, c)
	if doWhile {
		p = f.newPred()
		f.emit("setp.ne.u32 %s, %s, 0;", p, c)
		f.emit("@%s bra %s;", p, head)
	} else {
		f.emit("bra %s;", head)
	}
	f.mult = saved
	f.loops = f.loops[:len(f.loops)-1]
	f.emitLabel(end)
}

// brx emits a lane-dependent brx.idx over 2..5 targets, some repeated.
func (f *simtFn) brx() {
	r := f.g.r
	n := 2 + r.IntN(4)
	labels := make([]string, n)
	for i := range labels {
		labels[i] = f.g.newLabel("$T")
	}
	table := make([]string, n)
	for i := range table {
		table[i] = labels[r.IntN(n)]
	}
	table[0] = labels[0]
	join := f.g.newLabel("$J")
	f.emit("rem.u32 %%t5, %s, %d;", f.state(), n)
	tn := f.g.newLabel("TB")
	f.emit("%s: .branchtargets %s;", tn, strings.Join(table, ", "))
	f.emit("brx.idx %%t5, %s;", tn)
	f.depth++
	for i, l := range labels {
		f.emitLabel(l)
		f.trace()
		f.block(r.IntN(3))
		if i < n-1 {
			f.emit("bra %s;", join)
		}
	}
	f.depth--
	f.emitLabel(join)
}

// function generates function i: f(a, b, p) with b in 0..3 bounding recursion and p the
// thread's scratch slots (simtParamFn); f(a, b) in .reg parameters (simtRegFn) or .param ones
// (simtPureFn); f(a, b, p, m) with m the membermask of its callers (simtWarpFn).
func (g *simtGen) function(i int) string {
	f := &simtFn{g: g, index: i, final: true, limit: 400, mult: 1}
	kind := g.kind[i]
	var head string
	switch kind {
	case simtRegFn:
		head = fmt.Sprintf(".func (.reg .b32 fret) f%d(.reg .b32 fa, .reg .b32 fb)", i)
		f.emit("mov.u32 %%s0, fa;")
		f.emit("mov.u32 %%s1, fb;")
		f.noMem = true
	case simtPureFn:
		head = fmt.Sprintf(".func (.param .b32 fret) f%d(.param .b32 fa, .param .b32 fb)", i)
		f.emit("ld.param.b32 %%s0, [fa];")
		f.emit("ld.param.b32 %%s1, [fb];")
		f.emit("mov.u32 %%t6, %%s1;") // the recursion depth, 0..3
		f.noMem, f.pure = true, true
	default:
		head = fmt.Sprintf(".func (.param .b32 fret) f%d(.param .b32 fa, .param .b32 fb, .param .b64 fp)", i)
		if kind == simtWarpFn {
			head = strings.TrimSuffix(head, ")") + ", .param .b32 fm)"
		}
		f.emit("ld.param.b32 %%s0, [fa];")
		f.emit("ld.param.b32 %%s1, [fb];")
		f.emit("mov.u32 %%t6, %%s1;") // the recursion depth, 0..3
		f.emit("ld.param.b64 %%a3, [fp];")
	}
	f.emit("mul.lo.u32 %%s2, %%s0, %d;", 2*g.r.IntN(1000)+1)
	f.emit("xor.b32 %%s3, %%s0, %d;", g.r.IntN(1<<20))
	f.emit("add.u32 %%s4, %%s1, %%s0;")
	f.emit("mov.u32 %%s5, %%laneid;")
	f.emit("cvt.u64.u32 %%w0, %%s0;")
	f.emit("mul.wide.u32 %%w1, %%s2, %%s3;")
	if kind != simtPureFn {
		f.emit("st.local.v4.u32 [lbuf], {0, 0, 0, 0};")
		f.emit("st.local.v4.u32 [lbuf+16], {0, 0, 0, 0};")
		f.emit("st.local.v4.u32 [lbuf+32], {0, 0, 0, 0};")
		f.emit("st.local.v4.u32 [lbuf+48], {0, 0, 0, 0};")
	}
	switch {
	case kind == simtRegFn:
		// No global scratch without a pointer: keep to registers and local memory.
		for range 2 + g.r.IntN(5) {
			f.arith()
		}
		if g.r.IntN(2) == 0 {
			f.ifElse()
		}
	case g.recursive[i]:
		base, done := g.newLabel("$B"), g.newLabel("$D")
		f.emit("setp.eq.u32 %%p15, %%t6, 0;")
		f.emit("@%%p15 bra %s;", base)
		f.depth++
		f.block(1 + g.r.IntN(3))
		f.emit("sub.u32 %%t3, %%t6, 1;")
		if kind == simtPureFn {
			f.pureCall("", i, f.state(), f.state(), "%t3")
		} else {
			f.emit("{")
			f.emit(".param .b32 pa;")
			f.emit(".param .b32 pb;")
			f.emit(".param .b64 pp;")
			f.emit(".param .b32 pr;")
			f.emit("st.param.b32 [pa], %s;", f.state())
			f.emit("st.param.b32 [pb], %%t3;")
			f.emit("st.param.b64 [pp], %%a3;")
			f.emit("call (pr), f%d, (pa, pb, pp);", i)
			f.emit("ld.param.b32 %s, [pr];", f.state())
			f.emit("}")
		}
		f.block(g.r.IntN(3))
		f.emit("bra %s;", done)
		f.emitLabel(base)
		f.block(1 + g.r.IntN(3))
		f.emitLabel(done)
		f.depth--
	case kind == simtWarpFn:
		f.emit("ld.param.b32 %%k0, [fm];")
		for range 1 + g.r.IntN(3) {
			f.collective()
		}
		f.block(3 + g.r.IntN(6))
	default:
		f.block(3 + g.r.IntN(8))
	}
	f.endRegion()
	f.emit("xor.b32 %%s0, %%s0, %%s1;")
	f.emit("add.u32 %%s0, %%s0, %%s2;")
	f.emit("xor.b32 %%s0, %%s0, %%s3;")
	f.emit("add.u32 %%s0, %%s0, %%s4;")
	f.emit("xor.b32 %%s0, %%s0, %%s5;")
	f.emit("cvt.u32.u64 %%t0, %%w0;")
	f.emit("add.u32 %%s0, %%s0, %%t0;")
	if kind == simtRegFn {
		f.emit("mov.u32 fret, %%s0;")
	} else {
		f.emit("st.param.b32 [fret], %%s0;")
	}
	f.emit("ret;")
	c := f.cost
	if g.recursive[i] {
		c *= 4
	}
	g.cost[i] = c + 10
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n{\n", head)
	b.WriteString(simtRegDecls)
	if kind != simtPureFn {
		b.WriteString("\t.local .align 8 .b8 lbuf[64];\n")
	}
	for _, l := range f.resolve() {
		b.WriteString(l + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

const simtRegDecls = `	.reg .b32 %s<6>;
	.reg .b32 %t<8>;
	.reg .b32 %c<16>;
	.reg .b64 %w<2>;
	.reg .b64 %a<8>;
	.reg .b64 %b<8>;
	.reg .b16 %h<4>;
	.reg .pred %p<16>;
	.reg .b32 %k<2>;
`

// simtUniformBarriers are the forms of the CTA barrier 0 for code every thread of the CTA
// runs: bar.sync is barrier.sync.aligned.
var simtUniformBarriers = []string{"bar.sync 0", "barrier.sync 0", "bar.sync 0", "barrier.sync.aligned 0"}

// barrierStep publishes a value to the CTA, waits at barrier 0 with op (a form of
// bar.sync 0) and reads what another thread published. With op "", the invalid form: threads
// wait at barrier 0 or 1 by a lane-dependent predicate, which deadlocks unless they all go
// the same way. %k1 counts the barriers the thread
// has passed. Barrier 0 opens when every live thread has arrived, at whichever barrier
// instruction, so %k1 is the same phase number in every thread: a value published in phase k
// goes to buffer k%2 of shpub (and a sum to shcnt[k%2]) and is read in phase k+1, when no
// thread writes there. The data flow is defined even where threads pass different barrier
// instructions (syncLoop).
func (f *simtFn) barrierStep(op string) {
	r := f.g.r
	half := 4 * int(f.g.block) // bytes of one buffer of shpub
	f.emit("and.b32 %%t0, %%k1, 1;")
	f.emit("mul.lo.u32 %%t1, %%k0, 4;")
	f.emit("mad.lo.u32 %%t1, %%t0, %d, %%t1;", half)
	f.emit("cvt.u64.u32 %%b0, %%t1;")
	f.emit("mov.u64 %%b1, shpub;")
	f.emit("add.u64 %%b1, %%b1, %%b0;")
	f.emit("st.shared.u32 [%%b1], %s;", f.state())
	if r.IntN(2) == 0 {
		f.emit("mul.wide.u32 %%b0, %%t0, 4;")
		f.emit("mov.u64 %%b1, shcnt;")
		f.emit("add.u64 %%b1, %%b1, %%b0;")
		f.emit("red.shared.add.u32 [%%b1], %s;", f.state())
	}
	f.endRegion()
	if op == "" {
		p := f.lanePred()
		one, join := f.g.newLabel("$V"), f.g.newLabel("$J")
		f.emit("@%s bra %s;", p, one)
		f.emit("barrier.sync 0;")
		f.emit("bra %s;", join)
		f.emitLabel(one)
		f.emit("barrier.sync 1;")
		f.emitLabel(join)
	} else {
		f.emit("%s;", op)
	}
	f.emit("add.u32 %%k1, %%k1, 1;")
	f.emit("add.u32 %%t0, %%k1, 1;")
	f.emit("and.b32 %%t0, %%t0, 1;") // the buffer of the phase before
	f.emit("mov.u32 %%t2, %%ntid.x;")
	f.emit("add.u32 %%t1, %%k0, %d;", 1+r.IntN(40))
	f.emit("rem.u32 %%t1, %%t1, %%t2;")
	f.emit("mul.lo.u32 %%t1, %%t1, 4;")
	f.emit("mad.lo.u32 %%t1, %%t0, %d, %%t1;", half)
	f.emit("cvt.u64.u32 %%b0, %%t1;")
	f.emit("mov.u64 %%b1, shpub;")
	f.emit("add.u64 %%b1, %%b1, %%b0;")
	f.emit("ld.shared.u32 %%t2, [%%b1];")
	f.emit("add.u32 %s, %s, %%t2;", f.state(), f.state())
	f.emit("mul.wide.u32 %%b0, %%t0, 4;")
	f.emit("mov.u64 %%b1, shcnt;")
	f.emit("add.u64 %%b1, %%b1, %%b0;")
	f.emit("ld.shared.u32 %%t3, [%%b1];")
	f.emit("xor.b32 %s, %s, %%t3;", f.state(), f.state())
}

// syncLoop emits a loop at the kernel's top level with a barrier in each iteration. Its trip
// count, 0..3, is CTA-uniform (an immediate, or from %ctaid.x, %ntid.x or %nctaid.x), with
// any form of bar.sync 0, and with a converged point for warpCall after the barrier; or it
// is the same in each warp (from %tid.x/32) or differs per thread, with barrier.sync 0, which
// may run where threads of a CTA or lanes of a warp diverge, and a second loop of 3 minus as
// many barriers, so that every thread passes 3 barriers in all and the barriers after it are
// aligned again.
func (f *simtFn) syncLoop() {
	r := f.g.r
	if f.nloops >= 15 {
		return
	}
	c, pad := fmt.Sprintf("%%c%d", f.nloops), fmt.Sprintf("%%c%d", f.nloops+1)
	f.nloops += 2
	kind := r.IntN(4)
	uniform := kind < 2
	f.endRegion() // no jump from before the loop skips it
	switch kind {
	case 0:
		f.emit("mov.u32 %s, %d;", c, r.IntN(4))
	case 1:
		f.emit("mov.u32 %%t0, %s;", []string{"%ctaid.x", "%ntid.x", "%nctaid.x"}[r.IntN(3)])
		f.emit("add.u32 %%t0, %%t0, %d;", r.IntN(4))
		f.emit("and.b32 %s, %%t0, 3;", c)
	case 2:
		f.emit("shr.u32 %%t0, %%k0, 5;")
		f.emit("add.u32 %%t0, %%t0, %d;", r.IntN(4))
		f.emit("and.b32 %s, %%t0, 3;", c)
	default:
		f.emit("and.b32 %s, %s, 3;", c, f.state())
	}
	op := "barrier.sync 0"
	if uniform {
		op = simtUniformBarriers[r.IntN(len(simtUniformBarriers))]
	} else {
		f.emit("sub.u32 %s, 3, %s;", pad, c)
	}
	f.barrierLoop(c, op, func() {
		f.block(1 + r.IntN(3))
		f.barrierStep(op)
		f.block(r.IntN(3))
		if uniform && r.IntN(2) == 0 {
			f.endRegion()
			f.warpCall()
		}
	}, uniform)
	if !uniform {
		f.barrierLoop(pad, op, func() {
			f.block(r.IntN(2))
			f.barrierStep(op)
		}, false)
	}
	f.endRegion()
}

// barrierLoop emits a while loop of body, counting c down to 0; uniform says every thread of
// the CTA runs it as many times (its branch is bra.uni).
func (f *simtFn) barrierLoop(c, op string, body func(), uniform bool) {
	r := f.g.r
	id := f.g.label + 1
	head, end := f.g.newLabel("$H"), f.g.newLabel("$X")
	f.loops = append(f.loops, id)
	f.emitLabel(head)
	p := f.newPred()
	f.emit("setp.eq.u32 %s, %s, 0;", p, c)
	uni := ""
	if uniform && r.IntN(2) == 0 {
		uni = ".uni"
	}
	f.emit("@%s bra%s %s;", p, uni, end)
	saved := f.mult
	f.mult *= 4
	f.depth++
	body()
	f.endRegion() // no jump leaves the loop early
	f.depth--
	f.emit("sub.u32 %s, %s, 1;", c, c)
	f.emit("bra.uni %s;", head)
	f.mult = saved
	f.loops = f.loops[:len(f.loops)-1]
	f.emitLabel(end)
}

// kernel generates the kernel: segments separated by barriers (barrierStep), with loops of
// barriers (syncLoop) and calls of warp functions (warpCall) among them.
func (g *simtGen) kernel() string {
	r := g.r
	nbar := r.IntN(4)
	g.deadlockSeg = -1
	if nbar > 0 && r.IntN(10) == 0 {
		g.deadlockSeg = r.IntN(nbar)
	}
	f := &simtFn{g: g, index: -1, kernel: true, limit: 3000, mult: 1}
	f.emit("ld.param.u64 %%a0, [pout];")
	f.emit("cvta.to.global.u64 %%a0, %%a0;")
	f.emit("mov.u32 %%t0, %%ctaid.x;")
	f.emit("mov.u32 %%t1, %%ntid.x;")
	f.emit("mov.u32 %%s0, %%tid.x;")
	f.emit("mov.u32 %%k0, %%tid.x;")             // kept: the state registers change
	f.emit("mad.lo.u32 %%s4, %%t0, %%t1, %%s0;") // global thread id
	f.emit("mul.wide.u32 %%a1, %%s4, %d;", 4*simtOutWords)
	f.emit("add.u64 %%a1, %%a0, %%a1;")
	f.emit("ld.param.u64 %%a2, [pin];")
	f.emit("mul.wide.u32 %%b0, %%s4, %d;", 4*simtInWords)
	f.emit("add.u64 %%a2, %%a2, %%b0;")
	f.emit("ld.param.u64 %%a3, [pscr];")
	f.emit("mul.wide.u32 %%b0, %%s4, %d;", 4*simtScrWords)
	f.emit("add.u64 %%a3, %%a3, %%b0;")
	f.emit("ld.param.u64 %%a4, [pacc];")
	f.emit("mov.u64 %%a5, shslot;")
	f.emit("mul.wide.u32 %%b0, %%s0, 16;")
	f.emit("add.u64 %%a5, %%a5, %%b0;")
	f.emit("ld.global.v4.u32 {%%s1, %%s2, %%s3, %%s5}, [%%a2];")
	f.emit("ld.global.v2.u64 {%%w0, %%w1}, [%%a2+16];")
	f.emit("mov.u32 %%t2, %%laneid;")
	f.emit("xor.b32 %%s3, %%s3, %%t2;")
	f.emit("st.local.v2.u64 [lbuf], {%%w0, %%w1};")
	f.emit("st.local.v2.u64 [lbuf+16], {%%w1, %%w0};")
	f.emit("st.local.v4.u32 [lbuf+32], {%%s1, %%s2, %%s3, %%s4};")
	f.emit("st.local.v4.u32 [lbuf+48], {0, 0, 0, 0};")
	f.emit("mov.u32 %%k1, 0;") // the barrier phase (barrierStep)
	for seg := 0; seg <= nbar; seg++ {
		f.final = seg == nbar
		f.block(3 + r.IntN(10))
		if seg < nbar && r.IntN(2) == 0 {
			f.final = false
			f.syncLoop()
			f.final = seg == nbar
		}
		if r.IntN(2) == 0 {
			f.endRegion()
			f.warpCall()
		}
		if seg < nbar {
			op := simtUniformBarriers[r.IntN(len(simtUniformBarriers))]
			if seg == g.deadlockSeg {
				op = ""
			}
			f.barrierStep(op)
		}
	}
	f.endRegion()
	for i := range simtNumState {
		f.emit("st.global.u32 [%%a1+%d], %%s%d;", 4*(24+i), i)
	}
	f.emit("xor.b64 %%w0, %%w0, %%w1;")
	f.emit("st.global.u64 [%%a1+%d], %%w0;", 4*30)
	f.emit("ret;")
	var b strings.Builder
	b.WriteString(".visible .entry simt(.param .u64 pout, .param .u64 pin, .param .u64 pscr, .param .u64 pacc)\n{\n")
	b.WriteString(simtRegDecls)
	b.WriteString("\t.local .align 8 .b8 lbuf[64];\n")
	for _, l := range f.resolve() {
		b.WriteString(l + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// simtGenerate builds a random program from seed.
func simtGenerate(seed uint64) simtProgram {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &simtGen{r: r}
	g.block = []uint32{1, 5, 32, 33, 40, 64, 70, 96}[r.IntN(8)]
	grid := uint32(1 + r.IntN(3))
	g.nfuncs = r.IntN(7)
	g.recursive = make([]bool, g.nfuncs)
	g.kind = make([]simtKind, g.nfuncs)
	g.cost = make([]int, g.nfuncs)
	for i := range g.nfuncs {
		switch r.IntN(8) {
		case 0:
			g.kind[i] = simtRegFn
		case 1:
			g.recursive[i] = true
		case 2:
			g.kind[i] = simtPureFn
		case 3:
			g.kind[i], g.recursive[i] = simtPureFn, true
		case 4:
			g.kind[i] = simtWarpFn
		}
	}
	var b strings.Builder
	b.WriteString(".version 8.0\n.target sm_80\n.address_size 64\n\n")
	fmt.Fprintf(&b, ".shared .align 4 .b32 shpub[%d];\n", 2*g.block)
	b.WriteString(".shared .align 4 .b32 shcnt[2];\n")
	fmt.Fprintf(&b, ".shared .align 16 .b32 shslot[%d];\n\n", 4*g.block)
	// Callees come first: function i calls only functions above i (and itself if recursive).
	funcs := make([]string, g.nfuncs)
	for i := g.nfuncs - 1; i >= 0; i-- {
		funcs[i] = g.function(i)
	}
	for i := g.nfuncs - 1; i >= 0; i-- {
		b.WriteString(funcs[i])
		b.WriteString("\n")
		// The call table of the param-style functions above i-1, for callers with index i-1.
		var names []string
		for j := i; j < g.nfuncs; j++ {
			if g.kind[j] == simtParamFn {
				names = append(names, fmt.Sprintf("f%d", j))
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, ".global .align 8 .u64 ftab%d[%d] = {%s};\n\n", i, len(names), strings.Join(names, ", "))
		}
	}
	b.WriteString(g.kernel())
	return simtProgram{src: b.String(), grid: grid, block: g.block}
}

// simtStats counts what the differential tests ran, for the logs.
var simtStats struct{ programs, deadlocks, threads atomic.Int64 }

// simtBuffers are one launch's device buffers, as host bytes.
type simtBuffers struct{ out, in, scr, acc []byte }

func simtInputs(seed uint64, threads int) simtBuffers {
	r := rand.New(rand.NewPCG(seed^0x5bd1e995, seed))
	fill := func(words int) []byte {
		b := make([]byte, 4*words)
		for i := range words {
			var v uint32
			switch r.IntN(4) {
			case 0:
				v = uint32(r.IntN(16))
			case 1:
				v = []uint32{0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe}[r.IntN(6)]
			default:
				v = r.Uint32()
			}
			binary.LittleEndian.PutUint32(b[4*i:], v)
		}
		return b
	}
	return simtBuffers{out: fill(threads * simtOutWords), in: fill(threads * simtInWords),
		scr: fill(threads * simtScrWords), acc: fill(simtAccWords)}
}

// simtEngine runs the kernel on a fresh device holding bufs and returns the buffers after it.
type simtEngine func(ctx context.Context, dev *runtime.Device, grid, block runtime.Dim3, params []any) error

func simtRunOn(t testing.TB, run simtEngine, p simtProgram, bufs simtBuffers) (simtBuffers, error) {
	dev := runtime.NewDevice()
	up := func(b []byte) runtime.Ptr {
		ptr, err := dev.Malloc(len(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.CopyIn(ptr, b); err != nil {
			t.Fatal(err)
		}
		return ptr
	}
	ptrs := []runtime.Ptr{up(bufs.out), up(bufs.in), up(bufs.scr), up(bufs.acc)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := run(ctx, dev, runtime.D1(p.grid), runtime.D1(p.block), []any{ptrs[0], ptrs[1], ptrs[2], ptrs[3]})
	down := func(ptr runtime.Ptr, n int) []byte {
		b := make([]byte, n)
		if err := dev.CopyOut(b, ptr); err != nil {
			t.Fatal(err)
		}
		return b
	}
	return simtBuffers{out: down(ptrs[0], len(bufs.out)), in: bufs.in, scr: down(ptrs[2], len(bufs.scr)), acc: down(ptrs[3], len(bufs.acc))}, err
}

// simtDiff describes the first difference between two runs' buffers, or "".
func simtDiff(a, b simtBuffers) string {
	for _, c := range []struct {
		name   string
		x, y   []byte
		stride int
	}{{"out", a.out, b.out, simtOutWords}, {"scr", a.scr, b.scr, simtScrWords}, {"acc", a.acc, b.acc, simtAccWords}} {
		if bytes.Equal(c.x, c.y) {
			continue
		}
		var lines []string
		for i := 0; i+4 <= len(c.x); i += 4 {
			x, y := binary.LittleEndian.Uint32(c.x[i:]), binary.LittleEndian.Uint32(c.y[i:])
			if x != y && len(lines) < 8 {
				w := i / 4
				lines = append(lines, fmt.Sprintf("%s: thread %d word %d: %#x vs %#x", c.name, w/c.stride, w%c.stride, x, y))
			}
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

// simtRun is one launch of a generated program on an engine: its workers (0: the default) and
// whether it collects statistics.
type simtRun struct {
	workers  int
	withStat bool
}

// simtRuns are the launches of each program on each engine.
var simtRuns = []simtRun{{workers: 1, withStat: true}, {workers: 1}, {workers: 0}}

// stats returns s for a run with statistics, else nil.
func (r simtRun) stats(s *runtime.Stats) *runtime.Stats {
	if r.withStat {
		return s
	}
	return nil
}

func (r simtRun) String() string {
	if r.withStat {
		return fmt.Sprintf("workers %d, statistics", r.workers)
	}
	return fmt.Sprintf("workers %d", r.workers)
}

// simtCheck generates the program of seed and runs it on the closure engine (one worker with
// and without statistics, and the default) and on the reference engine; every buffer must be
// identical. The first simtGoPrograms programs run on the Go source engine too, whose
// statistics must be the closure engine's.
func simtCheck(t testing.TB, seed uint64) {
	p := simtGenerate(seed)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d (grid %d, block %d): %s\n--- program ---\n%s", seed, p.grid, p.block, fmt.Sprintf(format, args...), p.src)
	}
	file := "simt.ptx"
	if seed < simtGoPrograms {
		file = simtPath(seed) // as the Go source engine's package names it in faults and statistics
	}
	mod, err := ptx2go.Compile([]byte(p.src), ptx2go.Options{File: file})
	if err != nil {
		fail("generated program does not compile: %v", err)
	}
	k, err := mod.Kernel("simt")
	if err != nil {
		fail("%v", err)
	}
	ast, err := frontend.Parse(file, []byte(p.src))
	if err != nil {
		fail("%v", err)
	}
	prog, err := ssa.Build(ast)
	if err != nil {
		fail("%v", err)
	}
	threads := int(p.grid * p.block)
	bufs := simtInputs(seed, threads)
	closureRun := func(workers int, stats *runtime.Stats) simtEngine {
		return func(ctx context.Context, dev *runtime.Device, grid, block runtime.Dim3, params []any) error {
			return k.LaunchConfig(ctx, dev, runtime.LaunchConfig{Grid: grid, Block: block, Workers: workers, Stats: stats}, params...)
		}
	}
	refRun := func(ctx context.Context, dev *runtime.Device, grid, block runtime.Dim3, params []any) error {
		buf, err := k.PackArgs(params...)
		if err != nil {
			return err
		}
		return reference.Launch(ctx, dev, prog, "simt", grid, block, buf)
	}
	want, refErr := simtRunOn(t, refRun, p, bufs)
	var deadlock *reference.Error // the reference's report of a program that deadlocks
	if refErr != nil && (!errors.As(refErr, &deadlock) || !strings.HasPrefix(deadlock.Msg, "barrier deadlock")) {
		fail("reference engine: %v", refErr)
	}
	// check compares an engine's run with the reference's: the same memory or, for a program
	// that deadlocks, a deadlock in the same CTA, the same fault as every engine's run. With
	// several workers, the first CTA to fault stops the others (docs/scheduling.md), so the
	// launch may report the deadlock of a CTA after the reference's: it is checked in full
	// only when it names the reference's CTA.
	var firstFault *runtime.Fault
	check := func(engine string, run simtRun, got simtBuffers, err error) {
		t.Helper()
		if deadlock == nil {
			if err != nil {
				fail("%s: %v", engine, err)
			}
			if d := simtDiff(got, want); d != "" {
				fail("%s differs from the reference (%s vs reference):\n%s", engine, engine, d)
			}
			return
		}
		var f *runtime.Fault
		if !errors.As(err, &f) || f.Kind != runtime.FaultDeadlock || f.CTA != deadlock.CTA && run.workers == 1 {
			fail("%s: %v; the reference: %v", engine, err, refErr)
		}
		if f.CTA != deadlock.CTA {
			return
		}
		if firstFault == nil {
			firstFault = f
			return
		}
		if f.Kind != firstFault.Kind || f.Loc != firstFault.Loc || f.CTA != firstFault.CTA || f.Thread != firstFault.Thread || f.Detail != firstFault.Detail {
			fail("%s: %v; the closure engine with statistics: %v", engine, f, firstFault)
		}
	}
	// Statistics turn the fast paths off (CTA-wide barrier runs, per-lane calls): the run
	// with them checks the SIMT stack, the runs without them the fast paths.
	var closureStats runtime.Stats
	for _, run := range simtRuns {
		got, err := simtRunOn(t, closureRun(run.workers, run.stats(&closureStats)), p, bufs)
		check(fmt.Sprintf("closure engine (%s)", run), run, got, err)
	}
	if seed < simtGoPrograms {
		rt, ok := gocorpus.Lookup(simtPath(seed))
		if !ok {
			fail("%s has no generated package: run make simt-ptx generate", simtPath(seed))
		}
		gm, err := ptx2go.Load(rt)
		if err != nil {
			fail("%v", err)
		}
		gk, err := gm.Kernel("simt")
		if err != nil {
			fail("%v", err)
		}
		var goStats runtime.Stats
		for _, run := range simtRuns {
			launch := func(ctx context.Context, dev *runtime.Device, grid, block runtime.Dim3, params []any) error {
				cfg := runtime.LaunchConfig{Grid: grid, Block: block, Workers: run.workers, Stats: run.stats(&goStats)}
				return gk.LaunchConfig(ctx, dev, cfg, params...)
			}
			got, err := simtRunOn(t, launch, p, bufs)
			check(fmt.Sprintf("Go source engine (%s)", run), run, got, err)
		}
		if !reflect.DeepEqual(goStats, closureStats) {
			fail("the engines' statistics differ:\nclosure   %+v\nGo source %+v", closureStats, goStats)
		}
	}
	if deadlock != nil {
		simtStats.deadlocks.Add(1)
	}
	simtStats.programs.Add(1)
	simtStats.threads.Add(int64(threads))
}

// simtGoPrograms is how many of the generated programs (seeds 0 up) also run on the Go source
// engine: `make simt-ptx` writes them to testdata/ptx/simt (simtPath) and `make generate`
// compiles them to Go under generated/.
const simtGoPrograms = 12

// simtPath is the file of the program of a seed below simtGoPrograms.
func simtPath(seed uint64) string { return fmt.Sprintf("testdata/ptx/simt/p%02d.ptx", seed) }

// TestSIMTPrograms checks that testdata/ptx/simt holds the generator's current programs, which
// generated/ compiles to Go; with PTX2GO_SIMT_DUMP set (make simt-ptx), it writes them.
func TestSIMTPrograms(t *testing.T) {
	for seed := range uint64(simtGoPrograms) {
		src := simtGenerate(seed).src
		if os.Getenv("PTX2GO_SIMT_DUMP") != "" {
			require.NoError(t, os.MkdirAll(filepath.Dir(simtPath(seed)), 0o755))
			require.NoError(t, os.WriteFile(simtPath(seed), []byte(src), 0o644))
			continue
		}
		b, err := os.ReadFile(simtPath(seed))
		require.NoError(t, err, "run make simt-ptx generate")
		require.Equal(t, src, string(b), "%s is not the program of seed %d: run make simt-ptx generate", simtPath(seed), seed)
	}
}

// FuzzSIMT runs generated programs on the closure engine and the reference engine (and the
// first simtGoPrograms on the Go source engine).
func FuzzSIMT(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { simtCheck(t, seed) })
}

// TestSIMTRandom runs a fixed set of generated programs, so that every test run exercises the
// differential check.
func TestSIMTRandom(t *testing.T) {
	n := uint64(150)
	if testing.Short() {
		n = 40
	}
	start := time.Now()
	p0, d0, t0 := simtStats.programs.Load(), simtStats.deadlocks.Load(), simtStats.threads.Load()
	for seed := range n {
		simtCheck(t, seed)
	}
	t.Logf("%d programs (%d deadlock), %d threads in %v", simtStats.programs.Load()-p0, simtStats.deadlocks.Load()-d0, simtStats.threads.Load()-t0, time.Since(start))
}
