package closure

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/runtime"
	"github.com/ptx2go/ptx2go/runtime/isa"
)

// hasPackedInt reports whether the instruction names a packed integer type (.u16x2, .s16x2,
// .u8x4, .s8x4). The ISA defines them for min and max, and the 16-bit ones for add.
func (e *emitter) hasPackedInt() bool {
	for _, t := range e.types() {
		if t.IsPackedInt() {
			return true
		}
	}
	return false
}

// packedInt lowers min.{u16x2,u8x4}, min{.relu}.{s16x2,s8x4}, the same forms of max, and
// add.{u16x2,s16x2}, on .b32 operands: the forms of these types in the table of forms.
func (e *emitter) packedInt() runtime.Instr {
	in := e.in
	t := e.typ()
	if in.Op == frontend.OpAdd {
		return e.lanes2Of(t, isa.AddPacked)
	}
	relu := e.has(frontend.ModRelu)
	signed := t == frontend.S16x2 || t == frontend.S8x4
	lanes := 2
	if t == frontend.U8x4 || t == frontend.S8x4 {
		lanes = 4
	}
	isMax := in.Op == frontend.OpMax
	return e.lanes2Of(t, func(x, y uint32) uint32 { return isa.MinMaxPacked(x, y, lanes, signed, isMax, relu) })
}
