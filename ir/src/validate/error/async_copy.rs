//! Errors of group async copies: the pointers and the constant shape operands.

use super::wording::Intr;
use crate::intrinsic::IntrinsicOp;
use std::fmt;

/// A problem with a `group_async_copy_2d2d` or `group_async_copy_3d3d`.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum AsyncCopyError {
    /// A pointer that is neither a 64-bit global address nor a 32-bit shared offset.
    PointerBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The pointer (`dst` or `src`).
        pointer: &'static str,
        /// Its bit size.
        found: u8,
    },
    /// Both pointers in the same memory.
    SameMemory {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The pointers' bit size: 64 (both global) or 32 (both shared).
        bits: u8,
    },
    /// A constant `elem_bytes` that is not the size of an OpenCL C gentype.
    ElemBytes {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its value.
        value: u64,
    },
    /// A constant line length below the elements per line: lines overlap.
    LinesOverlap {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The side (`src` or `dst`).
        side: &'static str,
        /// Its line length.
        line_length: u64,
        /// The elements per line.
        elems_per_line: u64,
    },
    /// A constant plane area below lines x line length: planes overlap.
    PlanesOverlap {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The side (`src` or `dst`).
        side: &'static str,
        /// Its plane area.
        plane_area: u64,
        /// The lines per plane.
        lines: u64,
        /// Its line length.
        line_length: u64,
    },
}

impl fmt::Display for AsyncCopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsyncCopyError::PointerBits { op, pointer, found } => write!(
                f,
                "{}: `{pointer}` is {found}-bit; expected a 64-bit global address or a 32-bit shared-memory offset",
                Intr(*op)
            ),
            AsyncCopyError::SameMemory { op, bits } => {
                let what = if *bits == 64 {
                    "64-bit global addresses"
                } else {
                    "32-bit shared-memory offsets"
                };
                write!(
                    f,
                    "{}: `dst` and `src` are both {what}; a group async copy moves data between shared (Workgroup, a 32-bit offset) and global (CrossWorkgroup, a 64-bit address) memory, so exactly one side is shared",
                    Intr(*op)
                )
            }
            AsyncCopyError::ElemBytes { op, value } => write!(
                f,
                "{}: elem_bytes is {value}; expected a power of two from 1 to 128 (the size of an OpenCL C gentype)",
                Intr(*op)
            ),
            AsyncCopyError::LinesOverlap {
                op,
                side,
                line_length,
                elems_per_line,
            } => write!(
                f,
                "{}: {side}_line_length {line_length} is smaller than elems_per_line {elems_per_line}: the lines overlap, which the specification leaves undefined",
                Intr(*op)
            ),
            AsyncCopyError::PlanesOverlap {
                op,
                side,
                plane_area,
                lines,
                line_length,
            } => {
                // In 128 bits: the operands are 32-bit when valid, but a constant of
                // another size (reported on its own) must not overflow here.
                let needed = u128::from(*lines) * u128::from(*line_length);
                write!(
                    f,
                    "{}: {side}_plane_area {plane_area} is smaller than lines x {side}_line_length = {lines} x {line_length} = {needed}: the planes overlap, which the specification leaves undefined",
                    Intr(*op)
                )
            }
        }
    }
}
