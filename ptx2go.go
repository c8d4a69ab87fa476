// Package ptx2go compiles NVIDIA PTX modules and runs their kernels on the CPU with the GPU's
// SIMT semantics: warps of 32 lanes, divergence and reconvergence, calls, barriers, atomics
// and the GPU memory spaces.
//
//	mod, err := ptx2go.Compile(src, ptx2go.Options{File: "vecadd.ptx"})
//	k, err := mod.Kernel("vecadd")
//	dev := ptx2go.NewDevice()
//	a, _ := ptx2go.Upload(dev, []float32{1, 2, 3})
//	b, _ := ptx2go.Upload(dev, []float32{10, 20, 30})
//	c, _ := dev.Malloc(3 * 4)
//	err = k.Launch(ctx, dev, ptx2go.D1(1), ptx2go.D1(32), c, a, b, uint32(3))
//	out := make([]float32, 3)
//	err = ptx2go.Download(dev, out, c)
//
// This package is the whole user API: besides compiling, it re-exports what launches need
// from package runtime (Device, Ptr, Upload, Download, Dim3, LaunchConfig, Fault, Stats, ...),
// so programs import ptx2go alone. A failing kernel returns a *Fault; LaunchConfig sets the
// worker count, the scheduling model, limits, printf output and the Stats to collect. Packages
// that `ptx2go generate` writes launch through Load, or through their typed launch functions,
// which take the same Device, LaunchConfig and Ptr.
package ptx2go

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/ptx2go/ptx2go/codegen/closure"
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/ssa"
)

// Options control compilation.
type Options struct {
	// File names the source in error messages and faults; default "input.ptx".
	File string
	// Check compiles the module with the sanitizer's hooks, so that its launches may run
	// checks (LaunchConfig.Check, see CheckTools). Without it the module has none and pays
	// nothing for them.
	Check bool
}

// Module is a compiled PTX module.
type Module struct {
	prog *ssa.Program
	rt   *runtime.Module
}

// Compile parses, verifies and compiles a PTX module. Errors carry file:line:col positions.
func Compile(src []byte, opts Options) (*Module, error) {
	name := opts.File
	if name == "" {
		name = "input.ptx"
	}
	ast, err := frontend.Parse(name, src)
	if err != nil {
		return nil, err
	}
	prog, err := ssa.Build(ast)
	if err != nil {
		return nil, err
	}
	rt, err := closure.CompileWith(prog, closure.Options{Check: opts.Check})
	if err != nil {
		return nil, err
	}
	return &Module{prog: prog, rt: rt}, nil
}

// Load wraps a module built without the compiler, such as the Module variable of a package
// that `ptx2go generate` wrote, so that its kernels launch by name through the same API.
func Load(rt *runtime.Module) (*Module, error) {
	if rt == nil || len(rt.Funcs) == 0 {
		return nil, fmt.Errorf("ptx2go: Load: empty module")
	}
	for _, f := range rt.Funcs {
		if f.Kernel && f.KernelArgs == nil && f.KernelParams != 0 {
			return nil, fmt.Errorf("ptx2go: Load: kernel %s of %s has no parameter descriptions", f.Name, rt.Name)
		}
	}
	return &Module{rt: rt}, nil
}

// CompileFile reads and compiles a PTX file.
func CompileFile(path string) (*Module, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Compile(src, Options{File: path})
}

// Kernels lists the module's kernels (.entry functions) in source order.
func (m *Module) Kernels() []string {
	var out []string
	for _, f := range m.rt.Funcs {
		if f.Kernel {
			out = append(out, f.Name)
		}
	}
	return out
}

// Kernel returns the kernel named name.
func (m *Module) Kernel(name string) (*Kernel, error) {
	for _, f := range m.rt.Funcs {
		if f.Name == name && f.Kernel {
			return &Kernel{mod: m, fn: f, params: m.params(name)}, nil
		}
	}
	return nil, fmt.Errorf("module %s has no kernel %s (kernels: %s)", m.rt.Name, name, strings.Join(m.Kernels(), ", "))
}

// GlobalAddr returns the device address of a module-scope .global or .const variable on dev.
func (m *Module) GlobalAddr(dev *Device, name string) (Ptr, error) {
	return dev.GlobalAddr(m.rt, name)
}

// Runtime returns the compiled module the runtime executes.
func (m *Module) Runtime() *runtime.Module { return m.rt }

// Param describes one kernel parameter.
type Param struct {
	Name string
	// Type is the PTX type without its dot ("u64", "f32", "b8").
	Type   string
	Size   int // bytes (for arrays, the whole array)
	Align  int
	Offset int  // offset in the parameter buffer
	Array  bool // an aggregate `.param .b8 name[N]`, passed as []byte
	// Pointer says the parameter can hold a device address: a 64-bit (or, with
	// .address_size 32, 32-bit) integer or bit-size parameter; either width in a module
	// without .address_size (see ssa.Program.CanHoldAddress).
	Pointer bool
}

func (m *Module) params(kernel string) []Param {
	if m.prog == nil {
		for _, f := range m.rt.Funcs {
			if f.Name == kernel && f.Kernel {
				var out []Param // nil for none, as from the SSA program below
				for _, p := range f.KernelArgs {
					out = append(out, Param(p))
				}
				return out
			}
		}
		return nil
	}
	fn := m.prog.Func(kernel)
	var out []Param
	off := 0
	for _, p := range fn.Params {
		v := p.Var
		align := v.Align
		if align == 0 {
			align = max(v.Type.Bytes()*max(v.Vector, 1), 1)
		}
		off = (off + align - 1) &^ (align - 1)
		t := v.Type
		prm := Param{
			Name: v.Name, Type: strings.TrimPrefix(t.String(), "."), Size: int(v.Size), Align: align, Offset: off,
			Array: len(v.Dims) > 0 || v.Vector > 1,
		}
		prm.Pointer = !prm.Array && m.prog.CanHoldAddress(t)
		out = append(out, prm)
		off += int(v.Size)
	}
	return out
}

// Kernel is one launchable kernel of a module.
type Kernel struct {
	mod    *Module
	fn     *runtime.Func
	params []Param
}

// Name is the kernel's PTX name.
func (k *Kernel) Name() string { return k.fn.Name }

// Params describes the kernel's parameters in declaration order (nil for none, on either engine).
func (k *Kernel) Params() []Param { return slices.Clone(k.params) }

// Launch runs the kernel on a grid of CTAs with no dynamic shared memory. Arguments follow
// the kernel's parameters in order: Ptr for device addresses, Go integers and floats
// converted to the parameter's type (an error if they do not fit), []byte for aggregates and
// .b128 parameters, or for an aggregate any fixed-size array or struct of numbers, in
// encoding/binary's little-endian layout (which has no padding: blank _ fields give a C
// struct's). A kernel that fails returns a *Fault; other errors are about the launch itself.
func (k *Kernel) Launch(ctx context.Context, dev *Device, grid, block Dim3, args ...any) error {
	return k.LaunchConfig(ctx, dev, LaunchConfig{Grid: grid, Block: block}, args...)
}

// LaunchConfig runs the kernel with a full launch configuration.
func (k *Kernel) LaunchConfig(ctx context.Context, dev *Device, cfg LaunchConfig, args ...any) error {
	buf, err := k.PackArgs(args...)
	if err != nil {
		return err
	}
	return dev.Launch(ctx, k.mod.rt, k.fn, cfg, buf)
}

// PackArgs lays arguments out as the kernel's parameter buffer, checking each against its
// parameter's type.
func (k *Kernel) PackArgs(args ...any) ([]byte, error) {
	if len(args) != len(k.params) {
		return nil, fmt.Errorf("kernel %s takes %d arguments, got %d", k.fn.Name, len(k.params), len(args))
	}
	buf := make([]byte, k.fn.KernelParams)
	for i, a := range args {
		p := k.params[i]
		b, err := p.Encode(a)
		if err != nil {
			return nil, fmt.Errorf("kernel %s: argument %d (%s): %w", k.fn.Name, i, p.Name, err)
		}
		copy(buf[p.Offset:], b)
	}
	return buf, nil
}

// Encode converts a Go value to the parameter's bytes.
func (p Param) Encode(a any) ([]byte, error) {
	out := make([]byte, p.Size)
	put := func(v uint64) {
		for i := range out {
			out[i] = byte(v >> (8 * i))
		}
	}
	if p.Array {
		b, ok := a.([]byte)
		if !ok {
			// A fixed-size value, laid out as encoding/binary does: little-endian, no padding
			// (blank _ fields stand in for a C struct's).
			if binary.Size(a) < 0 {
				return nil, fmt.Errorf("an aggregate .%s[%d] parameter takes []byte or a fixed-size array or struct of numbers, not %T", p.Type, p.Size, a)
			}
			b, _ = binary.Append(nil, binary.LittleEndian, a)
		}
		if len(b) != p.Size {
			return nil, fmt.Errorf("an aggregate parameter of %d bytes, got %d (%T)", p.Size, len(b), a)
		}
		copy(out, b)
		return out, nil
	}
	switch v := a.(type) {
	case runtime.Ptr:
		if !p.Pointer {
			return nil, fmt.Errorf("a device pointer cannot be passed as .%s", p.Type)
		}
		if p.Size == 4 && uint64(v) > math.MaxUint32 {
			return nil, fmt.Errorf("pointer %#x does not fit 32 bits", uint64(v))
		}
		put(uint64(v))
		return out, nil
	case float32:
		return p.encodeFloat(float64(v), out, put)
	case float64:
		return p.encodeFloat(v, out, put)
	case []byte:
		if p.Type == "b128" && len(v) == p.Size {
			copy(out, v)
			return out, nil
		}
		return nil, fmt.Errorf("[]byte is only for aggregate and 16-byte .b128 parameters; .%s takes a number", p.Type)
	}
	if p.Type[0] == 'f' {
		return nil, fmt.Errorf(".%s takes a float32 or float64, not %T", p.Type, a)
	}
	var (
		u      uint64
		signed bool
		s      int64
	)
	switch v := a.(type) {
	case int:
		s, signed = int64(v), true
	case int8:
		s, signed = int64(v), true
	case int16:
		s, signed = int64(v), true
	case int32:
		s, signed = int64(v), true
	case int64:
		s, signed = v, true
	case uint:
		u = uint64(v)
	case uint8:
		u = uint64(v)
	case uint16:
		u = uint64(v)
	case uint32:
		u = uint64(v)
	case uint64:
		u = v
	case uintptr:
		u = uint64(v)
	default:
		return nil, fmt.Errorf("cannot pass %T as .%s", a, p.Type)
	}
	bitsN := uint(p.Size * 8)
	if signed && s >= 0 {
		u, signed = uint64(s), false
	}
	switch {
	case signed:
		lo := -(int64(1) << (bitsN - 1))
		if p.Type[0] == 'u' || (bitsN < 64 && s < lo) {
			return nil, fmt.Errorf("%d does not fit .%s", s, p.Type)
		}
		u = uint64(s)
	default:
		limit := uint64(math.MaxUint64)
		if bitsN < 64 {
			limit = 1<<bitsN - 1
			if p.Type[0] == 's' {
				limit = 1<<(bitsN-1) - 1
			}
		} else if p.Type[0] == 's' {
			limit = math.MaxInt64
		}
		if u > limit {
			return nil, fmt.Errorf("%d does not fit .%s", u, p.Type)
		}
	}
	put(u)
	return out, nil
}

func (p Param) encodeFloat(f float64, out []byte, put func(uint64)) ([]byte, error) {
	switch p.Type {
	case "f32":
		put(uint64(math.Float32bits(float32(f))))
	case "f64":
		put(math.Float64bits(f))
	default:
		return nil, fmt.Errorf("a float cannot be passed as .%s", p.Type)
	}
	return out, nil
}
