package layout_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ptx2go/ptx2go/codegen/closure"
	"github.com/ptx2go/ptx2go/codegen/gosrc"
	"github.com/ptx2go/ptx2go/codegen/layout"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The table of instruction forms against both back ends: TestFormTable builds instructions
// from every row of layout.FormRows (the row's type and modifier combinations, or its
// examples) and from their near misses (one modifier more, one type changed), and requires
// codegen/closure and codegen/gosrc to accept exactly the ones layout.CheckForm accepts and to
// reject the others with its error.

// formsHeader and formsDecls open the kernel the instructions are compiled in; the first
// instruction is on line formsFirstLine.
const (
	formsHeader = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
	formsDecls  = ".reg .pred %p<4>;\n.reg .b8 %c<4>;\n.reg .b16 %h<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .b128 %q<4>;\n" +
		".reg .f32 %f<4>;\n.reg .f64 %fd<4>;\nld.param.u64 %rd0, [p];\n"
	formsFirstLine = 15
)

// formReg names a register of a type's width.
func formReg(t frontend.Type, i int) string {
	if t == frontend.Pred {
		return fmt.Sprintf("%%p%d", i)
	}
	switch t.Bits() {
	case 8:
		return fmt.Sprintf("%%c%d", i)
	case 16:
		return fmt.Sprintf("%%h%d", i)
	case 32:
		return fmt.Sprintf("%%r%d", i)
	case 64:
		return fmt.Sprintf("%%rd%d", i)
	case 128:
		return fmt.Sprintf("%%q%d", i)
	}
	return "%bad"
}

// formPlaceholder is an operand placeholder of FormRow.Operands and Examples.
var formPlaceholder = regexp.MustCompile(`%([0-2])([wv]?)|%(pred|b8|b16|b32|b64|b128|u32|f32|f64)\b|\[a\]`)

// expandOperands writes a row's operands for an instruction with the given types and vector
// length.
func expandOperands(ops string, types []frontend.Type, vec int) string {
	i := 0
	return formPlaceholder.ReplaceAllStringFunc(ops, func(p string) string {
		i = i%3 + 1
		if p == "[a]" {
			return "[%rd0]"
		}
		m := formPlaceholder.FindStringSubmatch(p)
		if m[3] != "" {
			t, _ := frontend.LookupType("." + m[3])
			return formReg(t, i)
		}
		k, _ := strconv.Atoi(m[1])
		if k >= len(types) {
			return "%bad"
		}
		t := types[k]
		switch m[2] {
		case "w":
			w := frontend.B32
			if t.Bits() == 32 {
				w = frontend.B64
			}
			return formReg(w, i)
		case "v":
			if vec > 0 {
				regs := make([]string, vec)
				for j := range regs {
					regs[j] = formReg(t, j%3+1)
				}
				return "{" + strings.Join(regs, ", ") + "}"
			}
		}
		return formReg(t, i)
	})
}

// formInstr is one instruction to compile: its text and where it comes from.
type formInstr struct {
	text, from string
}

// rowInstrs builds the instructions of a row: every combination of its types and modifier
// groups when there are few, else each type and modifier once and a sample of combinations.
func rowInstrs(r *layout.FormRow, rng *rand.Rand, full int) []formInstr {
	from := fmt.Sprintf("row %v", r.Ops)
	if r.AnyMods {
		var out []formInstr
		for _, e := range r.Examples {
			out = append(out, formInstr{expandOperands(e, nil, 0), from})
		}
		return out
	}
	type choice struct {
		types []frontend.Type
		mods  []frontend.Mod
	}
	// dims are the choices of each type position and modifier group.
	var dims [][]any
	for _, ts := range r.Types {
		var d []any
		for _, t := range ts {
			d = append(d, t)
		}
		dims = append(dims, d)
	}
	for _, g := range r.Mods {
		var d []any
		if !g.Need {
			d = append(d, frontend.Mod(0))
		}
		for _, m := range g.Mods {
			d = append(d, m)
		}
		dims = append(dims, d)
	}
	build := func(pick []int) choice {
		var c choice
		for i, d := range dims {
			switch x := d[pick[i]].(type) {
			case frontend.Type:
				c.types = append(c.types, x)
			case frontend.Mod:
				if x != 0 {
					c.mods = append(c.mods, x)
				}
			}
		}
		return c
	}
	total := 1
	for _, d := range dims {
		total *= len(d)
		if total > full {
			break
		}
	}
	var picks [][]int
	if total <= full {
		pick := make([]int, len(dims))
		for {
			picks = append(picks, slices.Clone(pick))
			i := 0
			for ; i < len(dims); i++ {
				if pick[i]++; pick[i] < len(dims[i]) {
					break
				}
				pick[i] = 0
			}
			if i == len(dims) {
				break
			}
		}
	} else {
		base := make([]int, len(dims))
		for i, d := range dims {
			for j := range d {
				pick := slices.Clone(base)
				pick[i] = j
				picks = append(picks, pick)
			}
		}
		for range full {
			pick := make([]int, len(dims))
			for i, d := range dims {
				pick[i] = rng.IntN(len(d))
			}
			picks = append(picks, pick)
		}
	}
	var out []formInstr
	for _, p := range picks {
		c := build(p)
		out = append(out, formInstr{spell(r.Ops[0], c.mods, c.types, r.Operands), from})
		for _, op := range r.Ops[1:] {
			out = append(out, formInstr{spell(op, c.mods, c.types, r.Operands), from})
		}
	}
	return out
}

// spell writes an instruction: the opcode, the modifiers, the types, the operands.
func spell(op frontend.Opcode, mods []frontend.Mod, types []frontend.Type, operands string) string {
	var b strings.Builder
	b.WriteString(op.String())
	vec := 0
	for _, m := range mods {
		b.WriteString(m.String())
		switch m {
		case frontend.ModV2:
			vec = 2
		case frontend.ModV4:
			vec = 4
		case frontend.ModV8:
			vec = 8
		}
	}
	for _, t := range types {
		b.WriteString(t.String())
	}
	if operands != "" {
		b.WriteString(" " + expandOperands(operands, types, vec))
	}
	return b.String()
}

// nearMisses changes the first instruction of a row: one more modifier of any kind, or one
// type changed to any other.
func nearMisses(r *layout.FormRow, probes []frontend.Mod) []formInstr {
	if r.AnyMods || len(r.Ops) == 0 {
		return nil
	}
	var types []frontend.Type
	for _, ts := range r.Types {
		types = append(types, ts[0])
	}
	var mods []frontend.Mod
	for _, g := range r.Mods {
		if g.Need {
			mods = append(mods, g.Mods[0])
		}
	}
	from := fmt.Sprintf("near miss of row %v", r.Ops)
	var out []formInstr
	for _, p := range probes {
		if !slices.Contains(mods, p) {
			out = append(out, formInstr{spell(r.Ops[0], append(slices.Clone(mods), p), types, r.Operands), from})
		}
	}
	for i := range types {
		for t := frontend.Pred; t < frontend.TexRef; t++ {
			if t != types[i] {
				ts := slices.Clone(types)
				ts[i] = t
				out = append(out, formInstr{spell(r.Ops[0], mods, ts, r.Operands), from})
			}
		}
	}
	return out
}

// operandMisses changes one register operand of an instruction: to a sink, an integer or
// floating-point immediate, or a special register.
func operandMisses(in formInstr) []formInstr {
	var out []formInstr
	for _, loc := range formRegister.FindAllStringIndex(in.text, -1) {
		for _, x := range []string{"_", "1", "0f3F800000", "%tid.x", "%laneid", "%total_smem_size", "%envreg40", "%pm3"} {
			out = append(out, formInstr{in.text[:loc[0]] + x + in.text[loc[1]:], "operand of " + in.from})
		}
	}
	return out
}

// formRegister is a register operand as expandOperands writes it.
var formRegister = regexp.MustCompile(`%(p|c|h|r|rd|q)[0-9]\b`)

// formProbes are the modifiers the near misses add: every one the front end knows but the
// matrix shapes.
func formProbes() []frontend.Mod {
	var out []frontend.Mod
	for m := frontend.Mod(1); m < 1000; m++ {
		if strings.HasPrefix(m.String(), ".?") {
			continue
		}
		if _, isType := m.Type(); isType || m.Kind() == frontend.ModKindShape {
			continue
		}
		out = append(out, m)
	}
	return out
}

// kernel is a kernel running the instructions, one a line from formsFirstLine.
func kernel(instrs []formInstr) string {
	var b strings.Builder
	b.WriteString(formsHeader + formsDecls)
	for _, in := range instrs {
		b.WriteString(in.text + ";\n")
	}
	b.WriteString("ret;\n}\n")
	return b.String()
}

// build parses and builds a kernel.
func build(src string) (*ssa.Program, error) {
	m, err := frontend.Parse("forms.ptx", []byte(src))
	if err != nil {
		return nil, err
	}
	return ssa.Build(m)
}

// instrAt returns the instruction of p's kernel on line.
func instrAt(p *ssa.Program, line int) *ssa.Instr {
	for _, b := range p.Funcs[0].Blocks {
		for _, in := range b.Instrs {
			if int(in.Pos.Line) == line {
				return in
			}
		}
	}
	return nil
}

// errorsOf returns the errors of a back end as the ssa.Error list both return.
func errorsOf(t *testing.T, err error) ssa.ErrorList {
	t.Helper()
	if err == nil {
		return nil
	}
	var l ssa.ErrorList
	if errors.As(err, &l) {
		return l
	}
	var g gosrc.ErrorList
	if errors.As(err, &g) {
		return ssa.ErrorList(g)
	}
	t.Fatalf("error of another type: %v", err)
	return nil
}

func TestFormTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	full, probes := 400, formProbes()
	if testing.Short() {
		full = 40
	}
	var cands []formInstr
	rowsWithout := map[*layout.FormRow]bool{}
	rowOf := map[string]*layout.FormRow{}
	for _, r := range layout.FormRows() {
		rowsWithout[r] = true
		instrs := rowInstrs(r, rng, full)
		for _, in := range instrs {
			cands = append(cands, in)
			rowOf[in.text] = r
		}
		if !testing.Short() {
			cands = append(cands, nearMisses(r, probes)...)
			for i, in := range instrs {
				if i < 8 || r.AnyMods {
					cands = append(cands, operandMisses(in)...)
				}
			}
		}
	}
	// Keep the instructions the verifier takes, each once, with the table's verdict.
	seen := map[string]bool{}
	var uniq []formInstr
	for _, c := range cands {
		if !seen[c.text] {
			seen[c.text] = true
			uniq = append(uniq, c)
		}
	}
	const invalid = "invalid"
	verdicts := make([]*ssa.Error, len(uniq))
	valid := make([]bool, len(uniq))
	parallel(len(uniq), func(i int) {
		p, err := build(kernel(uniq[i : i+1]))
		if err != nil {
			return
		}
		in := instrAt(p, formsFirstLine)
		if in == nil {
			t.Errorf("%s: no instruction on line %d", uniq[i].text, formsFirstLine)
			return
		}
		valid[i], verdicts[i] = true, layout.CheckForm(in)
	})
	var accepted, rejected []formInstr
	var verdict []*ssa.Error
	for i, c := range uniq {
		switch {
		case !valid[i]:
		case verdicts[i] != nil:
			rejected = append(rejected, c)
			verdict = append(verdict, verdicts[i])
		default:
			accepted = append(accepted, c)
			delete(rowsWithout, rowOf[c.text])
		}
	}
	for r := range rowsWithout {
		t.Errorf("row %v %v: no instruction built from it is accepted", r.Ops, r.Types)
	}
	t.Logf("%d rows, %d instructions: %d accepted, %d rejected, %d not valid PTX", len(layout.FormRows()), len(uniq), len(accepted), len(rejected), len(uniq)-len(accepted)-len(rejected))

	// The accepted ones compile through both back ends, many to a kernel.
	const batch = 250
	parallel((len(accepted)+batch-1)/batch, func(i int) {
		compileAccepted(t, accepted[i*batch:min(i*batch+batch, len(accepted))])
	})
	// The rejected ones fail in both with the table's error.
	parallel((len(rejected)+batch-1)/batch, func(i int) {
		part, want := rejected[i*batch:min(i*batch+batch, len(rejected))], verdict[i*batch:min(i*batch+batch, len(rejected))]
		p, err := build(kernel(part))
		if err != nil {
			t.Errorf("batch of rejected forms does not build: %v", err)
			return
		}
		for j, e := range want {
			e.Pos.Line = int32(formsFirstLine + j)
		}
		_, cerr := closure.Compile(p)
		p2, _ := build(kernel(part))
		_, gerr := gosrc.Generate(p2, gosrc.Options{})
		for name, err := range map[string]error{"closure": cerr, "gosrc": gerr} {
			got := errorsOf(t, err)
			if len(got) != len(want) {
				t.Errorf("%s: %d errors for %d rejected forms", name, len(got), len(want))
				continue
			}
			for j := range got {
				g, w := got[j], want[j]
				if g.Pos.Line != w.Pos.Line || g.Msg != w.Msg || g.Unsupported != w.Unsupported {
					t.Errorf("%s: %s: got %v, want %v", name, part[j].text, g, w)
				}
			}
		}
	})
}

// parallel runs f(0), ..., f(n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// compileAccepted compiles instructions the table accepts through both back ends, which
// must accept them; a batch that fails is compiled one by one to name the instructions.
func compileAccepted(t *testing.T, instrs []formInstr) {
	t.Helper()
	p, err := build(kernel(instrs))
	if err != nil {
		t.Errorf("batch of accepted forms does not build: %v", err)
		return
	}
	_, cerr := closure.Compile(p)
	p2, _ := build(kernel(instrs))
	_, gerr := gosrc.Generate(p2, gosrc.Options{})
	if cerr == nil && gerr == nil {
		return
	}
	if len(instrs) > 1 {
		for _, in := range instrs {
			compileAccepted(t, []formInstr{in})
		}
		return
	}
	if cerr != nil {
		t.Errorf("closure rejects %s (%s), which the table accepts: %v", instrs[0].text, instrs[0].from, cerr)
	}
	if gerr != nil {
		t.Errorf("gosrc rejects %s (%s), which the table accepts: %v", instrs[0].text, instrs[0].from, gerr)
	}
}
