package frontend

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// maxNesting bounds the depth of `{ }` groups, so pathological input cannot exhaust the stack.
const maxNesting = 512

// Parse parses one PTX module. filename is used in positions and error messages. On failure it
// returns the partial module and an ErrorList of at most MaxErrors errors.
func Parse(filename string, src []byte) (*Module, error) {
	return ParseString(filename, string(src))
}

// ParseString is Parse for source already held in a string; the AST shares its memory.
func ParseString(filename, src string) (*Module, error) {
	p := &parser{file: filename, src: src}
	p.lx = lexer{src: src, line: 1, errf: p.lexError}
	p.next()
	m := p.parseModule()
	return m, p.errs.Err()
}

type parser struct {
	file    string
	src     string
	lx      lexer
	tok     token
	peeked  token
	hasPeek bool
	prevEnd token // a zero-width token at the end of the last consumed token
	errs    ErrorList
	lastErr int // offset of the last error, to report one error per place
	depth   int
	full    bool // MaxErrors reached: the parser sees end of input from now on

	idents       slab[Ident]
	instructions slab[Instruction]
	addresses    slab[Address]
	ints         slab[IntLit]
	mods         sliceArena[Mod]
	operands     sliceArena[Operand]
	modBuf       []Mod
	operandBufs  [][]Operand // scratch operand lists, one per nesting level of operand lists
	operandDepth int
}

// operandScratch returns an empty scratch slice for the current operand-list nesting level.
func (p *parser) operandScratch() []Operand {
	for len(p.operandBufs) <= p.operandDepth {
		p.operandBufs = append(p.operandBufs, make([]Operand, 0, 8))
	}
	return p.operandBufs[p.operandDepth][:0]
}

// next advances to the next token.
func (p *parser) next() {
	p.prevEnd = token{off: p.tok.off + len(p.tok.text), line: p.tok.line, col: p.tok.col + int32(len(p.tok.text))}
	if p.full {
		p.tok = token{kind: tEOF, off: len(p.src), line: p.tok.line, col: p.tok.col}
		return
	}
	if p.hasPeek {
		p.tok, p.hasPeek = p.peeked, false
		return
	}
	p.tok = p.lx.next()
	for p.tok.kind == tInvalid && !p.full {
		p.tok = p.lx.next()
	}
	if p.full {
		p.tok = token{kind: tEOF, off: len(p.src), line: p.tok.line, col: p.tok.col}
	}
}

// peek returns the token after the current one without consuming it.
func (p *parser) peek() token {
	if !p.hasPeek {
		p.peeked = p.lx.next()
		for p.peeked.kind == tInvalid {
			p.peeked = p.lx.next()
		}
		p.hasPeek = true
	}
	return p.peeked
}

func (p *parser) pos(t token) Pos { return Pos{File: p.file, Line: t.line, Col: t.col} }

func (p *parser) lexError(line, col int32, off int, msg string) {
	p.addError(token{line: line, col: col, off: off}, msg)
}

// addError records an error at t unless one was already reported there.
func (p *parser) addError(t token, msg string) {
	if p.full || (len(p.errs) > 0 && p.lastErr == t.off) {
		return
	}
	p.lastErr = t.off
	p.errs = append(p.errs, &Error{Pos: p.pos(t), Msg: msg, Line: p.lineText(t.off)})
	if len(p.errs) >= MaxErrors {
		p.full = true
	}
}

// lineText returns the source line containing offset off, capped in length for display.
func (p *parser) lineText(off int) string {
	if off > len(p.src) {
		off = len(p.src)
	}
	start := strings.LastIndexByte(p.src[:off], '\n') + 1
	end := strings.IndexByte(p.src[off:], '\n')
	if end < 0 {
		end = len(p.src)
	} else {
		end += off
	}
	if end-start > 200 {
		if off-start > 150 {
			return ""
		}
		end = start + 200
	}
	return strings.TrimRight(p.src[start:end], "\r")
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return "string " + quoteText(t.text)
	case tDwarf:
		return "@@DWARF line"
	}
	return quoteText(t.text)
}

func (p *parser) errorExpected(what string) {
	p.addError(p.tok, "expected "+what+", found "+describe(p.tok))
}

func (p *parser) isPunct(c byte) bool {
	return p.tok.kind == tPunct && p.tok.text[0] == c
}

// peekPunct reports whether the token after the current one is punctuation c.
func (p *parser) peekPunct(c byte) bool {
	t := p.peek()
	return t.kind == tPunct && t.text[0] == c
}

// accept consumes punctuation c if it is next.
func (p *parser) accept(c byte) bool {
	if p.isPunct(c) {
		p.next()
		return true
	}
	return false
}

// expect consumes punctuation c or reports an error; it reports whether c was there.
func (p *parser) expect(c byte, context string) bool {
	if p.accept(c) {
		return true
	}
	p.errorExpected("'" + string(c) + "'" + context)
	return false
}

// expectSemi requires the ';' that ends a statement, reporting a missing one at the end of the
// previous token, where it belongs.
func (p *parser) expectSemi(what string) bool {
	if p.accept(';') {
		return true
	}
	if p.tok.line != p.prevEnd.line {
		p.addError(p.prevEnd, "missing ';' after "+what)
	} else {
		p.errorExpected("';' after " + what)
	}
	return false
}

func (p *parser) isDot(name string) bool { return p.tok.kind == tDot && p.tok.text == name }

// ---- module level ----

var topLevelStarts = map[string]bool{
	".version": true, ".target": true, ".address_size": true, ".visible": true, ".extern": true,
	".weak": true, ".common": true, ".entry": true, ".func": true, ".global": true, ".const": true,
	".shared": true, ".local": true, ".tex": true, ".file": true, ".section": true, ".pragma": true,
}

func (p *parser) parseModule() *Module {
	m := &Module{Pos: Pos{File: p.file, Line: 1, Col: 1}}
	for p.tok.kind != tEOF {
		start := p.tok.off
		p.parseTopLevel(m)
		if p.tok.off == start && p.tok.kind != tEOF {
			p.next() // guarantee progress on input no rule consumed
		}
	}
	return m
}

func (p *parser) parseTopLevel(m *Module) {
	t := p.tok
	switch t.kind {
	case tDwarf:
		m.Items = append(m.Items, p.parseDwarf())
		return
	case tDot:
	default:
		p.addError(t, "expected a directive such as .version, .entry, .func or a variable declaration, found "+describe(t))
		p.syncTopLevel()
		return
	}
	switch t.text {
	case ".version":
		p.next()
		m.Version = p.parseVersion(t)
	case ".target":
		p.next()
		m.Target = Target{Pos: p.pos(t)}
		for {
			if p.tok.kind != tIdent {
				p.errorExpected("a target name such as sm_80")
				p.syncTopLevel()
				return
			}
			m.Target.Names = append(m.Target.Names, p.tok.text)
			p.next()
			if !p.accept(',') {
				break
			}
		}
	case ".address_size":
		p.next()
		num := p.tok
		v, ok := p.parseSmallInt("address size")
		if ok && v != 32 && v != 64 {
			p.addError(num, "address size must be 32 or 64, not "+strconv.Itoa(v))
		}
		m.AddressSize = v
	case ".pragma":
		m.Items = append(m.Items, p.parsePragma())
	case ".file":
		m.Items = append(m.Items, p.parseFile())
	case ".loc":
		m.Items = append(m.Items, p.parseLoc())
	case ".section":
		m.Items = append(m.Items, p.parseSection())
	default:
		link := LinkNone
		if l, ok := linkageByName[t.text]; ok && l != LinkNone {
			link = l
			p.next()
		}
		switch {
		case p.isDot(".entry") || p.isDot(".func"):
			if link == LinkCommon {
				p.addError(t, ".common applies only to .global variables")
			}
			if f := p.parseFunction(t, link); f != nil {
				m.Items = append(m.Items, f)
			}
		case p.tok.kind == tDot && isVarSpace(p.tok.text):
			if d := p.parseVarDecl(t, link); d != nil {
				m.Items = append(m.Items, d)
			}
		default:
			p.errorExpected("a directive such as .version, .entry, .func or a variable declaration")
			p.syncTopLevel()
		}
	}
}

func isVarSpace(name string) bool {
	switch name {
	case ".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex":
		return true
	}
	return false
}

// startsTopLevel reports whether the current token begins a module-level directive or
// declaration.
func (p *parser) startsTopLevel() bool {
	return p.tok.kind == tDot && (topLevelStarts[p.tok.text] || isVarSpace(p.tok.text))
}

// syncTopLevel skips to the next module-level directive, skipping braced groups whole.
func (p *parser) syncTopLevel() {
	for p.tok.kind != tEOF {
		switch {
		case p.isPunct(';'):
			p.next()
			return
		case p.isPunct('{'):
			p.skipBraced()
		case p.tok.kind == tDot && topLevelStarts[p.tok.text]:
			return
		default:
			p.next()
		}
	}
}

// skipBraced skips a `{ ... }` group starting at the current '{', in linear time.
func (p *parser) skipBraced() {
	depth := 0
	for p.tok.kind != tEOF {
		if p.isPunct('{') {
			depth++
		} else if p.isPunct('}') {
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

func (p *parser) parseVersion(t token) Version {
	v := Version{Pos: p.pos(t)}
	if p.tok.kind != tFloat && p.tok.kind != tInt {
		p.errorExpected("a version number such as 8.0")
		return v
	}
	major, minor, _ := strings.Cut(p.tok.text, ".")
	a, err1 := strconv.Atoi(major)
	b, err2 := strconv.Atoi(minor)
	if minor == "" {
		b, err2 = 0, nil
	}
	if err1 != nil || err2 != nil {
		p.addError(p.tok, "malformed version number "+quoteText(p.tok.text))
	}
	v.Major, v.Minor = a, b
	p.next()
	return v
}

// parseSmallInt parses a non-negative decimal-range integer such as an alignment or a count.
func (p *parser) parseSmallInt(what string) (int, bool) {
	if p.tok.kind != tInt {
		p.errorExpected(what)
		return 0, false
	}
	v, _, _, ok := decodeInt(p.tok.text)
	if !ok || v > math.MaxInt32 {
		p.addError(p.tok, what+" "+quoteText(p.tok.text)+" is out of range")
		p.next()
		return 0, false
	}
	p.next()
	return int(v), true
}

func (p *parser) parseString() (string, bool) {
	if p.tok.kind != tString {
		p.errorExpected("a string")
		return "", false
	}
	s := p.tok.text[1 : len(p.tok.text)-1]
	p.next()
	return s, true
}

func (p *parser) parsePragma() *Pragma {
	pr := &Pragma{Pos: p.pos(p.tok)}
	p.next()
	for {
		s, ok := p.parseString()
		if !ok {
			p.syncStmt()
			return pr
		}
		pr.Strings = append(pr.Strings, s)
		if !p.accept(',') {
			break
		}
	}
	p.expectSemi(".pragma")
	return pr
}

// parseFile parses `.file N "name" [, fields]`, which ends at the end of its line.
func (p *parser) parseFile() *FileDirective {
	f := &FileDirective{Pos: p.pos(p.tok)}
	line := p.tok.line
	p.next()
	n, ok := p.parseSmallInt("file index")
	f.Index = n
	if !ok {
		p.skipLine(line)
		return f
	}
	if p.tok.kind != tString {
		p.errorExpected("a file name string")
		p.skipLine(line)
		return f
	}
	f.Name = p.tok.text[1 : len(p.tok.text)-1]
	f.Rest = p.lx.restOfLine()
	p.next()
	return f
}

// parseLoc parses `.loc file line col [, ...]`, which ends at the end of its line.
func (p *parser) parseLoc() *Loc {
	l := &Loc{Pos: p.pos(p.tok)}
	line := p.tok.line
	p.next()
	var ok bool
	if l.File, ok = p.parseSmallInt("file index"); ok {
		if l.Line, ok = p.parseSmallInt("line number"); ok {
			if p.tok.kind != tInt {
				p.errorExpected("column number")
				ok = false
			} else {
				v, _, _, _ := decodeInt(p.tok.text)
				l.Col = int(min(v, math.MaxInt32))
				l.Rest = p.lx.restOfLine()
				p.next()
				return l
			}
		}
	}
	p.skipLine(line)
	return l
}

// skipLine skips the tokens remaining on source line line.
func (p *parser) skipLine(line int32) {
	for p.tok.kind != tEOF && p.tok.line == line && !p.isPunct(';') && !p.isPunct('}') {
		p.next()
	}
}

func (p *parser) parseSection() *Section {
	s := &Section{Pos: p.pos(p.tok)}
	p.next()
	if p.tok.kind != tDot && p.tok.kind != tIdent {
		p.errorExpected("a section name")
		p.syncTopLevel()
		return s
	}
	s.Name = p.tok.text
	p.next()
	if !p.isPunct('{') {
		p.errorExpected("'{' to open the section")
		p.syncTopLevel()
		return s
	}
	open := p.tok
	text, ok := p.lx.rawBraced()
	if !ok {
		p.addError(open, "section "+s.Name+" is not closed by '}'")
	}
	s.Text = text
	p.next()
	return s
}

func (p *parser) parseDwarf() *Dwarf {
	d := &Dwarf{Pos: p.pos(p.tok), Text: trimSpace(strings.TrimPrefix(p.tok.text, "@@DWARF"))}
	p.next()
	return d
}

// ---- functions ----

// parseFunction parses a .entry or .func header and its body or ';'. start is the first
// token of the directive (its linkage, if any).
func (p *parser) parseFunction(start token, link Linkage) *Function {
	f := &Function{Pos: p.pos(start), Linkage: link, Kind: Entry}
	if p.tok.text == ".func" {
		f.Kind = Func
	}
	p.next()
	if p.isDot(".attribute") {
		p.addError(p.tok, "function attributes (.attribute) are not supported")
		p.syncTopLevel()
		return nil
	}
	if f.Kind == Func && p.isPunct('(') {
		var ok bool
		if f.Results, ok = p.parseParamList("return parameter"); !ok {
			p.syncTopLevel()
			return nil
		}
	}
	if p.tok.kind != tIdent {
		p.errorExpected("a function name")
		p.syncTopLevel()
		return nil
	}
	f.Name = p.tok.text
	p.next()
	if p.isPunct('(') {
		f.HasParams = true
		var ok bool
		if f.Params, ok = p.parseParamList("parameter"); !ok {
			p.syncTopLevel()
			return nil
		}
	}
	for p.tok.kind == tDot {
		switch p.tok.text {
		case ".noreturn":
			if f.Kind == Entry {
				p.addError(p.tok, ".noreturn applies only to .func")
			}
			f.Noreturn = true
			p.next()
		case ".pragma":
			f.Pragmas = append(f.Pragmas, p.parsePragma())
		case ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg", ".maxclusterrank",
			".reqnctapercluster", ".explicitcluster":
			f.Directives = append(f.Directives, p.parsePerfDirective())
		default:
			if p.startsTopLevel() {
				return f // a declaration without its ';' (see below)
			}
			p.errorExpected("a function body '{', ';' or a performance directive")
			p.syncTopLevel()
			return nil
		}
	}
	switch {
	case p.accept(';'):
	case p.isPunct('{'):
		f.Body = p.parseBlock()
	case p.tok.kind == tEOF:
		// nvcc 3.x (nvopencc) ended the forward declarations of .func prototypes without a
		// ';', and ptxas accepts them: the next module-level directive, or the end of the
		// file, ends the declaration.
	default:
		p.errorExpected("'{' to start the body of " + f.Name + ", or ';' to end its declaration")
		p.syncTopLevel()
		return nil
	}
	return f
}

func (p *parser) parsePerfDirective() *PerfDirective {
	d := &PerfDirective{Pos: p.pos(p.tok), Name: p.tok.text}
	p.next()
	if d.Name == ".explicitcluster" {
		return d
	}
	for {
		if p.tok.kind != tInt {
			p.errorExpected("an integer argument of " + d.Name)
			return d
		}
		v, _, _, ok := decodeInt(p.tok.text)
		if !ok || v > math.MaxInt32 {
			p.addError(p.tok, "argument of "+d.Name+" is out of range")
		}
		d.Args = append(d.Args, int64(v))
		p.next()
		if !p.accept(',') {
			return d
		}
	}
}

// parseParamList parses `( param, ... )`, possibly empty.
func (p *parser) parseParamList(what string) ([]*Param, bool) {
	p.next() // '('
	var params []*Param
	if p.accept(')') {
		return params, true
	}
	for {
		prm, ok := p.parseParam(what)
		if !ok {
			return params, false
		}
		params = append(params, prm)
		if p.accept(')') {
			return params, true
		}
		if !p.expect(',', " or ')' in the "+what+" list") {
			return params, false
		}
	}
}

// parseParam parses `.param|.reg attrs type [.ptr space .align N] name[dims]`.
func (p *parser) parseParam(what string) (*Param, bool) {
	prm := &Param{Pos: p.pos(p.tok)}
	switch {
	case p.isDot(".param"):
		prm.Space = SpaceParam
	case p.isDot(".reg"):
		prm.Space = SpaceReg
	default:
		p.errorExpected("a " + what + " starting with .param or .reg")
		return nil, false
	}
	p.next()
	for p.tok.kind == tDot {
		t := p.tok
		switch {
		case t.text == ".align":
			p.next()
			n, ok := p.parseAlign()
			if !ok {
				return nil, false
			}
			if prm.Ptr {
				prm.PtrAlign = n
			} else {
				prm.Align = n
			}
			continue
		case t.text == ".ptr":
			prm.Ptr = true
		case t.text == ".v2" || t.text == ".v4" || t.text == ".v8":
			prm.Vector = int(t.text[2] - '0')
		default:
			if ty, ok := typeByName[t.text]; ok {
				if prm.Type != TypeNone {
					p.addError(t, "parameter has two types, "+prm.Type.String()+" and "+t.text)
				}
				prm.Type = ty
			} else if sp, ok := spaceByName[t.text]; ok && prm.Ptr {
				prm.PtrSpace = sp
			} else {
				p.addError(t, "unexpected "+quoteText(t.text)+" in "+what+" declaration")
				return nil, false
			}
		}
		p.next()
	}
	if prm.Type == TypeNone {
		p.errorExpected("a type for the " + what)
		return nil, false
	}
	if p.tok.kind != tIdent {
		p.errorExpected("a " + what + " name")
		return nil, false
	}
	prm.Name = p.tok.text
	p.next()
	dims, ok := p.parseDims()
	prm.Dims = dims
	return prm, ok
}

// parseAlign parses the byte count after `.align`, which must be a power of two.
func (p *parser) parseAlign() (int, bool) {
	t := p.tok
	n, ok := p.parseSmallInt("alignment")
	if ok && (n <= 0 || n&(n-1) != 0) {
		p.addError(t, "alignment "+strconv.Itoa(n)+" is not a power of two")
	}
	return n, ok
}

// parseDims parses array dimensions `[N][M]` or an unsized `[]`.
func (p *parser) parseDims() ([]int, bool) {
	var dims []int
	for p.isPunct('[') {
		p.next()
		if p.accept(']') {
			dims = append(dims, -1)
			continue
		}
		n, ok := p.parseSmallInt("array size")
		if !ok || !p.expect(']', " to close the array size") {
			return dims, false
		}
		dims = append(dims, n)
	}
	return dims, true
}

// ---- declarations ----

// parseVarDecl parses a variable or register declaration starting at the state space.
func (p *parser) parseVarDecl(start token, link Linkage) *VarDecl {
	d := &VarDecl{Pos: p.pos(start), Linkage: link, Space: spaceByName[p.tok.text]}
	if link == LinkCommon && d.Space != SpaceGlobal {
		p.addError(start, ".common applies only to .global variables")
	}
	p.next()
	if d.Space == SpaceConst && !p.acceptConstBank() {
		p.syncStmt()
		return nil
	}
	for p.tok.kind == tDot {
		t := p.tok
		switch {
		case t.text == ".align":
			p.next()
			n, ok := p.parseAlign()
			if !ok {
				p.syncStmt()
				return nil
			}
			d.Align = n
			continue
		case t.text == ".v2" || t.text == ".v4" || t.text == ".v8":
			d.Vector = int(t.text[2] - '0')
		case t.text == ".ptr":
			d.Ptr = true
		case t.text == ".attribute":
			p.next()
			if !p.expect('(', " after .attribute") {
				p.syncStmt()
				return nil
			}
			for p.tok.kind == tDot {
				d.Attrs = append(d.Attrs, p.tok.text)
				p.next()
				if !p.accept(',') {
					break
				}
			}
			if !p.expect(')', " to close .attribute") {
				p.syncStmt()
				return nil
			}
			continue
		default:
			ty, ok := typeByName[t.text]
			if !ok {
				p.addError(t, "unexpected "+quoteText(t.text)+" in "+d.Space.String()+" declaration")
				p.syncStmt()
				return nil
			}
			if d.Type != TypeNone {
				p.addError(t, "declaration has two types, "+d.Type.String()+" and "+t.text)
			}
			d.Type = ty
		}
		p.next()
	}
	if d.Type == TypeNone {
		p.errorExpected("a type in the " + d.Space.String() + " declaration")
		p.syncStmt()
		return nil
	}
	for {
		decl, ok := p.parseDeclarator()
		if decl != nil {
			d.Names = append(d.Names, decl)
		}
		if !ok {
			p.syncStmt()
			return d
		}
		if !p.accept(',') {
			break
		}
	}
	p.expectSemi("declaration")
	return d
}

func (p *parser) parseDeclarator() (*Declarator, bool) {
	if p.tok.kind != tIdent {
		p.errorExpected("a name to declare")
		return nil, false
	}
	d := &Declarator{Pos: p.pos(p.tok), Name: p.tok.text}
	p.next()
	if p.accept('<') {
		n, ok := p.parseSmallInt("register count")
		if !ok || !p.expect('>', " to close the register count") {
			return d, false
		}
		d.Count = n
	}
	dims, ok := p.parseDims()
	d.Dims = dims
	if !ok {
		return d, false
	}
	if p.accept('=') {
		d.Init = p.parseInit(0)
		if d.Init == nil {
			return d, false
		}
	}
	return d, true
}

// parseInit parses an initializer: a braced list, a number, a symbol (+offset) or generic(sym).
func (p *parser) parseInit(depth int) Init {
	t := p.tok
	switch {
	case p.isPunct('{'):
		if depth >= maxNesting {
			p.addError(t, "initializer nested too deeply")
			return nil
		}
		p.next()
		l := &InitList{Pos: p.pos(t)}
		if p.accept('}') {
			return l
		}
		for {
			e := p.parseInit(depth + 1)
			if e == nil {
				return nil
			}
			l.Elems = append(l.Elems, e)
			if p.accept('}') {
				return l
			}
			if !p.expect(',', " or '}' in the initializer") {
				return nil
			}
		}
	case t.kind == tIdent && t.text == "generic" && p.peek().kind == tPunct && p.peek().text == "(":
		p.next()
		p.next()
		if p.tok.kind != tIdent {
			p.errorExpected("a variable name in generic()")
			return nil
		}
		g := &GenericRef{Pos: p.pos(t), Name: p.tok.text}
		p.next()
		if !p.expect(')', " to close generic(") {
			return nil
		}
		off, ok := p.parseOffset()
		if !ok {
			return nil
		}
		g.Offset = off
		return g
	case t.kind == tIdent:
		s := &SymRef{Pos: p.pos(t), Name: t.text}
		p.next()
		off, ok := p.parseOffset()
		if !ok {
			return nil
		}
		s.Offset = off
		return s
	default:
		lit, ok := p.parseNumber()
		if !ok {
			return nil
		}
		return lit.(Init)
	}
}

// parseOffset parses an optional `+N` or `+-N` symbol offset.
func (p *parser) parseOffset() (int64, bool) {
	if !p.isPunct('+') {
		return 0, true
	}
	p.next()
	neg := p.accept('-')
	if p.tok.kind != tInt {
		p.errorExpected("an integer offset")
		return 0, false
	}
	v, _, _, ok := decodeInt(p.tok.text)
	if !ok || v > math.MaxInt64 {
		p.addError(p.tok, "offset "+quoteText(p.tok.text)+" is out of range")
		return 0, false
	}
	p.next()
	if neg {
		return -int64(v), true
	}
	return int64(v), true
}

// parseNumber parses an integer or floating-point literal with an optional leading '-'.
func (p *parser) parseNumber() (Operand, bool) {
	start := p.tok
	neg := p.accept('-')
	t := p.tok
	switch t.kind {
	case tInt:
		v, base, unsigned, ok := decodeInt(t.text)
		if !ok {
			p.addError(t, "malformed or out-of-range integer literal "+quoteText(t.text))
			p.next()
			return nil, false
		}
		p.next()
		if neg {
			v = -v
		}
		lit := p.ints.alloc()
		*lit = IntLit{Pos: p.pos(start), Value: v, Negative: neg, Unsigned: unsigned, Base: base}
		return lit, true
	case tFloat:
		f := &FloatLit{Pos: p.pos(start)}
		switch t.text[1] {
		case 'f', 'F':
			bits, _ := strconv.ParseUint(t.text[2:], 16, 32)
			if neg {
				bits ^= 1 << 31
			}
			f.Form, f.Bits = FloatHex32, bits
		case 'd', 'D':
			bits, _ := strconv.ParseUint(t.text[2:], 16, 64)
			if neg {
				bits ^= 1 << 63
			}
			f.Form, f.Bits = FloatHex64, bits
		default:
			v, err := strconv.ParseFloat(t.text, 64)
			if err != nil && !math.IsInf(v, 0) {
				p.addError(t, "malformed floating-point literal "+quoteText(t.text))
				p.next()
				return nil, false
			}
			if neg {
				v = -v
			}
			f.Form, f.Bits = FloatDecimal, math.Float64bits(v)
		}
		p.next()
		return f, true
	}
	p.errorExpected("a number")
	return nil, false
}

// decodeInt decodes an integer literal's text: decimal, 0x hex, 0b binary or 0-prefixed
// octal, with an optional U suffix. ok is false on malformed digits or 64-bit overflow.
func decodeInt(text string) (v uint64, base IntBase, unsigned, ok bool) {
	if n := len(text); n > 1 && (text[n-1] == 'U' || text[n-1] == 'u') {
		unsigned = true
		text = text[:n-1]
	}
	var err error
	switch {
	case len(text) > 2 && (text[1] == 'x' || text[1] == 'X') && text[0] == '0':
		base = Hex
		v, err = strconv.ParseUint(text[2:], 16, 64)
	case len(text) > 2 && (text[1] == 'b' || text[1] == 'B') && text[0] == '0':
		base = Binary
		v, err = strconv.ParseUint(text[2:], 2, 64)
	case len(text) > 1 && text[0] == '0':
		base = Octal
		v, err = strconv.ParseUint(text[1:], 8, 64)
	default:
		v, err = strconv.ParseUint(text, 10, 64)
	}
	return v, base, unsigned, err == nil
}

// ---- statements ----

// parseBlock parses `{ stmts }` starting at the '{'.
func (p *parser) parseBlock() *Block {
	open := p.tok
	b := &Block{Pos: p.pos(open)}
	if p.depth >= maxNesting {
		p.addError(open, "instruction groups nested deeper than "+strconv.Itoa(maxNesting))
		p.skipBraced()
		return b
	}
	p.depth++
	defer func() { p.depth-- }()
	p.next()
	for {
		switch {
		case p.tok.kind == tEOF:
			p.addError(open, "'{' is not closed by a matching '}'")
			return b
		case p.isPunct('}'):
			b.End = p.pos(p.tok)
			p.next()
			return b
		}
		start := p.tok.off
		if s := p.parseStmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.tok.off == start && p.tok.kind != tEOF && !p.isPunct('}') {
			p.next() // guarantee progress
		}
	}
}

// syncStmt skips to the end of the current statement: past the next ';', or up to a '}'.
func (p *parser) syncStmt() {
	for p.tok.kind != tEOF {
		switch {
		case p.isPunct(';'):
			p.next()
			return
		case p.isPunct('}'):
			return
		case p.isPunct('{'):
			p.skipBraced()
		default:
			p.next()
		}
	}
}

func (p *parser) parseStmt() Stmt {
	t := p.tok
	switch t.kind {
	case tPunct:
		switch t.text[0] {
		case '{':
			return p.parseBlock()
		case '@':
			return p.parseInstruction()
		case ';':
			p.next()
			return nil
		}
	case tDwarf:
		return p.parseDwarf()
	case tIdent:
		if nt := p.peek(); nt.kind == tPunct && nt.text == ":" {
			return p.parseLabeled()
		}
		return p.parseInstruction()
	case tDot:
		switch t.text {
		case ".pragma":
			return p.parsePragma()
		case ".loc":
			return p.parseLoc()
		}
		link := LinkNone
		if l, ok := linkageByName[t.text]; ok && l != LinkNone {
			link = l
			p.next()
		}
		if p.tok.kind == tDot && isVarSpace(p.tok.text) {
			if d := p.parseVarDecl(t, link); d != nil {
				return d
			}
			return nil
		}
		if t.text == ".branchtargets" || t.text == ".calltargets" || t.text == ".callprototype" {
			p.addError(t, t.text+" must be preceded by a label naming it")
			p.syncStmt()
			return nil
		}
	}
	p.addError(t, "expected an instruction, label, declaration or '}', found "+describe(t))
	p.syncStmt()
	return nil
}

// parseLabeled parses `name:` and, when a target-list directive follows, that directive.
func (p *parser) parseLabeled() Stmt {
	t := p.tok
	p.next()
	p.next() // ':'
	if p.tok.kind == tDot {
		switch p.tok.text {
		case ".branchtargets":
			p.next()
			bt := &BranchTargets{Pos: p.pos(t), Name: t.text}
			bt.Labels = p.parseIdentList("label")
			return bt
		case ".calltargets":
			p.next()
			ct := &CallTargets{Pos: p.pos(t), Name: t.text}
			ct.Funcs = p.parseIdentList("function name")
			return ct
		case ".callprototype":
			return p.parseCallPrototype(t)
		}
	}
	return &Label{Pos: p.pos(t), Name: t.text}
}

// parseIdentList parses `a, b, c;` for target-list directives.
func (p *parser) parseIdentList(what string) []*Ident {
	var ids []*Ident
	for {
		if p.tok.kind != tIdent {
			p.errorExpected("a " + what)
			p.syncStmt()
			return ids
		}
		ids = append(ids, &Ident{Pos: p.pos(p.tok), Name: p.tok.text})
		p.next()
		if !p.accept(',') {
			break
		}
	}
	p.expectSemi("target list")
	return ids
}

func (p *parser) parseCallPrototype(label token) Stmt {
	cp := &CallPrototype{Pos: p.pos(label), Name: label.text}
	p.next()
	if p.isPunct('(') {
		cp.HasResults = true
		var ok bool
		if cp.Results, ok = p.parseParamList("return parameter"); !ok {
			p.syncStmt()
			return cp
		}
	}
	if p.tok.kind != tIdent || p.tok.text != "_" {
		p.errorExpected("'_' as the prototype's function name")
		p.syncStmt()
		return cp
	}
	p.next()
	if p.isPunct('(') {
		cp.HasParams = true
		var ok bool
		if cp.Params, ok = p.parseParamList("parameter"); !ok {
			p.syncStmt()
			return cp
		}
	}
	if p.isDot(".noreturn") {
		cp.Noreturn = true
		p.next()
	}
	p.expectSemi(".callprototype")
	return cp
}

// parseInstruction parses `[@[!]p] opcode.mods operands;`.
func (p *parser) parseInstruction() Stmt {
	in := p.instructions.alloc()
	in.Pos = p.pos(p.tok)
	if p.isPunct('@') {
		g := &Guard{Pos: p.pos(p.tok)}
		p.next()
		g.Negate = p.accept('!')
		if p.tok.kind != tIdent {
			p.errorExpected("a predicate register after '@'")
			p.syncStmt()
			return nil
		}
		g.Pred = p.tok.text
		predTok := p.tok
		p.next()
		if _, isOp := opcodeByName[g.Pred]; isOp && p.tok.kind == tIdent {
			if _, nextIsOp := opcodeByName[p.tok.text]; !nextIsOp {
				p.addError(predTok, "expected a predicate register after '@', found "+quoteText(g.Pred))
				p.syncStmt()
				return nil
			}
		}
		in.Guard = g
	}
	if p.tok.kind != tIdent {
		p.errorExpected("an instruction")
		p.syncStmt()
		return nil
	}
	op, ok := opcodeByName[p.tok.text]
	if !ok {
		p.addError(p.tok, "unknown instruction "+quoteText(p.tok.text))
		p.syncStmt()
		return nil
	}
	in.Op = op
	opTok := p.tok
	p.next()
	p.modBuf = p.modBuf[:0]
	for p.tok.kind == tDot {
		m, ok := modByName[p.tok.text]
		if !ok && unimplementedOps[op] {
			p.addError(opTok, "unsupported instruction "+quoteText(opcodeText(p.src[opTok.off:])))
			p.syncStmt()
			return nil
		}
		if !ok {
			p.addError(p.tok, "unknown modifier "+quoteText(p.tok.text)+" on "+op.String())
			p.syncStmt()
			return nil
		}
		p.modBuf = append(p.modBuf, m)
		p.next()
		if sp, _ := m.Space(); sp == SpaceConst && !p.acceptConstBank() {
			p.syncStmt()
			return nil
		}
	}
	if op == OpCp && slices.ContainsFunc(p.modBuf, func(m Mod) bool { return m.String() == ".tensor" }) {
		// The bulk tensor copies' (cp.async.bulk.tensor, cp.reduce.async.bulk.tensor)
		// [tensor-map, {coordinates}] operands are not parsed either.
		p.addError(opTok, "unsupported instruction "+quoteText(strings.TrimSpace(p.src[opTok.off:p.tok.off])))
		p.syncStmt()
		return nil
	}
	in.Mods = p.mods.copy(p.modBuf)
	if p.accept(';') {
		return in
	}
	ops := p.operandScratch()
	for {
		p.operandDepth++
		var o Operand
		if textureOps[op] && p.isPunct('[') {
			o = p.parseImageOp()
		} else {
			o = p.parseOperand()
		}
		p.operandDepth--
		if o == nil {
			p.syncStmt()
			return nil
		}
		ops = append(ops, o)
		if !p.accept(',') {
			break
		}
	}
	in.Operands = p.operands.copy(ops)
	p.operandBufs[p.operandDepth] = ops[:0]
	if !p.expectSemi("instruction") {
		p.syncStmt()
		return nil
	}
	return in
}

// textureOps are the texture and surface instructions, whose bracketed operand is an ImageOp.
var textureOps = map[Opcode]bool{OpTex: true, OpTld4: true, OpTxq: true, OpSuld: true, OpSust: true, OpSured: true, OpSuq: true}

// unimplementedOps are the instruction families ptx2go implements no form of. The ISA keeps
// adding modifiers to them (tcgen05.alloc, tensormap.replace, ...) that the modifier table does
// not list; such a modifier is reported as the unsupported instruction it belongs to, not as a
// misspelling.
var unimplementedOps = map[Opcode]bool{
	OpTcgen05: true, OpTensormap: true, OpWgmma: true, OpMultimem: true, OpStmatrix: true,
	OpMovmatrix: true, OpMapa: true, OpGetctarank: true, OpAlloca: true, OpStacksave: true,
	OpStackrestore: true,
}

// opcodeText returns the opcode and modifiers at the start of src: the text up to the first
// blank, ';' or end of line.
func opcodeText(src string) string {
	if i := strings.IndexAny(src, " \t\r\n;"); i >= 0 {
		return src[:i]
	}
	return src
}

// acceptConstBank accepts the bank number of PTX ISA 1.x's banked constant state space
// after .const: `.const[0]` is .const, the only bank before ISA 2.2 for statically sized
// variables. Banks 1 to 10 held driver-allocated constant buffers that ptx2go has no way to
// fill, so they are an error. It reports whether parsing can go on.
func (p *parser) acceptConstBank() bool {
	if !p.isPunct('[') {
		return true
	}
	open := p.tok
	p.next()
	num := p.tok
	bank, ok := p.parseSmallInt("constant bank")
	if !ok || !p.expect(']', " to close the constant bank") {
		return false
	}
	if bank != 0 {
		p.addError(open, "constant bank "+strconv.Itoa(bank)+" (.const["+num.text+"]) is not supported: banks 1 to 10 held driver-allocated constant buffers before PTX ISA 2.2; only bank 0, plain .const, is")
		return false
	}
	return true
}

// parseIdent parses a name, folding in an adjacent component suffix: `%tid.x`, `%r1.b0`.
func (p *parser) parseIdent() *Ident {
	t := p.tok
	id := p.idents.alloc()
	id.Pos, id.Name = p.pos(t), t.text
	p.next()
	for p.tok.kind == tDot && p.tok.off == t.off+len(id.Name) {
		id.Name = p.src[t.off : p.tok.off+len(p.tok.text)]
		p.next()
	}
	return id
}

func (p *parser) parseOperand() Operand {
	t := p.tok
	switch t.kind {
	case tIdent:
		if t.text == "_" && !p.peekPunct('|') {
			p.next()
			return &Sink{Pos: p.pos(t)}
		}
		id := p.parseIdent()
		switch {
		case p.isPunct('|'):
			// `d|p`, where d may be the sink `_` (as in elect.sync _|p, mask).
			p.next()
			if p.tok.kind != tIdent {
				p.errorExpected("a second predicate after '|'")
				return nil
			}
			return &PredPair{Pos: id.Pos, First: id, Second: p.parseIdent()}
		case p.isPunct('+'):
			off, ok := p.parseOffset()
			if !ok {
				return nil
			}
			return &SymRef{Pos: id.Pos, Name: id.Name, Offset: off}
		}
		return id
	case tInt, tFloat:
		o, _ := p.parseNumber()
		return o
	case tPunct:
		switch t.text[0] {
		case '-':
			o, _ := p.parseNumber()
			return o
		case '!':
			p.next()
			if p.tok.kind != tIdent {
				p.errorExpected("a predicate after '!'")
				return nil
			}
			return &Not{Pos: p.pos(t), X: p.parseIdent()}
		case '[':
			return p.parseAddress()
		case '{':
			elems, ok := p.parseOperandList('}', "vector")
			if !ok {
				return nil
			}
			return &VectorOp{Pos: p.pos(t), Elems: elems}
		case '(':
			elems, ok := p.parseOperandList(')', "argument")
			if !ok {
				return nil
			}
			return &ListOp{Pos: p.pos(t), Elems: elems}
		}
	}
	p.errorExpected("an operand")
	return nil
}

// parseOperandList parses the elements of `{...}`, `(...)` or a texture operand's `[...]` up to
// the closing character. A call's `(...)` list may hold vectors (`{%r1, %r2}` for a .v2 .reg
// parameter) and a texture operand its coordinate vector; nothing else nests.
func (p *parser) parseOperandList(closer byte, what string) ([]Operand, bool) {
	p.next()
	if p.accept(closer) {
		return nil, true
	}
	elems := p.operandScratch()
	for {
		if p.isPunct('(') || p.isPunct('{') && closer == '}' {
			p.errorExpected("an element of the " + what + " list")
			return nil, false
		}
		p.operandDepth++
		o := p.parseOperand()
		p.operandDepth--
		if o == nil {
			return nil, false
		}
		elems = append(elems, o)
		if p.accept(closer) {
			p.operandBufs[p.operandDepth] = elems[:0]
			return p.operands.copy(elems), true
		}
		if !p.expect(',', " or '"+string(closer)+"' in the "+what+" list") {
			return nil, false
		}
	}
}

// parseImageOp parses the bracketed operand of a texture or surface instruction, `[a]`,
// `[a, c]` or `[a, b, c]`: names, registers and a coordinate vector.
func (p *parser) parseImageOp() Operand {
	t := p.tok
	elems, ok := p.parseOperandList(']', "texture operand")
	if !ok {
		return nil
	}
	if len(elems) == 0 || len(elems) > 3 {
		p.addError(t, "a texture or surface operand takes one to three elements: [tex], [tex, coords] or [tex, sampler, coords]")
		return nil
	}
	return &ImageOp{Pos: p.pos(t), Elems: elems}
}

// parseAddress parses `[base]`, `[base+off]`, `[base+-off]` or `[imm]`.
func (p *parser) parseAddress() Operand {
	a := p.addresses.alloc()
	a.Pos = p.pos(p.tok)
	p.next()
	switch p.tok.kind {
	case tIdent:
		a.Base = p.parseIdent().Name
		off, ok := p.parseOffset()
		if !ok {
			return nil
		}
		if p.isPunct('-') {
			// `[%rd1-4]` means `[%rd1+-4]`.
			p.next()
			if p.tok.kind != tInt {
				p.errorExpected("an integer offset")
				return nil
			}
			v, _, _, ok := decodeInt(p.tok.text)
			if !ok || v > math.MaxInt64 {
				p.addError(p.tok, "offset "+quoteText(p.tok.text)+" is out of range")
				return nil
			}
			off = -int64(v)
			p.next()
		}
		a.Offset = off
	case tInt:
		v, _, _, ok := decodeInt(p.tok.text)
		if !ok {
			p.addError(p.tok, "malformed or out-of-range address "+quoteText(p.tok.text))
			return nil
		}
		a.Offset = int64(v)
		p.next()
	default:
		p.errorExpected("a register, variable or address in '[ ]'")
		return nil
	}
	if !p.expect(']', " to close the address") {
		return nil
	}
	return a
}
