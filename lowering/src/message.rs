//! Legality of Intel LSC and sampler messages, per platform.
//!
//! The IR's message intrinsics (`@lsc_load`, `@lsc_store`, `@lsc_load_strided`,
//! `@lsc_store_strided`, `@lsc_load_quad`, `@lsc_store_quad`, `@lsc_atomic`,
//! `@sampler_ld`, `@sampler_ld_lz`) can describe messages that no hardware accepts: their
//! indices are independent fields. This module decodes a message intrinsic into an
//! [`LscMessage`] (or a [`SamplerMessage`]) and checks it against the rules of
//! `shared/reference/lsc.md` §13, items 1-7, 10, 11 and 14, plus the operand rules of §5
//! (surface presence, address register sizes). The 2D block messages
//! (`@lsc_load_block2d`, `@lsc_store_block2d`) are checked against the block2d table of
//! [`crate::block2d`] (§13.8, §13.9). Every failure is a [`MessageError`] that
//! names the rule (section and text), the instruction and its source position.
//!
//! Platforms without LSC (verx10 < 125) are accepted here: the message intrinsics model
//! LSC semantics, which a pre-LSC backend maps onto legacy HDC messages. Whether a
//! message can be *printed* as vISA LSC text is the back end's business (the `visa`
//! crate), which rejects them.
//!
//! The same decoded message also yields the hardware send descriptor
//! ([`message_descriptor`], lsc.md §11, Mesa's `lsc_msg_desc` layout).

use crate::block2d::{block2d_operands, Block2dMessage, Block2dRule, Block2dTable};
use crate::device::{CacheControlField, Device};
use ir::lsc::{AddrSize, AddrType, CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp, Sfid};
use ir::{Function, IndexKind, Inst, IntrinsicOp, Span, Src, Type};
use std::fmt;

/// Whether `d` is Xe2 or later (lsc.md §1: 4-bit cache controls, TGM float add).
fn is_xe2(d: &Device) -> bool {
    d.verx10 >= 200
}

/// Whether `d` is Xe-HPC (Ponte Vecchio): an LSC part with 64-byte GRFs before Xe2
/// (lsc.md §1). It has SIMD16 typed messages and no 3D sampler.
pub fn is_xe_hpc(d: &Device) -> bool {
    d.has_lsc && !is_xe2(d) && d.grf_bytes == 64
}

/// The widest typed message the hardware takes (lsc.md §10 and §13.11): SIMD8 on
/// DG2/MTL/ARL, SIMD16 on PVC, SIMD32 on Xe2+.
pub fn typed_simd_max(d: &Device) -> u32 {
    if is_xe2(d) {
        32
    } else if is_xe_hpc(d) {
        16
    } else {
        8
    }
}

/// Whether the platform has a 3D sampler. IGC's `Platform.hpp` (`hasSamplerSupport`)
/// gives Xe-HPC none.
pub fn has_sampler(d: &Device) -> bool {
    !is_xe_hpc(d)
}

/// The SIMD width of sampler messages: the untyped width capped at 16, the widest the
/// vISA 3D_LOAD encoding lists (`visa-3d-load.md`, Exec_size).
pub fn sampler_simd(d: &Device) -> u32 {
    d.untyped_simd.min(16)
}

/// The operation of an LSC message (lsc.md §2).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LscOp {
    /// `lsc_load` (0x00).
    Load,
    /// `lsc_load_strided` (0x01).
    LoadStrided,
    /// `lsc_load_quad` (0x02, load with channel mask).
    LoadQuad,
    /// `lsc_store` (0x04).
    Store,
    /// `lsc_store_strided` (0x05).
    StoreStrided,
    /// `lsc_store_quad` (0x06, store with channel mask).
    StoreQuad,
    /// `lsc_atomic_*` (0x08..0x1A).
    Atomic(LscAtomicOp),
}

/// Which column of the cache-control table (lsc.md §9) an operation uses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum OpClass {
    /// Loads.
    Load,
    /// Stores.
    Store,
    /// Atomics.
    Atomic,
}

impl OpClass {
    fn name(self) -> &'static str {
        match self {
            OpClass::Load => "loads",
            OpClass::Store => "stores",
            OpClass::Atomic => "atomics",
        }
    }
}

impl LscOp {
    /// The operation of an LSC intrinsic, given its atomic sub-op for `@lsc_atomic`.
    pub fn from_intrinsic(op: IntrinsicOp, atomic: Option<LscAtomicOp>) -> Option<LscOp> {
        Some(match op {
            IntrinsicOp::LscLoad => LscOp::Load,
            IntrinsicOp::LscLoadStrided => LscOp::LoadStrided,
            IntrinsicOp::LscLoadQuad => LscOp::LoadQuad,
            IntrinsicOp::LscStore => LscOp::Store,
            IntrinsicOp::LscStoreStrided => LscOp::StoreStrided,
            IntrinsicOp::LscStoreQuad => LscOp::StoreQuad,
            IntrinsicOp::LscAtomic => LscOp::Atomic(atomic?),
            _ => return None,
        })
    }

    /// The hardware opcode, `desc[5:0]`.
    pub fn opcode(self) -> u32 {
        match self {
            LscOp::Load => 0x00,
            LscOp::LoadStrided => 0x01,
            LscOp::LoadQuad => 0x02,
            LscOp::Store => 0x04,
            LscOp::StoreStrided => 0x05,
            LscOp::StoreQuad => 0x06,
            LscOp::Atomic(a) => a.opcode(),
        }
    }

    /// The vISA mnemonic (`lsc_load_quad`, `lsc_atomic_iadd`).
    pub fn mnemonic(self) -> String {
        match self {
            LscOp::Load => "lsc_load".into(),
            LscOp::LoadStrided => "lsc_load_strided".into(),
            LscOp::LoadQuad => "lsc_load_quad".into(),
            LscOp::Store => "lsc_store".into(),
            LscOp::StoreStrided => "lsc_store_strided".into(),
            LscOp::StoreQuad => "lsc_store_quad".into(),
            LscOp::Atomic(a) => format!("lsc_atomic_{}", a.name()),
        }
    }

    /// The operation class.
    pub fn class(self) -> OpClass {
        match self {
            LscOp::Load | LscOp::LoadStrided | LscOp::LoadQuad => OpClass::Load,
            LscOp::Store | LscOp::StoreStrided | LscOp::StoreQuad => OpClass::Store,
            LscOp::Atomic(_) => OpClass::Atomic,
        }
    }

    /// Whether the data operand is shaped by a channel mask.
    pub fn is_quad(self) -> bool {
        matches!(self, LscOp::LoadQuad | LscOp::StoreQuad)
    }

    /// Whether the address is a base plus a pitch.
    pub fn is_strided(self) -> bool {
        matches!(self, LscOp::LoadStrided | LscOp::StoreStrided)
    }

    /// The SFIDs that implement the operation (lsc.md §2; IGC's parser rejects every
    /// `.tgm` load but `lsc_load_quad` and every `.tgm` store but `lsc_store_quad`, §6).
    fn sfid_allowed(self, sfid: Sfid) -> bool {
        match self {
            LscOp::Load | LscOp::Store => sfid != Sfid::Tgm,
            LscOp::LoadStrided | LscOp::StoreStrided => matches!(sfid, Sfid::Ugm | Sfid::Slm),
            LscOp::LoadQuad | LscOp::StoreQuad => sfid != Sfid::Ugml,
            LscOp::Atomic(_) => true,
        }
    }
}

impl fmt::Display for LscOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mnemonic())
    }
}

/// A decoded LSC message: the fields of one `@lsc_*` intrinsic.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LscMessage {
    /// Operation.
    pub op: LscOp,
    /// Shared function.
    pub sfid: Sfid,
    /// Address model.
    pub addr_type: AddrType,
    /// Address size.
    pub addr_size: AddrSize,
    /// Data shape.
    pub data: DataShape,
    /// L1/L3 cache controls.
    pub cache: CacheControl,
    /// Immediate byte offset added to every address.
    pub offset: i32,
}

impl LscMessage {
    /// Decodes an LSC intrinsic. `Ok(None)` if `inst` is not an LSC message intrinsic;
    /// an error if one of its indices does not decode.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<LscMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        if !i.op.is_lsc() {
            return Ok(None);
        }
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
        let v = index(IndexKind::LscAddr)?;
        let addr_type = *AddrType::ALL
            .get(v as usize)
            .ok_or(bad(IndexKind::LscAddr, v))?;
        let v = index(IndexKind::LscAddrSize)?;
        let addr_size = *AddrSize::ALL
            .get(v as usize)
            .ok_or(bad(IndexKind::LscAddrSize, v))?;
        let v = index(IndexKind::LscData)?;
        let data = DataShape::from_index(v).ok_or(bad(IndexKind::LscData, v))?;
        let v = index(IndexKind::LscCache)?;
        let cache = CacheControl::from_index(v).ok_or(bad(IndexKind::LscCache, v))?;
        let offset = index(IndexKind::LscOffset)? as i32;
        let atomic = if i.op == IntrinsicOp::LscAtomic {
            let v = index(IndexKind::LscOp)?;
            Some(LscAtomicOp::from_opcode(v).ok_or(bad(IndexKind::LscOp, v))?)
        } else {
            None
        };
        let op = LscOp::from_intrinsic(i.op, atomic).ok_or(MessageRule::BadIndex {
            kind: IndexKind::LscOp,
            value: None,
        })?;
        Ok(Some(LscMessage {
            op,
            sfid,
            addr_type,
            addr_size,
            data,
            cache,
            offset,
        }))
    }

    /// The execution size the message is emitted with on `p`: 1 when transposed, the
    /// typed SIMD width on TGM, the untyped width otherwise (lsc.md §6, §10).
    pub fn exec_size(&self, p: &Device) -> u32 {
        if self.data.transpose {
            1
        } else if self.sfid == Sfid::Tgm {
            p.typed_simd
        } else {
            p.untyped_simd
        }
    }

    /// Number of registers the data payload (destination or stored data, per data
    /// operand) occupies on `p`. Non-transposed data is channel-major, every component
    /// starting a new register (lsc.md §11, Mesa's `lsc_msg_dest_len` per component);
    /// transposed data is one packed block.
    pub fn data_grfs(&self, p: &Device) -> u32 {
        let bytes = u32::from(self.data.size.reg_bits() / 8).max(1);
        if self.data.transpose {
            div_ceil(u32::from(self.data.vect) * bytes, p.grf_bytes)
        } else {
            u32::from(self.data.components()) * div_ceil(self.exec_size(p) * bytes, p.grf_bytes)
        }
    }

    /// Number of registers the address payload occupies on `p`, given how many typed
    /// coordinates are sent (ignored for untyped messages).
    pub fn addr_grfs(&self, p: &Device, typed_coords: u32) -> u32 {
        // A strided message's address is one base and a pitch, one register (GenX_IR
        // encodes src0 length 1).
        if self.op.is_strided() {
            return 1;
        }
        if self.sfid == Sfid::Tgm {
            typed_coords * div_ceil(self.exec_size(p) * 4, p.grf_bytes)
        } else {
            let bytes = u32::from(self.addr_size.bits() / 8);
            div_ceil(self.exec_size(p) * bytes, p.grf_bytes)
        }
    }
}

fn div_ceil(a: u32, b: u32) -> u32 {
    a.div_ceil(b.max(1))
}

/// The sampler operation of a sampler message.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SamplerOp {
    /// `ld` (vISA `load_3d`): u, v, lod, r.
    Ld,
    /// `ld_lz` (vISA `load_lz`): u, v, r at LOD 0.
    LdLz,
}

/// A decoded sampler message (`@sampler_ld`, `@sampler_ld_lz`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SamplerMessage {
    /// Operation.
    pub op: SamplerOp,
    /// Returned channels, R in bit 0.
    pub channels: u8,
}

impl SamplerMessage {
    /// Decodes a sampler intrinsic; `Ok(None)` if `inst` is not one.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<SamplerMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        let op = match i.op {
            IntrinsicOp::SamplerLd => SamplerOp::Ld,
            IntrinsicOp::SamplerLdLz => SamplerOp::LdLz,
            _ => return Ok(None),
        };
        let channels = i.index(IndexKind::Channels).ok_or(MessageRule::BadIndex {
            kind: IndexKind::Channels,
            value: None,
        })?;
        if channels == 0 || channels > 0xf {
            return Err(MessageRule::BadIndex {
                kind: IndexKind::Channels,
                value: Some(channels),
            });
        }
        Ok(Some(SamplerMessage {
            op,
            channels: channels as u8,
        }))
    }
}

/// A broken message rule. The `Display` text starts with the section of
/// `shared/reference/lsc.md` that states the rule.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum MessageRule {
    /// An index of the intrinsic is missing or does not decode.
    BadIndex {
        /// Which index.
        kind: IndexKind,
        /// Its value, if present.
        value: Option<u32>,
    },
    /// The operation does not exist on the SFID (§2, §6).
    OpNotOnSfid {
        /// Operation.
        op: LscOp,
        /// SFID.
        sfid: Sfid,
    },
    /// `.tgm` with an address size other than a32 (§13.1).
    TgmAddrSize {
        /// The address size used.
        size: AddrSize,
    },
    /// `.tgm` with a flat address model (§13.1).
    TgmFlat,
    /// `.slm` with a stateful address model (§13.1).
    SlmNotFlat {
        /// The model used.
        addr_type: AddrType,
    },
    /// `:a64` on `.slm` (§5).
    SlmA64,
    /// `:a64` on a platform whose messages have no 64-bit flat addresses (before Gfx8;
    /// [`Device::has_a64`]).
    A64Unavailable,
    /// `:a16` anywhere but `.slm` (§13.1).
    A16NotSlm {
        /// The SFID used.
        sfid: Sfid,
    },
    /// `load_quad` with channel mask 0 or bits above 0xF (§13.2).
    QuadMask {
        /// Operation.
        op: LscOp,
        /// The mask.
        mask: u8,
    },
    /// `store_quad` with a non-contiguous channel mask (§13.2).
    StoreQuadMask {
        /// The mask.
        mask: u8,
    },
    /// A channel mask on an operation without one (§4).
    MaskOnVector {
        /// Operation.
        op: LscOp,
    },
    /// A vector size other than 1 on a quad operation (§4).
    VectorOnQuad {
        /// Operation.
        op: LscOp,
        /// Vector size.
        vect: u8,
    },
    /// A non-transposed vector > 1 with a data size other than d32/d64, or any vector
    /// of a widening size (§13.3).
    VectorDataSize {
        /// Data size.
        size: DataSize,
        /// Vector size.
        vect: u8,
    },
    /// A vector size the SFID does not take (§13.3).
    VectorSize {
        /// SFID.
        sfid: Sfid,
        /// Vector size.
        vect: u8,
        /// Whether the message is transposed.
        transpose: bool,
    },
    /// Transpose together with a channel mask (§13.4).
    TransposeQuad {
        /// Operation.
        op: LscOp,
    },
    /// A transposed atomic (§13.4).
    TransposeAtomic {
        /// Operation.
        op: LscOp,
    },
    /// An atomic data size other than d16u32, d32, d64 (§13.5).
    AtomicDataSize {
        /// Operation.
        op: LscOp,
        /// Data size.
        size: DataSize,
    },
    /// An atomic with a vector > 1 (§13.5).
    AtomicVector {
        /// Operation.
        op: LscOp,
        /// Vector size.
        vect: u8,
    },
    /// An atomic whose data operands do not match its operand count (§13.5).
    AtomicOperands {
        /// Operation.
        op: LscOp,
        /// Data operands it takes.
        expected: usize,
        /// Data operands present.
        found: usize,
    },
    /// `fadd`/`fsub` on `.tgm` before Xe2 (§13.6).
    TgmFloatAtomic {
        /// Operation.
        op: LscOp,
        /// Platform name.
        platform: String,
    },
    /// A 64-bit SLM atomic other than icas (§13.6).
    SlmD64Atomic {
        /// Operation.
        op: LscOp,
    },
    /// A non-default cache control where only `.df.df` is allowed (§13.7).
    CacheNotDefault {
        /// SFID.
        sfid: Sfid,
        /// The controls.
        cache: CacheControl,
        /// Platform name, when the restriction is per platform (TGM/UGML before Xe2).
        platform: Option<String>,
    },
    /// An atomic whose L1 control is not `.uc` (§13.7).
    AtomicL1 {
        /// The controls.
        cache: CacheControl,
    },
    /// A cache-control pair with no encoding for the class on the platform (§9, §13.7).
    CacheEncoding {
        /// The class.
        class: OpClass,
        /// The controls.
        cache: CacheControl,
        /// Platform name.
        platform: String,
        /// Whether the platform uses the 4-bit Xe2 field.
        xe2: bool,
    },
    /// A data payload above 8 registers (§13.10).
    DataPayload {
        /// Registers needed.
        grfs: u32,
        /// Platform name.
        platform: String,
        /// Execution size.
        exec_size: u32,
    },
    /// An address or data operand of 32 registers or more (§13.10).
    OperandLength {
        /// Which operand (`src0`, `src1`).
        operand: &'static str,
        /// Registers needed.
        grfs: u32,
    },
    /// A typed message wider than the platform takes (§13.11).
    TypedExecSize {
        /// The device's typed SIMD width.
        exec_size: u32,
        /// The platform maximum.
        max: u32,
        /// Platform name.
        platform: String,
    },
    /// A typed message with an immediate offset (§13.14).
    TypedOffset {
        /// The offset.
        offset: i32,
    },
    /// A typed message without a U coordinate (§13.14).
    TypedUMissing,
    /// An `:a16` immediate offset outside ±0x7FFF (§5).
    SlmOffsetRange {
        /// The offset.
        offset: i32,
    },
    /// A stateful address model with no image to supply the surface (§5).
    StatefulWithoutSurface {
        /// The model.
        addr_type: AddrType,
    },
    /// A flat message naming an image (§5).
    FlatWithSurface,
    /// An immediate binding-table index above 255 (§5).
    BtiRange {
        /// The highest binding-table index the message can reach.
        bti: u64,
    },
    /// An address register whose bit size does not match the address size (§5).
    AddressBits {
        /// Address size.
        size: AddrSize,
        /// Bit size of the address value.
        bits: u8,
    },
    /// The instruction has the wrong number of sources.
    OperandCount {
        /// Sources expected (not counting a predicate).
        expected: usize,
        /// Sources present.
        found: usize,
    },
    /// An operand's type does not match the message.
    OperandType {
        /// Which operand (`dest`, `data`, `src1`, `u`, `pitch`, `predicate`, ...).
        operand: &'static str,
        /// The type required.
        expected: Type,
        /// The type found.
        found: Type,
    },
    /// A sampler message on a platform without a sampler.
    NoSampler {
        /// Platform name.
        platform: String,
    },
    /// A sampler message without an image.
    SamplerWithoutImage,
    /// Message operands asked of an instruction that is not that kind of message.
    NotAMessage,
    /// A 2D block message that breaks a rule of the block2d table (lsc.md §8, §13.8,
    /// §13.9; [`crate::block2d`]).
    Block2d(Block2dRule),
    /// A typed block message without an image, or an untyped one with one (lsc.md §5:
    /// typed block2d is stateful, untyped block2d is flat with the surface in the payload).
    Block2dSurface {
        /// Whether the message is typed.
        typed: bool,
    },
    /// The data or destination of a block message does not spread its register image
    /// evenly over a subgroup (whole components per lane, 1 to 32 lanes).
    Block2dData {
        /// `data` or `dest`.
        operand: &'static str,
        /// Its type.
        found: Type,
        /// Bytes of the register image.
        register_bytes: u32,
    },
    /// An LSC encoding asked of a platform without LSC (verx10 < 125).
    NoLsc {
        /// Platform name.
        platform: String,
        /// Its verx10.
        verx10: u32,
    },
}

fn channel_mask_suffix(mask: u8) -> String {
    let mut s = String::from(".");
    for (i, c) in "xyzw".chars().enumerate() {
        if mask & (1 << i) != 0 {
            s.push(c);
        }
    }
    if mask & !0xf != 0 {
        s.push_str(&format!("(0x{mask:X})"));
    }
    s
}

impl fmt::Display for MessageRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MessageRule as R;
        match self {
            R::BadIndex { kind, value: None } => {
                write!(f, "the message has no `{}` index", kind.name())
            }
            R::BadIndex {
                kind,
                value: Some(v),
            } => write!(f, "`{}` index value {v} does not decode", kind.name()),
            R::OpNotOnSfid { op, sfid } => {
                let hint = match (op, sfid) {
                    (LscOp::Load, Sfid::Tgm) => " (typed loads are lsc_load_quad)",
                    (LscOp::Store, Sfid::Tgm) => " (typed stores are lsc_store_quad)",
                    _ => "",
                };
                write!(
                    f,
                    "lsc.md §2: {op} is not available on .{}{hint}",
                    sfid.name()
                )
            }
            R::TgmAddrSize { size } => write!(
                f,
                "lsc.md §13.1: .tgm messages take :a32 addresses, found :{}",
                size.name()
            ),
            R::TgmFlat => write!(
                f,
                "lsc.md §13.1: .tgm messages need a stateful surface (bti, bss, ss), found flat"
            ),
            R::SlmNotFlat { addr_type } => write!(
                f,
                "lsc.md §13.1: .slm messages take flat addresses only, found {}",
                addr_type.name()
            ),
            R::SlmA64 => write!(
                f,
                "lsc.md §5: .slm messages take :a16 or :a32 addresses, found :a64"
            ),
            R::A64Unavailable => write!(
                f,
                ":a64 addresses need 64-bit flat (A64) messages, which this platform (before Gfx8) does not have"
            ),
            R::A16NotSlm { sfid } => write!(
                f,
                "lsc.md §13.1: :a16 addresses are legal only on .slm, found .{}",
                sfid.name()
            ),
            R::QuadMask { op, mask } => write!(
                f,
                "lsc.md §13.2: {op} needs a non-zero channel mask within .xyzw, found 0x{mask:X}"
            ),
            R::StoreQuadMask { mask } => write!(
                f,
                "lsc.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found {}",
                channel_mask_suffix(*mask)
            ),
            R::MaskOnVector { op } => write!(
                f,
                "lsc.md §4: {op} takes a vector size, not a channel mask (only lsc_load_quad and lsc_store_quad have one)"
            ),
            R::VectorOnQuad { op, vect } => write!(
                f,
                "lsc.md §4: {op} is shaped by its channel mask and takes no vector size, found x{vect}"
            ),
            R::VectorDataSize { size, vect } => {
                if size.is_conversion() {
                    write!(
                        f,
                        "lsc.md §13.3: {} can never be a vector, found x{vect}",
                        size.name()
                    )
                } else {
                    write!(
                        f,
                        "lsc.md §13.3: non-transposed vector size x{vect} needs d32 or d64 data, found {}",
                        size.name()
                    )
                }
            }
            R::VectorSize {
                sfid,
                vect,
                transpose,
            } => {
                if !transpose && *vect >= 16 {
                    write!(
                        f,
                        "lsc.md §13.3: vector size x{vect} exists only transposed"
                    )
                } else {
                    let legal = if *sfid == Sfid::Ugml {
                        "{1, 2, 4}"
                    } else {
                        "{1, 2, 3, 4, 8}"
                    };
                    write!(
                        f,
                        "lsc.md §13.3: .{} vector sizes are {legal}, found x{vect}",
                        sfid.name()
                    )
                }
            }
            R::TransposeQuad { op } => write!(
                f,
                "lsc.md §13.4: {op} has a channel mask and cannot be transposed"
            ),
            R::TransposeAtomic { op } => {
                write!(f, "lsc.md §13.4: atomics cannot be transposed ({op})")
            }
            R::AtomicDataSize { op, size } => write!(
                f,
                "lsc.md §13.5: {op} takes d16u32, d32 or d64 data, found {}",
                size.name()
            ),
            R::AtomicVector { op, vect } => write!(
                f,
                "lsc.md §13.5: {op} takes one element per address, found x{vect}"
            ),
            R::AtomicOperands {
                op,
                expected,
                found,
            } => write!(
                f,
                "lsc.md §13.5: {op} takes {expected} data operand{} (the other sources are %null), found {found}",
                if *expected == 1 { "" } else { "s" }
            ),
            R::TgmFloatAtomic { op, platform } => write!(
                f,
                "lsc.md §13.6: {op} on .tgm needs Xe2 (verx10 200) or later, {platform} has none"
            ),
            R::SlmD64Atomic { op } => write!(
                f,
                "lsc.md §13.6: the only 64-bit .slm atomic is lsc_atomic_icas, found {op}"
            ),
            R::CacheNotDefault {
                sfid,
                cache,
                platform: None,
            } => write!(
                f,
                "lsc.md §13.7: .{} messages take only default caching (.df.df), found .{cache}",
                sfid.name()
            ),
            R::CacheNotDefault {
                sfid,
                cache,
                platform: Some(p),
            } => write!(
                f,
                "lsc.md §13.7: .{} messages take only default caching (.df.df) before Xe2, found .{cache} on {p}",
                sfid.name()
            ),
            R::AtomicL1 { cache } => write!(
                f,
                "lsc.md §13.7: atomics need L1 uncached (.uc) or default caching (.df.df), found .{cache}"
            ),
            R::CacheEncoding {
                class,
                cache,
                platform,
                xe2,
            } => write!(
                f,
                "lsc.md §13.7: .{cache} has no {} cache-control encoding for {} on {platform} (§9)",
                if *xe2 { "4-bit" } else { "3-bit" },
                class.name()
            ),
            R::DataPayload {
                grfs,
                platform,
                exec_size,
            } => write!(
                f,
                "lsc.md §13.10: the data payload takes {grfs} registers at SIMD{exec_size} on {platform}, the limit is 8"
            ),
            R::OperandLength { operand, grfs } => write!(
                f,
                "lsc.md §13.10: {operand} takes {grfs} registers, the limit is 31"
            ),
            R::TypedExecSize {
                exec_size,
                max,
                platform,
            } => write!(
                f,
                "lsc.md §13.11: typed messages on {platform} are at most SIMD{max}, the device asks for SIMD{exec_size}"
            ),
            R::TypedOffset { offset } => write!(
                f,
                "lsc.md §13.14: typed messages take no immediate offset, found {offset}"
            ),
            R::TypedUMissing => write!(
                f,
                "lsc.md §13.14: typed messages need a U coordinate (V, R and LOD may be null)"
            ),
            R::SlmOffsetRange { offset } => write!(
                f,
                "lsc.md §5: an :a16 immediate offset must fit in ±0x7FFF, found {offset}"
            ),
            R::StatefulWithoutSurface { addr_type } => write!(
                f,
                "lsc.md §5: the {} address model needs a surface, but the message names no image",
                addr_type.name()
            ),
            R::FlatWithSurface => write!(
                f,
                "lsc.md §5: flat messages take no surface, but the message names an image"
            ),
            R::BtiRange { bti } => write!(
                f,
                "lsc.md §5: binding-table indices are 8 bits, the message reaches {bti}"
            ),
            R::AddressBits { size, bits } => write!(
                f,
                "lsc.md §5: :{} addresses need a {}-bit address register, found {bits}-bit",
                size.name(),
                size.bits()
            ),
            R::OperandCount { expected, found } => write!(
                f,
                "the message takes {expected} sources (plus an optional 1-bit predicate), found {found}"
            ),
            R::OperandType {
                operand,
                expected,
                found,
            } => write!(
                f,
                "the {operand} operand must be {expected} for this message, found {found}"
            ),
            R::NoSampler { platform } => {
                write!(f, "{platform} has no 3D sampler (IGC Platform.hpp hasSamplerSupport)")
            }
            R::SamplerWithoutImage => write!(f, "sampler messages need an image"),
            R::NotAMessage => write!(f, "the instruction is not a message of that kind"),
            R::Block2d(r) => write!(f, "{r}"),
            R::Block2dSurface { typed: true } => write!(
                f,
                "lsc.md §5: typed block2d takes its surface from the surface state, but the message names no image"
            ),
            R::Block2dSurface { typed: false } => write!(
                f,
                "lsc.md §5: untyped block2d is flat (the surface is in the payload), but the message names an image"
            ),
            R::Block2dData {
                operand,
                found,
                register_bytes,
            } => write!(
                f,
                "lsc.md §8: the {operand} ({found}) does not spread the {register_bytes}-byte register image over a subgroup (whole components per lane, a power-of-two number of lanes up to 32)"
            ),
            R::NoLsc { platform, verx10 } => write!(
                f,
                "lsc.md §1: {platform} (verx10 {verx10}) has no LSC messages (DG2, verx10 125, is the first); its backend maps them onto legacy HDC messages"
            ),
        }
    }
}

/// A message that breaks a rule: which instruction, where, and which rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MessageError {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// How the instruction reads (`%12 = @lsc_load_quad`).
    pub what: String,
    /// The rule.
    pub rule: MessageRule,
}

impl MessageError {
    /// An error for `inst` of `func`.
    pub fn new(func: &Function, inst: Inst, rule: MessageRule) -> MessageError {
        MessageError {
            inst,
            span: func.inst_span(inst),
            what: describe_inst(func, inst),
            rule,
        }
    }
}

/// How an instruction is named in messages: `%12 = @lsc_load_quad`, `@lsc_store`.
pub fn describe_inst(func: &Function, inst: Inst) -> String {
    let data = func.inst(inst);
    let name = match data.as_intrinsic() {
        Some(i) => format!("@{}", i.op.name()),
        None => "instruction".to_string(),
    };
    match data.dest {
        Some(v) => format!("{v} = {name}"),
        None => name,
    }
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: `{}`: {}", self.span, self.what, self.rule)
    }
}

impl std::error::Error for MessageError {}

impl MessageError {
    /// The error as a diagnostic at the instruction's position, for rendering with a
    /// source snippet (`Diagnostic::render`).
    pub fn to_diagnostic(&self) -> ir::diag::Diagnostic {
        ir::diag::Diagnostic::error(self.span, format!("`{}`: {}", self.what, self.rule))
    }
}

/// The cache-control field value of `cache` for `class` on `p`: `desc[19:17]` before Xe2,
/// `desc[19:16]` on Xe2 (lsc.md §9). `None` when the pair does not encode.
pub fn cache_encoding(p: &Device, class: OpClass, cache: CacheControl) -> Option<u32> {
    use CacheOpt::*;
    let pair = (cache.l1, cache.l3);
    let base = match class {
        OpClass::Load => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Ca) => Some(2),
            (Ca, Uc) => Some(3),
            (Ca, Ca) => Some(4),
            (St, Uc) => Some(5),
            (St, Ca) => Some(6),
            (Ri, Ca) => Some(7),
            _ => None,
        },
        OpClass::Store => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Wb) => Some(2),
            (Wt, Uc) => Some(3),
            (Wt, Wb) => Some(4),
            (St, Uc) => Some(5),
            (St, Wb) => Some(6),
            (Wb, Wb) => Some(7),
            _ => None,
        },
        OpClass::Atomic => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Wb) => Some(2),
            _ => None,
        },
    };
    if p.cache_control != CacheControlField::Bits4 {
        return base;
    }
    // Xe2 doubles the older values and adds three load-only encodings; `.ri.ri` shares
    // the value of `.ri.ca`.
    base.map(|v| v << 1).or(match (class, pair) {
        (OpClass::Load, (Uc, Cc)) => Some(0x5),
        (OpClass::Load, (Ca, Cc)) => Some(0x9),
        (OpClass::Load, (Ri, Ri)) => Some(0xE),
        _ => None,
    })
}

/// Checks the fields of an LSC message against the platform rules (lsc.md §13 items
/// 1-7, 10, 11, 14 and §5), independent of its operands. The first broken rule is
/// returned.
pub fn check_lsc(p: &Device, m: &LscMessage) -> Result<(), MessageRule> {
    let op = m.op;
    let d = m.data;
    if !op.sfid_allowed(m.sfid) {
        return Err(MessageRule::OpNotOnSfid { op, sfid: m.sfid });
    }

    // §13.1 and §5: address models and sizes per SFID.
    match m.sfid {
        Sfid::Tgm => {
            if m.addr_size != AddrSize::A32 {
                return Err(MessageRule::TgmAddrSize { size: m.addr_size });
            }
            if m.addr_type == AddrType::Flat {
                return Err(MessageRule::TgmFlat);
            }
        }
        Sfid::Slm => {
            if m.addr_type != AddrType::Flat {
                return Err(MessageRule::SlmNotFlat {
                    addr_type: m.addr_type,
                });
            }
            if m.addr_size == AddrSize::A64 {
                return Err(MessageRule::SlmA64);
            }
        }
        Sfid::Ugm | Sfid::Ugml => {
            if m.addr_size == AddrSize::A64 && !p.has_a64 {
                return Err(MessageRule::A64Unavailable);
            }
            if m.addr_size == AddrSize::A16 {
                return Err(MessageRule::A16NotSlm { sfid: m.sfid });
            }
        }
    }

    // §13.2, §13.4, §4: channel masks.
    if op.is_quad() {
        if d.transpose {
            return Err(MessageRule::TransposeQuad { op });
        }
        if d.vect != 1 {
            return Err(MessageRule::VectorOnQuad { op, vect: d.vect });
        }
        if d.cmask == 0 || d.cmask > 0xf {
            return Err(MessageRule::QuadMask { op, mask: d.cmask });
        }
        if op == LscOp::StoreQuad && !matches!(d.cmask, 0x1 | 0x3 | 0x7 | 0xf) {
            return Err(MessageRule::StoreQuadMask { mask: d.cmask });
        }
    } else if d.cmask != 0 {
        return Err(MessageRule::MaskOnVector { op });
    }

    if let LscOp::Atomic(a) = op {
        // §13.4, §13.5, §13.6.
        if d.transpose {
            return Err(MessageRule::TransposeAtomic { op });
        }
        if !matches!(d.size, DataSize::D16U32 | DataSize::D32 | DataSize::D64) {
            return Err(MessageRule::AtomicDataSize { op, size: d.size });
        }
        if d.vect != 1 {
            return Err(MessageRule::AtomicVector { op, vect: d.vect });
        }
        if m.sfid == Sfid::Tgm && matches!(a, LscAtomicOp::Fadd | LscAtomicOp::Fsub) && !is_xe2(p) {
            return Err(MessageRule::TgmFloatAtomic {
                op,
                platform: p.name.clone(),
            });
        }
        if m.sfid == Sfid::Slm && d.size == DataSize::D64 && a != LscAtomicOp::Icas {
            return Err(MessageRule::SlmD64Atomic { op });
        }
    } else if !op.is_quad() {
        // §13.3: vector sizes.
        if d.vect > 1 {
            let narrow = !matches!(d.size, DataSize::D32 | DataSize::D64);
            if d.size.is_conversion() || (narrow && !d.transpose) {
                return Err(MessageRule::VectorDataSize {
                    size: d.size,
                    vect: d.vect,
                });
            }
        }
        let legal = if !DataShape::VECT_SIZES.contains(&d.vect) {
            false
        } else if d.transpose {
            true
        } else if m.sfid == Sfid::Ugml {
            matches!(d.vect, 1 | 2 | 4)
        } else {
            matches!(d.vect, 1 | 2 | 3 | 4 | 8)
        };
        if !legal {
            return Err(MessageRule::VectorSize {
                sfid: m.sfid,
                vect: d.vect,
                transpose: d.transpose,
            });
        }
    }

    // §13.14 and §5: immediate offsets.
    if m.sfid == Sfid::Tgm && m.offset != 0 {
        return Err(MessageRule::TypedOffset { offset: m.offset });
    }
    if m.addr_size == AddrSize::A16 && !(-0x7fff..=0x7fff).contains(&m.offset) {
        return Err(MessageRule::SlmOffsetRange { offset: m.offset });
    }

    // §13.7: cache controls.
    if !m.cache.is_default() {
        if m.sfid == Sfid::Slm {
            return Err(MessageRule::CacheNotDefault {
                sfid: m.sfid,
                cache: m.cache,
                platform: None,
            });
        }
        // IGC's verifier: TGM and UGML take only .df.df before Xe2; the device says
        // whether TGM takes more (`tgm_cache_control`), and UGML follows the same rule.
        if matches!(m.sfid, Sfid::Tgm | Sfid::Ugml) && !p.tgm_cache_control {
            return Err(MessageRule::CacheNotDefault {
                sfid: m.sfid,
                cache: m.cache,
                platform: Some(p.name.clone()),
            });
        }
        if op.class() == OpClass::Atomic && m.cache.l1 != CacheOpt::Uc {
            return Err(MessageRule::AtomicL1 { cache: m.cache });
        }
    }
    if cache_encoding(p, op.class(), m.cache).is_none() {
        return Err(MessageRule::CacheEncoding {
            class: op.class(),
            cache: m.cache,
            platform: p.name.clone(),
            xe2: p.cache_control == CacheControlField::Bits4,
        });
    }

    // The remaining limits are those of the LSC encoding. A pre-LSC backend maps the
    // message onto HDC messages with their own limits and splits as it needs.
    if !p.has_lsc {
        return Ok(());
    }

    // §13.11: the typed width the device asks for must exist.
    if m.sfid == Sfid::Tgm && p.typed_simd > typed_simd_max(p) {
        return Err(MessageRule::TypedExecSize {
            exec_size: p.typed_simd,
            max: typed_simd_max(p),
            platform: p.name.clone(),
        });
    }

    // §13.10: payload sizes.
    let data = m.data_grfs(p);
    if data > 8 {
        return Err(MessageRule::DataPayload {
            grfs: data,
            platform: p.name.clone(),
            exec_size: m.exec_size(p),
        });
    }
    let addr = m.addr_grfs(p, 4);
    if addr >= 32 {
        return Err(MessageRule::OperandLength {
            operand: "src0 (address)",
            grfs: addr,
        });
    }
    if let LscOp::Atomic(a) = op {
        let src1 = data * a.num_data_operands() as u32;
        if src1 >= 32 {
            return Err(MessageRule::OperandLength {
                operand: "src1 (atomic data)",
                grfs: src1,
            });
        }
    }
    Ok(())
}

/// The operands of an LSC message intrinsic, in vISA order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LscOperands {
    /// The address: one source for untyped messages, U, V, R, LOD for typed ones.
    pub addr: Vec<Src>,
    /// The pitch of strided messages.
    pub pitch: Option<Src>,
    /// The stored data of stores.
    pub data: Option<Src>,
    /// The data operands of atomics (src1, src2), as many as the sub-op takes.
    pub atomic: Vec<Src>,
    /// The 1-bit predicate, if any.
    pub predicate: Option<Src>,
}

/// Checks that operand `operand` (`src`) of a message has type `expected`.
pub(crate) fn expect_type(
    func: &Function,
    operand: &'static str,
    src: Src,
    expected: Type,
) -> Result<(), MessageRule> {
    let found = func.src_type(src);
    if found == expected {
        Ok(())
    } else {
        Err(MessageRule::OperandType {
            operand,
            expected,
            found,
        })
    }
}

/// Splits the sources of an LSC intrinsic into [`LscOperands`] and checks their count
/// and types against the message.
pub fn lsc_operands(
    func: &Function,
    inst: Inst,
    m: &LscMessage,
) -> Result<LscOperands, MessageRule> {
    let i = func
        .inst(inst)
        .as_intrinsic()
        .filter(|i| i.op.is_lsc())
        .ok_or(MessageRule::NotAMessage)?;
    let srcs = &i.srcs;
    let typed = m.sfid == Sfid::Tgm;
    let n_addr = if typed { 4 } else { 1 };
    let n_pitch = usize::from(m.op.is_strided());
    let n_data = usize::from(m.op.class() == OpClass::Store);
    let n_atomic = match m.op {
        LscOp::Atomic(a) => a.num_data_operands(),
        _ => 0,
    };
    let fixed = n_addr + n_pitch + n_data;
    let expected = fixed + n_atomic;
    let is_pred = |s: &Src| func.src_type(*s) == Type::BOOL;

    if typed && (srcs.is_empty() || is_undef(func, srcs[0])) {
        return Err(MessageRule::TypedUMissing);
    }
    let (body, predicate) = if srcs.len() == expected {
        (&srcs[..], None)
    } else if srcs.len() == expected + 1 && srcs.last().is_some_and(is_pred) {
        (&srcs[..expected], srcs.last().copied())
    } else if let LscOp::Atomic(_) = m.op {
        // Count the data operands as written: all sources after the address, minus a
        // trailing 1-bit predicate.
        let mut found = srcs.len().saturating_sub(fixed);
        if found > 0 && srcs.last().is_some_and(is_pred) && srcs.len() > fixed {
            found -= 1;
        }
        if srcs.len() < fixed {
            return Err(MessageRule::OperandCount {
                expected,
                found: srcs.len(),
            });
        }
        return Err(MessageRule::AtomicOperands {
            op: m.op,
            expected: n_atomic,
            found,
        });
    } else {
        return Err(MessageRule::OperandCount {
            expected,
            found: srcs.len(),
        });
    };

    let addr: Vec<Src> = body[..n_addr].to_vec();
    let pitch = (n_pitch == 1).then(|| body[n_addr]);
    let data = (n_data == 1).then(|| body[n_addr + n_pitch]);
    let atomic: Vec<Src> = body[fixed..].to_vec();

    // Address registers (§5): a64 in Q/UQ, a32 in D/UD; typed coordinates are 32-bit.
    if typed {
        for (s, name) in addr.iter().zip(["u", "v", "r", "lod"]) {
            expect_type(func, name, *s, Type::U32)?;
        }
    } else {
        let t = func.src_type(addr[0]);
        if t.num_components() != 1 || t.bit_size() != m.addr_size.bits() {
            if t.num_components() == 1 {
                return Err(MessageRule::AddressBits {
                    size: m.addr_size,
                    bits: t.bit_size(),
                });
            }
            let expected = Type::scalar(m.addr_size.bits()).expect("address sizes are legal");
            return Err(MessageRule::OperandType {
                operand: "address",
                expected,
                found: t,
            });
        }
    }
    if let Some(p) = pitch {
        expect_type(func, "pitch", p, Type::U32)?;
    }
    let bits = m.data.size.reg_bits();
    let comps = m.data.components();
    if let Some(d) = data {
        let found = func.src_type(d);
        match Type::new(bits, comps) {
            Some(t) => expect_type(func, "data", d, t)?,
            None => {
                return Err(MessageRule::OperandType {
                    operand: "data",
                    expected: found,
                    found,
                })
            }
        }
    }
    if let Some(dest) = func.inst(inst).dest {
        let found = func.value_type(dest);
        if Type::new(bits, comps) != Some(found) {
            return Err(MessageRule::OperandType {
                operand: "dest",
                expected: Type::new(bits, comps).unwrap_or(found),
                found,
            });
        }
    }
    let scalar = Type::scalar(bits).expect("data sizes have legal bit sizes");
    for (s, name) in atomic.iter().zip(["src1", "src2"]) {
        expect_type(func, name, *s, scalar)?;
    }
    Ok(LscOperands {
        addr,
        pitch,
        data,
        atomic,
        predicate,
    })
}

/// The operands of a sampler message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SamplerOperands {
    /// The parameters in vISA order: u, v, lod, r for `ld`; u, v, r for `ld_lz`.
    pub params: Vec<Src>,
    /// The 1-bit predicate, if any.
    pub predicate: Option<Src>,
}

/// Splits and checks the sources of a sampler intrinsic.
pub fn sampler_operands(
    func: &Function,
    inst: Inst,
    m: &SamplerMessage,
) -> Result<SamplerOperands, MessageRule> {
    let data = func.inst(inst);
    let i = data
        .as_intrinsic()
        .filter(|i| matches!(i.op, IntrinsicOp::SamplerLd | IntrinsicOp::SamplerLdLz))
        .ok_or(MessageRule::NotAMessage)?;
    if i.image.is_none() {
        return Err(MessageRule::SamplerWithoutImage);
    }
    let expected = match m.op {
        SamplerOp::Ld => 4,
        SamplerOp::LdLz => 3,
    };
    let srcs = &i.srcs;
    let predicate = if srcs.len() == expected + 1 && func.src_type(srcs[expected]) == Type::BOOL {
        Some(srcs[expected])
    } else if srcs.len() == expected {
        None
    } else {
        return Err(MessageRule::OperandCount {
            expected,
            found: srcs.len(),
        });
    };
    let names: &[&'static str] = match m.op {
        SamplerOp::Ld => &["u", "v", "lod", "r"],
        SamplerOp::LdLz => &["u", "v", "r"],
    };
    for (s, name) in srcs.iter().zip(names) {
        expect_type(func, name, *s, Type::U32)?;
    }
    if let Some(dest) = data.dest {
        let found = func.value_type(dest);
        let comps = m.channels.count_ones() as u8;
        if found.num_components() != comps || !matches!(found.bit_size(), 16 | 32) {
            return Err(MessageRule::OperandType {
                operand: "dest",
                expected: Type::new(32, comps).unwrap_or(found),
                found,
            });
        }
    }
    Ok(SamplerOperands {
        params: srcs[..expected].to_vec(),
        predicate,
    })
}

fn is_undef(func: &Function, src: Src) -> bool {
    func.value_def(src.value)
        .is_some_and(|d| matches!(func.inst(d).kind, ir::InstKind::Undef))
}

/// Checks the surface operand of an LSC message: stateful models need an image, flat
/// ones take none, and a binding-table index fits in 8 bits (lsc.md §5).
fn check_surface(
    surface: SurfaceInfo,
    func: &Function,
    inst: Inst,
    m: &LscMessage,
) -> Result<(), MessageRule> {
    let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
    match (m.addr_type, image) {
        (AddrType::Flat, Some(_)) => Err(MessageRule::FlatWithSurface),
        (AddrType::Flat, None) => Ok(()),
        (t, None) => Err(MessageRule::StatefulWithoutSurface { addr_type: t }),
        (AddrType::Bti, Some(_)) => match surface.max_bti {
            Some(b) if b > 255 => Err(MessageRule::BtiRange { bti: b }),
            _ => Ok(()),
        },
        (_, Some(_)) => Ok(()),
    }
}

/// The facts about the image of a message that legality needs, taken from the shader's
/// declaration: the highest binding-table index the message can reach.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct SurfaceInfo {
    /// `binding + count - 1` for an image array, `binding` otherwise; `None` if unknown.
    pub max_bti: Option<u64>,
}

impl SurfaceInfo {
    /// The surface facts of `inst`'s image in `shader`'s declarations.
    pub fn of(images: &[ir::ImageDecl], func: &Function, inst: Inst) -> SurfaceInfo {
        let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
        let max_bti = image.and_then(|r| {
            let d = images.get(r.image.index())?;
            let extra = match (r.index, d.count) {
                (Some(_), Some(n)) => u64::from(n.saturating_sub(1)),
                _ => 0,
            };
            Some(u64::from(d.binding) + extra)
        });
        SurfaceInfo { max_bti }
    }
}

/// Checks one message intrinsic of `func` on platform `p`: its fields (see
/// [`check_lsc`]), its surface and its operands. Instructions that are not message
/// intrinsics pass. `images` are the shader's image declarations (for binding-table
/// ranges).
pub fn check_message(
    p: &Device,
    images: &[ir::ImageDecl],
    func: &Function,
    inst: Inst,
) -> Result<(), MessageError> {
    let err = |rule| MessageError::new(func, inst, rule);
    if let Some(m) = Block2dMessage::decode(func, inst).map_err(err)? {
        Block2dTable::for_device(p)
            .check(&m)
            .map_err(|r| err(MessageRule::Block2d(r)))?;
        let typed = m.sfid == Sfid::Tgm;
        let has_image = func
            .inst(inst)
            .as_intrinsic()
            .is_some_and(|i| i.image.is_some());
        if has_image != typed {
            return Err(err(MessageRule::Block2dSurface { typed }));
        }
        if typed {
            let surface = SurfaceInfo::of(images, func, inst);
            if let Some(b) = surface.max_bti.filter(|b| *b > 255) {
                return Err(err(MessageRule::BtiRange { bti: b }));
            }
        }
        block2d_operands(func, inst, &m).map_err(err)?;
        return Ok(());
    }
    if let Some(m) = LscMessage::decode(func, inst).map_err(err)? {
        check_lsc(p, &m).map_err(err)?;
        let surface = SurfaceInfo::of(images, func, inst);
        check_surface(surface, func, inst, &m).map_err(err)?;
        lsc_operands(func, inst, &m).map_err(err)?;
        return Ok(());
    }
    if let Some(m) = SamplerMessage::decode(func, inst).map_err(err)? {
        if !has_sampler(p) {
            return Err(err(MessageRule::NoSampler {
                platform: p.name.clone(),
            }));
        }
        sampler_operands(func, inst, &m).map_err(err)?;
    }
    Ok(())
}

/// Checks every message of `func`, in program order; returns every error.
pub fn check_function(
    p: &Device,
    images: &[ir::ImageDecl],
    func: &Function,
) -> Result<(), Vec<MessageError>> {
    let errors: Vec<MessageError> = func
        .insts_in_order()
        .into_iter()
        .filter_map(|i| check_message(p, images, func, i).err())
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The hardware send descriptor of an LSC message (lsc.md §11; Mesa's `lsc_msg_desc`
/// plus the register lengths of `brw_message_desc`):
///
/// | bits | field |
/// | --- | --- |
/// | 5:0 | opcode |
/// | 8:7 | address size (1 a16, 2 a32, 3 a64) |
/// | 11:9 | data size (0 d8 ... 6 d16u32h) |
/// | 14:12 | vector size code, or 15:12 channel mask for quad ops |
/// | 15 | transpose |
/// | 19:17 / 19:16 | cache control, before / from Xe2 |
/// | 24:20 | destination length (0 without a destination) |
/// | 28:25 | src0 (address) length |
/// | 30:29 | address type (0 flat, 1 bss, 2 ss, 3 bti) |
///
/// `has_dest` says whether the message writes back (loads and atomics with a
/// destination), `typed_coords` how many typed coordinates are sent (1 to 4; ignored for
/// untyped messages). The message must pass [`check_lsc`].
pub fn message_descriptor(
    p: &Device,
    m: &LscMessage,
    has_dest: bool,
    typed_coords: u32,
) -> Result<u32, MessageRule> {
    if !p.has_lsc {
        return Err(MessageRule::NoLsc {
            platform: p.name.clone(),
            verx10: p.verx10,
        });
    }
    check_lsc(p, m)?;
    let cache = cache_encoding(p, m.op.class(), m.cache).expect("checked by check_lsc");
    let addr_size = match m.addr_size {
        AddrSize::A16 => 1,
        AddrSize::A32 => 2,
        AddrSize::A64 => 3,
    };
    let data_size = match m.data.size {
        DataSize::D8 => 0,
        DataSize::D16 => 1,
        DataSize::D32 => 2,
        DataSize::D64 => 3,
        DataSize::D8U32 => 4,
        DataSize::D16U32 => 5,
        DataSize::D16U32H => 6,
    };
    let addr_type = match m.addr_type {
        AddrType::Flat => 0,
        AddrType::Bss => 1,
        AddrType::Ss => 2,
        AddrType::Bti => 3,
    };
    let shape = if m.op.is_quad() {
        u32::from(m.data.cmask) & 0xf
    } else {
        DataShape::VECT_SIZES
            .iter()
            .position(|v| *v == m.data.vect)
            .expect("legal vector size") as u32
    };
    let dst_len = if has_dest { m.data_grfs(p) } else { 0 };
    let src0_len = m.addr_grfs(p, typed_coords.clamp(1, 4));
    let mut desc = m.op.opcode()
        | addr_size << 7
        | data_size << 9
        | shape << 12
        | u32::from(m.data.transpose) << 15
        | dst_len << 20
        | src0_len << 25
        | addr_type << 29;
    desc |= if p.cache_control == CacheControlField::Bits4 {
        cache << 16
    } else {
        cache << 17
    };
    Ok(desc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::lsc::CacheControl;

    fn msg(sfid: Sfid, data: &str, size: AddrSize) -> LscMessage {
        LscMessage {
            op: LscOp::Load,
            sfid,
            addr_type: AddrType::Flat,
            addr_size: size,
            data: DataShape::parse(data).unwrap(),
            cache: CacheControl::DEFAULT,
            offset: 0,
        }
    }

    #[test]
    fn payload_lengths() {
        let dg2 = Device::preset("dg2").unwrap();
        let lnl = Device::preset("lnl").unwrap();
        // SIMD16 × 4 bytes = 64 bytes: 2 registers of 32, 1 of 64 (at SIMD32 on LNL: 2).
        let m = msg(Sfid::Ugm, "d32x3", AddrSize::A64);
        assert_eq!(m.data_grfs(&dg2), 6);
        assert_eq!(m.addr_grfs(&dg2, 1), 4);
        assert_eq!(m.data_grfs(&lnl), 6);
        assert_eq!(m.addr_grfs(&lnl, 1), 4);
        // d16 SIMT: 2 bytes per lane; d8u32 widens to 4.
        assert_eq!(msg(Sfid::Ugm, "d16", AddrSize::A32).data_grfs(&dg2), 1);
        assert_eq!(msg(Sfid::Ugm, "d8u32", AddrSize::A32).data_grfs(&dg2), 2);
        // Transposed blocks are packed: 64 × 8 bytes.
        assert_eq!(msg(Sfid::Ugm, "d64x64t", AddrSize::A64).data_grfs(&dg2), 16);
        assert_eq!(
            msg(Sfid::Ugm, "d64x64t", AddrSize::A64).addr_grfs(&dg2, 1),
            1
        );
        // Typed: one register run per coordinate.
        let t = msg(Sfid::Tgm, "d32.xyz", AddrSize::A32);
        assert_eq!(t.exec_size(&dg2), 8);
        assert_eq!(t.data_grfs(&dg2), 3);
        assert_eq!(t.addr_grfs(&dg2, 3), 3);
        assert_eq!(t.exec_size(&lnl), 32);
        assert_eq!(t.addr_grfs(&lnl, 2), 4);
    }

    #[test]
    fn platform_classes() {
        let names = |f: fn(&Device) -> bool| -> Vec<String> {
            Device::presets()
                .into_iter()
                .filter(f)
                .map(|d| d.name)
                .collect()
        };
        assert_eq!(names(is_xe_hpc), ["pvc"]);
        assert_eq!(names(|d| !has_sampler(d)), ["pvc"]);
        let max: Vec<u32> = ["dg2", "mtl", "pvc", "lnl", "bmg"]
            .iter()
            .map(|n| typed_simd_max(&Device::preset(n).unwrap()))
            .collect();
        assert_eq!(max, [8, 8, 16, 32, 32]);
    }

    #[test]
    fn operands_of_non_messages() {
        let mut f = Function::new("main");
        let mut b = ir::Builder::at_end(&mut f);
        b.imm_u32(3);
        let inst = f.insts_in_order()[0];
        let m = msg(Sfid::Ugm, "d32", AddrSize::A64);
        assert_eq!(lsc_operands(&f, inst, &m), Err(MessageRule::NotAMessage));
        let s = SamplerMessage {
            op: SamplerOp::Ld,
            channels: 1,
        };
        assert_eq!(
            sampler_operands(&f, inst, &s),
            Err(MessageRule::NotAMessage)
        );
    }
}
