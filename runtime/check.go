package runtime

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The sanitizer (ptx2go run -check, LaunchConfig.Check): tools that find the bugs that do not
// fault, exactly and repeatably, because the machine executes every access of every thread
// itself.
//
//   - racecheck: two accesses to the same byte of shared memory, or of global memory by
//     threads of one CTA, at least one a write and neither an atomic, by different threads
//     with nothing ordering them: a CTA barrier both passed, or (under its) a warp-level
//     synchronization that named both lanes. Under ipdom the lanes of a warp run in lockstep,
//     so they never race with each other.
//   - synccheck: a barrier that not every non-exited thread reaches (under ipdom also one
//     reached by a divergent warp), reached with different thread counts, a .uni branch whose
//     condition differs between the lanes, and the warp-level synchronization and barrier
//     faults the machine cannot run past (membermasks naming lanes that never arrive or that
//     differ between lanes, barriers with different numbers).
//   - initcheck: a read of bytes nothing wrote: global memory since its allocation (host
//     copies and memsets write), shared memory in this CTA, local memory in this thread.
//   - leakcheck: device allocations the host program never freed (Device.LeakReports).
//
// The checks run where the back ends put them: a module compiled with its check hooks
// (Module.CheckHooks: closure.Options.Check, gosrc.Options.Check) calls CheckMem before every
// memory access and CheckUni before every .uni branch, and leaves the address arithmetic
// unfused so that the registers the hooks read hold the addresses. A module without them runs
// exactly the code it ran before the sanitizer existed: nothing tests for a check per access.
// The runtime's own barrier and exit code calls the check only in a checked launch, once per
// barrier arrival, not per access.

// CheckTools selects the sanitizer's tools.
type CheckTools uint8

// The tools.
const (
	CheckRace CheckTools = 1 << iota // racecheck: shared and CTA-local global memory hazards
	CheckSync                        // synccheck: barriers and warp-level synchronization
	CheckInit                        // initcheck: reads of bytes nothing wrote
	CheckLeak                        // leakcheck: allocations never freed (ptx2go exec)

	CheckAll = CheckRace | CheckSync | CheckInit | CheckLeak
)

var checkToolNames = []struct {
	t    CheckTools
	name string
}{{CheckRace, "racecheck"}, {CheckSync, "synccheck"}, {CheckInit, "initcheck"}, {CheckLeak, "leakcheck"}}

// ParseCheckTools reads a comma-separated list of tools ("racecheck,initcheck"), "all", or ""
// for none.
func ParseCheckTools(s string) (CheckTools, error) {
	var t CheckTools
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if f == "all" {
			t |= CheckAll
			continue
		}
		i := slices.IndexFunc(checkToolNames, func(n struct {
			t    CheckTools
			name string
		}) bool {
			return n.name == f
		})
		if i < 0 {
			return 0, fmt.Errorf("unknown check %q: want racecheck, synccheck, initcheck, leakcheck or all", f)
		}
		t |= checkToolNames[i].t
	}
	return t, nil
}

func (t CheckTools) String() string {
	var names []string
	for _, n := range checkToolNames {
		if t&n.t != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// CheckKind is what a report found.
type CheckKind uint8

// The report kinds.
const (
	HazardRAW     CheckKind = iota + 1 // racecheck: a read after an unordered write
	HazardWAR                          // racecheck: a write after an unordered read
	HazardWAW                          // racecheck: a write after an unordered write
	SyncDivergent                      // synccheck: a barrier not reached by every non-exited thread
	SyncCount                          // synccheck: a barrier reached with different thread counts
	SyncUni                            // synccheck: a .uni branch whose condition is not warp-uniform
	SyncMask                           // synccheck: a warp-level synchronization's membermask error
	SyncDeadlock                       // synccheck: a barrier that can never be released
	Uninitialized                      // initcheck: a read of bytes nothing wrote
	Leak                               // leakcheck: an allocation never freed
)

var checkKindNames = [...]string{
	HazardRAW:     "Read-after-write hazard",
	HazardWAR:     "Write-after-read hazard",
	HazardWAW:     "Write-after-write hazard",
	SyncDivergent: "Barrier error: divergent threads",
	SyncCount:     "Barrier error: thread counts differ",
	SyncUni:       "Uniform branch error: the condition differs between lanes",
	SyncMask:      "Warp synchronization error",
	SyncDeadlock:  "Barrier error: deadlock",
	Uninitialized: "Uninitialized memory read",
	Leak:          "Leaked allocation",
}

func (k CheckKind) String() string {
	if int(k) < len(checkKindNames) && checkKindNames[k] != "" {
		return checkKindNames[k]
	}
	return fmt.Sprintf("check(%d)", uint8(k))
}

// Tool is the tool that makes reports of kind k.
func (k CheckKind) Tool() CheckTools {
	switch {
	case k <= HazardWAW:
		return CheckRace
	case k <= SyncDeadlock:
		return CheckSync
	case k == Uninitialized:
		return CheckInit
	}
	return CheckLeak
}

// CheckAccess is one side of a report: an instruction executed by one thread.
type CheckAccess struct {
	Loc    string // PTX file:line
	Instr  string // the instruction, as written without operands (st.shared.u32)
	Src    string // the CUDA source file:line of its .loc directive, "" without one
	Write  bool   // the access writes
	CTA    Dim3
	Thread Dim3
	Warp   int
	Lane   int
}

// CheckReport is one finding. Reports that differ only in their threads, CTAs and addresses
// are one report with a Count: the first of them (lowest CTA, then execution order) is the
// example the report shows, whatever the number of workers.
type CheckReport struct {
	Kind   CheckKind
	Kernel string
	// Space ("shared", "global", "local") and Addr locate the memory of a race or an
	// uninitialized read; Alloc describes the allocation that holds a global address.
	Space string
	Addr  uint64
	Size  int // the access size, or the leaked allocation's size
	Alloc string
	// Access is the access of an uninitialized read, the second access of a hazard, the
	// instruction of a synccheck report; Prior is a hazard's first access.
	Access CheckAccess
	Prior  CheckAccess
	// Lanes are the lanes of the warp a synccheck report names (Access.Warp); Detail says
	// what went wrong in words.
	Lanes  uint32
	Detail string
	Count  int
	// order is where the example happened: the CTA's linear index, then the CTA's event count.
	cta, seq uint64
}

// key is what makes two reports the same: the kind and the lines involved.
func (r *CheckReport) key() string {
	return fmt.Sprintf("%d|%s|%s|%s|%s", r.Kind, r.Kernel, r.Prior.Loc, r.Access.Loc, r.Space)
}

// CheckError is the error of a checked launch that found something: its reports, and the
// fault that stopped the launch, if one did.
type CheckError struct {
	Reports []CheckReport
	Fault   error
}

func (e *CheckError) Error() string {
	msg := fmt.Sprintf("sanitizer: %d error(s)", len(e.Reports))
	if len(e.Reports) > 0 {
		msg += ", first: " + e.Reports[0].Kind.String() + " at " + e.Reports[0].Access.Loc
	}
	if e.Fault != nil {
		msg += "; " + e.Fault.Error()
	}
	return msg
}

// Unwrap returns the fault that stopped the launch, if any.
func (e *CheckError) Unwrap() error { return e.Fault }

// sortReports puts reports in a fixed order: by kernel, then where their examples happened.
func sortReports(rs []CheckReport) {
	slices.SortStableFunc(rs, func(a, b CheckReport) int {
		return cmp.Or(cmp.Compare(a.cta, b.cta), cmp.Compare(a.seq, b.seq), cmp.Compare(a.key(), b.key()))
	})
}

// WriteCheckReports writes reports in the layout of NVIDIA compute-sanitizer's, every line
// starting with "========= ".
func WriteCheckReports(out io.Writer, reports []CheckReport) {
	for i := range reports {
		writeReport(out, &reports[i])
	}
}

// WriteCheckSummary writes the closing line of compute-sanitizer's output: the number of
// errors.
func WriteCheckSummary(out io.Writer, errors int) {
	s := "s"
	if errors == 1 {
		s = ""
	}
	fmt.Fprintf(out, "========= ERROR SUMMARY: %d error%s\n", errors, s)
}

func writeReport(out io.Writer, r *CheckReport) {
	p := func(format string, args ...any) { fmt.Fprintf(out, "========= "+format+"\n", args...) }
	times := ""
	if r.Count > 1 {
		times = fmt.Sprintf(" [%d hazards]", r.Count)
	}
	switch r.Kind.Tool() {
	case CheckRace:
		p("Error: Race reported between %s access at %s", rw(r.Prior.Write), accessAt(&r.Prior))
		p("    and %s access at %s%s", rw(r.Access.Write), accessAt(&r.Access), times)
		p("    %s on %s memory at %#x%s, %d bytes", r.Kind, r.Space, r.Addr, allocOf(r.Alloc), r.Size)
		p("    by thread %s in block %s and thread %s in block %s", r.Prior.Thread, r.Prior.CTA, r.Access.Thread, r.Access.CTA)
	case CheckInit:
		p("Uninitialized __%s__ memory read of size %d bytes", r.Space, r.Size)
		p("    at %s", accessAt(&r.Access))
		p("    by thread %s in block %s", r.Access.Thread, r.Access.CTA)
		p("    Address %#x%s", r.Addr, allocOf(r.Alloc))
		if r.Count > 1 {
			p("    (%d uninitialized reads at this line)", r.Count)
		}
	case CheckSync:
		p("%s", r.Kind)
		p("    at %s", accessAt(&r.Access))
		p("    by warp %d, lanes %#08x, in block %s (thread %s first)", r.Access.Warp, r.Lanes, r.Access.CTA, r.Access.Thread)
		if r.Detail != "" {
			p("    %s", r.Detail)
		}
		if r.Count > 1 {
			p("    (%d times)", r.Count)
		}
	case CheckLeak:
		p("Leaked %d bytes at %#x", r.Size, r.Addr)
		p("    allocated by %s", r.Detail)
	}
	p("")
}

func rw(write bool) string {
	if write {
		return "Write"
	}
	return "Read"
}

func allocOf(a string) string {
	if a == "" {
		return ""
	}
	return " (" + a + ")"
}

// accessAt is an access's place: PTX line and instruction, the source line, the kernel.
func accessAt(a *CheckAccess) string {
	s := a.Loc + " (" + a.Instr + ")"
	if a.Src != "" {
		s += " [" + a.Src + "]"
	}
	return s
}
