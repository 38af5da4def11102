//! The lowering the verifier checks: the shader before and after the default pipeline.
//!
//! [`lower`] is the one place the pipeline is spelled; the rest of the verifier only
//! sees the two shaders.

use crate::verifier::error::VerifyError;
use crate::verifier::events::{access_kind, is_group_copy};
use ir::{Shader, Span};
use lowering::{Device, LowerOptions, LowerReport};
use std::collections::BTreeSet;

/// A shader before and after `lower-images` and `cleanup`.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The input (with stamped spans if its image accesses shared spans).
    pub original: Shader,
    /// The lowered, cleaned-up shader.
    pub lowered: Shader,
    /// What the lowering did, with the surfaces to bind.
    pub report: LowerReport,
}

/// Gives every instruction of every function its own span (`n:1`, numbered in program
/// order from 1), so that the verifier can pair the accesses of programmatically built
/// shaders, whose spans are all unknown.
pub fn stamp_spans(shader: &mut Shader) {
    let mut n = 1u32;
    for func in &mut shader.functions {
        for inst in func.insts_in_order() {
            func.set_inst_span(inst, Span::new(n, 1));
            n += 1;
        }
    }
}

/// The spans shared by several image, message or group async copy intrinsics of the
/// entry function.
pub fn ambiguous_spans(shader: &Shader) -> Vec<Span> {
    let Some(func) = shader.entry() else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut dup = BTreeSet::new();
    for inst in func.insts_in_order() {
        let Some(intr) = func.inst(inst).as_intrinsic() else {
            continue;
        };
        if access_kind(intr.op).is_none() && !is_group_copy(intr.op) {
            continue;
        }
        let s = func.inst_span(inst);
        if !seen.insert((s.line, s.col)) {
            dup.insert((s.line, s.col));
        }
    }
    dup.into_iter().map(|(l, c)| Span::new(l, c)).collect()
}

/// Lowers `shader` for `device` with `lowering::lower_shader` (the pipeline of `ir-opt
/// -O`), stamping spans first when the shader's image accesses share spans.
pub fn lower(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<Lowered, VerifyError> {
    let mut original = shader.clone();
    if !ambiguous_spans(&original).is_empty() {
        stamp_spans(&mut original);
    }
    let mut lowered = original.clone();
    let report = lowering::lower_shader(&mut lowered, device, options)
        .map_err(|mut errors| VerifyError::Lower(errors.swap_remove(0)))?;
    Ok(Lowered {
        original,
        lowered,
        report,
    })
}
