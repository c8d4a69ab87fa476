package gosrc

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// launchFunc is a kernel's typed launch function: one Go parameter per PTX parameter,
// runtime.Ptr for an address-size integer parameter that the kernel uses as an address (it
// goes through cvta or is the base of a memory operand, directly or through add/sub/mov),
// the Go integer or float type of other scalars, and [N]byte for aggregates.
func (f *fnGen) launchFunc() jen.Code {
	ptrs := f.pointerParams()
	params := []jen.Code{
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("dev").Op("*").Qual(rtPath, "Device"),
		jen.Id("cfg").Qual(rtPath, "LaunchConfig"),
	}
	used := namer{"ctx": true, "dev": true, "cfg": true, "p": true}
	var body []jen.Code
	body = append(body, jen.Var().Id("p").Index(jen.Lit(max(f.RF.KernelParams, 1))).Byte())
	var doc []string
	for _, prm := range f.Fn.Params {
		v := prm.Var
		if v == nil {
			continue
		}
		name := strings.TrimPrefix(v.Name, f.Fn.Name+"_")
		gname := used.unique(goName(name, false))
		off := f.KParam[v]
		at := jen.Id("p").Index(jen.Lit(int(off)).Op(":"))
		var typ jen.Code
		put := func(bits int, x jen.Code) {
			switch bits {
			case 8:
				body = append(body, jen.Id("p").Index(jen.Lit(int(off))).Op("=").Byte().Call(x))
			default:
				body = append(body, jen.Qual("encoding/binary", "LittleEndian").Dot(fmt.Sprintf("PutUint%d", bits)).Call(at, x))
			}
		}
		t := v.Type
		switch {
		case len(v.Dims) > 0 || v.Vector > 1 || t == frontend.B128:
			typ = jen.Index(jen.Lit(int(v.Size))).Byte()
			body = append(body, jen.Copy(at, jen.Id(gname).Index(jen.Op(":"))))
		case ptrs[v]:
			typ = jen.Qual(rtPath, "Ptr")
			if t.Bits() == 32 {
				// As Kernel.Launch does: a device address above 4 GiB does not fit.
				body = append(body, jen.If(jen.Uint64().Call(jen.Id(gname)).Op(">").Qual("math", "MaxUint32")).Block(
					jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(fmtEscape(f.Fn.Name)+": pointer %#x does not fit the 32-bit parameter "+fmtEscape(v.Name)), jen.Uint64().Call(jen.Id(gname))))))
			}
			put(t.Bits(), conv(utype(t.Bits()), jen.Id(gname)))
		case t == frontend.F32:
			typ = jen.Float32()
			put(32, jen.Qual("math", "Float32bits").Call(jen.Id(gname)))
		case t == frontend.F64:
			typ = jen.Float64()
			put(64, jen.Qual("math", "Float64bits").Call(jen.Id(gname)))
		case t.IsSigned():
			typ = jen.Id(stype(t.Bits()))
			put(t.Bits(), conv(utype(t.Bits()), jen.Id(gname)))
		case t.Bits() == 8 || t.Bits() == 16 || t.Bits() == 32 || t.Bits() == 64:
			typ = jen.Id(utype(t.Bits()))
			put(t.Bits(), jen.Id(gname))
		default:
			f.g.errorf(v.Pos, "kernel parameter %s of type %s is not supported by the Go source back end yet", v.Name, t)
			return jen.Null()
		}
		params = append(params, jen.Id(gname).Add(typ))
		doc = append(doc, fmt.Sprintf("%s is %s", gname, v.Name))
	}
	body = append(body, jen.Return(jen.Id("dev").Dot("Launch").Call(jen.Id("ctx"), jen.Id("Module"), jen.Id(f.ident), jen.Id("cfg"), jen.Id("p").Index(jen.Op(":")))))
	comment := fmt.Sprintf("%s launches PTX kernel %s (%s) on dev with the launch configuration cfg.", f.exported, f.Fn.Name, layout.Loc(f.Fn.Pos))
	if len(doc) > 0 {
		comment += " Parameters: " + strings.Join(doc, ", ") + "."
	}
	return jen.Comment(comment).Line().Func().Id(f.exported).Params(params...).Error().Block(body...)
}

// fmtEscape makes s (a PTX name, which may contain '%') literal text in a format string.
func fmtEscape(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// pointerParams finds the kernel parameters used as addresses.
func (f *fnGen) pointerParams() map[*ssa.Variable]bool {
	uses := map[*ssa.Value][]*ssa.Instr{}
	asAddr := map[*ssa.Value]bool{}
	var loads []*ssa.Instr
	for _, b := range f.Fn.Blocks {
		for _, in := range b.Instrs {
			for _, a := range in.Args {
				switch {
				case a.Kind == ssa.ArgValue:
					uses[a.Value] = append(uses[a.Value], in)
				case a.Kind == ssa.ArgAddr && a.Value != nil:
					asAddr[a.Value] = true
				}
			}
			if in.Op == frontend.OpLd && layout.InstrSpace(in) == frontend.SpaceParam && len(in.Args) == 1 && in.Args[0].Var != nil && len(in.Defs) == 1 {
				loads = append(loads, in)
			}
		}
	}
	isAddr := func(v *ssa.Value) bool {
		seen := map[*ssa.Value]bool{}
		work := []*ssa.Value{v}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			if asAddr[x] {
				return true
			}
			for _, in := range uses[x] {
				switch in.Op {
				case frontend.OpCvta:
					return true
				case frontend.OpAdd, frontend.OpSub, frontend.OpMov:
					work = append(work, in.Defs...)
				}
			}
		}
		return false
	}
	out := map[*ssa.Variable]bool{}
	for _, in := range loads {
		v := in.Args[0].Var
		if !f.g.prog.CanHoldAddress(v.Type) || len(v.Dims) > 0 || v.Vector > 1 {
			continue
		}
		if isAddr(in.Defs[0]) {
			out[v] = true
		}
	}
	return out
}
