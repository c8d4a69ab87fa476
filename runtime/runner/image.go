package runner

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ptx2go/ptx2go/runtime"
)

// Texture and surface arguments: tex:@PATH.npy[,OPTION...] makes a CUDA array of the .npy
// file's elements and a texture object on it, surf:@PATH.npy[,OPTION...] an array a kernel
// may also write and a surface object on it; the kernel's .u64 parameter gets the object's
// handle. The array's shape is the file's: (W) is 1D, (H, W) 2D, (D, H, W) 3D, or D layers
// with layered, or D/6 cubemaps of 6 faces with cubemap; channels=N (1, 2 or 4) makes the
// last axis the element's channels. Texture options: filter=point|linear,
// address=wrap|clamp|mirror|border, normalized (coordinates in [0, 1)), read=element|normalized
// (8- and 16-bit integers read as floats in [0, 1] or [-1, 1]), srgb, border=R:G:B:A.

// An image is the CUDA array made for a tex: or surf: argument, written back after the run
// for surf:.
type image struct {
	array   *runtime.Array
	npy     *npyArray
	surface bool
}

// prepareImage makes the array and the texture or surface object of a tex: or surf: argument.
func prepareImage(dev *runtime.Device, p Param, spec string) (uint64, *image, error) {
	kind, rest, _ := strings.Cut(spec, ":")
	surface := kind == "surf"
	if p.Array || p.Size != 8 || !strings.HasSuffix(p.Type, "64") {
		return 0, nil, fmt.Errorf("%s: makes a %s object, whose handle is a .u64 parameter, not %s", kind, map[bool]string{false: "texture", true: "surface"}[surface], paramType(p))
	}
	fields := strings.Split(rest, ",")
	path, ok := strings.CutPrefix(fields[0], "@")
	if !ok || path == "" {
		return 0, nil, fmt.Errorf("%s: wants @PATH.npy first, not %q", kind, fields[0])
	}
	channels := 1
	var flags runtime.ArrayFlags
	var desc runtime.TextureDesc
	for _, f := range fields[1:] {
		name, val, hasVal := strings.Cut(f, "=")
		var err error
		switch {
		case f == "layered":
			flags |= runtime.ArrayLayered
		case f == "cubemap":
			flags |= runtime.ArrayCubemap
		case name == "channels" && hasVal:
			channels, err = strconv.Atoi(val)
			if err == nil && channels != 1 && channels != 2 && channels != 4 {
				err = errors.New("an element has 1, 2 or 4 channels")
			}
		case surface:
			err = errors.New("a surface has no sampling options")
		case name == "filter" && hasVal:
			desc.Filter, err = pick(val, map[string]runtime.FilterMode{"point": runtime.FilterPoint, "linear": runtime.FilterLinear})
		case name == "address" && hasVal:
			var m runtime.AddressMode
			m, err = pick(val, map[string]runtime.AddressMode{"wrap": runtime.AddressWrap, "clamp": runtime.AddressClamp, "mirror": runtime.AddressMirror, "border": runtime.AddressBorder})
			desc.AddressMode = [3]runtime.AddressMode{m, m, m}
		case f == "normalized":
			desc.Normalized = true
		case name == "read" && hasVal:
			desc.Read, err = pick(val, map[string]runtime.ReadMode{"element": runtime.ReadElementType, "normalized": runtime.ReadNormalizedFloat})
		case f == "srgb":
			desc.SRGB = true
		case name == "border" && hasVal:
			parts := strings.Split(val, ":")
			if len(parts) != 4 {
				err = errors.New("border=R:G:B:A takes four numbers")
				break
			}
			for c, s := range parts {
				var v float64
				if v, err = strconv.ParseFloat(s, 32); err != nil {
					break
				}
				desc.BorderColor[c] = float32(v)
			}
		default:
			err = errors.New("unknown option")
		}
		if err != nil {
			return 0, nil, fmt.Errorf("%s: option %q: %v", kind, f, err)
		}
	}
	data, arr, err := readNPY(path)
	if err != nil {
		return 0, nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	format, err := channelFormat(arr, channels)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v", path, err)
	}
	shape := arr.shape
	if channels > 1 {
		if len(shape) < 2 || shape[len(shape)-1] != channels {
			return 0, nil, fmt.Errorf("%s: channels=%d wants a last axis of %d, the shape is %v", path, channels, channels, shape)
		}
		shape = shape[:len(shape)-1]
	}
	var w, h, d int
	switch len(shape) {
	case 1:
		w = shape[0]
	case 2:
		h, w = shape[0], shape[1]
	case 3:
		d, h, w = shape[0], shape[1], shape[2]
	default:
		return 0, nil, fmt.Errorf("%s: an array has 1 to 3 dimensions (and channels), the shape is %v", path, arr.shape)
	}
	if flags&runtime.ArrayLayered != 0 && len(shape) == 2 {
		d, h = h, 0 // layers of 1D arrays
	}
	if surface {
		flags |= runtime.ArraySurfaceLoadStore
	}
	a, err := dev.MallocArray(format, w, h, d, flags)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := a.Write(data); err != nil {
		return 0, nil, fmt.Errorf("%s: %v", path, err)
	}
	res := runtime.Resource{Kind: runtime.ResourceArray, Array: a}
	var handle uint64
	if surface {
		handle, err = dev.CreateSurface(res)
	} else {
		handle, err = dev.CreateTexture(res, desc)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v", path, err)
	}
	return handle, &image{array: a, npy: arr, surface: surface}, nil
}

// pick looks an option's value up.
func pick[T any](val string, choices map[string]T) (T, error) {
	v, ok := choices[val]
	if !ok {
		var zero T
		return zero, fmt.Errorf("want one of %s", strings.Join(slices.Sorted(maps.Keys(choices)), ", "))
	}
	return v, nil
}

// channelFormat is the array element format of a .npy dtype with the given channel count.
func channelFormat(arr *npyArray, channels int) (runtime.ChannelFormat, error) {
	var kind runtime.ChannelKind
	bits := int(arr.elem.Size()) * 8
	switch arr.elem.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		kind = runtime.ChannelSigned
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		kind = runtime.ChannelUnsigned
	case reflect.Float32:
		kind = runtime.ChannelFloat
	default:
		return runtime.ChannelFormat{}, fmt.Errorf("dtype %s cannot be an array's element (want 8-, 16- or 32-bit integers or float32)", arr.dtype)
	}
	var f runtime.ChannelFormat
	f.Kind = kind
	for c := range channels {
		f.Bits[c] = bits
	}
	return f, nil
}
