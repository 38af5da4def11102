//! The legacy data-port message intrinsics (`@dp_*`): whether they name an image, and
//! the shapes of their operands against their fields ([`DpDesc`]).
//!
//! The generic intrinsic checks have already matched the sources to
//! [`IntrinsicOp::srcs`](crate::intrinsic::IntrinsicOp::srcs) (the coordinates or the
//! address, whose bit size the address model fixes, and how many atomic operands the
//! operation takes). What is left is per message:
//!
//! - the image operand: typed messages and `dp_addr=bti` name the surface's image,
//!   `slm` and `a64` name none;
//! - reads and atomics: the destination is `dp_cmask`'s channel count of 32-bit
//!   elements for surface messages, one element otherwise, 64-bit for 64-bit atomics
//!   and 8-byte scattered messages ([`DpDesc::data_bits`]);
//! - writes: `data` has that shape too; atomic operands `src0`, `src1` are scalars of
//!   the element's bit size.
//!
//! Whether a generation has the message at all (A64 from Gfx8, float atomics from
//! Gfx9, ...) is the lowering's legality table, not the IR's.

use super::context::{FnCheck, IntrCtx};
use super::error::{DataPortError, DpOperand};
use crate::dataport::DpDesc;
use crate::function::IntrinsicInst;
use crate::span::Span;
use crate::types::Type;

/// The fields of a data-port intrinsic, when it is one and its indices decode.
pub(super) fn desc_of(intr: &IntrinsicInst) -> Option<DpDesc> {
    let msg = intr.op.dp_msg()?;
    DpDesc::from_indices(msg, &intr.indices).ok()
}

/// The problem with a data-port message's image operand, if any: `has_image` says
/// whether the instruction names one.
fn image_operand(
    op: crate::intrinsic::IntrinsicOp,
    d: &DpDesc,
    has_image: bool,
) -> Option<DataPortError> {
    match (d.names_image(), has_image) {
        (true, false) if d.msg.is_typed() => Some(DataPortError::MissingTypedSurface { op }),
        (true, false) => Some(DataPortError::MissingSurface { op }),
        (false, true) => Some(DataPortError::ImageWithAddr { op, addr: d.addr }),
        _ => None,
    }
}

/// The problems with the shapes of a data-port message's destination and data
/// operands. `dest` is the destination's type, `src_of` the type of a source by its
/// name (`None` when absent or already reported).
fn operand_shapes(
    op: crate::intrinsic::IntrinsicOp,
    d: &DpDesc,
    dest: Option<Type>,
    src_of: &dyn Fn(&str) -> Option<Type>,
) -> Vec<DataPortError> {
    let mut out = Vec::new();
    let Some(want) = Type::new(d.data_bits(), d.components()) else {
        // Every field combination decodes to 1-4 components of 32 or 64 bits.
        out.push(DataPortError::NoRegisterShape { op, desc: *d });
        return out;
    };
    let mut check = |operand: DpOperand, found: Option<Type>| {
        if let Some(t) = found.filter(|&t| t != want) {
            out.push(DataPortError::OperandShape {
                op,
                desc: *d,
                operand,
                expected: want,
                found: t,
            });
        }
    };
    if d.msg.has_dest() {
        check(DpOperand::Dest, dest);
    }
    if d.msg.has_data() {
        check(DpOperand::Data, src_of("data"));
    }
    for which in ["src0", "src1"].iter().take(d.num_atomic_srcs()) {
        check(DpOperand::AtomicSrc(which), src_of(which));
    }
    out
}

impl FnCheck<'_> {
    /// The image operand of a data-port message whose fields decode (`d`).
    pub(super) fn check_dataport_image(&mut self, intr: &IntrinsicInst, d: &DpDesc, span: Span) {
        if let Some(e) = image_operand(intr.op, d, intr.image.is_some()) {
            self.error(span, e);
        }
    }

    /// The operand shapes of a data-port message.
    pub(super) fn check_dataport(
        &mut self,
        c: &IntrCtx<'_>,
        src_of: &dyn Fn(&str) -> Option<Type>,
    ) {
        let Some(d) = desc_of(c.intr) else { return };
        for e in operand_shapes(c.op, &d, c.dest, src_of) {
            self.error(c.span, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::{DpAddr, DpAtomicOp};
    use crate::intrinsic::IntrinsicOp;

    fn t(bits: u8, comps: u8) -> Option<Type> {
        Type::new(bits, comps)
    }

    fn texts(errs: &[DataPortError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn image_operands() {
        let op = IntrinsicOp::DpUntypedRead;
        let bti = DpDesc::untyped_read(DpAddr::Bti, 1);
        let a64 = DpDesc::untyped_read(DpAddr::A64, 1);
        assert_eq!(image_operand(op, &bti, true), None);
        assert_eq!(image_operand(op, &a64, false), None);
        assert_eq!(
            image_operand(op, &a64, true).unwrap().to_string(),
            "`@dp_untyped_read` with dp_addr=a64 cannot name an image"
        );
        assert_eq!(
            image_operand(op, &bti, false),
            Some(DataPortError::MissingSurface { op })
        );
        assert!(image_operand(op, &bti, false)
            .unwrap()
            .to_string()
            .contains("dp_addr=bti needs an image operand"));
        let typed = IntrinsicOp::DpTypedRead;
        assert!(image_operand(typed, &DpDesc::typed_read(1), false)
            .unwrap()
            .to_string()
            .contains("the typed surface"));
    }

    #[test]
    fn shapes() {
        let op = IntrinsicOp::DpUntypedWrite;
        let d = DpDesc::untyped_write(DpAddr::Slm, 0b0111);
        let none = |_: &str| None;
        assert!(operand_shapes(op, &d, None, &none).is_empty());
        let data = |s: &str| (s == "data").then(|| t(32, 2).unwrap());
        assert_eq!(
            texts(&operand_shapes(op, &d, None, &data)),
            ["`@dp_untyped_write`: the data is 32x2, expected 32x3 for dp_addr=slm, dp_cmask=xyz"]
        );
        let a = DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Cmpwr, 64);
        let srcs = |s: &str| match s {
            "src0" => t(64, 1),
            "src1" => t(32, 1),
            _ => None,
        };
        let errs = operand_shapes(IntrinsicOp::DpUntypedAtomic, &a, t(64, 1), &srcs);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(matches!(
            errs[0],
            DataPortError::OperandShape {
                operand: DpOperand::AtomicSrc("src1"),
                ..
            }
        ));
        assert!(
            errs[0].to_string().contains("`src1` is 32, expected 64"),
            "{errs:?}"
        );
        let r = DpDesc::typed_read(0b1010);
        let errs = operand_shapes(IntrinsicOp::DpTypedRead, &r, t(32, 4), &none);
        assert_eq!(
            texts(&errs),
            ["`@dp_typed_read`: the destination is 32x4, expected 32x2 for dp_cmask=yw"]
        );
        let b = DpDesc::byte_scattered_read(DpAddr::A64, 8);
        let op = IntrinsicOp::DpByteScatteredRead;
        assert!(operand_shapes(op, &b, t(64, 1), &none).is_empty());
        assert_eq!(operand_shapes(op, &b, t(32, 1), &none).len(), 1);
    }
}
