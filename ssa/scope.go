package ssa

import (
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// scope holds the names one `{ }` group, or a function's parameter list, declares. The scalar
// registers of a parameterized declaration such as `.reg .b32 %r<100>` are kept as a range and
// found by reading the number off the name, rather than entered one by one: functions declare
// far more registers than anything else. The other names are few in most scopes (the `.param`
// variables of a call, say), so they are searched in a list until there are enough to index.
type scope struct {
	entries []scopeEntry
	// index and stems are nil until entries is long: index finds an entry by name, and stems
	// holds the stem of every name, so a range that cannot repeat one is recognized without
	// spelling out its names.
	index  map[string]int
	stems  map[string]bool
	ranges []regRange
}

// scopeEntry is one name declared on its own: a *Reg, *Variable or *vecReg.
type scopeEntry struct {
	name string
	ent  any
}

// indexAt is the number of entries from which a scope indexes them.
const indexAt = 16

// regRange is the registers prefix0, prefix1, ... of one parameterized declaration. A register
// of the range is made, and added to its function by add, when a name first refers to it, so
// declaring far more registers than the code uses costs nothing.
type regRange struct {
	prefix string
	count  int
	typ    frontend.Type
	pos    frontend.Pos
	made   map[int]*Reg
	add    func(*Reg)
}

// stem returns name without its trailing decimal digits.
func stem(name string) string {
	i := len(name)
	for i > 0 && '0' <= name[i-1] && name[i-1] <= '9' {
		i--
	}
	return name[:i]
}

// lookup returns what name declares in the scope, or nil.
func (sc *scope) lookup(name string) any {
	for i := range sc.ranges {
		if r := sc.ranges[i].reg(name); r != nil {
			return r
		}
	}
	if i := sc.find(name); i >= 0 {
		return sc.entries[i].ent
	}
	return nil
}

// find returns the index of the entry named name, or -1.
func (sc *scope) find(name string) int {
	if sc.index != nil {
		if i, ok := sc.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range sc.entries {
		if sc.entries[i].name == name {
			return i
		}
	}
	return -1
}

// define enters name, reporting false when the scope already declares it.
func (sc *scope) define(name string, ent any) bool {
	if sc.lookup(name) != nil {
		return false
	}
	sc.enter(name, ent)
	return true
}

// enter enters name, replacing any entry of that name.
func (sc *scope) enter(name string, ent any) {
	if i := sc.find(name); i >= 0 {
		sc.entries[i].ent = ent
		return
	}
	sc.entries = append(sc.entries, scopeEntry{name, ent})
	switch {
	case sc.index != nil:
		sc.index[name] = len(sc.entries) - 1
		sc.stems[stem(name)] = true
	case len(sc.entries) == indexAt:
		sc.index = make(map[string]int, 2*indexAt)
		sc.stems = make(map[string]bool, 2*indexAt)
		for i, e := range sc.entries {
			sc.index[e.name] = i
			sc.stems[stem(e.name)] = true
		}
	}
}

// mayRepeat reports whether a name of prefix followed by digits may be declared in the scope
// already: whether one of its names or ranges has the same stem.
func (sc *scope) mayRepeat(prefix string) bool {
	s := stem(prefix)
	if sc.stems != nil {
		if sc.stems[s] {
			return true
		}
	} else {
		for i := range sc.entries {
			if stem(sc.entries[i].name) == s {
				return true
			}
		}
	}
	for i := range sc.ranges {
		if stem(sc.ranges[i].prefix) == s {
			return true
		}
	}
	return false
}

// reg returns the register of the range spelled name, or nil. The names are spelled as
// expandNames spells them: the prefix, then the index in decimal without leading zeros.
func (r *regRange) reg(name string) *Reg {
	if !strings.HasPrefix(name, r.prefix) {
		return nil
	}
	digits := name[len(r.prefix):]
	if digits == "" || len(digits) > 1 && digits[0] == '0' {
		return nil
	}
	n := 0
	for i := range len(digits) {
		c := digits[i]
		if c < '0' || c > '9' {
			return nil
		}
		n = n*10 + int(c-'0')
		if n >= r.count {
			return nil
		}
	}
	if reg := r.made[n]; reg != nil {
		return reg
	}
	if r.made == nil {
		r.made = map[int]*Reg{}
	}
	reg := &Reg{Name: name, Type: r.typ, Pos: r.pos}
	r.add(reg)
	r.made[n] = reg
	return reg
}
