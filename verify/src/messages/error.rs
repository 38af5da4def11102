//! Why a message cannot execute.

use ir::interp::EnvError;
use std::fmt;

/// Why a message cannot execute: an encoding the hardware does not accept, or operands
/// that do not fit the message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MessageError {
    /// An index is missing or does not decode.
    BadIndex {
        /// The index.
        index: &'static str,
    },
    /// A message the hardware does not accept (`docs/hardware/lsc-messages.md` §13).
    Illegal {
        /// Why.
        reason: String,
    },
    /// An operand does not have the shape the message needs.
    Shape {
        /// Why.
        reason: String,
    },
    /// A subgroup-level message (a block message, an image block access) run with
    /// some lanes of the subgroup inactive, or whose data does not spread over them.
    Subgroup {
        /// Why.
        reason: String,
    },
    /// A lane's address is not aligned as the message needs.
    Misaligned {
        /// The address.
        address: u64,
        /// The alignment needed, in bytes.
        align: u32,
    },
    /// An operand that must be uniform across the message's lanes is not.
    NotUniform {
        /// The operand.
        operand: &'static str,
        /// A lane whose value differs from the first lane's.
        lane: u32,
    },
}

impl MessageError {
    /// A message the hardware does not accept, as an error of the whole message.
    pub fn illegal(reason: impl Into<String>) -> EnvError {
        EnvError::new(MessageError::Illegal {
            reason: reason.into(),
        })
    }

    /// An operand of the wrong shape, as an error of the whole message.
    pub fn shape(reason: impl Into<String>) -> EnvError {
        EnvError::new(MessageError::Shape {
            reason: reason.into(),
        })
    }

    /// A missing or undecodable index, as an error of the whole message.
    pub fn bad_index(index: &'static str) -> EnvError {
        EnvError::new(MessageError::BadIndex { index })
    }
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::BadIndex { index } => write!(f, "index `{index}` is missing or invalid"),
            MessageError::Illegal { reason } => write!(f, "illegal message: {reason}"),
            MessageError::Shape { reason } => f.write_str(reason),
            MessageError::NotUniform { operand, lane } => write!(
                f,
                "the {operand} of a strided or block message must be uniform across its lanes, but lane {lane} differs"
            ),
            MessageError::Subgroup { reason } => f.write_str(reason),
            MessageError::Misaligned { address, align } => write!(
                f,
                "address {address:#x} is not {align}-byte aligned, as the message needs"
            ),
        }
    }
}

impl std::error::Error for MessageError {}
