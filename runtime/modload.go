package runtime

import (
	"encoding/binary"
	"fmt"
	"sync"
)

var loadMu sync.Mutex

// loadModule allocates and initializes the module's global variables on the device (managed
// ones in host-visible memory, MallocHost) the first time the module is launched there, and
// returns their addresses.
func (d *Device) loadModule(mod *Module) ([]Ptr, error) {
	if v, ok := mod.loaded.Load(d); ok {
		return v.([]Ptr), nil
	}
	loadMu.Lock()
	defer loadMu.Unlock()
	if v, ok := mod.loaded.Load(d); ok {
		return v.([]Ptr), nil
	}
	addrs := make([]Ptr, len(mod.Globals))
	for i, g := range mod.Globals {
		alloc := d.Malloc
		if g.Managed {
			alloc = d.MallocHost
		}
		p, err := alloc(max(g.Size, 1))
		if err != nil {
			return nil, fmt.Errorf("loading %s: global %s: %w", mod.Name, g.Name, err)
		}
		addrs[i] = p
	}
	for i, g := range mod.Globals {
		init := make([]byte, g.Size)
		copy(init, g.Init)
		for _, r := range g.Relocs {
			var v uint64
			if r.Func != nil {
				v = uint64(FuncAddr(r.Func))
			} else {
				v = uint64(addrs[r.Global]) + uint64(r.Addend)
			}
			if r.Size == 4 {
				binary.LittleEndian.PutUint32(init[r.Offset:], uint32(v))
			} else {
				binary.LittleEndian.PutUint64(init[r.Offset:], v)
			}
		}
		if err := d.CopyIn(addrs[i], init); err != nil {
			return nil, fmt.Errorf("loading %s: global %s: %w", mod.Name, g.Name, err)
		}
		if g.ReadOnly {
			d.protect(addrs[i])
		}
	}
	mod.loaded.Store(d, addrs)
	return addrs, nil
}

// GlobalAddr returns the device address of the module's global variable named name, loading
// the module onto the device if needed.
func (d *Device) GlobalAddr(mod *Module, name string) (Ptr, error) {
	addrs, err := d.loadModule(mod)
	if err != nil {
		return 0, err
	}
	for i, g := range mod.Globals {
		if g.Name == name {
			return addrs[i], nil
		}
	}
	return 0, fmt.Errorf("module %s has no global variable %s", mod.Name, name)
}
