//! ALU instructions and constants: operand bit sizes and component counts.

use super::context::FnCheck;
use crate::alu::AluOp;
use crate::function::AluInst;
use crate::span::Span;
use crate::types::{AluType, BaseType, Type};

impl FnCheck<'_> {
    pub(super) fn check_const(&mut self, vals: &[u64], ty: Type, span: Span) {
        if vals.len() != ty.num_components() as usize {
            self.error(
                span,
                format!(
                    "`load_const` has {} value{}, expected {} for type {ty}",
                    vals.len(),
                    if vals.len() == 1 { "" } else { "s" },
                    ty.num_components()
                ),
            );
        }
        let mask = ty.component_mask();
        for (i, &v) in vals.iter().enumerate() {
            if v & !mask != 0 {
                self.error(
                    span,
                    format!(
                        "`load_const` value {i} (0x{v:x}) does not fit in {} bit{}",
                        ty.bit_size(),
                        if ty.bit_size() == 1 { "" } else { "s" }
                    ),
                );
            }
        }
    }

    pub(super) fn check_alu(&mut self, a: &AluInst, dest: Type, tys: &[Option<Type>], span: Span) {
        let info = a.op.info();
        let op = a.op.name();
        let n = info.num_inputs as usize;
        if a.srcs.len() != n {
            self.error(
                span,
                format!(
                    "`{op}` takes {n} source{}, found {}",
                    if n == 1 { "" } else { "s" },
                    a.srcs.len()
                ),
            );
            return;
        }
        let (db, dc) = (dest.bit_size(), dest.num_components());
        if info.output_size != 0 && dc != info.output_size {
            self.error(
                span,
                format!(
                    "`{op}` produces {} components, but the destination has {dc}",
                    info.output_size
                ),
            );
        }
        if info.output_type.is_sized() {
            if db != info.output_type.bits {
                self.error(
                    span,
                    format!(
                        "`{op}` produces a {}-bit result ({}), but the destination is {db}-bit",
                        info.output_type.bits, info.output_type
                    ),
                );
            }
        } else if info.output_type.base == BaseType::Float && !matches!(db, 16 | 32 | 64) {
            self.error(
                span,
                format!("`{op}` produces a {db}-bit float; floats are 16, 32 or 64-bit"),
            );
        }
        // All unsized operands share one bit size: the destination's when it is
        // unsized, otherwise the first unsized source's (as in NIR's validator).
        let mut reference: Option<(u8, String)> = if info.output_type.is_sized() {
            None
        } else {
            Some((db, "the destination's bit size".to_string()))
        };
        for (i, ty) in tys.iter().enumerate() {
            let Some(ty) = *ty else { continue };
            let it: AluType = info.input_types[i];
            let (sb, sc) = (ty.bit_size(), ty.num_components());
            if it.is_sized() {
                if sb != it.bits {
                    self.error(
                        span,
                        format!(
                            "source {i} of `{op}` must be {}-bit ({it}), found {sb}-bit",
                            it.bits
                        ),
                    );
                }
            } else {
                match &reference {
                    Some((rb, why)) => {
                        if sb != *rb {
                            self.error(
                                span,
                                format!(
                                    "source {i} of `{op}` is {sb}-bit, expected {rb}-bit ({why})"
                                ),
                            );
                        }
                    }
                    None => reference = Some((sb, format!("like source {i}"))),
                }
                if it.base == BaseType::Float && !matches!(sb, 16 | 32 | 64) {
                    self.error(
                        span,
                        format!(
                            "source {i} of `{op}` is a {sb}-bit float; floats are 16, 32 or 64-bit"
                        ),
                    );
                }
            }
            // ufind_msb is only defined on 32- and 64-bit sources, as NIR's validator
            // enforces.
            if a.op == AluOp::UfindMsb && !matches!(sb, 32 | 64) {
                self.error(
                    span,
                    format!("source {i} of `{op}` must be 32 or 64-bit, found {sb}-bit"),
                );
            }
            let want = match info.input_sizes[i] {
                0 => dc,
                k => k,
            };
            if sc != want {
                let why = if info.input_sizes[i] == 0 {
                    " (the destination's component count)"
                } else {
                    ""
                };
                self.error(
                    span,
                    format!(
                        "source {i} of `{op}` has {sc} component{}, expected {want}{why}",
                        if sc == 1 { "" } else { "s" }
                    ),
                );
            }
        }
    }
}
