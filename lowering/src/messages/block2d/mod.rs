//! 2D block messages (`lsc_load_block2d` / `lsc_store_block2d`): the legality table per
//! platform, the register image a message reads or writes, and the splitting of a
//! rectangle into legal blocks.
//!
//! # Legality (docs/hardware/lsc-messages.md §8, §13.8, §13.9)
//!
//! [`Block2dTable::for_device`] builds the table of one platform; [`Block2dTable::check`]
//! checks one message against it and names the first rule broken ([`Block2dRule`], whose
//! text starts with the docs/hardware/lsc-messages.md item). Where docs/hardware/lsc-messages.md gives several levels
//! (IGC's vISA verifier, its send translator, the OpenCL builtins) the table takes, rule by rule,
//! the strictest level that a compiler can rely on without losing a shape the translator
//! accepts, and never accepts what the translator rejects:
//!
//! | rule | table | source |
//! | --- | --- | --- |
//! | platform, typed | Xe2+ (`Device::typed_block2d`) | §1, §13.8 |
//! | platform, untyped | PVC, Xe2+ (`Device::untyped_block2d`), not DG2/MTL/ARL | §1, §13.9 |
//! | typed width | 1-64 bytes | §8.1 (IGC; the older table's "33-63" is §7.3's erratum) |
//! | typed height | ≥ 1, and `max(4, next_pow2(width)) × height ≤ 256` | §8.1 translator (the verifier's `width × height ≤ 256` is looser) |
//! | typed caching | `.df.df` | §8.1 ("default caching (IGC)") |
//! | untyped load row | `width × blocks × elem_bytes ≤ 64` | §8.2 verifier |
//! | untyped store row | `width × elem_bytes ≤ 512`, blocks 1, no VNNI | §8.2 verifier |
//! | untyped row | `width × elem_bytes ≥ 4` | §8.2 OpenCL level, §13.9 |
//! | untyped rows | height (width if transposed) ≤ 32 | §8.2 verifier, ≤ Xe3 |
//! | blocks | d8/d16 {1, 2, 4}, d32 {1, 2}, d64 1; transposed 1 | §8.2 verifier |
//! | transpose | not d8/d16; d32 `w ≤ 16, h ≤ 32`; d64 `w ≤ 4, h == 8` | §8.2 translator |
//! | VNNI | d8 or d16 only; height a multiple of 4 (d8) or 2 (d16) | §8.2 OpenCL level (`h ≥ 4` / `h ≥ 2` at power-of-two heights), and the `LOAD_BLOCK2D` pseudo-code, which packs `4 / elem_bytes` rows per dword (with d32/d64 it divides by zero) |
//! | transpose + VNNI | error | §8.2 OpenCL level, §13.9 |
//! | transposed store | error | inferred: no level of §8.2 lists a transposed store, and the store pseudo-code has no transpose |
//!
//! The data size of a block message is d8, d16, d32 or d64 (the widening sizes have no
//! block form). On `.tgm` the message itself has no data size (vISA prints `WxH` in
//! bytes); the IR's `lsc_data` there names the element the block is counted in, so the
//! width must hold whole elements of it.
//!
//! The IR encodes block widths up to 256 elements ([`BlockShape`](ir::lsc::BlockShape)), so d8 stores are
//! limited to 256 bytes a row by the encoding, below the hardware's 512.
//!
//! # Register images
//!
//! A block message reads or writes a register image (bytes). [`register_bytes`] and
//! [`register_offset`] give its size and where an element lands, following the
//! `LOAD_BLOCK2D` pseudo-code of
//! `intel-graphics-compiler/documentation/visa/instructions/LSC_UNTYPED.md` with 64-byte GRFs
//! (block2d exists only on 64-byte-GRF platforms) for untyped messages, and
//! `intel-graphics-compiler/documentation/visa/instructions/LSC_TYPED.md` for typed ones (rows of
//! `width` bytes at a register pitch of `max(4, next_pow2(width))`, no padding after the last row).
//! Stores read the same layout as a non-transposed, non-VNNI load of the same shape.
//!
//! # Splitting
//!
//! [`split_rect`] covers a rectangle of elements with legal blocks: the widest legal
//! blocks first (column strips, left to right), then the tallest legal heights (top to
//! bottom). With [`Packing::Simt`] every block's register image must also be a whole
//! number of SIMT components of the packed rectangle (see [`Packing`]), which is what an
//! image block access needs to hand the pieces to its lanes without shuffling bytes.

mod form;
mod message;
mod register;
mod rule;
mod split;
mod table;

pub use form::{Block2dForm, Block2dOp};
pub use message::{block2d_operands, Block2dMessage, Block2dOperands};
pub use register::{register_bytes, register_offset, typed_pitch, GRF_BYTES};
pub use rule::Block2dRule;
pub use split::{split_rect, BlockAccess, BlockPiece, BlockRect, Packing, SplitError};
pub use table::{
    data_size_of, plain_shape, Block2dTable, ENCODABLE_WIDTH, MIN_ROW_BYTES,
    TYPED_MAX_REGISTER_BYTES, TYPED_MAX_WIDTH, UNTYPED_MAX_LOAD_ROW, UNTYPED_MAX_ROWS,
    UNTYPED_MAX_STORE_ROW,
};
