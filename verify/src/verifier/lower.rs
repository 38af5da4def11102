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
    /// The input's spans in program order, where [`Lowered::original`]'s were stamped
    /// ([`stamp_spans`]): errors are reported at these.
    pub input_spans: Option<Vec<Span>>,
}

impl Lowered {
    /// Where the instruction of span `s` of [`Lowered::original`] is in the input: `s`
    /// itself unless the spans were stamped (a stamped span is a number, not a place
    /// in any file).
    pub fn input_span(&self, s: Span) -> Span {
        input_span(self.input_spans.as_deref(), s)
    }

    /// `e` with the span of a run's failure in the original at its place in the input
    /// ([`Lowered::input_span`]).
    pub fn at_input(&self, mut e: VerifyError) -> VerifyError {
        if let VerifyError::Original(crate::exec::ExecError::Run { error, .. }) = &mut e {
            error.span = self.input_span(error.span);
        }
        e
    }
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

/// The input's span of the instruction a stamped span `s` names, given the input's
/// spans in program order (`None`: nothing was stamped, `s` is the input's own).
fn input_span(input: Option<&[Span]>, s: Span) -> Span {
    match input {
        None => s,
        Some(spans) if s.col == 1 && s.line > 0 => spans
            .get(s.line as usize - 1)
            .copied()
            .unwrap_or(Span::UNKNOWN),
        Some(_) => Span::UNKNOWN,
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
    let input_spans = (!ambiguous_spans(&original).is_empty()).then(|| {
        let spans = original
            .functions
            .iter()
            .flat_map(|f| f.insts_in_order().into_iter().map(|i| f.inst_span(i)))
            .collect();
        stamp_spans(&mut original);
        spans
    });
    let mut lowered = original.clone();
    let report = lowering::lower_shader(&mut lowered, device, options).map_err(|mut errors| {
        let mut e = errors.swap_remove(0);
        e.span = input_span(input_spans.as_deref(), e.span);
        VerifyError::Lower(e)
    })?;
    Ok(Lowered {
        original,
        lowered,
        report,
        input_spans,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamped_spans_map_back_to_the_input() {
        let input = [Span::UNKNOWN, Span::new(7, 3)];
        // Not stamped: a span is the input's own.
        assert_eq!(input_span(None, Span::new(2, 1)), Span::new(2, 1));
        // Stamped `n:1` is the n-th instruction in program order.
        assert_eq!(input_span(Some(&input), Span::new(2, 1)), Span::new(7, 3));
        assert_eq!(input_span(Some(&input), Span::new(1, 1)), Span::UNKNOWN);
        // Nothing stamped reads so: no place at all.
        assert_eq!(input_span(Some(&input), Span::new(3, 1)), Span::UNKNOWN);
        assert_eq!(input_span(Some(&input), Span::new(2, 4)), Span::UNKNOWN);
    }
}
