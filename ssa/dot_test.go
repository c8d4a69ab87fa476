package ssa

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
)

func TestDotQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, `""`},
		{`b0`, `"b0"`},
		{`b3 ($L__BB0_2)`, `"b3 ($L__BB0_2)"`},
		{`say "hi"`, `"say \"hi\""`},
		{`a\b`, `"a\\b"`},
		{`\N \G \l`, `"\\N \\G \\l"`}, // Graphviz escapes stay literal text
		{`end\`, `"end\\"`},           // a final backslash must not escape the closing quote
		{`\"`, `"\\\""`},
		{"two\nlines", `"two\nlines"`},
		{"crlf\r\n", `"crlf\n"`},
		{"ünï", `"ünï"`},
	} {
		require.Equal(t, tc.want, dotQuote(tc.in), "dotQuote(%q)", tc.in)
	}
}

// dotUnquote reverses dotQuote for the escapes it writes, so the tests check round trips.
func dotUnquote(t *testing.T, q string) string {
	t.Helper()
	require.True(t, len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"', "not quoted: %s", q)
	var b strings.Builder
	body := q[1 : len(q)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '"' {
			t.Fatalf("unescaped quote in %s", q)
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		require.Less(t, i, len(body), "dangling backslash in %s", q)
		switch body[i] {
		case '\\', '"':
			b.WriteByte(body[i])
		case 'n':
			b.WriteByte('\n')
		default:
			t.Fatalf("unexpected escape \\%c in %s", body[i], q)
		}
	}
	return b.String()
}

func TestDotQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", `"`, `\`, `\\"\"`, "x\ny", `a"b\c`, `$L__BB0_2`} {
		require.Equal(t, s, dotUnquote(t, dotQuote(s)))
	}
}

// oddFunction is a hand-made two-block function whose names need escaping.
func oddFunction() *Function {
	fn := &Function{Name: `k"1\`}
	b0 := &Block{ID: 0, Func: fn, Term: Terminator{Kind: TermJump, Pos: frontend.Pos{Line: 4}}}
	b1 := &Block{ID: 1, Func: fn, Label: `$L"\x`, Pos: frontend.Pos{Line: 5},
		Term: Terminator{Kind: TermRet, Pos: frontend.Pos{Line: 7}}}
	b1.Instrs = []*Instr{{Pos: frontend.Pos{Line: 6}, Block: b1}}
	exit := &Block{ID: 2, Func: fn, Term: Terminator{Kind: TermNone}}
	b0.Succs, b1.Preds = []*Block{b1}, []*Block{b0}
	b1.Succs, exit.Preds = []*Block{exit}, []*Block{b1}
	fn.Blocks, fn.Exit = []*Block{b0, b1}, exit
	return fn
}

var dotString = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

func TestWriteDOTEscapes(t *testing.T) {
	var out strings.Builder
	require.NoError(t, WriteDOT(&out, oddFunction()))
	dot := out.String()
	require.True(t, strings.HasPrefix(dot, `digraph "k\"1\\" {`+"\n"), dot)
	require.Contains(t, dot, "\tb0 [label=\"b0\\nline 4\"];\n")
	require.Contains(t, dot, "\tb1 [label=\"b1 ($L\\\"\\\\x)\\nlines 6-7\"];\n")
	require.Contains(t, dot, "\texit [shape=doublecircle, label=\"exit\"];\n")
	require.Contains(t, dot, "\tb0 -> b1;\n")
	require.Contains(t, dot, "\tb1 -> exit;\n")
	require.True(t, strings.HasSuffix(dot, "}\n"))
	// Every quoted string in the output is well formed: with them taken out, no quote or
	// backslash is left over.
	for _, line := range strings.Split(strings.TrimSuffix(dot, "\n"), "\n") {
		for _, q := range dotString.FindAllString(line, -1) {
			dotUnquote(t, q)
		}
		rest := dotString.ReplaceAllString(line, "")
		require.NotContains(t, rest, `"`, "line %q", line)
		require.NotContains(t, rest, `\`, "line %q", line)
	}
	require.Equal(t, "b1 ($L\"\\x)\nlines 6-7", dotUnquote(t, `"b1 ($L\"\\x)\nlines 6-7"`))
}

func TestWriteDOTDeclaration(t *testing.T) {
	var out strings.Builder
	err := WriteDOT(&out, &Function{Name: "ext", Decl: true})
	require.ErrorContains(t, err, "ext is a declaration")
	require.Empty(t, out.String())
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteDOTWriteError(t *testing.T) {
	require.EqualError(t, WriteDOT(failWriter{}, oddFunction()), "disk full")
}

func TestWriteDOTBuilt(t *testing.T) {
	// A fall-through into a label, a divergent branch, and a label that nothing but the
	// fall-through reaches.
	const src = `.version 7.5
.target sm_80
.address_size 64
.visible .entry k(.param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	mov.u32 %r1, %tid.x;
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra DONE;
	add.s32 %r2, %r1, 1;
DONE:
	ret;
}
`
	m, err := frontend.ParseString("k.ptx", src)
	require.NoError(t, err)
	p, err := Build(m)
	require.NoError(t, err)
	fn := p.Func("k")
	var out strings.Builder
	require.NoError(t, WriteDOT(&out, fn))
	dot := out.String()

	entry := fn.Blocks[0]
	require.Equal(t, TermBranch, entry.Term.Kind)
	require.True(t, entry.Term.Divergent)
	taken, fall := entry.Succs[0], entry.Succs[1]
	require.Equal(t, "DONE", taken.Label)
	require.Contains(t, dot, "\tb0 [label=\"b0\\nlines 8-10\", color=\"red\", penwidth=2];\n")
	require.Contains(t, dot, "\tb0 -> "+dotID(taken)+" [label=\"taken\", style=bold, color=\"red\"];\n")
	require.Contains(t, dot, "\tb0 -> "+dotID(fall)+" [label=\"fallthrough\", style=bold, color=\"red\"];\n")
	require.Contains(t, dot, "\tb0 -> "+dotID(entry.Term.Reconv)+" [style=dashed, color=\"gray\", fontcolor=\"gray\", constraint=false, label=\"reconverge\"];\n")
	// The fall-through block's implicit jump sits at the DONE label's line; it is not counted.
	require.Contains(t, dot, "\t"+dotID(fall)+" [label=\""+dotID(fall)+"\\nline 11\"];\n")
	require.Contains(t, dot, "\t"+dotID(taken)+" [label=\""+dotID(taken)+" (DONE)\\nline 13\"];\n")
	require.Contains(t, dot, "\t"+dotID(taken)+" -> exit;\n")
}
