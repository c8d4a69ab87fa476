package layout

import (
	"github.com/ptx2go/ptx2go/frontend"
	"github.com/ptx2go/ptx2go/ssa"
)

// The texture and surface instructions and istypeof: rows whose Rule is Image, the decoder
// both back ends lower with (texture.go lists the forms).
func init() {
	addForms(&FormRow{Ops: opl(frontend.OpTex, frontend.OpTld4, frontend.OpTxq, frontend.OpSuld, frontend.OpSust,
		frontend.OpSured, frontend.OpSuq, frontend.OpIstypeof), AnyMods: true, Rule: imageRule, Examples: []string{
		"tex.1d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32}]",
		"tex.2d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32, %f32}]",
		"tex.3d.v4.s32.f32 {%b32, %b32, %b32, %b32}, [%rd0, {%f32, %f32, %f32, %f32}]",
		"tex.a1d.v4.u32.f32 {%b32, %b32, %b32, %b32}, [%rd0, {%b32, %f32}]",
		"tex.a2d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%b32, %f32, %f32, %f32}]",
		"tex.cube.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32, %f32, %f32, %f32}]",
		"tex.acube.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%b32, %f32, %f32, %f32}]",
		"tex.1d.v4.s32.s32 {%b32, %b32, %b32, %b32}, [%rd0, {%b32}]",
		"tex.2d.v4.f16.f32 {%b16, %b16, %b16, %b16}, [%rd0, {%f32, %f32}]",
		"tex.2d.v2.f16x2.f32 {%b32, %b32}, [%rd0, {%f32, %f32}]",
		"tex.level.2d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32, %f32}], %f32",
		"tex.grad.2d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32, %f32}], {%f32, %f32}, {%f32, %f32}",
		"tld4.r.2d.v4.f32.f32 {%f32, %f32, %f32, %f32}, [%rd0, {%f32, %f32}]",
		"tld4.a.a2d.v4.u32.f32 {%b32, %b32, %b32, %b32}, [%rd0, {%b32, %f32, %f32, %f32}]",
		"txq.width.b32 %b32, [%rd0]", "txq.addr_mode_1.b32 %b32, [%rd0]", "txq.channel_order.b32 %b32, [%rd0]",
		"suq.height.b32 %b32, [%rd0]", "suq.memory_layout.b32 %b32, [%rd0]",
		"suld.b.2d.b32.trap {%b32}, [%rd0, {%b32, %b32}]",
		"suld.b.1d.v4.b16.clamp {%b16, %b16, %b16, %b16}, [%rd0, {%b32}]",
		"suld.b.a2d.v2.b64.zero {%b64, %b64}, [%rd0, {%b32, %b32, %b32, %b32}]",
		"sust.b.2d.b32.trap [%rd0, {%b32, %b32}], {%b32}",
		"sust.b.3d.v2.b8.clamp [%rd0, {%b32, %b32, %b32, %b32}], {%b16, %b16}",
		"sust.p.2d.v4.b32.zero [%rd0, {%b32, %b32}], {%b32, %b32, %b32, %b32}",
		"sured.b.add.2d.u32.trap [%rd0, {%b32, %b32}], %b32",
		"sured.b.or.1d.b64.zero [%rd0, {%b32}], %b64",
		"istypeof.texref %pred, %rd0", "istypeof.surfref %pred, %rd0",
	}})
}

// imageRule checks a texture or surface instruction (Image's form).
func imageRule(in *ssa.Instr) (bool, string) {
	_, ok, msg := Image(in)
	return ok, msg
}
