package runner

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ptx2go/ptx2go/runtime"
)

// statsMode is the value of run's -stats flag: off, the summary, or the summary and the
// hottest lines. It is a boolean flag, so a bare -stats means the summary.
type statsMode int

const (
	statsOff statsMode = iota
	statsSummary
	statsLines
)

// hotLines is how many lines -stats=lines shows.
const hotLines = 20

func (m *statsMode) String() string {
	switch *m {
	case statsSummary:
		return "true"
	case statsLines:
		return "lines"
	}
	return "false"
}

func (m *statsMode) Set(s string) error {
	switch s {
	case "true", "1":
		*m = statsSummary
	case "lines":
		*m = statsLines
	case "false", "0":
		*m = statsOff
	default:
		return fmt.Errorf("want -stats or -stats=lines, not -stats=%s", s)
	}
	return nil
}

// IsBoolFlag lets -stats stand alone.
func (m *statsMode) IsBoolFlag() bool { return true }

// sourceLines reads a PTX file's lines for the hottest-lines table; nil if it cannot.
func sourceLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Split(string(b), "\n")
}

// printStats writes a launch's statistics as an aligned block; with lines, also the hottest
// source lines, whose text comes from src (the lines of the run's file).
func printStats(w io.Writer, kernel string, s *runtime.Stats, lines bool, src []string) {
	fmt.Fprintf(w, "statistics of %s:\n", kernel)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name, format string, args ...any) {
		fmt.Fprintf(tw, "  %s\t%s\n", name, fmt.Sprintf(format, args...))
	}
	row("warp instructions", "%d", s.Instructions)
	row("lane instructions", "%d", s.LaneInstructions)
	row("warp efficiency", "%.2f%%", 100*s.Efficiency())
	row("branches", "%d (%d divergent)", s.Branches, s.DivergentBranches)
	row("calls", "%d", s.Calls)
	row("reconvergences", "%d", s.Reconvergences)
	row("predicated regions", "%d", s.PredicatedRegions)
	row("max SIMT stack depth", "%d", s.MaxStackDepth)
	row("max call depth", "%d", s.MaxCallDepth)
	row("barriers", "%d", s.Barriers)
	row("atomics", "%d (%d lane operations)", s.Atomics, s.AtomicLanes)
	row("bytes loaded", "%s", spaceBytes(&s.Loaded, s.GenericLoaded))
	row("bytes stored", "%s", spaceBytes(&s.Stored, s.GenericStored))
	tw.Flush()
	if lines {
		printHotLines(w, s.Lines, src)
	}
}

// spaceBytes spells per-space byte counts: the spaces with bytes, and how many of them came
// through generic addresses.
func spaceBytes(per *[runtime.NumMemSpaces]uint64, generic uint64) string {
	var parts []string
	var total uint64
	for sp, n := range per {
		if n != 0 {
			parts = append(parts, fmt.Sprintf("%s %d", runtime.MemSpace(sp), n))
			total += n
		}
	}
	if total == 0 {
		return "0"
	}
	s := fmt.Sprintf("%d: %s", total, strings.Join(parts, ", "))
	if generic != 0 {
		s += fmt.Sprintf(" (%d through generic addresses)", generic)
	}
	return s
}

// printHotLines writes the hotLines lines that issued the most warp instructions, as a table
// with the numbers right-aligned.
func printHotLines(w io.Writer, all []runtime.LineStats, src []string) {
	hot := slices.Clone(all)
	slices.SortStableFunc(hot, func(a, b runtime.LineStats) int {
		return cmp.Or(cmp.Compare(b.Instructions, a.Instructions), cmp.Compare(b.LaneInstructions, a.LaneInstructions))
	})
	hot = hot[:min(len(hot), hotLines)]
	fmt.Fprintf(w, "hottest lines (%d of %d executed):\n", len(hot), len(all))
	rows := [][]string{{"line", "issued", "lane-instrs", "efficiency", "instruction"}}
	for _, l := range hot {
		text := ""
		if l.Line >= 1 && l.Line <= len(src) {
			text = strings.Join(strings.Fields(src[l.Line-1]), " ")
		}
		rows = append(rows, []string{
			fmt.Sprintf("%s:%d", l.File, l.Line), fmt.Sprint(l.Instructions), fmt.Sprint(l.LaneInstructions),
			fmt.Sprintf("%.2f%%", 100*l.Efficiency()), text,
		})
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %*s  %*s  %*s  %s\n", width[0], r[0], width[1], r[1], width[2], r[2], width[3], r[3], r[4])
	}
}
