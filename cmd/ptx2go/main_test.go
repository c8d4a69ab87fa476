package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// runCLI runs the command line in-process and returns its exit status, stdout and stderr.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Independent counts for check's summary line, taken from the source text rather than the AST.
// Only definitions count: a header whose parameter lists reach a '{' before any ';' (a
// declaration or prototype ends in ';').
var (
	lineComment  = regexp.MustCompile(`//[^\n]*`)
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// A .pragma may sit between a header and its body; its ';' does not end the header.
	pragma = regexp.MustCompile(`\.pragma[^;]*;`)
	// A kernel definition: linkage directives, then .entry, at the start of a line.
	entryDef = regexp.MustCompile(`(?m)^[ \t]*(?:\.(?:visible|extern|weak|common)[ \t]+)*\.entry\b[^;{]*\{`)
	// A device function definition.
	funcDef = regexp.MustCompile(`(?m)^[ \t]*(?:\.(?:visible|extern|weak|common)[ \t]+)*\.func\b[^;{]*\{`)
)

func countBySource(t *testing.T, path string) (kernels, funcs int) {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	text := blockComment.ReplaceAllString(lineComment.ReplaceAllString(string(src), ""), "")
	text = pragma.ReplaceAllString(text, "")
	return len(entryDef.FindAllStringIndex(text, -1)), len(funcDef.FindAllStringIndex(text, -1))
}

// allPTX returns every .ptx file under testdata/ptx, in every subdirectory.
func allPTX(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../../testdata/ptx", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".ptx" {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

func corpus(t *testing.T) []string {
	t.Helper()
	var files []string
	// The compiler-emitted corpus: clang -O2 and -O0, and GCC's nvptx back end.
	for _, pattern := range []string{"../../testdata/ptx/*.ptx", "../../testdata/ptx/O0/*.ptx", "../../testdata/ptx/gcc/*.ptx"} {
		m, err := filepath.Glob(pattern)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	return files
}

func TestCheckVecadd(t *testing.T) {
	const path = "../../testdata/ptx/vecadd.ptx"
	kernels, funcs := countBySource(t, path)
	require.Equal(t, 1, kernels, "vecadd.ptx should hold one kernel")

	code, stdout, stderr := runCLI("check", path)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	require.Equal(t, fmt.Sprintf("%s: ok (%d kernels, %d functions)\n", path, kernels, funcs), stdout)
	require.Equal(t, "../../testdata/ptx/vecadd.ptx: ok (1 kernels, 0 functions)\n", stdout)
}

// GCC declares each kernel before defining it; the declarations are not kernels of their own.
func TestCheckCountsDefinitionsOnly(t *testing.T) {
	const path = "../../testdata/ptx/gcc/acc_vecadd.ptx"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	headers := regexp.MustCompile(`(?m)^\.entry `).FindAllIndex(src, -1)
	require.Len(t, headers, 6, "acc_vecadd.ptx declares and then defines each of its 3 kernels")
	kernels, funcs := countBySource(t, path)
	require.Equal(t, 3, kernels)

	code, stdout, stderr := runCLI("check", path)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Equal(t, fmt.Sprintf("%s: ok (3 kernels, %d functions)\n", path, funcs), stdout)
}

// Every file of the corpus, hand-written modules and seeds included, parses, lowers and
// verifies, and check's counts agree with the source text and with the SSA program.
func TestCheckCorpusCounts(t *testing.T) {
	files := allPTX(t)
	code, stdout, stderr := runCLI(append([]string{"check"}, files...)...)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Empty(t, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.Len(t, lines, len(files))
	for i, path := range files {
		kernels, funcs := countBySource(t, path)
		require.Equal(t, fmt.Sprintf("%s: ok (%d kernels, %d functions)", path, kernels, funcs), lines[i])

		p := buildProgram(t, path)
		var defKernels, defFuncs int
		for _, fn := range p.Funcs {
			switch {
			case fn.Decl:
			case fn.Kind == frontend.Entry:
				defKernels++
			default:
				defFuncs++
			}
		}
		require.Equal(t, [2]int{kernels, funcs}, [2]int{defKernels, defFuncs}, path)
	}
}

func TestCheckEachFile(t *testing.T) {
	for _, path := range allPTX(t) {
		t.Run(filepath.ToSlash(strings.TrimPrefix(path, "../../testdata/ptx/")), func(t *testing.T) {
			code, stdout, stderr := runCLI("check", path)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			require.Empty(t, stderr)
			require.Regexp(t, `^`+regexp.QuoteMeta(path)+`: ok \(\d+ kernels, \d+ functions\)\n$`, stdout)
		})
	}
}

// buildProgram parses and lowers path directly, without the command.
func buildProgram(t *testing.T, path string) *ssa.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := frontend.Parse(path, src)
	require.NoError(t, err)
	p, err := ssa.Build(m)
	require.NoError(t, err)
	return p
}

// loweringErrPTX parses but does not lower: an undeclared register and an undefined label.
const loweringErrPTX = `.version 7.5
.target sm_80
.address_size 64

.visible .entry k(.param .u32 n)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [n];
	add.s32 %r2, %r9, 1;
	bra NOWHERE;
}
`

func TestCheckLoweringErrors(t *testing.T) {
	path := writeTemp(t, "lower.ptx", loweringErrPTX)
	good := writeTemp(t, "good.ptx", goodPTX)
	code, stdout, stderr := runCLI("check", path, good)
	require.Equal(t, 1, code)
	require.Equal(t, good+": ok (1 kernels, 1 functions)\n", stdout, "the good file is still checked")

	// The errors, independently: ssa.Build's list, positioned in the source by hand.
	m, err := frontend.ParseString(path, loweringErrPTX)
	require.NoError(t, err)
	_, err = ssa.Build(m)
	list, ok := errors.AsType[ssa.ErrorList](err)
	require.True(t, ok, "Build error %v is not an ErrorList", err)
	require.Len(t, list, 2)
	lines := strings.Split(loweringErrPTX, "\n")
	var want strings.Builder
	for _, e := range list {
		require.Equal(t, path, e.Pos.File)
		fmt.Fprintf(&want, "%s:%d:%d: %s\n", path, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	require.Equal(t, want.String(), stderr)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:9:\d+: .*%r9`, stderr)
	require.Equal(t, "%r9", lines[8][list[0].Pos.Col-1:list[0].Pos.Col-1+3])
	require.Contains(t, stderr, fmt.Sprintf("%s:10:%d: ", path, strings.Index(lines[9], "NOWHERE")+1))
	require.Contains(t, stderr, "NOWHERE\n")
}

// writeTemp writes src to name in a fresh temporary directory and returns its path.
func writeTemp(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

const goodPTX = `.version 7.5
.target sm_80
.address_size 64

.func (.param .b32 rv) twice(.param .b32 x);

.func (.param .b32 rv) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [rv], %r2;
	ret;
}

.visible .entry k(.param .u32 n)
{
	ret;
}
`

// badLine lacks its ';': it is line 10 of badPTX.
const badLine = "\tld.param.u32 %r1, [n]"

const badPTX = `.version 7.5
.target sm_80
.address_size 64

.visible .entry k(
	.param .u32 n
)
{
	.reg .b32 %r<3>;
` + badLine + `
	add.s32 %r2, %r1, 1;
	ret;
}
`

func TestCheckCountsPrototypesApart(t *testing.T) {
	path := writeTemp(t, "good.ptx", goodPTX)
	code, stdout, stderr := runCLI("check", path)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Equal(t, path+": ok (1 kernels, 1 functions)\n", stdout)
}

func TestCheckSyntaxError(t *testing.T) {
	path := writeTemp(t, "bad.ptx", badPTX)
	code, stdout, stderr := runCLI("check", path)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	// The error points just past the operand list, where the ';' belongs.
	pos := fmt.Sprintf("%s:10:%d: ", path, len(badLine)+1)
	require.True(t, strings.HasPrefix(stderr, pos), "stderr %q should start with %q", stderr, pos)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:\d+:\d+: .*;`, stderr)
	caret := "\t" + strings.Repeat(" ", len(badLine)-1) + "^"
	require.Contains(t, stderr, "\n"+badLine+"\n"+caret+"\n")
}

func TestCheckMixedFiles(t *testing.T) {
	good := writeTemp(t, "good.ptx", goodPTX)
	bad := writeTemp(t, "bad.ptx", badPTX)
	missing := filepath.Join(t.TempDir(), "missing.ptx")
	code, stdout, stderr := runCLI("check", good, bad, missing)
	require.Equal(t, 1, code)
	require.Equal(t, good+": ok (1 kernels, 1 functions)\n", stdout)
	require.Contains(t, stderr, bad+":10:")
	require.Contains(t, stderr, missing+": cannot read: ")
	require.NotContains(t, stderr, "open "+missing, "the path should not be repeated")
}

func TestCheckUnreadable(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI("check", dir) // a directory reads as an error
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.True(t, strings.HasPrefix(stderr, dir+": cannot read: "), "stderr: %q", stderr)
}

func TestCheckUsage(t *testing.T) {
	code, stdout, stderr := runCLI("check")
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "no files given")
	require.Contains(t, stderr, "usage: ptx2go check")

	code, _, stderr = runCLI("check", "-bogus", "x.ptx")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "ptx2go check: flag provided but not defined: -bogus\n")
	require.Contains(t, stderr, "usage: ptx2go check")
}

func TestFmtRoundTrips(t *testing.T) {
	for _, path := range corpus(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			code, stdout, stderr := runCLI("fmt", path)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			require.Empty(t, stderr)
			require.NotEmpty(t, stdout)
			m, err := frontend.ParseString(path+" (fmt)", stdout)
			require.NoError(t, err, "fmt output:\n%s", stdout)
			require.Equal(t, stdout, frontend.Format(m))
		})
	}
}

func TestFmtErrors(t *testing.T) {
	path := writeTemp(t, "bad.ptx", badPTX)
	code, stdout, stderr := runCLI("fmt", path)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Regexp(t, `^`+regexp.QuoteMeta(path)+`:10:\d+: `, stderr)

	code, _, stderr = runCLI("fmt")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "usage: ptx2go fmt")

	code, _, stderr = runCLI("fmt", path, path)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "exactly one file")
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := runCLI("version")
	require.Equal(t, 0, code)
	require.Empty(t, stderr)
	info, ok := debug.ReadBuildInfo()
	want := fmt.Sprintf("ptx2go %s (%s)\n", moduleVersion(info, ok), runtime.Version())
	require.Equal(t, want, stdout)
	require.Regexp(t, `^ptx2go \S+ \(go1\.\d+`, stdout)

	code, _, stderr = runCLI("version", "extra")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "usage: ptx2go version")
}

func TestModuleVersion(t *testing.T) {
	withVersion := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/ptx2go/ptx2go", Version: v}}
	}
	require.Equal(t, version, moduleVersion(nil, false))
	require.Equal(t, version, moduleVersion(withVersion(""), true))
	require.Equal(t, version, moduleVersion(withVersion("(devel)"), true))
	require.Equal(t, "v0.2.0", moduleVersion(withVersion("v0.2.0"), true))
}

func TestHelpForEachVerb(t *testing.T) {
	require.NotEmpty(t, verbs)
	for _, v := range verbs {
		t.Run(v.name, func(t *testing.T) {
			require.NotEmpty(t, v.summary)
			require.True(t, strings.HasPrefix(v.usage, "usage: ptx2go "+v.name), "usage: %q", v.usage)
			require.Contains(t, v.usage, "\n\nExamples:\n  ptx2go ")
			require.True(t, strings.HasSuffix(v.usage, "\n"))

			code, stdout, stderr := runCLI("help", v.name)
			require.Equal(t, 0, code)
			require.Empty(t, stderr)
			require.Equal(t, v.usage, stdout)

			for _, flag := range []string{"-h", "-help", "--help"} {
				code, stdout, stderr = runCLI(v.name, flag)
				require.Equal(t, 0, code, flag)
				require.Empty(t, stderr, flag)
				require.Equal(t, v.usage, stdout, flag)
			}
		})
	}
}

func TestMainHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		code, stdout, stderr := runCLI(args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, stderr, args)
		require.Contains(t, stdout, "usage: ptx2go <command> [arguments]")
		require.Contains(t, stdout, "Examples:")
		for _, v := range verbs {
			require.Regexp(t, `(?m)^  `+v.name+` +`+regexp.QuoteMeta(v.summary)+`$`, stdout)
		}
	}

	// No command at all is a usage error, with the usage on stderr.
	code, stdout, stderr := runCLI()
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, "usage: ptx2go <command>")
}

func TestUnknownVerb(t *testing.T) {
	code, stdout, stderr := runCLI("frobnicate", "x.ptx")
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, `unknown command "frobnicate"`)
	for _, v := range verbs {
		require.Contains(t, stderr, "  "+v.name+" ")
	}

	code, stdout, stderr = runCLI("help", "frobnicate")
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, `unknown command "frobnicate"`)
	require.Contains(t, stderr, "  check ")

	code, _, stderr = runCLI("-bogus")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "ptx2go: flag provided but not defined: -bogus\n")
}
