package gosrc

import (
	"strconv"
	"strings"
	"unicode"
)

// goName turns a PTX identifier into a readable Go identifier, exported or not: an Itanium
// mangled name (_Z7collatzi, _ZN2ns4funcEv) keeps its plain name components, and the other
// characters PTX allows ($ % . and digits first) separate words. The result is stable (it
// depends on the name only); callers make it unique.
func goName(ptx string, exported bool) string {
	words := splitWords(demangle(ptx))
	var b strings.Builder
	for i, w := range words {
		if i == 0 && !exported {
			b.WriteString(strings.ToLower(w[:1]) + w[1:])
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	s := b.String()
	if s == "" {
		s = "x"
	}
	if unicode.IsDigit(rune(s[0])) {
		if exported {
			s = "K" + s
		} else {
			s = "k" + s
		}
	}
	if !exported && isKeyword(s) {
		s += "_"
	}
	return s
}

// demangle returns the name components of an Itanium-mangled C++ name joined by '_', or the
// name itself.
func demangle(s string) string {
	if !strings.HasPrefix(s, "_Z") {
		return s
	}
	rest := s[2:]
	nested := strings.HasPrefix(rest, "N")
	if nested {
		rest = rest[1:]
	}
	var parts []string
	for len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(rest[:i])
		if err != nil || i+n > len(rest) {
			break
		}
		parts = append(parts, rest[i:i+n])
		rest = rest[i+n:]
		if !nested {
			break
		}
	}
	if len(parts) == 0 {
		return s
	}
	return strings.Join(parts, "_")
}

func splitWords(s string) []string {
	var words []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		words = append(words, w)
	}
	return words
}

func isKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
		"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
		"return", "select", "struct", "switch", "type", "var":
		return true
	}
	return false
}

// namer hands out unique identifiers: a taken name gets the smallest free suffix 2, 3, ...
type namer map[string]bool

func (n namer) unique(s string) string {
	if !n[s] {
		n[s] = true
		return s
	}
	for i := 2; ; i++ {
		t := s + strconv.Itoa(i)
		if !n[t] {
			n[t] = true
			return t
		}
	}
}
