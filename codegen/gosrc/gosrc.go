// Package gosrc lowers a verified SSA program into Go source, generated with jennifer: one Go
// file per PTX module. The file builds the same kind of runtime.Module the closure back end
// builds (functions, register slots, constants, terminators with their PTX source lines,
// globals, frame layout, block profiles), so the runtime's trampoline, SIMT and call-return
// stacks, barriers, memory spaces, faults and statistics run it unchanged. The difference is
// the code: each function is one Go function, its block chain (run.go), which runs blocks and
// follows jumps and uniform branches itself, with register slots, immediates, types and
// modifiers as literals; consecutive instructions of a block fuse into one lane loop with their
// results in Go locals, loads and a store included where the lanes cannot see the order
// (lanemem.go), a branch-free loop for full warps and one over the active lanes otherwise;
// the code after a divergent branch that only computes on registers runs lane by lane up to
// the reconvergence point (region.go). Scalar semantics come from runtime/isa, as in the
// closure back end.
//
// Per kernel the package exports a typed launch function named after the kernel in Go style,
// and the module as the variable Module, which the root package's Load launches by kernel name.
package gosrc

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

const (
	rtPath  = "github.com/ptx2go/ptx2go/runtime"
	isaPath = "github.com/ptx2go/ptx2go/runtime/isa"
)

// Options control generation.
type Options struct {
	// Package is the Go package name; default: the PTX file's base name made a Go identifier.
	Package string
	// Check generates the sanitizer's hooks (runtime.Warp.CheckMem) before every memory
	// access, .uni branch and warp-level synchronization, with every access outside lane
	// loops, warp passes and per-lane regions so that the registers the hooks read hold the
	// addresses: its launches may then ask for checks (runtime.LaunchConfig.Check, or
	// $PTX2GO_CHECK). Without it the package has no hooks and no cost.
	Check bool
}

// Error is a generation error at a PTX position: the type the SSA verifier, the table of
// instruction forms (layout.CheckForms) and codegen/closure report.
type Error = ssa.Error

// ErrorList is the generation errors in source order. Its text names this back end, one line
// an error: "gosrc: FILE:LINE:COL: message", where an unsupported instruction form reads
// "instruction X is not supported by the Go source back end yet". ssa.ErrorList(l) is the
// same errors as the other stages write them.
type ErrorList ssa.ErrorList

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		msg := e.Msg
		if e.Unsupported != "" {
			msg = "instruction " + e.Unsupported + " is not supported by the Go source back end yet"
		}
		fmt.Fprintf(&b, "gosrc: %s: %s", e.Pos, msg)
	}
	return b.String()
}

type gen struct {
	*layout.Module
	prog   *ssa.Program
	pkg    string
	funcs  map[*ssa.Function]*fnGen
	fnList []*fnGen // in the order of Mod.Funcs
	errs   ssa.ErrorList
	names  namer
	decls  []jen.Code // block functions, in order
	// nwin counts the global-memory windows of inline accesses (runtime.Module.NumWindows).
	nwin int
	// npass counts the warp passes (runtime.Module.NumPasses).
	npass int
	// atomVars are the package-level isa.AtomFunc variables declared.
	atomVars map[string]bool
	// fastPasses are the chunks' loops without slow paths, rendered last (chunks.go).
	fastPasses []fastPass
	// check says the package gets the sanitizer's hooks (Options.Check); checkSites are
	// their sites, the package-level array checkSites.
	check      bool
	checkSites []*runtime.CheckSite
	// laneFns names the per-lane functions of the functions that have one (lanefn.go).
	laneFns map[*ssa.Function]string
}

func (g *gen) errorf(pos frontend.Pos, format string, args ...any) {
	g.errs = append(g.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// fnGen is one function being generated, laid out by codegen/layout.
type fnGen struct {
	*layout.Frame
	g        *gen
	ident    string // the Go variable holding its *runtime.Func
	exported string // a kernel's launch function
	blocks   []blockGen
	uses     map[*ssa.Value][]*ssa.Instr
	carry    int // carrySlot's register slot plus one; 0 until an instruction uses CC.CF
	// run names the function's block chain (run.go); runDecls declare it and its blocks.
	run      string
	runDecls []jen.Code
	live     map[*ssa.Block]map[*ssa.Value]bool // liveIns
	// windows are the runtime.Window indices of global and generic accesses in lane loops.
	windows map[*ssa.Instr]int
	// steps are the lane steps of its values, for warp passes' address loops (affine.go).
	steps *laneSteps
}

// blockGen is one runtime block: its code, statistics count, where it starts, terminator
// literal and comment.
type blockGen struct {
	// code is the block's statements, run in its case of the function's block chain
	// (run.go); nil for a block without instructions.
	code      []jen.Code
	ptxInstrs int
	loc       string // runtime.Block.Loc
	term      jen.Dict
	// rt is the terminator as the runtime sees it (Kind, Succ, Alt, Pred, Negate), for the
	// function's block chain (run.go).
	rt      runtime.Term
	comment string
	// instrs are the instructions of its code.
	instrs []*ssa.Instr
	// prof is its static profile for statistics (profile.go); nil for the exit.
	prof *runtime.BlockProfile
	// pass is the body of its warp pass for a full warp (warppass.go), or nil.
	pass []jen.Code
	// src is the SSA block it is part of.
	src *ssa.Block
}

// PackageName is the default package name for a PTX file.
func PackageName(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	s := strings.ToLower(goName(base, false))
	if isKeyword(s) || s == "runtime" || s == "isa" {
		s += "ptx"
	}
	return s
}

// Generate returns the Go source of p: gofmt-clean and deterministic. An instruction the
// Go source back end does not handle is an error naming its PTX line; no code is generated
// for a module with errors.
func Generate(p *ssa.Program, opts Options) ([]byte, error) {
	g := &gen{
		prog:  p,
		check: opts.Check,
		pkg:   opts.Package,
		funcs: map[*ssa.Function]*fnGen{},
		names: namer{},
	}
	g.Module = layout.New(p, g.errorf)
	if errs, _ := layout.CheckForms(p); len(errs) > 0 {
		g.errs = append(g.errs, errs...)
		return nil, g.sortedErrors()
	}
	if g.pkg == "" {
		g.pkg = PackageName(p.File)
	}
	for _, n := range []string{"Module", "init", "w", "m", "l", "mm", "runtime", "isa", "math", "bits", "binary", "context"} {
		g.names[n] = true
	}
	for _, fn := range p.Funcs {
		if fn.Decl {
			continue
		}
		f := &fnGen{Frame: g.Frame(fn), g: g}
		if fn.Kind == frontend.Entry {
			f.exported = g.names.unique(goName(fn.Name, true))
		}
		g.fnList = append(g.fnList, f)
		g.funcs[fn] = f
	}
	for _, f := range g.fnList {
		f.ident = g.names.unique(goName(f.Fn.Name, false) + "Func")
	}
	for _, f := range g.fnList {
		f.generate()
	}
	if len(g.errs) == 0 {
		g.laneFuncs()
		for _, f := range g.fnList {
			f.run, f.runDecls = f.runFunc()
		}
	}
	g.StackBytes()
	if len(g.errs) > 0 {
		return nil, g.sortedErrors()
	}
	return g.render()
}

// sortedErrors returns the errors in source order.
func (g *gen) sortedErrors() ErrorList {
	slices.SortStableFunc(g.errs, func(a, b *ssa.Error) int {
		if a.Pos.Line != b.Pos.Line {
			return int(a.Pos.Line - b.Pos.Line)
		}
		return int(a.Pos.Col - b.Pos.Col)
	})
	return ErrorList(g.errs)
}

// render writes the file.
func (g *gen) render() ([]byte, error) {
	file := jen.NewFile(g.pkg)
	file.HeaderComment(fmt.Sprintf("Code generated by ptx2go from %s. DO NOT EDIT.", filepath.Base(g.prog.File)))
	file.PackageComment(fmt.Sprintf("Package %s runs the kernels of the PTX module %s on the CPU with ptx2go's runtime.", g.pkg, filepath.Base(g.prog.File)))
	file.ImportName(rtPath, "runtime")
	file.ImportName(isaPath, "isa")

	file.Comment(fmt.Sprintf("Module is the PTX module %s, compiled to Go. ptx2go.Load(Module) launches its kernels by name;", filepath.Base(g.prog.File)))
	file.Comment("the typed functions below launch one each.")
	file.Var().Id("Module").Op("=").Op("&").Qual(rtPath, "Module").Values(jen.Dict{
		jen.Id("Name"):       jen.Lit(g.prog.File),
		jen.Id("SharedSize"): jen.Lit(g.Mod.SharedSize),
		jen.Id("LocalSize"):  jen.Lit(g.Mod.LocalSize),
		jen.Id("SM"):         jen.Lit(g.prog.SM),
		jen.Id("NumWindows"): jen.Lit(g.nwin),
		jen.Id("NumPasses"):  jen.Lit(g.npass),
	})
	file.Line()
	if g.check {
		g.renderCheck(file)
	}
	var fvars []jen.Code
	for _, f := range g.fnList {
		fvars = append(fvars, jen.Comment(fmt.Sprintf("%s is PTX %s %s (%s).", f.ident, kindName(f.Fn), f.Fn.Name, layout.Loc(f.Fn.Pos))), jen.Id(f.ident).Op("=").Op("&").Qual(rtPath, "Func").Values(f.funcDict()))
	}
	file.Var().Defs(fvars...)
	file.Line()

	var init []jen.Code
	var list []jen.Code
	for _, f := range g.fnList {
		list = append(list, jen.Id(f.ident))
	}
	init = append(init, jen.Id("Module").Dot("Funcs").Op("=").Index().Op("*").Qual(rtPath, "Func").Values(list...))
	if len(g.Mod.Globals) > 0 {
		var gl []jen.Code
		for _, x := range g.Mod.Globals {
			d := jen.Dict{jen.Id("Name"): jen.Lit(x.Name), jen.Id("Size"): jen.Lit(x.Size), jen.Id("Align"): jen.Lit(x.Align)}
			if x.Init != nil {
				d[jen.Id("Init")] = byteLit(x.Init)
			}
			if x.ReadOnly {
				d[jen.Id("ReadOnly")] = jen.True()
			}
			if x.Ref != 0 {
				d[jen.Id("Ref")] = jen.Lit(int(x.Ref))
			}
			if x.Managed {
				d[jen.Id("Managed")] = jen.True()
			}
			if len(x.Relocs) > 0 {
				var rs []jen.Code
				for _, r := range x.Relocs {
					rd := jen.Dict{jen.Id("Offset"): jen.Lit(r.Offset), jen.Id("Size"): jen.Lit(r.Size)}
					if r.Func != nil {
						rd[jen.Id("Func")] = g.funcIdent(r.Func)
					} else {
						rd[jen.Id("Global")] = jen.Lit(r.Global)
					}
					if r.Addend != 0 {
						rd[jen.Id("Addend")] = jen.Lit(r.Addend)
					}
					rs = append(rs, jen.Values(rd))
				}
				d[jen.Id("Relocs")] = jen.Index().Qual(rtPath, "Reloc").Values(rs...)
			}
			gl = append(gl, jen.Values(d))
		}
		init = append(init, jen.Id("Module").Dot("Globals").Op("=").Index().Op("*").Qual(rtPath, "Global").Values(gl...))
	}
	for _, f := range g.fnList {
		init = append(init, f.initStmts()...)
		init = append(init, jen.Id(f.ident).Dot("Run").Op("=").Id(f.run))
	}
	file.Func().Id("init").Params().Block(init...)
	file.Line()

	for _, f := range g.fnList {
		if f.exported != "" {
			file.Add(f.launchFunc())
			file.Line()
		}
	}
	for _, f := range g.fnList {
		for _, d := range f.runDecls {
			file.Add(d)
			file.Line()
		}
	}
	for _, d := range g.decls {
		file.Add(d)
		file.Line()
	}
	if err := g.renderFastPasses(file); err != nil {
		return nil, fmt.Errorf("gosrc: %s: %v", g.prog.File, err)
	}
	var buf bytes.Buffer
	if err := file.Render(&buf); err != nil {
		return nil, fmt.Errorf("gosrc: rendering %s: %v", g.prog.File, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gosrc: formatting %s: %v", g.prog.File, err)
	}
	return out, nil
}

// funcIdent names the Go variable that holds rf.
func (g *gen) funcIdent(rf *runtime.Func) jen.Code {
	if rf.Builtin != runtime.BuiltinNone {
		return jen.Qual(rtPath, "BuiltinFunc").Call(jen.Lit(rf.Name))
	}
	return jen.Id(g.fnList[rf.Index].ident)
}

func kindName(fn *ssa.Function) string {
	if fn.Kind == frontend.Entry {
		return "kernel"
	}
	return "function"
}

// byteLit is a []byte literal, 16 bytes a line.
func byteLit(b []byte) jen.Code {
	var items []jen.Code
	for _, x := range b {
		items = append(items, jen.Id(fmt.Sprintf("0x%02x", x)))
	}
	return jen.Index().Byte().ValuesFunc(func(gr *jen.Group) {
		for _, it := range items {
			gr.Add(it)
		}
	})
}

func (f *fnGen) funcDict() jen.Dict {
	d := jen.Dict{
		jen.Id("Name"):     jen.Lit(f.Fn.Name),
		jen.Id("Index"):    jen.Lit(f.RF.Index),
		jen.Id("Sig"):      jen.Lit(f.RF.Sig),
		jen.Id("NumRegs"):  jen.Lit(f.RF.NumRegs),
		jen.Id("NumPreds"): jen.Lit(f.RF.NumPreds),
		jen.Id("Exit"):     jen.Lit(int(f.Exit)),
		jen.Id("Loc"):      jen.Lit(layout.Loc(f.Fn.Pos)),
	}
	if f.Fn.Kind == frontend.Entry {
		d[jen.Id("Kernel")] = jen.True()
	}
	if f.RF.ParamSize != 0 {
		d[jen.Id("ParamSize")] = jen.Lit(f.RF.ParamSize)
	}
	if f.RF.KernelParams != 0 {
		d[jen.Id("KernelParams")] = jen.Lit(f.RF.KernelParams)
	}
	if f.RF.StaticShared != 0 {
		d[jen.Id("StaticShared")] = jen.Lit(f.RF.StaticShared)
	}
	if f.RF.ClusterCTAs != 0 {
		d[jen.Id("ClusterCTAs")] = jen.Lit(f.RF.ClusterCTAs)
	}
	if f.RF.LocalSize != 0 {
		d[jen.Id("LocalSize")] = jen.Lit(f.RF.LocalSize)
	}
	d[jen.Id("StackBytes")] = jen.Lit(f.RF.StackBytes)
	if consts := f.Consts(); len(consts) > 0 {
		var cs []jen.Code
		for _, c := range consts {
			cs = append(cs, jen.Values(jen.Dict{jen.Id("Reg"): jen.Lit(c.Reg), jen.Id("Value"): jen.Id(fmt.Sprintf("%#x", c.Value))}))
		}
		d[jen.Id("Consts")] = jen.Index().Qual(rtPath, "Const").Values(cs...)
	}
	if z := f.ZeroRegs(); len(z) > 0 {
		var zs []jen.Code
		for _, s := range z {
			zs = append(zs, jen.Lit(int(s)))
		}
		d[jen.Id("ZeroRegs")] = jen.Index().Int32().Values(zs...)
	}
	if f.ZeroParams() {
		d[jen.Id("ZeroParams")] = jen.True()
	}
	if f.Fn.Kind == frontend.Entry && len(f.Fn.Params) > 0 {
		var ps []jen.Code
		for _, p := range f.Fn.Params {
			v := p.Var
			if v == nil {
				continue
			}
			t := v.Type
			array := len(v.Dims) > 0 || v.Vector > 1
			pd := jen.Dict{
				jen.Id("Name"):   jen.Lit(v.Name),
				jen.Id("Type"):   jen.Lit(strings.TrimPrefix(t.String(), ".")),
				jen.Id("Size"):   jen.Lit(int(v.Size)),
				jen.Id("Align"):  jen.Lit(layout.VarAlign(v)),
				jen.Id("Offset"): jen.Lit(int(f.KParam[v])),
			}
			if array {
				pd[jen.Id("Array")] = jen.True()
			}
			if !array && f.g.prog.CanHoldAddress(t) {
				pd[jen.Id("Pointer")] = jen.True()
			}
			ps = append(ps, jen.Values(pd))
		}
		d[jen.Id("KernelArgs")] = jen.Index().Qual(rtPath, "KernelParam").Values(ps...)
	}
	if f.RF.Params != nil {
		d[jen.Id("Params")] = slotsLit(f.RF.Params)
	}
	if f.RF.Results != nil {
		d[jen.Id("Results")] = slotsLit(f.RF.Results)
	}
	return d
}

func slotLit(s runtime.Slot) jen.Code {
	d := jen.Dict{jen.Id("Reg"): jen.Lit(s.Reg), jen.Id("Size"): jen.Lit(s.Size)}
	if s.Pred {
		d[jen.Id("Pred")] = jen.True()
	}
	if s.ParamOff != 0 {
		d[jen.Id("ParamOff")] = jen.Lit(s.ParamOff)
	}
	return jen.Values(d)
}

func slotsLit(ss []runtime.Slot) jen.Code {
	var out []jen.Code
	for _, s := range ss {
		out = append(out, slotLit(s))
	}
	return jen.Index().Qual(rtPath, "Slot").Values(out...)
}

// initStmts fills the function's blocks, one statement a block with its comment.
func (f *fnGen) initStmts() []jen.Code {
	out := []jen.Code{jen.Id(f.ident).Dot("Blocks").Op("=").Make(jen.Index().Qual(rtPath, "Block"), jen.Lit(len(f.blocks)))}
	for i, b := range f.blocks {
		d := jen.Dict{jen.Id("Term"): jen.Qual(rtPath, "Term").Values(b.term)}
		if b.instrs != nil {
			// The block's code alone, for launches that collect statistics (runtime.Func.Run
			// with no budget).
			d[jen.Id("Code")] = jen.Index().Qual(rtPath, "Instr").Values(jen.Func().Params(jen.Id("w").Op("*").Qual(rtPath, "Warp"), jen.Id("m").Uint32()).Block(
				jen.Id(f.run).Call(jen.Id("w"), jen.Lit(i), jen.Id("m"), jen.Lit(-1), jen.Lit(0))))
		}
		if b.ptxInstrs != 0 {
			d[jen.Id("PTXInstrs")] = jen.Lit(b.ptxInstrs)
		}
		if b.loc != "" {
			d[jen.Id("Loc")] = jen.Lit(b.loc)
		}
		if b.prof != nil {
			d[jen.Id("Profile")] = f.profileLit(b.prof)
		}
		out = append(out, jen.Comment(b.comment), jen.Id(f.ident).Dot("Blocks").Index(jen.Lit(i)).Op("=").Qual(rtPath, "Block").Values(d))
	}
	return out
}

// sortedKeys returns the keys of a set in increasing order.
func sortedKeys[K cmp.Ordered](m map[K]bool) []K {
	return slices.Sorted(maps.Keys(m))
}
