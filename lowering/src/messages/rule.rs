//! The message rules ([`MessageRule`]), each rendered as the sentence that states it,
//! and the error naming the instruction that breaks one ([`MessageError`]).

use super::block2d::Block2dRule;
use super::dataport::rule::DataportRule;
use super::op::{LscOp, OpClass};
use ir::lsc::{AddrSize, AddrType, CacheControl, DataSize, Sfid};
use ir::{Function, IndexKind, Inst, Span, Type};
use std::fmt;

/// A broken message rule. The `Display` text starts with the section of
/// `docs/hardware/lsc-messages.md` that states the rule.
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
    /// [`Device::has_a64`](crate::Device::has_a64)).
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
    /// `fadd`/`fsub` on `.slm`, which has neither on any platform (§2, §13.6).
    SlmFloatAtomic {
        /// Operation.
        op: LscOp,
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
    /// A `resinfo` of a texel buffer: the message is defined for 1D, 2D, 3D and cube
    /// surfaces (IGC's `documentation/visa/instructions/INFO.md`).
    ResinfoOfBuffer,
    /// A sampler send descriptor asked for a platform whose layout is not described
    /// here (before Gfx9, or Xe2, whose descriptor moves fields).
    SamplerDescriptorUnknown {
        /// Platform name.
        platform: String,
    },
    /// A sampler message at a SIMD width other than 8 or 16.
    SamplerSimd {
        /// The width.
        simd: u32,
    },
    /// A sampler message the platform's sampler does not have (`ld_lz` arrives with
    /// Gfx9).
    SamplerOpUnavailable {
        /// The vISA mnemonic of the operation.
        op: &'static str,
        /// Platform name.
        platform: String,
    },
    /// Message operands asked of an instruction that is not that kind of message.
    NotAMessage,
    /// A 2D block message that breaks a rule of the block2d table (docs/hardware/lsc-messages.md §8, §13.8,
    /// §13.9; [`crate::messages::block2d`]).
    Block2d(Block2dRule),
    /// A typed block message without an image, or an untyped one with one (docs/hardware/lsc-messages.md §5:
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
    /// A legacy data-port message the platform does not have (no legacy data port
    /// from Gfx12.5, or a message its generation lacks).
    Dataport(DataportRule),
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
                    "docs/hardware/lsc-messages.md §2: {op} is not available on .{}{hint}",
                    sfid.name()
                )
            }
            R::TgmAddrSize { size } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.1: .tgm messages take :a32 addresses, found :{}",
                size.name()
            ),
            R::TgmFlat => write!(
                f,
                "docs/hardware/lsc-messages.md §13.1: .tgm messages need a stateful surface (bti, bss, ss), found flat"
            ),
            R::SlmNotFlat { addr_type } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.1: .slm messages take flat addresses only, found {}",
                addr_type.name()
            ),
            R::SlmA64 => write!(
                f,
                "docs/hardware/lsc-messages.md §5: .slm messages take :a16 or :a32 addresses, found :a64"
            ),
            R::A64Unavailable => write!(
                f,
                ":a64 addresses need 64-bit flat (A64) messages, which this platform (before Gfx8) does not have"
            ),
            R::A16NotSlm { sfid } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.1: :a16 addresses are legal only on .slm, found .{}",
                sfid.name()
            ),
            R::QuadMask { op, mask } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.2: {op} needs a non-zero channel mask within .xyzw, found 0x{mask:X}"
            ),
            R::StoreQuadMask { mask } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found {}",
                channel_mask_suffix(*mask)
            ),
            R::MaskOnVector { op } => write!(
                f,
                "docs/hardware/lsc-messages.md §4: {op} takes a vector size, not a channel mask (only lsc_load_quad and lsc_store_quad have one)"
            ),
            R::VectorOnQuad { op, vect } => write!(
                f,
                "docs/hardware/lsc-messages.md §4: {op} is shaped by its channel mask and takes no vector size, found x{vect}"
            ),
            R::VectorDataSize { size, vect } => {
                if size.is_conversion() {
                    write!(
                        f,
                        "docs/hardware/lsc-messages.md §13.3: {} can never be a vector, found x{vect}",
                        size.name()
                    )
                } else {
                    write!(
                        f,
                        "docs/hardware/lsc-messages.md §13.3: non-transposed vector size x{vect} needs d32 or d64 data, found {}",
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
                        "docs/hardware/lsc-messages.md §13.3: vector size x{vect} exists only transposed"
                    )
                } else {
                    let legal = if *sfid == Sfid::Ugml {
                        "{1, 2, 4}"
                    } else {
                        "{1, 2, 3, 4, 8}"
                    };
                    write!(
                        f,
                        "docs/hardware/lsc-messages.md §13.3: .{} vector sizes are {legal}, found x{vect}",
                        sfid.name()
                    )
                }
            }
            R::TransposeQuad { op } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.4: {op} has a channel mask and cannot be transposed"
            ),
            R::TransposeAtomic { op } => {
                write!(f, "docs/hardware/lsc-messages.md §13.4: atomics cannot be transposed ({op})")
            }
            R::AtomicDataSize { op, size } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.5: {op} takes d16u32, d32 or d64 data, found {}",
                size.name()
            ),
            R::AtomicVector { op, vect } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.5: {op} takes one element per address, found x{vect}"
            ),
            R::AtomicOperands {
                op,
                expected,
                found,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.5: {op} takes {expected} data operand{} (the other sources are %null), found {found}",
                if *expected == 1 { "" } else { "s" }
            ),
            R::TgmFloatAtomic { op, platform } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.6: {op} on .tgm needs Xe2 (verx10 200) or later, {platform} has none"
            ),
            R::SlmFloatAtomic { op } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.6: {op} exists on .ugm and .ugml (and .tgm from Xe2), not on .slm"
            ),
            R::SlmD64Atomic { op } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.6: the only 64-bit .slm atomic is lsc_atomic_icas, found {op}"
            ),
            R::CacheNotDefault {
                sfid,
                cache,
                platform: None,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.7: .{} messages take only default caching (.df.df), found .{cache}",
                sfid.name()
            ),
            R::CacheNotDefault {
                sfid,
                cache,
                platform: Some(p),
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.7: .{} messages take only default caching (.df.df) before Xe2, found .{cache} on {p}",
                sfid.name()
            ),
            R::AtomicL1 { cache } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.7: atomics need L1 uncached (.uc) or default caching (.df.df), found .{cache}"
            ),
            R::CacheEncoding {
                class,
                cache,
                platform,
                xe2,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.7: .{cache} has no {} cache-control encoding for {} on {platform} (§9)",
                if *xe2 { "4-bit" } else { "3-bit" },
                class.name()
            ),
            R::DataPayload {
                grfs,
                platform,
                exec_size,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.10: the data payload takes {grfs} registers at SIMD{exec_size} on {platform}, the limit is 8"
            ),
            R::OperandLength { operand, grfs } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.10: {operand} takes {grfs} registers, the limit is 31"
            ),
            R::TypedExecSize {
                exec_size,
                max,
                platform,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.11: typed messages on {platform} are at most SIMD{max}, the device asks for SIMD{exec_size}"
            ),
            R::TypedOffset { offset } => write!(
                f,
                "docs/hardware/lsc-messages.md §13.14: typed messages take no immediate offset, found {offset}"
            ),
            R::TypedUMissing => write!(
                f,
                "docs/hardware/lsc-messages.md §13.14: typed messages need a U coordinate (V, R and LOD may be null)"
            ),
            R::SlmOffsetRange { offset } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: an :a16 immediate offset must fit in ±0x7FFF, found {offset}"
            ),
            R::StatefulWithoutSurface { addr_type } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: the {} address model needs a surface, but the message names no image",
                addr_type.name()
            ),
            R::FlatWithSurface => write!(
                f,
                "docs/hardware/lsc-messages.md §5: flat messages take no surface, but the message names an image"
            ),
            R::BtiRange { bti } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: binding-table indices are 8 bits, the message reaches {bti}"
            ),
            R::AddressBits { size, bits } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: :{} addresses need a {}-bit address register, found {bits}-bit",
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
            R::ResinfoOfBuffer => write!(
                f,
                "resinfo reads 1D, 2D, 3D and cube surfaces, not a texel buffer (IGC INFO.md)"
            ),
            R::SamplerDescriptorUnknown { platform } => write!(
                f,
                "the sampler send descriptor is described for Gfx9 to Gfx12.5 (Mesa's \
                 brw_sampler_desc), not for {platform}"
            ),
            R::SamplerSimd { simd } => write!(
                f,
                "sampler messages are SIMD8 or SIMD16, not SIMD{simd}"
            ),
            R::SamplerOpUnavailable { op, platform } => write!(
                f,
                "{platform}'s sampler has no `{op}` (Mesa's GFX9_SAMPLER_MESSAGE_SAMPLE_LD_LZ \
                 arrives with Gfx9)"
            ),
            R::NotAMessage => write!(f, "the instruction is not a message of that kind"),
            R::Block2d(r) => write!(f, "{r}"),
            R::Block2dSurface { typed: true } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: typed block2d takes its surface from the surface state, but the message names no image"
            ),
            R::Block2dSurface { typed: false } => write!(
                f,
                "docs/hardware/lsc-messages.md §5: untyped block2d is flat (the surface is in the payload), but the message names an image"
            ),
            R::Block2dData {
                operand,
                found,
                register_bytes,
            } => write!(
                f,
                "docs/hardware/lsc-messages.md §8: the {operand} ({found}) does not spread the {register_bytes}-byte register image over a subgroup (whole components per lane, a power-of-two number of lanes up to 32)"
            ),
            R::NoLsc { platform, verx10 } => write!(
                f,
                "{platform} (verx10 {verx10}) has no LSC messages (DG2, verx10 125, is the first); its messages are the legacy data port's, which the lowering rewrites LSC-shaped messages into"
            ),
            R::Dataport(rule) => write!(f, "{rule}"),
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
        Some(v) => format!("{} = {name}", func.value_name(v)),
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
