package ssa

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteDOT writes fn's control-flow graph to w in Graphviz DOT.
//
// There is one box per block, named b<ID> in the graph and labelled with the block's name
// ("b3" or "b3 ($L__BB0_2)") and the PTX source lines its instructions and terminator come
// from ("lines 12-17"; "no code" for a block holding neither, such as a join a fall-through
// enters). The virtual exit is the double circle "exit". Solid edges are the successors: the
// two edges of a conditional branch are labelled "taken" and "fallthrough", those of a brx.idx
// with the table indices that select them, and those into the exit with "exit" or "trap" when
// the block ends that way rather than with ret. A block whose terminator is divergent has a red
// border and bold red out-edges. A block whose terminator names a reconvergence block has a
// dashed gray edge labelled "reconverge" to it, which does not constrain the layout.
//
// WriteDOT returns an error for a declaration, which has no graph, or when writing fails.
func WriteDOT(w io.Writer, fn *Function) error {
	if fn.Decl {
		return fmt.Errorf("ssa: %s is a declaration and has no control-flow graph", fn.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(fn.Name))
	b.WriteString("\tnode [shape=box, fontname=\"monospace\"];\n")
	b.WriteString("\tedge [fontname=\"monospace\", fontsize=10];\n")
	for _, bl := range fn.Blocks {
		attrs := []string{"label=" + dotQuote(dotBlockTitle(bl)+"\n"+dotLines(bl))}
		if bl.Term.Divergent {
			attrs = append(attrs, `color="red"`, "penwidth=2")
		}
		fmt.Fprintf(&b, "\t%s [%s];\n", dotID(bl), strings.Join(attrs, ", "))
	}
	if fn.Exit != nil {
		fmt.Fprintf(&b, "\t%s [shape=doublecircle, label=\"exit\"];\n", dotID(fn.Exit))
	}
	for _, bl := range fn.Blocks {
		labels := dotEdgeLabels(bl)
		for i, s := range bl.Succs {
			var attrs []string
			if labels[i] != "" {
				attrs = append(attrs, "label="+dotQuote(labels[i]))
			}
			if bl.Term.Divergent {
				attrs = append(attrs, "style=bold", `color="red"`)
			}
			b.WriteString("\t" + dotID(bl) + " -> " + dotID(s))
			if len(attrs) > 0 {
				b.WriteString(" [" + strings.Join(attrs, ", ") + "]")
			}
			b.WriteString(";\n")
		}
		if r := bl.Term.Reconv; r != nil {
			fmt.Fprintf(&b, "\t%s -> %s [style=dashed, color=\"gray\", fontcolor=\"gray\", constraint=false, label=\"reconverge\"];\n",
				dotID(bl), dotID(r))
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotID is a block's node name: b<ID>, or exit for the virtual exit.
func dotID(bl *Block) string {
	if bl.Func != nil && bl == bl.Func.Exit {
		return "exit"
	}
	return "b" + strconv.Itoa(bl.ID)
}

// dotBlockTitle is the first line of a block's label: b<ID>, followed by its PTX label if any.
func dotBlockTitle(bl *Block) string {
	s := "b" + strconv.Itoa(bl.ID)
	if bl.Label != "" {
		s += " (" + bl.Label + ")"
	}
	return s
}

// dotLines describes the PTX source lines of a block's instructions and terminator. The jump
// that lowering adds where code falls through into a label carries the label's position, which
// belongs to the next block, so it does not count.
func dotLines(bl *Block) string {
	lo, hi := 0, 0
	add := func(line int) {
		if line <= 0 {
			return
		}
		if lo == 0 || line < lo {
			lo = line
		}
		hi = max(hi, line)
	}
	for _, in := range bl.Instrs {
		add(int(in.Pos.Line))
	}
	if t := &bl.Term; t.Kind != TermNone && !fallThrough(bl) {
		add(int(t.Pos.Line))
	}
	switch {
	case lo == 0:
		return "no code"
	case lo == hi:
		return "line " + strconv.Itoa(lo)
	default:
		return "lines " + strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
	}
}

// fallThrough reports whether bl ends in the implicit jump into the labelled block that
// follows it in the source, rather than in a bra.
func fallThrough(bl *Block) bool {
	t := &bl.Term
	if t.Kind != TermJump || len(bl.Succs) != 1 {
		return false
	}
	next := bl.Succs[0]
	return next.Label != "" && next.Pos == t.Pos
}

// dotEdgeLabels returns the label of each of bl's successor edges, "" for none.
func dotEdgeLabels(bl *Block) []string {
	labels := make([]string, len(bl.Succs))
	switch t := &bl.Term; t.Kind {
	case TermBranch:
		if len(labels) == 2 {
			labels[0], labels[1] = "taken", "fallthrough"
		}
	case TermBrx:
		for i, s := range bl.Succs {
			var idx []string
			for j, target := range t.Table {
				if target == s {
					idx = append(idx, strconv.Itoa(j))
				}
			}
			labels[i] = strings.Join(idx, ", ")
		}
	case TermExit:
		for i := range labels {
			labels[i] = "exit"
		}
	case TermTrap:
		for i := range labels {
			labels[i] = "trap"
		}
	}
	return labels
}

// dotQuote returns s as a DOT double-quoted string. Backslashes and quotes are escaped, so
// label text never reaches Graphviz as one of its escape sequences (\N, \G, \l, ...), and a
// newline becomes \n, Graphviz's centred line break.
func dotQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			// dropped: a line break is \n alone
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
