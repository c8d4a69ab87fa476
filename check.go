package ptx2go

import "github.com/ptx2go/ptx2go/runtime"

// The sanitizer: compile with Options.Check, then launch with LaunchConfig.Check set to the
// tools to run. A launch that finds something returns a *CheckError whose Reports say what,
// where (PTX line, instruction, CUDA source line from .loc), which CTAs and threads, and how
// often; WriteCheckReports prints them as NVIDIA's compute-sanitizer does.
type (
	CheckTools  = runtime.CheckTools
	CheckKind   = runtime.CheckKind
	CheckReport = runtime.CheckReport
	CheckAccess = runtime.CheckAccess
	CheckError  = runtime.CheckError
)

// The tools of LaunchConfig.Check.
const (
	CheckRace = runtime.CheckRace // racecheck: hazards on shared memory and on global memory within a CTA
	CheckSync = runtime.CheckSync // synccheck: barriers, .uni branches, warp-level membermasks
	CheckInit = runtime.CheckInit // initcheck: reads of bytes nothing wrote
	CheckLeak = runtime.CheckLeak // leakcheck: allocations never freed (Device.LeakReports)
	CheckAll  = runtime.CheckAll
)

// The kinds of report.
const (
	HazardRAW     = runtime.HazardRAW
	HazardWAR     = runtime.HazardWAR
	HazardWAW     = runtime.HazardWAW
	SyncDivergent = runtime.SyncDivergent
	SyncCount     = runtime.SyncCount
	SyncUni       = runtime.SyncUni
	SyncMask      = runtime.SyncMask
	SyncDeadlock  = runtime.SyncDeadlock
	Uninitialized = runtime.Uninitialized
	Leak          = runtime.Leak
)

// ParseCheckTools reads "racecheck,initcheck", "all" or "".
func ParseCheckTools(s string) (CheckTools, error) { return runtime.ParseCheckTools(s) }

// WriteCheckReports and WriteCheckSummary print reports in compute-sanitizer's layout.
var (
	WriteCheckReports = runtime.WriteCheckReports
	WriteCheckSummary = runtime.WriteCheckSummary
)
