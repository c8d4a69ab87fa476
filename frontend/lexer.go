package frontend

// tokKind is the lexical class of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // %r1, $L__BB0_2, foo, _
	tDot             // .u32, .L2::cache_hint: a directive or modifier, with its dot
	tInt             // 42, 0x2A, 052, 0b101010, 42U
	tFloat           // 1.5, 1e-3, 0f3F800000, 0d3FF0000000000000
	tString          // "text", with its quotes
	tDwarf           // a whole @@DWARF line
	tPunct           // one of , ; : ( ) [ ] { } < > + - ! @ | =
	tInvalid         // a character or literal the lexer rejected; the error is already reported
)

// token is one lexeme. text is a slice of the source, so lexing allocates nothing.
type token struct {
	kind tokKind
	text string
	off  int // byte offset of the first character
	line int32
	col  int32
}

// lexer turns PTX source into tokens on demand.
type lexer struct {
	src       string
	off       int
	line      int32
	lineStart int
	errf      func(line, col int32, off int, msg string)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isIdentChar reports whether c may follow the first character of an identifier.
func isIdentChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' }

// skipSpace skips white space and comments, reporting an unterminated block comment.
func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == '\n':
			lx.off++
			lx.line++
			lx.lineStart = lx.off
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.off++
		case c == '/' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.off++
			}
		case c == '/' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '*':
			startLine, startCol, start := lx.line, int32(lx.off-lx.lineStart+1), lx.off
			lx.off += 2
			closed := false
			for lx.off < len(lx.src) {
				if lx.src[lx.off] == '*' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '/' {
					lx.off += 2
					closed = true
					break
				}
				if lx.src[lx.off] == '\n' {
					lx.line++
					lx.lineStart = lx.off + 1
				}
				lx.off++
			}
			if !closed {
				lx.errf(startLine, startCol, start, "unterminated block comment")
			}
		default:
			return
		}
	}
}

// next scans the next token.
func (lx *lexer) next() token {
	lx.skipSpace()
	start := lx.off
	tok := token{off: start, line: lx.line, col: int32(start - lx.lineStart + 1)}
	if start >= len(lx.src) {
		tok.kind = tEOF
		return tok
	}
	c := lx.src[start]
	switch {
	case isLetter(c) || c == '_' || c == '$' || c == '%':
		lx.off++
		for lx.off < len(lx.src) && isIdentChar(lx.src[lx.off]) {
			lx.off++
		}
		tok.kind = tIdent
		if c == '%' && lx.off == start+1 {
			lx.errf(tok.line, tok.col, start, "'%' must be followed by a register name")
			tok.kind = tInvalid
		}
	case c == '.' && lx.off+1 < len(lx.src) && (isIdentChar(lx.src[lx.off+1])):
		lx.off++
		lx.scanDotWord()
		tok.kind = tDot
	case isDigit(c):
		tok.kind = lx.scanNumber(tok)
	case c == '"':
		tok.kind = lx.scanString(tok)
	case c == '@' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '@':
		for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
			lx.off++
		}
		tok.kind = tDwarf
	case c == ',' || c == ';' || c == ':' || c == '(' || c == ')' || c == '[' || c == ']' ||
		c == '{' || c == '}' || c == '<' || c == '>' || c == '+' || c == '-' || c == '!' ||
		c == '@' || c == '|' || c == '=':
		lx.off++
		tok.kind = tPunct
	default:
		lx.off++
		lx.errf(tok.line, tok.col, start, "unexpected character "+quoteChar(c))
		tok.kind = tInvalid
	}
	tok.text = lx.src[start:lx.off]
	return tok
}

// scanDotWord scans the rest of `.word` including `::qualifier` segments.
func (lx *lexer) scanDotWord() {
	for {
		for lx.off < len(lx.src) && isIdentChar(lx.src[lx.off]) {
			lx.off++
		}
		if lx.off+2 < len(lx.src) && lx.src[lx.off] == ':' && lx.src[lx.off+1] == ':' && isIdentChar(lx.src[lx.off+2]) {
			lx.off += 2
			continue
		}
		return
	}
}

// scanNumber scans an integer or floating-point literal; the parser decodes its value.
func (lx *lexer) scanNumber(tok token) tokKind {
	src := lx.src
	i := lx.off
	if src[i] == '0' && i+1 < len(src) {
		switch src[i+1] {
		case 'f', 'F', 'd', 'D':
			n := 8
			if src[i+1] == 'd' || src[i+1] == 'D' {
				n = 16
			}
			j := i + 2
			for j < len(src) && isHex(src[j]) {
				j++
			}
			lx.off = j
			if j-(i+2) != n || j < len(src) && isIdentChar(src[j]) {
				lx.skipIdentChars()
				lx.errf(tok.line, tok.col, tok.off, "malformed hexadecimal floating-point literal "+quoteText(src[i:lx.off])+
					" (want 0f and 8 hex digits, or 0d and 16)")
				return tInvalid
			}
			return tFloat
		}
	}
	for lx.off < len(src) && isIdentChar(src[lx.off]) {
		c := src[lx.off]
		if (c == 'e' || c == 'E') && !isHexPrefixed(src[i:lx.off]) {
			break
		}
		lx.off++
	}
	isFloat := false
	if lx.off < len(src) && src[lx.off] == '.' && !isHexPrefixed(src[i:lx.off]) {
		isFloat = true
		lx.off++
		for lx.off < len(src) && isDigit(src[lx.off]) {
			lx.off++
		}
	}
	if lx.off < len(src) && (src[lx.off] == 'e' || src[lx.off] == 'E') {
		isFloat = true
		lx.off++
		if lx.off < len(src) && (src[lx.off] == '+' || src[lx.off] == '-') {
			lx.off++
		}
		for lx.off < len(src) && isDigit(src[lx.off]) {
			lx.off++
		}
	}
	if isFloat {
		if lx.off < len(src) && isIdentChar(src[lx.off]) {
			lx.skipIdentChars()
			lx.errf(tok.line, tok.col, tok.off, "malformed floating-point literal "+quoteText(src[i:lx.off]))
			return tInvalid
		}
		return tFloat
	}
	return tInt
}

func isHexPrefixed(s string) bool {
	return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B')
}

func (lx *lexer) skipIdentChars() {
	for lx.off < len(lx.src) && (isIdentChar(lx.src[lx.off]) || lx.src[lx.off] == '.') {
		lx.off++
	}
}

// scanString scans a double-quoted string; it may not span lines.
func (lx *lexer) scanString(tok token) tokKind {
	lx.off++
	for lx.off < len(lx.src) {
		switch lx.src[lx.off] {
		case '"':
			lx.off++
			return tString
		case '\\':
			lx.off += 2
		case '\n':
			lx.errf(tok.line, tok.col, tok.off, "unterminated string literal")
			return tInvalid
		default:
			lx.off++
		}
	}
	if lx.off > len(lx.src) {
		lx.off = len(lx.src)
	}
	lx.errf(tok.line, tok.col, tok.off, "unterminated string literal")
	return tInvalid
}

// restOfLine returns the source text from the current offset to the end of the line (comments
// excluded, white space trimmed) and moves past it; newlines inside block comments are not
// crossed.
func (lx *lexer) restOfLine() string {
	start := lx.off
	end := start
	for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
		if lx.src[lx.off] == '/' && lx.off+1 < len(lx.src) && (lx.src[lx.off+1] == '/' || lx.src[lx.off+1] == '*') {
			break
		}
		if lx.src[lx.off] == '"' {
			lx.off++
			for lx.off < len(lx.src) && lx.src[lx.off] != '"' && lx.src[lx.off] != '\n' {
				lx.off++
			}
		}
		if lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
			lx.off++
		}
		end = lx.off
	}
	return trimSpace(lx.src[start:end])
}

// rawBraced returns the text up to the '}' that closes an already consumed '{' (nested braces,
// comments and strings respected), trimmed, and moves past the '}'. ok is false at end of input.
func (lx *lexer) rawBraced() (text string, ok bool) {
	start := lx.off
	depth := 0
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == '\n':
			lx.line++
			lx.lineStart = lx.off + 1
		case c == '{':
			depth++
		case c == '}':
			if depth == 0 {
				text = trimSpace(lx.src[start:lx.off])
				lx.off++
				return text, true
			}
			depth--
		case c == '"':
			lx.off++
			for lx.off < len(lx.src) && lx.src[lx.off] != '"' && lx.src[lx.off] != '\n' {
				lx.off++
			}
			continue
		case c == '/' && lx.off+1 < len(lx.src) && lx.src[lx.off+1] == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.off++
			}
			continue
		}
		lx.off++
	}
	return "", false
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	const hex = "0123456789abcdef"
	return "byte 0x" + string([]byte{hex[c>>4], hex[c&15]})
}

// quoteText quotes s for an error message, shortening long text.
func quoteText(s string) string {
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return "'" + s + "'"
}
