// Package isa holds the scalar semantics of PTX instructions as plain Go functions: rounding
// modes, NaN rules, saturation, half-precision formats and the integer bit operations. Both back
// ends call the same functions (the closure back end directly, generated Go source by name), so
// they agree bit for bit by construction. It knows nothing of warps, memory or PTX syntax.
package isa
