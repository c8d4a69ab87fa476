package frontend

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// parseBody parses instructions placed in a kernel body and returns the body's statements.
func parseBody(t *testing.T, lines ...string) []Stmt {
	t.Helper()
	m, err := ParseString("t.ptx", body(lines...))
	require.NoError(t, err)
	return m.Items[0].(*Function).Body.Stmts
}

func TestImmediates(t *testing.T) {
	tests := []struct {
		text string
		want Operand
	}{
		{"42", &IntLit{Value: 42}},
		{"0x2A", &IntLit{Value: 42, Base: Hex}},
		{"052", &IntLit{Value: 42, Base: Octal}},
		{"0b101010", &IntLit{Value: 42, Base: Binary}},
		{"42U", &IntLit{Value: 42, Unsigned: true}},
		{"0xFFFFFFFFFFFFFFFF", &IntLit{Value: math.MaxUint64, Base: Hex}},
		{"-1", &IntLit{Value: math.MaxUint64, Negative: true}},
		{"-0x80000000", &IntLit{Value: uint64(1<<64 - 1<<31), Negative: true, Base: Hex}},
		{"0", &IntLit{Value: 0}},
		{"1.5", &FloatLit{Form: FloatDecimal, Bits: math.Float64bits(1.5)}},
		{"-2.5e-3", &FloatLit{Form: FloatDecimal, Bits: math.Float64bits(-2.5e-3)}},
		{"1e10", &FloatLit{Form: FloatDecimal, Bits: math.Float64bits(1e10)}},
		{"0f3F800000", &FloatLit{Form: FloatHex32, Bits: 0x3F800000}},
		{"0f7FC00001", &FloatLit{Form: FloatHex32, Bits: 0x7FC00001}},
		{"-0f3F800000", &FloatLit{Form: FloatHex32, Bits: 0xBF800000}},
		{"0d3FF0000000000000", &FloatLit{Form: FloatHex64, Bits: 0x3FF0000000000000}},
		{"0D7FF0000000000001", &FloatLit{Form: FloatHex64, Bits: 0x7FF0000000000001}},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			in := parseBody(t, "\tmov.b64 %rd1, "+tc.text+";")[0].(*Instruction)
			got := in.Operands[1]
			stripAll(got, tc.want)
			require.Equal(t, tc.want, got)
		})
	}
}

// stripAll zeroes the positions of every given node.
func stripAll(nodes ...any) {
	for _, n := range nodes {
		stripPositions(reflectValue(n))
	}
}

func TestOperandForms(t *testing.T) {
	stmts := parseBody(t,
		"\tld.global.v4.u32 {%r1, %r2, _, %r4}, [%rd1+8];",
		"\tst.shared.u32 [%rd1+-4], %r1;",
		"\tld.const.u32 %r1, [tbl+4];",
		"\tld.global.u32 %r1, [256];",
		"\tsetp.lt.s32 %p|%q, %r1, %r2;",
		"\tselp.b32 %r1, 1, 0, !%p;",
		"\tmov.u32 %r1, %tid.x;",
		"\tmov.u64 %rd1, tbl+8;",
		"\tcall.uni (retval0), f, (param0, 1);",
		"\tcall g, ();",
	)
	ops := func(i int) []Operand { return stmts[i].(*Instruction).Operands }
	want := [][]Operand{
		{&VectorOp{Elems: []Operand{&Ident{Name: "%r1"}, &Ident{Name: "%r2"}, &Sink{}, &Ident{Name: "%r4"}}}, &Address{Base: "%rd1", Offset: 8}},
		{&Address{Base: "%rd1", Offset: -4}, &Ident{Name: "%r1"}},
		{&Ident{Name: "%r1"}, &Address{Base: "tbl", Offset: 4}},
		{&Ident{Name: "%r1"}, &Address{Offset: 256}},
		{&PredPair{First: &Ident{Name: "%p"}, Second: &Ident{Name: "%q"}}, &Ident{Name: "%r1"}, &Ident{Name: "%r2"}},
		{&Ident{Name: "%r1"}, &IntLit{Value: 1}, &IntLit{Value: 0}, &Not{X: &Ident{Name: "%p"}}},
		{&Ident{Name: "%r1"}, &Ident{Name: "%tid.x"}},
		{&Ident{Name: "%rd1"}, &SymRef{Name: "tbl", Offset: 8}},
		{&ListOp{Elems: []Operand{&Ident{Name: "retval0"}}}, &Ident{Name: "f"}, &ListOp{Elems: []Operand{&Ident{Name: "param0"}, &IntLit{Value: 1}}}},
		{&Ident{Name: "g"}, &ListOp{}},
	}
	for i, w := range want {
		got := ops(i)
		stripAll(got, w)
		require.Equal(t, w, got, "statement %d", i)
	}
	in := stmts[0].(*Instruction)
	require.Equal(t, OpLd, in.Op)
	require.Equal(t, []Mod{SpaceMod(SpaceGlobal), ModV4, ModOf(U32)}, in.Mods)
	require.Equal(t, SpaceGlobal, in.Space())
	require.Equal(t, []Type{U32}, in.Types())
	require.True(t, stmts[8].(*Instruction).Has(ModUni))
}

func TestGuardsAndGCCSpelling(t *testing.T) {
	stmts := parseBody(t, "\t@%p bra L1;", "\t@!%p bra L1;", "\t@ %r23 bra $L2;", "\t@ ! %r23 bra.uni $L2;")
	want := []Guard{{Pred: "%p"}, {Negate: true, Pred: "%p"}, {Pred: "%r23"}, {Negate: true, Pred: "%r23"}}
	for i, w := range want {
		in := stmts[i].(*Instruction)
		g := *in.Guard
		g.Pos = Pos{}
		require.Equal(t, w, g)
		require.Equal(t, OpBra, in.Op)
	}
	require.Equal(t, Pos{File: "t.ptx", Line: 8, Col: 2}, stmts[2].(*Instruction).Pos)
	require.Equal(t, Pos{File: "t.ptx", Line: 8, Col: 13}, stmts[2].(*Instruction).Operands[0].Position())
}

func TestScopesLabelsAndTargetLists(t *testing.T) {
	stmts := parseBody(t,
		"\t.reg .b32 %r<4>;",
		"\t{",
		"\t\t.reg .b32 %r1;",
		"\t\tmov.b32 %r1, 7;",
		"\t}",
		"$L1:",
		"ts: .branchtargets $L1, $L2;",
		"\tbrx.idx %r1, ts;",
		"$L2:",
		"ft: .calltargets f, g;",
		"fp: .callprototype (.param .b32 _) _ (.param .b32 _, .param .u64 _);",
		"np: .callprototype _ .noreturn;",
	)
	require.Len(t, stmts, 9)
	decl := stmts[0].(*VarDecl)
	require.Equal(t, SpaceReg, decl.Space)
	require.Equal(t, B32, decl.Type)
	require.Equal(t, 4, decl.Names[0].Count)
	inner := stmts[1].(*Block)
	require.Len(t, inner.Stmts, 2)
	require.Equal(t, Pos{File: "t.ptx", Line: 10, Col: 2}, inner.End)
	require.Equal(t, "$L1", stmts[2].(*Label).Name)
	bt := stmts[3].(*BranchTargets)
	require.Equal(t, "ts", bt.Name)
	require.Equal(t, []string{"$L1", "$L2"}, []string{bt.Labels[0].Name, bt.Labels[1].Name})
	ct := stmts[6].(*CallTargets)
	require.Equal(t, "g", ct.Funcs[1].Name)
	cp := stmts[7].(*CallPrototype)
	require.True(t, cp.HasResults && cp.HasParams)
	require.Equal(t, []Type{B32, U64}, []Type{cp.Params[0].Type, cp.Params[1].Type})
	require.Equal(t, "_", cp.Results[0].Name)
	np := stmts[8].(*CallPrototype)
	require.True(t, np.Noreturn)
	require.False(t, np.HasResults || np.HasParams)
}

func TestModuleDirectivesAndInitializers(t *testing.T) {
	src := `.version 7.8
.target sm_90a, texmode_independent, debug
.address_size 64
.file 1 "k.cu", 1589423456, 1024
.extern .func (.param .b32 rv) vprintf(.param .b64 fmt, .param .b64 args);
.weak .global .align 8 .u64 tbl[3] = {f, g, h};
.common .global .u32 counter;
.global .f32 grid[2][2] = {{1.0, 0f40000000}, {-3, 4}};
.global .u64 gp = generic(grid)+8;
.global .u64 sp = grid+4;
.extern .shared .align 16 .b8 dyn[];
.const .v2 .f32 pair = {1.5, 2.5};
.visible .entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 s[24])
.maxntid 256, 1, 1
.minnctapersm 2
.explicitcluster
{
	.loc 1 5 3, function_name $L__info_string0, inlined_at 1 10 5
	ret;
}
.section .debug_abbrev
{
	.b8 1 // abbreviation code
	.b8 17
}
`
	m, err := ParseString("m.ptx", src)
	require.NoError(t, err)
	require.Equal(t, 7, m.Version.Major)
	require.Equal(t, 8, m.Version.Minor)
	require.Equal(t, []string{"sm_90a", "texmode_independent", "debug"}, m.Target.Names)
	fd := m.Items[0].(*FileDirective)
	require.Equal(t, FileDirective{Pos: fd.Pos, Index: 1, Name: "k.cu", Rest: ", 1589423456, 1024"}, *fd)
	vp := m.Items[1].(*Function)
	require.Equal(t, LinkExtern, vp.Linkage)
	require.Nil(t, vp.Body)
	require.Equal(t, "rv", vp.Results[0].Name)
	tbl := m.Items[2].(*VarDecl)
	require.Equal(t, LinkWeak, tbl.Linkage)
	require.Equal(t, 8, tbl.Align)
	require.Equal(t, []int{3}, tbl.Names[0].Dims)
	require.Len(t, tbl.Names[0].Init.(*InitList).Elems, 3)
	require.Equal(t, LinkCommon, m.Items[3].(*VarDecl).Linkage)
	grid := m.Items[4].(*VarDecl).Names[0]
	require.Equal(t, []int{2, 2}, grid.Dims)
	row0 := grid.Init.(*InitList).Elems[0].(*InitList)
	require.Equal(t, math.Float64bits(1.0), row0.Elems[0].(*FloatLit).Bits)
	require.Equal(t, uint64(0x40000000), row0.Elems[1].(*FloatLit).Bits)
	gen := m.Items[5].(*VarDecl).Names[0].Init.(*GenericRef)
	require.Equal(t, "grid", gen.Name)
	require.Equal(t, int64(8), gen.Offset)
	require.Equal(t, int64(4), m.Items[6].(*VarDecl).Names[0].Init.(*SymRef).Offset)
	dyn := m.Items[7].(*VarDecl)
	require.Equal(t, []int{-1}, dyn.Names[0].Dims)
	require.Equal(t, SpaceShared, dyn.Space)
	require.Equal(t, 2, m.Items[8].(*VarDecl).Vector)
	k := m.Items[9].(*Function)
	p := k.Params[0]
	require.True(t, p.Ptr)
	require.Equal(t, SpaceGlobal, p.PtrSpace)
	require.Equal(t, 16, p.PtrAlign)
	require.Equal(t, 0, p.Align)
	require.Equal(t, []int{24}, k.Params[1].Dims)
	require.Equal(t, 8, k.Params[1].Align)
	require.Equal(t, []string{".maxntid", ".minnctapersm", ".explicitcluster"},
		[]string{k.Directives[0].Name, k.Directives[1].Name, k.Directives[2].Name})
	require.Equal(t, []int64{256, 1, 1}, k.Directives[0].Args)
	loc := k.Body.Stmts[0].(*Loc)
	require.Equal(t, []int{1, 5, 3}, []int{loc.File, loc.Line, loc.Col})
	require.Equal(t, ", function_name $L__info_string0, inlined_at 1 10 5", loc.Rest)
	sec := m.Items[10].(*Section)
	require.Equal(t, ".debug_abbrev", sec.Name)
	require.Equal(t, ".b8 1 // abbreviation code\n\t.b8 17", sec.Text)
}

// TestPathologicalInputTerminates feeds inputs that would hang or overflow the stack of a naive
// parser; each must come back with errors (or, for the long valid line, without), never a panic.
func TestPathologicalInputTerminates(t *testing.T) {
	malformed := map[string]string{
		"100KB of {":            header + ".entry k()\n" + strings.Repeat("{", 100_000),
		"100KB of { at top":     strings.Repeat("{", 100_000),
		"unterminated comment":  header + "/*" + strings.Repeat("x\n", 50_000),
		"1MB identifier":        strings.Repeat("a", 1<<20),
		"1MB of }":              strings.Repeat("}", 1<<20),
		"deep initializer":      header + ".global .u32 x[1] = " + strings.Repeat("{", 100_000),
		"unterminated section":  header + ".section .debug_info {" + strings.Repeat("{", 1000),
		"many bad characters":   strings.Repeat("#", 100_000),
		"operands without end":  body("\tadd.s32 " + strings.Repeat("%r1, ", 100_000)),
		"vector without end":    body("\tld.v4.u32 {" + strings.Repeat("%r1, ", 100_000)),
		"guards without opcode": body(strings.Repeat("@%p ", 100_000)),
	}
	for name, src := range malformed {
		t.Run(name, func(t *testing.T) {
			_, err := ParseString("p.ptx", src)
			require.Error(t, err)
			require.LessOrEqual(t, len(err.(ErrorList)), MaxErrors)
		})
	}
	t.Run("1MB line", func(t *testing.T) {
		m, err := ParseString("p.ptx", header+".entry k() { "+strings.Repeat("add.s32 %r1, %r1, 1; ", 50_000)+"}")
		require.NoError(t, err)
		require.Len(t, m.Items[0].(*Function).Body.Stmts, 50_000)
	})
}

// TestSinkPredPair checks the `_|p` destination of elect.sync: a pair whose first register is
// the sink, printed back as written, and pmevent's .mask modifier.
func TestSinkPredPair(t *testing.T) {
	stmts := parseBody(t, "\telect.sync _|%p, -1;", "\tpmevent.mask 3;")
	got := stmts[0].(*Instruction).Operands[0]
	want := &PredPair{First: &Ident{Name: "_"}, Second: &Ident{Name: "%p"}}
	stripAll(got, want)
	require.Equal(t, want, got)
	mask, ok := LookupMod(".mask")
	require.True(t, ok)
	require.Equal(t, []Mod{mask}, stmts[1].(*Instruction).Mods)
	m, err := ParseString("t.ptx", body("\telect.sync _|%p, -1;"))
	require.NoError(t, err)
	require.Contains(t, Format(m), "elect.sync _|%p, -1;")
}

// TestParseLegacyForms parses forms of PTX ISA 1.x and nvcc 3.x: constant bank 0 written
// out (`.const[0]`, the same as .const), and a forward declaration ended by the next
// directive instead of ';'.
func TestParseLegacyForms(t *testing.T) {
	src := ".version 1.4\n.target sm_10\n.const[0] .f32 c;\n" +
		".func (.param .s32 r) f (.param .s32 a)\n.file 1 \"x.cu\"\n" +
		".entry k\n{\n\t.reg .f32 %f1;\n\tld.const[0].f32 %f1, [c];\n\texit;\n}\n.func g\n"
	m, err := Parse("legacy.ptx", []byte(src))
	require.NoError(t, err)
	require.Len(t, m.Items, 5)
	require.Equal(t, SpaceConst, m.Items[0].(*VarDecl).Space)
	decl := m.Items[1].(*Function)
	require.Equal(t, "f", decl.Name)
	require.Nil(t, decl.Body, "a declaration")
	ld := m.Items[3].(*Function).Body.Stmts[1].(*Instruction)
	require.Equal(t, SpaceConst, ld.Space())
	require.Equal(t, "g", m.Items[4].(*Function).Name, "a declaration ended by the end of the file")
}
