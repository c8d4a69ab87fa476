package closure

import (
	"time"

	"github.com/ptx2go/ptx2go/runtime"
)

// specialReader returns how to read special register name: once per warp for the registers
// that are the same in every lane of a warp (warp), or per lane (lane). Both are nil for an
// unknown name. %tid has its own loop (see emitter.readSpecial).
func specialReader(name string) (warp func(w *runtime.Warp) uint64, lane func(w *runtime.Warp, l int) uint64) {
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
			return nil, func(w *runtime.Warp, l int) uint64 { return uint64(w.Tid[i][l]) }
		case "%ntid":
			return func(w *runtime.Warp) uint64 { return comp(w.NTID(), c) }, nil
		case "%ctaid":
			return func(w *runtime.Warp) uint64 { return comp(w.CTAID(), c) }, nil
		case "%nctaid", "%nclusterid":
			return func(w *runtime.Warp) uint64 { return comp(w.NCTAID(), c) }, nil
		case "%clusterid":
			// Without clusters every CTA is a cluster of one.
			return func(w *runtime.Warp) uint64 { return comp(w.CTAID(), c) }, nil
		case "%cluster_ctaid":
			return func(*runtime.Warp) uint64 { return 0 }, nil
		case "%cluster_nctaid":
			return func(*runtime.Warp) uint64 { return 1 }, nil
		}
		return nil, nil
	}
	switch name {
	case "%laneid":
		return nil, func(w *runtime.Warp, l int) uint64 { return uint64(l) }
	case "%warpid":
		return func(w *runtime.Warp) uint64 { return uint64(w.ID) }, nil
	case "%nwarpid":
		return func(w *runtime.Warp) uint64 { return uint64(w.NumWarps()) }, nil
	case "%lanemask_eq":
		return nil, func(w *runtime.Warp, l int) uint64 { return 1 << l }
	case "%lanemask_lt":
		return nil, func(w *runtime.Warp, l int) uint64 { return 1<<l - 1 }
	case "%lanemask_le":
		return nil, func(w *runtime.Warp, l int) uint64 { return 1<<(l+1) - 1 }
	case "%lanemask_gt":
		return nil, func(w *runtime.Warp, l int) uint64 { return uint64(^uint32(1<<(l+1) - 1)) }
	case "%lanemask_ge":
		return nil, func(w *runtime.Warp, l int) uint64 { return uint64(^uint32(1<<l - 1)) }
	case "%clock", "%clock_hi":
		return func(*runtime.Warp) uint64 { return uint64(uint32(time.Now().UnixNano())) }, nil
	case "%clock64", "%globaltimer":
		return func(*runtime.Warp) uint64 { return uint64(time.Now().UnixNano()) }, nil
	case "%globaltimer_lo":
		return func(*runtime.Warp) uint64 { return uint64(uint32(time.Now().UnixNano())) }, nil
	case "%globaltimer_hi":
		return func(*runtime.Warp) uint64 { return uint64(time.Now().UnixNano()) >> 32 }, nil
	case "%dynamic_smem_size":
		return func(w *runtime.Warp) uint64 { return uint64(w.DynamicShared()) }, nil
	case "%smid", "%gridid", "%cluster_ctarank", "%is_explicit_cluster":
		return func(*runtime.Warp) uint64 { return 0 }, nil
	case "%nsmid", "%cluster_nctarank":
		return func(*runtime.Warp) uint64 { return 1 }, nil
	}
	return nil, nil
}
