//! Covering a rectangle of elements with legal 2D block messages ([`split_rect`]).

use super::form::{Block2dForm, Block2dOp};
use super::register::GRF_BYTES;
use super::rule::Block2dRule;
use super::table::{
    data_size_of, plain_shape, Block2dTable, ENCODABLE_WIDTH, MIN_ROW_BYTES, TYPED_MAX_WIDTH,
    UNTYPED_MAX_LOAD_ROW, UNTYPED_MAX_STORE_ROW,
};
use ir::lsc::BlockShape;
use std::fmt;

/// What the pieces of a split must be legal for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BlockAccess {
    /// Loads.
    Load,
    /// Stores.
    Store,
    /// A load and a store of the same shape (a copy through registers).
    Copy,
}

impl BlockAccess {
    fn ops(self) -> &'static [Block2dOp] {
        match self {
            BlockAccess::Load => &[Block2dOp::Load],
            BlockAccess::Store => &[Block2dOp::Store],
            BlockAccess::Copy => &[Block2dOp::Load, Block2dOp::Store],
        }
    }
}

/// A rectangle of elements to cover: `width` elements of `elem_bytes` bytes per row,
/// `height` rows, packed row-major without padding (row pitch `width × elem_bytes`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockRect {
    /// Elements per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Bytes per element: 1, 2, 4 or 8.
    pub elem_bytes: u32,
}

impl BlockRect {
    /// Bytes in one packed row.
    pub fn row_bytes(&self) -> u32 {
        self.width * self.elem_bytes
    }

    /// Bytes in the packed rectangle.
    pub fn bytes(&self) -> u32 {
        self.row_bytes() * self.height
    }
}

/// What a split's register images must satisfy besides legality.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Packing {
    /// Nothing: any legal block (async copies, which move data through registers in the
    /// message's own layout).
    Any,
    /// Every piece's register image is unpadded and made of whole chunks of
    /// `chunk_bytes` (one SIMT component of `subgroup_size × bit_size / 8` bytes), each
    /// of which is one chunk-aligned chunk of the packed rectangle, and it holds 1, 2,
    /// 4, 8 or 16 chunks (an IR component count). Widths and heights are then powers
    /// of two. An image block access hands each message component to one component of
    /// its result this way.
    Simt {
        /// Bytes per SIMT component (a power of two).
        chunk_bytes: u32,
    },
}

/// One block of a split: its position and size in the rectangle (elements and rows) and
/// the shape of its message (typed widths in bytes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockPiece {
    /// First element column.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// Elements per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The message shape.
    pub shape: BlockShape,
}

impl BlockPiece {
    /// For a piece with an unpadded register image, the offset in the packed rectangle of
    /// byte `reg_byte` of the piece's register image.
    pub fn packed_offset(&self, rect: &BlockRect, reg_byte: u32) -> u32 {
        let row = self.width * rect.elem_bytes;
        let (r, c) = (reg_byte / row, reg_byte % row);
        (self.y + r) * rect.row_bytes() + self.x * rect.elem_bytes + c
    }
}

/// Why a rectangle cannot be split into block messages.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SplitError {
    /// The platform has no block messages of the form.
    Unavailable(Block2dRule),
    /// An element size other than 1, 2, 4 or 8 bytes.
    ElemSize {
        /// The size.
        bytes: u32,
    },
    /// An empty rectangle.
    Empty,
    /// The rectangle is narrower than the narrowest legal block.
    TooNarrow {
        /// Row bytes of the rectangle.
        row_bytes: u32,
        /// The narrowest row the form takes.
        min_row_bytes: u32,
    },
    /// [`Packing::Simt`]: the chunk size is not a power of two.
    Chunk {
        /// The chunk size.
        chunk_bytes: u32,
    },
    /// [`Packing::Simt`]: rows are neither one legal unpadded block wide nor a whole
    /// number of chunks, so some chunk spans rows that no block holds together.
    RowChunks {
        /// Row bytes of the rectangle.
        row_bytes: u32,
        /// The chunk size.
        chunk_bytes: u32,
        /// The widest unpadded block row of the form.
        max_row_bytes: u32,
    },
    /// [`Packing::Simt`]: the rows left for a strip do not fill whole chunks (and, for
    /// untyped messages, whole 64-byte registers).
    Rows {
        /// Strip width in bytes.
        strip_bytes: u32,
        /// Rows left.
        rows: u32,
        /// The granule every piece must be a multiple of.
        granule: u32,
    },
    /// A piece the table rejects (a bug in the split, reported rather than emitted).
    Illegal(Block2dRule),
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::Unavailable(r) | SplitError::Illegal(r) => write!(f, "{r}"),
            SplitError::ElemSize { bytes } => write!(
                f,
                "block2d elements are 1, 2, 4 or 8 bytes, found {bytes}"
            ),
            SplitError::Empty => write!(f, "the block is empty"),
            SplitError::TooNarrow {
                row_bytes,
                min_row_bytes,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: rows of {row_bytes} bytes are narrower than the narrowest block2d row ({min_row_bytes} bytes)"
            ),
            SplitError::Chunk { chunk_bytes } => write!(
                f,
                "the SIMT component size {chunk_bytes} is not a power of two"
            ),
            SplitError::RowChunks {
                row_bytes,
                chunk_bytes,
                max_row_bytes,
            } => write!(
                f,
                "rows of {row_bytes} bytes are neither one unpadded block2d row (a power of two from 4 to {max_row_bytes} bytes) nor a whole number of {chunk_bytes}-byte SIMT components, so a component would span rows no block message holds together"
            ),
            SplitError::Rows {
                strip_bytes,
                rows,
                granule,
            } => write!(
                f,
                "{rows} rows of a {strip_bytes}-byte column are {} bytes, not a multiple of {granule} (whole SIMT components and unpadded registers), so they cannot be one block message's register image",
                strip_bytes * rows
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits `rect` into legal block messages of `form` on the platform of `table` for
/// `access`: column strips of the widest legal width from the left, each cut into blocks
/// of the tallest legal height from the top (see [`Packing`] for what `Simt` adds).
/// Pieces are returned strip by strip, top to bottom.
pub fn split_rect(
    table: &Block2dTable,
    form: Block2dForm,
    access: BlockAccess,
    rect: BlockRect,
    packing: Packing,
) -> Result<Vec<BlockPiece>, SplitError> {
    table
        .check_available(form)
        .map_err(SplitError::Unavailable)?;
    let e = rect.elem_bytes;
    let size = data_size_of(e).ok_or(SplitError::ElemSize { bytes: e })?;
    if rect.width == 0 || rect.height == 0 {
        return Err(SplitError::Empty);
    }
    let ops = access.ops();
    // The widest legal row, in elements, for every op of the access.
    let max_row_bytes = ops
        .iter()
        .map(|op| match (form, op) {
            (Block2dForm::Typed, _) => TYPED_MAX_WIDTH,
            (Block2dForm::Untyped, Block2dOp::Load) => UNTYPED_MAX_LOAD_ROW,
            (Block2dForm::Untyped, Block2dOp::Store) => {
                UNTYPED_MAX_STORE_ROW.min(ENCODABLE_WIDTH * e)
            }
        })
        .min()
        .unwrap_or(TYPED_MAX_WIDTH);
    let min_row_bytes = match form {
        Block2dForm::Typed => e,
        Block2dForm::Untyped => MIN_ROW_BYTES.div_ceil(e) * e,
    };
    let max_w = max_row_bytes / e;
    let min_w = min_row_bytes / e;
    if rect.width < min_w {
        return Err(SplitError::TooNarrow {
            row_bytes: rect.row_bytes(),
            min_row_bytes,
        });
    }
    let max_h = |w: u32| {
        ops.iter()
            .map(|&op| table.max_height(form, op, w, e))
            .min()
            .unwrap_or(0)
    };
    let mut pieces = Vec::new();
    match packing {
        Packing::Any => {
            let mut x = 0;
            while x < rect.width {
                let left = rect.width - x;
                let mut w = left.min(max_w);
                if left > w && left - w < min_w {
                    // Leave a legal last strip.
                    w = left - min_w;
                }
                let hmax = max_h(w);
                let mut y = 0;
                while y < rect.height {
                    let h = (rect.height - y).min(hmax);
                    pieces.push(piece(form, e, x, y, w, h)?);
                    y += h;
                }
                x += w;
            }
        }
        Packing::Simt { chunk_bytes } => {
            let c = chunk_bytes;
            if c == 0 || !c.is_power_of_two() {
                return Err(SplitError::Chunk { chunk_bytes: c });
            }
            // Unpadded rows are powers of two (the register pitch rounds up to one) of
            // at least 4 bytes (typed pitch minimum; untyped minimum row).
            let max_unpadded = prev_pow2(max_row_bytes);
            let p = rect.row_bytes();
            let full = p.is_power_of_two() && (4..=max_unpadded).contains(&p);
            let strips: Vec<u32> = if full {
                vec![p]
            } else {
                if !p.is_multiple_of(c) || c > max_unpadded {
                    return Err(SplitError::RowChunks {
                        row_bytes: p,
                        chunk_bytes: c,
                        max_row_bytes: max_unpadded,
                    });
                }
                let mut out = Vec::new();
                let mut left = p;
                while left > 0 {
                    let sw = prev_pow2(left.min(max_unpadded));
                    out.push(sw);
                    left -= sw;
                }
                out
            };
            // Untyped register images are padded to whole registers.
            let granule = match form {
                Block2dForm::Typed => c,
                Block2dForm::Untyped => c.max(GRF_BYTES),
            };
            let mut xb = 0;
            for sw in strips {
                let w = sw / e;
                let hmax = prev_pow2(max_h(w).min(16 * c / sw).max(1));
                let mut y = 0;
                while y < rect.height {
                    let h = prev_pow2((rect.height - y).min(hmax));
                    if !(sw * h).is_multiple_of(granule) {
                        return Err(SplitError::Rows {
                            strip_bytes: sw,
                            rows: rect.height - y,
                            granule,
                        });
                    }
                    pieces.push(piece(form, e, xb / e, y, w, h)?);
                    y += h;
                }
                xb += sw;
            }
        }
    }
    for p in &pieces {
        for &op in ops {
            table
                .check_shape(form, op, size, p.shape)
                .map_err(SplitError::Illegal)?;
        }
    }
    Ok(pieces)
}

fn piece(
    form: Block2dForm,
    e: u32,
    x: u32,
    y: u32,
    w: u32,
    h: u32,
) -> Result<BlockPiece, SplitError> {
    let shape = plain_shape(form, w, h, e)
        .ok_or(SplitError::Illegal(Block2dRule::Encoding { width: w }))?;
    Ok(BlockPiece {
        x,
        y,
        width: w,
        height: h,
        shape,
    })
}

/// The largest power of two ≤ `v` (`v` ≥ 1).
fn prev_pow2(v: u32) -> u32 {
    if v == 0 {
        0
    } else {
        1 << (31 - v.leading_zeros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    fn table(name: &str) -> Block2dTable {
        Block2dTable::for_device(&Device::preset(name).unwrap())
    }

    fn covers(rect: BlockRect, pieces: &[BlockPiece]) -> bool {
        let mut seen = vec![0u8; (rect.width * rect.height) as usize];
        for p in pieces {
            for y in p.y..p.y + p.height {
                for x in p.x..p.x + p.width {
                    if x >= rect.width || y >= rect.height {
                        return false;
                    }
                    seen[(y * rect.width + x) as usize] += 1;
                }
            }
        }
        seen.iter().all(|&n| n == 1)
    }

    #[test]
    fn split_any_widest_then_tallest() {
        let t = table("pvc");
        let rect = BlockRect {
            width: 70,
            height: 40,
            elem_bytes: 1,
        };
        let p = split_rect(
            &t,
            Block2dForm::Untyped,
            BlockAccess::Load,
            rect,
            Packing::Any,
        )
        .unwrap();
        assert!(covers(rect, &p));
        let dims: Vec<_> = p.iter().map(|p| (p.x, p.y, p.width, p.height)).collect();
        assert_eq!(
            dims,
            [
                (0, 0, 64, 32),
                (0, 32, 64, 8),
                (64, 0, 6, 32),
                (64, 32, 6, 8)
            ]
        );
        // A 2-element remainder would be too narrow: 62 + 4.
        let rect = BlockRect {
            width: 66,
            height: 1,
            elem_bytes: 1,
        };
        let p = split_rect(
            &t,
            Block2dForm::Untyped,
            BlockAccess::Load,
            rect,
            Packing::Any,
        )
        .unwrap();
        let widths: Vec<_> = p.iter().map(|p| p.width).collect();
        assert_eq!(widths, [62, 4]);
        // Stores take 512-byte rows (256 for d8 in the IR's encoding).
        let rect = BlockRect {
            width: 100,
            height: 33,
            elem_bytes: 4,
        };
        let p = split_rect(
            &t,
            Block2dForm::Untyped,
            BlockAccess::Store,
            rect,
            Packing::Any,
        )
        .unwrap();
        let dims: Vec<_> = p.iter().map(|p| (p.width, p.height)).collect();
        assert_eq!(dims, [(100, 32), (100, 1)]);
        // Typed on Xe2: 64-byte rows of 4 rows, heights per the pitch table.
        let rect = BlockRect {
            width: 20,
            height: 10,
            elem_bytes: 4,
        };
        let lnl = table("lnl");
        let p = split_rect(
            &lnl,
            Block2dForm::Typed,
            BlockAccess::Copy,
            rect,
            Packing::Any,
        )
        .unwrap();
        let dims: Vec<_> = p.iter().map(|p| (p.x, p.y, p.shape.to_string())).collect();
        assert_eq!(
            dims,
            [
                (0, 0, "64x4".to_string()),
                (0, 4, "64x4".into()),
                (0, 8, "64x2".into()),
                (16, 0, "16x10".into())
            ]
        );
        assert!(covers(rect, &p));
        // Too narrow for untyped, unavailable on DG2.
        let rect = BlockRect {
            width: 1,
            height: 1,
            elem_bytes: 2,
        };
        assert!(matches!(
            split_rect(
                &t,
                Block2dForm::Untyped,
                BlockAccess::Load,
                rect,
                Packing::Any
            ),
            Err(SplitError::TooNarrow { .. })
        ));
        assert!(matches!(
            split_rect(
                &table("dg2"),
                Block2dForm::Untyped,
                BlockAccess::Load,
                rect,
                Packing::Any
            ),
            Err(SplitError::Unavailable(_))
        ));
    }

    #[test]
    fn split_simt_maps_whole_components() {
        let t = table("pvc");
        let simt = Packing::Simt { chunk_bytes: 64 };
        // 32 x r32 (128-byte rows) x 16 rows: two 64-byte strips of 16 rows.
        let rect = BlockRect {
            width: 32,
            height: 16,
            elem_bytes: 4,
        };
        let p = split_rect(&t, Block2dForm::Untyped, BlockAccess::Load, rect, simt).unwrap();
        let dims: Vec<_> = p.iter().map(|p| (p.x, p.y, p.width, p.height)).collect();
        assert_eq!(dims, [(0, 0, 16, 16), (16, 0, 16, 16)]);
        assert_eq!(p[1].packed_offset(&rect, 64), 128 + 64);
        // 8 x r32 (32-byte rows) x 6 rows: 4 + 2 rows, each a whole GRF.
        let rect = BlockRect {
            width: 8,
            height: 6,
            elem_bytes: 4,
        };
        let p = split_rect(&t, Block2dForm::Untyped, BlockAccess::Load, rect, simt).unwrap();
        let dims: Vec<_> = p.iter().map(|p| (p.y, p.height)).collect();
        assert_eq!(dims, [(0, 4), (4, 2)]);
        // 24-byte rows: neither a power of two nor whole chunks.
        let rect = BlockRect {
            width: 6,
            height: 8,
            elem_bytes: 4,
        };
        assert!(matches!(
            split_rect(&t, Block2dForm::Untyped, BlockAccess::Load, rect, simt),
            Err(SplitError::RowChunks { .. })
        ));
        // 16-byte rows x 3 rows = 48 bytes: not a whole chunk.
        let rect = BlockRect {
            width: 4,
            height: 3,
            elem_bytes: 4,
        };
        assert!(matches!(
            split_rect(&t, Block2dForm::Untyped, BlockAccess::Load, rect, simt),
            Err(SplitError::Rows { .. })
        ));
        // Typed registers are not padded to GRFs: 32-byte chunks of 8 x r32 rows.
        let lnl = table("lnl");
        let rect = BlockRect {
            width: 8,
            height: 3,
            elem_bytes: 4,
        };
        let p = split_rect(
            &lnl,
            Block2dForm::Typed,
            BlockAccess::Load,
            rect,
            Packing::Simt { chunk_bytes: 32 },
        )
        .unwrap();
        let dims: Vec<_> = p.iter().map(|p| (p.y, p.shape.to_string())).collect();
        assert_eq!(dims, [(0, "32x2".to_string()), (2, "32x1".into())]);
        // At most 16 components per message.
        let rect = BlockRect {
            width: 16,
            height: 32,
            elem_bytes: 4,
        };
        let p = split_rect(&t, Block2dForm::Untyped, BlockAccess::Load, rect, simt).unwrap();
        assert!(p.iter().all(|p| p.height == 16));
    }
}
