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

use crate::dataport::DpDesc;
use crate::types::Type;

/// The problem with a data-port message's image operand, if any: `has_image` says
/// whether the instruction names one. `name` is the intrinsic as messages quote it.
pub(super) fn image_operand(name: &str, d: &DpDesc, has_image: bool) -> Option<String> {
    match (d.names_image(), has_image) {
        (true, false) if d.msg.is_typed() => Some(format!(
            "{name} needs an image operand (`@image`): the typed surface"
        )),
        (true, false) => Some(format!(
            "{name} with dp_addr=bti needs an image operand (`@image`): the surface"
        )),
        (false, true) => Some(format!(
            "{name} with dp_addr={} cannot name an image",
            d.addr
        )),
        _ => None,
    }
}

/// The problems with the shapes of a data-port message's destination and data
/// operands. `dest` is the destination's type, `src_of` the type of a source by its
/// name (`None` when absent or already reported).
pub(super) fn operand_shapes(
    name: &str,
    d: &DpDesc,
    dest: Option<Type>,
    src_of: &dyn Fn(&str) -> Option<Type>,
) -> Vec<String> {
    let mut out = Vec::new();
    let bits = d.data_bits();
    let Some(want) = Type::new(bits, d.components()) else {
        // Every field combination decodes to 1-4 components of 32 or 64 bits.
        out.push(format!("{name}: {d} has no register data shape"));
        return out;
    };
    if d.msg.has_dest() {
        if let Some(t) = dest {
            if t != want {
                out.push(format!(
                    "{name}: the destination is {t}, expected {want} for {}",
                    fields_text(d)
                ));
            }
        }
    }
    if d.msg.has_data() {
        if let Some(t) = src_of("data") {
            if t != want {
                out.push(format!(
                    "{name}: the data is {t}, expected {want} for {}",
                    fields_text(d)
                ));
            }
        }
    }
    for which in ["src0", "src1"].iter().take(d.num_atomic_srcs()) {
        if let Some(t) = src_of(which) {
            if t != want {
                out.push(format!(
                    "{name}: atomic operand `{which}` is {t}, expected {want} for {}",
                    fields_text(d)
                ));
            }
        }
    }
    out
}

/// The fields as the text writes them: `dp_addr=a64, dp_cmask=xy`.
fn fields_text(d: &DpDesc) -> String {
    let text = d.to_string();
    // `@dp_untyped_read (dp_addr=a64, dp_cmask=xy)` without the name and parentheses.
    text.split_once(" (")
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or(&text)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::{DpAddr, DpAtomicOp};

    fn t(bits: u8, comps: u8) -> Option<Type> {
        Type::new(bits, comps)
    }

    #[test]
    fn image_operands() {
        let n = "`@dp_untyped_read`";
        let bti = DpDesc::untyped_read(DpAddr::Bti, 1);
        let a64 = DpDesc::untyped_read(DpAddr::A64, 1);
        assert_eq!(image_operand(n, &bti, true), None);
        assert_eq!(image_operand(n, &a64, false), None);
        assert_eq!(
            image_operand(n, &a64, true).unwrap(),
            "`@dp_untyped_read` with dp_addr=a64 cannot name an image"
        );
        assert!(image_operand(n, &bti, false)
            .unwrap()
            .contains("dp_addr=bti needs an image operand"));
        assert!(
            image_operand("`@dp_typed_read`", &DpDesc::typed_read(1), false)
                .unwrap()
                .contains("the typed surface")
        );
    }

    #[test]
    fn shapes() {
        let n = "`@dp_untyped_write`";
        let d = DpDesc::untyped_write(DpAddr::Slm, 0b0111);
        let none = |_: &str| None;
        assert!(operand_shapes(n, &d, None, &none).is_empty());
        let data = |s: &str| (s == "data").then(|| t(32, 2).unwrap());
        assert_eq!(
            operand_shapes(n, &d, None, &data),
            ["`@dp_untyped_write`: the data is 32x2, expected 32x3 for dp_addr=slm, dp_cmask=xyz"]
        );
        let a = DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Cmpwr, 64);
        let srcs = |s: &str| match s {
            "src0" => t(64, 1),
            "src1" => t(32, 1),
            _ => None,
        };
        let errs = operand_shapes("`@dp_untyped_atomic`", &a, t(64, 1), &srcs);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].contains("`src1` is 32, expected 64"), "{errs:?}");
        let r = DpDesc::typed_read(0b1010);
        let errs = operand_shapes("`@dp_typed_read`", &r, t(32, 4), &none);
        assert_eq!(
            errs,
            ["`@dp_typed_read`: the destination is 32x4, expected 32x2 for dp_cmask=yw"]
        );
        let b = DpDesc::byte_scattered_read(DpAddr::A64, 8);
        assert!(operand_shapes("x", &b, t(64, 1), &none).is_empty());
        assert_eq!(operand_shapes("x", &b, t(32, 1), &none).len(), 1);
    }
}
