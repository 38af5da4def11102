//! A data-port message's operands as an interface: what the semantics read and write,
//! independent of where the values live (an IR instruction's operands, a vISA
//! interpreter's registers).

use crate::memory::AccessCtx;
use ir::interp::EnvError;
use std::fmt;

/// The operands of one data-port message sent for a set of lanes.
///
/// Sources are numbered as the IR's `@dp_*` intrinsics order them
/// ([`ir::IntrinsicOp::srcs`]): typed messages `u`, `v`, `r`, `lod` (0-3), then the
/// written `data` or the atomic's `src0`, `src1` (4, 5); the others the address (0),
/// then `data` or `src0`, `src1` (1, 2).
pub trait DpPayload {
    /// The lanes the message serves (active, predicate true), ascending.
    fn lanes(&self) -> Vec<usize>;
    /// The values of source `i` in lane `lane`.
    fn src(&self, i: usize, lane: usize) -> &[u64];
    /// Writes the destination of lane `lane`.
    fn set_dest(&mut self, lane: usize, values: &[u64]);
    /// What the access log records for lane `lane`.
    fn ctx(&self, lane: usize) -> AccessCtx;
    /// The binding-table index of the surface in lane `lane` (typed messages and
    /// `dp_addr=bti`).
    fn binding(&self, lane: usize) -> Result<u32, EnvError>;
}

/// Why a data-port message cannot execute: an encoding the hardware does not have, or
/// operands that do not fit it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DpExecError {
    /// The message is not one the hardware accepts, or not on this surface.
    Illegal {
        /// Why, in words.
        reason: String,
    },
    /// A lane's address is not aligned as the message needs.
    Misaligned {
        /// The address.
        address: u64,
        /// The alignment needed, in bytes.
        align: u32,
    },
    /// An operand has fewer values than the message reads.
    Shape {
        /// Which operand.
        operand: &'static str,
        /// Values needed.
        needed: usize,
        /// Values given.
        found: usize,
    },
    /// The executor was not told which generation runs the message.
    NoPlatform,
}

impl fmt::Display for DpExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DpExecError::Illegal { reason } => write!(f, "illegal data-port message: {reason}"),
            DpExecError::Misaligned { address, align } => write!(
                f,
                "address {address:#x} is not {align}-byte aligned, as the message needs"
            ),
            DpExecError::Shape {
                operand,
                needed,
                found,
            } => write!(
                f,
                "the message reads {needed} values of its {operand}, found {found}"
            ),
            DpExecError::NoPlatform => f.write_str(
                "legacy data-port messages need the platform they run on (its generation decides their behaviour)",
            ),
        }
    }
}

impl std::error::Error for DpExecError {}

/// The first `n` values of source `i` in lane `lane`, or a shape error naming it.
pub(crate) fn src_values<'p>(
    p: &'p dyn DpPayload,
    i: usize,
    lane: usize,
    n: usize,
    operand: &'static str,
) -> Result<&'p [u64], EnvError> {
    let v = p.src(i, lane);
    if v.len() < n {
        return Err(EnvError::at_lane(
            lane as u32,
            DpExecError::Shape {
                operand,
                needed: n,
                found: v.len(),
            },
        ));
    }
    Ok(&v[..n])
}

/// The byte that fills the undefined bytes of a register element (the upper bytes of
/// a 1- or 2-byte scattered read, the upper half of a 16-bit atomic's result): any
/// value is the hardware's, and a non-zero one catches a lowering that relies on them.
pub const UNDEFINED_BYTE: u8 = 0xA5;

/// `value`'s low `bytes` bytes with the rest of a 32-bit element undefined
/// ([`UNDEFINED_BYTE`]); 8 bytes and more are returned as they are.
pub fn with_undefined_upper(value: u64, bytes: u32) -> u64 {
    if bytes >= 4 {
        return value;
    }
    let low = value & ((1u64 << (8 * bytes)) - 1);
    let mut fill = 0u64;
    for b in bytes..4 {
        fill |= u64::from(UNDEFINED_BYTE) << (8 * b);
    }
    low | fill
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_upper_bytes() {
        assert_eq!(with_undefined_upper(0x1234_5678, 1), 0xA5A5_A578);
        assert_eq!(with_undefined_upper(0x1234_5678, 2), 0xA5A5_5678);
        assert_eq!(with_undefined_upper(0x1234_5678, 4), 0x1234_5678);
        assert_eq!(with_undefined_upper(u64::MAX, 8), u64::MAX);
    }
}
