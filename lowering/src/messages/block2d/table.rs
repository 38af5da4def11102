//! The block2d legality table of one platform ([`Block2dTable`]) and the shape rules
//! it checks.

use super::form::{Block2dForm, Block2dOp};
use super::message::Block2dMessage;
use super::register::typed_pitch;
use super::rule::Block2dRule;
use crate::device::Device;
use ir::lsc::{BlockShape, CacheControl, DataSize};

/// The largest typed block: 64 bytes wide (docs/hardware/lsc-messages.md §8.1).
pub const TYPED_MAX_WIDTH: u32 = 64;
/// The typed register budget: padded pitch × height ≤ 256 bytes (docs/hardware/lsc-messages.md §8.1).
pub const TYPED_MAX_REGISTER_BYTES: u32 = 256;
/// The widest untyped load row, `width × blocks × elem_bytes` (docs/hardware/lsc-messages.md §8.2).
pub const UNTYPED_MAX_LOAD_ROW: u32 = 64;
/// The widest untyped store row, `width × elem_bytes` (docs/hardware/lsc-messages.md §8.2).
pub const UNTYPED_MAX_STORE_ROW: u32 = 512;
/// The narrowest block row in bytes (docs/hardware/lsc-messages.md §8.2, §13.9).
pub const MIN_ROW_BYTES: u32 = 4;
/// Rows of an untyped block, ≤ Xe3 (docs/hardware/lsc-messages.md §8.2).
pub const UNTYPED_MAX_ROWS: u32 = 32;
/// The widest block the IR's [`BlockShape`] encodes, in elements.
pub const ENCODABLE_WIDTH: u32 = 256;

/// The block2d rules of one platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block2dTable {
    /// The platform name (for diagnostics).
    pub platform: String,
    /// Whether typed block2d exists (docs/hardware/lsc-messages.md §1: Xe2+).
    pub typed: bool,
    /// Whether untyped block2d exists (docs/hardware/lsc-messages.md §1: PVC, Xe2+).
    pub untyped: bool,
}

impl Block2dTable {
    /// The table of `p`.
    pub fn for_device(p: &Device) -> Block2dTable {
        Block2dTable {
            platform: p.name.clone(),
            typed: p.typed_block2d,
            untyped: p.untyped_block2d,
        }
    }

    /// Whether `form` exists on the platform (else the error naming the rule).
    pub fn check_available(&self, form: Block2dForm) -> Result<(), Block2dRule> {
        match form {
            Block2dForm::Typed if !self.typed => Err(Block2dRule::TypedUnavailable {
                platform: self.platform.clone(),
            }),
            Block2dForm::Untyped if !self.untyped => Err(Block2dRule::UntypedUnavailable {
                platform: self.platform.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Checks one message; the first rule broken is returned.
    pub fn check(&self, m: &Block2dMessage) -> Result<(), Block2dRule> {
        let form = m.form().ok_or(Block2dRule::Sfid { sfid: m.sfid })?;
        self.check_available(form)?;
        if m.size.is_conversion() {
            return Err(Block2dRule::DataSize { size: m.size });
        }
        let s = m.shape;
        if form == Block2dForm::Typed && m.cache != CacheControl::DEFAULT {
            return Err(Block2dRule::TypedCache { cache: m.cache });
        }
        match form {
            Block2dForm::Typed => check_typed(m.size, s),
            Block2dForm::Untyped => check_untyped(m.op, m.size, s),
        }
    }

    /// Whether `form` with `op` and element size `size` accepts `shape` (the platform
    /// and the shape rules, without cache controls).
    pub fn check_shape(
        &self,
        form: Block2dForm,
        op: Block2dOp,
        size: DataSize,
        shape: BlockShape,
    ) -> Result<(), Block2dRule> {
        self.check(&Block2dMessage {
            op,
            sfid: form.sfid(),
            size,
            shape,
            cache: CacheControl::DEFAULT,
        })
    }

    /// The largest height `form` accepts for a non-transposed, non-VNNI block of
    /// `width` elements of `elem_bytes` (typed: `256 / pitch`; untyped: 32). 0 when
    /// the width itself is illegal.
    pub fn max_height(&self, form: Block2dForm, op: Block2dOp, width: u32, elem_bytes: u32) -> u32 {
        let Some(size) = data_size_of(elem_bytes) else {
            return 0;
        };
        let Some(shape) = plain_shape(form, width, 1, elem_bytes) else {
            return 0;
        };
        if self.check_shape(form, op, size, shape).is_err() {
            return 0;
        }
        match form {
            Block2dForm::Typed => TYPED_MAX_REGISTER_BYTES / typed_pitch(width * elem_bytes),
            Block2dForm::Untyped => UNTYPED_MAX_ROWS,
        }
    }
}

fn check_typed(size: DataSize, s: BlockShape) -> Result<(), Block2dRule> {
    if s.is_untyped() {
        return Err(Block2dRule::ShapeForm {
            typed: true,
            shape: s,
        });
    }
    let (w, h) = (u32::from(s.width), u32::from(s.height));
    if w == 0 || h == 0 {
        return Err(Block2dRule::Empty { shape: s });
    }
    if w > TYPED_MAX_WIDTH {
        return Err(Block2dRule::TypedWidth { width: w });
    }
    let pitch = typed_pitch(w);
    if pitch * h > TYPED_MAX_REGISTER_BYTES {
        return Err(Block2dRule::TypedPayload {
            width: w,
            height: h,
            pitch,
        });
    }
    if !w.is_multiple_of(size.mem_bytes()) {
        return Err(Block2dRule::TypedWidthElements { width: w, size });
    }
    Ok(())
}

fn check_untyped(op: Block2dOp, size: DataSize, s: BlockShape) -> Result<(), Block2dRule> {
    if !s.is_untyped() {
        return Err(Block2dRule::ShapeForm {
            typed: false,
            shape: s,
        });
    }
    let (w, h, b) = (u32::from(s.width), u32::from(s.height), u32::from(s.blocks));
    if w == 0 || h == 0 {
        return Err(Block2dRule::Empty { shape: s });
    }
    let e = size.mem_bytes();
    if op == Block2dOp::Store {
        if b != 1 {
            return Err(Block2dRule::StoreBlocks { blocks: b });
        }
        if s.vnni {
            return Err(Block2dRule::StoreVnni);
        }
        if s.transpose {
            return Err(Block2dRule::StoreTranspose);
        }
        if w * e > UNTYPED_MAX_STORE_ROW {
            return Err(Block2dRule::StoreWidth {
                width: w,
                elem_bytes: e,
            });
        }
    } else if w * b * e > UNTYPED_MAX_LOAD_ROW {
        return Err(Block2dRule::LoadWidth {
            width: w,
            blocks: b,
            elem_bytes: e,
        });
    }
    if w > ENCODABLE_WIDTH {
        return Err(Block2dRule::Encoding { width: w });
    }
    if w * e < MIN_ROW_BYTES {
        return Err(Block2dRule::RowTooShort {
            width: w,
            elem_bytes: e,
        });
    }
    let rows = if s.transpose { w } else { h };
    if rows > UNTYPED_MAX_ROWS {
        return Err(Block2dRule::TooManyRows {
            rows,
            transpose: s.transpose,
        });
    }
    if s.transpose && s.vnni {
        return Err(Block2dRule::TransposeVnni);
    }
    let blocks_ok = if s.transpose {
        b == 1
    } else {
        match size {
            DataSize::D8 | DataSize::D16 => matches!(b, 1 | 2 | 4),
            DataSize::D32 => matches!(b, 1 | 2),
            _ => b == 1,
        }
    };
    if !blocks_ok {
        return Err(Block2dRule::BlockCount {
            blocks: b,
            size,
            transpose: s.transpose,
        });
    }
    if s.transpose {
        match size {
            DataSize::D32 if w > 16 || h > 32 => {
                return Err(Block2dRule::TransposeD32 {
                    width: w,
                    height: h,
                })
            }
            DataSize::D64 if w > 4 || h != 8 => {
                return Err(Block2dRule::TransposeD64 {
                    width: w,
                    height: h,
                })
            }
            DataSize::D32 | DataSize::D64 => {}
            _ => return Err(Block2dRule::TransposeSize { size }),
        }
    }
    if s.vnni {
        if !matches!(size, DataSize::D8 | DataSize::D16) {
            return Err(Block2dRule::VnniSize { size });
        }
        if !h.is_multiple_of(4 / e) {
            return Err(Block2dRule::VnniHeight { size, height: h });
        }
    }
    Ok(())
}

/// The block data size of an element of `bytes` bytes (1, 2, 4, 8).
pub fn data_size_of(bytes: u32) -> Option<DataSize> {
    Some(match bytes {
        1 => DataSize::D8,
        2 => DataSize::D16,
        4 => DataSize::D32,
        8 => DataSize::D64,
        _ => return None,
    })
}

/// The shape of a plain (one block, not transposed, no VNNI) block of `width` elements of
/// `elem_bytes` and `height` rows: typed widths in bytes. `None` if it does not encode.
pub fn plain_shape(
    form: Block2dForm,
    width: u32,
    height: u32,
    elem_bytes: u32,
) -> Option<BlockShape> {
    let (w, h) = match form {
        Block2dForm::Typed => (width * elem_bytes, height),
        Block2dForm::Untyped => (width, height),
    };
    let (w, h) = (u16::try_from(w).ok()?, u16::try_from(h).ok()?);
    let shape = match form {
        Block2dForm::Typed => BlockShape::plain(w, h),
        Block2dForm::Untyped => BlockShape::untyped(1, w, h, false, false),
    };
    shape.to_index().map(|_| shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::lsc::Sfid;

    fn table(name: &str) -> Block2dTable {
        Block2dTable::for_device(&Device::preset(name).unwrap())
    }

    fn ugm(op: Block2dOp, size: DataSize, shape: &str) -> Block2dMessage {
        Block2dMessage {
            op,
            sfid: Sfid::Ugm,
            size,
            shape: BlockShape::parse(shape).unwrap(),
            cache: CacheControl::DEFAULT,
        }
    }

    fn tgm(op: Block2dOp, shape: &str) -> Block2dMessage {
        Block2dMessage {
            op,
            sfid: Sfid::Tgm,
            size: DataSize::D8,
            shape: BlockShape::parse(shape).unwrap(),
            cache: CacheControl::DEFAULT,
        }
    }

    #[test]
    fn platforms() {
        let m = ugm(Block2dOp::Load, DataSize::D16, "16x8nn");
        for p in ["pvc", "lnl", "bmg"] {
            assert_eq!(table(p).check(&m), Ok(()), "{p}");
        }
        for p in ["dg2", "mtl", "tgl", "ivb"] {
            assert!(matches!(
                table(p).check(&m),
                Err(Block2dRule::UntypedUnavailable { .. })
            ));
        }
        let t = tgm(Block2dOp::Load, "8x8");
        assert_eq!(table("lnl").check(&t), Ok(()));
        let e = table("pvc").check(&t).unwrap_err();
        assert_eq!(
            e.to_string(),
            "docs/hardware/lsc-messages.md §13.8: typed block2d (lsc_*_block2d.tgm) needs Xe2 or later, pvc has none"
        );
    }

    #[test]
    fn typed_size_table_rows() {
        // docs/hardware/lsc-messages.md §8.1: width band -> (pitch, max rows).
        let t = table("bmg");
        let rows = [(1, 4, 64), (4, 4, 64), (5, 8, 32), (8, 8, 32), (9, 16, 16)];
        let more = [
            (16, 16, 16),
            (17, 32, 8),
            (32, 32, 8),
            (33, 64, 4),
            (64, 64, 4),
        ];
        for (w, pitch, max) in rows.into_iter().chain(more) {
            assert_eq!(typed_pitch(w), pitch, "{w}");
            let ok = tgm(Block2dOp::Store, &format!("{w}x{max}"));
            assert_eq!(t.check(&ok), Ok(()), "{w}x{max}");
            let bad = tgm(Block2dOp::Load, &format!("{w}x{}", max + 1));
            assert_eq!(
                t.check(&bad),
                Err(Block2dRule::TypedPayload {
                    width: w,
                    height: max + 1,
                    pitch
                })
            );
        }
        assert_eq!(
            t.check(&tgm(Block2dOp::Load, "65x1")),
            Err(Block2dRule::TypedWidth { width: 65 })
        );
        let mut m = tgm(Block2dOp::Load, "6x2");
        m.size = DataSize::D32;
        assert_eq!(
            t.check(&m),
            Err(Block2dRule::TypedWidthElements {
                width: 6,
                size: DataSize::D32
            })
        );
        m.shape = BlockShape::parse("16x8nn").unwrap();
        assert!(matches!(
            t.check(&m),
            Err(Block2dRule::ShapeForm { typed: true, .. })
        ));
        let mut c = tgm(Block2dOp::Load, "8x8");
        c.cache = CacheControl::parse("uc.uc").unwrap();
        assert!(matches!(t.check(&c), Err(Block2dRule::TypedCache { .. })));
    }

    #[test]
    fn untyped_rules() {
        use Block2dOp::{Load, Store};
        use DataSize::{D16, D32, D64, D8};
        let t = table("pvc");
        let ok = [
            (Load, D8, "2x16x32nn"),
            (Load, D8, "4x16x32nn"),
            (Load, D16, "2x16x32nn"),
            (Load, D16, "16x32nt"),
            (Load, D8, "4x16x4nt"),
            (Load, D32, "2x8x32nn"),
            (Load, D32, "16x32tn"),
            (Load, D64, "8x32nn"),
            (Load, D64, "4x8tn"),
            (Load, D8, "4x1nn"),
            (Store, D8, "256x32nn"),
            (Store, D32, "128x32nn"),
            (Store, D64, "64x1nn"),
            (Store, D16, "16x32nn"),
        ];
        for (op, size, s) in ok {
            assert_eq!(t.check(&ugm(op, size, s)), Ok(()), "{op:?} {size:?} {s}");
        }
        let bad: [(Block2dOp, DataSize, &str, &str); 19] = [
            (
                Load,
                D8,
                "4x32x1nn",
                "32 x 4 x 1 = 128 bytes, the limit is 64",
            ),
            (Load, D32, "17x1nn", "17 x 1 x 4 = 68 bytes"),
            (Store, D64, "65x1nn", "65 x 8 = 520 bytes, the limit is 512"),
            (Load, D8, "3x4nn", "at least 4 bytes, found 3 x 1 = 3 bytes"),
            (Load, D16, "1x4nn", "found 1 x 2 = 2 bytes"),
            (
                Load,
                D8,
                "16x33nn",
                "at most 32 rows (the height), found 33",
            ),
            (
                Load,
                D8,
                "3x8x2nn",
                "count of d8 block2d must be 1, 2 or 4, found 3",
            ),
            (
                Load,
                D32,
                "4x4x2nn",
                "count of d32 block2d must be 1 or 2, found 4",
            ),
            (
                Load,
                D64,
                "2x4x2nn",
                "count of d64 block2d must be 1, found 2",
            ),
            (
                Load,
                D32,
                "2x8x8tn",
                "count of d32 block2d must be 1 (transposed), found 2",
            ),
            (Store, D16, "2x16x8nn", "stores write one block, found 2"),
            (Store, D16, "16x8nt", "stores cannot VNNI-transform"),
            (Store, D32, "8x8tn", "stores cannot transpose"),
            (
                Load,
                D16,
                "8x8tn",
                "transposed block2d needs d32 or d64 data, found d16",
            ),
            (
                Load,
                D32,
                "8x33tn",
                "at most 16 wide and 32 high, found 8x33",
            ),
            (Load, D64, "4x16tn", "exactly 8 high, found 4x16"),
            (
                Load,
                D16,
                "16x8tt",
                "cannot transpose and VNNI-transform together",
            ),
            (
                Load,
                D32,
                "8x8nt",
                "VNNI packs d8 or d16 elements into dwords, found d32",
            ),
            (Load, D8, "16x6nt", "multiple of 4, found 6"),
        ];
        for (op, size, s, text) in bad {
            let e = t.check(&ugm(op, size, s)).unwrap_err().to_string();
            assert!(e.contains(text), "{op:?} {size:?} {s}: {e}");
            assert!(e.starts_with("docs/hardware/lsc-messages.md §"), "{e}");
        }
        // Transposed rows are the width.
        let e = t.check(&ugm(Load, D8, "64x1tn")).unwrap_err().to_string();
        assert!(e.contains("(the width, when transposed), found 64"), "{e}");
        // Widening sizes have no block form.
        let e = t.check(&ugm(Load, DataSize::D8U32, "16x8nn")).unwrap_err();
        assert_eq!(
            e,
            Block2dRule::DataSize {
                size: DataSize::D8U32
            }
        );
        // The plain form is typed.
        let mut m = ugm(Load, D8, "16x8nn");
        m.shape = BlockShape::plain(16, 8);
        assert!(matches!(
            t.check(&m),
            Err(Block2dRule::ShapeForm { typed: false, .. })
        ));
        // .slm has no blocks.
        m.sfid = Sfid::Slm;
        assert_eq!(t.check(&m), Err(Block2dRule::Sfid { sfid: Sfid::Slm }));
    }
}
