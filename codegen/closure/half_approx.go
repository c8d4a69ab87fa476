package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// halfApprox lowers the forms the ISA defines: ex2.approx.{f16,f16x2},
// ex2.approx.ftz.{bf16,bf16x2} and tanh.approx.{f16,f16x2,bf16,bf16x2}.
func (e *emitter) halfApprox(t frontend.Type) runtime.Instr {
	in := e.in
	bf := isBF16(t)
	var op func(uint16) uint16
	switch {
	case in.Op == frontend.OpEx2 && bf:
		op = isa.Ex2ApproxFtzBF16
	case in.Op == frontend.OpEx2:
		op = isa.Ex2ApproxF16
	case bf:
		op = isa.TanhApproxBF16
	default:
		op = isa.TanhApproxF16
	}
	d, a := e.dst(in.Dsts[0]), e.halfSrc(in.Args[0], t)
	return halfLanes(d, a, a, a, isHalfPacked(t), func(x, _, _ uint16) uint16 { return op(x) })
}
