//! The legality rules of legacy data-port messages ([`DataportRule`]), each rendered as
//! the sentence that states it.

use crate::messages::op::LscOp;
use ir::dataport::{DpAddr, DpAtomicOp, DpMsg};
use ir::lsc::{AddrType, DataShape, DataSize, LscAtomicOp};
use std::fmt;

/// What an LSC-shaped message asks for that no legacy data-port message does.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum LegacyGap {
    /// A float add or subtract atomic: the legacy float atomics are `fmax`, `fmin` and
    /// `fcmpwr`.
    FloatAddAtomic(LscAtomicOp),
    /// A flat address narrower than 64 bits (stateless A32 messages are not modelled).
    FlatA32,
    /// A bindless surface (`bss`, `ss`).
    Bindless(AddrType),
    /// A 2D block message (they arrive with LSC).
    Block2d,
    /// Typed data other than `d32` (`d16u32` for atomics).
    TypedData(DataSize),
    /// A typed operation other than a quad load, quad store or atomic.
    TypedOp(LscOp),
    /// An atomic data size other than `d16u32`, `d32`, `d64`.
    AtomicData(DataSize),
    /// A vector of 8- or 16-bit elements: the byte scattered messages move one element
    /// per lane.
    NarrowVector(DataShape),
    /// An LSC intrinsic whose indices do not decode.
    Undecodable,
}

impl fmt::Display for LegacyGap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LegacyGap::FloatAddAtomic(op) => write!(
                f,
                "atomic {} (its float atomics are fmax, fmin and fcmpwr; float add and subtract arrive with LSC)",
                op.name()
            ),
            LegacyGap::FlatA32 => f.write_str(
                "flat addresses narrower than 64 bits (stateless A32 messages are not modelled)",
            ),
            LegacyGap::Bindless(t) => {
                write!(f, "the {} address model (bindless surfaces)", t.name())
            }
            LegacyGap::Block2d => f.write_str("2D block messages (they arrive with LSC)"),
            LegacyGap::TypedData(size) => write!(
                f,
                "typed {} data (typed messages carry 32-bit channels; atomics also 16-bit ones)",
                size.name()
            ),
            LegacyGap::TypedOp(op) => write!(
                f,
                "typed {op} (typed messages read, write and update texels by coordinates)"
            ),
            LegacyGap::AtomicData(size) => write!(
                f,
                "{} atomics (atomics are 16-, 32- or 64-bit)",
                size.name()
            ),
            LegacyGap::NarrowVector(shape) => write!(
                f,
                "{shape} (byte scattered messages move one 8- or 16-bit element per lane)"
            ),
            LegacyGap::Undecodable => f.write_str("an LSC message whose indices do not decode"),
        }
    }
}

/// A broken data-port rule. The platform is named by the caller's error.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DataportRule {
    /// The platform does not lower to legacy data-port messages: before Gfx7 it has no
    /// storage images, from Gfx12.5 it has LSC.
    NotLegacy {
        /// The platform.
        platform: String,
    },
    /// An A64 message before Gfx8.
    NoA64 {
        /// The platform.
        platform: String,
        /// The message family.
        msg: DpMsg,
    },
    /// A byte scattered message on surfaces or SLM before Haswell.
    NoByteScattered {
        /// The platform.
        platform: String,
    },
    /// A dword scattered message with an address model other than `bti`.
    DwordScatteredAddr {
        /// The model used.
        addr: DpAddr,
    },
    /// An 8-byte byte scattered message that is not A64, or on a platform without it.
    ByteScatteredEight {
        /// The platform.
        platform: String,
        /// The model used.
        addr: DpAddr,
    },
    /// A float operation in a typed atomic: typed atomics are integer only.
    TypedFloatAtomic {
        /// The operation.
        op: DpAtomicOp,
    },
    /// A float atomic before Gfx9.
    NoFloatAtomics {
        /// The platform.
        platform: String,
        /// The operation.
        op: DpAtomicOp,
    },
    /// An atomic width the message does not have.
    AtomicBits {
        /// The message family.
        msg: DpMsg,
        /// The address model (untyped atomics).
        addr: DpAddr,
        /// The operation.
        op: DpAtomicOp,
        /// The width.
        bits: u8,
    },
    /// A 16-bit atomic before Gfx12.
    NoHalfAtomics {
        /// The platform.
        platform: String,
    },
    /// A SIMD width the message does not take on the platform.
    SimdWidth {
        /// The platform.
        platform: String,
        /// The message family.
        msg: DpMsg,
        /// The width asked for.
        exec_size: u32,
        /// The widths the message takes.
        allowed: Vec<u32>,
    },
    /// A binding-table index above 251: the descriptor's field is 8 bits and 252 to
    /// 255 are Mesa's special indices (252 bindless from Gfx9, 253 and 255 stateless,
    /// 254 SLM; `brw_eu_defines.h`).
    Bti {
        /// The index.
        bti: u64,
    },
    /// An LSC-shaped message with no legacy data-port form.
    NoLegacyForm {
        /// The platform.
        platform: String,
        /// What has no form.
        gap: LegacyGap,
    },
    /// A typed message addressed with a coordinate count outside 1 to 4.
    TypedCoords {
        /// The count.
        coords: u32,
    },
}

impl fmt::Display for DataportRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DataportRule as R;
        match self {
            R::NotLegacy { platform } => write!(
                f,
                "{platform} has no legacy data-port messages to lower to: they are the memory messages of Gfx7 to Gfx12.0 (Ivy Bridge to Tiger Lake)"
            ),
            R::NoA64 { platform, msg } => write!(
                f,
                "{platform} has no A64 messages (@{msg} with dp_addr=a64): 64-bit stateless addresses arrive with Gfx8 (Broadwell)"
            ),
            R::NoByteScattered { platform } => write!(
                f,
                "{platform} has no byte scattered messages on surfaces: they arrive with Haswell"
            ),
            R::DwordScatteredAddr { addr } => write!(
                f,
                "dword scattered messages address binding-table surfaces (dp_addr=bti), found dp_addr={addr}"
            ),
            R::ByteScatteredEight { platform, addr } => {
                if *addr == DpAddr::A64 {
                    write!(
                        f,
                        "{platform} has no 8-byte A64 byte scattered messages (Gfx8 to Gfx11 have them)"
                    )
                } else {
                    write!(
                        f,
                        "8-byte byte scattered messages are A64 only, found dp_addr={addr}"
                    )
                }
            }
            R::TypedFloatAtomic { op } => write!(
                f,
                "typed atomics are integer operations, found dp_op={op}"
            ),
            R::NoFloatAtomics { platform, op } => write!(
                f,
                "{platform} has no float atomics (dp_op={op}): they arrive with Gfx9 (Sky Lake)"
            ),
            R::AtomicBits {
                msg,
                addr,
                op,
                bits,
            } => {
                let what = match msg {
                    DpMsg::TypedAtomic => "typed atomics are 32-bit (16-bit from Gfx12)".to_string(),
                    _ if *addr == DpAddr::A64 && op.is_float() => {
                        "A64 float atomics are 32-bit (16-bit from Gfx12)".to_string()
                    }
                    _ if *addr == DpAddr::A64 => {
                        "A64 integer atomics are 32- or 64-bit (16-bit from Gfx12)".to_string()
                    }
                    _ if op.is_float() || *op == DpAtomicOp::Cmpwr => {
                        format!("{op} atomics on dp_addr={addr} are 32-bit")
                    }
                    _ => format!(
                        "untyped integer atomics on dp_addr={addr} are 32-bit (16-bit from Gfx12)"
                    ),
                };
                write!(f, "{what}, found dp_bits={bits}")
            }
            R::NoHalfAtomics { platform } => write!(
                f,
                "{platform} has no 16-bit atomics: they arrive with Gfx12 (Tiger Lake)"
            ),
            R::SimdWidth {
                platform,
                msg,
                exec_size,
                allowed,
            } => {
                let list: Vec<String> = allowed.iter().map(|w| format!("SIMD{w}")).collect();
                write!(
                    f,
                    "@{msg} on {platform} takes {}, not SIMD{exec_size}",
                    list.join(" or ")
                )
            }
            R::Bti { bti } => write!(
                f,
                "binding-table index {bti} is not a surface's: data-port surfaces take 0 to 251 (252 is bindless, 253 and 255 stateless, 254 shared local memory)"
            ),
            R::NoLegacyForm { platform, gap } => write!(
                f,
                "{platform} has no LSC messages, and the legacy data port has no form for {gap}"
            ),
            R::TypedCoords { coords } => write!(
                f,
                "typed messages send 1 to 4 coordinates (U, V, R, LOD), found {coords}"
            ),
        }
    }
}

impl std::error::Error for DataportRule {}
