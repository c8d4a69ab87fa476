// Package frontend parses PTX assembly text into a position-carrying AST and prints it back.
//
// The lexer and the recursive-descent parser are hand-written. Every AST node records the file,
// line and column it came from, so later stages (the ssa verifier, runtime faults) can point at
// the PTX source. Parse reports up to MaxErrors errors per file, each formatted as
// "file:line:col: message" followed by the offending source line and a caret.
package frontend

import (
	"fmt"
	"strings"
)

// Pos is a source position: the file name, a 1-based line and a 1-based column counted in bytes.
type Pos struct {
	File string
	Line int32
	Col  int32
}

// Position returns p itself; it lets every node embedding Pos satisfy Node.
func (p Pos) Position() Pos { return p }

// IsValid reports whether p refers to a real source location.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// MaxErrors is the number of errors after which Parse stops reporting.
const MaxErrors = 10

// Error is one syntax error with its position and, when known, the text of its source line.
type Error struct {
	Pos  Pos
	Msg  string
	Line string // the full source line, used to draw the caret; may be empty
}

// Error formats the error as "file:line:col: message", the source line and a caret under the column.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Line != "" {
		b.WriteByte('\n')
		b.WriteString(e.Line)
		b.WriteByte('\n')
		for i := 0; i < int(e.Pos.Col)-1 && i < len(e.Line); i++ {
			if e.Line[i] == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('^')
	}
	return b.String()
}

// ErrorList is the set of errors found in one file, in source order.
type ErrorList []*Error

// Error joins the formatted errors with newlines.
func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Err returns nil for an empty list and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
