// Package runtime is the machine that compiled PTX runs on: devices and their memory spaces
// (global memory and the shared, local, parameter and constant windows), launches and the
// scheduling of CTAs onto workers, warps of 32 lanes with their SIMT reconvergence stack and
// call-return stack, barriers, atomics, the warp-level and matrix instructions, device printf
// and malloc, faults and execution statistics. Both back ends run on it: the closure trees
// that codegen/closure builds in the process and the Go source that codegen/gosrc writes
// (ptx2go generate) execute the same warps, memory and faults, so they agree by construction.
// It knows nothing of PTX syntax: a back end hands it a Module of functions, blocks and
// instructions. The scalar semantics of single instructions (rounding, NaN rules, half
// precision, bit operations) are in runtime/isa.
//
// Most of its exported identifiers (Warp, Block, CTA, Term and the Term kinds, Slot, MemOp,
// Instr, Window, the Load and Store helpers, ...) exist for the back ends and for the code
// they generate, which lives in other packages and so needs them exported. They are not user
// API: they change whenever the back ends do, with no compatibility promise. Programs import
// the root package, github.com/ptx2go/ptx2go, which re-exports the user API (Device, Ptr,
// Upload, Download, LaunchConfig, Fault, Stats, ...) as aliases of this package's types.
// Packages that `ptx2go generate` writes import runtime themselves, and their Module and
// launch functions take those same types.
package runtime
