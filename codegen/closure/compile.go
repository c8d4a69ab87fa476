// Package closure lowers a verified SSA program into closures bound to the runtime: every
// instruction becomes a runtime.Instr built once, with its operands, types and modifiers
// resolved, that executes for all active lanes of a warp. Control flow becomes block
// terminators that the runtime's trampoline follows with its SIMT and call-return stacks.
//
// Registers keep their PTX identity: every SSA value of a register lives in that register's
// slot, so phis need no code, and a guarded write leaves the old value in lanes whose guard
// is false, exactly as PTX defines.
package closure

import (
	"fmt"
	"slices"

	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Compile lowers every function of p into a runtime module. Errors, such as an unsupported
// instruction, come as an ssa.ErrorList in source order. An instruction form the table of
// forms (layout.CheckForms) rejects stops compilation before any is lowered, as in
// codegen/gosrc.
func Compile(p *ssa.Program) (*runtime.Module, error) { return CompileWith(p, Options{}) }

// Options are what CompileWith may do differently from Compile.
type Options struct {
	// Check puts the sanitizer's hooks (runtime.Warp.CheckMem) before every memory access,
	// .uni branch and warp-level synchronization, and leaves addresses unfused so that the
	// registers they read hold them: a module launches may then ask for checks
	// (runtime.LaunchConfig.Check). Without it the module has no hooks and no cost.
	Check bool
}

// CompileWith is Compile with options.
func CompileWith(p *ssa.Program, opts Options) (*runtime.Module, error) {
	c := &compiler{check: opts.Check}
	c.Module = layout.New(p, c.errorf)
	c.laneFuncs = layout.LaneFuncs(p)
	if errs, _ := layout.CheckForms(p); len(errs) > 0 {
		c.errs = append(c.errs, errs...)
		return nil, c.sorted()
	}
	for _, fn := range p.Funcs {
		if !fn.Decl {
			c.function(fn)
		}
	}
	c.StackBytes()
	c.setPerLane()
	if c.check {
		c.Mod.CheckHooks, c.Mod.CheckSrc = true, c.CheckSrc()
	}
	if len(c.errs) > 0 {
		return nil, c.sorted()
	}
	return c.Mod, nil
}

// sorted returns the errors in source order.
func (c *compiler) sorted() ssa.ErrorList {
	slices.SortStableFunc(c.errs, func(a, b *ssa.Error) int {
		if a.Pos.Line != b.Pos.Line {
			return int(a.Pos.Line - b.Pos.Line)
		}
		return int(a.Pos.Col - b.Pos.Col)
	})
	return c.errs
}

// compiler lowers a program laid out by codegen/layout.
type compiler struct {
	*layout.Module
	errs ssa.ErrorList
	// check says the module gets the sanitizer's hooks (Options.Check).
	check bool
	// laneFuncs are the functions whose calls may run per lane (layout.LaneFuncs), laneForms
	// the per-lane forms compiled for them (lanefn.go).
	laneFuncs map[*ssa.Function]bool
	laneForms []*laneFn
}

func (c *compiler) errorf(pos frontend.Pos, format string, args ...any) {
	c.errs = append(c.errs, &ssa.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}
