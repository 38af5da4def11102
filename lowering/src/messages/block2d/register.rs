//! The register image of a 2D block message: its size and where each element lands.

use super::form::Block2dForm;
use ir::lsc::{BlockShape, DataSize};

/// Bytes in a GRF on every platform with block2d messages (PVC, Xe2; docs/hardware/lsc-messages.md §1).
pub const GRF_BYTES: u32 = 64;

/// The typed register row pitch of a `width`-byte block: `max(4, next_pow2(width))`
/// (`intel-graphics-compiler/documentation/visa/instructions/LSC_TYPED.md`, docs/hardware/lsc-messages.md
/// §8.1).
pub fn typed_pitch(width: u32) -> u32 {
    width.next_power_of_two().max(4)
}

/// The size in bytes of the register image of a block message (see the module
/// documentation): untyped `blocks × round_up(next_pow2(row) × rows, 64 / e)` elements
/// where a row is the width (the height when transposed); typed
/// `max(4, next_pow2(width)) × height` bytes.
pub fn register_bytes(form: Block2dForm, size: DataSize, shape: BlockShape) -> u32 {
    match form {
        Block2dForm::Typed => typed_pitch(u32::from(shape.width)) * u32::from(shape.height),
        // The same formula as the IR's (which the validator uses).
        Block2dForm::Untyped => shape.register_bytes(size.mem_bytes()),
    }
}

/// Untyped register row pitch and block pitch, in elements (the pseudo-code's
/// `grf_row_pitch` and `grf_block_pitch`).
fn untyped_pitches(size: DataSize, s: BlockShape) -> (u32, u32) {
    let e = size.mem_bytes();
    let (w, h) = (u32::from(s.width), u32::from(s.height));
    let row = if s.transpose { h } else { w };
    let row_pitch = row.next_power_of_two();
    let block = row_pitch * if s.transpose { w } else { h };
    let per_reg = GRF_BYTES / e;
    (row_pitch, block.div_ceil(per_reg) * per_reg)
}

/// Where element `(x, y)` of block `b` of a block message lands in its register image,
/// in bytes (`x` in elements, or bytes for typed messages; `y` in rows; both relative to
/// the block). `None` if the position is outside the block or the combination has no
/// layout (transposed VNNI, VNNI of d32/d64).
pub fn register_offset(
    form: Block2dForm,
    size: DataSize,
    shape: BlockShape,
    b: u32,
    x: u32,
    y: u32,
) -> Option<u32> {
    let (w, h) = (u32::from(shape.width), u32::from(shape.height));
    if x >= w || y >= h {
        return None;
    }
    if form == Block2dForm::Typed {
        return (b == 0).then(|| y * typed_pitch(w) + x);
    }
    if b >= u32::from(shape.blocks.max(1)) {
        return None;
    }
    let e = size.mem_bytes();
    let (rp, bp) = untyped_pitches(size, shape);
    let per_dword = 4 / e;
    let elem = b * bp
        + match (shape.transpose, shape.vnni) {
            (false, false) => y * rp + x,
            (false, true) if per_dword >= 1 && e < 4 => {
                (y - y % per_dword) * rp + x * per_dword + y % per_dword
            }
            (true, false) => x * rp + y,
            _ => return None,
        };
    Some(elem * e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_images_follow_the_pseudo_code() {
        let u = Block2dForm::Untyped;
        let s = |t: &str| BlockShape::parse(t).unwrap();
        // d16 2x16x8nn: rows of 16 elements (32 B), block of 256 B = 4 GRFs.
        assert_eq!(register_bytes(u, DataSize::D16, s("2x16x8nn")), 512);
        assert_eq!(
            register_offset(u, DataSize::D16, s("2x16x8nn"), 1, 3, 2),
            Some(256 + (2 * 16 + 3) * 2)
        );
        // d8 12x3nn: row pitch 16, 48 B padded to one GRF.
        assert_eq!(register_bytes(u, DataSize::D8, s("12x3nn")), 64);
        assert_eq!(
            register_offset(u, DataSize::D8, s("12x3nn"), 0, 11, 2),
            Some(43)
        );
        // d8 2x12x3nn: each block padded to a GRF.
        assert_eq!(register_bytes(u, DataSize::D8, s("2x12x3nn")), 128);
        assert_eq!(
            register_offset(u, DataSize::D8, s("2x12x3nn"), 1, 0, 1),
            Some(64 + 16)
        );
        // d32 8x5tn: register rows are columns of 5 (pitch 8), 8 of them: 64 elements.
        assert_eq!(register_bytes(u, DataSize::D32, s("8x5tn")), 256);
        assert_eq!(
            register_offset(u, DataSize::D32, s("8x5tn"), 0, 3, 4),
            Some((3 * 8 + 4) * 4)
        );
        // d16 VNNI 4x4nt: dword (y/2, x) holds rows y, y+1 of column x.
        assert_eq!(
            register_offset(u, DataSize::D16, s("4x4nt"), 0, 1, 3),
            Some((2 * 4 + 2 + 1) * 2)
        );
        // d8 VNNI 4x8nt: dword (y/4, x) holds rows y..y+4.
        assert_eq!(
            register_offset(u, DataSize::D8, s("4x8nt"), 0, 2, 6),
            Some(4 * 4 + 2 * 4 + 2)
        );
        assert_eq!(register_offset(u, DataSize::D32, s("4x4nt"), 0, 0, 0), None);
        // Typed: pitch max(4, next_pow2(w)), no padding after the last row.
        let t = Block2dForm::Typed;
        assert_eq!(register_bytes(t, DataSize::D8, BlockShape::plain(3, 5)), 20);
        assert_eq!(
            register_bytes(t, DataSize::D8, BlockShape::plain(24, 2)),
            64
        );
        assert_eq!(
            register_offset(t, DataSize::D8, BlockShape::plain(24, 2), 0, 23, 1),
            Some(32 + 23)
        );
    }
}
