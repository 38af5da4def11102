//! The operation of an LSC message ([`LscOp`]) and the cache-control class it uses.

use ir::lsc::{LscAtomicOp, Sfid};
use ir::IntrinsicOp;
use std::fmt;

/// The operation of an LSC message (docs/hardware/lsc-messages.md §2).
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

/// Which column of the cache-control table (docs/hardware/lsc-messages.md §9) an operation uses.
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
    pub(crate) fn name(self) -> &'static str {
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

    /// The SFIDs that implement the operation (docs/hardware/lsc-messages.md §2; IGC's parser rejects every
    /// `.tgm` load but `lsc_load_quad` and every `.tgm` store but `lsc_store_quad`, §6).
    pub(crate) fn sfid_allowed(self, sfid: Sfid) -> bool {
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
