package layout

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// InstrSpace is an instruction's state space, SpaceNone for generic addressing.
func InstrSpace(in *ssa.Instr) frontend.Space {
	for _, m := range in.Mods {
		if s, ok := m.Space(); ok {
			return s
		}
	}
	return frontend.SpaceNone
}

// InstrType is an instruction's last type modifier (the one most forms are named by),
// TypeNone without one.
func InstrType(in *ssa.Instr) frontend.Type {
	t := frontend.TypeNone
	for _, m := range in.Mods {
		if x, ok := m.Type(); ok {
			t = x
		}
	}
	return t
}
