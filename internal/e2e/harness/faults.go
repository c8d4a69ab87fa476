package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptx2go/ptx2go/runtime"
)

func ReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FaultLoc is the file:line of the instruction marked `// FAULT marker` in file of SemDir.
func FaultLoc(t *testing.T, file, marker string) string {
	t.Helper()
	return FaultLocIn(t, filepath.Join(SemDir, file), marker)
}

// FaultLocIn is the file:line of the instruction marked `// FAULT marker` in the file at path.
func FaultLocIn(t *testing.T, path, marker string) string {
	t.Helper()
	found := ""
	for i, line := range strings.Split(ReadFile(t, path), "\n") {
		_, rest, ok := strings.Cut(line, "// FAULT ")
		if ok && strings.TrimSpace(rest) == marker {
			if found != "" {
				t.Fatalf("%s: marker %q appears twice", path, marker)
			}
			found = fmt.Sprintf("%s:%d", path, i+1)
		}
	}
	if found == "" {
		t.Fatalf("%s: no line marked // FAULT %s", path, marker)
	}
	return found
}

// FaultWant is what a fault must say.
type FaultWant struct {
	Kind   runtime.FaultKind
	Kernel string
	Func   string // the function executing; the kernel when empty
	Loc    string
	CTA    runtime.Dim3
	Thread runtime.Dim3
	// Addr, when HasAddr, is the faulting address.
	HasAddr bool
	Addr    uint64
	Space   string
}

// CheckFault asserts that err is a *runtime.Fault matching w.
func CheckFault(t *testing.T, err error, w FaultWant) *runtime.Fault {
	t.Helper()
	if err == nil {
		t.Fatalf("launch succeeded; want a %v fault at %s", w.Kind, w.Loc)
	}
	var f *runtime.Fault
	if !errors.As(err, &f) {
		t.Fatalf("launch returned %T %v; want a *runtime.Fault", err, err)
	}
	t.Logf("fault: %v", f)
	if f.Kind != w.Kind {
		t.Errorf("Kind = %v, want %v", f.Kind, w.Kind)
	}
	if f.Kernel != w.Kernel {
		t.Errorf("Kernel = %q, want %q", f.Kernel, w.Kernel)
	}
	fn := w.Func
	if fn == "" {
		fn = w.Kernel
	}
	if f.Func != fn {
		t.Errorf("Func = %q, want %q", f.Func, fn)
	}
	if f.Loc != w.Loc {
		t.Errorf("Loc = %q, want %q", f.Loc, w.Loc)
	}
	if f.CTA != w.CTA {
		t.Errorf("CTA = %v, want %v", f.CTA, w.CTA)
	}
	if f.Thread != w.Thread {
		t.Errorf("Thread = %v, want %v", f.Thread, w.Thread)
	}
	if w.HasAddr {
		if !f.HasAddr || f.Addr != w.Addr {
			t.Errorf("Addr = %#x (HasAddr %v), want %#x", f.Addr, f.HasAddr, w.Addr)
		}
	}
	if w.Space != "" && f.Space != w.Space {
		t.Errorf("Space = %q, want %q", f.Space, w.Space)
	}
	msg := err.Error()
	for _, s := range []string{w.Loc, w.Kernel, w.Kind.String()} {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q does not mention %q", msg, s)
		}
	}
	return f
}
