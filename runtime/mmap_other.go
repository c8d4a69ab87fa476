//go:build !linux

package runtime

import "unsafe"

// mapAnon reports that this host gives no lazily backed mappings: callers use Go memory.
func mapAnon(addr uintptr, n int) []byte { return nil }

// adviseHugePages is never called without mappings.
func adviseHugePages(m []byte) {}

// unmapAnon is never called without mappings.
func unmapAnon(m []byte) {}

func unsafeSlice(p *byte, n int) []byte { return unsafe.Slice(p, n) }
