package gosrc

import (
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Chunked lane loops. A lane loop runs all its instructions for one lane before the next
// lane, which keeps a lane's values in Go locals; but where one floating-point operation
// feeds the next (a dot product's chain of FMAs), each lane's pass waits on the whole chain
// and the CPU overlaps little of consecutive lanes. For a full warp, fullWarp therefore
// cuts the loop before each floating-point instruction that depends on one earlier in the
// same loop (just after that one): every chunk is a loop over the 32 lanes, and values a later chunk reads pass
// through one array per value. Any such cut is invisible: the segment may already run
// lane by lane (it holds no store after a load, lanemem.go), and a chunk of instructions
// run lane by lane is as good.

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

// fullWarp returns the loop (or loops) of the segment for a full warp.
func (s *segment) fullWarp() jen.Code {
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
		out = append(out, jen.Var().Id(n+"s").Index(jen.Lit(32)).Add(t))
	}
	for c, start := range starts {
		end := len(s.groups)
		if c+1 < len(starts) {
			end = starts[c+1]
		}
		var body []jen.Code
		for _, n := range reads[c] {
			body = append(body, jen.Id(n).Op(":=").Id(n+"s").Index(jen.Id("l")))
		}
		for _, g := range s.groups[start:end] {
			body = append(body, g...)
		}
		for _, n := range stored[c] {
			body = append(body, jen.Id(n+"s").Index(jen.Id("l")).Op("=").Id(n))
		}
		out = append(out, jen.For(jen.Id("l").Op(":=").Range().Lit(32)).Block(body...))
	}
	return jen.Block(out...)
}
