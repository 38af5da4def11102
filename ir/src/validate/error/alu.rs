//! Errors of ALU instructions and constants: operand counts, bit sizes, component
//! counts.

use super::wording::plural;
use crate::alu::AluOp;
use crate::types::{AluType, Type};
use std::fmt;

/// What an unsized ALU operand's bit size must equal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BitSizeRef {
    /// The destination's (the op's result is unsized).
    Destination,
    /// The first unsized source's, source `n` (the op's result is sized).
    Source(usize),
}

impl fmt::Display for BitSizeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitSizeRef::Destination => f.write_str("the destination's bit size"),
            BitSizeRef::Source(i) => write!(f, "like source {i}"),
        }
    }
}

/// A problem with an ALU instruction, a `load_const` or an `undef`.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum AluError {
    /// An ALU instruction without a destination.
    MissingDest {
        /// The opcode.
        op: AluOp,
    },
    /// A `load_const` without a destination.
    ConstWithoutDest,
    /// An `undef` without a destination.
    UndefWithoutDest,
    /// A `load_const` whose value count is not its type's component count.
    ConstCount {
        /// How many values it has.
        values: usize,
        /// Its type.
        ty: Type,
    },
    /// A `load_const` value with bits set above its bit size.
    ConstTooWide {
        /// The value's position.
        index: usize,
        /// The value.
        value: u64,
        /// The bit size.
        bits: u8,
    },
    /// The wrong number of sources.
    SourceCount {
        /// The opcode.
        op: AluOp,
        /// How many it takes.
        expected: usize,
        /// How many there are.
        found: usize,
    },
    /// A destination whose component count is not the op's fixed output size.
    DestComponents {
        /// The opcode.
        op: AluOp,
        /// The op's output size.
        expected: u8,
        /// The destination's component count.
        found: u8,
    },
    /// A destination whose bit size is not the op's sized output type's.
    DestBits {
        /// The opcode.
        op: AluOp,
        /// The op's output type.
        expected: AluType,
        /// The destination's bit size.
        found: u8,
    },
    /// A float result of a bit size floats do not have.
    FloatDestBits {
        /// The opcode.
        op: AluOp,
        /// The destination's bit size.
        found: u8,
    },
    /// A source whose bit size is not its sized input type's.
    SourceBits {
        /// The opcode.
        op: AluOp,
        /// The source's position.
        index: usize,
        /// The input type.
        expected: AluType,
        /// The source's bit size.
        found: u8,
    },
    /// An unsized source whose bit size differs from the other unsized operands'.
    SourceBitsMismatch {
        /// The opcode.
        op: AluOp,
        /// The source's position.
        index: usize,
        /// The bit size the unsized operands share.
        expected: u8,
        /// Where that bit size comes from.
        reference: BitSizeRef,
        /// The source's bit size.
        found: u8,
    },
    /// A float source of a bit size floats do not have.
    FloatSourceBits {
        /// The opcode.
        op: AluOp,
        /// The source's position.
        index: usize,
        /// The source's bit size.
        found: u8,
    },
    /// A source of an op defined only on 32- and 64-bit operands (`ufind_msb`).
    Source32Or64 {
        /// The opcode.
        op: AluOp,
        /// The source's position.
        index: usize,
        /// The source's bit size.
        found: u8,
    },
    /// A source with the wrong component count.
    SourceComponents {
        /// The opcode.
        op: AluOp,
        /// The source's position.
        index: usize,
        /// The count it must have.
        expected: u8,
        /// Whether that count is the destination's (the input size is unsized).
        like_dest: bool,
        /// The source's component count.
        found: u8,
    },
}

impl fmt::Display for AluError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AluError::MissingDest { op } => write!(f, "`{}` must define a value", op.name()),
            AluError::ConstWithoutDest => f.write_str("`load_const` must define a value"),
            AluError::UndefWithoutDest => f.write_str("`undef` must define a value"),
            AluError::ConstCount { values, ty } => write!(
                f,
                "`load_const` has {values} value{}, expected {} for type {ty}",
                plural(*values as u64),
                ty.num_components()
            ),
            AluError::ConstTooWide { index, value, bits } => write!(
                f,
                "`load_const` value {index} (0x{value:x}) does not fit in {bits} bit{}",
                plural(u64::from(*bits))
            ),
            AluError::SourceCount {
                op,
                expected,
                found,
            } => write!(
                f,
                "`{}` takes {expected} source{}, found {found}",
                op.name(),
                plural(*expected as u64)
            ),
            AluError::DestComponents {
                op,
                expected,
                found,
            } => write!(
                f,
                "`{}` produces {expected} components, but the destination has {found}",
                op.name()
            ),
            AluError::DestBits {
                op,
                expected,
                found,
            } => write!(
                f,
                "`{}` produces a {}-bit result ({expected}), but the destination is {found}-bit",
                op.name(),
                expected.bits
            ),
            AluError::FloatDestBits { op, found } => write!(
                f,
                "`{}` produces a {found}-bit float; floats are 16, 32 or 64-bit",
                op.name()
            ),
            AluError::SourceBits {
                op,
                index,
                expected,
                found,
            } => write!(
                f,
                "source {index} of `{}` must be {}-bit ({expected}), found {found}-bit",
                op.name(),
                expected.bits
            ),
            AluError::SourceBitsMismatch {
                op,
                index,
                expected,
                reference,
                found,
            } => write!(
                f,
                "source {index} of `{}` is {found}-bit, expected {expected}-bit ({reference})",
                op.name()
            ),
            AluError::FloatSourceBits { op, index, found } => write!(
                f,
                "source {index} of `{}` is a {found}-bit float; floats are 16, 32 or 64-bit",
                op.name()
            ),
            AluError::Source32Or64 { op, index, found } => write!(
                f,
                "source {index} of `{}` must be 32 or 64-bit, found {found}-bit",
                op.name()
            ),
            AluError::SourceComponents {
                op,
                index,
                expected,
                like_dest,
                found,
            } => write!(
                f,
                "source {index} of `{}` has {found} component{}, expected {expected}{}",
                op.name(),
                plural(u64::from(*found)),
                if *like_dest {
                    " (the destination's component count)"
                } else {
                    ""
                }
            ),
        }
    }
}
