package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

const vecaddPath = "../../testdata/ptx/vecadd.ptx"

// A file with several device functions and a kernel.
const multiPath = "../../testdata/ptx/hand/calltargets.ptx"

func TestSSAAll(t *testing.T) {
	p := buildProgram(t, multiPath)
	require.Greater(t, len(p.Funcs), 1)
	code, stdout, stderr := runCLI("ssa", multiPath)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Equal(t, p.String(), stdout)
	for _, fn := range p.Funcs {
		require.Regexp(t, `(?m)^\.(entry|func) (\(.*\) )?`+regexp.QuoteMeta(fn.Name)+`\(`, stdout)
	}
}

func TestSSAFuncSelects(t *testing.T) {
	p := buildProgram(t, multiPath)
	for _, fn := range p.Funcs {
		for _, args := range [][]string{
			{"ssa", multiPath, "-func", fn.Name},
			{"ssa", "-func", fn.Name, multiPath},
			{"ssa", "-func=" + fn.Name, multiPath},
		} {
			code, stdout, stderr := runCLI(args...)
			require.Equal(t, 0, code, "%v: stderr: %s", args, stderr)
			require.Empty(t, stderr)
			require.Equal(t, fn.String(), stdout, "%v", args)
			for _, other := range p.Funcs {
				if other != fn {
					require.NotRegexp(t, `(?m)^\.(entry|func) (\(.*\) )?`+regexp.QuoteMeta(other.Name)+`\(`, stdout)
				}
			}
		}
	}

	// vecadd's IR shows the divergent branch and where it reconverges.
	code, stdout, _ := runCLI("ssa", vecaddPath, "-func", "vecadd")
	require.Equal(t, 0, code)
	require.Regexp(t, `(?m)^\tbranch .*; divergent, reconverge b\d+`, stdout)
}

func TestSSAUnknownFunc(t *testing.T) {
	p := buildProgram(t, multiPath)
	code, stdout, stderr := runCLI("ssa", multiPath, "-func", "nosuch")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, `ptx2go ssa: `+multiPath+` has no function "nosuch"`)
	names := make([]string, len(p.Funcs))
	for i, fn := range p.Funcs {
		names[i] = fn.Name
	}
	require.True(t, strings.HasSuffix(stderr, ": "+strings.Join(names, ", ")+"\n"), "stderr: %q", stderr)
}

func TestSSAErrors(t *testing.T) {
	code, stdout, stderr := runCLI("ssa")
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "usage: ptx2go ssa")

	code, _, stderr = runCLI("ssa", vecaddPath, vecaddPath)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "exactly one file")

	code, _, stderr = runCLI("ssa", vecaddPath, "-bogus")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "ptx2go ssa: flag provided but not defined: -bogus\n")

	code, _, stderr = runCLI("ssa", vecaddPath, "-func")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "flag needs an argument: -func")

	path := writeTemp(t, "lower.ptx", loweringErrPTX)
	code, stdout, stderr = runCLI("ssa", path)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:9:\d+: `, stderr)

	path = writeTemp(t, "bad.ptx", badPTX)
	code, stdout, stderr = runCLI("ssa", path)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:10:\d+: `, stderr)

	// After "--" everything is a file, even what looks like a flag.
	code, _, stderr = runCLI("ssa", "--", "-func")
	require.Equal(t, 1, code)
	require.Equal(t, "-func: cannot read: no such file or directory\n", stderr)
}

// A DOT graph as cfg writes it, parsed back: one statement a line.
type dotGraph struct {
	name  string
	nodes map[string]map[string]string // node ID -> attributes
	order []string                     // node IDs in order
	edges []dotEdge                    // in order
}

type dotEdge struct {
	from, to string
	attrs    map[string]string
}

var (
	dotHeader = regexp.MustCompile(`^digraph ("(?:[^"\\]|\\.)*") \{$`)
	dotNode   = regexp.MustCompile(`^\t(\w+) \[(.*)\];$`)
	dotEdgeRE = regexp.MustCompile(`^\t(\w+) -> (\w+)(?: \[(.*)\])?;$`)
	dotAttr   = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|[^",\s]+)(?:, |$)`)
	// A block label's second line: the PTX source lines of its code.
	lineRange = regexp.MustCompile(`^(?:no code|line (\d+)|lines (\d+)-(\d+))$`)
)

func unquoteDOT(t *testing.T, s string) string {
	t.Helper()
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	var b strings.Builder
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' {
			i++
			require.Less(t, i, len(body))
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case '\\', '"':
				b.WriteByte(body[i])
			default:
				t.Fatalf("unexpected escape in %s", s)
			}
			continue
		}
		b.WriteByte(body[i])
	}
	return b.String()
}

func parseAttrs(t *testing.T, s string) map[string]string {
	t.Helper()
	attrs := map[string]string{}
	rest := s
	for rest != "" {
		m := dotAttr.FindStringSubmatchIndex(rest)
		require.NotNil(t, m, "attributes %q", s)
		require.Zero(t, m[0], "attributes %q", s)
		attrs[rest[m[2]:m[3]]] = unquoteDOT(t, rest[m[4]:m[5]])
		rest = rest[m[1]:]
	}
	return attrs
}

func parseDOT(t *testing.T, text string) *dotGraph {
	t.Helper()
	require.True(t, strings.HasSuffix(text, "\n}\n"), "graph does not end in }: %q", text)
	lines := strings.Split(strings.TrimSuffix(text, "\n}\n"), "\n")
	h := dotHeader.FindStringSubmatch(lines[0])
	require.NotNil(t, h, "header %q", lines[0])
	g := &dotGraph{name: unquoteDOT(t, h[1]), nodes: map[string]map[string]string{}}
	for _, line := range lines[1:] {
		if strings.HasPrefix(line, "\tnode [") || strings.HasPrefix(line, "\tedge [") {
			continue // defaults
		}
		if m := dotEdgeRE.FindStringSubmatch(line); m != nil {
			g.edges = append(g.edges, dotEdge{from: m[1], to: m[2], attrs: parseAttrs(t, m[3])})
			continue
		}
		m := dotNode.FindStringSubmatch(line)
		require.NotNil(t, m, "unexpected line %q", line)
		require.NotContains(t, g.nodes, m[1], "node %s twice", m[1])
		g.nodes[m[1]] = parseAttrs(t, m[2])
		g.order = append(g.order, m[1])
	}
	return g
}

func nodeID(b *ssa.Block) string {
	if b == b.Func.Exit {
		return "exit"
	}
	return "b" + strconv.Itoa(b.ID)
}

// checkCFG compares a parsed graph with the function's blocks, successors and reconvergence
// points as ssa.Build computed them.
func checkCFG(t *testing.T, fn *ssa.Function, g *dotGraph) {
	t.Helper()
	require.Equal(t, fn.Name, g.name)
	var want []string
	for _, b := range fn.Blocks {
		want = append(want, nodeID(b))
	}
	want = append(want, "exit")
	require.Equal(t, want, g.order, "one node per block and the exit")

	require.Equal(t, "doublecircle", g.nodes["exit"]["shape"])
	require.Equal(t, "exit", g.nodes["exit"]["label"])

	var solid, reconv []dotEdge
	for _, e := range g.edges {
		if e.attrs["style"] == "dashed" {
			reconv = append(reconv, e)
		} else {
			solid = append(solid, e)
		}
	}
	si, ri := 0, 0
	for _, b := range fn.Blocks {
		id := nodeID(b)
		attrs := g.nodes[id]
		title, lines, ok := strings.Cut(attrs["label"], "\n")
		require.True(t, ok, "label %q", attrs["label"])
		wantTitle := id
		if b.Label != "" {
			wantTitle += " (" + b.Label + ")"
		}
		require.Equal(t, wantTitle, title)
		m := lineRange.FindStringSubmatch(lines)
		require.NotNil(t, m, "line range %q", lines)
		if len(b.Instrs) > 0 {
			lo, hi := int32(1<<30), int32(0)
			for _, in := range b.Instrs {
				lo, hi = min(lo, in.Pos.Line), max(hi, in.Pos.Line)
			}
			require.NotEqual(t, "no code", lines, id)
			first, last := m[1], m[1]
			if m[2] != "" {
				first, last = m[2], m[3]
			}
			f, _ := strconv.Atoi(first)
			l, _ := strconv.Atoi(last)
			require.LessOrEqual(t, int32(f), lo, id)
			require.GreaterOrEqual(t, int32(l), hi, id)
		}
		if b.Term.Divergent {
			require.Equal(t, "red", attrs["color"], id)
		} else {
			require.NotContains(t, attrs, "color", id)
		}

		for i, s := range b.Succs {
			require.Less(t, si, len(solid), "missing edges from %s", id)
			e := solid[si]
			si++
			require.Equal(t, [2]string{id, nodeID(s)}, [2]string{e.from, e.to}, "edge %d of %s", i, id)
			switch b.Term.Kind {
			case ssa.TermBranch:
				require.Equal(t, []string{"taken", "fallthrough"}[i], e.attrs["label"])
			case ssa.TermBrx:
				var idx []string
				for j, target := range b.Term.Table {
					if target == s {
						idx = append(idx, strconv.Itoa(j))
					}
				}
				require.Equal(t, strings.Join(idx, ", "), e.attrs["label"])
			}
			if b.Term.Divergent {
				require.Equal(t, "bold", e.attrs["style"])
			} else {
				require.NotContains(t, e.attrs, "style")
			}
		}
		if b.Term.Reconv != nil {
			require.Less(t, ri, len(reconv), "missing reconverge edge from %s", id)
			e := reconv[ri]
			ri++
			require.Equal(t, [2]string{id, nodeID(b.Term.Reconv)}, [2]string{e.from, e.to})
			require.Equal(t, "reconverge", e.attrs["label"])
			require.Equal(t, "gray", e.attrs["color"])
		}
	}
	require.Len(t, solid, si, "extra edges")
	require.Len(t, reconv, ri, "extra reconverge edges")
}

func TestCFGVecadd(t *testing.T) {
	fn := buildProgram(t, vecaddPath).Func("vecadd")
	require.NotNil(t, fn)
	code, stdout, stderr := runCLI("cfg", vecaddPath, "-func", "vecadd")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	g := parseDOT(t, stdout)
	checkCFG(t, fn, g)

	// vecadd's entry block ends in the bounds check, a divergent branch: lanes past n skip the
	// body and meet the others again at the ret.
	entry := fn.Blocks[0]
	require.Equal(t, ssa.TermBranch, entry.Term.Kind)
	require.True(t, entry.Term.Divergent)
	require.NotNil(t, entry.Term.Reconv)
	reconv := nodeID(entry.Term.Reconv)
	require.Equal(t, "red", g.nodes["b0"]["color"])
	var found bool
	for _, e := range g.edges {
		if e.from == "b0" && e.to == reconv && e.attrs["style"] == "dashed" {
			require.Equal(t, "reconverge", e.attrs["label"])
			found = true
		}
	}
	require.True(t, found, "no dashed reconverge edge b0 -> %s in\n%s", reconv, stdout)
	require.Contains(t, g.nodes[reconv]["label"], "($L__BB0_2)")

	// Flags before the file, and -o.
	out := filepath.Join(t.TempDir(), "vecadd.dot")
	code, stdout2, stderr := runCLI("cfg", "-func", "vecadd", "-format", "dot", "-o", out, vecaddPath)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stdout2)
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, stdout, string(written))
}

// Every defined function of the corpus draws a graph that matches its blocks.
//
// The command runs once per file and kind of function: on the file's first defined kernel and
// its first defined device function, where it must print exactly ssa.WriteDOT's graph of that
// function. Every other function's graph is drawn in-process with ssa.WriteDOT, which is all
// the command does once it has lowered the file: running the command per function re-parsed
// and re-lowered the whole file each time, quadratic in the size of conf/forms.ptx and its 1101
// kernels (more than 7 minutes on a busy 2-core machine).
func TestCFGCorpus(t *testing.T) {
	var brx, divergent int
	for _, path := range allPTX(t) {
		p := buildProgram(t, path)
		var kernel, device bool // whether the command has run on a kernel, a device function
		for _, fn := range p.Funcs {
			if fn.Decl {
				continue
			}
			cli := false
			if fn.Kind == frontend.Entry && !kernel {
				cli, kernel = true, true
			} else if fn.Kind != frontend.Entry && !device {
				cli, device = true, true
			}
			t.Run(filepath.Base(path)+"/"+fn.Name, func(t *testing.T) {
				var dot strings.Builder
				require.NoError(t, ssa.WriteDOT(&dot, fn))
				if cli {
					code, stdout, stderr := runCLI("cfg", path, "-func", fn.Name)
					require.Equal(t, 0, code, "stderr: %s", stderr)
					require.Empty(t, stderr)
					require.Equal(t, dot.String(), stdout, "the command's graph is WriteDOT's")
				}
				checkCFG(t, fn, parseDOT(t, dot.String()))
			})
			for _, b := range fn.Blocks {
				if b.Term.Kind == ssa.TermBrx {
					brx++
				}
				if b.Term.Divergent {
					divergent++
				}
			}
		}
		require.True(t, kernel || device, "%s defines no function: the command has not run on it", path)
	}
	require.NotZero(t, brx, "the corpus should exercise brx.idx edges")
	require.NotZero(t, divergent, "the corpus should exercise divergent branches")
}

func TestCFGErrors(t *testing.T) {
	code, stdout, stderr := runCLI("cfg", vecaddPath)
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "-func is required; "+vecaddPath+" defines: vecadd\n")
	require.Contains(t, stderr, "usage: ptx2go cfg")

	p := buildProgram(t, multiPath)
	var names []string
	for _, fn := range p.Funcs {
		names = append(names, fn.Name)
	}
	code, stdout, stderr = runCLI("cfg", multiPath, "-func", "nosuch")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "ptx2go cfg: "+multiPath+` has no function "nosuch"; it defines: `+strings.Join(names, ", ")+"\n", stderr)

	code, _, stderr = runCLI("cfg", vecaddPath, "-func", "vecadd", "-format", "png")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unknown -format "png"`)

	code, _, stderr = runCLI("cfg")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "no file given")

	// A function that is only declared has no graph.
	path := writeTemp(t, "decl.ptx", `.version 7.5
.target sm_80
.address_size 64
.extern .func ext (.param .u32 x);
.visible .entry k()
{
	ret;
}
`)
	code, stdout, stderr = runCLI("cfg", path, "-func", "ext")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "ptx2go cfg: "+path+" only declares ext, which has no body; it defines: k\n", stderr)

	path = writeTemp(t, "lower.ptx", loweringErrPTX)
	code, stdout, stderr = runCLI("cfg", path, "-func", "k")
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:9:\d+: `, stderr)
}

func TestCFGSVGWithoutDot(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // an empty directory: no dot
	out := filepath.Join(t.TempDir(), "g.svg")
	code, stdout, stderr := runCLI("cfg", vecaddPath, "-func", "vecadd", "-format", "svg", "-o", out)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, "ptx2go cfg: -format svg needs Graphviz's dot on PATH; use -format dot\n", stderr)
	require.NoFileExists(t, out)
}

// fakeDot puts a script called dot first on PATH that runs body with the graph on its standard
// input.
func fakeDot(t *testing.T, body string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs a shell script")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dot"), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestCFGSVGPipesThroughDot(t *testing.T) {
	_, want, _ := runCLI("cfg", vecaddPath, "-func", "vecadd")
	fakeDot(t, `[ "$1" = -Tsvg ] || exit 3; echo "<svg>"; cat; echo "</svg>"`)

	code, stdout, stderr := runCLI("cfg", vecaddPath, "-func", "vecadd", "-format", "svg")
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Equal(t, "<svg>\n"+want+"</svg>\n", stdout)

	out := filepath.Join(t.TempDir(), "g.svg")
	code, stdout, stderr = runCLI("cfg", vecaddPath, "-func", "vecadd", "-format", "svg", "-o", out)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stdout)
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "<svg>\n"+want+"</svg>\n", string(written))
}

func TestCFGSVGDotFails(t *testing.T) {
	fakeDot(t, `echo "syntax error in line 1" >&2; exit 1`)
	out := filepath.Join(t.TempDir(), "g.svg")
	code, stdout, stderr := runCLI("cfg", vecaddPath, "-func", "vecadd", "-format", "svg", "-o", out)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^ptx2go cfg: .*dot -Tsvg: exit status 1: syntax error in line 1\n$`, stderr)
	require.NoFileExists(t, out)
}
