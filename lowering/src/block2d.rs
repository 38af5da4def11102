//! 2D block messages (`lsc_load_block2d` / `lsc_store_block2d`): the legality table per
//! platform, the register image a message reads or writes, and the splitting of a
//! rectangle into legal blocks.
//!
//! # Legality (lsc.md §8, §13.8, §13.9)
//!
//! [`Block2dTable::for_device`] builds the table of one platform; [`Block2dTable::check`]
//! checks one message against it and names the first rule broken ([`Block2dRule`], whose
//! text starts with the lsc.md item). Where lsc.md gives several levels (IGC's vISA
//! verifier, its send translator, the OpenCL builtins) the table takes, rule by rule,
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
//! The IR encodes block widths up to 256 elements ([`BlockShape`]), so d8 stores are
//! limited to 256 bytes a row by the encoding, below the hardware's 512.
//!
//! # Register images
//!
//! A block message reads or writes a register image (bytes). [`register_bytes`] and
//! [`register_offset`] give its size and where an element lands, following the
//! `LOAD_BLOCK2D` pseudo-code of `visa-lsc-untyped.md` with 64-byte GRFs (block2d exists
//! only on 64-byte-GRF platforms) for untyped messages, and `visa-lsc-typed.md` for typed
//! ones (rows of `width` bytes at a register pitch of `max(4, next_pow2(width))`, no
//! padding after the last row). Stores read the same layout as a non-transposed,
//! non-VNNI load of the same shape.
//!
//! # Splitting
//!
//! [`split_rect`] covers a rectangle of elements with legal blocks: the widest legal
//! blocks first (column strips, left to right), then the tallest legal heights (top to
//! bottom). With [`Packing::Simt`] every block's register image must also be a whole
//! number of SIMT components of the packed rectangle (see [`Packing`]), which is what an
//! image block access needs to hand the pieces to its lanes without shuffling bytes.

use crate::device::Device;
use crate::message::{expect_type, MessageRule};
use ir::lsc::{BlockShape, CacheControl, DataShape, DataSize, Sfid};
use ir::{Function, IndexKind, Inst, IntrinsicOp, Src, Type};
use std::fmt;

/// Bytes in a GRF on every platform with block2d messages (PVC, Xe2; lsc.md §1).
pub const GRF_BYTES: u32 = 64;

/// Whether a block message loads or stores.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Block2dOp {
    /// `lsc_load_block2d`.
    Load,
    /// `lsc_store_block2d`.
    Store,
}

impl Block2dOp {
    /// The vISA mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            Block2dOp::Load => "lsc_load_block2d",
            Block2dOp::Store => "lsc_store_block2d",
        }
    }
}

/// Typed (`.tgm`, surface from the surface state) or untyped (`.ugm`, surface in the
/// payload).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Block2dForm {
    /// `.tgm`: width in bytes, X in bytes, Y in rows (lsc.md §8.1).
    Typed,
    /// `.ugm`: width in elements, X in elements, Y in rows (lsc.md §8.2).
    Untyped,
}

impl Block2dForm {
    /// The form of a message on `sfid`, if block2d exists there.
    pub fn of_sfid(sfid: Sfid) -> Option<Block2dForm> {
        match sfid {
            Sfid::Tgm => Some(Block2dForm::Typed),
            Sfid::Ugm => Some(Block2dForm::Untyped),
            Sfid::Ugml | Sfid::Slm => None,
        }
    }

    /// The SFID of the form.
    pub fn sfid(self) -> Sfid {
        match self {
            Block2dForm::Typed => Sfid::Tgm,
            Block2dForm::Untyped => Sfid::Ugm,
        }
    }
}

/// The fields of one 2D block message.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Block2dMessage {
    /// Load or store.
    pub op: Block2dOp,
    /// `.tgm` or `.ugm` (other SFIDs are rejected by [`Block2dTable::check`]).
    pub sfid: Sfid,
    /// Element size.
    pub size: DataSize,
    /// The block shape: untyped `[B x] W x H` in elements with flags, typed `W x H`
    /// with the width in bytes.
    pub shape: BlockShape,
    /// Cache controls.
    pub cache: CacheControl,
}

impl Block2dMessage {
    /// The form, if the SFID has block messages.
    pub fn form(&self) -> Option<Block2dForm> {
        Block2dForm::of_sfid(self.sfid)
    }

    /// Decodes a block message intrinsic. `Ok(None)` if `inst` is not one; an error if
    /// one of its indices does not decode.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<Block2dMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        let op = match i.op {
            IntrinsicOp::LscLoadBlock2d => Block2dOp::Load,
            IntrinsicOp::LscStoreBlock2d => Block2dOp::Store,
            _ => return Ok(None),
        };
        let index = |kind: IndexKind| -> Result<u32, MessageRule> {
            i.index(kind)
                .ok_or(MessageRule::BadIndex { kind, value: None })
        };
        let bad = |kind: IndexKind, value: u32| MessageRule::BadIndex {
            kind,
            value: Some(value),
        };
        let v = index(IndexKind::LscSfid)?;
        let sfid = *Sfid::ALL
            .get(v as usize)
            .ok_or(bad(IndexKind::LscSfid, v))?;
        let v = index(IndexKind::LscData)?;
        let data = DataShape::from_index(v).ok_or(bad(IndexKind::LscData, v))?;
        // A block's data is one element size; the vector, transpose and channel mask of
        // `lsc_data` do not apply (transpose and VNNI are in `lsc_block`).
        if data.vect != 1 || data.transpose || data.cmask != 0 {
            return Err(bad(IndexKind::LscData, v));
        }
        let v = index(IndexKind::LscBlock)?;
        let shape = BlockShape::from_index(v).ok_or(bad(IndexKind::LscBlock, v))?;
        let v = index(IndexKind::LscCache)?;
        let cache = CacheControl::from_index(v).ok_or(bad(IndexKind::LscCache, v))?;
        Ok(Some(Block2dMessage {
            op,
            sfid,
            size: data.size,
            shape,
            cache,
        }))
    }

    /// Bytes of the message's register image (0 if the SFID has no block messages).
    pub fn register_bytes(&self) -> u32 {
        self.form()
            .map_or(0, |f| register_bytes(f, self.size, self.shape))
    }
}

/// The operands of a block message intrinsic.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block2dOperands {
    /// The payload in vISA order: untyped `base, width - 1, height - 1, pitch - 1, x, y`;
    /// typed `x, y`.
    pub payload: Vec<Src>,
    /// The stored data (stores).
    pub data: Option<Src>,
}

/// Splits the sources of a block message intrinsic and checks their count and types:
/// an untyped base is a 64-bit scalar, every other payload field a 32-bit scalar; the data
/// (or destination) has 8-, 16-, 32- or 64-bit components whose per-lane size divides the
/// register image into a power-of-two number of lanes up to 32 (the subgroup size, which
/// the validator checks against the shader's).
pub fn block2d_operands(
    func: &Function,
    inst: Inst,
    m: &Block2dMessage,
) -> Result<Block2dOperands, MessageRule> {
    let i = func
        .inst(inst)
        .as_intrinsic()
        .filter(|i| i.op.is_block2d())
        .ok_or(MessageRule::NotAMessage)?;
    let typed = m.sfid == Sfid::Tgm;
    let n_payload = if typed { 2 } else { 6 };
    let n_data = usize::from(m.op == Block2dOp::Store);
    let expected = n_payload + n_data;
    if i.srcs.len() != expected {
        return Err(MessageRule::OperandCount {
            expected,
            found: i.srcs.len(),
        });
    }
    let names: &[&'static str] = if typed {
        &["x", "y"]
    } else {
        &[
            "base",
            "width_minus_1",
            "height_minus_1",
            "pitch_minus_1",
            "x",
            "y",
        ]
    };
    for (k, (s, name)) in i.srcs.iter().zip(names).enumerate() {
        let base = !typed && k == 0;
        expect_type(func, name, *s, if base { Type::U64 } else { Type::U32 })?;
    }
    let data = (n_data == 1).then(|| i.srcs[n_payload]);
    let value = match (data, func.inst(inst).dest) {
        (Some(d), _) => Some(("data", func.src_type(d))),
        (None, Some(v)) => Some(("dest", func.value_type(v))),
        (None, None) => None,
    };
    if let Some((operand, t)) = value {
        let bytes = m.register_bytes();
        let per_lane = u32::from(t.num_components()) * u32::from(t.bit_size()) / 8;
        let lanes = if per_lane == 0 || t.bit_size() < 8 {
            0
        } else {
            bytes / per_lane
        };
        if lanes * per_lane != bytes || !lanes.is_power_of_two() || lanes > 32 {
            return Err(MessageRule::Block2dData {
                operand,
                found: t,
                register_bytes: bytes,
            });
        }
    }
    Ok(Block2dOperands {
        payload: i.srcs[..n_payload].to_vec(),
        data,
    })
}

/// A block message (or block shape) that breaks a rule of lsc.md §8 / §13.8 / §13.9. The
/// text starts with the section that states the rule.
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
                "lsc.md §13.8: typed block2d (lsc_*_block2d.tgm) needs Xe2 or later, {platform} has none"
            ),
            R::UntypedUnavailable { platform } => write!(
                f,
                "lsc.md §13.9: untyped block2d (lsc_*_block2d.ugm) exists on PVC and Xe2+, not on {platform}"
            ),
            R::Sfid { sfid } => write!(
                f,
                "lsc.md §2: block2d messages exist on .ugm and .tgm only, found .{}",
                sfid.name()
            ),
            R::DataSize { size } => write!(
                f,
                "lsc.md §8: block2d data is d8, d16, d32 or d64, found {}",
                size.name()
            ),
            R::ShapeForm { typed: true, shape } => write!(
                f,
                "lsc.md §6: typed block2d shapes are WxH in bytes, without a block count or flags, found {shape}"
            ),
            R::ShapeForm { typed: false, shape } => write!(
                f,
                "lsc.md §6: untyped block2d shapes are [BLOCKSx]WxH with transpose and VNNI flags (`16x8nn`), found {shape}"
            ),
            R::Empty { shape } => write!(
                f,
                "lsc.md §13.8: a block2d width and height are at least 1, found {}x{}",
                shape.width, shape.height
            ),
            R::TypedWidth { width } => write!(
                f,
                "lsc.md §13.8: typed block2d widths are 1 to 64 bytes, found {width}"
            ),
            R::TypedPayload {
                width,
                height,
                pitch,
            } => write!(
                f,
                "lsc.md §13.8: a typed {width}-byte block has a register pitch of {pitch}, and pitch x height = {} exceeds 256 bytes (at most {} rows)",
                pitch * height,
                256 / pitch
            ),
            R::TypedWidthElements { width, size } => write!(
                f,
                "lsc.md §8.1: a typed block of {width} bytes does not hold whole {} elements",
                size.name()
            ),
            R::TypedCache { cache } => write!(
                f,
                "lsc.md §8.1: typed block2d uses default caching (.df.df), found .{cache}"
            ),
            R::LoadWidth {
                width,
                blocks,
                elem_bytes,
            } => write!(
                f,
                "lsc.md §13.9: an untyped block2d load row is width x blocks x elem_bytes = {width} x {blocks} x {elem_bytes} = {} bytes, the limit is 64",
                width * blocks * elem_bytes
            ),
            R::StoreWidth { width, elem_bytes } => write!(
                f,
                "lsc.md §8.2: an untyped block2d store row is width x elem_bytes = {width} x {elem_bytes} = {} bytes, the limit is 512",
                width * elem_bytes
            ),
            R::RowTooShort { width, elem_bytes } => write!(
                f,
                "lsc.md §13.9: a block2d row must be at least 4 bytes, found {width} x {elem_bytes} = {} bytes",
                width * elem_bytes
            ),
            R::TooManyRows { rows, transpose } => write!(
                f,
                "lsc.md §13.9: a block2d message has at most 32 rows ({}), found {rows}",
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
                    "lsc.md §13.9: the block count of {} block2d must be {legal}, found {blocks}",
                    size.name()
                )
            }
            R::StoreBlocks { blocks } => write!(
                f,
                "lsc.md §13.9: block2d stores write one block, found {blocks}"
            ),
            R::StoreVnni => write!(f, "lsc.md §13.9: block2d stores cannot VNNI-transform"),
            R::StoreTranspose => write!(
                f,
                "lsc.md §8.2: block2d stores cannot transpose (no level lists a transposed store; inferred)"
            ),
            R::TransposeSize { size } => write!(
                f,
                "lsc.md §13.9: transposed block2d needs d32 or d64 data, found {}",
                size.name()
            ),
            R::TransposeD32 { width, height } => write!(
                f,
                "lsc.md §8.2: a transposed d32 block is at most 16 wide and 32 high, found {width}x{height}"
            ),
            R::TransposeD64 { width, height } => write!(
                f,
                "lsc.md §13.9: a transposed d64 block is at most 4 wide and exactly 8 high, found {width}x{height}"
            ),
            R::TransposeVnni => write!(
                f,
                "lsc.md §13.9: block2d cannot transpose and VNNI-transform together"
            ),
            R::VnniSize { size } => write!(
                f,
                "lsc.md §8.2: VNNI packs d8 or d16 elements into dwords, found {}",
                size.name()
            ),
            R::VnniHeight { size, height } => {
                let rows = 4 / size.mem_bytes();
                write!(
                    f,
                    "lsc.md §8.2: VNNI packs {rows} rows of {} per dword, so the height must be a multiple of {rows}, found {height}",
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

/// The largest typed block: 64 bytes wide (lsc.md §8.1).
pub const TYPED_MAX_WIDTH: u32 = 64;
/// The typed register budget: padded pitch × height ≤ 256 bytes (lsc.md §8.1).
pub const TYPED_MAX_REGISTER_BYTES: u32 = 256;
/// The widest untyped load row, `width × blocks × elem_bytes` (lsc.md §8.2).
pub const UNTYPED_MAX_LOAD_ROW: u32 = 64;
/// The widest untyped store row, `width × elem_bytes` (lsc.md §8.2).
pub const UNTYPED_MAX_STORE_ROW: u32 = 512;
/// The narrowest block row in bytes (lsc.md §8.2, §13.9).
pub const MIN_ROW_BYTES: u32 = 4;
/// Rows of an untyped block, ≤ Xe3 (lsc.md §8.2).
pub const UNTYPED_MAX_ROWS: u32 = 32;
/// The widest block the IR's [`BlockShape`] encodes, in elements.
pub const ENCODABLE_WIDTH: u32 = 256;

/// The typed register row pitch of a `width`-byte block: `max(4, next_pow2(width))`
/// (`visa-lsc-typed.md`, lsc.md §8.1).
pub fn typed_pitch(width: u32) -> u32 {
    width.next_power_of_two().max(4)
}

/// The block2d rules of one platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block2dTable {
    /// The platform name (for diagnostics).
    pub platform: String,
    /// Whether typed block2d exists (lsc.md §1: Xe2+).
    pub typed: bool,
    /// Whether untyped block2d exists (lsc.md §1: PVC, Xe2+).
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
                "lsc.md §13.9: rows of {row_bytes} bytes are narrower than the narrowest block2d row ({min_row_bytes} bytes)"
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
            "lsc.md §13.8: typed block2d (lsc_*_block2d.tgm) needs Xe2 or later, pvc has none"
        );
    }

    #[test]
    fn typed_size_table_rows() {
        // lsc.md §8.1: width band -> (pitch, max rows).
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
            assert!(e.starts_with("lsc.md §"), "{e}");
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
