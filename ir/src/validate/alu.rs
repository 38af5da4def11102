//! ALU instructions and constants: operand bit sizes and component counts.

use super::context::FnCheck;
use super::error::{AluError, BitSizeRef};
use crate::alu::AluOp;
use crate::function::AluInst;
use crate::span::Span;
use crate::types::{AluType, BaseType, Type};

impl FnCheck<'_> {
    pub(super) fn check_const(&mut self, vals: &[u64], ty: Type, span: Span) {
        if vals.len() != ty.num_components() as usize {
            self.error(
                span,
                AluError::ConstCount {
                    values: vals.len(),
                    ty,
                },
            );
        }
        let mask = ty.component_mask();
        for (i, &v) in vals.iter().enumerate() {
            if v & !mask != 0 {
                self.error(
                    span,
                    AluError::ConstTooWide {
                        index: i,
                        value: v,
                        bits: ty.bit_size(),
                    },
                );
            }
        }
    }

    pub(super) fn check_alu(&mut self, a: &AluInst, dest: Type, tys: &[Option<Type>], span: Span) {
        let info = a.op.info();
        let op = a.op;
        let n = info.num_inputs as usize;
        if a.srcs.len() != n {
            self.error(
                span,
                AluError::SourceCount {
                    op,
                    expected: n,
                    found: a.srcs.len(),
                },
            );
            return;
        }
        let (db, dc) = (dest.bit_size(), dest.num_components());
        if info.output_size != 0 && dc != info.output_size {
            self.error(
                span,
                AluError::DestComponents {
                    op,
                    expected: info.output_size,
                    found: dc,
                },
            );
        }
        if info.output_type.is_sized() {
            if db != info.output_type.bits {
                self.error(
                    span,
                    AluError::DestBits {
                        op,
                        expected: info.output_type,
                        found: db,
                    },
                );
            }
        } else if info.output_type.base == BaseType::Float && !matches!(db, 16 | 32 | 64) {
            self.error(span, AluError::FloatDestBits { op, found: db });
        }
        // All unsized operands share one bit size: the destination's when it is
        // unsized, otherwise the first unsized source's (as in NIR's validator).
        let mut reference: Option<(u8, BitSizeRef)> = if info.output_type.is_sized() {
            None
        } else {
            Some((db, BitSizeRef::Destination))
        };
        for (i, ty) in tys.iter().enumerate() {
            let Some(ty) = *ty else { continue };
            let it: AluType = info.input_types[i];
            let (sb, sc) = (ty.bit_size(), ty.num_components());
            if it.is_sized() {
                if sb != it.bits {
                    self.error(
                        span,
                        AluError::SourceBits {
                            op,
                            index: i,
                            expected: it,
                            found: sb,
                        },
                    );
                }
            } else {
                match reference {
                    Some((rb, why)) => {
                        if sb != rb {
                            self.error(
                                span,
                                AluError::SourceBitsMismatch {
                                    op,
                                    index: i,
                                    expected: rb,
                                    reference: why,
                                    found: sb,
                                },
                            );
                        }
                    }
                    None => reference = Some((sb, BitSizeRef::Source(i))),
                }
                if it.base == BaseType::Float && !matches!(sb, 16 | 32 | 64) {
                    self.error(
                        span,
                        AluError::FloatSourceBits {
                            op,
                            index: i,
                            found: sb,
                        },
                    );
                }
            }
            // ufind_msb is only defined on 32- and 64-bit sources, as NIR's validator
            // enforces.
            if a.op == AluOp::UfindMsb && !matches!(sb, 32 | 64) {
                self.error(
                    span,
                    AluError::Source32Or64 {
                        op,
                        index: i,
                        found: sb,
                    },
                );
            }
            let want = match info.input_sizes[i] {
                0 => dc,
                k => k,
            };
            if sc != want {
                self.error(
                    span,
                    AluError::SourceComponents {
                        op,
                        index: i,
                        expected: want,
                        like_dest: info.input_sizes[i] == 0,
                        found: sc,
                    },
                );
            }
        }
    }
}
