package frontend

import (
	"bytes"
	"fmt"
	"strconv"
)

// Unit is one PTX compilation unit of a separately compiled program (nvcc -rdc): its name,
// for errors, and its text.
type Unit struct {
	Name string
	Src  []byte
}

// unitSymbols are the module-level symbols of a parsed unit.
type unitSymbols struct {
	defs     map[string]Linkage // defined functions and variables, by linkage
	vars     map[string]bool    // which of defs are variables
	declared []string           // declared but not defined here (.extern, prototypes), in order
}

func symbolsOf(m *Module) unitSymbols {
	s := unitSymbols{defs: map[string]Linkage{}, vars: map[string]bool{}}
	var decls []string
	for _, it := range m.Items {
		switch it := it.(type) {
		case *Function:
			if it.Body != nil {
				s.defs[it.Name] = it.Linkage
			} else {
				decls = append(decls, it.Name)
			}
		case *VarDecl:
			for _, d := range it.Names {
				if it.Linkage == LinkExtern {
					decls = append(decls, d.Name)
				} else {
					s.defs[d.Name], s.vars[d.Name] = it.Linkage, true
				}
			}
		}
	}
	for _, n := range decls {
		if _, ok := s.defs[n]; !ok {
			s.declared = append(s.declared, n)
		}
	}
	return s
}

// Link joins unit first with the units that define, transitively, what it declares without
// defining (.extern functions and variables), as the device link step of nvcc -rdc joins
// them, into the text of one module. The other units' .version, .target and .address_size
// lines go (the module takes the highest .version). A module-local symbol (no .visible,
// .extern, .weak or .common) whose name another joined unit defines or declares too is
// renamed in its unit, NAME becoming NAME$uN, so each unit keeps its own; so is a .weak or
// .common function whose name a .visible definition or an earlier unit's keeps (the copies
// are the same code). Two .visible definitions of one name, or a variable defined in two
// units with linkage, are errors: ptx2go does not merge variables. A declaration no unit
// defines stays as it is, and compiling the module reports it where it is used. It returns
// the units it joined, in order.
func Link(units []Unit, first int) ([]byte, []int, error) {
	parsed := make([]*Module, len(units))
	syms := make([]unitSymbols, len(units))
	parse := func(i int) error {
		if parsed[i] != nil {
			return nil
		}
		m, err := Parse(units[i].Name, units[i].Src)
		if err != nil {
			return err
		}
		parsed[i], syms[i] = m, symbolsOf(m)
		return nil
	}
	if err := parse(first); err != nil {
		return nil, nil, err
	}
	order := []int{first}
	joined := map[int]bool{first: true}
	defined := func(name string) bool {
		for _, j := range order {
			if l, ok := syms[j].defs[name]; ok && l != LinkNone {
				return true
			}
		}
		return false
	}
	for k := 0; k < len(order); k++ {
		for _, name := range syms[order[k]].declared {
			if defined(name) {
				continue
			}
			for i := range units {
				if joined[i] || !bytes.Contains(units[i].Src, []byte(name)) {
					continue
				}
				if err := parse(i); err != nil {
					return nil, nil, err
				}
				if l, ok := syms[i].defs[name]; ok && l != LinkNone {
					order, joined[i] = append(order, i), true
					break
				}
			}
		}
	}

	// keeper is the unit whose definition of a non-local name the module keeps: the .visible
	// one, or else the first .weak or .common one; mentions counts the joined units that
	// define or declare a name.
	keeper, mentions := map[string]int{}, map[string]int{}
	for _, i := range order {
		for _, name := range syms[i].declared {
			mentions[name]++
		}
		for name, l := range syms[i].defs {
			mentions[name]++
			if l == LinkNone {
				continue
			}
			k, ok := keeper[name]
			if !ok {
				keeper[name] = i
				continue
			}
			kl := syms[k].defs[name]
			switch {
			case l == LinkVisible && kl == LinkVisible:
				return nil, nil, fmt.Errorf("%s and %s both define %s", units[k].Name, units[i].Name, name)
			case syms[i].vars[name] || syms[k].vars[name]:
				return nil, nil, fmt.Errorf("%s and %s both define the variable %s (%s and %s); ptx2go does not merge them", units[k].Name, units[i].Name, name, kl, l)
			case l == LinkVisible:
				keeper[name] = i
			}
		}
	}
	var out bytes.Buffer
	version := parsed[first].Version
	for _, i := range order {
		if v := parsed[i].Version; v.Major > version.Major || v.Major == version.Major && v.Minor > version.Minor {
			version = v
		}
	}
	for n, i := range order {
		renames := map[string]string{}
		for name, l := range syms[i].defs {
			if l == LinkNone && mentions[name] > 1 || l != LinkNone && keeper[name] != i {
				renames[name] = name + "$u" + strconv.Itoa(i)
			}
		}
		src := renameSymbols(units[i].Src, renames)
		fmt.Fprintf(&out, "// ptx2go link: %s\n", units[i].Name)
		for _, line := range bytes.SplitAfter(src, []byte("\n")) {
			t := bytes.TrimSpace(line)
			switch {
			case bytes.HasPrefix(t, []byte(".version")):
				if n == 0 {
					fmt.Fprintf(&out, ".version %d.%d\n", version.Major, version.Minor)
				}
				continue
			case bytes.HasPrefix(t, []byte(".target")), bytes.HasPrefix(t, []byte(".address_size")):
				if n > 0 {
					continue
				}
			}
			out.Write(line)
		}
		if !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	return out.Bytes(), order, nil
}

// renameSymbols replaces each identifier of src that renames names, outside comments and
// string literals and not after a '.' (directives and modifiers are not symbols).
func renameSymbols(src []byte, renames map[string]string) []byte {
	if len(renames) == 0 {
		return src
	}
	ident := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	var out bytes.Buffer
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out.Write(src[i : i+j])
			i += j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			end := len(src)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			out.Write(src[i:end])
			i = end
		case c == '"':
			j := bytes.IndexByte(src[i+1:], '"')
			end := len(src)
			if j >= 0 {
				end = i + 1 + j + 1
			}
			out.Write(src[i:end])
			i = end
		case ident(c) || c == '%':
			j := i + 1
			for j < len(src) && ident(src[j]) {
				j++
			}
			word := string(src[i:j])
			if r, ok := renames[word]; ok && (i == 0 || src[i-1] != '.') {
				out.WriteString(r)
			} else {
				out.WriteString(word)
			}
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.Bytes()
}
