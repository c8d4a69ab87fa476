package closure

import (
	"time"

	"github.com/ptx2go/ptx2go/runtime"
)

// specialReader returns a function reading special register name for one lane, or nil.
func specialReader(name string) func(w *runtime.Warp, l int) uint64 {
	comp := func(d runtime.Dim3, c byte) uint64 {
		switch c {
		case 'x':
			return uint64(d.X)
		case 'y':
			return uint64(d.Y)
		}
		return uint64(d.Z)
	}
	if n := len(name); n > 2 && name[n-2] == '.' {
		c := name[n-1]
		switch name[:n-2] {
		case "%tid":
			i := int(c - 'x')
			return func(w *runtime.Warp, l int) uint64 { return uint64(w.Tid[i][l]) }
		case "%ntid":
			return func(w *runtime.Warp, l int) uint64 { return comp(w.NTID(), c) }
		case "%ctaid":
			return func(w *runtime.Warp, l int) uint64 { return comp(w.CTAID(), c) }
		case "%nctaid", "%nclusterid":
			return func(w *runtime.Warp, l int) uint64 { return comp(w.NCTAID(), c) }
		case "%clusterid":
			// Without clusters every CTA is a cluster of one.
			return func(w *runtime.Warp, l int) uint64 { return comp(w.CTAID(), c) }
		case "%cluster_ctaid":
			return func(w *runtime.Warp, l int) uint64 { return 0 }
		case "%cluster_nctaid":
			return func(w *runtime.Warp, l int) uint64 { return 1 }
		}
		return nil
	}
	switch name {
	case "%laneid":
		return func(w *runtime.Warp, l int) uint64 { return uint64(l) }
	case "%warpid":
		return func(w *runtime.Warp, l int) uint64 { return uint64(w.ID) }
	case "%nwarpid":
		return func(w *runtime.Warp, l int) uint64 { return uint64(w.NumWarps()) }
	case "%lanemask_eq":
		return func(w *runtime.Warp, l int) uint64 { return 1 << l }
	case "%lanemask_lt":
		return func(w *runtime.Warp, l int) uint64 { return 1<<l - 1 }
	case "%lanemask_le":
		return func(w *runtime.Warp, l int) uint64 { return 1<<(l+1) - 1 }
	case "%lanemask_gt":
		return func(w *runtime.Warp, l int) uint64 { return uint64(^uint32(1<<(l+1) - 1)) }
	case "%lanemask_ge":
		return func(w *runtime.Warp, l int) uint64 { return uint64(^uint32(1<<l - 1)) }
	case "%clock", "%clock_hi":
		return func(w *runtime.Warp, l int) uint64 { return uint64(uint32(time.Now().UnixNano())) }
	case "%clock64", "%globaltimer":
		return func(w *runtime.Warp, l int) uint64 { return uint64(time.Now().UnixNano()) }
	case "%globaltimer_lo":
		return func(w *runtime.Warp, l int) uint64 { return uint64(uint32(time.Now().UnixNano())) }
	case "%globaltimer_hi":
		return func(w *runtime.Warp, l int) uint64 { return uint64(time.Now().UnixNano()) >> 32 }
	case "%dynamic_smem_size":
		return func(w *runtime.Warp, l int) uint64 { return uint64(w.DynamicShared()) }
	case "%smid", "%gridid", "%cluster_ctarank", "%is_explicit_cluster":
		return func(w *runtime.Warp, l int) uint64 { return 0 }
	case "%nsmid", "%cluster_nctarank":
		return func(w *runtime.Warp, l int) uint64 { return 1 }
	}
	return nil
}
