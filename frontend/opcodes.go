package frontend

// The opcode list follows the PTX ISA 8.x instruction index, sorted by name.

// Opcode is a PTX instruction's base name, the part before the first dot (`add` in `add.s32`).
type Opcode uint8

// The PTX opcodes. OpInvalid is never produced by the parser.
const (
	OpInvalid Opcode = iota
	OpAbs
	OpActivemask
	OpAdd
	OpAddc
	OpAlloca
	OpAnd
	OpApplypriority
	OpAtom
	OpBar
	OpBarrier
	OpBfe
	OpBfi
	OpBfind
	OpBmsk
	OpBra
	OpBrev
	OpBrkpt
	OpBrx
	OpCall
	OpClz
	OpCnot
	OpCopysign
	OpCos
	OpCp
	OpCreatepolicy
	OpCvt
	OpCvta
	OpDiscard
	OpDiv
	OpDp2a
	OpDp4a
	OpElect
	OpEx2
	OpExit
	OpFence
	OpFma
	OpFns
	OpGetctarank
	OpGriddepcontrol
	OpIsspacep
	OpIstypeof
	OpLd
	OpLdmatrix
	OpLdu
	OpLg2
	OpLop3
	OpMad
	OpMad24
	OpMadc
	OpMapa
	OpMatch
	OpMax
	OpMbarrier
	OpMembar
	OpMin
	OpMma
	OpMov
	OpMovmatrix
	OpMul
	OpMul24
	OpMultimem
	OpNanosleep
	OpNeg
	OpNot
	OpOr
	OpPmevent
	OpPopc
	OpPrefetch
	OpPrefetchu
	OpPrmt
	OpRcp
	OpRed
	OpRedux
	OpRem
	OpRet
	OpRsqrt
	OpSad
	OpSelp
	OpSet
	OpSetmaxnreg
	OpSetp
	OpShf
	OpShfl
	OpShl
	OpShr
	OpSin
	OpSlct
	OpSqrt
	OpSt
	OpStackrestore
	OpStacksave
	OpStmatrix
	OpSub
	OpSubc
	OpSuld
	OpSuq
	OpSured
	OpSust
	OpSzext
	OpTanh
	OpTcgen05
	OpTensormap
	OpTestp
	OpTex
	OpTld4
	OpTrap
	OpTxq
	OpVabsdiff
	OpVabsdiff2
	OpVabsdiff4
	OpVadd
	OpVadd2
	OpVadd4
	OpVavrg2
	OpVavrg4
	OpVmad
	OpVmax
	OpVmax2
	OpVmax4
	OpVmin
	OpVmin2
	OpVmin4
	OpVote
	OpVset
	OpVset2
	OpVset4
	OpVshl
	OpVshr
	OpVsub
	OpVsub2
	OpVsub4
	OpWgmma
	OpWmma
	OpXor
	numOpcodes
)

var opcodeNames = [numOpcodes]string{
	"",
	"abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier",
	"bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call", "clz", "cnot", "copysign",
	"cos", "cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a", "dp4a", "elect", "ex2",
	"exit", "fence", "fma", "fns", "getctarank", "griddepcontrol", "isspacep", "istypeof", "ld",
	"ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa", "match", "max", "mbarrier",
	"membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not",
	"or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "ret",
	"rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct",
	"sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured",
	"sust", "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap", "txq",
	"vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad",
	"vmax", "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl",
	"vshr", "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor",
}

var opcodeByName = lookupTable[Opcode](opcodeNames[:])

// String returns the opcode's PTX spelling.
func (o Opcode) String() string {
	if o >= numOpcodes {
		return "?op"
	}
	return opcodeNames[o]
}

// LookupOpcode returns the opcode spelled name, if there is one.
func LookupOpcode(name string) (Opcode, bool) {
	o, ok := opcodeByName[name]
	return o, ok
}
