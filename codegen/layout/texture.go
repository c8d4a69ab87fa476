package layout

import (
	"strconv"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// ImageForm is a texture or surface instruction (or istypeof) as both back ends lower it: a
// runtime.ImageInstr, which runtime.Warp.Image performs, with its operands still to resolve.
type ImageForm struct {
	Op   runtime.ImageOp
	Geom runtime.Geometry
	// Handle is the object: a .u64 register, or a .texref/.surfref variable (ArgSym) holding
	// the handle (a legacy texture or surface reference).
	Handle ssa.Arg
	// Coords are the coordinate vector's elements, IntCoords whether they are .s32.
	Coords    []ssa.Arg
	IntCoords bool
	// Dsts are the destination registers; Half and HalfPairs say tex's .f16 and .v2.f16x2.
	Dsts            []ssa.Arg
	Half, HalfPairs bool
	Comp            int
	Query           runtime.ImageQuery
	// Surface accesses: the bytes of a vector element, the stored vector or sured's operand
	// (read as SrcType), the out-of-range mode, sured's operation.
	Bytes   int
	Srcs    []ssa.Arg
	SrcType frontend.Type
	Clamp   runtime.SurfaceClamp
	Red     runtime.SuredOp
	Signed  bool
	// istypeof: the predicate written and the kind tested (0 .texref, 1 .samplerref, 2 .surfref).
	Pred ssa.Arg
	Kind int
}

var (
	imageGeoms = map[frontend.Mod]runtime.Geometry{
		knownMod(".1d"): runtime.Geom1D, knownMod(".2d"): runtime.Geom2D, knownMod(".3d"): runtime.Geom3D,
		knownMod(".a1d"): runtime.GeomA1D, knownMod(".a2d"): runtime.GeomA2D, knownMod(".cube"): runtime.GeomCube,
		knownMod(".acube"): runtime.GeomACube,
	}
	// imageCoords is the length of each geometry's coordinate vector.
	imageCoords = [...]int{runtime.Geom1D: 1, runtime.Geom2D: 2, runtime.Geom3D: 4, runtime.GeomA1D: 2,
		runtime.GeomA2D: 4, runtime.GeomCube: 4, runtime.GeomACube: 4}
	modMultisample = []frontend.Mod{knownMod(".2dms"), knownMod(".a2dms")}
	modLevel       = knownMod(".level")
	modGrad        = knownMod(".grad")
	modB           = knownMod(".b")
	modP           = knownMod(".p")
	modTrap        = knownMod(".trap")
	modZero        = knownMod(".zero")
	tld4Comps      = map[frontend.Mod]int{knownMod(".r"): 0, knownMod(".g"): 1, knownMod(".b"): 2, knownMod(".a"): 3}
	txqQueries     = map[frontend.Mod]runtime.ImageQuery{
		knownMod(".width"): runtime.QueryWidth, knownMod(".height"): runtime.QueryHeight, knownMod(".depth"): runtime.QueryDepth,
		knownMod(".channel_data_type"): runtime.QueryChannelDataType, knownMod(".channel_order"): runtime.QueryChannelOrder,
		knownMod(".normalized_coords"): runtime.QueryNormalizedCoords, knownMod(".force_unnormalized_coords"): runtime.QueryForceUnnormalizedCoords,
		knownMod(".filter_mode"): runtime.QueryFilterMode, knownMod(".addr_mode_0"): runtime.QueryAddrMode0,
		knownMod(".addr_mode_1"): runtime.QueryAddrMode1, knownMod(".addr_mode_2"): runtime.QueryAddrMode2,
		knownMod(".array_size"): runtime.QueryArraySize, knownMod(".num_mipmap_levels"): runtime.QueryNumMipmapLevels,
		knownMod(".num_samples"): runtime.QueryNumSamples,
	}
	suqQueries = map[frontend.Mod]runtime.ImageQuery{
		knownMod(".width"): runtime.QueryWidth, knownMod(".height"): runtime.QueryHeight, knownMod(".depth"): runtime.QueryDepth,
		knownMod(".channel_data_type"): runtime.QueryChannelDataType, knownMod(".channel_order"): runtime.QueryChannelOrder,
		knownMod(".array_size"): runtime.QueryArraySize, knownMod(".memory_layout"): runtime.QueryMemoryLayout,
	}
	suCacheOps = []frontend.Mod{knownMod(".ca"), knownMod(".cg"), knownMod(".cs"), knownMod(".cv"), knownMod(".wb"), knownMod(".wt")}
	suredOps   = map[frontend.Mod]runtime.SuredOp{frontend.ModAdd: runtime.SuredAdd, frontend.ModMin: runtime.SuredMin,
		frontend.ModMax: runtime.SuredMax, frontend.ModAnd: runtime.SuredAnd, frontend.ModOr: runtime.SuredOr}
)

// Image classifies the texture and surface instructions and istypeof,
//
//	tex{.level,.grad}.geom.v4.{u32,s32,f32,f16}.{f32,s32} d, [a, c]{, lod | , dPdx, dPdy}
//	tex{.level,.grad}.geom.v2.f16x2.{f32,s32} d, [a, c]{, ...}
//	tld4.{r,g,b,a}.{2d,a2d}.v4.{u32,s32,f32}.f32 d, [a, c]
//	txq.query.b32 d, [a]
//	suld.b.sgeom{.cop}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [a, c]
//	sust.b.sgeom{.cop}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} [a, c], b
//	sust.p.sgeom{.v2,.v4}.b32{.trap,.clamp,.zero} [a, c], b
//	sured.b.{add,min,max}.sgeom.{u32,s32,u64}{...} [a, c], b   sured.b.{and,or}.sgeom.{b32,b64}{...} [a, c], b
//	suq.query.b32 d, [a]
//	istypeof.{texref,samplerref,surfref} p, a
//
// with geom one of .1d .2d .3d .a1d .a2d .cube .acube and sgeom one of .1d .2d .3d .a1d .a2d; a
// is a .u64 register holding an object handle or a module's .texref (.surfref) variable. tex's
// .level and .grad select level 0, the only one a texture without mipmaps has. It reports ok
// for these, a message for a malformed one, and neither for the forms not supported:
// multisample geometries (CUDA creates no multisample textures), a separate sampler (the
// independent texturing mode, which CUDA does not use), texel offsets and depth compare,
// txq.level, sparse residency (d|p) and suld.p (gone from the ISA).
func Image(in *ssa.Instr) (f ImageForm, ok bool, msg string) {
	geoms, vec := 0, 0
	var types []frontend.Type
	var other []frontend.Mod
	for _, m := range in.Mods {
		if g, isGeom := imageGeoms[m]; isGeom {
			f.Geom = g
			geoms++
			continue
		}
		if t, isType := m.Type(); isType {
			types = append(types, t)
			continue
		}
		switch m {
		case frontend.ModV2:
			vec = 2
		case frontend.ModV4:
			vec = 4
		default:
			other = append(other, m)
		}
	}
	for _, m := range other {
		for _, ms := range modMultisample {
			if m == ms {
				return f, false, "unsupported: multisample texture geometry " + m.String() + " (CUDA creates no multisample textures)"
			}
		}
	}
	switch in.Op {
	case frontend.OpIstypeof:
		return istypeofForm(in, types, other)
	case frontend.OpTxq, frontend.OpSuq:
		return queryForm(in, types, other, geoms)
	}
	if geoms != 1 {
		return f, false, ""
	}
	if len(in.Args) == 0 || in.Args[0].Kind != ssa.ArgImage {
		return f, false, ""
	}
	img := in.Args[0]
	if len(img.Elems) == 3 {
		return f, false, "unsupported: a separate sampler operand (the independent texturing mode)"
	}
	if len(img.Elems) != 2 {
		return f, false, Spelling(in) + " takes [object, {coordinates}]"
	}
	if ok, msg := handleOK(img.Elems[0], in.Op == frontend.OpSuld || in.Op == frontend.OpSust || in.Op == frontend.OpSured); !ok {
		return f, false, msg
	}
	f.Handle = img.Elems[0]
	f.Coords = img.Elems[1].Elems
	if img.Elems[1].Kind != ssa.ArgVector {
		f.Coords = img.Elems[1:2]
	}
	if len(f.Coords) != imageCoords[f.Geom] {
		return f, false, Spelling(in) + " takes a coordinate vector of " + itoa(imageCoords[f.Geom])
	}
	switch in.Op {
	case frontend.OpTex, frontend.OpTld4:
		return texForm(in, f, types, other, vec)
	}
	return surfaceForm(in, f, types, other, vec)
}

func itoa(n int) string { return strconv.Itoa(n) }

// dataOK checks the registers (or, for sources, immediates) of a surface access of type t:
// as wide as t, or wider (a .b8 or .b16 element in a 16- or 32-bit register).
func dataOK(args []ssa.Arg, t frontend.Type, src bool) bool {
	for _, bits := range []int{t.Bits(), 16, 32} {
		if bits >= t.Bits() && valuesOK(args, bits, src) {
			return true
		}
	}
	return false
}

// handleOK checks the object operand: a 64-bit register, or a .texref/.surfref variable.
func handleOK(a ssa.Arg, surface bool) (bool, string) {
	switch {
	case a.Kind == ssa.ArgValue && a.Value.Reg.Type.Bits() == 64 && a.Value.Reg.Type != frontend.Pred && !a.Not:
		return true, ""
	case a.Kind == ssa.ArgSym && a.Var != nil && a.Offset == 0 && a.Var.Space == frontend.SpaceGlobal:
		want := frontend.TexRef
		if surface {
			want = frontend.SurfRef
		}
		if a.Var.Type != want {
			return false, "operand " + a.Var.Name + " is not a " + want.String() + " variable"
		}
		return true, ""
	}
	return false, "the texture or surface operand must be a .u64 register or a .texref/.surfref variable"
}

// valuesOK checks that args are registers of bits bits (or immediates when imm).
func valuesOK(args []ssa.Arg, bits int, imm bool) bool {
	for _, a := range args {
		switch {
		case a.Kind == ssa.ArgValue && a.Value.Reg.Type != frontend.Pred && !a.Not && a.Value.Reg.Type.Bits() == bits:
		case imm && (a.Kind == ssa.ArgImm || a.Kind == ssa.ArgFloat && bits >= 32):
		default:
			return false
		}
	}
	return true
}

// dstVector returns a destination operand's registers.
func dstVector(a ssa.Arg) []ssa.Arg {
	if a.Kind == ssa.ArgVector {
		return a.Elems
	}
	return []ssa.Arg{a}
}

// texForm classifies tex and tld4.
func texForm(in *ssa.Instr, f ImageForm, types []frontend.Type, other []frontend.Mod, vec int) (ImageForm, bool, string) {
	f.Op = runtime.ImageTex
	level, grad, comps := 0, 0, 0
	for _, m := range other {
		c, isComp := tld4Comps[m]
		switch {
		case in.Op == frontend.OpTld4 && isComp:
			f.Comp = c
			comps++
		case in.Op == frontend.OpTex && m == modLevel:
			level++
		case in.Op == frontend.OpTex && m == modGrad:
			grad++
		default:
			return f, false, ""
		}
	}
	if len(types) != 2 || level+grad > 1 {
		return f, false, ""
	}
	dt, ct := types[0], types[1]
	switch {
	case ct != frontend.F32 && ct != frontend.S32:
		return f, false, ""
	case vec == 4 && (dt == frontend.U32 || dt == frontend.S32 || dt == frontend.F32 || dt == frontend.F16):
	case vec == 2 && dt == frontend.F16x2:
	default:
		return f, false, ""
	}
	f.IntCoords = ct == frontend.S32
	f.Half, f.HalfPairs = dt == frontend.F16, dt == frontend.F16x2
	extra := 0
	switch {
	case level == 1:
		extra = 1
	case grad == 1:
		extra = 2
	}
	if in.Op == frontend.OpTld4 {
		if comps != 1 || ct != frontend.F32 || dt == frontend.F16 || dt == frontend.F16x2 ||
			f.Geom != runtime.Geom2D && f.Geom != runtime.GeomA2D {
			return f, false, ""
		}
		f.Op = runtime.ImageTld4
	}
	if len(in.Args) != 1+extra {
		if len(in.Args) > 1+extra {
			return f, false, "unsupported: texel offsets and depth compare operands of " + Spelling(in)
		}
		return f, false, Spelling(in) + " misses an operand"
	}
	if len(in.Dsts) != 1 {
		return f, false, "unsupported: sparse residency d|p of " + Spelling(in)
	}
	f.Dsts = dstVector(in.Dsts[0])
	dbits := 32
	if f.Half {
		dbits = 16
	}
	if len(f.Dsts) != vec || !valuesOK(f.Dsts, dbits, false) {
		return f, false, Spelling(in) + " writes a vector of " + itoa(vec) + " ." + map[bool]string{true: "b16", false: "b32"}[f.Half] + " registers"
	}
	if !coordsOK(f) {
		return f, false, "the coordinates of " + Spelling(in) + " are 32-bit registers or immediates"
	}
	return f, true, ""
}

// coordsOK checks the coordinate vector.
func coordsOK(f ImageForm) bool { return valuesOK(f.Coords, 32, true) }

// surfaceForm classifies suld, sust and sured.
func surfaceForm(in *ssa.Instr, f ImageForm, types []frontend.Type, other []frontend.Mod, vec int) (ImageForm, bool, string) {
	if f.Geom == runtime.GeomCube || f.Geom == runtime.GeomACube || len(types) != 1 {
		return f, false, ""
	}
	t := types[0]
	kind, clamps, caches, reds := frontend.Mod(0), 0, 0, 0
	for _, m := range other {
		op, isRed := suredOps[m]
		switch {
		case m == modB || m == modP:
			if kind != 0 {
				return f, false, ""
			}
			kind = m
		case m == modTrap, m == frontend.ModClamp, m == modZero:
			f.Clamp = map[frontend.Mod]runtime.SurfaceClamp{modTrap: runtime.SurfaceTrap, frontend.ModClamp: runtime.SurfaceClampEdge, modZero: runtime.SurfaceZero}[m]
			clamps++
		case in.Op == frontend.OpSured && isRed:
			f.Red = op
			reds++
		case in.Op != frontend.OpSured && isSuCache(m):
			caches++
		default:
			return f, false, ""
		}
	}
	if clamps > 1 || caches > 1 || kind == 0 {
		return f, false, ""
	}
	if !valuesOK(f.Coords, 32, true) {
		return f, false, "the coordinates of " + Spelling(in) + " are 32-bit registers or immediates"
	}
	f.Bytes = t.Bits() / 8
	n := max(vec, 1)
	switch in.Op {
	case frontend.OpSuld:
		if kind != modB || !isBits(t) || len(in.Dsts) != 1 || len(in.Args) != 1 {
			return f, false, ""
		}
		f.Op = runtime.ImageSuld
		f.Dsts = dstVector(in.Dsts[0])
		if len(f.Dsts) != n || !dataOK(f.Dsts, t, false) {
			return f, false, Spelling(in) + " writes " + itoa(n) + " registers of its type"
		}
	case frontend.OpSust:
		if len(in.Args) != 2 || reds != 0 || kind == modP && t != frontend.B32 || kind == modB && !isBits(t) {
			return f, false, ""
		}
		f.Op, f.SrcType = runtime.ImageSust, t
		if kind == modP {
			f.Op = runtime.ImageSustP
		}
		f.Srcs = dstVector(in.Args[1])
		if len(f.Srcs) != n || !dataOK(f.Srcs, t, true) {
			return f, false, Spelling(in) + " stores " + itoa(n) + " registers of its type"
		}
	default:
		if kind != modB || reds != 1 || vec != 0 || len(in.Args) != 2 || !suredType(f.Red, t) {
			return f, false, ""
		}
		f.Op, f.SrcType = runtime.ImageSured, t
		f.Signed = t == frontend.S32 || t == frontend.S64
		f.Srcs = dstVector(in.Args[1])
		if len(f.Srcs) != 1 || !valuesOK(f.Srcs, t.Bits(), true) {
			return f, false, Spelling(in) + " takes one operand of its type"
		}
	}
	return f, true, ""
}

func isBits(t frontend.Type) bool {
	return t == frontend.B8 || t == frontend.B16 || t == frontend.B32 || t == frontend.B64
}

func isSuCache(m frontend.Mod) bool {
	for _, c := range suCacheOps {
		if m == c {
			return true
		}
	}
	return false
}

// suredType reports whether sured's operation takes type t.
func suredType(op runtime.SuredOp, t frontend.Type) bool {
	if op == runtime.SuredAnd || op == runtime.SuredOr {
		return t == frontend.B32 || t == frontend.B64
	}
	return t == frontend.U32 || t == frontend.S32 || t == frontend.U64 || t == frontend.S64
}

// queryForm classifies txq and suq.
func queryForm(in *ssa.Instr, types []frontend.Type, other []frontend.Mod, geoms int) (f ImageForm, ok bool, msg string) {
	queries := txqQueries
	f.Op = runtime.ImageTxq
	if in.Op == frontend.OpSuq {
		queries, f.Op = suqQueries, runtime.ImageSuq
	}
	if geoms != 0 || len(types) != 1 || types[0] != frontend.B32 || len(other) != 1 {
		for _, m := range other {
			if m == modLevel {
				return f, false, "unsupported: txq.level (textures have one mipmap level)"
			}
		}
		return f, false, ""
	}
	q, known := queries[other[0]]
	if !known {
		return f, false, ""
	}
	f.Query = q
	if len(in.Args) != 1 || in.Args[0].Kind != ssa.ArgImage || len(in.Args[0].Elems) != 1 || len(in.Dsts) != 1 {
		return f, false, Spelling(in) + " takes d, [object]"
	}
	if ok, msg := handleOK(in.Args[0].Elems[0], in.Op == frontend.OpSuq); !ok {
		return f, false, msg
	}
	f.Handle = in.Args[0].Elems[0]
	f.Dsts = in.Dsts
	if !valuesOK(f.Dsts, 32, false) {
		return f, false, Spelling(in) + " writes a 32-bit register"
	}
	return f, true, ""
}

// istypeofForm classifies istypeof.
func istypeofForm(in *ssa.Instr, types []frontend.Type, other []frontend.Mod) (f ImageForm, ok bool, msg string) {
	f.Op = runtime.ImageIstypeof
	if len(types) != 1 || len(other) != 0 {
		return f, false, ""
	}
	switch types[0] {
	case frontend.TexRef:
		f.Kind = 0
	case frontend.SamplerRef:
		f.Kind = 1
	case frontend.SurfRef:
		f.Kind = 2
	default:
		return f, false, ""
	}
	if len(in.Dsts) != 1 || len(in.Args) != 1 || !isPredArg(in.Dsts[0]) {
		return f, false, "istypeof takes p, a: a predicate and a .u64 register"
	}
	a := in.Args[0]
	if a.Kind != ssa.ArgValue || a.Value.Reg.Type.Bits() != 64 || a.Value.Reg.Type == frontend.Pred {
		return f, false, "unsupported: istypeof of a variable (its type is known when compiling); istypeof takes a .u64 register"
	}
	f.Pred, f.Handle = in.Dsts[0], a
	return f, true, ""
}

// RefKind is what a module variable of type t is as a texture or surface reference.
func RefKind(t frontend.Type) runtime.RefKind {
	switch t {
	case frontend.TexRef:
		return runtime.RefTexture
	case frontend.SurfRef:
		return runtime.RefSurface
	}
	return runtime.RefNone
}
