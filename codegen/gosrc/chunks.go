package gosrc

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Chunked lane loops. A lane loop runs all its instructions for one lane before the next
// lane, which keeps a lane's values in Go locals; but where one floating-point operation
// feeds the next (a dot product's chain of FMAs), each lane's pass waits on the whole chain
// and the CPU overlaps little of consecutive lanes. For a full warp, fullWarp therefore cuts
// the loop right after each floating-point instruction a later one in the same loop depends
// on: every chunk is a loop over the 32 lanes, and values a later chunk reads pass through
// one array per value. Any such cut is invisible: the segment may already run lane by lane
// (it holds no store after a load, lanemem.go), and a chunk of instructions run lane by
// lane is as good.
//
// A slow path (a load outside the cached window, an fma that needs exact rounding) is a call,
// and a call in a loop makes the Go compiler keep the loop's values on the stack. So a chunk
// that neither stores, writes the register file nor counts statistics lane by lane, and may
// therefore run twice for a lane, first runs for all lanes with each slow path replaced by
// noting the lane and going on with the next; then the noted lanes run the chunk again with
// the slow paths.

// chunks returns the index of the first group of each chunk. A chunk ends right after the
// floating-point instruction a later one in it would depend on, so that the loads feeding
// the later one stay in its chunk.
func (s *segment) chunks() []int {
	starts := []int{0}
	for g := 1; g < len(s.groups); g++ {
		if !s.float[g] {
			continue
		}
		cut := -1
		for n := range s.uses[g] {
			if d := s.defs[n]; d >= starts[len(starts)-1] && s.float[d] {
				cut = max(cut, d+1)
			}
		}
		if cut >= 0 {
			starts = append(starts, cut)
		}
	}
	return starts
}

// slowPath is the code of a slow path in a lane loop: stmt holds it, or, while the fast
// pass of its chunk is rendered (fastPass), the statements that skip the lane.
type slowPath struct {
	group int
	stmt  *jen.Statement
	code  []jen.Code
}

// slowPath returns the statement running code, the slow path of the group being generated.
func (s *segment) slowPath(code ...jen.Code) jen.Code {
	st := jen.Block(code...)
	s.slows = append(s.slows, slowPath{s.cur, st, code})
	return st
}

// slowPath is segment.slowPath for an instruction in a lane loop, and the plain block of code
// elsewhere.
func (c ctx) slowPath(code ...jen.Code) jen.Code {
	if s := c.e.seg; s != nil && !c.scalar && !c.e.lane {
		return s.slowPath(code...)
	}
	return jen.Block(code...)
}

// fastPass is a chunk's loop over the lanes without its slow paths (slows), rendered into
// target when the file is (gen.render): with the slow paths' statements then replaced, the
// same statements give the loop that runs them.
type fastPass struct {
	target *jen.Statement
	loop   *jen.Statement
	slows  []slowPath
}

// renderFastPasses fills in the fast passes as source text rendered with the file's imports.
func (g *gen) renderFastPasses(file *jen.File) error {
	for _, fp := range g.fastPasses {
		for _, sp := range fp.slows {
			*sp.stmt = *jen.Block(jen.Id("slow").Op("|=").Lit(1).Op("<<").Id("l"), jen.Continue())
		}
		var buf bytes.Buffer
		err := fp.loop.RenderWithFile(&buf, file)
		for _, sp := range fp.slows {
			*sp.stmt = *jen.Block(sp.code...)
		}
		if err != nil {
			return fmt.Errorf("rendering a fast pass: %v", err)
		}
		fp.target.Add(jen.Op(buf.String()))
	}
	return nil
}

// fullWarp returns the loop (or loops) of the segment for a full warp.
func (s *segment) fullWarp(g *gen) jen.Code {
	starts := s.chunks()
	if len(starts) == 1 {
		return jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(s.body...)
	}
	chunkOf := func(g int) int {
		i, found := slices.BinarySearch(starts, g)
		if !found {
			i--
		}
		return i
	}
	// The locals read in a later chunk than their definition's: each gets an array,
	// stored at the end of the defining chunk and read at the start of the reading one.
	reads := make([][]string, len(starts))
	stored := make([][]string, len(starts))
	crossing := map[string]bool{}
	for g, uses := range s.uses {
		for _, n := range sortedKeys(uses) {
			d := s.defs[n]
			if chunkOf(d) == chunkOf(g) {
				continue
			}
			c := chunkOf(g)
			if !slices.Contains(reads[c], n) {
				reads[c] = append(reads[c], n)
			}
			if !crossing[n] {
				crossing[n] = true
				stored[chunkOf(d)] = append(stored[chunkOf(d)], n)
			}
		}
	}
	var out []jen.Code
	for _, n := range sortedKeys(crossing) {
		t := jen.Uint64()
		switch {
		case strings.HasPrefix(n, "c"):
			t = jen.Bool()
		case strings.HasSuffix(n, "F"):
			t = jen.Float32()
		}
		out = append(out, jen.Var().Id(chunkArray(n)).Index(jen.Lit(32)).Add(t))
	}
	for c, start := range starts {
		end := len(s.groups)
		if c+1 < len(starts) {
			end = starts[c+1]
		}
		var body []jen.Code
		for _, n := range reads[c] {
			body = append(body, jen.Id(n).Op(":=").Id(chunkArray(n)).Index(jen.Id("l")))
		}
		for _, g := range s.groups[start:end] {
			body = append(body, g...)
		}
		for _, n := range stored[c] {
			body = append(body, jen.Id(chunkArray(n)).Index(jen.Id("l")).Op("=").Id(n))
		}
		var slows []slowPath
		for _, sp := range s.slows {
			if sp.group >= start && sp.group < end {
				slows = append(slows, sp)
			}
		}
		rerun := len(slows) > 0
		for g := start; g < end && rerun; g++ {
			rerun = !s.sideEffects[g]
		}
		if !rerun {
			out = append(out, jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(body...))
			continue
		}
		target := jen.Null()
		g.fastPasses = append(g.fastPasses, fastPass{target, jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(body...), slows})
		out = append(out, jen.Block(
			jen.Id("slow").Op(":=").Uint32().Call(jen.Lit(0)),
			target,
			jen.For(jen.Id("mm").Op(":=").Id("slow"), jen.Id("mm").Op("!=").Lit(0), jen.Id("mm").Op("&=").Id("mm").Op("-").Lit(1)).Block(
				append([]jen.Code{jen.Id("l").Op(":=").Qual("math/bits", "TrailingZeros32").Call(jen.Id("mm")).Op("&").Lit(31)}, body...)...)))
	}
	return jen.Block(out...)
}

// chunkArray names the array that carries the lane local n from one chunk to the next: n and
// "_s", a suffix no instruction's lowering gives the names it derives from its result's (n+"x",
// n+"s", ...; multi.go's n_0, n_1 end in digits), which would shadow the array in the chunk
// that defines n.
func chunkArray(n string) string { return n + "_s" }
