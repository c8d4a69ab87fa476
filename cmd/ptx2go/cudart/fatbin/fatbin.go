// Package fatbin reads the fat binaries nvcc embeds in CUDA programs (the .nv_fatbin section
// that __cudaRegisterFatBinary receives, and .fatbin files loaded with cuModuleLoadData): a
// sequence of containers, each a header and entries holding PTX text or SASS (cubin ELF) for
// one architecture. nvcc 11.8 compresses the PTX entries with LZ4's block format.
//
// The layout (little-endian), as nvcc 11.8 writes it:
//
//	container: magic 0xBA55ED50 (u32), version (u16), header size (u16), size of the entries (u64)
//	entry:     kind (u16: 1 PTX, 2 ELF), version (u16), header size (u32), payload size (u64),
//	           compressed size (u32), address size? (u32), minor (u16), major (u16), arch (u32),
//	           name offset (u32), name length (u32), flags (u64), reserved (u64),
//	           decompressed size (u64), then padding up to the header size
//
// Flag 0x2000 marks a compressed payload: its first `compressed size` bytes decompress to
// `decompressed size` bytes; an uncompressed PTX payload is NUL-padded text.
package fatbin

import (
	"encoding/binary"
	"fmt"
)

// Magic is the first word of a fat binary container.
const Magic = 0xBA55ED50

// WrapperMagic is the first word of the wrapper struct (__fatBinC_Wrapper_t) that nvcc's host
// code passes to __cudaRegisterFatBinary; its data field points at the containers.
const WrapperMagic = 0x466243b1

// Entry kinds.
const (
	KindPTX = 1
	KindELF = 2
)

const flagCompressed = 0x2000

// Entry is one entry of a fat binary.
type Entry struct {
	Kind         int // KindPTX or KindELF
	Arch         int // the SM or compute version, 80 for sm_80 / compute_80
	Major, Minor int // for PTX, the PTX ISA version
	Compressed   bool
	// Data is the payload: PTX text without its NUL padding (decompressed), or the ELF image.
	Data []byte
}

// Size returns the number of bytes of the fat binary container whose header is at the start
// of b (header and entries; b may hold only the 16-byte header), or an error when b does not
// start with one.
func Size(b []byte) (int, error) {
	if len(b) < 16 || binary.LittleEndian.Uint32(b) != Magic {
		return 0, fmt.Errorf("fatbin: no fat binary header (magic %#x)", uint32(Magic))
	}
	hs := int(binary.LittleEndian.Uint16(b[6:]))
	n := binary.LittleEndian.Uint64(b[8:])
	if hs < 16 || n > 1<<40 {
		return 0, fmt.Errorf("fatbin: bad header: header size %d, size %d", hs, n)
	}
	return hs + int(n), nil
}

// Parse reads the fat binary containers at the start of b, one after the other while another
// container header follows, and returns all their entries.
func Parse(b []byte) ([]Entry, error) {
	var out []Entry
	for off := 0; off+16 <= len(b) && binary.LittleEndian.Uint32(b[off:]) == Magic; {
		n, err := Size(b[off:])
		if err != nil {
			return nil, err
		}
		if off+n > len(b) {
			return nil, fmt.Errorf("fatbin: container at %d: %d bytes, only %d there", off, n, len(b)-off)
		}
		hs := int(binary.LittleEndian.Uint16(b[off+6:]))
		es, err := parseEntries(b[off+hs : off+n])
		if err != nil {
			return nil, fmt.Errorf("fatbin: container at %d: %w", off, err)
		}
		out = append(out, es...)
		off += n
	}
	if len(out) == 0 {
		if _, err := Size(b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseEntries reads the entries of one container.
func parseEntries(b []byte) ([]Entry, error) {
	var out []Entry
	for off := 0; off < len(b); {
		if len(b)-off < 64 {
			return nil, fmt.Errorf("entry at %d: truncated header", off)
		}
		h := b[off:]
		le := binary.LittleEndian
		kind := int(le.Uint16(h))
		hs := int(le.Uint32(h[4:]))
		size := le.Uint64(h[8:])
		if hs < 64 || uint64(hs) > uint64(len(h)) || size > uint64(len(h)-hs) {
			return nil, fmt.Errorf("entry at %d: header size %d and payload size %d exceed the container", off, hs, size)
		}
		e := Entry{
			Kind: kind, Minor: int(le.Uint16(h[24:])), Major: int(le.Uint16(h[26:])), Arch: int(le.Uint32(h[28:])),
		}
		flags := le.Uint64(h[40:])
		payload := h[hs : uint64(hs)+size]
		if flags&flagCompressed != 0 {
			e.Compressed = true
			csize := uint64(le.Uint32(h[16:]))
			dsize := le.Uint64(h[56:])
			if csize > uint64(len(payload)) || dsize > 1<<32 {
				return nil, fmt.Errorf("entry at %d: compressed size %d, decompressed size %d, payload %d", off, csize, dsize, len(payload))
			}
			d, err := DecompressLZ4(payload[:csize], int(dsize))
			if err != nil {
				return nil, fmt.Errorf("entry at %d: %w", off, err)
			}
			payload = d
		} else {
			payload = append([]byte(nil), payload...)
		}
		if kind == KindPTX {
			for i, c := range payload {
				if c == 0 {
					payload = payload[:i]
					break
				}
			}
		}
		e.Data = payload
		out = append(out, e)
		off += hs + int(size)
	}
	return out, nil
}

// DecompressLZ4 decodes an LZ4 block (sequences of a token, literals and a back-reference,
// the last sequence without one) of n decompressed bytes.
func DecompressLZ4(in []byte, n int) ([]byte, error) {
	out := make([]byte, 0, n)
	i := 0
	length := func(l int) (int, error) {
		for {
			if i >= len(in) {
				return 0, fmt.Errorf("lz4: truncated length")
			}
			c := in[i]
			i++
			l += int(c)
			if c != 255 {
				return l, nil
			}
		}
	}
	for i < len(in) {
		tok := in[i]
		i++
		lit := int(tok >> 4)
		if lit == 15 {
			var err error
			if lit, err = length(lit); err != nil {
				return nil, err
			}
		}
		if lit > len(in)-i || len(out)+lit > n {
			return nil, fmt.Errorf("lz4: %d literal bytes overrun the input or output", lit)
		}
		out = append(out, in[i:i+lit]...)
		i += lit
		if i >= len(in) || len(out) >= n {
			break
		}
		if len(in)-i < 2 {
			return nil, fmt.Errorf("lz4: truncated match offset")
		}
		back := int(in[i]) | int(in[i+1])<<8
		i += 2
		ml := int(tok&15) + 4
		if tok&15 == 15 {
			var err error
			if ml, err = length(ml); err != nil {
				return nil, err
			}
		}
		if back == 0 || back > len(out) || len(out)+ml > n {
			return nil, fmt.Errorf("lz4: match of %d bytes at offset %d outside the output", ml, back)
		}
		for k := 0; k < ml; k++ { // byte by byte: the match may overlap what it writes
			out = append(out, out[len(out)-back])
		}
	}
	if len(out) != n {
		return nil, fmt.Errorf("lz4: decompressed %d bytes, want %d", len(out), n)
	}
	return out, nil
}

// NewestPTX returns the PTX entry for the highest architecture (then the highest PTX
// version) among entries, and false when there is none.
func NewestPTX(entries []Entry) (Entry, bool) {
	var best Entry
	found := false
	for _, e := range entries {
		if e.Kind != KindPTX {
			continue
		}
		if !found || e.Arch > best.Arch || e.Arch == best.Arch && (e.Major > best.Major || e.Major == best.Major && e.Minor > best.Minor) {
			best, found = e, true
		}
	}
	return best, found
}

// SASSArchs lists the architectures of the ELF (SASS) entries, for the message that a program
// without PTX gets.
func SASSArchs(entries []Entry) []int {
	var out []int
	for _, e := range entries {
		if e.Kind == KindELF {
			out = append(out, e.Arch)
		}
	}
	return out
}
