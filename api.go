package ptx2go

import "github.com/ptx2go/ptx2go/runtime"

// This file re-exports the part of package runtime that programs use, so that one import of
// ptx2go compiles a module, makes a device, moves data and launches kernels, also the kernels
// of packages that `ptx2go generate` wrote (their launch functions take these same types).
// The aliases are the runtime's types themselves: their methods and fields are documented
// there (go doc github.com/ptx2go/ptx2go/runtime Device).

// Device is a simulated GPU's global memory, on which kernels launch. Its methods allocate
// (Malloc, MallocHost, MapHost), free, copy (CopyIn, CopyOut), fill (Memset), set the device
// heap's size (SetHeapSize) and say where kernels' printf output goes (SetPrintfOutput).
type Device = runtime.Device

// NewDevice returns an empty device. A program usually needs one, shared by its launches.
func NewDevice() *Device { return runtime.NewDevice() }

// Ptr is a device address: what Upload and Device.Malloc return and what a kernel's pointer
// parameter takes.
type Ptr = runtime.Ptr

// Scalar is an element type that Upload, Download and Write accept: the fixed-size integers
// and floats.
type Scalar = runtime.Scalar

// Upload allocates device memory holding a copy of s and returns its address.
func Upload[T Scalar](d *Device, s []T) (Ptr, error) { return runtime.Upload(d, s) }

// Download copies len(dst) elements from the device at p to dst.
func Download[T Scalar](d *Device, dst []T, p Ptr) error { return runtime.Download(d, dst, p) }

// Write copies s into device memory at p that is already allocated, such as a buffer a later
// launch reuses.
func Write[T Scalar](d *Device, p Ptr, s []T) error { return runtime.Write(d, p, s) }

// Dim3 is a grid or block shape, as in CUDA; a zero component counts as 1.
type Dim3 = runtime.Dim3

// D1 is the one-dimensional shape x: Dim3{X: x}.
func D1(x uint32) Dim3 { return runtime.D1(x) }

// LaunchConfig is everything a launch may set beyond its arguments: the grid and block shapes,
// dynamic shared memory, the worker count (1 is deterministic), the call-depth and local-memory
// limits, the scheduling model, a block budget, cooperative launch, printf output, a progress
// callback and the Stats to fill. Kernel.LaunchConfig and generated launch functions take it.
type LaunchConfig = runtime.LaunchConfig

// Sched is the scheduling model of the lanes of a warp (LaunchConfig.Sched).
type Sched = runtime.Sched

// The scheduling models: SchedDefault follows the module's target, SchedITS is independent
// thread scheduling (sm_70 and newer), SchedIPDOM the strict pre-Volta reconvergence stack.
const (
	SchedDefault = runtime.SchedDefault
	SchedITS     = runtime.SchedITS
	SchedIPDOM   = runtime.SchedIPDOM
)

// ParseSched reads a scheduling model's name: "its", "ipdom" or "default", as a command-line
// flag would give it.
func ParseSched(s string) (Sched, error) { return runtime.ParseSched(s) }

// Limits of a launch, as on current NVIDIA GPUs, and the defaults of the limits a launch or a
// device may change.
const (
	WarpSize           = runtime.WarpSize           // lanes in a warp
	MaxThreadsPerBlock = runtime.MaxThreadsPerBlock // threads in a CTA
	MaxSharedBytes     = runtime.MaxSharedBytes     // static and dynamic shared memory of a CTA
	MaxLocalBytes      = runtime.MaxLocalBytes      // local memory per thread
	MaxCooperativeCTAs = runtime.MaxCooperativeCTAs // CTAs of a cooperative launch
	MaxLaunchDepth     = runtime.MaxLaunchDepth     // nesting of grids launched from the device (dynamic parallelism)

	DefaultCallDepth        = runtime.DefaultCallDepth        // LaunchConfig.MaxCallDepth when 0
	DefaultLocalBytes       = runtime.DefaultLocalBytes       // LaunchConfig.LocalBytes when 0
	DefaultHeapSize         = runtime.DefaultHeapSize         // the device malloc heap unless Device.SetHeapSize changes it
	DefaultPrintfBufferSize = runtime.DefaultPrintfBufferSize // printf output one launch keeps unless Device.SetPrintfBufferSize changes it
)

// Fault is the error a launch returns when a kernel fails: its kind, the kernel, the function
// and PTX source line executing, the CTA and thread, and the address of a memory fault. Find it
// with errors.As or errors.AsType[*Fault].
type Fault = runtime.Fault

// FaultKind classifies a Fault.
type FaultKind = runtime.FaultKind

// The fault kinds.
const (
	FaultOutOfBounds   = runtime.FaultOutOfBounds   // an access outside any live allocation or window
	FaultMisaligned    = runtime.FaultMisaligned    // an access not aligned to its size
	FaultBrxRange      = runtime.FaultBrxRange      // a brx.idx index past the end of its target list
	FaultCallTarget    = runtime.FaultCallTarget    // an indirect call to a function outside the call site's target set
	FaultCallSignature = runtime.FaultCallSignature // an indirect call to a function whose signature does not match the prototype
	FaultStackOverflow = runtime.FaultStackOverflow // call depth or local memory beyond the configured limit
	FaultDeadlock      = runtime.FaultDeadlock      // a CTA whose warps all wait on barriers that can never be released
	FaultTrap          = runtime.FaultTrap          // the kernel executed trap
	FaultBreakpoint    = runtime.FaultBreakpoint    // the kernel executed brkpt
	FaultCancelled     = runtime.FaultCancelled     // the launch's context was cancelled or timed out
	FaultWarpSync      = runtime.FaultWarpSync      // a warp-synchronous instruction whose membermask names inactive lanes
	FaultIllegal       = runtime.FaultIllegal       // an operation the machine cannot perform, such as an unsupported value
	FaultSIMTDeadlock  = runtime.FaultSIMTDeadlock  // under SchedIPDOM, lanes spin while lanes of their warp wait for them
	FaultBudget        = runtime.FaultBudget        // a warp ran more blocks than LaunchConfig.MaxWarpBlocks
	FaultAssert        = runtime.FaultAssert        // a device-side assert failed (__assertfail)
	FaultReadOnly      = runtime.FaultReadOnly      // a store, atomic or reduction to constant memory
	FaultLaunchDepth   = runtime.FaultLaunchDepth   // a grid launched from the device beyond MaxLaunchDepth nested levels
)

// Assertion is what a failed device-side assert names (Fault.Assert): its expression, source
// file and line and function.
type Assertion = runtime.Assertion

// Stats are a launch's execution counts (instructions, warp efficiency, branches and divergence,
// calls, reconvergences, stack depths, barriers, atomics, bytes per state space, a per-line
// profile). Set LaunchConfig.Stats to collect them; one Stats can total several launches.
type Stats = runtime.Stats

// LineStats is the profile of one PTX source line (Stats.Lines).
type LineStats = runtime.LineStats

// MemSpace is a state space, the index of Stats.Loaded and Stats.Stored.
type MemSpace = runtime.MemSpace

// The state spaces that Stats counts bytes in; NumMemSpaces is their number.
const (
	MemGlobal    = runtime.MemGlobal
	MemShared    = runtime.MemShared
	MemLocal     = runtime.MemLocal
	MemParam     = runtime.MemParam
	MemConst     = runtime.MemConst
	NumMemSpaces = runtime.NumMemSpaces
)
