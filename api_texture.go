package ptx2go

import "github.com/ptx2go/ptx2go/runtime"

// Textures and surfaces: a CUDA array (Device.MallocArray, filled with Array.Write or
// Array.Copy), a texture object on it (Device.CreateTexture) or a surface object
// (Device.CreateSurface), whose handle a kernel takes as a .u64 argument; or a module's
// legacy .texref/.surfref variable bound to one (Module.BindReference). The types are the
// runtime's (go doc github.com/ptx2go/ptx2go/runtime Array), which also documents the arrays'
// memory layout and the sampling rules.

// Array is a CUDA array, in memory kernels reach only through textures and surfaces.
type Array = runtime.Array

// ChannelFormat describes an array element as cudaChannelFormatDesc does.
type ChannelFormat = runtime.ChannelFormat

// ChannelKind is the kind of an element's channels.
type ChannelKind = runtime.ChannelKind

// The channel kinds.
const (
	ChannelSigned   = runtime.ChannelSigned
	ChannelUnsigned = runtime.ChannelUnsigned
	ChannelFloat    = runtime.ChannelFloat
)

// ArrayFlags are an array's options.
type ArrayFlags = runtime.ArrayFlags

// The array flags, with cudaArray's values.
const (
	ArrayLayered          = runtime.ArrayLayered
	ArraySurfaceLoadStore = runtime.ArraySurfaceLoadStore
	ArrayCubemap          = runtime.ArrayCubemap
	ArrayTextureGather    = runtime.ArrayTextureGather
)

// Resource is what a texture or surface object reads: an array, or linear or pitch-linear
// device memory.
type Resource = runtime.Resource

// The resource kinds.
const (
	ResourceArray   = runtime.ResourceArray
	ResourceLinear  = runtime.ResourceLinear
	ResourcePitch2D = runtime.ResourcePitch2D
)

// TextureDesc is how a texture object samples: address modes, filtering, read mode,
// normalized coordinates, sRGB and the border color.
type TextureDesc = runtime.TextureDesc

// The address modes, filter modes and read modes, with CUDA's values.
const (
	AddressWrap         = runtime.AddressWrap
	AddressClamp        = runtime.AddressClamp
	AddressMirror       = runtime.AddressMirror
	AddressBorder       = runtime.AddressBorder
	FilterPoint         = runtime.FilterPoint
	FilterLinear        = runtime.FilterLinear
	ReadElementType     = runtime.ReadElementType
	ReadNormalizedFloat = runtime.ReadNormalizedFloat
)

// BindReference binds the module's legacy texture or surface reference name (a .texref or
// .surfref variable) on dev to the texture or surface object h, which the module's kernels
// then read through it; 0 unbinds it.
func (m *Module) BindReference(dev *Device, name string, h uint64) error {
	return dev.BindReference(m.rt, name, h)
}
