package frontend

// Type is a PTX fundamental type, as in `.u32` or `.f16x2`.
type Type uint8

// The PTX types. TypeNone marks the absence of a type.
const (
	TypeNone Type = iota
	Pred
	B8
	B16
	B32
	B64
	B128
	U8
	U16
	U32
	U64
	S8
	S16
	S32
	S64
	F16
	F16x2
	BF16
	BF16x2
	TF32
	F32
	F64
	E4M3
	E5M2
	E4M3x2
	E5M2x2
	E2M1x2
	E2M3x2
	E3M2x2
	UE8M0x2
	U16x2
	S16x2
	U8x4
	S8x4
	U4
	S4
	U2
	S2
	TexRef
	SamplerRef
	SurfRef
	numTypes
)

var typeNames = [numTypes]string{
	"", ".pred", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
	".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".tf32", ".f32", ".f64",
	".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".u16x2", ".s16x2", ".u8x4", ".s8x4", ".u4", ".s4", ".u2", ".s2", ".texref", ".samplerref", ".surfref",
}

var typeBits = [numTypes]uint16{
	0, 1, 8, 16, 32, 64, 128, 8, 16, 32, 64, 8, 16, 32, 64, 16, 32, 16, 32, 32, 32, 64,
	8, 8, 16, 16, 8, 16, 16, 16, 32, 32, 32, 32, 4, 4, 2, 2, 64, 64, 64,
}

// String returns the PTX spelling, with its leading dot.
func (t Type) String() string {
	if t >= numTypes {
		return ".?type"
	}
	return typeNames[t]
}

// Bits is the size of a value of the type in bits (1 for .pred, 64 for opaque handles).
func (t Type) Bits() int {
	if t >= numTypes {
		return 0
	}
	return int(typeBits[t])
}

// Bytes is the storage size of the type in bytes (1 for .pred).
func (t Type) Bytes() int { return (t.Bits() + 7) / 8 }

// IsBits reports whether t is an untyped bit-size type (.b8 to .b128).
func (t Type) IsBits() bool { return t >= B8 && t <= B128 }

// IsUnsigned reports whether t is .u8 to .u64.
func (t Type) IsUnsigned() bool { return t >= U8 && t <= U64 }

// IsSigned reports whether t is .s8 to .s64.
func (t Type) IsSigned() bool { return t >= S8 && t <= S64 }

// IsInteger reports whether t is a signed or unsigned integer type.
func (t Type) IsInteger() bool { return t.IsUnsigned() || t.IsSigned() }

// IsFloat reports whether t is a floating-point type, packed or not.
func (t Type) IsFloat() bool { return t >= F16 && t <= UE8M0x2 }

// IsPackedInt reports whether t is .u16x2, .s16x2, .u8x4 or .s8x4: 16- or 8-bit integers
// packed in 32 bits.
func (t Type) IsPackedInt() bool { return t >= U16x2 && t <= S8x4 }

// Space is a PTX state space.
type Space uint8

// The state spaces. SpaceNone marks the absence of one (generic addressing for ld/st).
const (
	SpaceNone Space = iota
	SpaceReg
	SpaceSreg
	SpaceConst
	SpaceGlobal
	SpaceLocal
	SpaceParam
	SpaceShared
	SpaceTex
	numSpaces
)

var spaceNames = [numSpaces]string{"", ".reg", ".sreg", ".const", ".global", ".local", ".param", ".shared", ".tex"}

// String returns the PTX spelling, with its leading dot.
func (s Space) String() string {
	if s >= numSpaces {
		return ".?space"
	}
	return spaceNames[s]
}

// Linkage is the external linkage of a module-level symbol.
type Linkage uint8

// The linking directives; LinkNone is plain module-local linkage.
const (
	LinkNone Linkage = iota
	LinkVisible
	LinkExtern
	LinkWeak
	LinkCommon
)

var linkageNames = [...]string{"", ".visible", ".extern", ".weak", ".common"}

// String returns the PTX spelling, with its leading dot (empty for LinkNone).
func (l Linkage) String() string {
	if int(l) >= len(linkageNames) {
		return ".?linkage"
	}
	return linkageNames[l]
}

// lookupTable builds a spelling-to-value map for an enum's name table.
func lookupTable[T ~uint8 | ~uint16](names []string) map[string]T {
	m := make(map[string]T, len(names))
	for i, n := range names {
		if n != "" {
			m[n] = T(i)
		}
	}
	return m
}

var (
	typeByName    = lookupTable[Type](typeNames[:])
	spaceByName   = lookupTable[Space](spaceNames[:])
	linkageByName = lookupTable[Linkage](linkageNames[:])
)

// LookupType returns the type spelled name (with its dot), if there is one.
func LookupType(name string) (Type, bool) {
	t, ok := typeByName[name]
	return t, ok
}
