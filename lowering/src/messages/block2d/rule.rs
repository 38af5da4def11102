//! The rules a 2D block message can break ([`Block2dRule`]), each rendered as the
//! sentence that states it.

use ir::lsc::{BlockShape, CacheControl, DataSize, Sfid};
use std::fmt;

/// A block message (or block shape) that breaks a rule of docs/hardware/lsc-messages.md §8 / §13.8 / §13.9.
/// The text starts with the section that states the rule.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Block2dRule {
    /// Typed block2d before Xe2 (§13.8).
    TypedUnavailable {
        /// Platform name.
        platform: String,
    },
    /// Untyped block2d on a platform without it: DG2/MTL/ARL and everything older
    /// (§13.9).
    UntypedUnavailable {
        /// Platform name.
        platform: String,
    },
    /// Block messages exist only on `.ugm` and `.tgm` (§2).
    Sfid {
        /// The SFID used.
        sfid: Sfid,
    },
    /// A widening data size (d8u32, d16u32, d16u32h) on a block message (§3, §8).
    DataSize {
        /// The size.
        size: DataSize,
    },
    /// A typed shape with a block count or flags, or an untyped shape without them.
    ShapeForm {
        /// Whether the message is typed.
        typed: bool,
        /// The shape.
        shape: BlockShape,
    },
    /// A zero width or height.
    Empty {
        /// The shape.
        shape: BlockShape,
    },
    /// A typed width outside 1-64 bytes (§13.8).
    TypedWidth {
        /// Width in bytes.
        width: u32,
    },
    /// A typed block whose padded register pitch × height exceeds 256 bytes (§13.8).
    TypedPayload {
        /// Width in bytes.
        width: u32,
        /// Height in rows.
        height: u32,
        /// Register pitch, `max(4, next_pow2(width))`.
        pitch: u32,
    },
    /// A typed width that is not a whole number of the message's elements.
    TypedWidthElements {
        /// Width in bytes.
        width: u32,
        /// The element size.
        size: DataSize,
    },
    /// Non-default caching on a typed block message (§8.1).
    TypedCache {
        /// The controls.
        cache: CacheControl,
    },
    /// An untyped load whose row, `width × blocks × elem_bytes`, exceeds 64 bytes (§13.9).
    LoadWidth {
        /// Width in elements.
        width: u32,
        /// Blocks.
        blocks: u32,
        /// Element bytes.
        elem_bytes: u32,
    },
    /// An untyped store whose row, `width × elem_bytes`, exceeds 512 bytes (§8.2).
    StoreWidth {
        /// Width in elements.
        width: u32,
        /// Element bytes.
        elem_bytes: u32,
    },
    /// A row shorter than 4 bytes (§13.9).
    RowTooShort {
        /// Width in elements.
        width: u32,
        /// Element bytes.
        elem_bytes: u32,
    },
    /// More than 32 rows: the height, or the width when transposed (§13.9).
    TooManyRows {
        /// The rows.
        rows: u32,
        /// Whether the message is transposed (rows are then the width).
        transpose: bool,
    },
    /// A block count the element size does not allow (§13.9).
    BlockCount {
        /// Blocks.
        blocks: u32,
        /// Element size.
        size: DataSize,
        /// Whether transposed.
        transpose: bool,
    },
    /// A store of more than one block (§13.9).
    StoreBlocks {
        /// Blocks.
        blocks: u32,
    },
    /// A VNNI store (§13.9).
    StoreVnni,
    /// A transposed store (inferred; see the module documentation).
    StoreTranspose,
    /// A transposed d8 or d16 block (§13.9).
    TransposeSize {
        /// Element size.
        size: DataSize,
    },
    /// A transposed d32 block wider than 16 or taller than 32 (§8.2 translator).
    TransposeD32 {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// A transposed d64 block with a height other than 8 or wider than 4 (§13.9).
    TransposeD64 {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// Transpose and VNNI together (§13.9).
    TransposeVnni,
    /// VNNI with an element size other than d8/d16 (§8.2).
    VnniSize {
        /// Element size.
        size: DataSize,
    },
    /// VNNI with a height that is not a multiple of the rows packed per dword (§8.2).
    VnniHeight {
        /// Element size.
        size: DataSize,
        /// Height.
        height: u32,
    },
    /// The block width does not fit the IR's block encoding (256 elements).
    Encoding {
        /// Width in elements.
        width: u32,
    },
}

impl fmt::Display for Block2dRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Block2dRule as R;
        match self {
            R::TypedUnavailable { platform } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.8: typed block2d (lsc_*_block2d.tgm) needs Xe2 or later, {platform} has none"
            ),
            R::UntypedUnavailable { platform } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: untyped block2d (lsc_*_block2d.ugm) exists on PVC and Xe2+, not on {platform}"
            ),
            R::Sfid { sfid } => write!(
                f,
                "docs/hardware/lsc-messages.md §2: block2d messages exist on .ugm and .tgm only, found .{}",
                sfid.name()
            ),
            R::DataSize { size } => write!(
                f,
                "docs/hardware/lsc-messages.md §8: block2d data is d8, d16, d32 or d64, found {}",
                size.name()
            ),
            R::ShapeForm { typed: true, shape } => write!(
                f,
                "docs/hardware/lsc-messages.md §6: typed block2d shapes are WxH in bytes, without a block count or flags, found {shape}"
            ),
            R::ShapeForm { typed: false, shape } => write!(
                f,
                "docs/hardware/lsc-messages.md §6: untyped block2d shapes are [BLOCKSx]WxH with transpose and VNNI flags (`16x8nn`), found {shape}"
            ),
            R::Empty { shape } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.8: a block2d width and height are at least 1, found {}x{}",
                shape.width, shape.height
            ),
            R::TypedWidth { width } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.8: typed block2d widths are 1 to 64 bytes, found {width}"
            ),
            R::TypedPayload {
                width,
                height,
                pitch,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.8: a typed {width}-byte block has a register pitch of {pitch}, and pitch x height = {} exceeds 256 bytes (at most {} rows)",
                pitch * height,
                256 / pitch
            ),
            R::TypedWidthElements { width, size } => write!(
                f,
                "docs/hardware/lsc-messages.md §8.1: a typed block of {width} bytes does not hold whole {} elements",
                size.name()
            ),
            R::TypedCache { cache } => write!(
                f,
                "docs/hardware/lsc-messages.md §8.1: typed block2d uses default caching (.df.df), found .{cache}"
            ),
            R::LoadWidth {
                width,
                blocks,
                elem_bytes,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: an untyped block2d load row is width x blocks x elem_bytes = {width} x {blocks} x {elem_bytes} = {} bytes, the limit is 64",
                width * blocks * elem_bytes
            ),
            R::StoreWidth { width, elem_bytes } => write!(
                f,
                "docs/hardware/lsc-messages.md §8.2: an untyped block2d store row is width x elem_bytes = {width} x {elem_bytes} = {} bytes, the limit is 512",
                width * elem_bytes
            ),
            R::RowTooShort { width, elem_bytes } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: a block2d row must be at least 4 bytes, found {width} x {elem_bytes} = {} bytes",
                width * elem_bytes
            ),
            R::TooManyRows { rows, transpose } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: a block2d message has at most 32 rows ({}), found {rows}",
                if *transpose {
                    "the width, when transposed"
                } else {
                    "the height"
                }
            ),
            R::BlockCount {
                blocks,
                size,
                transpose,
            } => {
                let legal = if *transpose {
                    "1 (transposed)"
                } else {
                    match size {
                        DataSize::D8 | DataSize::D16 => "1, 2 or 4",
                        DataSize::D32 => "1 or 2",
                        _ => "1",
                    }
                };
                write!(
                    f,
                    "docs/hardware/lsc-messages.md §13.9: the block count of {} block2d must be {legal}, found {blocks}",
                    size.name()
                )
            }
            R::StoreBlocks { blocks } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: block2d stores write one block, found {blocks}"
            ),
            R::StoreVnni => write!(f, "docs/hardware/lsc-messages.md §13.9: block2d stores cannot VNNI-transform"),
            R::StoreTranspose => write!(
                f,
                "docs/hardware/lsc-messages.md §8.2: block2d stores cannot transpose (no level lists a transposed store; inferred)"
            ),
            R::TransposeSize { size } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: transposed block2d needs d32 or d64 data, found {}",
                size.name()
            ),
            R::TransposeD32 { width, height } => write!(
                f,
                "docs/hardware/lsc-messages.md §8.2: a transposed d32 block is at most 16 wide and 32 high, found {width}x{height}"
            ),
            R::TransposeD64 { width, height } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: a transposed d64 block is at most 4 wide and exactly 8 high, found {width}x{height}"
            ),
            R::TransposeVnni => write!(
                f,
                "docs/hardware/lsc-messages.md §13.9: block2d cannot transpose and VNNI-transform together"
            ),
            R::VnniSize { size } => write!(
                f,
                "docs/hardware/lsc-messages.md §8.2: VNNI packs d8 or d16 elements into dwords, found {}",
                size.name()
            ),
            R::VnniHeight { size, height } => {
                let rows = 4 / size.mem_bytes();
                write!(
                    f,
                    "docs/hardware/lsc-messages.md §8.2: VNNI packs {rows} rows of {} per dword, so the height must be a multiple of {rows}, found {height}",
                    size.name()
                )
            }
            R::Encoding { width } => write!(
                f,
                "the IR encodes block widths of 1 to 256 elements, found {width}"
            ),
        }
    }
}

impl std::error::Error for Block2dRule {}
