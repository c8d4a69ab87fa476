package ssa

import (
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/frontend"
)

// targetSM returns the SM version a .target directive names (60 for sm_60 or compute_60, 90
// for sm_90a), or 0 when it names none.
func targetSM(t frontend.Target) int {
	for _, name := range t.Names {
		rest, ok := strings.CutPrefix(name, "sm_")
		if !ok {
			rest, ok = strings.CutPrefix(name, "compute_")
		}
		if !ok {
			continue
		}
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if n, err := strconv.Atoi(rest[:end]); err == nil {
			return n
		}
	}
	return 0
}

// legacyWarpOK reports whether the module may use vote and shfl without .sync: the PTX ISA
// removed them for .target sm_70 and higher from PTX ISA version 6.4.
func legacyWarpOK(m *frontend.Module) bool {
	v := m.Version
	return targetSM(m.Target) < 70 || v.Major < 6 || v.Major == 6 && v.Minor < 4
}
