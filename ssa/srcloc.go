package ssa

import (
	"fmt"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// sourceLines maps the PTX line of every instruction that a `.loc` directive precedes (as
// nvcc -lineinfo and -G write them) to that directive's source file:line, naming the file by
// its `.file` directive. The sanitizer's reports show it next to the PTX line.
func sourceLines(m *frontend.Module) map[int]string {
	files := map[int]string{}
	for _, it := range m.Items {
		if f, ok := it.(*frontend.FileDirective); ok {
			files[f.Index] = f.Name
		}
	}
	lines := map[int]string{}
	var cur *frontend.Loc
	var walk func(stmts []frontend.Stmt)
	walk = func(stmts []frontend.Stmt) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *frontend.Loc:
				cur = s
			case *frontend.Block:
				walk(s.Stmts)
			case *frontend.Instruction:
				if cur != nil && cur.Line > 0 {
					file, line := cur.File, cur.Line
					// An inlined function's line: the call site in the caller is the
					// user's own code (nvcc writes `, inlined_at FILE LINE COL`).
					if i := strings.LastIndex(cur.Rest, "inlined_at"); i >= 0 {
						var f, l, c int
						if n, _ := fmt.Sscan(cur.Rest[i+len("inlined_at"):], &f, &l, &c); n >= 2 {
							file, line = f, l
						}
					}
					name := files[file]
					if name == "" {
						name = fmt.Sprintf("file%d", file)
					}
					lines[int(s.Pos.Line)] = fmt.Sprintf("%s:%d", name, line)
				}
			}
		}
	}
	for _, it := range m.Items {
		if f, ok := it.(*frontend.Function); ok && f.Body != nil {
			cur = nil
			walk(f.Body.Stmts)
		}
	}
	return lines
}
