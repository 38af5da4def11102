//! Sampler `ld` and `ld_lz` (vISA `load_3d` and `load_lz`, IGC
//! `documentation/visa/instructions/3D_LOAD.md`), `resinfo` (vISA `info_3d`,
//! `documentation/visa/instructions/INFO.md`) and `sample_l` (vISA `3D_SAMPLE`,
//! `documentation/visa/instructions/3D_SAMPLE.md`).
//!
//! The surface is a surface variable numbered after the reserved `T0`-`T5` (one per
//! image, `T6` up), set to the image's binding-table index with `movs` before each
//! message (as IGC does). The message is at most SIMD16 (the widths 3D_LOAD and
//! 3D_SAMPLE list), split over wider kernels; its parameters are raw operands with
//! trailing constant zeros dropped ("the missing parameters will have a value of 0"),
//! and it returns the enabled channels, one register run each:
//!
//! ```text
//! movs (M1_NM, 1) T6(0) 0x5:ud
//! (p1) load_lz.RGBA (M1, 16)  0x0:uw T6 v20.0 v10.0 v11.0
//! ```
//!
//! `ld_mcs` and `ld2dms_w` (a multisampled texture's fetch) are `load_mcs` and
//! `load_2dms_w`, spelled as `load_lz` with their own parameters (si, mcsl, mcsh, u,
//! v, r for `load_2dms_w`); GenX_IR takes them on every sampler platform from BDW on.
//!
//! `resinfo` is spelled as IGC's printer spells `info_3d` and its assembler reads it
//! (`CISA.y` `ResInfo3dInstruction`): the channels, the execution size, the surface,
//! the LOD (a raw operand even when it is the constant 0) and then the destination,
//! without the `aoffimmi` immediate and without a predicate:
//!
//! ```text
//! movs (M1_NM, 1) T6(0) 0x0:ud
//! resinfo.RGB (M1, 16)  T6 v30.0 v31.0
//! ```
//!
//! `sample_l` names a sampler state too: the sampler variable `S0` (vISA's sampler
//! variables are `S0` up, `S31` the bindless one, `4_visa_header.md`), set with `movs`
//! to the message's sampler index next to the surface, as IGC's own kernels do
//! (`Sample3dInstruction` of `CISA.y`: `aoffimmi`, sampler, surface, destination, then
//! `lod, u, v, r`):
//!
//! ```text
//! movs (M1_NM, 1) S0(0) 0x2:ud
//! movs (M1_NM, 1) T6(0) 0x1:ud
//! sample_l.RGBA (M1, 16)  0x0:uw S0 T6 v30.0 v12.0 v13.0 v14.0
//! ```
//!
//! `sample4` (`3D_SAMPLE4.md`, vISA's `gather4`) is spelled as `sample_l` without the
//! LOD, its one channel the one it gathers; it returns that channel of four texels in
//! four register runs. A lookup's texel offset is the `aoffimmi` immediate's bits
//! 11:0 (U, V, R, 4 bits each).
//!
//! The descriptor holds 4 bits of sampler index; from 16 on the `aoffimmi` immediate
//! carries bit 15, IGC's mark (`CEncoder::Sample`, `isSamplerIdxLT16`) that makes the
//! finalizer send a header whose sampler state pointer is moved on by 16 states per
//! 16 indices (`emitSampleIndexGE16`), the low 4 bits in the descriptor.

use crate::ctx::{Ctx, Opnd};
use crate::error::{EmitError, EmitErrorKind};
use crate::payload;
use crate::vtype::VType;
use ir::{Inst, IntrinsicInst, Value};
use lowering::messages::{
    check_message, sampler_operands, SamplerMessage, SamplerOp, DESCRIPTOR_SAMPLER_INDICES,
};

/// The sampler variable of `sample_l`.
const SAMPLER_VAR: &str = "S0";

/// Sampler indices a 4 GiB table of 16-byte `SAMPLER_STATE`s holds.
const MAX_SAMPLER_INDICES: u32 = 1 << 28;

/// Emits a sampler message.
pub fn emit(
    cx: &mut Ctx,
    inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    check_message(cx.device, &cx.shader.images, cx.func, inst)
        .map_err(|e| cx.err(EmitErrorKind::Message(e.rule)))?;
    let m = SamplerMessage::decode(cx.func, inst)
        .map_err(|r| cx.err(EmitErrorKind::Message(r)))?
        .ok_or_else(|| cx.unsupported("not a sampler message"))?;
    let ops = sampler_operands(cx.func, inst, &m).map_err(|r| cx.err(EmitErrorKind::Message(r)))?;
    if let Some(v) = dest {
        if cx.func.value_type(v).bit_size() != 32 {
            return Err(cx.unsupported(
                "sampler loads return 32-bit channels here; a 16-bit return needs the sampler's 16-bit response format",
            ));
        }
    }
    let r = i
        .image
        .ok_or_else(|| cx.unsupported("a sampler message names no image"))?;
    let binding = cx
        .shader
        .images
        .get(r.image.index())
        .map(|d| d.binding)
        .ok_or_else(|| cx.unsupported("the sampler message's image is not declared"))?;
    let surface = format!("T{}", 6 + r.image.index());
    cx.decls.surface(&surface);
    // The header's sampler state pointer is a 32-bit offset into the dynamic state,
    // 16 bytes a state: the table ends below 4 GiB.
    if m.op.uses_sampler_state() && m.sampler >= MAX_SAMPLER_INDICES {
        return Err(cx.unsupported(format!(
            "sampler index {}: a sampler state table of 16-byte states reaches {} at most \
             (the sampler state pointer is a 32-bit offset)",
            m.sampler,
            MAX_SAMPLER_INDICES - 1
        )));
    }
    // One sampler variable serves every message: its value is set before each.
    let sampler = m.op.uses_sampler_state().then(|| {
        cx.decls.sampler(SAMPLER_VAR);
        (
            VType::Ud.imm(u64::from(m.sampler)),
            // Bit 15 of `aoffimmi`: an index from 16 on (see the module docs).
            if m.sampler >= DESCRIPTOR_SAMPLER_INDICES {
                0x8000u64
            } else {
                0
            },
        )
    });
    let bti = cx.bti_index(binding, r.index)?;
    let mut params = Vec::new();
    for s in &ops.params {
        params.push(cx.comp(*s, 0)?);
    }
    while params.len() > 1 && params.last() == Some(&Opnd::Imm(0)) {
        params.pop();
    }
    let pred = match ops.predicate {
        Some(p) => {
            let o = cx.comp(p, 0)?;
            Some(cx.pred_of(o))
        }
        None => None,
    };
    // `sample4` names the channel it gathers, and returns it of four texels.
    let channels: String = match m.op {
        SamplerOp::Gather4 => "RGBA"[usize::from(m.component)..][..1].to_string(),
        _ => "RGBA"
            .chars()
            .enumerate()
            .filter(|(k, _)| m.channels & (1 << k) != 0)
            .map(|(_, c)| c)
            .collect(),
    };
    let op = m.op.visa_name();
    let comps = m.channels.count_ones() as u8;
    for c in payload::chunks(cx, cx.t.sampler_simd) {
        let srcs: Vec<String> = params
            .iter()
            .map(|p| {
                let r = payload::source(cx, c, std::slice::from_ref(p), VType::Ud);
                cx.raw(r)
            })
            .collect();
        let d = match dest {
            Some(v) => {
                let mut regs = Vec::new();
                for k in 0..comps {
                    regs.push(cx.dest(v, k)?);
                }
                Some(payload::dest(cx, c, &regs, VType::Ud))
            }
            None => None,
        };
        let dtext = d
            .as_ref()
            .map(|d| cx.raw(d.reg))
            .unwrap_or_else(|| "%null.0".to_string());
        if let Some((index, _)) = &sampler {
            cx.line(&format!("movs (M1_NM, 1) {SAMPLER_VAR}(0) {index}"));
        }
        cx.line(&format!("movs (M1_NM, 1) {surface}(0) {bti}"));
        let p = pred.as_ref().map(|p| format!("({p}) ")).unwrap_or_default();
        let text = match m.op {
            SamplerOp::Resinfo => format!(
                "{op}.{channels} {}  {surface} {} {dtext}",
                c.es(),
                srcs.join(" ")
            ),
            SamplerOp::SampleL | SamplerOp::Gather4 => format!(
                "{p}{op}.{channels} {}  {} {SAMPLER_VAR} {surface} {dtext} {}",
                c.es(),
                VType::Uw
                    .imm(u64::from(m.offset.to_index()) | sampler.as_ref().map_or(0, |(_, a)| *a)),
                srcs.join(" ")
            ),
            SamplerOp::Ld | SamplerOp::LdLz | SamplerOp::LdMcs | SamplerOp::Ld2dmsW => format!(
                "{p}{op}.{channels} {}  0x0:uw {surface} {dtext} {}",
                c.es(),
                srcs.join(" ")
            ),
        };
        cx.line(&text);
        if let Some(d) = d {
            d.finish(cx);
        }
    }
    Ok(())
}
