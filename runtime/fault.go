package runtime

import (
	"fmt"
	"strings"
)

// FaultKind classifies a runtime fault.
type FaultKind uint8

// The fault kinds.
const (
	FaultOutOfBounds   FaultKind = iota + 1 // an access outside any live allocation or window
	FaultMisaligned                         // an access not aligned to its size
	FaultBrxRange                           // a brx.idx index past the end of its target list
	FaultCallTarget                         // an indirect call to a function outside the call site's target set
	FaultCallSignature                      // an indirect call to a function whose signature does not match the prototype
	FaultStackOverflow                      // call depth or local memory beyond the configured limit
	FaultDeadlock                           // a CTA whose warps all wait on barriers that can never be released
	FaultTrap                               // the kernel executed trap
	FaultBreakpoint                         // the kernel executed brkpt
	FaultCancelled                          // the launch's context was cancelled or timed out
	FaultWarpSync                           // a warp-synchronous instruction whose membermask names inactive lanes
	FaultIllegal                            // an operation the machine cannot perform, such as an unsupported value
	FaultSIMTDeadlock                       // under ipdom, lanes spin while lanes of their warp wait for them
	FaultBudget                             // a warp ran more blocks than LaunchConfig.MaxWarpBlocks
	FaultAssert                             // a device-side assert failed (__assertfail)
	FaultReadOnly                           // a store, atomic or reduction to constant memory
	FaultLaunchDepth                        // a grid launched from the device beyond MaxLaunchDepth nested levels
)

var faultNames = [...]string{
	FaultOutOfBounds:   "out-of-bounds access",
	FaultMisaligned:    "misaligned access",
	FaultBrxRange:      "brx.idx index out of range",
	FaultCallTarget:    "illegal indirect call target",
	FaultCallSignature: "indirect call signature mismatch",
	FaultStackOverflow: "stack overflow",
	FaultDeadlock:      "barrier deadlock",
	FaultTrap:          "trap",
	FaultBreakpoint:    "breakpoint",
	FaultCancelled:     "cancelled",
	FaultWarpSync:      "warp synchronization error",
	FaultIllegal:       "illegal operation",
	FaultSIMTDeadlock:  "SIMT deadlock",
	FaultBudget:        "block budget exhausted",
	FaultAssert:        "assertion failed",
	FaultReadOnly:      "store to read-only memory",
	FaultLaunchDepth:   "launch nesting depth exceeded",
}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) && faultNames[k] != "" {
		return faultNames[k]
	}
	return fmt.Sprintf("fault(%d)", uint8(k))
}

// Fault is the error Launch returns when a kernel fails. It names the kernel, the function and
// PTX source line executing, the CTA and thread, and the address for memory faults.
type Fault struct {
	Kind    FaultKind
	Kernel  string
	Func    string
	Loc     string // PTX file:line of the faulting instruction, when known
	CTA     Dim3
	Thread  Dim3
	HasAddr bool
	Addr    uint64
	Space   string // the state space of a memory fault
	Detail  string
	Err     error // the underlying error of a cancellation
	// Assert is what a failed device-side assert names (FaultAssert); Detail then holds the
	// line CUDA prints for it (CUDAAssertMessage).
	Assert *Assertion
	// AssertLines are the lines CUDA prints for a failed assert: one for each thread of the
	// warp that called __assertfail together, in lane order (the first is Detail).
	AssertLines []string
}

func (f *Fault) Error() string {
	var b strings.Builder
	if f.Loc != "" {
		b.WriteString(f.Loc)
		b.WriteString(": ")
	}
	b.WriteString(f.Kind.String())
	if f.HasAddr {
		if f.Space != "" {
			fmt.Fprintf(&b, " at %s address %#x", f.Space, f.Addr)
		} else {
			fmt.Fprintf(&b, " at address %#x", f.Addr)
		}
	}
	if f.Detail != "" {
		b.WriteString(": ")
		b.WriteString(f.Detail)
	}
	fmt.Fprintf(&b, " (kernel %s", f.Kernel)
	if f.Func != "" && f.Func != f.Kernel {
		fmt.Fprintf(&b, ", function %s", f.Func)
	}
	fmt.Fprintf(&b, ", CTA %s, thread %s)", f.CTA, f.Thread)
	return b.String()
}

// Unwrap returns the cause of a cancellation.
func (f *Fault) Unwrap() error { return f.Err }
