package gosrc

import (
	"github.com/dave/jennifer/jen"
	"github.com/ptx2go/ptx2go/runtime"
)

// The sanitizer's hooks (Options.Check): each site layout.CheckSites gives becomes an element
// of the package's array checkSites, and the hook a call of runtime.Warp.CheckMem with it.

// checkHooks are the statements that call the hooks of sites, for the lanes m.
func (g *gen) checkHooks(sites []*runtime.CheckSite) []jen.Code {
	var out []jen.Code
	for _, s := range sites {
		i := len(g.checkSites)
		g.checkSites = append(g.checkSites, s)
		out = append(out, jen.Id("w").Dot("CheckMem").Call(jen.Id("checkSites").Index(jen.Lit(i)), jen.Id("m")))
	}
	return out
}

// renderCheck writes the sites and sets the module's CheckHooks and CheckSrc.
func (g *gen) renderCheck(file *jen.File) {
	var sites []jen.Code
	for _, s := range g.checkSites {
		d := jen.Dict{
			jen.Id("Op"): jen.Lit(int(s.Op)), jen.Id("Space"): jen.Lit(int(s.Space)), jen.Id("Size"): jen.Lit(s.Size),
			jen.Id("Base"): jen.Lit(s.Base), jen.Id("Off"): jen.Lit(s.Off), jen.Id("Global"): jen.Lit(s.Global),
			jen.Id("Guard"): jen.Lit(s.Guard), jen.Id("Pred"): jen.Lit(s.Pred), jen.Id("Mask"): jen.Lit(s.Mask),
			jen.Id("Loc"): jen.Lit(s.Loc), jen.Id("Instr"): jen.Lit(s.Instr),
		}
		if s.Wide {
			d[jen.Id("Wide")] = jen.True()
		}
		if s.LocalFrame {
			d[jen.Id("LocalFrame")] = jen.True()
		}
		if s.GuardNeg {
			d[jen.Id("GuardNeg")] = jen.True()
		}
		if s.PredNeg {
			d[jen.Id("PredNeg")] = jen.True()
		}
		if s.Val > 0 {
			d[jen.Id("Val")] = jen.Lit(s.Val)
		}
		if s.Joint {
			d[jen.Id("Joint")] = jen.True()
		}
		if s.Strong {
			d[jen.Id("Strong")] = jen.True()
		}
		if s.Release {
			d[jen.Id("Release")] = jen.True()
		}
		if s.Src != "" {
			d[jen.Id("Src")] = jen.Lit(s.Src)
		}
		sites = append(sites, jen.Values(d))
	}
	file.Comment("checkSites are the sanitizer's hooks (runtime.CheckSite), one per checked access, .uni branch or")
	file.Comment("warp-level synchronization.")
	file.Var().Id("checkSites").Op("=").Index().Op("*").Qual(rtPath, "CheckSite").Values(sites...)
	file.Line()
	src := jen.Dict{}
	for k, v := range g.CheckSrc() {
		src[jen.Lit(k)] = jen.Lit(v)
	}
	file.Func().Id("init").Params().Block(
		jen.Id("Module").Dot("CheckHooks").Op("=").True(),
		jen.Id("Module").Dot("CheckSrc").Op("=").Map(jen.String()).String().Values(src),
	)
	file.Line()
}
