//! 2D block messages (`lsc_load_block2d`, `lsc_store_block2d`).
//!
//! A block message belongs to the whole subgroup: one SIMD1 message moves a rectangle
//! between memory and a register image that the lanes share, component `c` of lane `l`
//! at element `c * W + l` of the image (`W` is the kernel's SIMD width, the shader's
//! `subgroup_size`). The payload fields (base, sizes, block origin) are scalars, read
//! from the active lanes ([`Ctx::uniform`]); NIR requires them to be the same on every
//! lane. The message runs without the execution mask (`(M1_NM, 1)`), so that it runs
//! whichever lanes are active, and the loaded image is copied into the destination
//! under the mask; a store reads the image of the data value (copied first where the
//! value's component runs are padded to registers).
//!
//! ```text
//! lsc_load_block2d.ugm (M1_NM, 1)  t4:d64.8x16nn  flat[s1,0x3f,0xf,0xff,s2,s3]
//! lsc_store_block2d.ugm (M1_NM, 1)  flat[s1,0x3f,0xf,0xff,s2,s3]  v9:d32.8x2nn
//! lsc_load_block2d.tgm  t4:8x8  bti(0x1)[s2,s3]          (Xe2, typed)
//! ```

use crate::ctx::{storage_type, Ctx, Opnd, Reg};
use crate::error::{EmitError, EmitErrorKind};
use crate::lsc::{lsc_raw, lsc_scalar};
use crate::target::Family;
use crate::vtype::VType;
use ir::lsc::{BlockShape, Sfid};
use ir::{Inst, IntrinsicInst, Value};
use lowering::messages::block2d::{block2d_operands, Block2dMessage, Block2dOp};
use lowering::messages::check_message;

/// Emits a 2D block message.
pub fn emit(
    cx: &mut Ctx,
    inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    check_message(cx.device, &cx.shader.images, cx.func, inst)
        .map_err(|e| cx.err(EmitErrorKind::Message(e.rule)))?;
    let m = Block2dMessage::decode(cx.func, inst)
        .map_err(|r| cx.err(EmitErrorKind::Message(r)))?
        .ok_or_else(|| cx.unsupported("not a 2D block message"))?;
    let ops = block2d_operands(cx.func, inst, &m).map_err(|r| cx.err(EmitErrorKind::Message(r)))?;
    if cx.shader.subgroup_size != Some(cx.t.simd) {
        return Err(cx.unsupported(format!(
            "a block message spreads its data over a subgroup of the kernel's SIMD{} lanes; the shader must fix subgroup_size={}",
            cx.t.simd, cx.t.simd
        )));
    }
    let typed = m.sfid == Sfid::Tgm;
    // The payload: scalars, immediates where constant.
    let mut fields = Vec::new();
    for (k, s) in ops.payload.iter().enumerate() {
        let o = cx.comp(*s, 0)?;
        let wide = !typed && k == 0;
        let field = match o {
            // The base is a register operand in the grammar; the others may be
            // immediates.
            Opnd::Imm(v) if !wide => Field::Imm(v & 0xffff_ffff),
            _ => {
                let ty = if wide { VType::Uq } else { VType::Ud };
                Field::Reg(cx.uniform(o, ty))
            }
        };
        fields.push(field);
    }
    let surface = if typed {
        let r = i
            .image
            .ok_or_else(|| cx.unsupported("a typed block message names no image"))?;
        let binding = cx
            .shader
            .images
            .get(r.image.index())
            .map(|d| d.binding)
            .ok_or_else(|| cx.unsupported("the block message's image is not declared"))?;
        match r.index {
            None => format!("bti(0x{binding:x})"),
            Some(idx) => {
                let o = cx.comp(idx, 0)?;
                let s = cx.uniform_binding(o, binding);
                format!("bti({})", lsc_raw(cx, s))
            }
        }
    } else {
        "flat".to_string()
    };
    let addr = |cx: &Ctx, fields: &[Field]| {
        let f: Vec<String> = fields.iter().map(|f| f.text(cx)).collect();
        format!("{surface}[{}]", f.join(","))
    };
    let shape = if typed {
        m.shape.to_string()
    } else {
        format!("{}.{}", m.size.name(), m.shape)
    };
    let mut mnem = format!("{}.{}", m.op.mnemonic(), m.sfid.name());
    if !m.cache.is_default() {
        mnem.push_str(&format!(".{}.{}", m.cache.l1.name(), m.cache.l3.name()));
    }
    if !typed {
        mnem.push_str(" (M1_NM, 1)");
    }
    let bytes = m.register_bytes();
    match m.op {
        Block2dOp::Load => {
            // Outside loops the message may write the value itself when the value's
            // layout is the register image (lanes that do not run here never read the
            // value); inside a loop, lanes that left keep their earlier value, so the
            // image is copied under the mask.
            let direct = match dest {
                Some(v) if !in_loop(cx, inst) => direct_image(cx, v)?,
                _ => None,
            };
            let img = match direct {
                Some(r) => r,
                None => cx.temp_bytes(VType::Ud, bytes),
            };
            let d = lsc_raw(cx, img);
            let a = addr(cx, &fields);
            cx.line(&format!("{mnem}  {d}:{shape}  {a}"));
            if let (Some(v), None) = (dest, direct) {
                image_to_value(cx, img, v)?;
            }
        }
        Block2dOp::Store => {
            let data = ops
                .data
                .ok_or_else(|| cx.unsupported("a block store without data"))?;
            let img = value_to_image(cx, data, bytes)?;
            let row_bytes = u32::from(m.shape.width) * m.size.mem_bytes();
            if !typed && cx.t.family == Family::Pvc && row_bytes > MAX_PVC_STORE_ROW {
                store_in_columns(cx, &m, &mnem, img, &mut fields, &addr)?;
            } else {
                let d = lsc_raw(cx, img);
                let a = addr(cx, &fields);
                cx.line(&format!("{mnem}  {a}  {d}:{shape}"));
            }
        }
    }
    Ok(())
}

/// The widest row of an untyped 2D block store GenX_IR 1.0.12504 takes on PVC ("block2d
/// cols * data size must be <= 64"; OpenCL's `cl_intel_subgroup_2d_block_io` stores
/// are at most 16 dwords wide there too).
const MAX_PVC_STORE_ROW: u32 = 64;

/// One payload field: a scalar register or an immediate.
#[derive(Copy, Clone, Debug)]
enum Field {
    Reg(Reg),
    Imm(u64),
}

impl Field {
    fn text(self, cx: &Ctx) -> String {
        match self {
            Field::Reg(r) => lsc_scalar(cx, r),
            Field::Imm(v) => format!("0x{v:x}"),
        }
    }
}

/// An untyped block store wider than PVC's store rows, as stores of column groups
/// at most 64 bytes wide: group `k` starts `k * w` elements right and takes its rows'
/// elements from the register image (rows of the block width rounded up to a power of
/// two, as the message reads them).
fn store_in_columns(
    cx: &mut Ctx,
    m: &Block2dMessage,
    mnem: &str,
    img: Reg,
    fields: &mut [Field],
    addr: &dyn Fn(&Ctx, &[Field]) -> String,
) -> Result<(), EmitError> {
    let eb = m.size.mem_bytes();
    let et = VType::uint((eb * 8) as u8);
    let (width, height) = (u32::from(m.shape.width), u32::from(m.shape.height));
    let pitch_in = width.next_power_of_two();
    let group = MAX_PVC_STORE_ROW / eb;
    let x = fields[4];
    let mut col = 0;
    while col < width {
        let w = group.min(width - col);
        let pitch = w.next_power_of_two();
        let piece = cx.temp_bytes(et, pitch * height * eb);
        for r in 0..height {
            // At most 32 elements per move.
            let mut e = 0;
            while e < w {
                let n = (w - e).min(32);
                let (d, s) = (
                    cx.dst(piece.at((r * pitch + e) * eb), et),
                    cx.src(Opnd::Reg(img.at((r * pitch_in + col + e) * eb)), et),
                );
                cx.line(&format!("mov (M1_NM, {n}) {d} {s}"));
                e += n;
            }
        }
        fields[4] = match x {
            Field::Imm(v) => Field::Imm((v + u64::from(col)) & 0xffff_ffff),
            Field::Reg(r) => {
                let s = cx.scalar(VType::Ud);
                let (d, sx) = (cx.dst(s, VType::Ud), cx.src(Opnd::Reg(r), VType::Ud));
                cx.line(&format!(
                    "add (M1_NM, 1) {d} {sx} {}",
                    VType::Ud.imm(u64::from(col))
                ));
                Field::Reg(s)
            }
        };
        let shape = format!(
            "{}.{}",
            m.size.name(),
            BlockShape::untyped(1, w as u16, height as u16, false, false)
        );
        let d = lsc_raw(cx, piece);
        let a = addr(cx, fields);
        cx.line(&format!("{mnem}  {a}  {d}:{shape}"));
        col += w;
    }
    Ok(())
}

/// Whether `inst` sits inside a loop.
fn in_loop(cx: &Ctx, inst: Inst) -> bool {
    cx.func
        .inst_block(inst)
        .is_some_and(|b| cx.func.enclosing_loop(ir::CfNode::Block(b)).is_some())
}

/// The value's registers when they are the register image: component runs of exactly
/// the lanes' bytes, in one variable.
fn direct_image(cx: &mut Ctx, v: Value) -> Result<Option<Reg>, EmitError> {
    let ty = cx.func.value_type(v);
    let st = storage_type(ty.bit_size());
    let lane_run = cx.t.simd * st.bytes();
    let first = cx.dest(v, 0)?;
    for c in 1..ty.num_components() {
        if cx.dest(v, c)? != first.at(u32::from(c) * lane_run) {
            return Ok(None);
        }
    }
    Ok(Some(first))
}

/// Copies a loaded register image into the value's components, under the mask.
fn image_to_value(cx: &mut Ctx, img: Reg, v: Value) -> Result<(), EmitError> {
    let ty = cx.func.value_type(v);
    let st = storage_type(ty.bit_size());
    let lane_run = cx.t.simd * st.bytes();
    for c in 0..ty.num_components() {
        let d = cx.dest(v, c)?;
        copy_run(cx, "(M1", d, img.at(u32::from(c) * lane_run), st);
    }
    Ok(())
}

/// The register image of a stored value: the value itself when its component runs are
/// already contiguous, else a copy of all lanes.
fn value_to_image(cx: &mut Ctx, data: ir::Src, bytes: u32) -> Result<Reg, EmitError> {
    let ty = cx.src_type(data);
    let st = storage_type(ty.bit_size());
    let lane_run = cx.t.simd * st.bytes();
    let first = cx.comp(data, 0)?;
    if let Opnd::Reg(r) = first {
        let mut contiguous = r.stride == 1 && r.off % cx.t.grf == 0;
        for c in 1..ty.num_components() {
            contiguous &= cx.comp(data, c)? == Opnd::Reg(r.at(u32::from(c) * lane_run));
        }
        if contiguous {
            return Ok(r);
        }
    }
    let img = cx.temp_bytes(VType::Ud, bytes);
    for c in 0..ty.num_components() {
        let o = cx.comp(data, c)?;
        let r = cx.in_reg(o, st);
        copy_run(cx, "(M1_NM", img.at(u32::from(c) * lane_run), r, st);
    }
    Ok(img)
}

/// Copies the kernel's lanes of one component (64-bit as two 32-bit halves), with the
/// execution mask (`"(M1"`) or without it (`"(M1_NM"`).
fn copy_run(cx: &mut Ctx, mask: &str, dst: Reg, src: Reg, st: VType) {
    let w = cx.t.simd;
    if st.bytes() == 8 {
        for hi in [0, 4] {
            let d = Reg {
                off: dst.off + hi,
                stride: 2,
                ..dst
            };
            let s = Opnd::Reg(Reg {
                off: src.off + hi,
                stride: 2,
                ..src
            });
            let (dd, ss) = (cx.dst(d, VType::Ud), cx.src(s, VType::Ud));
            cx.line(&format!("mov {mask}, {w}) {dd} {ss}"));
        }
    } else {
        let (dd, ss) = (cx.dst(dst, st), cx.src(Opnd::Reg(src), st));
        cx.line(&format!("mov {mask}, {w}) {dd} {ss}"));
    }
}
